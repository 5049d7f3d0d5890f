//! Stamps in the editor: Ctrl+B saves the selection as one in the level folder's stamp file,
//! a click places the picked one, and the folder's stamps are read when the editor opens.

use super::edit_session::{Session, headline};
use super::edit_view::CellPos;
use crate::editor::{Stamp, add_stamp, load_stamps, stamp_path};
use crate::window::ui::ink;

impl Session {
    /// Ctrl+B: the selection becomes a stamp in the folder's stamp file.
    pub(super) fn save_stamp(&mut self) {
        let Some((rect, rows)) = self.selected_rows("no stamp saved") else {
            return;
        };
        let path = stamp_path(self.model.path());
        let name = format!("stamp {}", self.stamps.len() + 1);
        match add_stamp(
            &path,
            &Stamp {
                name: name.clone(),
                rows,
            },
        ) {
            Ok(stamps) => {
                self.stamps = stamps;
                self.stamps_problem = None;
                self.say(
                    format!(
                        "saved \"{name}\" ({} x {}) in {}",
                        rect.width,
                        rect.height,
                        path.display()
                    ),
                    ink::GOOD,
                );
            }
            Err(e) => self.say(format!("no stamp saved: {}", headline(&e)), ink::ERROR),
        }
    }

    /// Place stamp `i` with its top-left at `cell`, as one undo step.
    pub(super) fn place_stamp(&mut self, i: usize, cell: CellPos) {
        let Some(stamp) = self.stamps.get(i) else {
            return;
        };
        let rows: Vec<Vec<char>> = stamp.rows.iter().map(|r| r.chars().collect()).collect();
        let name = stamp.name.clone();
        self.edited();
        match self.model.place(cell.0, cell.1, &rows) {
            Ok(_) => self.say(
                format!("placed \"{name}\" at ({}, {})", cell.0, cell.1),
                ink::TEXT,
            ),
            Err(e) => self.say(format!("stamp \"{name}\" not placed: {e}"), ink::ERROR),
        }
    }

    /// Read the stamps of the level's folder (again).
    pub fn load_stamps(&mut self) {
        match load_stamps(&stamp_path(self.model.path())) {
            Ok(stamps) => {
                self.stamps = stamps;
                self.stamps_problem = None;
            }
            Err(e) => {
                self.stamps = Vec::new();
                self.stamps_problem = Some(headline(&e));
                self.say(format!("stamps: {}", headline(&e)), ink::ERROR);
            }
        }
    }
}
