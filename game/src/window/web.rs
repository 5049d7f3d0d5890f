//! The browser build's start: the page's URL parameters as a run's options, the game's files
//! kept in the browser's storage, and the lines the page's console shows (which the browser
//! test waits for).
//!
//! `index.html?level=vault&input=bot&frames=600&debug=profiler,dirty` is
//! `crate-room --level levels/vault.ron --input bot --frames 600 --debug profiler,dirty`; a
//! scripted run's report goes to the console as `crate-room: report {JSON}` instead of stdout.

use std::path::{Path, PathBuf};

use macroquad::miniquad;

use crate::fsutil::in_memory;
use crate::input::InputSpec;
use crate::player_data::settings::Overrides;
use crate::window::app::{self, RunConfig};
use crate::window::debug::views::Views;
use crate::window::platform;

/// The URL parameters a page understands, for the error that lists them.
const PARAMETERS: &str = "level=NAME, input=keyboard|idle|bot, frames=N, debug=LIST, seed=N, \
                          dirty=off, mute, hit_stop=off, shake=off";

/// Open the page's window and play.
pub fn main() {
    let conf = crate::window::window_conf(1280, 720, true);
    macroquad::Window::from_config(conf, run());
}

async fn run() {
    // After miniquad's own hook, which `Window::from_config` installed.
    platform::report_panics();
    let query = macroquad::file::load_file("crate-room:query")
        .await
        .unwrap_or_default();
    let query = String::from_utf8_lossy(&query).into_owned();
    let opts = match options(&query) {
        Ok(opts) => opts,
        Err(e) => return show_error(&e).await,
    };
    platform::restore_storage();
    let result = app::run(opts).await;
    platform::keep_written_files();
    match result {
        Ok(Some(report)) => match serde_json::to_string(&report) {
            Ok(json) => miniquad::info!("crate-room: report {}", json),
            Err(e) => miniquad::error!("crate-room: error: {}", e),
        },
        Ok(None) => miniquad::info!("crate-room: quit"),
        Err(e) => {
            let message = format!("{e}");
            miniquad::error!("crate-room: error: {}", message);
            show_error(&message).await;
        }
    }
}

/// The run the URL parameters ask for.
///
/// # Errors
/// A parameter the game does not know, or a value it cannot use, in words that say what to
/// write instead.
pub fn options(query: &str) -> Result<RunConfig, String> {
    let mut opts = RunConfig {
        level: None,
        edit: None,
        seed: 1,
        input: crate::input::InputSource::Keyboard,
        frames: None,
        screenshot: None,
        press: Vec::new(),
        report_brightness: false,
        debug: Views::default(),
        save_profile: None,
        puffin_server: None,
        overrides: Overrides::default(),
        dirty: true,
        record: None,
    };
    for pair in query.trim_start_matches('?').split('&') {
        if pair.is_empty() {
            continue;
        }
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decoded(value);
        let bad = |what: &str| format!("?{name}={value}: {what}");
        match name {
            "level" => opts.level = Some(level_path(&value).map_err(|e| bad(&e))?),
            "input" => {
                let spec: InputSpec = value.parse().map_err(|e| bad(&format!("{e}")))?;
                if let InputSpec::Script(_) = spec {
                    return Err(bad(
                        "input scripts are files; the browser has keyboard, idle or bot",
                    ));
                }
                opts.input = spec.load().map_err(|e| bad(&e.to_string()))?;
            }
            "frames" => match value.parse::<u64>() {
                Ok(n) if n >= 1 => opts.frames = Some(n),
                _ => return Err(bad("expected a whole number of frames, at least 1")),
            },
            "seed" => {
                opts.seed = value.parse().map_err(|_| bad("expected a whole number"))?;
            }
            "debug" => opts.debug = value.parse().map_err(|e| bad(&format!("{e}")))?,
            "dirty" => opts.dirty = on_off(&value).map_err(|e| bad(&e))?,
            "hit_stop" => opts.overrides.no_hit_stop = !on_off(&value).map_err(|e| bad(&e))?,
            "shake" => opts.overrides.no_shake = !on_off(&value).map_err(|e| bad(&e))?,
            "mute" => opts.overrides.mute = true,
            _ => {
                return Err(format!(
                    "unknown URL parameter `{name}` (the game takes {PARAMETERS})"
                ));
            }
        }
    }
    Ok(opts)
}

/// `on` or `off`.
fn on_off(value: &str) -> Result<bool, String> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err("expected on or off".into()),
    }
}

/// The shipped level called `name` (`vault` or `vault.ron`).
fn level_path(name: &str) -> Result<PathBuf, String> {
    let levels = Path::new(in_memory::ROOT).join("levels");
    let file = if name.ends_with(".ron") {
        name.to_owned()
    } else {
        format!("{name}.ron")
    };
    let path = levels.join(&file);
    if !file.contains('/') && crate::fsutil::is_file(&path) {
        return Ok(path);
    }
    let names: Vec<String> = crate::fsutil::files_in(&levels)
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    Err(format!(
        "no such level (the levels are {})",
        names.join(", ")
    ))
}

/// `%XX` escapes and `+` (a space) decoded; a broken escape is kept as written.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(high), Some(low)) => {
                    out.push(high << 4 | low);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The value of one hexadecimal digit.
fn hex(digit: u8) -> Option<u8> {
    char::from(digit)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

/// Show why the game cannot start, on the page, until it is closed.
async fn show_error(message: &str) {
    use macroquad::prelude::{BLACK, WHITE, clear_background, draw_text, next_frame};
    miniquad::error!("crate-room: error: {}", message);
    loop {
        clear_background(BLACK);
        let mut y = 40.0;
        for line in std::iter::once("Crate Room cannot start:").chain(message.lines()) {
            draw_text(line, 20.0, y, 24.0, WHITE);
            y += 28.0;
        }
        next_frame().await;
    }
}
