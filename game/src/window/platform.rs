//! What the browser build (`wasm32`) leaves out of the window layer, and what stands in for
//! it, in one place. Each item below is one `cfg` pair; the rest of the window layer uses the
//! names here and compiles the same for both.
//!
//! | desktop | in the browser | why |
//! |---|---|---|
//! | file watching (`notify`) and hot reload's loader thread | [`LevelWatcher`] that never fires, [`BackgroundLoader`] that loads in the frame | the levels are built into the game; nothing saves them behind its back, and a page has no threads |
//! | gamepads through `gilrs` | [`Gamepads`]: keyboard only | gilrs's web backend needs `wasm-bindgen`, which macroquad's loader cannot host |
//! | the `puffin_http` server | [`ProfileServer`] that refuses to start | a page cannot listen on a socket; F2's profiler window works |
//! | `std::time::Instant`, puffin's clock | [`Instant`] and [`start_profiler_clock`] on macroquad's clock | `Instant::now` panics in a browser, and puffin's web clock needs `wasm-bindgen` |
//! | the command line (`main.rs`) | URL parameters (`window::web`) | a page has no arguments |
//! | files on disk | built-in levels and assets, and the browser's storage ([`end_of_frame`] keeps what was written) | a page has no file system |

#[cfg(target_arch = "wasm32")]
pub use browser::*;
#[cfg(not(target_arch = "wasm32"))]
pub use desktop::*;

#[cfg(not(target_arch = "wasm32"))]
mod desktop {
    pub use crate::level::watch::{BackgroundLoader, LevelWatcher};
    pub use crate::window::app::gamepad::Gamepads;
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

    /// Nothing to do after a frame: files are written as they are saved.
    pub fn end_of_frame(_frame: u64) {}

    /// puffin keeps its own clock here.
    pub fn start_profiler_clock() {}

    /// The ECS's system timings' clock: `std::time::Instant`'s, from the first reading.
    pub fn clock() -> std::time::Duration {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        START.get_or_init(Instant::now).elapsed()
    }
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    /// A point on macroquad's clock (the page's `performance.now()`), with the part of
    /// `std::time::Instant`'s interface the window uses.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Self {
            Self(macroquad::miniquad::date::now())
        }

        /// Time since `self`.
        pub fn elapsed(&self) -> Duration {
            Self::now().duration_since(*self)
        }

        /// Time from `earlier` to `self` (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Self) -> Duration {
            Duration::from_secs_f64((self.0 - earlier.0).max(0.0))
        }
    }

    pub use crate::window::web::end_of_frame;

    /// Give puffin macroquad's clock: its own needs `wasm-bindgen`, which macroquad's loader
    /// cannot host.
    pub fn start_profiler_clock() {
        fn now_ns() -> puffin::NanoSecond {
            (macroquad::miniquad::date::now() * 1e9) as puffin::NanoSecond
        }
        puffin::ThreadProfiler::initialize(now_ns, puffin::internal_profile_reporter);
    }

    /// The ECS's system timings' clock: macroquad's.
    pub fn clock() -> Duration {
        Duration::from_secs_f64(macroquad::miniquad::date::now())
    }

    /// No profile server in a browser.
    #[derive(Debug)]
    pub struct ProfileServer;

    /// A page cannot listen on a socket.
    ///
    /// # Errors
    /// Always.
    pub fn serve_profiles(addr: &str) -> Result<ProfileServer, String> {
        Err(format!(
            "cannot serve profiles on {addr} in a browser: use F2's profiler window"
        ))
    }

    /// Gamepads in the browser: none, the keyboard plays.
    #[derive(Debug, Default)]
    pub struct Gamepads;

    impl Gamepads {
        /// Keyboard only.
        pub fn start() -> Self {
            Self
        }

        /// Nothing happens on a pad.
        pub fn poll(&mut self) -> crate::input::pad::PadFrame {
            crate::input::pad::PadFrame::default()
        }

        /// No pad holds anything.
        pub fn input(&self) -> crate::sim::Input {
            crate::sim::Input::default()
        }

        /// The help screen's line.
        pub fn status(&self) -> String {
            "gamepad: keyboard only in the browser".to_owned()
        }
    }

    /// No file watching in a browser: nothing saves the built-in levels behind the game's
    /// back, and the editor's own saves are no reload.
    #[derive(Debug)]
    pub struct LevelWatcher;

    impl LevelWatcher {
        /// A watcher that never fires.
        ///
        /// # Errors
        /// Never.
        pub fn new(_file: &Path) -> Result<Self, std::convert::Infallible> {
            Ok(Self)
        }

        /// Nothing to switch.
        pub fn set_file(&mut self, _file: &Path) {}

        /// Nothing was saved.
        pub fn poll(&mut self) -> bool {
            false
        }

        /// Never a problem.
        pub fn problem(&self) -> Option<&std::convert::Infallible> {
            None
        }
    }

    /// A finished load, as the desktop's background loader hands it over.
    #[derive(Debug)]
    pub struct Loaded {
        /// The request's generation.
        pub generation: u64,
        /// The file read.
        pub path: PathBuf,
        /// The validated level, or why it is not one.
        pub level: Result<crate::level::Level, crate::level::LevelError>,
    }

    /// Hot reload's loader without a thread: a request loads at once, in the frame (the
    /// levels are small and in memory), and [`poll`](Self::poll) hands it over.
    #[derive(Debug)]
    pub struct BackgroundLoader {
        skins: Vec<String>,
        generation: u64,
        ready: Option<Loaded>,
    }

    impl BackgroundLoader {
        /// A loader for levels with the atlas's crate `skins`.
        ///
        /// # Errors
        /// Never.
        pub fn new(skins: Vec<String>) -> std::io::Result<Self> {
            Ok(Self {
                skins,
                generation: 0,
                ready: None,
            })
        }

        /// Load `path` now; the result waits for [`poll`](Self::poll).
        pub fn request(&mut self, path: &Path) -> u64 {
            self.generation += 1;
            let skins: Vec<&str> = self.skins.iter().map(String::as_str).collect();
            self.ready = Some(Loaded {
                generation: self.generation,
                path: path.to_path_buf(),
                level: crate::level::load(path, &skins),
            });
            self.generation
        }

        /// Drop the result not yet handed over.
        pub fn cancel(&mut self) {
            self.generation += 1;
            self.ready = None;
        }

        /// Never: a request is loaded when it is made.
        pub fn is_loading(&self) -> bool {
            false
        }

        /// The loaded result, once.
        pub fn poll(&mut self) -> Option<Loaded> {
            self.ready.take()
        }
    }
}
