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
pub(super) struct FrameTimes {
    seen: u64,
    frame: TimeHistogram,
    update: TimeHistogram,
    render: TimeHistogram,
    step: TimeHistogram,
    window: TimeHistogram,
}

impl FrameTimes {
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
    /// Left out on the first frame, as in [`FrameTimes::record`].
    pub(super) fn record_steps(&mut self, step: Duration, window: Duration) {
        if self.seen > 1 {
            self.step.record(step);
            self.window.record(window);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_frame_is_left_out_and_quantiles_follow_the_rest() {
        let mut times = FrameTimes::default();
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
    fn a_single_frame_reports_zeros() {
        let mut times = FrameTimes::default();
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
