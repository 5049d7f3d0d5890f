//! The sprite sheet being packed: frames added clip by clip in rows, then laid out on a grid of
//! tiles and described by the frame table the game loads ([`AtlasData`]).

use std::collections::BTreeMap;

use super::canvas::Canvas;
use crate::atlas::{AtlasData, Clip, FrameRect};

/// Edge of one grid tile in pixels.
pub const TILE: u16 = 16;
/// Atlas width in pixels: 16 tiles, a power of two.
pub const ATLAS_WIDTH: u16 = 16 * TILE;
/// File name of the generated image.
pub const ATLAS_PNG: &str = "atlas.png";

/// Frames waiting to be packed, grouped in rows so related clips stay next to each other.
#[derive(Debug, Default)]
pub struct SheetBuilder {
    rows: Vec<Vec<(String, Canvas)>>,
    clips: BTreeMap<String, Clip>,
}

impl SheetBuilder {
    /// Start a new grid row for the clips that follow.
    pub fn new_row(&mut self) {
        self.rows.push(Vec::new());
    }

    /// Add a clip and its frames. A one-frame clip's frame shares the clip's name; otherwise
    /// frames are named `{clip}_{index}`.
    pub fn clip(&mut self, name: &str, frames: Vec<Canvas>, frame_time: f32, looping: bool) {
        let names: Vec<String> = if frames.len() == 1 {
            vec![name.to_owned()]
        } else {
            (0..frames.len()).map(|i| format!("{name}_{i}")).collect()
        };
        let per_row = usize::from(ATLAS_WIDTH / TILE);
        for (frame_name, canvas) in names.iter().cloned().zip(frames) {
            if self.rows.last().is_none_or(|row| row.len() == per_row) {
                self.new_row();
            }
            if let Some(row) = self.rows.last_mut() {
                row.push((frame_name, canvas));
            }
        }
        self.clips.insert(
            name.to_owned(),
            Clip {
                frames: names,
                frame_time,
                looping,
            },
        );
    }

    /// Pack every frame on the tile grid; the height is rounded up to a power of two.
    pub fn pack(self) -> (Canvas, AtlasData) {
        let rows: Vec<_> = self.rows.into_iter().filter(|r| !r.is_empty()).collect();
        let used = rows.len() * usize::from(TILE);
        let height = used.next_power_of_two().max(usize::from(TILE));
        let mut image = Canvas::new(usize::from(ATLAS_WIDTH), height);
        let mut frames = BTreeMap::new();
        for (row_index, row) in (0u16..).zip(rows) {
            for (col_index, (name, canvas)) in (0u16..).zip(row) {
                let (x, y) = (col_index * TILE, row_index * TILE);
                image.draw(&canvas, i32::from(x), i32::from(y));
                let rect = FrameRect {
                    x,
                    y,
                    w: TILE,
                    h: TILE,
                };
                frames.insert(name, rect);
            }
        }
        let data = AtlasData {
            image: ATLAS_PNG.to_owned(),
            tile: TILE,
            frames,
            clips: self.clips,
        };
        (image, data)
    }
}
