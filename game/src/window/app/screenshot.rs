//! Saving the current frame as a PNG.

use std::path::Path;

use macroquad::prelude::get_screen_data;

use crate::fsutil::{WriteError, write_atomic};

/// Write the frame drawn so far to `path` as an RGBA PNG, through the game's output gate
/// ([`crate::fsutil::write_atomic`]).
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
    write_atomic(path, &png)
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
