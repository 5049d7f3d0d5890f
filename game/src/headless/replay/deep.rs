//! Deep verification (`replay FILE --verify --deep`): where two re-simulations of a run part,
//! named by step, system and the parts of the state that differ.
//!
//! A replay holds a hash every 600 steps, not the state, so a checkpoint that differs says only
//! that the run went another way somewhere in the 600 steps before it. Deep verification
//! re-simulates the run twice, in lock-step, in two ways the game promises give the same game:
//! with the dirty optimization on (as `--verify` runs) and off (as the window runs under F7, or
//! `--no-dirty`). As GGRS's SyncTest re-simulates frames and compares, it compares the state
//! hash after every step and, in the first step where the two runs differ, after every system:
//!
//! ```text
//! step 1..=S-1   run A == run B  (state_hash after each step)
//! step S         A: sys1 sys2 sys3 ...      the first system after which the
//!                B: sys1 sys2 sys3 ...      hashes differ is the culprit
//!                        == == !=
//! ```
//!
//! It names that step and system, the component types and resources left different, and keeps
//! both states as text (every resource and entity the state hash covers) for a person to
//! `diff`. When the two runs agree up to the divergent checkpoint, the recording itself is
//! another game: made by another build (other rules), on a platform whose arithmetic differs,
//! or by a run this build cannot repeat.

use std::fmt;
use std::path::{Path, PathBuf};

use super::level_file::load_sim;
use super::model::Replay;
use super::replay_error::ReplayError;
use crate::atlas::AtlasData;
use crate::sim::{Sim, state_hash};

/// The two runs compared: A the way `--verify` runs, B the other way the game promises is the
/// same.
pub const RUNS: [&str; 2] = ["dirty optimization on", "dirty optimization off"];

/// The most work deep verification takes on: steps re-simulated times the room's entities.
/// Both runs and a state hash after every step cost about 0.65 us an entity-step (cratetopia's
/// 2,283 entities for 6,000 steps took 8.9 s on the 2-core machine of BENCHMARKS.md, loaded),
/// so 50,000,000 is about half a minute: a 2,000-crate room for about 21,000 steps (six minutes
/// of play), a 100,000-crate one for 500.
pub const MAX_ENTITY_STEPS: u64 = 50_000_000;

/// What deep verification found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeepOutcome {
    /// The two runs part: in `step`, after `system`.
    Parted(Parting),
    /// The two runs agree after every step up to `steps`.
    Agreed {
        /// Steps compared.
        steps: u64,
    },
    /// Not re-simulated: `steps` steps of `entities` entities is over [`MAX_ENTITY_STEPS`].
    OverBudget {
        /// Steps it would re-simulate.
        steps: u64,
        /// Entities in the room at its start.
        entities: u64,
    },
}

/// How far deep verification has gone, for a progress line: `done` of `total` steps of pass
/// `pass` (1: find the step, 2: find the system).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// 1 or 2.
    pub pass: u8,
    /// Steps re-simulated in this pass.
    pub done: u64,
    /// Steps this pass re-simulates.
    pub total: u64,
}

/// Where two runs part, and both their states there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parting {
    /// The first step after which the runs' states differ.
    pub step: u64,
    /// The first system of that step after which they differ.
    pub system: &'static str,
    /// The component types and resources whose hashes differ after it.
    pub parts: Vec<&'static str>,
    /// Each run's state after that system as text ([`state_hash::state_text`]), in [`RUNS`]
    /// order.
    pub states: [String; 2],
}

impl fmt::Display for DeepOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = RUNS;
        match self {
            DeepOutcome::Parted(p) => write!(
                f,
                "the runs with the {a} and the {b} part in step {}, after system `{}`: {} {}",
                p.step,
                p.system,
                p.parts.join(", "),
                if p.parts.len() == 1 {
                    "differs"
                } else {
                    "differ"
                }
            ),
            DeepOutcome::Agreed { steps } => write!(
                f,
                "the runs with the {a} and the {b} agree after every step up to {steps}: this \
                 build repeats its own game, so the recording is another one (made by another \
                 build, on a platform whose arithmetic differs, or by a run this build cannot \
                 repeat)"
            ),
            DeepOutcome::OverBudget { steps, entities } => write!(
                f,
                "not re-simulated: {steps} steps of a room of {entities} entities is {} \
                 entity-steps, over the {MAX_ENTITY_STEPS} deep verification takes on (about half \
                 a minute); the checkpoints above are what `--verify` found, and a shorter \
                 recording of the run can be verified deeply",
                steps.saturating_mul(*entities)
            ),
        }
    }
}

/// Re-simulate `replay`'s first `steps` steps twice in lock-step ([`RUNS`]) and find where the
/// runs part. `extra` is called on each simulation before its first step (the tests add a
/// deliberately broken system with it; `crate-room` adds nothing).
///
/// # Errors
/// When the replay cannot be re-simulated at all (see [`load_sim`]).
pub fn compare_runs(
    replay: &Replay,
    atlas: &AtlasData,
    levels_dir: Option<&Path>,
    steps: u64,
    extra: &dyn Fn(&mut Sim),
) -> Result<DeepOutcome, ReplayError> {
    compare_runs_with_progress(replay, atlas, levels_dir, steps, extra, &mut |_| {})
}

/// [`compare_runs`], refusing a run over [`MAX_ENTITY_STEPS`] before it starts
/// ([`DeepOutcome::OverBudget`]), and calling `progress` at every tenth of each pass.
///
/// # Errors
/// As [`compare_runs`].
pub fn compare_runs_with_progress(
    replay: &Replay,
    atlas: &AtlasData,
    levels_dir: Option<&Path>,
    steps: u64,
    extra: &dyn Fn(&mut Sim),
    progress: &mut dyn FnMut(Progress),
) -> Result<DeepOutcome, ReplayError> {
    let pair = || -> Result<[Sim; 2], ReplayError> {
        let (_, _, mut a) = load_sim(replay, atlas, levels_dir)?;
        let (_, _, mut b) = load_sim(replay, atlas, levels_dir)?;
        extra(&mut a);
        extra(&mut b);
        b.set_dirty_optimization(false);
        Ok([a, b])
    };
    // First the step: the whole state compared after each one (O(N) a step).
    let [mut a, mut b] = pair()?;
    let entities = a.world().len().max(1) as u64;
    if steps.saturating_mul(entities) > MAX_ENTITY_STEPS {
        return Ok(DeepOutcome::OverBudget { steps, entities });
    }
    let mut tell = |pass: u8, done: u64, total: u64| {
        // At every tenth: a line a person can watch, and few enough for a long run.
        let tenth = |n: u64| n.saturating_mul(10) / total.max(1);
        if done == total || tenth(done) != tenth(done - 1) {
            progress(Progress { pass, done, total });
        }
    };
    let mut parted = None;
    for step in 0..steps {
        let input = replay.input_at(step);
        a.step(input);
        b.step(input);
        tell(1, step + 1, steps);
        if a.state_hash() != b.state_hash() {
            parted = Some(step);
            break;
        }
    }
    let Some(parted) = parted else {
        return Ok(DeepOutcome::Agreed { steps });
    };
    // Then the system: both runs again up to that step, then that step with each run's state
    // kept after every system.
    let [mut a, mut b] = pair()?;
    for step in 0..parted {
        a.step(replay.input_at(step));
        b.step(replay.input_at(step));
        tell(2, step + 1, parted);
    }
    let [after_a, after_b] =
        [&mut a, &mut b].map(|sim| after_each_system(sim, replay.input_at(parted)));
    let found = after_a
        .iter()
        .zip(&after_b)
        .find(|(x, y)| x.system != y.system || x.parts != y.parts);
    let Some((x, y)) = found else {
        // Differing after the update but after none of its systems: in what the update does
        // after them (deferred despawns, events).
        let (x, y) = (after_a.last(), after_b.last());
        return Ok(DeepOutcome::Parted(Parting {
            step: parted + 1,
            system: "(the end of the update)",
            parts: Vec::new(),
            states: [x, y].map(|s| s.map(|s| s.text.clone()).unwrap_or_default()),
        }));
    };
    let parts = x
        .parts
        .iter()
        .zip(&y.parts)
        .filter(|(p, q)| p != q)
        .map(|(p, _)| p.0)
        .collect();
    Ok(DeepOutcome::Parted(Parting {
        step: parted + 1,
        system: x.system,
        parts,
        states: [x.text.clone(), y.text.clone()],
    }))
}

/// The state after one system of a step.
struct AfterSystem {
    system: &'static str,
    parts: Vec<(&'static str, u64)>,
    text: String,
}

/// Run one step of `sim` with `input`, keeping the state after each system.
fn after_each_system(sim: &mut Sim, input: crate::sim::Input) -> Vec<AfterSystem> {
    let mut states = Vec::new();
    sim.step_observed(input, &mut |world, system| {
        states.push(AfterSystem {
            system,
            parts: state_hash::part_hashes(world),
            text: format!("after system `{system}`\n{}", state_hash::state_text(world)),
        });
    });
    states
}

/// Where [`write_states`] writes run `i`'s state for `replay_file`: beside it, named by the run
/// (`FILE.dirty-on.txt`, `FILE.dirty-off.txt`).
pub fn states_path(replay_file: &Path, i: usize) -> PathBuf {
    let mut name = replay_file.as_os_str().to_owned();
    name.push([".dirty-on.txt", ".dirty-off.txt"][i]);
    PathBuf::from(name)
}

/// Write both runs' states where [`states_path`] says, through the game's gate for outputs.
///
/// # Errors
/// A file that cannot be written, named.
pub fn write_states(
    replay_file: &Path,
    parting: &Parting,
) -> Result<[PathBuf; 2], crate::fsutil::WriteError> {
    let paths = [0, 1].map(|i| states_path(replay_file, i));
    for (path, text) in paths.iter().zip(&parting.states) {
        crate::output::write(path, crate::output::Output::Other, text.as_bytes())?;
    }
    Ok(paths)
}
