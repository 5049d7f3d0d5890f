//! Turning a syntactically valid [`RawLevel`] into a [`Level`], or the first thing wrong with it.

use std::collections::HashMap;

use super::bounds::{
    HEALTH_RANGE, MAX_CRATES, MAX_NAME_CHARS, MAX_OVERRIDES, MAX_PAR_SECONDS, MAX_SIDE,
    MAX_SKIN_CHARS,
};
use super::error::LevelError;
use super::escape::quoted_char;
use super::excerpt::excerpt;
use super::format::{LegendEntry, LegendKey, Overrides, RawLevel, RawPar, Rows};
use super::parsed::{Cell, CrateSpawn, DEFAULT_SKINS, Level, Skin, Tile};
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

/// The cells of a map as its glyphs place them, filled in row by row.
#[derive(Default)]
struct Placement {
    /// Row-major, one per cell placed so far.
    tiles: Vec<Tile>,
    player: Option<Cell>,
    crates: Vec<CrateSpawn>,
    coins: Vec<Cell>,
}

/// Validation of one file: the raw level, and where to point when something is wrong with it.
///
/// Positions are looked up only once a problem is found, so a valid level never pays for them.
struct Validator<'a> {
    rep: &'a Reporter<'a>,
    skins: &'a [&'a str],
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
    Ok(level)
}

impl Validator<'_> {
    /// Byte offset of the value at `path`, or of the deepest value along it that can be found.
    fn at(&self, path: &[Step<'_>]) -> usize {
        self.rep.spans.nearest(path)
    }

    /// Byte offset of character `index` of the string at `path` (its closing quote if `index`
    /// is its length), falling back to the string itself.
    fn char_at(&self, path: &[Step<'_>], index: usize) -> usize {
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
    /// than silver faster than bronze. Kept in steps, rounded to the nearest.
    fn par(&self, par: &RawPar) -> Result<Par, LevelError> {
        let hint = "par times are the seconds to clear the room for each medal, gold the \
                    fastest, e.g. `par: (gold: 30, silver: 45, bronze: 70)`";
        let mut steps = [0u64; 3];
        let mut previous: Option<(Medal, f64)> = None;
        for (i, (medal, seconds)) in Medal::ALL
            .into_iter()
            .zip([par.gold, par.silver, par.bronze])
            .enumerate()
        {
            let at = || self.at(&[Field("par"), Field(medal.name())]);
            if !(seconds > 0.0 && seconds <= MAX_PAR_SECONDS) {
                return Err(self
                    .rep
                    .at(
                        at(),
                        format!(
                            "the {medal} par time must be more than 0 and at most \
                             {MAX_PAR_SECONDS} seconds, found {seconds}"
                        ),
                    )
                    .with_hint(hint));
            }
            if let Some((better, faster)) = previous
                && seconds <= faster
            {
                return Err(self
                    .rep
                    .at(
                        at(),
                        format!(
                            "the {medal} par time ({seconds} s) must be slower than {better} \
                             ({faster} s)"
                        ),
                    )
                    .with_hint(hint));
            }
            previous = Some((medal, seconds));
            // In range, so the product is a small whole number of steps.
            steps[i] = (seconds * f64::from(STEPS_PER_SECOND)).round().max(1.0) as u64;
        }
        let [gold, silver, bronze] = steps;
        Ok(Par {
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

    /// Byte offset of character `col` of map row `row` (its closing quote if `col` is the row's
    /// length), falling back to the row or the map.
    fn map_char(&self, row: usize, col: usize) -> usize {
        self.char_at(&[Field("map"), Item(row)], col)
    }

    fn map(
        &self,
        name: String,
        map: &Rows,
        legend: &HashMap<char, Glyph>,
    ) -> Result<Level, LevelError> {
        let width = self.map_width(map)?;
        let rows = &map.rows;
        // Both sides are at most MAX_SIDE, so this allocation is bounded.
        let mut placed = Placement {
            tiles: Vec::with_capacity(width * rows.len()),
            ..Placement::default()
        };
        // What each ASCII character places, resolved at its first cell; the skins named so far.
        let mut ascii: Vec<Option<(Glyph, Option<Skin>)>> = vec![None; 128];
        let mut skins: Vec<Skin> = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let slot = c as usize;
                if ascii.get(slot).is_some_and(Option::is_none) {
                    ascii[slot] = Some(self.resolve(c, x, y, legend, &mut skins)?);
                }
                let resolved;
                let (glyph, skin) = match ascii.get(slot) {
                    Some(Some((glyph, skin))) => (glyph, skin),
                    _ => {
                        resolved = self.resolve(c, x, y, legend, &mut skins)?;
                        (&resolved.0, &resolved.1)
                    }
                };
                let cell = Cell {
                    x: x as u32,
                    y: y as u32,
                };
                let tile = self.place(glyph, skin.as_ref(), cell, &mut placed)?;
                placed.tiles.push(tile);
            }
        }
        placed.crates.shrink_to_fit();
        let Some(player_start) = placed.player else {
            return Err(self
                .rep
                .at(self.at(&[Field("map")]), "the map has no player start `@`")
                .with_hint("put one `@` on the floor cell where the player begins"));
        };
        Ok(Level {
            name,
            width: width as u32,
            height: rows.len() as u32,
            tiles: placed.tiles,
            player_start,
            crates: placed.crates,
            coins: placed.coins,
            par: None,
        })
    }

    /// The map's width, once it is known to be a rectangle of at most [`MAX_SIDE`] a side.
    fn map_width(&self, map: &Rows) -> Result<usize, LevelError> {
        let rep = self.rep;
        let rows = &map.rows;
        let max = MAX_SIDE as usize;
        let Some(first) = rows.first() else {
            return Err(rep
                .at(self.at(&[Field("map")]), "the map is empty")
                .with_hint(
                    "add one string per row, e.g. `map: [\"#####\", \"#@.c#\", \"#####\"]`",
                ));
        };
        if map.total > max {
            return Err(rep.at(
                self.map_char(max, 0),
                map_rows_message(map.total).unwrap_or_default(),
            ));
        }
        let width = first.chars().count();
        if width == 0 {
            return Err(rep
                .at(self.map_char(0, 0), "map row 0 is empty")
                .with_hint("every row needs at least one character; use ` ` for void"));
        }
        if width > max {
            return Err(rep.at(
                self.map_char(0, max),
                map_width_message(width).unwrap_or_default(),
            ));
        }
        for (y, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != width {
                return Err(rep
                    .at(
                        self.map_char(y, len.min(width)),
                        format!("map row {y} is {len} cells wide, but row 0 is {width}"),
                    )
                    .with_hint(
                        "all rows must be equally wide; pad with ` ` (void) or `.` (floor)",
                    ));
            }
        }
        Ok(width)
    }

    /// Place `glyph` on `cell`: note the player, a coin or a crate (of `skin`); the tile under
    /// it.
    fn place(
        &self,
        glyph: &Glyph,
        skin: Option<&Skin>,
        cell: Cell,
        placed: &mut Placement,
    ) -> Result<Tile, LevelError> {
        let (x, y) = (cell.x as usize, cell.y as usize);
        Ok(match glyph {
            Glyph::Tile(tile) => *tile,
            Glyph::Player => {
                if let Some(first) = placed.player {
                    return Err(self.second_player(first, cell));
                }
                placed.player = Some(cell);
                Tile::Floor
            }
            Glyph::Coin => {
                placed.coins.push(cell);
                Tile::Floor
            }
            Glyph::Crate { health, coin, .. } => {
                if placed.crates.len() == MAX_CRATES {
                    return Err(self.rep.at(
                        self.map_char(y, x),
                        format!("more than {MAX_CRATES} crates; that is the limit"),
                    ));
                }
                placed.crates.push(CrateSpawn {
                    at: cell,
                    health: *health,
                    coin: *coin,
                    skin: skin.cloned().unwrap_or_else(|| Skin::new(DEFAULT_SKINS[0])),
                });
                Tile::Floor
            }
        })
    }

    /// A second `@` at `cell`, the first being at `first`.
    fn second_player(&self, first: Cell, cell: Cell) -> LevelError {
        let rep = self.rep;
        let line = rep
            .spans
            .pos(self.map_char(first.y as usize, first.x as usize))
            .line;
        let (x, y) = (cell.x, cell.y);
        rep.at(
            self.map_char(y as usize, x as usize),
            format!("second player start `@` at ({x}, {y}); a level has exactly one"),
        )
        .with_hint(format!(
            "the first is at ({}, {}) on line {line}; replace one with `.`",
            first.x, first.y
        ))
    }

    /// What `c`, at `(x, y)`, places, with its skin (one [`Skin`] per name, kept in `skins`)
    /// if it is a crate.
    fn resolve(
        &self,
        c: char,
        x: usize,
        y: usize,
        legend: &HashMap<char, Glyph>,
        skins: &mut Vec<Skin>,
    ) -> Result<(Glyph, Option<Skin>), LevelError> {
        let Some(glyph) = legend.get(&c).cloned().or_else(|| built_in(c)) else {
            return Err(self.unknown_char(c, x, y, legend));
        };
        let skin = match &glyph {
            Glyph::Crate { skin, .. } => Some(match skins.iter().find(|s| *s == skin.as_str()) {
                Some(known) => known.clone(),
                None => {
                    let new = Skin::new(skin);
                    skins.push(new.clone());
                    new
                }
            }),
            _ => None,
        };
        Ok((glyph, skin))
    }

    fn unknown_char(
        &self,
        c: char,
        x: usize,
        y: usize,
        legend: &HashMap<char, Glyph>,
    ) -> LevelError {
        // Look-alikes of built-in characters, and the other case of a known letter.
        let look_alike = match c {
            '0' | 'O' => Some('o'),
            'S' | 's' => Some('$'),
            'H' | 'X' | '=' | '|' => Some('#'),
            ',' | '_' | '-' | '\t' => Some('.'),
            'P' | 'p' => Some('@'),
            _ => None,
        };
        let other_case = c
            .to_lowercase()
            .chain(c.to_uppercase())
            .find(|&o| o != c && (built_in(o).is_some() || legend.contains_key(&o)));
        let hint = match other_case.or(look_alike) {
            Some(near) => format!(
                "did you mean {}? or define {} in `legend`",
                quoted_char(near),
                quoted_char(c)
            ),
            None => format!(
                "add it to `legend`, e.g. `legend: {{ {}: Wall }}`",
                quoted_char(c)
            ),
        };
        self.rep
            .at(
                self.map_char(y, x),
                format!("unknown map character {} at ({x}, {y})", quoted_char(c)),
            )
            .with_hint(hint)
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
