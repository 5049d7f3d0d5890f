//! What one frame cost (the stats panel's bars and the profiler's summary read it), how many
//! frames the overlay keeps, and how a time reads (whole microseconds).

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

#[cfg(test)]
mod tests {
    use super::micros;

    #[test]
    fn micros_are_whole_and_grouped_in_thousands() {
        assert_eq!(micros(0.4), "0 µs");
        assert_eq!(micros(999.6), "1,000 µs");
        assert_eq!(micros(16_666.7), "16,667 µs");
        assert_eq!(micros(1_234_567.0), "1,234,567 µs");
    }
}
