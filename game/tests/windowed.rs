//! The game's tests in a real window (Xvfb and Mesa's software OpenGL, or the display this
//! process has), in one test program apart from the headless one (`tests/main.rs`), so that
//! the two compile at once, each on a core, once the game is built. Each `window*.rs` file is
//! a module (its name starts each test's path, `window_editor::...`); `common/` is shared with
//! the headless program. `cargo test -p game --test window window_editor::` runs one file's
//! tests.

mod common;

mod window;
mod window_campaign;
mod window_data_files;
mod window_editor;
mod window_hot_reload;
mod window_overlay;
mod window_profiler;
mod window_replay;
mod window_signals;
