//! What every sprite is drawn with: the tile size, a blank canvas, and colour blending.

use crate::art::canvas::Canvas;
use crate::art::colors::Rgb;

const SIZE: usize = 16;

pub(super) fn blank() -> Canvas {
    Canvas::new(SIZE, SIZE)
}

/// Linear blend from `a` (t = 0) to `b` (t = 1).
pub(super) fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let lerp = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    [lerp(a[0], b[0]), lerp(a[1], b[1]), lerp(a[2], b[2])]
}
