//! The editing commands on the map: paint, fill, flood, place, move, scatter and resize, each
//! one undo step, refused with an [`EditError`] rather than panicking.

use super::Editor;
use super::edit_error::EditError;
use super::flood;
use super::geometry::{CellRect, Side};
use super::history::Step;
use super::scatter::scatter_hits;
use crate::level;

impl Editor {
    /// Paint cell (`x`, `y`) with map character `ch`; whether anything changed. Painting `'@'`
    /// moves the player start: the cell that held it becomes floor. Outside a stroke, a paint
    /// is an undo step of its own.
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`], or [`EditError::NotInPalette`] for a character the level
    /// does not define.
    pub fn paint(&mut self, x: u32, y: u32, ch: char) -> Result<bool, EditError> {
        self.check_char(ch)?;
        self.check_cell(u64::from(x), u64::from(y))?;
        let mut changes = Vec::new();
        if ch == '@' {
            for (px, py) in self.grid.find_all('@') {
                if (px, py) != (x, y) {
                    self.set(px, py, '.', &mut changes);
                }
            }
        }
        self.set(x, y, ch, &mut changes);
        Ok(self.record(changes))
    }

    /// Fill `rect` with `ch`, as one undo step; whether anything changed.
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`] if any of it is outside the map, [`EditError::NotInPalette`],
    /// or [`EditError::FillWithPlayer`] for `'@'`.
    pub fn fill(&mut self, rect: CellRect, ch: char) -> Result<bool, EditError> {
        self.check_char(ch)?;
        if ch == '@' {
            return Err(EditError::FillWithPlayer);
        }
        if rect.width == 0 || rect.height == 0 {
            return Ok(false);
        }
        self.check_cell(u64::from(rect.x), u64::from(rect.y))?;
        self.check_cell(
            u64::from(rect.x) + u64::from(rect.width) - 1,
            u64::from(rect.y) + u64::from(rect.height) - 1,
        )?;
        self.end_stroke();
        let mut changes = Vec::new();
        for y in rect.y..rect.y + rect.height {
            for x in rect.x..rect.x + rect.width {
                self.set(x, y, ch, &mut changes);
            }
        }
        Ok(self.record(changes))
    }

    /// Flood fill: the cells connected to (`x`, `y`) through their four neighbours that hold
    /// its character become `ch`, as one undo step; whether anything changed.
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`], [`EditError::NotInPalette`], or
    /// [`EditError::FillWithPlayer`] for `'@'`.
    pub fn flood(&mut self, x: u32, y: u32, ch: char) -> Result<bool, EditError> {
        self.check_char(ch)?;
        if ch == '@' {
            return Err(EditError::FillWithPlayer);
        }
        self.check_cell(u64::from(x), u64::from(y))?;
        self.end_stroke();
        let cells = flood::region(&self.grid, x, y);
        let mut changes = Vec::with_capacity(cells.len());
        for (x, y) in cells {
            self.set(x, y, ch, &mut changes);
        }
        Ok(self.record(changes))
    }

    /// The map rows inside `rect` (what a copy takes).
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`] if any of it is outside the map.
    pub fn rows(&self, rect: CellRect) -> Result<Vec<String>, EditError> {
        self.check_rect(rect)?;
        Ok((rect.y..rect.y + rect.height)
            .map(|y| {
                (rect.x..rect.x + rect.width)
                    .filter_map(|x| self.grid.get(x, y))
                    .collect()
            })
            .collect())
    }

    /// Place a piece (`rows`, each as wide as the first) with its top-left cell at column `x`,
    /// row `y`, as one undo step (a paste, a stamp); cells that fall off the map are left out.
    /// A player start in the piece moves the level's one. Whether anything changed.
    ///
    /// # Errors
    /// [`EditError::NotInPalette`] for a character this level does not define,
    /// [`EditError::PieceWithPlayers`] for a piece with more than one player start.
    pub fn place(&mut self, x: i64, y: i64, rows: &[Vec<char>]) -> Result<bool, EditError> {
        let mut players = 0;
        for &c in rows.iter().flatten() {
            self.check_char(c)?;
            players += usize::from(c == '@');
        }
        if players > 1 {
            return Err(EditError::PieceWithPlayers(players));
        }
        self.end_stroke();
        let mut changes = Vec::new();
        let on_map = |gx: i64, gy: i64| {
            (0..i64::from(self.width())).contains(&gx)
                && (0..i64::from(self.height())).contains(&gy)
        };
        let player_lands = rows.iter().enumerate().any(|(dy, row)| {
            row.iter()
                .enumerate()
                .any(|(dx, &c)| c == '@' && on_map(x + dx as i64, y + dy as i64))
        });
        if player_lands {
            for (px, py) in self.grid.find_all('@') {
                self.set(px, py, '.', &mut changes);
            }
        }
        self.put(x, y, rows, &mut changes);
        Ok(self.record(changes))
    }

    /// Move the cells of `rect` by (`dx`, `dy`), as one undo step: the cells it leaves become
    /// floor, and cells moved off the map are gone. Whether anything changed.
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`] if any of `rect` is outside the map.
    pub fn move_rect(&mut self, rect: CellRect, dx: i64, dy: i64) -> Result<bool, EditError> {
        let rows: Vec<Vec<char>> = self
            .rows(rect)?
            .into_iter()
            .map(|r| r.chars().collect())
            .collect();
        self.end_stroke();
        let mut changes = Vec::new();
        for y in rect.y..rect.y + rect.height {
            for x in rect.x..rect.x + rect.width {
                self.set(x, y, '.', &mut changes);
            }
        }
        self.put(
            i64::from(rect.x) + dx,
            i64::from(rect.y) + dy,
            &rows,
            &mut changes,
        );
        Ok(self.record(changes))
    }

    /// The scatter brush over `rect` (clipped to the map): each cell for which
    /// [`scatter_hits`]`(seed, x, y, tenths)` becomes `ch`. Inside a stroke it joins the
    /// stroke's undo step; otherwise it is one of its own. Whether anything changed.
    ///
    /// # Errors
    /// [`EditError::NotInPalette`], or [`EditError::FillWithPlayer`] for `'@'`.
    pub fn scatter(
        &mut self,
        rect: CellRect,
        ch: char,
        tenths: u8,
        seed: u64,
    ) -> Result<bool, EditError> {
        self.check_char(ch)?;
        if ch == '@' {
            return Err(EditError::FillWithPlayer);
        }
        let mut changes = Vec::new();
        let (x1, y1) = (
            (rect.x.saturating_add(rect.width)).min(self.width()),
            (rect.y.saturating_add(rect.height)).min(self.height()),
        );
        for y in rect.y..y1 {
            for x in rect.x..x1 {
                if scatter_hits(seed, x, y, tenths) {
                    self.set(x, y, ch, &mut changes);
                }
            }
        }
        Ok(self.record(changes))
    }

    /// Add (`delta > 0`) or remove (`delta < 0`) rows or columns on `side`, as one undo step.
    /// Added cells are void ([`NEW_CELL`]). Crate overrides move with their crates.
    ///
    /// # Errors
    /// [`EditError::Size`] if a side would leave 1 to [`MAX_SIDE`].
    pub fn resize(&mut self, side: Side, delta: i32) -> Result<(), EditError> {
        self.grid.resized_size(side, delta)?;
        if delta == 0 {
            return Ok(());
        }
        self.end_stroke();
        let removed = self.grid.resize(side, delta, &[])?;
        self.history.push(Step::Resize {
            side,
            delta,
            removed,
        });
        self.forget_verdict();
        Ok(())
    }

    /// Resize the map to `width` x `height` by adding or removing columns on the right and rows
    /// at the bottom (two undo steps at most).
    ///
    /// # Errors
    /// For a side over the limit, what `check` says of such a map (`the map is 5000 cells
    /// wide; the limit is 4096`); for a side of 0, [`EditError::Size`]'s message.
    pub fn set_size(&mut self, width: u32, height: u32) -> Result<bool, String> {
        if let Some(message) = level::validate::map_width_message(width as usize)
            .or_else(|| level::validate::map_rows_message(height as usize))
        {
            return Err(message);
        }
        let (dw, dh) = (
            i64::from(width) - i64::from(self.width()),
            i64::from(height) - i64::from(self.height()),
        );
        // Check both before changing either.
        if width == 0 || height == 0 {
            return Err(EditError::Size {
                width: i64::from(width),
                height: i64::from(height),
            }
            .to_string());
        }
        // Both sides are at most MAX_SIDE here, so the deltas fit an i32.
        self.resize(Side::Right, dw as i32)
            .map_err(|e| e.to_string())?;
        self.resize(Side::Bottom, dh as i32)
            .map_err(|e| e.to_string())?;
        Ok(dw != 0 || dh != 0)
    }
}
