//! The level tools of the command line: `gen-level` writes a valid level of N crates, `check`
//! validates level files.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::game_data::GameData;
use crate::level::{
    Layout, MAX_DENSE_CRATES, MAX_GENERATED_CRATES, check_playable, generate_level,
};
use crate::output::Output;
use crate::tool_io::{CheckedStdout, print_out, stdout_error};

/// The `gen-level` subcommand's options.
#[derive(clap::Args, Debug)]
pub struct GenLevelArgs {
    /// Number of crates; crates and kegs together at least 1 and at most 8029440 (the most the block layout
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
    /// Output file (stdout without it). Never one of the game's own files; an existing level
    /// only with --force.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace the existing level file --out names.
    #[arg(long, requires = "out")]
    force: bool,
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

/// `crate-room gen-level`: write the level to `--out` or standard output. Counts that do not
/// fit the layout together are a usage error (exit 2).
///
/// # Errors
/// An `--out` the output gate refuses, or it or standard output failing.
pub fn gen_level(args: GenLevelArgs) -> anyhow::Result<ExitCode> {
    let output = Output::Level { force: args.force };
    if let Some(path) = &args.out {
        // Before the level is made: a big one takes a while.
        crate::output::check(path, output, &[])?;
    }
    if args.crates == 0 && args.kegs == 0 {
        // Not `eprintln!`, which panics when stderr cannot be written.
        let _ = writeln!(
            std::io::stderr(),
            "error: --crates: a room with no crates can never be cleared; give --crates N \
             (or --kegs K) of 1 or more"
        );
        return Ok(ExitCode::from(2));
    }
    let layout = if args.dense {
        Layout::Dense
    } else {
        Layout::Blocks
    };
    let text = match generate_level(layout, args.crates, args.kegs, args.seed) {
        Ok(text) => text,
        Err(too_many) => {
            // Each count passed its own check; together, or in this layout, they are a usage
            // error too.
            let counts = if args.kegs == 0 {
                "--crates"
            } else {
                "--crates plus --kegs"
            };
            // Not `eprintln!`, which panics when stderr cannot be written.
            let _ = writeln!(std::io::stderr(), "error: {counts}: {too_many}");
            return Ok(ExitCode::from(2));
        }
    };
    match args.out {
        Some(path) => crate::output::write(&path, output, text.as_bytes())?,
        None => print_out(&text)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The `check` subcommand's options.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Level files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// `crate-room check`: report every invalid file; exit 0 if all are valid, 1 if any is not.
///
/// # Errors
/// The data not loading, or standard output failing.
pub fn check_levels(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let data = GameData::load()?;
    let mut out = CheckedStdout::default();
    let code = check_playable(&args.paths, &data.atlas.crate_skins(), &mut out);
    if let Some(e) = out.failed {
        return Err(stdout_error(e));
    }
    Ok(ExitCode::from(code as u8))
}
