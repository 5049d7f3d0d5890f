//! Verifying a replay: re-simulating it without a window and comparing every checkpoint
//! ([`verify`], [`VerifyOutcome`]).

use std::fmt;
use std::path::Path;

use super::level_file::load_sim;
use super::model::Replay;
use super::replay_error::ReplayError;
use crate::atlas::AtlasData;

/// What re-simulating a replay found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyOutcome {
    /// Every checkpoint matched.
    Matched {
        /// Steps simulated.
        steps: u64,
        /// Checkpoints compared.
        checkpoints: usize,
    },
    /// A checkpoint differs.
    Diverged {
        /// The first checkpoint whose hash differs: the run diverged by this step.
        step: u64,
        /// The last checkpoint that matched (0: none, the run diverged from the start).
        last_match: u64,
        /// The recorded hash.
        expected: u64,
        /// The hash the re-simulation gives.
        found: u64,
    },
}

impl fmt::Display for VerifyOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            VerifyOutcome::Matched { steps, checkpoints } => {
                write!(f, "ok: {steps} steps, all {checkpoints} checkpoints match")
            }
            VerifyOutcome::Diverged {
                step: 0,
                expected,
                found,
                ..
            } => write!(
                f,
                "diverged at step 0: the state before any step differs (recorded {expected:016x}, re-simulated {found:016x}); the level or the game's rules are not those recorded"
            ),
            VerifyOutcome::Diverged {
                step,
                last_match,
                expected,
                found,
            } => write!(
                f,
                "diverged by step {step}: the first checkpoint that differs (recorded {expected:016x}, re-simulated {found:016x}); the run matched up to step {last_match}, so the first different step is in {}..={step}",
                last_match + 1
            ),
        }
    }
}

/// Re-simulate `replay` without a window and compare every checkpoint.
///
/// # Errors
/// When the replay cannot be re-simulated at all (see [`load_sim`]); a divergence is an
/// [`VerifyOutcome::Diverged`], not an error.
pub fn verify(
    replay: &Replay,
    atlas: &AtlasData,
    levels_dir: Option<&Path>,
) -> Result<VerifyOutcome, ReplayError> {
    verify_with(replay, atlas, levels_dir, &|_| {})
}

/// [`verify`], with `extra` called on the simulation before its first step (the tests add a
/// deliberately broken system with it, as [`super::deep::compare_runs`] takes one).
///
/// # Errors
/// As [`verify`].
pub fn verify_with(
    replay: &Replay,
    atlas: &AtlasData,
    levels_dir: Option<&Path>,
    extra: &dyn Fn(&mut crate::sim::Sim),
) -> Result<VerifyOutcome, ReplayError> {
    let (_, _, mut sim) = load_sim(replay, atlas, levels_dir)?;
    extra(&mut sim);
    let mut step = 0u64;
    let mut last_match = 0u64;
    for &(checkpoint, expected) in replay.checkpoints() {
        while step < checkpoint {
            sim.step(replay.input_at(step));
            step += 1;
        }
        let found = sim.checkpoint_hash();
        if found != expected {
            return Ok(VerifyOutcome::Diverged {
                step: checkpoint,
                last_match,
                expected,
                found,
            });
        }
        last_match = checkpoint;
    }
    Ok(VerifyOutcome::Matched {
        steps: replay.steps(),
        checkpoints: replay.checkpoints().len(),
    })
}
