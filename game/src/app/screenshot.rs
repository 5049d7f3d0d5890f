//! Saving the current frame as a PNG.

use std::path::Path;

use macroquad::prelude::get_screen_data;

/// Write the frame drawn so far to `path` as an RGBA PNG.
///
/// # Errors
/// If the file cannot be written.
pub fn save(path: &Path) -> Result<(), std::io::Error> {
    let image = get_screen_data();
    let (w, h) = (u32::from(image.width), u32::from(image.height));
    // The GL framebuffer's first row is the bottom of the screen.
    let row = w as usize * 4;
    let mut flipped = Vec::with_capacity(image.bytes.len());
    for y in (0..h as usize).rev() {
        flipped.extend_from_slice(&image.bytes[y * row..(y + 1) * row]);
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer
        .write_image_data(&flipped)
        .map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}
