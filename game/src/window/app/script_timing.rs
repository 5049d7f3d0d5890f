//! CPU time per frame of a scripted run, and its update and render parts, for
//! [`ScriptReport`](super::ScriptReport).
//!
//! ```text
//! one frame:  | input, hot reload | update | render: world pass, debug views, HUD,  | swap
//!             |                   |        | panels, egui, batched draws submitted | (vsync)
//!             |<------------------ frame (CPU) ------------------------------------>|
//! ```
//!
//! The buffer swap, where a software OpenGL rasterises and a display may wait for vsync, is
//! outside all three: they are what the game's own code costs the CPU per frame.

use std::time::Duration;

use serde::Serialize;

use crate::sim_run::TimeHistogram;

/// Frame, update and render times of every frame after the first (fixed-size histograms, so a
/// scripted run of any length keeps the same memory).
#[derive(Debug, Default)]
pub(super) struct ScriptTiming {
    seen: u64,
    frame: TimeHistogram,
    update: TimeHistogram,
    render: TimeHistogram,
    step: TimeHistogram,
    window: TimeHistogram,
    /// The frames of play, one stretch per setting of the dirty optimization (a new one at
    /// each F7), oldest first; at most [`MAX_PHASES`].
    phases: Vec<PhaseTimes>,
}

/// Stretches of play [`ScriptTiming`] keeps: the latest, for a session of many F7 presses.
const MAX_PHASES: usize = 8;

/// The frames of one stretch of play with the dirty optimization on or off.
#[derive(Debug)]
struct PhaseTimes {
    tracking: bool,
    /// From one frame to the next: what the player sees as the frame rate.
    interval: TimeHistogram,
    /// The game's CPU time of the frame, before the buffer swap.
    cpu: TimeHistogram,
    update: TimeHistogram,
    step: TimeHistogram,
}

/// What one frame of play cost, for [`ScriptTiming::record_play`].
#[derive(Clone, Copy, Debug)]
pub(super) struct PlayFrame {
    /// Whether the dirty optimization was on.
    pub tracking: bool,
    /// Time since the previous frame began (macroquad's frame time).
    pub interval: Duration,
    /// The frame's CPU time before the swap.
    pub cpu: Duration,
    /// Its update, and one of its steps (`None`: it ran none).
    pub update: Duration,
    pub step: Option<Duration>,
}

impl ScriptTiming {
    /// Count one frame's times. The first frame is left out: its update is the level's first
    /// step, which sees every entity as new (as `crate-room sim` reports on its own).
    pub(super) fn record(&mut self, frame: Duration, update: Duration, render: Duration) {
        self.seen += 1;
        if self.seen == 1 {
            return;
        }
        self.frame.record(frame);
        self.update.record(update);
        self.render.record(render);
    }

    /// Count the steps of the frame just recorded: `step`, the time of one in `Sim::step`, and
    /// `window`, the rest of the frame's update (sounds, feel, the replay record, the camera).
    /// Left out on the first frame, as in [`ScriptTiming::record`].
    pub(super) fn record_steps(&mut self, step: Duration, window: Duration) {
        if self.seen > 1 {
            self.step.record(step);
            self.window.record(window);
        }
    }

    /// Count a frame of play (a level running, not paused) in the stretch of its setting of
    /// the dirty optimization. Left out on the first frame, as in [`ScriptTiming::record`].
    pub(super) fn record_play(&mut self, frame: PlayFrame) {
        if self.seen <= 1 {
            return;
        }
        if self
            .phases
            .last()
            .is_none_or(|p| p.tracking != frame.tracking)
        {
            if self.phases.len() == MAX_PHASES {
                self.phases.remove(0);
            }
            self.phases.push(PhaseTimes {
                tracking: frame.tracking,
                interval: TimeHistogram::new(),
                cpu: TimeHistogram::new(),
                update: TimeHistogram::new(),
                step: TimeHistogram::new(),
            });
        }
        if let Some(phase) = self.phases.last_mut() {
            phase.interval.record(frame.interval);
            phase.cpu.record(frame.cpu);
            phase.update.record(frame.update);
            if let Some(step) = frame.step {
                phase.step.record(step);
            }
        }
    }

    /// Each stretch of play's medians, oldest first.
    pub(super) fn phases(&self) -> Vec<PhaseReport> {
        let ms = |h: &TimeHistogram| (h.quantile(0.5).as_secs_f64() * 1e6).round() / 1e3;
        self.phases
            .iter()
            .map(|p| {
                let (frame, update) = (ms(&p.interval), ms(&p.update));
                PhaseReport {
                    tracking: p.tracking,
                    frames: p.interval.len(),
                    frame_ms_median: frame,
                    fps: if frame > 0.0 {
                        (1e4 / frame).round() / 10.0
                    } else {
                        0.0
                    },
                    cpu_frame_ms_median: ms(&p.cpu),
                    update_ms_median: update,
                    update_share: if frame > 0.0 {
                        (update / frame * 1e3).round() / 1e3
                    } else {
                        0.0
                    },
                    step_us_median: ms(&p.step) * 1e3,
                }
            })
            .collect()
    }

    /// Medians, 99th percentiles and maxima in microseconds.
    pub(super) fn report(&self) -> CpuTimes {
        // To the nanosecond, which is more than the histogram's precision anyway.
        let micros = |h: &TimeHistogram, p: f64| (h.quantile(p).as_secs_f64() * 1e9).round() / 1e3;
        CpuTimes {
            timed_frames: self.frame.len(),
            frame_us_median: micros(&self.frame, 0.5),
            frame_us_p99: micros(&self.frame, 0.99),
            frame_us_max: micros(&self.frame, 1.0),
            update_us_median: micros(&self.update, 0.5),
            update_us_p99: micros(&self.update, 0.99),
            update_us_max: micros(&self.update, 1.0),
            render_us_median: micros(&self.render, 0.5),
            render_us_p99: micros(&self.render, 0.99),
            render_us_max: micros(&self.render, 1.0),
            step_us_median: micros(&self.step, 0.5),
            step_us_p99: micros(&self.step, 0.99),
            window_us_median: micros(&self.window, 0.5),
        }
    }
}

/// CPU time per frame of a scripted run, in microseconds, over every frame after the first
/// (medians, 99th percentiles and maxima within 1.6 %, see [`TimeHistogram`]; all zero when
/// the run had a single frame).
#[derive(Clone, Debug, Default, Serialize)]
pub struct CpuTimes {
    /// Frames measured: all but the first.
    pub timed_frames: u64,
    /// Median CPU time of a whole frame: input, hot reload, update and render, everything
    /// before the buffer swap.
    pub frame_us_median: f64,
    /// 99th percentile of the frame's CPU time.
    pub frame_us_p99: f64,
    /// The longest frame's CPU time: a hitch the percentiles may not show.
    pub frame_us_max: f64,
    /// Median time of the frame's simulation steps (one per frame in a scripted run, none while
    /// hit-stop holds the game or on the title screen), with their sound cues and replay record.
    pub update_us_median: f64,
    /// 99th percentile of the update's time.
    pub update_us_p99: f64,
    /// The longest update.
    pub update_us_max: f64,
    /// Median CPU time of building and submitting the frame: the world pass, debug views, HUD,
    /// panels and egui's profiler window, up to and including handing the batched draws to
    /// OpenGL; not the buffer swap or a vsync wait.
    pub render_us_median: f64,
    /// 99th percentile of the render's CPU time.
    pub render_us_p99: f64,
    /// The longest render.
    pub render_us_max: f64,
    /// Median time of one simulation step (`Sim::step`) over the frames that ran steps: what
    /// `crate-room sim` reports as `update_us_median`.
    pub step_us_median: f64,
    /// 99th percentile of the step's time.
    pub step_us_p99: f64,
    /// Median of the rest of a frame's update, over the frames that ran steps: the window's
    /// work around the steps (sounds, feel, the replay record, the camera).
    pub window_us_median: f64,
}

/// One stretch of play with the dirty optimization on or off, in the scripted report: a
/// run that presses F7 half way has two, and the frame rate reads before and after the
/// switch.
#[derive(Clone, Debug, Serialize)]
pub struct PhaseReport {
    /// Whether the dirty optimization was on.
    pub tracking: bool,
    /// Frames of play in the stretch.
    pub frames: u64,
    /// Median time from one frame to the next, milliseconds: the game's CPU time, the buffer
    /// swap (where a software OpenGL draws the pixels) and a vsync wait, and whatever else the
    /// machine ran meanwhile. 16.7 is 60 frames a second.
    pub frame_ms_median: f64,
    /// Frames a second, from `frame_ms_median`.
    pub fps: f64,
    /// Median CPU time of the game's own frame (input, update, render; before the swap),
    /// milliseconds.
    pub cpu_frame_ms_median: f64,
    /// Median time of the frame's update (its steps, the window's work around them),
    /// milliseconds.
    pub update_ms_median: f64,
    /// `update_ms_median` over `frame_ms_median`: the update's share of the frame.
    pub update_share: f64,
    /// Median time of one step (`Sim::step`), microseconds.
    pub step_us_median: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_frame_is_left_out_and_quantiles_follow_the_rest() {
        let mut times = ScriptTiming::default();
        let ms = Duration::from_millis;
        times.record(ms(500), ms(400), ms(100));
        for i in 1..=100 {
            times.record(ms(10 + i), ms(i), ms(5));
        }
        let r = times.report();
        assert_eq!(r.timed_frames, 100);
        // Ranks round((100 - 1) * p) of 1..=100 ms: the 51st (p50) and the 99th values.
        assert!(
            (r.update_us_median - 51_000.0).abs() <= 51_000.0 / 64.0,
            "{r:?}"
        );
        assert!(
            (r.update_us_p99 - 99_000.0).abs() <= 99_000.0 / 64.0,
            "{r:?}"
        );
        assert!(
            (r.frame_us_median - 61_000.0).abs() <= 61_000.0 / 64.0,
            "{r:?}"
        );
        assert!((r.render_us_p99 - 5_000.0).abs() <= 5_000.0 / 64.0, "{r:?}");
        assert!(
            (r.frame_us_max - 110_000.0).abs() <= 110_000.0 / 64.0,
            "{r:?}"
        );
    }

    #[test]
    fn each_switch_of_the_optimization_starts_a_stretch_of_its_own() {
        let mut times = ScriptTiming::default();
        let ms = Duration::from_millis;
        let play = |tracking, interval, update| PlayFrame {
            tracking,
            interval: ms(interval),
            cpu: ms(update + 1),
            update: ms(update),
            step: Some(ms(update)),
        };
        for i in 0..20 {
            times.record(ms(30), ms(25), ms(1));
            times.record_play(play(i >= 10, if i < 10 { 40 } else { 16 }, 25));
        }
        let phases = times.phases();
        assert_eq!(phases.len(), 2, "{phases:?}");
        // The first frame is left out.
        assert_eq!((phases[0].tracking, phases[0].frames), (false, 9));
        assert_eq!((phases[1].tracking, phases[1].frames), (true, 10));
        assert!((phases[0].fps - 25.0).abs() < 0.5, "{phases:?}");
        assert!((phases[1].fps - 62.5).abs() < 1.0, "{phases:?}");
        assert!((phases[0].update_share - 0.625).abs() < 0.02, "{phases:?}");
    }

    #[test]
    fn a_single_frame_reports_zeros() {
        let mut times = ScriptTiming::default();
        times.record(
            Duration::from_millis(3),
            Duration::ZERO,
            Duration::from_millis(2),
        );
        let r = times.report();
        assert_eq!(r.timed_frames, 0);
        assert_eq!((r.frame_us_median, r.render_us_p99), (0.0, 0.0));
    }
}
