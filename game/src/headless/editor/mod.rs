//! The level editor's model: the document being edited, its commands and undo history, and the
//! writer that saves it back to its RON file without losing anything the author wrote.
//!
//! Plain Rust, no window: the window side maps mouse and keys to these calls and draws
//! [`Editor::cell`] and [`Editor::palette`].
//!
//! # API in brief
//! - [`Editor::open`] reads a level file (it must pass `check`); [`Editor::new_level`] starts a
//!   walled room for a file that does not exist yet.
//! - Reading: [`width`](Editor::width), [`height`](Editor::height), [`cell`](Editor::cell),
//!   [`palette`](Editor::palette) (built-ins, then the level's legend, each a [`Brush`] with
//!   what it places), [`path`](Editor::path).
//! - Editing (each is one undo step, refused with an [`EditError`] rather than panicking):
//!   [`paint`](Editor::paint) (`'@'` moves the one player start) between
//!   [`begin_stroke`](Editor::begin_stroke) and [`end_stroke`](Editor::end_stroke) for a
//!   drag, [`fill`](Editor::fill) a [`CellRect`], [`flood`](Editor::flood) a connected
//!   region, [`place`](Editor::place) a piece (a paste, a stamp), [`move_rect`](Editor::move_rect),
//!   [`scatter`](Editor::scatter), [`resize`](Editor::resize) on a [`Side`] or
//!   [`set_size`](Editor::set_size), [`set_name`](Editor::set_name),
//!   [`set_crate_override`](Editor::set_crate_override) (both checked by the validator);
//!   [`undo`](Editor::undo), [`redo`](Editor::redo). [`rows`](Editor::rows) reads a
//!   rectangle; [`rows_to_text`] and [`text_to_rows`] are the clipboard's text; stamps are
//!   [`load_stamps`] and [`add_stamp`].
//!   [`can_undo`](Editor::can_undo) and [`can_redo`](Editor::can_redo) say whether they would
//!   do anything.
//! - Verdict: [`problem`](Editor::problem) is what `check` would say of the file a save writes
//!   (computed once after an edit, when first asked for), [`level`](Editor::level) the playable
//!   level, [`overrides_to_remove`](Editor::overrides_to_remove) the `crates` entries a save
//!   drops (show them before saving).
//! - Saving: [`text`](Editor::text) is exactly what [`save`](Editor::save) writes. `save`
//!   refuses an invalid level ([`SaveError::Invalid`]), a file changed on disk since the editor
//!   read it ([`SaveError::ChangedOnDisk`]; [`save_overwriting`](Editor::save_overwriting)
//!   replaces it on purpose) and reports a failed write ([`SaveError::Write`]); the edits stay
//!   in memory. [`is_modified`](Editor::is_modified); [`last_saved`](Editor::last_saved) is
//!   what the file held when the editor last read or wrote it: a hot-reload event whose file
//!   holds exactly those bytes is the editor's own save.
//!
//! # What a save changes
//! Only the map rows that changed (their string literals), rows added or removed, the crate
//! overrides whose cell no longer holds a crate (their whole entry), and the numbers of an
//! override's `at` when rows or columns were added or removed at the top or left. Everything
//! else (comments anywhere, field order, `name`, `legend`, indentation, trailing commas, line
//! ends, a byte-order mark) is kept byte for byte: `writer.rs` has the rules. Comments are
//! never removed, not even one above a removed override: only what is inside the removed
//! entry's brackets goes. Rows added copy the separator and indentation of the file's rows;
//! their cells are void. The undo history works on the file as opened, so undoing past a save
//! brings back what that save removed (an override whose crate returns is written again).
//!
//! ```
//! use std::path::Path;
//! use game::editor::{Editor, Side};
//! use game::level::DEFAULT_SKINS;
//!
//! let path = Path::new("new_room.ron");
//! let mut editor = Editor::new_level(path, 7, 5, &DEFAULT_SKINS).unwrap();
//! assert!(editor.problem().is_none());
//! assert_eq!(editor.cell(3, 2), Some('@'));
//! editor.paint(1, 1, 'c').unwrap();
//! editor.paint(5, 3, '@').unwrap(); // the player start moves
//! assert_eq!((editor.cell(3, 2), editor.cell(5, 3)), (Some('.'), Some('@')));
//! assert!(editor.text().contains("\"#c....#\",\n        \"#.....#\",\n        \"#....@#\""));
//! editor.resize(Side::Left, -1).unwrap();
//! assert!(editor.text().contains("\"c....#\""));
//! assert!(editor.undo() && editor.undo() && editor.undo());
//! let fresh = Editor::new_level(path, 7, 5, &DEFAULT_SKINS).unwrap();
//! assert_eq!(editor.text(), fresh.text());
//!
//! editor.paint(3, 2, ' ').unwrap(); // no player start left: a save is refused
//! assert_eq!(editor.problem().unwrap().message, "the map has no player start `@`");
//! ```

mod clip;
mod commands;
mod document;
mod edit_error;
mod flood;
mod geometry;
mod history;
mod map;
mod meta;
mod meta_edits;
mod palette;
mod quote;
mod save;
mod scatter;
mod stamps;
mod writer;

pub use clip::{ClipError, rows_to_text, text_to_rows};
pub use document::Editor;
pub use edit_error::EditError;
pub use geometry::{CellRect, Side};
pub use history::HISTORY_CELLS;
pub use map::NEW_CELL;
pub use meta::CrateOverride;
pub use palette::{Brush, BrushKind};
pub use save::{DroppedOverride, SaveError, SaveReport, WriteError};
pub use scatter::{SCATTER_STEPS, scatter_hits};
pub use stamps::{
    MAX_STAMPS, STAMP_FILE, Stamp, StampError, add_stamp, load_stamps, parse_stamps, stamp_path,
};
