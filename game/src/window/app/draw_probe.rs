//! The world pass's draw-call count, read from macroquad's own telemetry.

/// Counts the world pass's draw calls with macroquad's own telemetry: a capture is requested,
/// the next frame's draw calls are recorded until the world pass ends, and the count is read
/// the frame after.
#[derive(Debug, Default)]
pub(super) struct DrawCallProbe {
    requested_at: Option<u64>,
    /// The count last read.
    pub world_draw_calls: Option<usize>,
}

impl DrawCallProbe {
    /// Read the count requested two frames ago, or request one if `want`.
    pub fn begin_frame(&mut self, frame: u64, want: bool) {
        match self.requested_at {
            Some(at) if frame >= at + 2 => {
                self.world_draw_calls = Some(macroquad::telemetry::drawcalls().len());
                self.requested_at = None;
            }
            Some(_) => {}
            None if want => {
                macroquad::telemetry::capture_frame();
                self.requested_at = Some(frame);
            }
            None => {}
        }
    }

    /// Call right after the world pass: stops recording, so HUD and overlay calls are not counted.
    pub fn end_world_pass(&self) {
        macroquad::telemetry::pause_gl_capture();
    }
}
