//! Edit mode, the level editor's window side: mouse and keys become the model's commands
//! ([`crate::editor`]: the document, undo, saving), and the document is drawn with the grid,
//! the palette and what the editor has to say. The model decides everything else.
//!
//! Input comes as macroquad's ordered event stream (an input subscriber), not as per-frame
//! key states: a click, a move and another click, or Ctrl down, S, Ctrl up, can all arrive
//! between two frames (a fast hand, or `xdotool` in the window test), and each must land on
//! the cell it happened on.
//!
//! The files, one concept each: `edit_session` holds the state of one level being edited;
//! `feed` turns the window's events into [`EditEvent`]s and `dispatch` routes them to the mouse
//! (`mouse_tools`), the keys (`shortcuts`) or an open form (`properties`, drawn by
//! [`edit_form`]); `selection`, `stamp_tool`, `map_resize`, `picker` and `saving` are the
//! commands; `draw_map`, `draw_strip` and `status_bars` draw the screen with `cell_art`'s
//! frames in `edit_layout`'s places; `help_table` is F1's key list.

mod cell_art;
mod dispatch;
mod draw_map;
mod draw_strip;
pub mod edit_form;
mod edit_layout;
mod edit_report;
mod edit_session;
mod edit_view;
mod feed;
mod help_table;
mod map_resize;
mod mouse_tools;
mod picker;
mod properties;
mod saving;
mod selection;
mod shortcuts;
mod stamp_tool;
mod status_bars;

pub use edit_layout::NEW_LEVEL_SIZE;
pub use edit_report::EditorReport;
pub use edit_session::{EditStart, Outcome, Session, headline};
pub use feed::{EditEvent, EventFeed};
pub use help_table::help;
