//! Turning a syntactically valid [`RawLevel`] into a [`Level`], or the first thing wrong with it.

use std::collections::HashMap;

use super::bounds::{
    HEALTH_RANGE, MAX_HINT_CHARS, MAX_NAME_CHARS, MAX_OVERRIDES, MAX_PAR_SECONDS, MAX_SIDE,
    MAX_SKIN_CHARS,
};
use super::error::LevelError;
use super::escape::quoted_char;
use super::excerpt::excerpt;
use super::format::{LegendEntry, LegendKey, Overrides, RawLevel, RawPar};
use super::parsed::{Cell, DEFAULT_SKINS, Level, Skin, Tile};
use super::reporter::Reporter;
use super::spans::Step::{self, Field, Item, Key, Value};
use super::spelling::suggest;
use crate::campaign::medals::{Medal, Par};
use crate::sim::STEPS_PER_SECOND;

/// What one map character places on its cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Glyph {
    Tile(Tile),
    Player,
    Coin,
    Crate {
        health: u32,
        skin: String,
        coin: bool,
    },
}

/// What `check` says of a map `rows` rows tall, if that is too many.
pub(crate) fn map_rows_message(rows: usize) -> Option<String> {
    let max = MAX_SIDE as usize;
    (rows > max).then(|| format!("the map has {rows} rows; the limit is {max}"))
}

/// What `check` says of a map `width` cells wide, if that is too wide.
pub(crate) fn map_width_message(width: usize) -> Option<String> {
    let max = MAX_SIDE as usize;
    (width > max).then(|| format!("the map is {width} cells wide; the limit is {max}"))
}

/// What a built-in map character places; `None` for any other character.
pub(crate) fn built_in(c: char) -> Option<Glyph> {
    let default_crate = |health, skin: &str, coin| Glyph::Crate {
        health,
        skin: skin.to_owned(),
        coin,
    };
    Some(match c {
        '#' => Glyph::Tile(Tile::Wall),
        '.' => Glyph::Tile(Tile::Floor),
        ' ' => Glyph::Tile(Tile::Void),
        '@' => Glyph::Player,
        'c' => default_crate(3, DEFAULT_SKINS[0], false),
        'C' => default_crate(6, DEFAULT_SKINS[1], false),
        '$' => default_crate(3, DEFAULT_SKINS[0], true),
        // A keg's health never drops: a hit lights its fuse instead.
        'k' => default_crate(1, DEFAULT_SKINS[2], false),
        'o' => Glyph::Coin,
        _ => return None,
    })
}

/// What a legend entry of a level that passed validation places (its defaults filled in).
pub(crate) fn legend_glyph(entry: &LegendEntry) -> Glyph {
    match entry {
        LegendEntry::Wall => Glyph::Tile(Tile::Wall),
        LegendEntry::Floor => Glyph::Tile(Tile::Floor),
        LegendEntry::Void => Glyph::Tile(Tile::Void),
        LegendEntry::Coin => Glyph::Coin,
        LegendEntry::Crate { health, skin, coin } => Glyph::Crate {
            health: health
                .unwrap_or(LEGEND_CRATE_HEALTH)
                .clamp(*HEALTH_RANGE.start(), *HEALTH_RANGE.end()) as u32,
            skin: skin.clone().unwrap_or_else(|| DEFAULT_SKINS[0].to_owned()),
            coin: *coin,
        },
    }
}

/// Hint for a crate override whose `at` misses: how `at` counts.
const AT_HINT: &str = "`at` is (column, row), counted from 0 at the top-left";

/// Default health of a legend crate that gives none.
const LEGEND_CRATE_HEALTH: i64 = 3;

/// Validation of one file: the raw level, and where to point when something is wrong with it.
///
/// Positions are looked up only once a problem is found, so a valid level never pays for them.
pub(super) struct Validator<'a> {
    pub(super) rep: &'a Reporter<'a>,
    pub(super) skins: &'a [&'a str],
}

pub(crate) fn build(
    raw: RawLevel,
    rep: &Reporter<'_>,
    skins: &[&str],
) -> Result<Level, LevelError> {
    let v = Validator { rep, skins };
    v.name(&raw.name)?;
    let legend = v.legend(raw.legend.0)?;
    let mut level = v.map(raw.name, &raw.map, &legend)?;
    v.overrides(&raw.crates, &raw.map.rows, &mut level)?;
    level.par = raw.par.map(|par| v.par(&par)).transpose()?;
    level.hint = raw.hint.map(|hint| v.hint(hint)).transpose()?;
    Ok(level)
}

impl Validator<'_> {
    /// Byte offset of the value at `path`, or of the deepest value along it that can be found.
    pub(super) fn at(&self, path: &[Step<'_>]) -> usize {
        self.rep.spans.nearest(path)
    }

    /// Byte offset of character `index` of the string at `path` (its closing quote if `index`
    /// is its length), falling back to the string itself.
    pub(super) fn char_at(&self, path: &[Step<'_>], index: usize) -> usize {
        let spans = self.rep.spans;
        spans
            .find(path)
            .and_then(|start| spans.char_in_str(start, index))
            .unwrap_or_else(|| self.at(path))
    }

    fn name(&self, name: &str) -> Result<(), LevelError> {
        if name.trim().is_empty() {
            return Err(self
                .rep
                .at(self.at(&[Field("name")]), "the level name is empty")
                .with_hint("give it a name, e.g. `name: \"The Crate Room\"`"));
        }
        let len = name.chars().count();
        if len > MAX_NAME_CHARS {
            return Err(self
                .rep
                .at(
                    self.char_at(&[Field("name")], MAX_NAME_CHARS),
                    format!(
                        "the level name is {len} characters long; the limit is {MAX_NAME_CHARS}"
                    ),
                )
                .with_hint("the name is shown in one line of the HUD; shorten it"));
        }
        Ok(())
    }

    /// Check the hint: one line of text, not empty, at most [`MAX_HINT_CHARS`] characters.
    fn hint(&self, hint: String) -> Result<String, LevelError> {
        let example = "one line that says what the level teaches, e.g. \
                       `hint: \"Kegs two tiles apart go off as a wave\"`";
        if hint.trim().is_empty() {
            return Err(self
                .rep
                .at(self.at(&[Field("hint")]), "the hint is empty")
                .with_hint(format!("write {example}, or leave `hint` out")));
        }
        if let Some(i) = hint.chars().position(char::is_control) {
            return Err(self
                .rep
                .at(
                    self.char_at(&[Field("hint")], i),
                    "the hint holds a line break or a control character",
                )
                .with_hint(format!("the hint is shown as one line; write {example}")));
        }
        let len = hint.chars().count();
        if len > MAX_HINT_CHARS {
            return Err(self
                .rep
                .at(
                    self.char_at(&[Field("hint")], MAX_HINT_CHARS),
                    format!("the hint is {len} characters long; the limit is {MAX_HINT_CHARS}"),
                )
                .with_hint("the hint is shown in one line over the room; shorten it"));
        }
        Ok(hint)
    }

    fn legend(
        &self,
        entries: Vec<(LegendKey, LegendEntry)>,
    ) -> Result<HashMap<char, Glyph>, LevelError> {
        // Each character, with what it places and the index of its entry.
        let mut legend: HashMap<char, (Glyph, usize)> = HashMap::new();
        for (i, (key, entry)) in entries.into_iter().enumerate() {
            let key_at = || self.at(&[Field("legend"), Key(i)]);
            let mut chars = key.0.chars();
            let c = match (chars.next(), chars.next()) {
                (Some(c), None) => c,
                _ => {
                    return Err(self
                        .rep
                        .at(
                            key_at(),
                            format!(
                                "legend key \"{}\" is not a single character",
                                excerpt(&key.0)
                            ),
                        )
                        .with_hint("each legend key is one map character, written like 'x'"));
                }
            };
            if built_in(c).is_some() {
                return Err(self
                    .rep
                    .at(
                        key_at(),
                        format!("legend redefines the built-in character {}", quoted_char(c)),
                    )
                    .with_hint(
                        "the built-in characters `#` `.` ` ` `@` `c` `C` `$` `o` keep their \
                         meaning; pick another character",
                    ));
            }
            if let Some(&(_, first)) = legend.get(&c) {
                let line = self
                    .rep
                    .spans
                    .pos(self.at(&[Field("legend"), Key(first)]))
                    .line;
                return Err(self
                    .rep
                    .at(key_at(), format!("legend defines {} twice", quoted_char(c)))
                    .with_hint(format!("the first definition is on line {line}; keep one")));
            }
            let glyph = match entry {
                LegendEntry::Wall => Glyph::Tile(Tile::Wall),
                LegendEntry::Floor => Glyph::Tile(Tile::Floor),
                LegendEntry::Void => Glyph::Tile(Tile::Void),
                LegendEntry::Coin => Glyph::Coin,
                LegendEntry::Crate { health, skin, coin } => {
                    let health = self.health(
                        health.unwrap_or(LEGEND_CRATE_HEALTH),
                        &[Field("legend"), Value(i), Field("health")],
                    )?;
                    let skin = skin.unwrap_or_else(|| DEFAULT_SKINS[0].to_owned());
                    self.skin(&skin, &[Field("legend"), Value(i), Field("skin")])?;
                    Glyph::Crate { health, skin, coin }
                }
            };
            legend.insert(c, (glyph, i));
        }
        Ok(legend
            .into_iter()
            .map(|(c, (glyph, _))| (c, glyph))
            .collect())
    }

    /// Check the par times: each a number of seconds in `(0, MAX_PAR_SECONDS]`, gold faster
    /// than silver faster than bronze. Kept in steps, rounded to the nearest: each at least
    /// one step, and each a step or more slower than the medal before it.
    fn par(&self, par: &RawPar) -> Result<Par, LevelError> {
        let hint = "par times are the seconds to clear the room for each medal, gold the \
                    fastest, e.g. `par: (gold: 30, silver: 45, bronze: 70)`";
        let mut steps = [0u64; 3];
        let mut previous: Option<(Medal, f64)> = None;
        for (i, (medal, seconds)) in Medal::PAR
            .into_iter()
            .zip([par.gold, par.silver, par.bronze])
            .enumerate()
        {
            let at = || self.at(&[Field("par"), Field(medal.name())]);
            let fail = |message: String| Err(self.rep.at(at(), message).with_hint(hint));
            let shown = seconds_shown(seconds);
            if !(seconds > 0.0 && seconds <= MAX_PAR_SECONDS) {
                return fail(format!(
                    "the {medal} par time must be more than 0 and at most {MAX_PAR_SECONDS} \
                     seconds, found {shown}"
                ));
            }
            if let Some((better, faster)) = previous
                && seconds <= faster
            {
                return fail(format!(
                    "the {medal} par time ({shown} s) must be slower than {better} ({} s)",
                    seconds_shown(faster)
                ));
            }
            // In range, so the product is a small whole number of steps.
            let in_steps = (seconds * f64::from(STEPS_PER_SECOND)).round() as u64;
            if in_steps == 0 {
                return fail(format!(
                    "the {medal} par time ({shown} s) is under one step (1/{STEPS_PER_SECOND} s), \
                     the shortest time the clock shows"
                ));
            }
            if let Some((better, faster)) = previous
                && i > 0
                && in_steps == steps[i - 1]
            {
                return fail(format!(
                    "the {medal} par time ({shown} s) is the same number of steps as {better} \
                     ({} s) once rounded to steps of 1/{STEPS_PER_SECOND} s, so the two medals \
                     could not be told apart: make it at least one step slower",
                    seconds_shown(faster)
                ));
            }
            previous = Some((medal, seconds));
            steps[i] = in_steps;
        }
        // The author time, if given: faster than gold by at least a step once rounded.
        let mut author = None;
        if let Some(seconds) = par.author {
            let in_steps = (seconds * f64::from(STEPS_PER_SECOND)).round();
            if !(seconds > 0.0 && in_steps >= 1.0 && (in_steps as u64) < steps[0]) {
                return Err(self
                    .rep
                    .at(
                        self.at(&[Field("par"), Field("author")]),
                        format!(
                            "the author time must be more than 0 and faster than gold ({} s) by \
                             at least a step, found {}",
                            seconds_shown(par.gold),
                            seconds_shown(seconds)
                        ),
                    )
                    .with_hint(hint));
            }
            author = Some(in_steps as u64);
        }
        let [gold, silver, bronze] = steps;
        Ok(Par {
            author,
            gold,
            silver,
            bronze,
        })
    }

    /// Check the health at `path`.
    fn health(&self, health: i64, path: &[Step<'_>]) -> Result<u32, LevelError> {
        if HEALTH_RANGE.contains(&health) {
            // The range lies well inside u32.
            return Ok(u32::try_from(health).unwrap_or(1));
        }
        Err(self.rep.at(
            self.at(path),
            format!(
                "crate health must be between {} and {}, found {health}",
                HEALTH_RANGE.start(),
                HEALTH_RANGE.end()
            ),
        ))
    }

    /// Check the skin at `path`.
    fn skin(&self, skin: &str, path: &[Step<'_>]) -> Result<(), LevelError> {
        let len = skin.chars().count();
        if len > MAX_SKIN_CHARS {
            return Err(self
                .rep
                .at(
                    self.char_at(path, MAX_SKIN_CHARS),
                    format!(
                        "the skin name is {len} characters long; the limit is {MAX_SKIN_CHARS}"
                    ),
                )
                .with_hint(format!(
                    "skins are sprite names in the art atlas, e.g. `{}` or `{}`",
                    DEFAULT_SKINS[0], DEFAULT_SKINS[1]
                )));
        }
        if self.skins.contains(&skin) {
            return Ok(());
        }
        let hint = match suggest(skin, self.skins.iter().copied()) {
            Some(near) => format!("did you mean `{near}`?"),
            None => format!(
                "skins are sprite names in the art atlas, e.g. `{}` or `{}`",
                DEFAULT_SKINS[0], DEFAULT_SKINS[1]
            ),
        };
        Err(self
            .rep
            .at(
                self.at(path),
                format!("unknown crate skin `{}`", excerpt(skin)),
            )
            .with_hint(hint))
    }

    fn overrides(
        &self,
        overrides: &Overrides,
        rows: &[String],
        level: &mut Level,
    ) -> Result<(), LevelError> {
        let rep = self.rep;
        // Reading kept at most one past the limit.
        if overrides.0.len() > MAX_OVERRIDES {
            return Err(rep
                .at(
                    self.at(&[Field("crates"), Item(MAX_OVERRIDES), Field("at")]),
                    format!("more than {MAX_OVERRIDES} crate overrides; that is the limit"),
                )
                .with_hint("a level has at most one override per crate"));
        }
        if overrides.0.is_empty() {
            return Ok(());
        }
        let by_cell: HashMap<Cell, usize> = level
            .crates
            .iter()
            .enumerate()
            .map(|(i, spawn)| (spawn.at, i))
            .collect();
        // Reading already stopped at the first override that repeats a cell.
        for (i, over) in overrides.0.iter().enumerate() {
            let path = |field| [Field("crates"), Item(i), Field(field)];
            let at = || self.at(&path("at"));
            let (x, y) = over.at;
            let inside = (0..i64::from(level.width)).contains(&x)
                && (0..i64::from(level.height)).contains(&y);
            if !inside {
                return Err(rep
                    .at(
                        at(),
                        format!(
                            "crate override at ({x}, {y}) is outside the {} x {} map",
                            level.width, level.height
                        ),
                    )
                    .with_hint(AT_HINT));
            }
            let cell = Cell {
                x: x as u32,
                y: y as u32,
            };
            let Some(&index) = by_cell.get(&cell) else {
                let c = rows[y as usize].chars().nth(x as usize).unwrap_or(' ');
                return Err(rep
                    .at(
                        at(),
                        format!(
                            "crate override at ({x}, {y}) points at {}, not a crate",
                            quoted_char(c)
                        ),
                    )
                    .with_hint(AT_HINT));
            };
            let spawn = &mut level.crates[index];
            if let Some(health) = over.health {
                spawn.health = self.health(health, &path("health"))?;
            }
            if let Some(skin) = &over.skin {
                self.skin(skin, &path("skin"))?;
                spawn.skin = Skin::new(skin);
            }
            if let Some(coin) = over.coin {
                spawn.coin = coin;
            }
        }
        Ok(())
    }
}

/// A number of seconds as a message shows it: as written for everyday sizes, in exponent form
/// (`1e308`) for the very large and the very small, never hundreds of digits.
fn seconds_shown(seconds: f64) -> String {
    if seconds == 0.0 || (1e-3..1e7).contains(&seconds.abs()) {
        format!("{seconds}")
    } else {
        format!("{seconds:e}")
    }
}
