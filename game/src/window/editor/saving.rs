//! Ctrl+S in the editor: an invalid level is refused with its message; a save that would remove
//! `crates` overrides or overwrite a change made on disk asks first; else the file is written.

use super::edit_session::{Confirm, Session, headline};
use crate::editor::{DroppedOverride, SaveError};
use crate::window::platform;
use crate::window::ui::ink;

impl Session {
    /// Ctrl+S: refuse an invalid level with its message; ask first when the save would remove
    /// `crates` overrides or overwrite someone else's change on disk; else save.
    pub(super) fn save(&mut self, confirmed: bool) {
        if let Some(problem) = self.model.problem() {
            let first = headline(problem);
            self.say(format!("not saved: {first}"), ink::ERROR);
            return;
        }
        let removed = self.model.overrides_to_remove().to_vec();
        if !confirmed && (!removed.is_empty() || self.disk_changed) {
            let mut why = Vec::new();
            if !removed.is_empty() {
                why.push(format!(
                    "saving removes the crates overrides {} (no crate there now)",
                    list_cells(&removed)
                ));
            }
            if self.disk_changed {
                why.push("the file changed on disk since: saving overwrites that".into());
            }
            self.confirm = Some(Confirm::Save);
            self.say(
                format!("{}; Ctrl+S again to save", why.join("; ")),
                ink::GOLD,
            );
            return;
        }
        // Overwrite a change made on disk only when asked to, after saying so.
        let saved = if confirmed && self.disk_changed {
            self.model.save_overwriting()
        } else {
            self.model.save()
        };
        match saved {
            Err(SaveError::ChangedOnDisk(_)) => {
                // Changed since it was read, and the watcher has not said so yet (or is off).
                self.disk_changed = true;
                self.confirm = Some(Confirm::Save);
                self.say(
                    "not saved: the file changed on disk since the editor read it; \
                     Ctrl+S again overwrites that change (your edits are kept)",
                    ink::GOLD,
                );
            }
            Ok(_) => {
                self.disk_changed = false;
                let mut text = format!("saved {}", self.model.path().display());
                if let Some(download) = platform::offer_download(self.model.path()) {
                    text += &download;
                }
                if !removed.is_empty() {
                    text += &format!(", removed the crates overrides {}", list_cells(&removed));
                }
                self.say(text, ink::GOOD);
            }
            Err(e) => self.say(format!("not saved (your edits are kept): {e}"), ink::ERROR),
        }
    }
}

/// `(at: (3, 2)) on line 24, ...`: overrides as the file writes them, at most eight, then how
/// many more.
fn list_cells(cells: &[DroppedOverride]) -> String {
    let mut shown: Vec<String> = cells
        .iter()
        .take(8)
        .map(|o| format!("(at: ({}, {})) on line {}", o.at.0, o.at.1, o.line))
        .collect();
    if cells.len() > 8 {
        shown.push(format!("and {} more", cells.len() - 8));
    }
    shown.join(", ")
}
