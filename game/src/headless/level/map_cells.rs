//! The map of a level file read cell by cell: its size checked against the limits, each
//! character resolved once to what it places, and the player, coins and crates it places.

use std::collections::HashMap;

use super::bounds::{MAX_CRATES, MAX_SIDE};
use super::error::LevelError;
use super::escape::quoted_char;
use super::format::Rows;
use super::parsed::{Cell, CrateSpawn, DEFAULT_SKINS, Level, Skin, Tile};
use super::spans::Step::{Field, Item};
use super::validate::{Glyph, Validator, built_in, map_rows_message, map_width_message};

/// The cells of a map as its glyphs place them, filled in row by row.
#[derive(Default)]
struct Placement {
    /// Row-major, one per cell placed so far.
    tiles: Vec<Tile>,
    player: Option<Cell>,
    crates: Vec<CrateSpawn>,
    coins: Vec<Cell>,
}

impl Validator<'_> {
    /// Byte offset of character `col` of map row `row` (its closing quote if `col` is the row's
    /// length), falling back to the row or the map.
    pub(super) fn map_char(&self, row: usize, col: usize) -> usize {
        self.char_at(&[Field("map"), Item(row)], col)
    }

    pub(super) fn map(
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
            hint: None,
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

    pub(super) fn unknown_char(
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
}
