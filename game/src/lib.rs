//! Crate Room: a top-down crate-smashing game on the `ecs` crate.
//!
//! The source tree is in three layers:
//!
//! - [`headless`]: everything that runs without a window: the simulation, levels, the level
//!   editor's model, replays, input, the player's data files, the campaign and the run-time asset
//!   tables. It never touches macroquad or egui. Its modules are re-exported here, so a path is
//!   `crate::sim`, not `crate::headless::sim`.
//! - [`window`]: the only code that opens a window, draws, plays sound or reads the keyboard:
//!   the game's screens, the editor's view, the debug overlay.
//! - [`art`]: the generator behind `gen-assets` that draws the sprite sheet and synthesises the
//!   sound effects into `assets/`. The game itself only reads those files.

pub mod art;
pub mod headless;
#[cfg(feature = "window")]
pub mod window;

pub use headless::{
    atlas, background_loader, campaign, editor, feel, fsutil, input, level, output, player_data,
    replay, route, sfx, sim, sim_run, text_lines, tool_io,
};
pub(crate) use headless::{game_data, paths, raster};
