//! `crate-room-core`: the headless core's tools without the window layer, `sim` and `replay
//! --verify` as `crate-room` runs them, and `trig-hash`, the simulation's trigonometry over
//! every angle it can draw. It builds with `--no-default-features` for any target
//! `std` supports, WebAssembly included: `tools/wasm-check.sh` runs it under Node.js to show
//! that a run gives there the `state_hash` it gives natively.
//!
//! Exit codes: 0 success; 1 an error, said on stderr as `error: ...` (`replay --verify`: a
//! checkpoint differs); 2 a usage error (clap's).

// A page has no command line: built for the browser, this tool is empty (the game there is
// `crate-room`'s page, `game/src/window/web.rs`) and needs no clap.
#![cfg_attr(all(target_arch = "wasm32", target_os = "unknown"), no_main)]
#![cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use game::replay::verify_command;
use game::sim_run::{self, SimArgs};

#[derive(Parser, Debug)]
#[command(
    name = "crate-room-core",
    version,
    about = "Crate Room's headless tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the simulation without a window and report the result.
    Sim(SimArgs),
    /// Re-simulate a replay and compare its checkpoints (only with --verify: there is no
    /// window to watch it in).
    Replay {
        /// Replay file.
        file: PathBuf,
        /// Re-simulate and compare the checkpoints.
        #[arg(long, required = true)]
        verify: bool,
        /// When a checkpoint differs: re-simulate the run twice (the dirty optimization on and
        /// off), name the step and system after which they differ and what differs, and write
        /// both states beside FILE (FILE.dirty-on.txt, FILE.dirty-off.txt).
        #[arg(long)]
        deep: bool,
    },
    /// Print a hash of the direction (cosine and sine) of every angle the simulation can throw
    /// debris or a coin at: equal on two platforms when their builds do the same trigonometry.
    TrigHash,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    let result = match cli.command {
        Command::Sim(args) => sim_run::command(args),
        Command::Replay { file, deep, .. } => verify_command::run(&file, deep),
        Command::TrigHash => game::tool_io::print_out(&format!(
            "directions_hash {:016x}\n",
            game::sim::directions_hash()
        ))
        .map(|()| ExitCode::SUCCESS),
    };
    result.unwrap_or_else(|e| {
        let _ = writeln!(std::io::stderr(), "error: {e:#}");
        ExitCode::FAILURE
    })
}
