//! What frames and steps cost: the one record every panel reads (the stats panel (F6), the
//! profiler window (F2) and the F7 comparison), and how a time reads.
//!
//! A frame's cost is one [`FrameCost`] per frame, the last [`HISTORY`] kept. A step's cost is
//! per system: each figure is a median over the last [`STEP_WINDOW`] steps, taken from the
//! ECS's own per-system timing, so two panels never show two numbers for one system.
//!
//! A switch of the dirty optimization (F7) starts a new window: the steps before it are kept as
//! one figure and shown beside the new ones until the next switch ([`StepCosts::comparison`]).

use std::collections::VecDeque;
use std::time::Duration;

use ecs::World;

/// Frames of history the stats graph shows: two seconds at 60 FPS.
pub(super) const HISTORY: usize = 120;

/// Wall-clock cost of one frame, for the stats panel's bars.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameCost {
    /// Simulation steps run this frame.
    pub steps: u32,
    /// Time from the previous frame to this one (what the frame rate is), milliseconds.
    pub frame_ms: f32,
    /// Whether the game was being played (a level running, not paused): the frames the F7
    /// comparison counts.
    pub playing: bool,
    /// Time of the frame's update, milliseconds: its steps and the window's work around them
    /// (sounds, feel, the replay record, the camera's size).
    pub update_ms: f32,
    /// Time in `Sim::step` this frame, milliseconds.
    pub step_ms: f32,
    /// Time compare mode's other runs took this frame (F8), milliseconds: part of the update,
    /// neither the game's step nor the window's work.
    pub compare_ms: f32,
    /// Whether the dirty optimization was on at the end of the frame.
    pub tracking: bool,
    /// Time building the frame's draw lists, milliseconds.
    pub render_ms: f32,
    /// Draw calls of the world pass, as last measured.
    pub world_draw_calls: Option<usize>,
    /// Quads in the world pass.
    pub world_quads: usize,
}

/// Microseconds, whole, with thousands separated: `16,667 µs`.
pub(super) fn micros(us: f32) -> String {
    let n = us.round().max(0.0) as u64;
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + 6);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out + " µs"
}

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
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Phase {
    /// Whether the dirty optimization was on.
    pub tracking: bool,
    /// Median time of `Sim::step`, microseconds.
    pub step_us: f32,
    /// Steps measured.
    pub steps: usize,
    /// Median time from one frame to the next (what the player sees as the frame rate),
    /// milliseconds; 0 before a frame was played.
    pub frame_ms: f32,
    /// Median time of a frame's update (its steps and the window's work around them),
    /// milliseconds.
    pub update_ms: f32,
    /// Frames measured.
    pub frames: usize,
    /// The system that tracks the most entities (of those, the one given the most): its name,
    /// what it tracks and how many of them it was not given per step (median), for "1,994 of
    /// 2,000 entities not looked at this step".
    pub widest: Option<(&'static str, usize, f32)>,
}

impl Phase {
    /// Frames a second, from the median frame time (0 before a frame).
    pub fn fps(&self) -> f32 {
        if self.frame_ms > 0.0 {
            1e3 / self.frame_ms
        } else {
            0.0
        }
    }

    /// "off: 38 FPS, update 14.2 ms": the frame in the player's units.
    fn frame_text(&self) -> String {
        format!(
            "{}: {:.0} FPS, update {}",
            if self.tracking { "on" } else { "off" },
            self.fps(),
            millis(self.update_ms)
        )
    }
}

/// The figures the panels show, worked out once from a [`StepCosts`] (each is a median, and
/// a panel reads most of them more than once a frame).
#[derive(Clone, Debug, Default)]
pub struct StepFigures {
    pub phase: Phase,
    pub rows: Vec<SystemRow>,
    pub comparison: Option<String>,
    /// What the step's figure is a median of ([`StepCosts::step_window`]).
    pub step_window: String,
    /// What the rows' times are a median of ([`StepCosts::rows_window`]).
    pub rows_window: String,
}

/// Per-step costs of the running game (see the module's documentation).
#[derive(Debug, Default)]
pub struct StepCosts {
    tracking: bool,
    /// `Sim::step`'s wall time, newest last.
    step_us: VecDeque<f32>,
    /// Per system, in schedule order: its name and whether it is a debug system.
    names: Vec<(&'static str, bool)>,
    /// Per system, its time per timed step, and the entities it tracked and was given dirty
    /// per step (each as its run began, so dirty is never above tracked), newest last.
    system_us: Vec<VecDeque<f32>>,
    tracked: Vec<VecDeque<f32>>,
    dirty: Vec<VecDeque<f32>>,
    /// Each played frame's time from the previous one, and its update's, milliseconds.
    frame_ms: VecDeque<f32>,
    update_ms: VecDeque<f32>,
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
            self.tracked = vec![VecDeque::with_capacity(STEP_WINDOW); self.names.len()];
            self.system_us = vec![VecDeque::with_capacity(STEP_WINDOW); self.names.len()];
            self.dirty = vec![VecDeque::with_capacity(STEP_WINDOW); self.names.len()];
        }
        for (i, s) in world.systems().enumerate() {
            push(&mut self.tracked[i], s.last_tracked as f32);
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

    /// Note one frame of play: `frame_ms` since the one before, `update_ms` of it in the
    /// update.
    pub fn record_frame(&mut self, frame_ms: f32, update_ms: f32) {
        push(&mut self.frame_ms, frame_ms);
        push(&mut self.update_ms, update_ms);
    }

    fn clear(&mut self) {
        self.step_us.clear();
        self.frame_ms.clear();
        self.update_ms.clear();
        for ring in [&mut self.system_us, &mut self.tracked, &mut self.dirty] {
            ring.iter_mut().for_each(VecDeque::clear);
        }
    }

    /// Every figure the panels show, worked out now.
    pub fn figures(&self) -> StepFigures {
        StepFigures {
            phase: self.phase(),
            rows: self.rows(),
            comparison: self.comparison(),
            step_window: self.step_window(),
            rows_window: self.rows_window(),
        }
    }

    /// The pinned phase before the last switch, if any.
    pub fn before(&self) -> Option<Phase> {
        self.before
    }

    /// What the system rows' times are a median of: "median of the last 120 steps", or
    /// "median of the 50 steps since F7" just after a switch (0 steps until a timed one).
    pub fn rows_window(&self) -> String {
        let n = self
            .system_us
            .first()
            .map_or(self.step_us.len(), VecDeque::len);
        window_words(n, self.before.is_some())
    }

    /// What the step's figure is a median of, as [`StepCosts::rows_window`] says it.
    pub fn step_window(&self) -> String {
        window_words(self.step_us.len(), self.before.is_some())
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
            frame_ms: median(&self.frame_ms),
            update_ms: median(&self.update_ms),
            frames: self.frame_ms.len(),
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
                tracked: median(&self.tracked[i]) as usize,
                dirty: median(&self.dirty[i]),
                us: median(&self.system_us[i]),
            })
            .collect()
    }

    /// The comparison pinned by the last switch, its parts separated by "; ": the frame in the
    /// player's units, then the step, then what tracking leaves out: "off: 38 FPS, update 14.2
    /// ms -> on: 60 FPS, update 0.05 ms; step off 14,100 µs -> on 52 µs (271x); 1,994 of 2,000
    /// entities not looked at this step (draw_data)". The frame's part is left out until a
    /// frame was played on each side. `None` before the first switch, or until a step has run
    /// on each side of it.
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
        let mut parts = Vec::with_capacity(3);
        if before.frames > 0 && now.frames > 0 {
            parts.push(format!("{} -> {}", before.frame_text(), now.frame_text()));
        }
        parts.push(format!(
            "step {} {} -> {} {} ({ratio:.0}x)",
            name(&before),
            step_micros(before.step_us),
            name(&now),
            step_micros(now.step_us),
        ));
        if let Some((system, tracked, skipped)) = on.widest {
            parts.push(format!(
                "{} of {} entities not looked at this step ({system})",
                group(skipped.round() as u64),
                group(tracked as u64)
            ));
        }
        Some(parts.join("; "))
    }
}

/// "median of the last 120 steps", or "median of the 50 steps since F7" while a switch is
/// pinned and fewer than a window's steps followed it.
fn window_words(n: usize, since_switch: bool) -> String {
    match (since_switch && n < STEP_WINDOW, n == 1) {
        (true, true) => "the step since F7".to_owned(),
        (true, false) => format!("median of the {n} steps since F7"),
        (false, true) => "the last step".to_owned(),
        (false, false) => format!("median of the last {n} steps"),
    }
}

/// Milliseconds as the comparison reads them: "14.2 ms", or "0.05 ms" under one.
pub fn millis(ms: f32) -> String {
    if ms < 0.995 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

/// The overlay's own median cost per frame, in microseconds: its world views (F3, F4, F5),
/// the stats panel (F6) and the profiler window (F2).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OwnCost {
    pub views: f32,
    pub stats: f32,
    pub profiler: f32,
}

/// The debug instruments' own cost on one line, apart from the game's: the debug systems per
/// step, the overlay per frame and each open part of it: "debug (apart): systems 0.8 µs/step,
/// overlay 420 µs/frame (F2 300, F6 120)".
pub(super) fn debug_line(rows: &[SystemRow], own: OwnCost) -> String {
    let systems: f32 = rows.iter().filter(|r| r.debug).map(|r| r.us).sum();
    let parts: Vec<String> = [
        ("F2", own.profiler),
        ("F6", own.stats),
        ("views", own.views),
    ]
    .iter()
    .filter(|(_, us)| *us > 0.0)
    .map(|(name, us)| format!("{name} {}", micros(*us).trim_end_matches(" µs")))
    .collect();
    format!(
        "debug (apart): systems {systems:.1} µs/step, overlay {}/frame ({})",
        step_micros(own.views + own.stats + own.profiler),
        parts.join(", ")
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
pub(super) fn group(n: u64) -> String {
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

    #[test]
    fn micros_are_whole_and_grouped_in_thousands() {
        assert_eq!(micros(0.4), "0 µs");
        assert_eq!(micros(999.6), "1,000 µs");
        assert_eq!(micros(16_666.7), "16,667 µs");
        assert_eq!(micros(1_234_567.0), "1,234,567 µs");
    }

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
            Some("step off 141 µs -> on 4.0 µs (35x)")
        );
        // Switching back pins the "on" phase; the ratio stays off over on.
        world.set_change_tracking(false);
        costs.switched(false);
        costs.record(&world, us(120), false);
        assert_eq!(
            costs.comparison().as_deref(),
            Some("step on 4.0 µs -> off 120 µs (30x)")
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
    fn the_comparison_shows_the_frame_in_frames_a_second_once_played_on_both_sides() {
        let mut costs = StepCosts::default();
        let mut world = world_with_tracking(false);
        for _ in 0..10 {
            costs.record(&world, us(14_100), false);
            costs.record_frame(1e3 / 38.0, 14.2);
        }
        world.set_change_tracking(true);
        costs.switched(true);
        costs.record(&world, us(50), false);
        assert_eq!(
            costs.comparison().as_deref(),
            Some("step off 14,100 µs -> on 50 µs (282x)"),
            "no frame yet since the switch"
        );
        costs.record_frame(1e3 / 60.0, 0.05);
        assert_eq!(
            costs.comparison().as_deref(),
            Some(
                "off: 38 FPS, update 14.2 ms -> on: 60 FPS, update 0.05 ms; \
                 step off 14,100 µs -> on 50 µs (282x)"
            )
        );
    }

    #[test]
    fn captions_name_the_steps_since_a_switch() {
        let mut costs = StepCosts::default();
        let mut world = world_with_tracking(true);
        for _ in 0..STEP_WINDOW + 5 {
            costs.record(&world, us(4), true);
        }
        assert_eq!(costs.step_window(), "median of the last 120 steps");
        world.set_change_tracking(false);
        costs.switched(false);
        for _ in 0..50 {
            costs.record(&world, us(40), true);
        }
        assert_eq!(costs.step_window(), "median of the 50 steps since F7");
        assert_eq!(costs.rows_window(), costs.step_window());
    }

    #[test]
    fn step_times_read_with_a_decimal_only_when_small() {
        assert_eq!(step_micros(3.56), "3.6 µs");
        assert_eq!(step_micros(141.3), "141 µs");
        assert_eq!(step_micros(1_994.0), "1,994 µs");
        assert_eq!(group(1_994), "1,994");
    }
}
