//! The windowed game: the frame loop (input -> fixed-step update -> draw), game flow (title,
//! pause, restart, levels, room cleared, best times), hot reload and the scripted screenshot
//! mode. The window side is this module with [`crate::window::debug`], [`crate::window::ui`] and
//! [`crate::window::egui_bridge`]; the simulation never sees macroquad.
//!
//! `App` (`app_state.rs`) holds the game between frames; its `Mode` (`mode.rs`) says which
//! screen is up. Each file adds one part of its behaviour: `frame_loop` drives the frames,
//! `controls` takes the input, `flow` moves between levels, `stepping` runs the steps,
//! `drawing` and `hud` draw, `results` keeps what a run leaves behind.

mod app_error;
mod app_state;
pub mod audio;
mod controls;
mod draw_probe;
mod drawing;
mod editing;
mod flow;
mod frame_loop;
pub mod ghost;
mod hot_reload;
mod hud;
pub mod keys;
mod mode;
mod new_level;
mod notices;
pub mod playback;
mod preferences;
pub mod render;
mod results;
pub mod run_capture;
mod run_config;
pub mod screens;
pub mod screenshot;
mod script_report;
pub mod script_timing;
mod startup;
mod stepping;
pub mod strength;

pub use app_error::AppError;
pub use run_config::RunConfig;
pub use script_report::ScriptReport;

use audio::AudioThread;

/// The window's game loop, for `macroquad::Window::from_config`: runs until the player quits
/// (`Ok(None)`) or a scripted run ends (`Ok(Some(report))`, after writing the screenshot).
///
/// Not `async` itself: calling it installs the audio-thread watch at once, before the window
/// (and with it macroquad's audio thread) starts.
///
/// # Errors
/// If the data folders, the atlas or the profile server cannot be set up, a scripted run's
/// level does not load, or its screenshot cannot be written.
pub fn run(opts: RunConfig) -> impl Future<Output = Result<Option<ScriptReport>, AppError>> {
    let audio_thread = AudioThread::watch();
    frame_loop::game_loop(opts, audio_thread)
}
