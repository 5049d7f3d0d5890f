//! `crate-room`: play (default), or run one of the tools: `sim`, `replay`, `gen-level`, `check`.
//!
//! Exit codes: 0 success; 1 an error, said on stderr as `error: ...` (for `check`: a level is
//! invalid); 2 a usage error (clap's); [`EXIT_CLOSED_PIPE`] when standard output was closed
//! before everything was written (`crate-room sim --json | head -1`), quietly.
//!
//! In a browser (`wasm32`) there is no command line: the page's URL parameters stand in for it
//! ([`game::window::web`]), and this file's parsing is compiled out.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    command_line::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    game::window::web::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod command_line {
    use std::io::Write;
    use std::path::PathBuf;
    use std::process::ExitCode;

    use clap::{Parser, Subcommand};

    use game::level::subcommands::{self as level_commands, CheckArgs, GenLevelArgs};
    use game::replay::verify_command;
    use game::sim_run::{self, SimArgs};
    use game::tool_io::ClosedPipe;
    use game::window::launch;
    use game::window::play_args::PlayArgs;

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

    #[derive(Subcommand, Debug)]
    enum Command {
        /// Run the simulation without a window and report the result.
        Sim(SimArgs),
        /// Watch a replay in the window (P pause, 1/2/3 speed, . one step, Q quit), or with
        /// --verify re-simulate it without one: exit 0 if every checkpoint matches, 1 naming the
        /// first that does not. Window options go before `replay`.
        Replay {
            /// Replay file (written by --record or the room-cleared screen).
            file: PathBuf,
            /// Re-simulate headless and compare the checkpoints instead of opening a window.
            #[arg(long)]
            verify: bool,
            /// With --verify, when a checkpoint differs: re-simulate the run twice (the dirty
            /// optimization on and off), name the step and system after which they differ and
            /// what differs, and write both states beside FILE (FILE.dirty-on.txt,
            /// FILE.dirty-off.txt).
            #[arg(long, requires = "verify")]
            deep: bool,
        },
        /// Write a valid level with exactly N crates (and K powder kegs).
        GenLevel(GenLevelArgs),
        /// Validate level files; exit 0 if all are valid, 1 if any is not.
        Check(CheckArgs),
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

    pub fn main() -> ExitCode {
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

    fn run(cli: Cli) -> anyhow::Result<ExitCode> {
        match cli.command {
            None => launch::play(cli.play),
            Some(Command::Sim(args)) => sim_run::command(args),
            Some(Command::Replay {
                file,
                verify: true,
                deep,
            }) => verify_command::run(&file, deep),
            Some(Command::Replay {
                file,
                verify: false,
                ..
            }) => launch::watch_replay(cli.play, &file),
            Some(Command::GenLevel(args)) => level_commands::gen_level(args),
            Some(Command::Check(args)) => level_commands::check_levels(args),
        }
    }
}
