//! The browser's stand-ins for what its build leaves out (see the table in [`super`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use macroquad::miniquad;

use crate::fsutil::in_memory;

pub use super::page_clock::Instant;

/// A panic's message and place on the page's console as an error, `crate-room: panic: ...`
/// (miniquad's own hook logs it as a plain line, which a test reading errors misses). The game
/// stops after it: a panic aborts in a browser.
pub fn report_panics() {
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string().replace('\0', " ");
        miniquad::error!("crate-room: panic: {}", text);
    }));
}

/// Say `line` on the page's console, as an error: a page's stderr goes nowhere.
pub fn say(line: &str) {
    miniquad::error!("{}", line);
}

/// Keys of the browser's storage that hold the game's files: the prefix, then the path.
const STORAGE_PREFIX: &str = "crate-room:";

/// After each frame: the files written go to the browser's storage, and after the first the
/// page hears that the game is up (it hides its loading line; the test waits for the line).
pub fn end_of_frame(frame: u64) {
    keep_written_files();
    if frame == 1 {
        // The page's plugin answers this name by hiding the loading line.
        miniquad::fs::load_file("crate-room:first-frame", |_| {});
        miniquad::info!("crate-room: ready");
    }
}

/// Put the files the browser's storage kept back where the game reads them.
pub fn restore_storage() {
    for i in 0..quad_storage_sys::len() {
        let Some(key) = quad_storage_sys::key(i) else {
            continue;
        };
        let Some(path) = key.strip_prefix(STORAGE_PREFIX) else {
            continue;
        };
        if let Some(text) = quad_storage_sys::get(&key) {
            in_memory::restore(Path::new(path), text.into_bytes());
        }
    }
}

/// Keep the files written since the last call in the browser's storage (text files only:
/// everything the game writes is text).
pub fn keep_written_files() {
    for (path, bytes) in in_memory::take_written() {
        let key = format!("{STORAGE_PREFIX}{}", path.display());
        match bytes.map(String::from_utf8) {
            Some(Ok(text)) => quad_storage_sys::set(&key, &text),
            Some(Err(_)) => {
                miniquad::warn!("crate-room: {} is not text; not kept", path.display());
            }
            None => quad_storage_sys::remove(&key),
        }
    }
}

/// The names the page's `download.js` answers by offering a kept file as a download.
const DOWNLOAD_PREFIX: &str = "crate-room:download:";

/// The editor saved `path`: the page offers it as a file download (named as the file), from
/// the browser's storage, which keeps it too. What the editor's status line adds.
pub fn offer_download(path: &Path) -> Option<String> {
    keep_written_files();
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let shown = name.clone();
    miniquad::fs::load_file(
        &format!("{DOWNLOAD_PREFIX}{}", path.display()),
        move |answer| {
            if answer.is_err() {
                miniquad::error!(
                    "crate-room: error: the page could not offer {} as a download (it is kept \
                     in the browser's storage)",
                    shown
                );
            }
        },
    );
    Some(format!(", downloaded as {name}"))
}

/// Give puffin macroquad's clock: its own needs `wasm-bindgen`, which macroquad's loader
/// cannot host.
pub fn start_profiler_clock() {
    fn now_ns() -> puffin::NanoSecond {
        let since = Instant::now().since_start().as_nanos();
        puffin::NanoSecond::try_from(since).unwrap_or(puffin::NanoSecond::MAX)
    }
    puffin::ThreadProfiler::initialize(now_ns, puffin::internal_profile_reporter);
}

/// The ECS's system timings' clock: the page's, as [`Instant`] reads it.
pub fn clock() -> Duration {
    Instant::now().since_start()
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

    /// No change ever waits to be reported.
    pub fn is_settling(&self) -> bool {
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
    /// The level ready to play, or why it is not one.
    pub prepared: Result<crate::background_loader::Prepared, crate::sim::LoadError>,
}

/// Hot reload's loader without a thread: a request is prepared at once, in the frame (the
/// levels are small and in memory), and [`poll`](Self::poll) hands it over.
#[derive(Debug)]
pub struct BackgroundLoader {
    atlas: crate::atlas::AtlasData,
    generation: u64,
    ready: Option<Loaded>,
}

impl BackgroundLoader {
    /// A loader for levels played with `atlas`.
    ///
    /// # Errors
    /// Never.
    pub fn new(atlas: crate::atlas::AtlasData) -> std::io::Result<Self> {
        Ok(Self {
            atlas,
            generation: 0,
            ready: None,
        })
    }

    /// Prepare `path` now, as `start` says; the result waits for [`poll`](Self::poll).
    pub fn request(
        &mut self,
        path: &Path,
        start: crate::background_loader::Start,
        _frame: u64,
    ) -> u64 {
        self.generation += 1;
        self.ready = Some(Loaded {
            generation: self.generation,
            path: path.to_path_buf(),
            prepared: crate::background_loader::prepare(path, &self.atlas, start),
        });
        self.generation
    }

    /// Drop `garbage` now: there is no other thread to drop it on.
    pub fn discard(&mut self, garbage: impl Send + 'static) {
        drop(garbage);
    }

    /// Drop the result not yet handed over.
    pub fn cancel(&mut self) {
        self.generation += 1;
        self.ready = None;
    }

    /// Never: a request is prepared when it is made.
    pub fn is_loading(&self) -> bool {
        false
    }

    /// The prepared result, once.
    pub fn poll(&mut self) -> Option<Loaded> {
        self.ready.take()
    }
}

/// No `.puffin` files in a browser: puffin writes them compressed with zstd, which it leaves
/// out on `wasm32`. F2's profiler window works as on the desktop.
///
/// # Errors
/// Always, saying so.
pub fn profile_bytes(_view: &puffin::FrameView) -> Result<Vec<u8>, String> {
    Err("saving a .puffin file is not available in a browser".to_owned())
}
