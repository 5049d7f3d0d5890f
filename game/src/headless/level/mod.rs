//! Level files: the RON format level authors write, its validation, and hot reload.
//!
//! A level is untrusted input, edited by hand while the game runs. Everything here returns a
//! [`LevelError`] that names the file, line and column instead of panicking, and checks every size
//! limit before allocating for it. The simulation only ever sees a validated [`Level`].
//!
//! ```
//! use std::path::Path;
//! use game::level::{self, Tile};
//!
//! let text = "(
//!     name: \"Tiny\",
//!     map: [
//!         \"#####\",
//!         \"#@c$#\",
//!         \"#####\",
//!     ],
//! )";
//! let skins = level::DEFAULT_SKINS;
//! let level = level::parse(Path::new("tiny.ron"), text, &skins).unwrap();
//! assert_eq!((level.width, level.height), (5, 3));
//! assert_eq!(level.crates.len(), 2);
//! assert!(level.crates[1].coin);
//! assert_eq!(level.tile(0, 0), Tile::Wall);
//!
//! let err = level::parse(Path::new("tiny.ron"), "(name: \"x\", mapp: [])", &skins).unwrap_err();
//! assert_eq!(err.to_string().lines().next(), Some("tiny.ron:1:13: error: unknown field `mapp`"));
//! assert_eq!(err.hint.as_deref(), Some("did you mean `map`?"));
//! ```
//!
//! The file format is documented for level authors in `levels/README.md`.

mod bounds;
mod error;
mod escape;
mod excerpt;
pub(crate) mod format;
mod generate;
mod head;
mod loading;
mod map_cells;
mod parsed;
mod reporter;
mod ron_errors;
mod scanner;
pub(crate) mod spans;
mod spelling;
// The command line's level tools: a browser has none (see `window::platform`), and builds
// without clap.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub mod subcommands;
pub(crate) mod validate;
// File watching needs `notify` and a thread; a browser build has neither, and its window layer
// stands in for it (`window::platform`).
#[cfg(not(target_arch = "wasm32"))]
pub mod watch;

pub use bounds::{
    HEALTH_RANGE, MAX_CRATES, MAX_FILE_BYTES, MAX_NAME_CHARS, MAX_OVERRIDES, MAX_PAR_SECONDS,
    MAX_SIDE, MAX_SKIN_CHARS,
};
pub use error::LevelError;
pub use escape::escape_for_display;
pub use excerpt::{MAX_QUOTED_CHARS, MAX_SOURCE_COLUMNS};
pub use generate::{
    DENSE_PERIOD, Layout, MAX_DENSE_CRATES, MAX_GENERATED_CRATES, TooManyCrates, generate,
    generate_dense, generate_level, generate_with_kegs,
};
pub use head::{WHOLE_READ_MAX_BYTES, head_name};
pub use loading::{check, check_playable, load, parse, parse_bytes};
pub use parsed::{Cell, CrateSpawn, DEFAULT_SKINS, Level, Skin, Tile};
#[cfg(not(target_arch = "wasm32"))]
pub use watch::LevelWatcher;

pub(crate) use escape::needs_escape;
pub(crate) use loading::{lone_cr_to_lf, parse_raw, read_level_file};
pub(crate) use reporter::Reporter;
