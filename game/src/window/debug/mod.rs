//! Developer overlays drawn on top of the game: which views are on (and their keys), and the
//! overlay that draws them. The profiler window runs in [`crate::window::egui_bridge`]. Nothing here
//! imports the game module (`app`): the game uses the debug views, never the other way round.

pub mod compare;
pub mod costs;
pub mod overlay;
mod profiler_window;
mod stats_panel;
pub mod views;
