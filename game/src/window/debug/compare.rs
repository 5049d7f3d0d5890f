//! Compare mode (F8, `--debug compare`): a second simulation of the same run, with the dirty
//! optimization the other way, given the game's input at every step, so one screen shows what
//! a step costs with tracking on and with it off, over the same frames.
//!
//! The two runs take turns going first in a frame, so that neither always finds the other's
//! code and data in the caches. Their checkpoint hashes are compared after every step: the
//! optimization changes what a step costs, never what it does.

use std::collections::VecDeque;
use std::time::Duration;

use crate::replay::Replay;
use crate::sim::Input;
use crate::sim::Sim;
use crate::window::platform::Instant;

use super::step_costs::{STEP_WINDOW, median, push, step_micros};

/// The second run and what both runs' steps cost.
pub struct Compare {
    shadow: Sim,
    /// Step times with tracking on and off (microseconds, newest last), whichever run had it.
    on_us: VecDeque<f32>,
    off_us: VecDeque<f32>,
    /// The first step after which the two runs' checkpoint hashes differed.
    diverged_at: Option<u64>,
}

impl std::fmt::Debug for Compare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compare")
            .field("step", &self.shadow.state().step)
            .finish_non_exhaustive()
    }
}

impl Compare {
    /// Follow `game` with `shadow`, a fresh simulation of the same level and seed: it replays
    /// `so_far` (the run's inputs up to now) to catch up, then runs with the optimization the
    /// other way.
    ///
    /// # Errors
    /// The replay does not reach `game`'s step, or the caught-up run is not in `game`'s state.
    pub fn new(game: &Sim, mut shadow: Sim, so_far: Option<&Replay>) -> Result<Self, String> {
        let step = game.state().step;
        // The bot plays in both runs (it keeps a plan of its own, so it replays itself from the
        // first step); a player's or a script's input is handed over each step.
        shadow.set_bot(game.bot_enabled());
        // Catching up with tracking on is the quick way; the result is the same.
        shadow.set_dirty_optimization(true);
        if game.bot_enabled() {
            for _ in 0..step {
                shadow.step(Input::default());
            }
        } else if step > 0 {
            let replay = so_far
                .filter(|r| r.steps() >= step)
                .ok_or("compare: this run is not recorded; it starts with the next room")?;
            for s in 0..step {
                shadow.step(replay.input_at(s));
            }
        }
        if shadow.checkpoint_hash() != game.checkpoint_hash() {
            return Err(format!(
                "compare: the second run is not in the game's state at step {step}"
            ));
        }
        shadow.set_dirty_optimization(!game.dirty_optimization());
        Ok(Self {
            shadow,
            on_us: VecDeque::with_capacity(STEP_WINDOW),
            off_us: VecDeque::with_capacity(STEP_WINDOW),
            diverged_at: None,
        })
    }

    /// Whether this follows `game` (the same step; a new room or a restart needs a new one).
    pub fn follows(&self, game: &Sim) -> bool {
        self.shadow.state().step == game.state().step
    }

    /// Run the game's step with `input` in both runs, the second one first on odd steps, and
    /// return the game's time in `Sim::step`.
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
        if self.diverged_at.is_none() && self.shadow.checkpoint_hash() != game.checkpoint_hash() {
            self.diverged_at = Some(game.state().step);
        }
        took
    }

    /// "compare: on 3.6 µs/step, off 141 µs/step (39x), same state" over the last
    /// [`STEP_WINDOW`] steps; `None` before the first.
    pub fn text(&self) -> Option<String> {
        if self.on_us.is_empty() {
            return None;
        }
        let (on, off) = (median(&self.on_us), median(&self.off_us));
        let state = match self.diverged_at {
            None => "same state".to_owned(),
            Some(step) => format!("states differ from step {step}"),
        };
        Some(format!(
            "compare: on {}/step, off {}/step ({:.0}x), {state}",
            step_micros(on),
            step_micros(off),
            off / on.max(0.001)
        ))
    }
}

fn timed_step(sim: &mut Sim, input: Input) -> Duration {
    let started = Instant::now();
    sim.step(input);
    started.elapsed()
}
