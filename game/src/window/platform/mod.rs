//! What the browser build (`wasm32`) leaves out of the window layer, and what stands in for
//! it, in one place. Each item below is one `cfg` pair; the rest of the window layer uses the
//! names here and compiles the same for both.
//!
//! | desktop | in the browser | why |
//! |---|---|---|
//! | file watching (`notify`) and hot reload's loader thread | [`LevelWatcher`] that never fires, [`BackgroundLoader`] that prepares a level in the frame | the levels are built into the game; nothing saves them behind its back, and a page has no threads |
//! | gamepads through `gilrs` | [`Gamepads`]: keyboard only | gilrs's web backend needs `wasm-bindgen`, which macroquad's loader cannot host |
//! | the `puffin_http` server | [`ProfileServer`] that refuses to start | a page cannot listen on a socket; F2's profiler window works |
//! | `std::time::Instant`, puffin's clock | [`Instant`] (`page_clock`, whole nanoseconds) and [`start_profiler_clock`] on macroquad's clock, the page's `performance.now()` | `Instant::now` panics in a browser, and puffin's web clock needs `wasm-bindgen` |
//! | the command line: `main.rs`, `window::launch` and `window::play_args` (each `cfg` at its `mod`), the core's `sim_run::SimArgs` and `level::subcommands`, and `clap` itself (a dependency everywhere but in a browser, `game/Cargo.toml`) | URL parameters (`window::web`) | a page has no arguments |
//! | stderr, where the game says what went wrong ([`say`]) | the page's console, as errors | a page's stderr goes nowhere |
//! | files on disk | built-in levels and assets, and the browser's storage ([`end_of_frame`] keeps what was written) | a page has no file system |
//! | the editor's save writes the level file | it goes to the browser's storage and is offered as a file download ([`offer_download`], `web/download.js`) | a page cannot write the player's files; a download puts the level where they can keep or share it |
//! | saving a `.puffin` capture ([`profile_bytes`]) | refused with a message | puffin compresses its files with zstd, which it leaves out on `wasm32` |

#[cfg(target_arch = "wasm32")]
pub use browser::*;
#[cfg(not(target_arch = "wasm32"))]
mod gamepad;

#[cfg(not(target_arch = "wasm32"))]
pub use desktop::*;

#[cfg(not(target_arch = "wasm32"))]
mod desktop {
    pub use super::gamepad::Gamepads;
    pub use crate::background_loader::BackgroundLoader;
    pub use crate::level::watch::LevelWatcher;
    pub use std::time::Instant;

    /// The puffin server `puffin_viewer` connects to.
    pub type ProfileServer = puffin_http::Server;

    /// Start serving profiles on `addr`.
    ///
    /// # Errors
    /// If it cannot listen there.
    pub fn serve_profiles(addr: &str) -> Result<ProfileServer, String> {
        puffin_http::Server::new(addr)
            .map_err(|e| format!("cannot start the puffin server on {addr}: {e:#}"))
    }

    /// The editor saved `path`: it is on disk already; nothing to add.
    pub fn offer_download(_path: &std::path::Path) -> Option<String> {
        None
    }

    /// Say `line` on stderr (not `eprintln!`, which panics when stderr cannot be written).
    pub fn say(line: &str) {
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "{line}");
    }

    /// Nothing to do after a frame: files are written as they are saved.
    pub fn end_of_frame(_frame: u64) {}

    /// puffin keeps its own clock here.
    pub fn start_profiler_clock() {}

    /// The bytes of a `.puffin` file holding `view`'s frames, as `puffin_viewer` opens it.
    ///
    /// # Errors
    /// puffin's own, in words.
    pub fn profile_bytes(view: &puffin::FrameView) -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        view.write(&mut bytes).map_err(|e| format!("{e:#}"))?;
        Ok(bytes)
    }

    /// The ECS's system timings' clock: `std::time::Instant`'s, from the first reading.
    pub fn clock() -> std::time::Duration {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        START.get_or_init(Instant::now).elapsed()
    }
}

#[cfg(target_arch = "wasm32")]
mod browser;
// Compiled natively too, for its tests.
#[cfg(any(target_arch = "wasm32", test))]
mod page_clock;
