//! Opening the game's window: the command line's checks that come before it (levels, outputs,
//! a display), and the windowing library's panic on a display that does not answer turned into
//! a one-line error. Macroquad's window configuration is `window::window_conf`, which the
//! browser's start shares.

use std::cell::RefCell;
use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::anyhow;

use crate::game_data::GameData;
use crate::input::{InputSource, InputSpec};
use crate::player_data::settings::Overrides;
use crate::replay::{self, Replay};
use crate::tool_io::{check_output_arg, print_out};
use crate::window::app::{self, RunConfig};
use crate::window::display;
use crate::window::play_args::{OnOff, PlayArgs};

/// `crate-room` with no subcommand: play in a window until the player quits, or a scripted
/// run ends and prints its report.
///
/// # Errors
/// An argument the checks refuse, no display, or the game failing to start.
pub fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    play_with(args, None)?;
    Ok(ExitCode::SUCCESS)
}

/// `crate-room replay FILE`: watch the replay in a window, on its own level and seed.
///
/// # Errors
/// The replay, the data or its level not loading, window options a replay cannot take, no
/// display, or the game failing to start.
pub fn watch_replay(args: PlayArgs, file: &Path) -> anyhow::Result<ExitCode> {
    let replay = Replay::load(file)?;
    let data = GameData::load()?;
    if args.level.is_some() || args.edit.is_some() || args.record.is_some() {
        anyhow::bail!("a replay plays its own level and records nothing");
    }
    if args.input != InputSpec::Keyboard {
        anyhow::bail!("a replay plays its own inputs: drop --input");
    }
    // The level is found and its hash checked before a window opens.
    let (level, _, _) = replay::load_sim(&replay, &data.atlas, Some(&data.dirs.levels))?;
    let args = PlayArgs {
        level: Some(level),
        seed: replay.seed,
        ..args
    };
    play_with(args, Some(replay))?;
    Ok(ExitCode::SUCCESS)
}

fn play_with(args: PlayArgs, replay: Option<Replay>) -> anyhow::Result<()> {
    check_before_window(&args)?;
    let input = match replay {
        Some(replay) => InputSource::Replay(Arc::new(replay)),
        None => args.input.load()?,
    };
    let conf = crate::window::window_conf(args.width, args.height, args.vsync == OnOff::On);
    let opts = run_config(args, input);
    // The window owns the thread until the game ends; the game's result comes back through
    // this slot. If the window is closed, the loop never returns and the slot stays empty.
    let outcome = Rc::new(RefCell::new(None));
    let slot = Rc::clone(&outcome);
    // `app::run` is called here, before the window opens: it must watch for macroquad's audio
    // thread failing from the start.
    let game = app::run(opts);
    run_window(conf, async move {
        *slot.borrow_mut() = Some(game.await);
    })?;
    match outcome.take() {
        Some(Ok(Some(report))) => print_out(&format!("{}\n", serde_json::to_string(&report)?))?,
        Some(Ok(None)) | None => {}
        Some(Err(e)) => return Err(e.into()),
    }
    Ok(())
}

/// Everything that would fail the run and can be known before a window opens.
fn check_before_window(args: &PlayArgs) -> anyhow::Result<()> {
    if let Some(level) = &args.level {
        check_level_path(level)?;
    }
    if let Some(path) = &args.edit {
        check_edit_path(path, args.size)?;
    }
    if let (Some(frames), Some(late)) = (args.frames, args.press.iter().max_by_key(|p| p.frame))
        && late.frame > frames
    {
        anyhow::bail!(
            "--press at frame {}: the run ends at --frames {frames}, so the key would never be \
             pressed; press it at a frame from 1 to {frames}, or give more --frames",
            late.frame
        );
    }
    let inputs = play_inputs(args);
    if let Some(path) = &args.record {
        check_output_arg("--record", path, &inputs)?;
    }
    if let Some(path) = &args.screenshot {
        check_output_arg("--screenshot", path, &inputs)?;
    }
    if let Some(path) = &args.save_profile {
        check_output_arg("--save-profile", path, &inputs)?;
    }
    check_display()
}

/// What the game loop is told.
fn run_config(args: PlayArgs, input: InputSource) -> RunConfig {
    RunConfig {
        level: args.level,
        edit: args.edit.map(|path| crate::window::editor::EditStart {
            path,
            new_size: args.size.unwrap_or(crate::window::editor::NEW_LEVEL_SIZE),
        }),
        seed: args.seed,
        input,
        frames: args.frames,
        screenshot: args.screenshot,
        press: args.press,
        report_brightness: args.report_brightness,
        debug: args.debug,
        puffin_server: args.puffin_server,
        save_profile: args.save_profile,
        overrides: Overrides {
            mute: args.mute,
            no_shake: args.no_shake,
            no_hit_stop: args.no_hit_stop,
            reduce_flashing: args.reduce_flashing,
            fullscreen: match (args.fullscreen, args.windowed) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
        },
        dirty: !args.no_dirty,
        record: args.record,
    }
}

/// Refuse a `--level` that is missing or not a regular file before any window opens: there
/// is no last good level to keep running.
fn check_level_path(path: &Path) -> anyhow::Result<()> {
    match crate::fsutil::regular_file_metadata(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(anyhow!("--level {}: no such file", path.display()))
        }
        Err(e) => Err(anyhow!("--level {}: {e}", path.display())),
    }
}

/// Refuse an `--edit` path that exists but is not a valid level (the editor opens only what
/// `check` accepts), or whose folder is missing (a level that does not exist yet is made new,
/// and saved there), before any window opens.
fn check_edit_path(path: &Path, size: Option<(u32, u32)>) -> anyhow::Result<()> {
    match crate::fsutil::regular_file_metadata(path) {
        Ok(_) if size.is_some() => Err(anyhow!(
            "--size makes a new level, and {} exists already: drop --size (the editor resizes \
             with Ctrl+arrows)",
            path.display()
        )),
        Ok(_) => {
            let data = GameData::load()?;
            crate::level::load(path, &data.atlas.crate_skins()).map_err(|e| anyhow!("{e}"))?;
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = match path.parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir,
                _ => Path::new("."),
            };
            if dir.is_dir() {
                Ok(())
            } else {
                Err(anyhow!(
                    "--edit {}: no such folder {}",
                    path.display(),
                    dir.display()
                ))
            }
        }
        Err(e) => Err(anyhow!("--edit {}: {e}", path.display())),
    }
}

/// Refuse a window where no display is named, in one line, instead of the windowing
/// library's panic.
fn check_display() -> anyhow::Result<()> {
    if cfg!(target_os = "linux") && !display::named() {
        anyhow::bail!(display::unavailable_message());
    }
    Ok(())
}

/// The files a windowed run reads: none of its outputs may be one of them.
fn play_inputs(args: &PlayArgs) -> Vec<&Path> {
    let mut inputs: Vec<&Path> = [args.level.as_deref(), args.edit.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if let InputSpec::Script(path) = &args.input {
        inputs.push(path);
    }
    inputs
}

/// Open the window and run `game` in it. A display that is named but does not answer is the
/// one-line error of [`check_display`], not the windowing library's panic.
fn run_window(
    conf: macroquad::conf::Conf,
    game: impl std::future::Future<Output = ()> + 'static,
) -> anyhow::Result<()> {
    let quiet = Arc::new(AtomicBool::new(false));
    let default_hook = std::panic::take_hook();
    let hook_quiet = Arc::clone(&quiet);
    std::panic::set_hook(Box::new(move |info| {
        let message = panic_message(info.payload());
        if display::is_open_failure(&message) {
            hook_quiet.store(true, Ordering::Relaxed);
        } else {
            default_hook(info);
        }
    }));
    let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        macroquad::Window::from_config(conf, game);
    }));
    match opened {
        Ok(()) => Ok(()),
        Err(_) if quiet.load(Ordering::Relaxed) => Err(anyhow!(display::unavailable_message())),
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}
