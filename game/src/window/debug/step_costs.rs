//! The one record of what the simulation's steps cost, which every panel reads: the stats panel
//! (F6), the profiler window's Systems tab (F2) and the F7 comparison. Each figure is a median
//! over the last [`STEP_WINDOW`] steps, taken from the ECS's own per-system timing, so two
//! panels never show two numbers for one system.
//!
//! A switch of the dirty optimization (F7) starts a new window: the steps before it are kept as
//! one figure and shown beside the new ones until the next switch ([`StepCosts::comparison`]).

use std::collections::VecDeque;
use std::time::Duration;

use ecs::World;

use super::frame_cost::micros;

/// Steps each median is taken over: two seconds of play at 60 steps per second.
pub const STEP_WINDOW: usize = 120;

/// One system's figures over the window.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemRow {
    /// The system's name.
    pub name: &'static str,
    /// A debug system (it runs for the overlay, not the game): listed apart, out of the total.
    pub debug: bool,
    /// Entities it tracks now.
    pub tracked: usize,
    /// Median dirty entities it was given per step.
    pub dirty: f32,
    /// Median time per step, microseconds.
    pub us: f32,
}

/// What a stretch of steps with the optimization on or off cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phase {
    /// Whether the dirty optimization was on.
    pub tracking: bool,
    /// Median time of `Sim::step`, microseconds.
    pub step_us: f32,
    /// Steps measured.
    pub steps: usize,
    /// The system that tracks the most entities (of those, the one given the most): its name, what it tracks and how many of them
    /// it skipped per step (median), for "1,994 of 2,000 skipped".
    pub widest: Option<(&'static str, usize, f32)>,
}

/// Per-step costs of the running game (see the module's documentation).
#[derive(Debug, Default)]
pub struct StepCosts {
    tracking: bool,
    /// `Sim::step`'s wall time, newest last.
    step_us: VecDeque<f32>,
    /// Per system, in schedule order: its name and whether it is a debug system.
    names: Vec<(&'static str, bool)>,
    tracked: Vec<usize>,
    /// Per system, its time and dirty count per timed step, newest last.
    system_us: Vec<VecDeque<f32>>,
    dirty: Vec<VecDeque<f32>>,
    /// The phase before the last switch, pinned until the next one.
    before: Option<Phase>,
}

impl StepCosts {
    /// Note one step of `world` that took `took` in `Sim::step`. Per-system times are taken
    /// only when `timed` (the world timed its systems); dirty counts always.
    pub fn record(&mut self, world: &World, took: Duration, timed: bool) {
        if world.change_tracking() != self.tracking {
            // A switch this record has not heard of (a new level, or `--no-dirty`): no
            // comparison, a fresh window.
            self.tracking = world.change_tracking();
            self.clear();
            self.before = None;
        }
        push(&mut self.step_us, took.as_secs_f32() * 1e6);
        let same = self.names.len() == world.systems().len()
            && self
                .names
                .iter()
                .zip(world.systems())
                .all(|(n, s)| n.0 == s.name);
        if !same {
            self.names = world.systems().map(|s| (s.name, s.debug)).collect();
            self.tracked = vec![0; self.names.len()];
            self.system_us = vec![VecDeque::with_capacity(STEP_WINDOW); self.names.len()];
            self.dirty = vec![VecDeque::with_capacity(STEP_WINDOW); self.names.len()];
        }
        for (i, s) in world.systems().enumerate() {
            self.tracked[i] = s.tracked;
            if timed {
                push(&mut self.system_us[i], s.last_duration.as_secs_f32() * 1e6);
            }
            push(&mut self.dirty[i], s.last_dirty as f32);
        }
    }

    /// The dirty optimization was just switched to `tracking`: keep what the steps before cost,
    /// and measure the new setting from scratch.
    pub fn switched(&mut self, tracking: bool) {
        if tracking == self.tracking {
            return;
        }
        self.before = (!self.step_us.is_empty()).then(|| self.phase());
        self.tracking = tracking;
        self.clear();
    }

    fn clear(&mut self) {
        self.step_us.clear();
        self.system_us.iter_mut().for_each(VecDeque::clear);
        self.dirty.iter_mut().for_each(VecDeque::clear);
    }

    /// The steps measured since the last switch (at most [`STEP_WINDOW`]).
    pub fn phase(&self) -> Phase {
        let widest = self
            .rows()
            .into_iter()
            .filter(|r| !r.debug)
            // Of the systems that watch the most entities, the one that was given the most.
            .max_by(|a, b| {
                (a.tracked, a.dirty)
                    .partial_cmp(&(b.tracked, b.dirty))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|r| (r.name, r.tracked, (r.tracked as f32 - r.dirty).max(0.0)));
        Phase {
            tracking: self.tracking,
            step_us: median(&self.step_us),
            steps: self.step_us.len(),
            widest,
        }
    }

    /// Each system's figures, in schedule order (empty until a step; times 0 until a timed
    /// one).
    pub fn rows(&self) -> Vec<SystemRow> {
        self.names
            .iter()
            .enumerate()
            .map(|(i, &(name, debug))| SystemRow {
                name,
                debug,
                tracked: self.tracked[i],
                dirty: median(&self.dirty[i]),
                us: median(&self.system_us[i]),
            })
            .collect()
    }

    /// The comparison pinned by the last switch: "off 141 µs/step -> on 3.6 µs/step (39x);
    /// 1,994 of 2,000 skipped by draw_data". `None` before the first switch, or until a step
    /// has run on each side of it.
    pub fn comparison(&self) -> Option<String> {
        let before = self.before?;
        let now = self.phase();
        if now.steps == 0 {
            return None;
        }
        let name = |p: &Phase| if p.tracking { "on" } else { "off" };
        let (on, off) = if now.tracking {
            (now, before)
        } else {
            (before, now)
        };
        let ratio = off.step_us / on.step_us.max(0.001);
        let mut text = format!(
            "{} {}/step -> {} {}/step ({ratio:.0}x)",
            name(&before),
            step_micros(before.step_us),
            name(&now),
            step_micros(now.step_us),
        );
        if let Some((system, tracked, skipped)) = on.widest {
            text += &format!(
                "; {} of {} entities skipped by {system}",
                group(skipped.round() as u64),
                group(tracked as u64)
            );
        }
        Some(text)
    }
}

/// The debug instruments' own cost on one line: the debug systems per step, the overlay (its
/// views, panels and this window) per frame.
pub(super) fn debug_line(rows: &[SystemRow], own_us: f32) -> String {
    let systems: f32 = rows.iter().filter(|r| r.debug).map(|r| r.us).sum();
    format!(
        "debug (apart): systems {systems:.1} µs/step, overlay {}/frame",
        step_micros(own_us)
    )
}

/// A step's time as the comparison reads it: one decimal under 10 µs, whole above.
pub fn step_micros(us: f32) -> String {
    if us < 9.95 {
        format!("{us:.1} µs")
    } else {
        micros(us)
    }
}

/// `1994` as `1,994`.
fn group(n: u64) -> String {
    micros(n as f32).trim_end_matches(" µs").to_string()
}

pub(super) fn push(ring: &mut VecDeque<f32>, value: f32) {
    if ring.len() == STEP_WINDOW {
        ring.pop_front();
    }
    ring.push_back(value);
}

/// The median of `values` (the upper one of an even count); 0 for none.
pub(super) fn median(values: &VecDeque<f32>) -> f32 {
    let mut sorted: Vec<f32> = values.iter().copied().collect();
    sorted.sort_by(f32::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world_with_tracking(on: bool) -> World {
        let mut world = World::new();
        world.set_change_tracking(on);
        world
    }

    fn us(n: u64) -> Duration {
        Duration::from_micros(n)
    }

    #[test]
    fn the_step_figure_is_the_median_of_the_window() {
        let mut costs = StepCosts::default();
        let world = world_with_tracking(true);
        for t in [5, 4, 900, 6, 5] {
            costs.record(&world, us(t), false);
        }
        assert_eq!(costs.phase().step_us, 5.0);
        for _ in 0..STEP_WINDOW {
            costs.record(&world, us(3), false);
        }
        assert_eq!(
            (costs.phase().step_us, costs.phase().steps),
            (3.0, STEP_WINDOW)
        );
    }

    #[test]
    fn a_switch_pins_the_steps_before_it_beside_the_steps_after() {
        let mut costs = StepCosts::default();
        let mut world = world_with_tracking(false);
        for _ in 0..10 {
            costs.record(&world, us(141), false);
        }
        assert_eq!(
            costs.comparison(),
            None,
            "nothing to compare before a switch"
        );
        world.set_change_tracking(true);
        costs.switched(true);
        assert_eq!(costs.comparison(), None, "no step yet on the new side");
        for t in [4, 3, 4] {
            costs.record(&world, us(t), false);
        }
        assert_eq!(
            costs.comparison().as_deref(),
            Some("off 141 µs/step -> on 4.0 µs/step (35x)")
        );
        // Switching back pins the "on" phase; the ratio stays off over on.
        world.set_change_tracking(false);
        costs.switched(false);
        costs.record(&world, us(120), false);
        assert_eq!(
            costs.comparison().as_deref(),
            Some("on 4.0 µs/step -> off 120 µs/step (30x)")
        );
    }

    #[test]
    fn a_tracking_change_not_announced_as_a_switch_drops_the_comparison() {
        let mut costs = StepCosts::default();
        let mut world = world_with_tracking(true);
        costs.record(&world, us(4), false);
        costs.switched(false);
        world.set_change_tracking(false);
        costs.record(&world, us(100), false);
        assert!(costs.comparison().is_some());
        // A new level starts with tracking on again, without F7.
        world.set_change_tracking(true);
        costs.record(&world, us(4), false);
        assert_eq!(costs.comparison(), None);
    }

    #[test]
    fn step_times_read_with_a_decimal_only_when_small() {
        assert_eq!(step_micros(3.56), "3.6 µs");
        assert_eq!(step_micros(141.3), "141 µs");
        assert_eq!(step_micros(1_994.0), "1,994 µs");
        assert_eq!(group(1_994), "1,994");
    }
}
