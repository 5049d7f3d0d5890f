//! `crate-room replay FILE --verify`: re-simulate a replay without a window and compare its
//! checkpoints.

use std::path::Path;
use std::process::ExitCode;

use anyhow::anyhow;

use crate::game_data::GameData;
use crate::replay::{Replay, VerifyOutcome, verify};
use crate::tool_io::print_out;

/// Verify the replay in `file`: print `FILE: matched ...` and succeed if every checkpoint
/// matches, else fail naming the first that does not.
///
/// # Errors
/// The replay or the data not loading, a checkpoint that differs, or standard output failing.
pub fn run(file: &Path) -> anyhow::Result<ExitCode> {
    let replay = Replay::load(file)?;
    let data = GameData::load()?;
    match verify(&replay, &data.atlas, Some(&data.dirs.levels))? {
        outcome @ VerifyOutcome::Matched { .. } => {
            print_out(&format!("{}: {outcome}\n", file.display()))?;
            Ok(ExitCode::SUCCESS)
        }
        outcome @ VerifyOutcome::Diverged { .. } => Err(anyhow!("{}: {outcome}", file.display())),
    }
}
