//! The selection and the clipboard: copy, cut and paste as map rows, erase, and move the
//! selected cells (with the arrows or by dragging them).

use macroquad::miniquad;

use super::edit_session::{ERASE, Session};
use super::edit_view::CellPos;
use crate::editor::{CellRect, rows_to_text, text_to_rows};
use crate::window::ui::ink;

impl Session {
    /// The selection and its map rows, for Ctrl+C, Ctrl+X and Ctrl+B; `None` once the person is
    /// told why not: nothing is selected, or its rows cannot be read (said after `refused`).
    pub(super) fn selected_rows(&mut self, refused: &str) -> Option<(CellRect, Vec<String>)> {
        let Some(rect) = self.selection else {
            self.say("nothing selected: Ctrl + drag selects", ink::DIM);
            return None;
        };
        match self.model.rows(rect) {
            Ok(rows) => Some((rect, rows)),
            Err(e) => {
                self.say(format!("{refused}: {e}"), ink::ERROR);
                None
            }
        }
    }

    /// Ctrl+C (Ctrl+X with `cut`): the selection's rows to the clipboard, as map rows.
    pub(super) fn copy(&mut self, cut: bool) {
        let Some((rect, rows)) = self.selected_rows("not copied") else {
            return;
        };
        let text = rows_to_text(&rows);
        miniquad::window::clipboard_set(&text);
        self.clipboard = Some(text);
        self.clipboard_again = true;
        if cut {
            self.edited();
            if let Err(e) = self.model.fill(rect, ERASE) {
                self.say(format!("not cut: {e}"), ink::ERROR);
                return;
            }
        }
        let did = if cut { "cut" } else { "copied" };
        self.say(
            format!(
                "{did} {} x {} at ({}, {})",
                rect.width, rect.height, rect.x, rect.y
            ),
            ink::TEXT,
        );
    }

    /// Ctrl+V: the clipboard's rows with their top-left at the cell under the mouse (or the
    /// selection's corner), selected afterwards.
    pub(super) fn paste(&mut self) {
        let system = miniquad::window::clipboard_get().filter(|text| !text.trim().is_empty());
        let text = system.or_else(|| self.clipboard.clone());
        let Some(text) = text else {
            self.say("the clipboard is empty", ink::DIM);
            return;
        };
        let rows = match text_to_rows(&text) {
            Ok(rows) => rows,
            Err(e) => {
                self.say(format!("not pasted: {e}"), ink::ERROR);
                return;
            }
        };
        let at = self
            .map_cell(self.mouse)
            .or(self.selection.map(|r| (r.x, r.y)))
            .unwrap_or((0, 0));
        self.edited();
        match self.model.place(i64::from(at.0), i64::from(at.1), &rows) {
            Ok(_) => {
                let (w, h) = (rows[0].len() as u32, rows.len() as u32);
                self.selection = self.clip_rect(at, w, h);
                self.say(
                    format!("pasted {w} x {h} at ({}, {})", at.0, at.1),
                    ink::TEXT,
                );
            }
            Err(e) => self.say(format!("not pasted: {e}"), ink::ERROR),
        }
    }

    /// Delete: the selection becomes floor.
    pub(super) fn erase_selection(&mut self) {
        let Some(rect) = self.selection else {
            return;
        };
        self.edited();
        match self.model.fill(rect, ERASE) {
            Ok(_) => self.say(
                format!(
                    "erased {} x {} at ({}, {})",
                    rect.width, rect.height, rect.x, rect.y
                ),
                ink::TEXT,
            ),
            Err(e) => self.say(format!("not erased: {e}"), ink::ERROR),
        }
    }

    /// Move the selection's cells by (`dx`, `dy`); the selection follows (clipped to the map).
    pub(super) fn move_selection(&mut self, dx: i64, dy: i64) {
        let Some(rect) = self.selection else { return };
        if (dx, dy) == (0, 0) {
            return;
        }
        self.edited();
        match self.model.move_rect(rect, dx, dy) {
            Ok(_) => {
                let (x, y) = (i64::from(rect.x) + dx, i64::from(rect.y) + dy);
                self.selection = self.clip_rect_signed((x, y), rect.width, rect.height);
                self.say(
                    format!("moved {} x {} to ({x}, {y})", rect.width, rect.height),
                    ink::TEXT,
                );
            }
            Err(e) => self.say(format!("not moved: {e}"), ink::ERROR),
        }
    }

    /// The part of the `w` x `h` rectangle at `at` that is on the map.
    fn clip_rect(&self, at: (u32, u32), w: u32, h: u32) -> Option<CellRect> {
        self.clip_rect_signed((i64::from(at.0), i64::from(at.1)), w, h)
    }

    fn clip_rect_signed(&self, (x, y): (i64, i64), w: u32, h: u32) -> Option<CellRect> {
        let (mw, mh) = (
            i64::from(self.model.width()),
            i64::from(self.model.height()),
        );
        let (x0, y0) = (x.max(0), y.max(0));
        let (x1, y1) = ((x + i64::from(w)).min(mw), (y + i64::from(h)).min(mh));
        (x0 < x1 && y0 < y1).then(|| CellRect {
            x: x0 as u32,
            y: y0 as u32,
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
        })
    }
}

/// Whether `rect` holds cell `(x, y)`.
pub(super) fn rect_contains(rect: CellRect, (x, y): CellPos) -> bool {
    (i64::from(rect.x)..i64::from(rect.x) + i64::from(rect.width)).contains(&x)
        && (i64::from(rect.y)..i64::from(rect.y) + i64::from(rect.height)).contains(&y)
}
