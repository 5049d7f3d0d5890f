//! The level file as written: serde types that mirror the RON text before any validation.
//!
//! Everything a person can get wrong is kept loose here (signed numbers, string legend keys) so
//! that validation can say what is wrong in level terms instead of serde's.
//!
//! The lists that a file can make long keep only what validation can use: the map keeps one row
//! past the height limit, the crate overrides one past theirs, and the legend stops at its first
//! repeated key. What follows is still read (so syntax errors anywhere are reported) but not
//! kept, so memory follows the level, not the file. A crate override that repeats a cell stops
//! reading there and then, as an error.

use std::collections::HashSet;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::bounds::{MAX_OVERRIDES, MAX_SIDE};

/// The whole file: `(name: ..., hint: ..., map: [...], legend: {...}, crates: [...], par: (...))`.
#[derive(Debug, Deserialize)]
#[serde(rename = "Level", deny_unknown_fields)]
pub(crate) struct RawLevel {
    pub name: String,
    #[serde(default)]
    pub hint: Option<String>,
    pub map: Rows,
    #[serde(default)]
    pub legend: Entries<LegendKey, LegendEntry>,
    #[serde(default)]
    pub crates: Overrides,
    #[serde(default)]
    pub par: Option<RawPar>,
}

/// `par: (author: 24.5, gold: 30, silver: 45, bronze: 70)`: seconds to clear the room for each
/// medal; the author time (the best route known) is optional.
#[derive(Debug, Deserialize)]
#[serde(rename = "Par", deny_unknown_fields)]
pub(crate) struct RawPar {
    #[serde(default)]
    pub author: Option<f64>,
    pub gold: f64,
    pub silver: f64,
    pub bronze: f64,
}

/// What a legend character stands for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) enum LegendEntry {
    Wall,
    Floor,
    Void,
    Coin,
    Crate {
        #[serde(default)]
        health: Option<i64>,
        #[serde(default)]
        skin: Option<String>,
        #[serde(default)]
        coin: bool,
    },
}

/// `(at: (column, row), health: N, skin: "...", coin: bool)`: changes one crate of the map.
#[derive(Debug, Deserialize)]
#[serde(rename = "CrateOverride", deny_unknown_fields)]
pub(crate) struct RawOverride {
    pub at: (i64, i64),
    #[serde(default)]
    pub health: Option<i64>,
    #[serde(default)]
    pub skin: Option<String>,
    #[serde(default)]
    pub coin: Option<bool>,
}

/// A legend key as written: `'x'` or `"x"`. Validation insists on exactly one character.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LegendKey(pub String);

impl<'de> Deserialize<'de> for LegendKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = LegendKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a character like 'x'")
            }
            fn visit_char<E: de::Error>(self, c: char) -> Result<LegendKey, E> {
                Ok(LegendKey(c.to_string()))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<LegendKey, E> {
                Ok(LegendKey(s.to_owned()))
            }
        }
        deserializer.deserialize_any(KeyVisitor)
    }
}

/// A RON map kept as written: in file order, duplicates included (a `BTreeMap` would silently
/// keep only the last of two equal keys, hiding the mistake). Entries after the first repeated
/// key are read but not kept: validation stops at that key.
#[derive(Debug)]
pub(crate) struct Entries<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<'de, K, V> Deserialize<'de> for Entries<K, V>
where
    K: Deserialize<'de> + Clone + Eq + Hash,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K, V> Visitor<'de> for EntriesVisitor<K, V>
        where
            K: Deserialize<'de> + Clone + Eq + Hash,
            V: Deserialize<'de>,
        {
            type Value = Entries<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map like { 'x': Wall }")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                let mut keys = HashSet::new();
                while let Some((key, value)) = map.next_entry::<K, V>()? {
                    let repeated = !keys.insert(key.clone());
                    entries.push((key, value));
                    if repeated {
                        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                    }
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}

/// The map rows: all of them up to one past [`MAX_SIDE`], which is all validation needs to
/// report a map too tall; the rest are counted.
#[derive(Debug, Default)]
pub(crate) struct Rows {
    pub rows: Vec<String>,
    /// Rows in the file, kept or not.
    pub total: usize,
}

impl<'de> Deserialize<'de> for Rows {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RowsVisitor;
        impl<'de> Visitor<'de> for RowsVisitor {
            type Value = Rows;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of strings, one per map row")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Rows, A::Error> {
                let mut rows = Rows::default();
                let keep = MAX_SIDE as usize + 1;
                while rows.rows.len() < keep {
                    let Some(row) = seq.next_element::<String>()? else {
                        rows.total = rows.rows.len();
                        return Ok(rows);
                    };
                    rows.rows.push(row);
                }
                rows.total = rows.rows.len();
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    rows.total += 1;
                }
                Ok(rows)
            }
        }
        deserializer.deserialize_seq(RowsVisitor)
    }
}

/// The crate overrides, in file order, at most one past [`MAX_OVERRIDES`]: validation stops
/// there.
///
/// Reading stops at the first override that names a cell an earlier one named, with a
/// [`RepeatedOverride`] error: a file of a million copies of one override is rejected at the
/// second, without reading or keeping the rest.
#[derive(Debug, Default)]
pub(crate) struct Overrides(pub Vec<RawOverride>);

impl<'de> Deserialize<'de> for Overrides {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OverridesVisitor;
        impl<'de> Visitor<'de> for OverridesVisitor {
            type Value = Overrides;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of crate overrides like (at: (3, 2), health: 5)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Overrides, A::Error> {
                let mut items: Vec<RawOverride> = Vec::new();
                let mut cells = HashSet::new();
                while items.len() <= MAX_OVERRIDES {
                    let Some(item) = seq.next_element::<RawOverride>()? else {
                        return Ok(Overrides(items));
                    };
                    if !cells.insert(item.at) {
                        let repeat = RepeatedOverride {
                            // The set saw this cell, so some earlier item has it.
                            first: items.iter().position(|o| o.at == item.at).unwrap_or(0),
                            second: items.len(),
                            at: item.at,
                        };
                        return Err(de::Error::custom(repeat.message()));
                    }
                    items.push(item);
                }
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Overrides(items))
            }
        }
        deserializer.deserialize_seq(OverridesVisitor)
    }
}

/// Two crate overrides of one cell: the error that stops reading a file.
///
/// serde errors carry only text, so this travels in ron's error message and is read back from
/// it; both directions are here and nowhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RepeatedOverride {
    /// Index of the first override of the cell.
    pub first: usize,
    /// Index of the override that repeats it.
    pub second: usize,
    /// The cell, as written.
    pub at: (i64, i64),
}

impl RepeatedOverride {
    const TAG: &'static str = "crate-room: repeated crate override";

    fn message(&self) -> String {
        let (x, y) = self.at;
        format!("{} {} {} {x} {y}", Self::TAG, self.first, self.second)
    }

    /// The repeat a message of [`message`](Self::message) describes; `None` for any other.
    pub fn from_message(message: &str) -> Option<Self> {
        let mut numbers = message.strip_prefix(Self::TAG)?.split_whitespace();
        let mut next = || numbers.next()?.parse::<i64>().ok();
        let (first, second, x, y) = (next()?, next()?, next()?, next()?);
        Some(RepeatedOverride {
            first: usize::try_from(first).ok()?,
            second: usize::try_from(second).ok()?,
            at: (x, y),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_override_survives_the_trip_through_an_error_message() {
        let repeat = RepeatedOverride {
            first: 3,
            second: 70_000,
            at: (-5, i64::MAX),
        };
        assert_eq!(
            RepeatedOverride::from_message(&repeat.message()),
            Some(repeat)
        );
        assert_eq!(RepeatedOverride::from_message("invalid type: string"), None);
    }
}
