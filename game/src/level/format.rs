//! The level file as written: serde types that mirror the RON text before any validation.
//!
//! Everything a person can get wrong is kept loose here (signed numbers, string legend keys) so
//! that validation can say what is wrong in level terms instead of serde's.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

/// The whole file: `(name: ..., map: [...], legend: {...}, crates: [...])`.
#[derive(Debug, Deserialize)]
#[serde(rename = "Level", deny_unknown_fields)]
pub(crate) struct RawLevel {
    pub name: String,
    pub map: Vec<String>,
    #[serde(default)]
    pub legend: Entries<LegendKey, LegendEntry>,
    #[serde(default)]
    pub crates: Vec<RawOverride>,
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
#[derive(Debug)]
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
/// keep only the last of two equal keys, hiding the mistake).
#[derive(Debug)]
pub(crate) struct Entries<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Entries<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<K, V> {
            type Value = Entries<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map like { 'x': Wall }")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}
