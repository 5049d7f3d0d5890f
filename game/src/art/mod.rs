//! The generator behind `gen-assets`: it draws every sprite, packs the frames on a grid, and
//! encodes the PNG and the RON frame table into `assets/`; [`synth`] does the same for the sound
//! effects. The game only reads those files ([`crate::atlas`], [`crate::sfx`]).
//!
//! Same input, same bytes: no clock, no unseeded randomness (texture noise is a hash of the pixel
//! position), and the frame table is a `BTreeMap`, so the committed `assets/` can be checked
//! against a fresh run.

pub mod canvas;
pub mod colors;
mod sheet;
mod sprites;
pub mod synth;

use std::path::Path;

use canvas::Canvas;
use sheet::SheetBuilder;
pub use sheet::{ATLAS_PNG, ATLAS_WIDTH, TILE};

use crate::atlas::{ATLAS_RON, AtlasData};

/// Generated atlas: the encoded image, the frame table, and its RON text.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedAtlas {
    pub png: Vec<u8>,
    pub ron: String,
    pub data: AtlasData,
}

/// Failure to encode or write the generated atlas.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error("cannot encode the atlas image: {0}")]
    Png(#[from] png::EncodingError),
    #[error("cannot serialise the frame table: {0}")]
    Ron(#[from] ron::Error),
    #[error("cannot write {path}: {source}")]
    Write {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn draw_sheet() -> (Canvas, AtlasData) {
    let mut sheet = SheetBuilder::default();
    sprites::draw_all(&mut sheet);
    sheet.pack()
}

/// Draw the atlas image without encoding it (for previews and pixel tests).
pub fn draw_atlas() -> Canvas {
    draw_sheet().0
}

/// Draw, pack and encode the whole atlas. Pure: the result depends on nothing but this code.
pub fn generate() -> Result<GeneratedAtlas, GenerateError> {
    let (image, data) = draw_sheet();
    let png = encode_png(&image)?;
    // Depth 2 puts one frame or clip per line, which keeps diffs of the table readable.
    let config = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .depth_limit(2);
    let mut ron = ron::ser::to_string_pretty(&data, config)?;
    ron.push('\n');
    Ok(GeneratedAtlas { png, ron, data })
}

/// Generate the atlas and write `atlas.png` and `atlas.ron` into `dir`.
pub fn write_to(dir: &Path) -> Result<GeneratedAtlas, GenerateError> {
    let atlas = generate()?;
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|source| GenerateError::Write { path, source })
    };
    write(ATLAS_PNG, &atlas.png)?;
    write(ATLAS_RON, atlas.ron.as_bytes())?;
    Ok(atlas)
}

/// Encode a canvas as an RGBA8 PNG.
pub fn encode_png(image: &Canvas) -> Result<Vec<u8>, png::EncodingError> {
    let mut bytes = Vec::new();
    let (w, h) = (image.width() as u32, image.height() as u32);
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&image.to_bytes())?;
    writer.finish()?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::art::colors;
    use crate::atlas::FrameRect;
    use crate::atlas::clip_names::{self, CrateState, Facing};

    #[test]
    fn generator_output_is_byte_identical_across_runs() {
        let first = generate().unwrap();
        let second = generate().unwrap();
        assert_eq!(first.png, second.png);
        assert_eq!(first.ron, second.ron);
    }

    #[test]
    fn committed_assets_match_the_generator() {
        // Fails when the art code changed without `cargo run -p game --bin gen-assets`.
        let fresh = generate().unwrap();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets");
        let ron = std::fs::read_to_string(dir.join(crate::atlas::ATLAS_RON)).unwrap();
        let png = std::fs::read(dir.join(ATLAS_PNG)).unwrap();
        assert!(
            ron == fresh.ron,
            "assets/atlas.ron is stale; run gen-assets"
        );
        assert!(
            png == fresh.png,
            "assets/atlas.png is stale; run gen-assets"
        );
    }

    #[test]
    fn generated_ron_round_trips_and_validates() {
        let atlas = generate().unwrap();
        let parsed = AtlasData::from_ron(&atlas.ron).unwrap();
        assert_eq!(parsed, atlas.data);
        let image = draw_atlas();
        parsed
            .validate_within(image.width() as u32, image.height() as u32)
            .unwrap();
        assert!(image.width().is_power_of_two());
    }

    #[test]
    fn frames_never_overlap() {
        let atlas = generate().unwrap().data;
        let rects: Vec<_> = atlas.frames.iter().collect();
        for (i, (a_name, a)) in rects.iter().enumerate() {
            for (b_name, b) in &rects[i + 1..] {
                let apart =
                    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(apart, "{a_name} overlaps {b_name}");
            }
        }
    }

    fn frame_has_colour(image: &Canvas, rect: FrameRect, colour: colors::Rgb) -> bool {
        (rect.y..rect.y + rect.h).any(|y| {
            (rect.x..rect.x + rect.w).any(|x| {
                let c = image.get(i32::from(x), i32::from(y));
                c[3] == 255 && c[..3] == colour
            })
        })
    }

    #[test]
    fn tunic_blue_appears_in_every_player_frame_and_nowhere_else() {
        let image = draw_atlas();
        let atlas = generate().unwrap().data;
        for (name, &rect) in &atlas.frames {
            let is_player = name.starts_with("player_");
            assert_eq!(
                frame_has_colour(&image, rect, colors::PLAYER_BASE),
                is_player,
                "{name}"
            );
        }
    }

    #[test]
    fn key_colours_mark_their_sprites() {
        let image = draw_atlas();
        let atlas = generate().unwrap().data;
        let frame = |name: &str| atlas.frame(name).unwrap();
        for i in 0..clip_names::FLOOR_VARIANTS {
            assert!(frame_has_colour(
                &image,
                frame(&clip_names::floor(i)),
                colors::FLOOR_BASE
            ));
        }
        for i in 0..clip_names::WALL_VARIANTS {
            assert!(frame_has_colour(
                &image,
                frame(&clip_names::wall(i)),
                colors::WALL_BASE
            ));
        }
        for skin in clip_names::CRATE_SKINS {
            for stage in 0..=clip_names::CRACK_STAGES {
                let idle = clip_names::cracked_crate_clip(skin, CrateState::Idle, stage);
                assert!(frame_has_colour(&image, frame(&idle), colors::CRATE_BASE));
            }
        }
        assert!(frame_has_colour(
            &image,
            frame(&atlas.clip(clip_names::COIN).unwrap().frames[0]),
            colors::COIN_BASE
        ));
    }

    #[test]
    fn each_crack_stage_adds_cracks_and_keeps_the_ones_before() {
        let image = draw_atlas();
        let atlas = generate().unwrap().data;
        let dark = |name: &str| -> Vec<(u16, u16)> {
            let rect = atlas.frame(name).unwrap();
            (0..rect.h)
                .flat_map(|y| (0..rect.w).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    let c = image.get(i32::from(rect.x + x), i32::from(rect.y + y));
                    c[3] == 255 && c[..3] == colors::OUTLINE
                })
                .collect()
        };
        for skin in clip_names::CRATE_SKINS {
            let stages: Vec<_> = (0..=clip_names::CRACK_STAGES)
                .map(|stage| {
                    dark(&clip_names::cracked_crate_clip(
                        skin,
                        CrateState::Idle,
                        stage,
                    ))
                })
                .collect();
            for pair in stages.windows(2) {
                assert!(
                    pair[1].len() > pair[0].len() + 3,
                    "{skin}: too few new cracks"
                );
                let kept = pair[0].iter().filter(|p| pair[1].contains(p)).count();
                // The corner chipped off at the last stage takes a little outline with it.
                assert!(kept + 3 >= pair[0].len(), "{skin}: cracks disappeared");
            }
        }
    }

    #[test]
    fn every_slash_frame_covers_exactly_the_disc_a_swing_hits() {
        // The swing hits crates overlapping a disc of SWING_RADIUS about the arc's centre, which
        // is the centre of the sprite: the sprite must show that disc, no more and no less.
        let radius = crate::sim::tuning::SWING_RADIUS;
        let image = draw_atlas();
        let atlas = generate().unwrap().data;
        for facing in Facing::ALL {
            for name in &atlas.clip(&clip_names::slash(facing)).unwrap().frames {
                let rect = atlas.frame(name).unwrap();
                for y in 0..rect.h {
                    for x in 0..rect.w {
                        let (dx, dy) = (
                            f32::from(x) + 0.5 - f32::from(rect.w) / 2.0,
                            f32::from(y) + 0.5 - f32::from(rect.h) / 2.0,
                        );
                        let inside = dx * dx + dy * dy < radius * radius;
                        let a = image.get(i32::from(rect.x + x), i32::from(rect.y + y))[3];
                        assert_eq!(a > 0, inside, "{name} pixel ({x}, {y})");
                    }
                }
            }
        }
    }

    #[test]
    fn shadow_is_translucent_and_sprites_have_transparent_margins() {
        let image = draw_atlas();
        let atlas = generate().unwrap().data;
        let shadow = atlas.frame(clip_names::SHADOW).unwrap();
        let centre = image.get(i32::from(shadow.x) + 8, i32::from(shadow.y) + 13);
        assert!(centre[3] > 0 && centre[3] < 255, "{centre:?}");
        let idle = atlas.clip(&clip_names::player_idle(Facing::Down)).unwrap();
        let corner = atlas.frame(&idle.frames[0]).unwrap();
        assert_eq!(image.get(i32::from(corner.x), i32::from(corner.y))[3], 0);
    }
}
