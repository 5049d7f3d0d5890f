//! Compare mode (F8, `--debug compare`): more simulations of the same run, given the game's
//! input at every step, so one screen shows what a step costs with tracking on and with it off,
//! over the same steps. A second run takes each step beside the game's, with the dirty
//! optimization the other way.
//!
//! The two runs take turns going first in a frame, so that neither always finds the other's
//! code and data in the caches. Their checkpoint hashes are compared after every step: the
//! optimization changes what a step costs, never what it does.
//!
//! One step a frame, each step finds the caches cold: the frame's rendering and the wait for
//! the display come between two steps. Headless, `crate-room sim` runs its steps back to back,
//! on warm caches, where a step with tracking on costs about a tenth of what it costs in the
//! window (BENCHMARKS.md, "The step in the window against `sim`"). So compare mode also keeps
//! two more runs of the same room, one with tracking on and one off, that take the game's steps
//! in bursts of up to [`BURST`], back to back as `sim` runs them, and shows their figures on a
//! line of their own: what the optimization saves in work, apart from what the caches cost.

use std::collections::VecDeque;
use std::time::Duration;

use crate::replay::Replay;
use crate::sim::Input;
use crate::sim::Sim;
use crate::window::platform::Instant;

use super::costs::{STEP_WINDOW, median, push, step_micros};

/// Steps the back-to-back runs take at a time: a burst's first step finds the caches cold,
/// the rest find them as `sim`'s steps do.
pub const BURST: usize = 30;
/// Fewer steps to a burst where a step with tracking off is slow (a level of a million
/// crates), so that a burst holds the game up for about this long (microseconds), not for
/// seconds; but never fewer than [`MIN_BURST`], so that most of a burst's steps are warm.
const BURST_BUDGET_US: f32 = 50_000.0;
const MIN_BURST: usize = 4;

/// What the line of the runs that take a step a frame shows: each step on the caches the
/// frame's rendering emptied.
pub const EACH_FRAME: &str = "each frame (cold caches)";
/// What the line of the runs that take their steps in bursts shows: the step's own work, on
/// warm caches, as `crate-room sim` measures it.
pub const BACK_TO_BACK: &str = "back to back (the work itself)";

/// Rooms of more entities than this (a million) get no back-to-back runs: each is another copy
/// of the room in memory (about 250 bytes a crate, so 250 MB at this size and 2.5 GB at ten
/// million).
pub const BACK_TO_BACK_MAX_ENTITIES: usize = 1_000_000;

/// Rooms of more entities than this get no compare mode at all, and a line on screen saying
/// so: the second run steps every entity each frame (about 0.3 to 0.6 us an entity with
/// tracking off), a burst takes at least [`MIN_BURST`] such steps, and starting the mode loads
/// the room three times, all in one frame; past this a frame would take over 100 ms.
pub const COMPARE_MAX_ENTITIES: usize = 20_000;

/// Steps to a burst when a step with tracking off takes `off_us`.
fn burst_len(off_us: f32) -> usize {
    ((BURST_BUDGET_US / off_us.max(1.0)) as usize).clamp(MIN_BURST, BURST)
}

/// The other runs and what their steps cost.
pub struct Compare {
    shadow: Sim,
    /// Step times with tracking on and off (microseconds, newest last), whichever run had it.
    on_us: VecDeque<f32>,
    off_us: VecDeque<f32>,
    /// `None` in a room of more than [`BACK_TO_BACK_MAX_ENTITIES`].
    back_to_back: Option<BackToBack>,
    /// The first step after which the two runs' checkpoint hashes differed (for the
    /// back-to-back runs: the end of the first burst after which one differed).
    diverged_at: Option<u64>,
}

/// Two more runs of the room, tracking on and off, that take the game's steps in bursts.
struct BackToBack {
    on: Sim,
    off: Sim,
    /// The game's steps since the last burst: each one's input and the game's checkpoint hash
    /// after it.
    pending: Vec<(Input, u64)>,
    on_us: VecDeque<f32>,
    off_us: VecDeque<f32>,
}

impl BackToBack {
    /// What a step with tracking off costs in a burst: its own figure once it has one (a warm
    /// step can cost more than a cold one a frame, as the world times its systems), else the
    /// step-a-frame run's `frame_off_us`.
    fn off_step_us(&self, frame_off_us: &VecDeque<f32>) -> f32 {
        median(&self.off_us).max(median(frame_off_us))
    }
}

impl std::fmt::Debug for Compare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compare")
            .field("step", &self.shadow.state().step)
            .finish_non_exhaustive()
    }
}

impl Compare {
    /// Follow `game` with three fresh simulations of the same level and seed, made by `load`
    /// (one in a room of more than [`BACK_TO_BACK_MAX_ENTITIES`], none in a room of more than
    /// [`COMPARE_MAX_ENTITIES`]): each replays `so_far` (the
    /// run's inputs up to now) to catch up; then the second run takes every step with the
    /// optimization the other way, and the back-to-back runs take them in bursts, one with it
    /// on and one off.
    ///
    /// # Errors
    /// A room of more than [`COMPARE_MAX_ENTITIES`], `load` fails, the replay does not reach
    /// `game`'s step, or a caught-up run is not in `game`'s state.
    pub fn new(
        game: &Sim,
        mut load: impl FnMut() -> Result<Sim, String>,
        so_far: Option<&Replay>,
    ) -> Result<Self, String> {
        // Refused before anything is loaded: the refusal costs a frame nothing.
        let entities = game.world().len();
        if entities > COMPARE_MAX_ENTITIES {
            return Err(format!(
                "compare: not run in a room of {entities} entities (over {COMPARE_MAX_ENTITIES}): \
                 its extra runs would hold each frame for over 100 ms"
            ));
        }
        let mut follow = || {
            let mut sim = load()?;
            catch_up(game, &mut sim, so_far)?;
            Ok::<_, String>(sim)
        };
        let mut shadow = follow()?;
        shadow.set_dirty_optimization(!game.dirty_optimization());
        let back_to_back = if game.world().len() <= BACK_TO_BACK_MAX_ENTITIES {
            let (mut on, mut off) = (follow()?, follow()?);
            for (sim, tracking) in [(&mut on, true), (&mut off, false)] {
                sim.set_dirty_optimization(tracking);
                // As `sim` runs: the world times its systems, and no panel reads debug counts.
                sim.set_debug_systems(false);
                sim.world_mut().set_timing(true);
                ecs::diagnostics::set_clock(sim.world_mut(), crate::window::platform::clock);
            }
            Some(BackToBack {
                on,
                off,
                pending: Vec::with_capacity(BURST),
                on_us: VecDeque::with_capacity(STEP_WINDOW),
                off_us: VecDeque::with_capacity(STEP_WINDOW),
            })
        } else {
            None
        };
        Ok(Self {
            shadow,
            on_us: VecDeque::with_capacity(STEP_WINDOW),
            off_us: VecDeque::with_capacity(STEP_WINDOW),
            back_to_back,
            diverged_at: None,
        })
    }

    /// Whether this follows `game` (the same step; a new room or a restart needs a new one).
    pub fn follows(&self, game: &Sim) -> bool {
        self.shadow.state().step == game.state().step
    }

    /// Run the game's step with `input` in it and in the second run (which goes first on odd
    /// steps), keep the input for the back-to-back runs and give them a burst when enough have
    /// gathered; return the game's time in `Sim::step`.
    pub fn step_both(&mut self, game: &mut Sim, input: Input) -> Duration {
        // F7 switched the game: the second run keeps the other setting.
        if self.shadow.dirty_optimization() == game.dirty_optimization() {
            self.shadow
                .set_dirty_optimization(!game.dirty_optimization());
        }
        // The same work in both, debug counts or not, so that only tracking differs.
        self.shadow.set_debug_systems(game.debug_systems());
        let shadow_first = game.state().step % 2 == 1;
        let shadow_took = if shadow_first {
            timed_step(&mut self.shadow, input)
        } else {
            Duration::ZERO
        };
        let took = timed_step(game, input);
        let shadow_took = if shadow_first {
            shadow_took
        } else {
            timed_step(&mut self.shadow, input)
        };
        let (on, off) = if game.dirty_optimization() {
            (took, shadow_took)
        } else {
            (shadow_took, took)
        };
        push(&mut self.on_us, on.as_secs_f32() * 1e6);
        push(&mut self.off_us, off.as_secs_f32() * 1e6);
        let hash = game.checkpoint_hash();
        if self.diverged_at.is_none() && self.shadow.checkpoint_hash() != hash {
            self.diverged_at = Some(game.state().step);
        }
        let Some(b) = &mut self.back_to_back else {
            return took;
        };
        b.pending.push((input, hash));
        if b.pending.len() >= burst_len(b.off_step_us(&self.off_us)) {
            for (sim, ring) in [(&mut b.off, &mut b.off_us), (&mut b.on, &mut b.on_us)] {
                for &(input, _) in &b.pending {
                    push(ring, timed_step(sim, input).as_secs_f32() * 1e6);
                }
                let last = b.pending.last().map(|&(_, hash)| hash);
                if self.diverged_at.is_none() && last != Some(sim.checkpoint_hash()) {
                    self.diverged_at = Some(sim.state().step);
                }
            }
            b.pending.clear();
        }
        took
    }

    /// Two lines over the last [`STEP_WINDOW`] steps, each saying what its figures are: "each
    /// frame (cold caches): on 35 µs/step, off 215 µs/step (6x), same state", the runs that
    /// take a step a frame, between which the rendering empties the caches; then "back to back
    /// (the work itself): on 3.6 µs/step, off 141 µs/step (39x)", the steps as `sim` runs
    /// them, or when the first burst comes. `None` before the first step.
    pub fn text(&self) -> Option<String> {
        if self.on_us.is_empty() {
            return None;
        }
        let state = match self.diverged_at {
            None => "same state".to_owned(),
            Some(step) => format!("states differ from step {step}"),
        };
        let back_to_back = match &self.back_to_back {
            // Each back-to-back run would be another copy of the room in memory.
            None => "back to back: not run in a room of over a million entities".to_owned(),
            Some(b) if b.on_us.is_empty() => {
                let burst = burst_len(b.off_step_us(&self.off_us));
                format!(
                    "{BACK_TO_BACK}: the first {burst} steps in {}",
                    burst.saturating_sub(b.pending.len())
                )
            }
            Some(b) => format!("{BACK_TO_BACK}: {}", on_off(&b.on_us, &b.off_us)),
        };
        Some(format!(
            "{EACH_FRAME}: {}, {state}\n{back_to_back}",
            on_off(&self.on_us, &self.off_us)
        ))
    }
}

/// "on 3.6 µs/step, off 141 µs/step (39x)": the medians of two rings of step times.
fn on_off(on_us: &VecDeque<f32>, off_us: &VecDeque<f32>) -> String {
    let (on, off) = (median(on_us), median(off_us));
    format!(
        "on {}/step, off {}/step ({:.0}x)",
        step_micros(on),
        step_micros(off),
        off / on.max(0.001)
    )
}

/// Bring `sim`, a fresh run of `game`'s room, to `game`'s step and state: the bot replays
/// itself (it keeps a plan of its own, so it plays from the first step); a player's or a
/// script's input comes from `so_far`.
fn catch_up(game: &Sim, sim: &mut Sim, so_far: Option<&Replay>) -> Result<(), String> {
    let step = game.state().step;
    sim.set_bot(game.bot_enabled());
    // Catching up with tracking on is the quick way; the result is the same.
    sim.set_dirty_optimization(true);
    if game.bot_enabled() {
        for _ in 0..step {
            sim.step(Input::default());
        }
    } else if step > 0 {
        let replay = so_far
            .filter(|r| r.steps() >= step)
            .ok_or("compare: this run is not recorded; it starts with the next room")?;
        for s in 0..step {
            sim.step(replay.input_at(s));
        }
    }
    if sim.checkpoint_hash() != game.checkpoint_hash() {
        return Err(format!(
            "compare: the second run is not in the game's state at step {step}"
        ));
    }
    Ok(())
}

fn timed_step(sim: &mut Sim, input: Input) -> Duration {
    let started = Instant::now();
    sim.step(input);
    started.elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_shorter_where_a_step_without_tracking_is_slow() {
        // Cratetopia's step without tracking (about 200 µs): a full burst.
        assert_eq!(burst_len(200.0), BURST);
        // 5 ms: ten of them make the budget.
        assert_eq!(burst_len(5_000.0), 10);
        // A million crates (over 100 ms a step): the fewest, still mostly warm.
        assert_eq!(burst_len(150_000.0), MIN_BURST);
        // Before any figure, or a step under the clock's resolution.
        assert_eq!(burst_len(0.0), BURST);
    }
}
