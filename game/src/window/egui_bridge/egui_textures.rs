//! egui's textures on the GPU: a delta either makes a whole texture or patches part of one.

use std::collections::HashMap;

use egui::epaint::{ImageData, ImageDelta};
use egui::{TextureFilter, TextureId};
use macroquad::texture::{FilterMode, Image, Texture2D};

/// Apply one of egui's texture deltas to `textures`.
pub(super) fn set_texture(
    textures: &mut HashMap<TextureId, Texture2D>,
    id: TextureId,
    delta: &ImageDelta,
) {
    let ImageData::Color(image) = &delta.image;
    let [width, height] = image.size;
    let (Ok(width), Ok(height)) = (u16::try_from(width), u16::try_from(height)) else {
        macroquad::logging::warn!("egui texture {id:?} is too large: {width}x{height}");
        return;
    };
    let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
    match delta.pos {
        None => {
            let texture = Texture2D::from_rgba8(width, height, &bytes);
            texture.set_filter(filter_mode(delta.options.magnification));
            textures.insert(id, texture);
        }
        Some([x, y]) => {
            // egui only patches textures it created earlier; a missing one means a delta
            // was lost, and drawing without it is the best we can do.
            let Some(texture) = textures.get(&id) else {
                return;
            };
            let patch = Image {
                bytes,
                width,
                height,
            };
            texture.update_part(
                &patch,
                x as i32,
                y as i32,
                i32::from(width),
                i32::from(height),
            );
        }
    }
}

fn filter_mode(filter: TextureFilter) -> FilterMode {
    match filter {
        TextureFilter::Nearest => FilterMode::Nearest,
        TextureFilter::Linear => FilterMode::Linear,
    }
}
