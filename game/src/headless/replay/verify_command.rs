//! `crate-room replay FILE --verify [--deep]`: re-simulate a replay without a window and compare
//! its checkpoints; with `--deep`, find where a run that diverged goes another way.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use anyhow::anyhow;

use crate::game_data::GameData;
use crate::level::escape_for_display;
use crate::replay::deep::{self, DeepOutcome, Progress};
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
    let path = file.display().to_string();
    let shown = escape_for_display(&path);
    let levels = Some(data.dirs.levels.as_path());
    match verify(&replay, &data.atlas, levels)? {
        outcome @ VerifyOutcome::Matched { .. } => {
            print_out(&format!("{shown}: {outcome}\n"))?;
            Ok(ExitCode::SUCCESS)
        }
        outcome @ VerifyOutcome::Diverged { step, .. } => {
            let mut message = format!("{shown}: {outcome}");
            if deep && step == 0 {
                message.push_str(
                    "\ndeep: nothing to re-simulate: the run differs before its first step",
                );
            } else if deep {
                let found = deep::compare_runs_with_progress(
                    &replay,
                    &data.atlas,
                    levels,
                    step,
                    &|_| {},
                    &mut report_progress,
                )?;
                if let DeepOutcome::OverBudget { .. } = found {
                    message.push_str(&format!("\ndeep: {found}"));
                } else {
                    message.push_str(&format!(
                        "\ndeep: re-simulated steps 1..={step} twice: {found}"
                    ));
                }
                if let DeepOutcome::Parted(parting) = &found {
                    let [a, b] = deep::write_states(file, parting)?;
                    message.push_str(&format!(
                        "\ndeep: both states after `{}` in step {}: {} and {} (compare them with `diff`)",
                        parting.system,
                        parting.step,
                        escape_for_display(&a.display().to_string()),
                        escape_for_display(&b.display().to_string())
                    ));
                }
            }
            Err(anyhow!(message))
        }
    }
}

/// A progress line of `--deep` on standard error (the verdict goes to standard output or the
/// error message): `deep: pass 1 of 2 (finding the step): 600 of 6000 steps`.
fn report_progress(p: Progress) {
    let what = if p.pass == 1 {
        "finding the step"
    } else {
        "finding the system"
    };
    // Not `eprintln!`, which panics when stderr cannot be written.
    let _ = writeln!(
        std::io::stderr(),
        "deep: pass {} of 2 ({what}): {} of {} steps",
        p.pass,
        p.done,
        p.total
    );
}
