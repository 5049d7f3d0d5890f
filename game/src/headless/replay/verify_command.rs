//! `crate-room replay FILE --verify [--deep]`: re-simulate a replay without a window and compare
//! its checkpoints; with `--deep`, find where a run that diverged goes another way.

use std::path::Path;
use std::process::ExitCode;

use anyhow::anyhow;

use crate::game_data::GameData;
use crate::replay::deep::{self, DeepOutcome};
use crate::replay::{Replay, VerifyOutcome, verify};
use crate::tool_io::print_out;

/// Verify the replay in `file`: print `FILE: matched ...` and succeed if every checkpoint
/// matches, else fail naming the first that does not; with `deep`, the message goes on with
/// [`deep::compare_runs`] up to that checkpoint, and both states are written beside `file`.
///
/// # Errors
/// The replay or the data not loading, a checkpoint that differs, a state that cannot be
/// written, or standard output failing.
pub fn run(file: &Path, deep: bool) -> anyhow::Result<ExitCode> {
    let replay = Replay::load(file)?;
    let data = GameData::load()?;
    let levels = Some(data.dirs.levels.as_path());
    match verify(&replay, &data.atlas, levels)? {
        outcome @ VerifyOutcome::Matched { .. } => {
            print_out(&format!("{}: {outcome}\n", file.display()))?;
            Ok(ExitCode::SUCCESS)
        }
        outcome @ VerifyOutcome::Diverged { step, .. } => {
            let mut message = format!("{}: {outcome}", file.display());
            if deep && step == 0 {
                message.push_str(
                    "\ndeep: nothing to re-simulate: the run differs before its first step",
                );
            } else if deep {
                let found = deep::compare_runs(&replay, &data.atlas, levels, step, &|_| {})?;
                message.push_str(&format!(
                    "\ndeep: re-simulated steps 1..={step} twice: {found}"
                ));
                if let DeepOutcome::Parted(parting) = &found {
                    let [a, b] = deep::write_states(file, parting)?;
                    message.push_str(&format!(
                        "\ndeep: both states after `{}` in step {}: {} and {} (compare them with `diff`)",
                        parting.system,
                        parting.step,
                        a.display(),
                        b.display()
                    ));
                }
            }
            Err(anyhow!(message))
        }
    }
}
