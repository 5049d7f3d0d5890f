//! `crate-room`: play (default), or run one of the tools: `sim`, `gen-level`, `check`.

use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

use anyhow::Context;
use clap::{Parser, Subcommand};

use game::app::{self, PlayOptions};
use game::atlas::AtlasData;
use game::debug::views::Views;
use game::feel::FeelSettings;
use game::headless::{self, SimOptions};
use game::input::InputSpec;
use game::paths::DataDirs;

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
    /// Seed of the simulation's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Wait for the display's refresh between frames.
    #[arg(long, value_enum, default_value_t = OnOff::On)]
    vsync: OnOff,
    /// Window width in pixels.
    #[arg(long, default_value_t = 1280)]
    width: i32,
    /// Window height in pixels.
    #[arg(long, default_value_t = 720)]
    height: i32,
    /// Who plays: keyboard, idle, bot (the built-in bot) or script:FILE (held keys per
    /// stretch of steps; see the README).
    #[arg(long, value_name = "SOURCE", default_value = "keyboard")]
    input: InputSpec,
    /// Scripted mode: play exactly N frames (one simulation step each), print a JSON summary
    /// and exit.
    #[arg(long)]
    frames: Option<u64>,
    /// Scripted mode: save the last frame as a PNG (needs --frames).
    #[arg(long, requires = "frames")]
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
    /// Start with the sound muted (M toggles it).
    #[arg(long)]
    mute: bool,
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
        /// Steps to simulate (60 per second of game time).
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
    },
    /// Write a valid level with exactly N crates (and K powder kegs).
    GenLevel {
        /// Number of crates.
        #[arg(long, default_value_t = 0)]
        crates: usize,
        /// Number of powder kegs, besides the crates.
        #[arg(long, default_value_t = 0)]
        kegs: usize,
        /// Seed of the layout.
        #[arg(long, default_value_t = 1)]
        seed: u64,
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

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap uses 2 for usage errors and 0 for --help / --version.
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn play(args: PlayArgs) -> anyhow::Result<()> {
    let input = args.input.load()?;
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
        seed: args.seed,
        input,
        frames: args.frames,
        screenshot: args.screenshot,
        debug: args.debug,
        puffin_server: args.puffin_server,
        feel: FeelSettings {
            shake: !args.no_shake,
            hit_stop: !args.no_hit_stop,
        },
        mute: args.mute,
    };
    // The window owns the thread until the game ends; the game's result comes back through
    // this slot. If the window is closed, the loop never returns and the slot stays empty.
    let outcome = Rc::new(RefCell::new(None));
    let slot = Rc::clone(&outcome);
    // `app::run` is called here, before the window opens: it must watch for macroquad's audio
    // thread failing from the start.
    let game = app::run(opts);
    macroquad::Window::from_config(conf, async move {
        *slot.borrow_mut() = Some(game.await);
    });
    match outcome.take() {
        Some(Ok(Some(report))) => println!("{}", serde_json::to_string(&report)?),
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
            play(cli.play)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Sim {
            level,
            frames,
            input,
            seed,
            no_dirty,
            json,
        }) => {
            if input == InputSpec::Keyboard {
                anyhow::bail!("`sim` runs without a window: use --input idle, bot or script:FILE");
            }
            let input = input.load()?;
            let atlas = load_atlas()?;
            let report = headless::run(
                &SimOptions {
                    level,
                    frames,
                    input,
                    seed,
                    dirty: !no_dirty,
                },
                &atlas,
            )?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                print!("{}", report.summary());
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::GenLevel {
            crates,
            kegs,
            seed,
            out,
        }) => {
            let text = game::level::generate_with_kegs(crates, kegs, seed);
            match out {
                Some(path) => std::fs::write(&path, text)
                    .with_context(|| format!("writing {}", path.display()))?,
                None => print!("{text}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Check { paths }) => {
            let atlas = load_atlas()?;
            let code = game::level::check(&paths, &atlas.crate_skins(), &mut std::io::stdout());
            Ok(ExitCode::from(code as u8))
        }
    }
}
