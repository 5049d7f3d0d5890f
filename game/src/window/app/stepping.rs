//! Advancing the game each frame: how many fixed steps to run (wall time, one per frame when
//! scripted, a replay's speed, pause), running them, and the feel and sounds they set off.

use std::time::Duration;

use crate::window::platform::Instant;

use macroquad::prelude::get_frame_time;

use super::app_state::{App, Juice};
use super::keys;
use super::mode::Mode;
use crate::input::InputSource;
use crate::replay;
use crate::sim::Sim;
use crate::sim::components::{Player, Position};
use crate::window::debug::compare::Compare;
use crate::window::debug::views::View;

/// What a frame's update ran: its steps, their time in the game's `Sim::step`, and the time
/// compare mode's other runs took beside them (neither the game's step nor the window's work).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stepped {
    pub steps: u32,
    pub stepping: Duration,
    pub comparing: Duration,
}

impl App {
    /// Advance the simulation: by wall time normally, exactly one step per frame when scripted
    /// (hit-stop may hold a step back).
    pub fn update(&mut self) -> Stepped {
        puffin::profile_scope!("update");
        let Some(sim) = &mut self.run.sim else {
            return Stepped::default();
        };
        if !matches!(self.mode, Mode::Playing { .. } | Mode::Playback { .. }) {
            return Stepped::default();
        }
        let world = sim.world_mut();
        world.set_timing(self.drawing.overlay.reads_system_timings());
        ecs::diagnostics::set_clock(world, crate::window::platform::clock);
        sim.set_debug_systems(self.drawing.overlay.runs_debug_systems());
        self.drawing.renderer.fit_camera(sim);
        let ticks = if self.script.is_some() {
            1
        } else {
            self.run.fixed.advance(f64::from(get_frame_time()))
        };
        let ticks = match &mut self.mode {
            Mode::Playback { playback, paused } => {
                playback.steps_now(ticks, *paused, sim.state().step)
            }
            Mode::Playing { paused: true } => 0,
            // F1's help over the room stops it, clock and all, as the pause screen does, for
            // a player at the keyboard (the bot and scripts play on under `--debug help`).
            Mode::Playing { .. }
                if self.drawing.overlay.views.is_on(View::Help)
                    && matches!(self.config.input, InputSource::Keyboard) =>
            {
                0
            }
            _ => ticks,
        };
        if ticks == 0 {
            // Debug systems keep the overlays current while the game stands still.
            sim.world_mut().update_debug_only();
            return Stepped::default();
        }
        self.follow_with_compare();
        let Some(sim) = &mut self.run.sim else {
            return Stepped::default();
        };
        let keyboard = matches!(self.config.input, InputSource::Keyboard)
            .then(|| crate::input::pad::combine(keys::read_input(), self.devices.pads.input()));
        let mut stepped = Stepped::default();
        for _ in 0..ticks {
            let frozen = self.juice.feel.freeze_steps_now();
            self.juice.feel.tick();
            if frozen {
                continue;
            }
            let input =
                keyboard.unwrap_or_else(|| self.config.input.scripted_input(sim.state().step));
            let took = match &mut self.drawing.overlay.compare {
                Some(compare) => {
                    let started = Instant::now();
                    let took = compare.step_both(sim, input);
                    stepped.comparing += started.elapsed().saturating_sub(took);
                    took
                }
                None => {
                    let started = Instant::now();
                    sim.step(input);
                    started.elapsed()
                }
            };
            stepped.stepping += took;
            self.drawing.overlay.record_step(sim, took);
            stepped.steps += 1;
            self.run.recording.record(sim);
            self.juice.react(sim, self.frames.frame);
        }
        // The ghost's own game catches up with the player's, step for step.
        if let (Some(ghost), Some(sim)) = (&mut self.run.ghost, &self.run.sim) {
            ghost.catch_up(sim.state().step);
        }
        let before = self.frames.steps;
        self.frames.steps += u64::from(stepped.steps);
        self.drawing.renderer.shake = self.juice.feel.offset();
        self.note_clear();
        if before / replay::CHECKPOINT_EVERY != self.frames.steps / replay::CHECKPOINT_EVERY {
            self.save_record();
        }
        stepped
    }
}

impl App {
    /// Compare mode (F8): start its second run where the game is, if it does not follow the
    /// game yet; drop it when the view is off.
    fn follow_with_compare(&mut self) {
        let overlay = &mut self.drawing.overlay;
        let Some(sim) = &self.run.sim else {
            return;
        };
        if !overlay.views.is_on(View::Compare) {
            overlay.compare = None;
            overlay.compare_note = None;
            return;
        }
        let follows = match &overlay.compare {
            Some(compare) => compare.follows(sim),
            // A run it could not follow: wait for the next room rather than retry each frame.
            None => overlay.compare_note.is_some() && sim.state().step > 0,
        };
        if follows {
            return;
        }
        let so_far = self.run.recording.so_far(sim);
        let load = || {
            let (_, mut run) = Sim::load(&self.run.path, &self.config.atlas, self.config.seed)
                .map_err(|e| format!("compare: {e}"))?;
            self.drawing.renderer.fit_camera(&mut run);
            Ok(run)
        };
        let built = Compare::new(sim, load, so_far.as_ref());
        overlay.compare_note = built.as_ref().err().cloned();
        overlay.compare = built.ok();
    }
}

impl Juice {
    /// After a step (on frame `frame`): its sounds, and the feel of its breaks, hits and
    /// blasts, each blast's ring of reach.
    fn react(&mut self, sim: &Sim, frame: u64) {
        self.cues.play_step(sim, &mut self.sounds);
        let world = sim.world();
        if self.breaks.read(world).count() > 0 {
            self.feel.on_break();
        }
        if self.hits.read(world).count() > 0 {
            self.feel.on_hit();
        }
        // The nearest blast of the step, measured from the player, sets the jolt.
        let player = world
            .column::<Player>()
            .entities()
            .first()
            .and_then(|&p| world.get::<Position>(p).copied());
        let mut nearest: Option<f32> = None;
        for blast in self.blasts.read(world) {
            self.rings.push((blast.at.x, blast.at.y, frame));
            if let Some(p) = player {
                let d = (blast.at.x - p.x).hypot(blast.at.y - p.y);
                nearest = Some(nearest.map_or(d, |n| n.min(d)));
            }
        }
        self.rings
            .retain(|&(_, _, at)| frame.saturating_sub(at) < super::render::RING_FRAMES);
        if let Some(distance) = nearest {
            self.feel.on_blast(distance);
        }
    }
}
