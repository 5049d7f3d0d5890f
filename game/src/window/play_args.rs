//! The options of a windowed run (`crate-room` with no subcommand, and `crate-room replay`
//! without `--verify`), with the checks of their values clap runs.

use std::path::PathBuf;

use crate::input::InputSpec;
use crate::level::MAX_SIDE;
use crate::window::debug::views::Views;

/// Options for playing in a window (no subcommand).
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Level file to start with (default: levels/crate_room.ron).
    #[arg(long)]
    pub(crate) level: Option<PathBuf>,
    /// Start in the level editor on PATH (a file that does not exist yet is a new level of
    /// --size); E plays it.
    #[arg(long, value_name = "PATH", conflicts_with = "level")]
    pub(crate) edit: Option<PathBuf>,
    /// Size of a new level made by --edit, in cells: WxH (default 26x15, one screen).
    #[arg(long, value_name = "WxH", requires = "edit", value_parser = map_size)]
    pub(crate) size: Option<(u32, u32)>,
    /// Seed of the simulation's randomness.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Wait for the display's refresh between frames.
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    pub(crate) vsync: OnOff,
    /// Window width in pixels, 90 to 16384 (the largest framebuffer OpenGL drivers commonly
    /// allow).
    #[arg(long, default_value_t = 1280, value_parser = window_side)]
    pub(crate) width: i32,
    /// Window height in pixels, 90 to 16384.
    #[arg(long, default_value_t = 720, value_parser = window_side)]
    pub(crate) height: i32,
    /// Who plays: keyboard, idle, bot (the built-in bot) or script:FILE (held keys per
    /// stretch of steps; see the README).
    #[arg(long, value_name = "SOURCE", default_value = "keyboard",
          value_parser = clap::builder::TypedValueParser::try_map(
              clap::builder::OsStringValueParser::new(), InputSpec::from_os))]
    pub(crate) input: InputSpec,
    /// Scripted mode: play exactly N frames (one simulation step each; at least 1), print a
    /// JSON summary and exit.
    #[arg(long, value_parser = frame_count)]
    pub(crate) frames: Option<u64>,
    /// Scripted mode: press a game key at a frame, as a player would (F7@300 switches the
    /// dirty optimization on the 300th frame); repeatable.
    #[arg(long, requires = "frames", value_name = "KEY@FRAME")]
    pub(crate) press: Vec<crate::window::app::keys::ScriptedPress>,
    /// Scripted mode: save the last frame as a PNG file, named `*.png` (needs --frames).
    #[arg(long, requires = "frames", value_parser = png_path)]
    pub(crate) screenshot: Option<PathBuf>,
    /// Debug views to start with: a comma-separated list of help, profiler, boxes, grid, dirty,
    /// stats (or all).
    #[arg(long, value_name = "LIST", default_value = "")]
    pub(crate) debug: Views,
    /// No screen shake (K toggles it in the game).
    #[arg(long)]
    pub(crate) no_shake: bool,
    /// No hit-stop: the game never pauses for a moment on a hit (K toggles it in the game).
    #[arg(long)]
    pub(crate) no_hit_stop: bool,
    /// No flashing at all: a keg's blast does not flash the screen (kept in the settings as
    /// "Reduce flashing"; this flag changes this run only).
    #[arg(long)]
    pub(crate) reduce_flashing: bool,
    /// Scripted mode: report each frame's mean brightness, 0 to 255, in the JSON summary
    /// (`brightness`), to check how the screen flashes.
    #[arg(long, requires = "frames")]
    pub(crate) report_brightness: bool,
    /// Serve the profile to `puffin_viewer` over TCP [default address: 127.0.0.1:8585].
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8585")]
    pub(crate) puffin_server: Option<String>,
    /// Keep the profiler's frames from the start (the latest 1,000 and the slowest 256) and
    /// write them to FILE, a `.puffin` file that `puffin_viewer` opens, as the game ends.
    #[arg(long, value_name = "FILE", value_parser = puffin_path)]
    pub(crate) save_profile: Option<PathBuf>,
    /// Start with the sound muted (M toggles it). Like --no-shake, --no-hit-stop, --fullscreen
    /// and --windowed, this run only: the settings file is not changed.
    #[arg(long)]
    pub(crate) mute: bool,
    /// Start fullscreen (F11 or Alt+Enter toggles it).
    #[arg(long, conflicts_with = "windowed")]
    pub(crate) fullscreen: bool,
    /// Start in a window, whatever the settings say.
    #[arg(long)]
    pub(crate) windowed: bool,
    /// Start with the dirty-component optimization off (F7 toggles it).
    #[arg(long)]
    pub(crate) no_dirty: bool,
    /// Write the current run's replay to FILE (every 10 s of play, when the room is cleared
    /// and when the game ends; a restart or another level starts a new run).
    #[arg(long, value_name = "FILE")]
    pub(crate) record: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OnOff {
    On,
    Off,
}

/// The smallest window side: a HUD bar and a few cells of the room must fit.
const MIN_WINDOW_SIDE: i32 = 90;
/// The largest window side: `GL_MAX_VIEWPORT_DIMS` and `GL_MAX_TEXTURE_SIZE` of common drivers
/// (Mesa's software renderer among them). Past it the driver may refuse the window or crash in
/// it, and X11 itself cannot address more than 32767.
const MAX_WINDOW_SIDE: i32 = 16384;

/// `--width` / `--height`: a window side the display and the GL driver can have.
fn window_side(text: &str) -> Result<i32, String> {
    let range = format!("a whole number of pixels from {MIN_WINDOW_SIDE} to {MAX_WINDOW_SIDE}");
    match text.trim().parse::<i64>() {
        Ok(n) if (i64::from(MIN_WINDOW_SIDE)..=i64::from(MAX_WINDOW_SIDE)).contains(&n) => {
            Ok(n as i32)
        }
        Ok(n) => Err(format!("{n} is out of range: expected {range}")),
        Err(_) => Err(format!("expected {range}")),
    }
}

/// `--frames`: a scripted run plays at least one frame.
fn frame_count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("a scripted run plays at least 1 frame".into()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a whole number of frames, at least 1".into()),
    }
}

/// `--screenshot`: a path whose extension says PNG, the only format written.
fn png_path(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("png") => Ok(path),
        _ => Err("screenshots are PNG files: name it with a .png extension".into()),
    }
}

fn puffin_path(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    match path.extension().and_then(|e| e.to_str()) {
        Some("puffin") => Ok(path),
        _ => Err("profiles are .puffin files: name it with a .puffin extension".into()),
    }
}

/// `--size WxH`: a map size the format allows, each side 1 to `MAX_SIDE`.
fn map_size(text: &str) -> Result<(u32, u32), String> {
    let side = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_SIDE).contains(n))
    };
    match text.split_once(['x', 'X']) {
        Some((w, h)) => match (side(w), side(h)) {
            (Some(w), Some(h)) => Ok((w, h)),
            _ => Err(format!(
                "each side must be a whole number from 1 to {MAX_SIDE}"
            )),
        },
        None => Err("expected WIDTHxHEIGHT in cells, e.g. 26x15".into()),
    }
}
