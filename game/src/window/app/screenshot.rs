//! Saving the current frame as a PNG.

use std::path::Path;

use macroquad::prelude::get_screen_data;

use crate::fsutil::WriteError;
use crate::output::{Output, write};

/// Write the frame drawn so far to `path` as an RGBA PNG, through the game's output gate
/// ([`crate::output::write`]).
///
/// # Errors
/// If the file cannot be written.
pub fn save(path: &Path) -> Result<(), WriteError> {
    let image = get_screen_data();
    let (w, h) = (u32::from(image.width), u32::from(image.height));
    // The GL framebuffer's first row is the bottom of the screen.
    let row = w as usize * 4;
    let mut flipped = Vec::with_capacity(image.bytes.len());
    for y in (0..h as usize).rev() {
        flipped.extend_from_slice(&image.bytes[y * row..(y + 1) * row]);
    }
    let png = encode(w, h, &flipped).map_err(|e| WriteError {
        path: path.to_owned(),
        message: format!("cannot encode the PNG: {e}"),
    })?;
    write(path, Output::Other, &png)
}

/// The mean brightness of the frame drawn so far: the mean over its pixels of (R + G + B) / 3,
/// 0 (black) to 255 (white). Every fourth pixel of every fourth row is read, plenty for a
/// whole-screen flash.
pub fn mean_brightness() -> f32 {
    let image = get_screen_data();
    let (w, h) = (usize::from(image.width), usize::from(image.height));
    let (mut sum, mut n) = (0u64, 0u64);
    for y in (0..h).step_by(4) {
        for x in (0..w).step_by(4) {
            let p = &image.bytes[(y * w + x) * 4..(y * w + x) * 4 + 3];
            sum += u64::from(p[0]) + u64::from(p[1]) + u64::from(p[2]);
            n += 3;
        }
    }
    if n == 0 { 0.0 } else { sum as f32 / n as f32 }
}

/// An RGBA image as PNG bytes.
fn encode(w: u32, h: u32, rgba: &[u8]) -> Result<Vec<u8>, png::EncodingError> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(rgba)?;
    writer.finish()?;
    Ok(bytes)
}
