//! `crate-room`: play (default), or run one of the tools: `sim`, `replay`, `gen-level`, `check`.
//!
//! Exit codes: 0 success; 1 an error, said on stderr as `error: ...` (for `check`: a level is
//! invalid); 2 a usage error (clap's); [`EXIT_CLOSED_PIPE`] when standard output was closed
//! before everything was written (`crate-room sim --json | head -1`), quietly.

use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{Context, anyhow};
use clap::{Parser, Subcommand};

use game::atlas::AtlasData;
use game::input::{InputSource, InputSpec};
use game::level::{Layout, MAX_DENSE_CRATES, MAX_GENERATED_CRATES, MAX_SIDE};
use game::paths::DataDirs;
use game::records::settings::Overrides;
use game::replay::{self, Replay, VerifyOutcome};
use game::sim_run::{self, SimOptions};
use game::window::app::{self, PlayOptions};
use game::window::debug::views::Views;

/// Exit code of a tool whose standard output was closed by its reader: 128 + 13 (`SIGPIPE`),
/// what a shell reports for a tool the closed pipe killed, so `set -o pipefail` scripts see the
/// same as with other Unix tools.
const EXIT_CLOSED_PIPE: u8 = 141;

#[derive(Parser, Debug)]
#[command(name = "crate-room", version, about = "A top-down crate-smashing game")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

/// Options for playing in a window (no subcommand).
#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// Level file to start with (default: levels/crate_room.ron).
    #[arg(long)]
    level: Option<PathBuf>,
    /// Start in the level editor on PATH (a file that does not exist yet is a new level of
    /// --size); E plays it.
    #[arg(long, value_name = "PATH", conflicts_with = "level")]
    edit: Option<PathBuf>,
    /// Size of a new level made by --edit, in cells: WxH (default 26x15, one screen).
    #[arg(long, value_name = "WxH", requires = "edit", value_parser = map_size)]
    size: Option<(u32, u32)>,
    /// Seed of the simulation's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Wait for the display's refresh between frames.
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    vsync: OnOff,
    /// Window width in pixels, 90 to 16384 (the largest framebuffer OpenGL drivers commonly
    /// allow).
    #[arg(long, default_value_t = 1280, value_parser = window_side)]
    width: i32,
    /// Window height in pixels, 90 to 16384.
    #[arg(long, default_value_t = 720, value_parser = window_side)]
    height: i32,
    /// Who plays: keyboard, idle, bot (the built-in bot) or script:FILE (held keys per
    /// stretch of steps; see the README).
    #[arg(long, value_name = "SOURCE", default_value = "keyboard")]
    input: InputSpec,
    /// Scripted mode: play exactly N frames (one simulation step each; at least 1), print a
    /// JSON summary and exit.
    #[arg(long, value_parser = frame_count)]
    frames: Option<u64>,
    /// Scripted mode: save the last frame as a PNG file, named `*.png` (needs --frames).
    #[arg(long, requires = "frames", value_parser = png_path)]
    screenshot: Option<PathBuf>,
    /// Debug views to start with: a comma-separated list of help, profiler, boxes, grid, dirty,
    /// stats (or all).
    #[arg(long, value_name = "LIST", default_value = "")]
    debug: Views,
    /// No screen shake (K toggles it in the game).
    #[arg(long)]
    no_shake: bool,
    /// No hit-stop: the game never pauses for a moment on a hit (K toggles it in the game).
    #[arg(long)]
    no_hit_stop: bool,
    /// Serve the profile to `puffin_viewer` over TCP [default address: 127.0.0.1:8585].
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8585")]
    puffin_server: Option<String>,
    /// Start with the sound muted (M toggles it). Like --no-shake, --no-hit-stop, --fullscreen
    /// and --windowed, this run only: the settings file is not changed.
    #[arg(long)]
    mute: bool,
    /// Start fullscreen (F11 or Alt+Enter toggles it).
    #[arg(long, conflicts_with = "windowed")]
    fullscreen: bool,
    /// Start in a window, whatever the settings say.
    #[arg(long)]
    windowed: bool,
    /// Start with the dirty-component optimization off (F7 toggles it).
    #[arg(long)]
    no_dirty: bool,
    /// Write the current run's replay to FILE (every 10 s of play, when the room is cleared
    /// and when the game ends; a restart or another level starts a new run).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OnOff {
    On,
    Off,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the simulation without a window and report the result.
    Sim {
        /// Level file.
        #[arg(long)]
        level: PathBuf,
        /// Steps to simulate (60 per second of game time). Memory does not grow with it.
        #[arg(long, default_value_t = 600)]
        frames: u64,
        /// Input source: idle, bot or script:FILE.
        #[arg(long, value_name = "SOURCE", default_value = "idle")]
        input: InputSpec,
        /// Seed of the simulation's randomness.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Turn the dirty-component optimization off (same result, more work).
        #[arg(long)]
        no_dirty: bool,
        /// Print one JSON object instead of a summary.
        #[arg(long)]
        json: bool,
        /// Write the run's replay to FILE (at most a day of steps).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Watch a replay in the window (P pause, 1/2/3 speed, . one step, Q quit), or with
    /// --verify re-simulate it without one: exit 0 if every checkpoint matches, 1 naming the
    /// first that does not. Window options go before `replay`.
    Replay {
        /// Replay file (written by --record or the room-cleared screen).
        file: PathBuf,
        /// Re-simulate headless and compare the checkpoints instead of opening a window.
        #[arg(long)]
        verify: bool,
    },
    /// Write a valid level with exactly N crates (and K powder kegs).
    GenLevel {
        /// Number of crates; crates and kegs together at most 8029440 (the most the block layout
        /// fits in the format's map size limit), or 10000000 with --dense.
        #[arg(long, default_value_t = 0, value_parser = crate_count)]
        crates: usize,
        /// Number of powder kegs, besides the crates.
        #[arg(long, default_value_t = 0, value_parser = crate_count)]
        kegs: usize,
        /// Seed of the layout.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fill every cell but a lane row every 32 rows and a lane column through the middle,
        /// instead of clusters in blocks: up to 10000000 crates, the format's limit.
        #[arg(long)]
        dense: bool,
        /// Output file (stdout without it).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Validate level files; exit 0 if all are valid, 1 if any is not.
    Check {
        /// Level files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

/// `--crates`: a count `gen-level` can place in some layout, checked before anything is
/// allocated (whether it fits the layout asked for is checked with `--dense` known).
fn crate_count(text: &str) -> Result<usize, String> {
    match text.parse::<u64>() {
        Ok(n) if n <= MAX_DENSE_CRATES as u64 => Ok(n as usize),
        Ok(n) => Err(format!(
            "{n} is more than any layout places: at most {MAX_GENERATED_CRATES} \
             ({MAX_DENSE_CRATES} with --dense)"
        )),
        Err(_) => Err(format!(
            "expected a whole number of crates from 0 to {MAX_GENERATED_CRATES} \
             ({MAX_DENSE_CRATES} with --dense)"
        )),
    }
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

/// Standard output was closed by its reader before everything was written.
#[derive(Debug, thiserror::Error)]
#[error("standard output was closed")]
struct ClosedPipe;

/// Write `text` to standard output; a closed pipe is [`ClosedPipe`], a full disk an error.
fn print_out(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// A failed write to standard output: [`ClosedPipe`] for a closed pipe, else an error.
fn stdout_error(e: std::io::Error) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        ClosedPipe.into()
    } else {
        anyhow!("cannot write to standard output: {e}")
    }
}

/// Standard output for a writer that goes on after an error (`check` reports every file):
/// the first error is kept, and nothing more is written after it.
#[derive(Default)]
struct CheckedStdout {
    failed: Option<std::io::Error>,
}

impl Write for CheckedStdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.failed.is_none() {
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(buf).and_then(|()| out.flush()) {
                self.failed = Some(e);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Parse the command line; window options given to a tool that opens no window are a usage
/// error rather than silently ignored.
fn parse_cli() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut command = Cli::command();
    let matches = command.try_get_matches_from_mut(std::env::args_os())?;
    let cli = Cli::from_arg_matches(&matches)?;
    let tool = match &cli.command {
        None | Some(Command::Replay { .. }) => return Ok(cli),
        Some(Command::Sim { .. }) => "sim",
        Some(Command::GenLevel { .. }) => "gen-level",
        Some(Command::Check { .. }) => "check",
    };
    let window_options: Vec<String> = command
        .get_arguments()
        .filter(|arg| {
            matches.value_source(arg.get_id().as_str())
                == Some(clap::parser::ValueSource::CommandLine)
        })
        .filter_map(|arg| Some(format!("--{}", arg.get_long()?)))
        .collect();
    if window_options.is_empty() {
        return Ok(cli);
    }
    Err(command.error(
        clap::error::ErrorKind::ArgumentConflict,
        format!(
            "{} {} for the window, and `{tool}` opens none; give options after `{tool}`",
            window_options.join(", "),
            if window_options.len() == 1 {
                "is"
            } else {
                "are"
            },
        ),
    ))
}

fn main() -> ExitCode {
    let cli = match parse_cli() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap uses 2 for usage errors and 0 for --help / --version.
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) if e.is::<ClosedPipe>() => ExitCode::from(EXIT_CLOSED_PIPE),
        Err(e) => {
            let message = format!("{e:#}");
            // A positioned message (`PATH:LINE:COL: error: ...`, as level and replay errors
            // are) names itself an error already.
            let first_line = message.lines().next().unwrap_or_default();
            let prefix = if first_line.contains(": error: ") {
                ""
            } else {
                "error: "
            };
            // Not `eprintln!`, which panics when stderr cannot be written either.
            let _ = writeln!(std::io::stderr(), "{prefix}{message}");
            ExitCode::FAILURE
        }
    }
}

/// Refuse a `--level` that is missing or not a regular file before any window opens: there
/// is no last good level to keep running.
fn check_level_path(path: &Path) -> anyhow::Result<()> {
    match game::fsutil::regular_file_metadata(path) {
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
    match game::fsutil::regular_file_metadata(path) {
        Ok(_) if size.is_some() => Err(anyhow!(
            "--size makes a new level, and {} exists already: drop --size (the editor resizes \
             with Ctrl+arrows)",
            path.display()
        )),
        Ok(_) => {
            let atlas = load_atlas()?;
            game::level::load(path, &atlas.crate_skins()).map_err(|e| anyhow!("{e}"))?;
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
    if cfg!(target_os = "linux") && !game::window::display::named() {
        anyhow::bail!(game::window::display::unavailable_message());
    }
    Ok(())
}

/// Open the window and run `game` in it. A display that is named but does not answer is the
/// one-line error of [`check_display`], not the windowing library's panic.
fn run_window(
    conf: macroquad::conf::Conf,
    game: impl std::future::Future<Output = ()> + 'static,
) -> anyhow::Result<()> {
    let quiet = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let default_hook = std::panic::take_hook();
    let hook_quiet = std::sync::Arc::clone(&quiet);
    std::panic::set_hook(Box::new(move |info| {
        let message = panic_message(info.payload());
        if game::window::display::is_open_failure(&message) {
            hook_quiet.store(true, std::sync::atomic::Ordering::Relaxed);
        } else {
            default_hook(info);
        }
    }));
    let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        macroquad::Window::from_config(conf, game);
    }));
    match opened {
        Ok(()) => Ok(()),
        Err(_) if quiet.load(std::sync::atomic::Ordering::Relaxed) => {
            Err(anyhow!(game::window::display::unavailable_message()))
        }
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

/// Refuse an output (`--record`, `--screenshot`) that cannot be written or is one of the
/// run's inputs, before the run: it would fail at its end, or destroy the input.
fn check_output_arg(flag: &str, path: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    game::fsutil::check_output(path)
        .and_then(|_| game::fsutil::check_not_input(path, inputs.iter().copied()))
        .map_err(|e| anyhow!("{flag}: {e}"))?;
    Ok(())
}

fn play(args: PlayArgs, replay: Option<Replay>) -> anyhow::Result<()> {
    if let Some(level) = &args.level {
        check_level_path(level)?;
    }
    if let Some(path) = &args.edit {
        check_edit_path(path, args.size)?;
    }
    let inputs = play_inputs(&args);
    if let Some(path) = &args.record {
        check_output_arg("--record", path, &inputs)?;
    }
    if let Some(path) = &args.screenshot {
        check_output_arg("--screenshot", path, &inputs)?;
    }
    check_display()?;
    let input = match replay {
        Some(replay) => InputSource::Replay(Arc::new(replay)),
        None => args.input.load()?,
    };
    let conf = macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: "Crate Room".to_owned(),
            window_width: args.width,
            window_height: args.height,
            window_resizable: true,
            platform: macroquad::miniquad::conf::Platform {
                swap_interval: Some(i32::from(args.vsync == OnOff::On)),
                ..Default::default()
            },
            ..Default::default()
        },
        // Room for a whole screen of sprites in one batch: 10,000 quads (u16 indices cap a
        // batch at 65,536 vertices).
        draw_call_vertex_capacity: 40_000,
        draw_call_index_capacity: 60_000,
        ..Default::default()
    };
    let opts = PlayOptions {
        level: args.level,
        edit: args.edit.map(|path| app::EditStart {
            path,
            new_size: args.size.unwrap_or(app::editor::NEW_LEVEL_SIZE),
        }),
        seed: args.seed,
        input,
        frames: args.frames,
        screenshot: args.screenshot,
        debug: args.debug,
        puffin_server: args.puffin_server,
        overrides: Overrides {
            mute: args.mute,
            no_shake: args.no_shake,
            no_hit_stop: args.no_hit_stop,
            fullscreen: match (args.fullscreen, args.windowed) {
                (true, _) => Some(true),
                (_, true) => Some(false),
                _ => None,
            },
        },
        dirty: !args.no_dirty,
        record: args.record,
    };
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

fn load_atlas() -> anyhow::Result<AtlasData> {
    let dirs = DataDirs::locate()?;
    AtlasData::load(&dirs.assets).context("loading the sprite atlas")
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        None => {
            play(cli.play, None)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Sim {
            level,
            frames,
            input,
            seed,
            no_dirty,
            json,
            record,
        }) => {
            if input == InputSpec::Keyboard {
                anyhow::bail!("`sim` runs without a window: use --input idle, bot or script:FILE");
            }
            if let Some(path) = &record {
                let mut inputs = vec![level.as_path()];
                if let InputSpec::Script(script) = &input {
                    inputs.push(script);
                }
                check_output_arg("--record", path, &inputs)?;
            }
            let input = input.load()?;
            // The whole image is decoded, as the window does: a corrupt one fails here too.
            let dirs = DataDirs::locate()?;
            let (atlas, _image) =
                AtlasData::load_with_image(&dirs.assets).context("loading the sprite atlas")?;
            let report = sim_run::run(
                &SimOptions {
                    level,
                    frames,
                    input,
                    seed,
                    dirty: !no_dirty,
                    record: record.is_some(),
                },
                &atlas,
            )?;
            if let (Some(path), Some(replay)) = (&record, &report.replay) {
                replay.save(path).context("--record")?;
            }
            if json {
                print_out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
            } else {
                print_out(&report.summary())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Replay { file, verify }) => {
            let replay = Replay::load(&file)?;
            let dirs = DataDirs::locate()?;
            let atlas = AtlasData::load(&dirs.assets).context("loading the sprite atlas")?;
            if !verify {
                if cli.play.level.is_some() || cli.play.edit.is_some() || cli.play.record.is_some()
                {
                    anyhow::bail!("a replay plays its own level and records nothing");
                }
                if cli.play.input != InputSpec::Keyboard {
                    anyhow::bail!("a replay plays its own inputs: drop --input");
                }
                // The level is found and its hash checked before a window opens.
                let (level, _, _) = replay::load_sim(&replay, &atlas, Some(&dirs.levels))?;
                let args = PlayArgs {
                    level: Some(level),
                    seed: replay.seed,
                    ..cli.play
                };
                play(args, Some(replay))?;
                return Ok(ExitCode::SUCCESS);
            }
            match replay::verify(&replay, &atlas, Some(&dirs.levels))? {
                outcome @ VerifyOutcome::Matched { .. } => {
                    print_out(&format!("{}: {outcome}\n", file.display()))?;
                    Ok(ExitCode::SUCCESS)
                }
                outcome @ VerifyOutcome::Diverged { .. } => {
                    Err(anyhow!("{}: {outcome}", file.display()))
                }
            }
        }
        Some(Command::GenLevel {
            crates,
            kegs,
            seed,
            dense,
            out,
        }) => {
            let layout = if dense { Layout::Dense } else { Layout::Blocks };
            let text = match game::level::generate_level(layout, crates, kegs, seed) {
                Ok(text) => text,
                Err(too_many) => {
                    // Each count passed its own check; together, or in this layout, they are a
                    // usage error too.
                    let counts = if kegs == 0 {
                        "--crates"
                    } else {
                        "--crates plus --kegs"
                    };
                    eprintln!("error: {counts}: {too_many}");
                    return Ok(ExitCode::from(2));
                }
            };
            match out {
                Some(path) => game::fsutil::write_atomic(&path, text.as_bytes())?,
                None => print_out(&text)?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Check { paths }) => {
            let atlas = load_atlas()?;
            let mut out = CheckedStdout::default();
            let code = game::level::check(&paths, &atlas.crate_skins(), &mut out);
            if let Some(e) = out.failed {
                return Err(stdout_error(e));
            }
            Ok(ExitCode::from(code as u8))
        }
    }
}
