//! Sprite atlas: the frame table and animation clips that describe `assets/atlas.png`.
//!
//! The table is plain data (RON on disk) so the simulation side can name clips without knowing
//! how they are drawn; only the render module turns a [`FrameRect`] into a draw call.
//! The art itself is produced by [`crate::art`], a deterministic pixel-art generator run by the
//! `gen-assets` binary.
//! The names of the clips the game plays are built in one place, [`clip_names`], which the
//! generator, the simulation and the renderer share.
//!
//! Architecture Invariant: nothing under `atlas` depends on the graphics/window crate; it is
//! plain data, a pixel buffer and a PNG encoder, so tests and tools run headless.

pub(crate) mod clip_names;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// File name of the frame table inside the assets directory.
pub const ATLAS_RON: &str = "atlas.ron";

/// Pixel rectangle of one frame inside the atlas image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameRect {
    pub x: u16,
    pub y: u16,
    pub w: u16,
    pub h: u16,
}

/// Named sequence of frames played at a fixed rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clip {
    /// Frame names, each a key of [`AtlasData::frames`].
    pub frames: Vec<String>,
    /// Seconds each frame stays on screen.
    pub frame_time: f32,
    /// Whether the clip restarts after its last frame (otherwise it holds the last frame).
    pub looping: bool,
}

/// Frame table of the sprite atlas, as stored in `assets/atlas.ron`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtlasData {
    /// Image file name, relative to the directory holding the table (`"atlas.png"`).
    pub image: String,
    /// Edge of one grid tile in pixels (16).
    pub tile: u16,
    pub frames: BTreeMap<String, FrameRect>,
    pub clips: BTreeMap<String, Clip>,
}

/// Failure to load or validate the atlas frame table.
#[derive(Debug, thiserror::Error)]
pub enum AtlasError {
    // Each message carries its cause, so none is also given as a `source` (printed twice by
    // `{:#}`).
    #[error("cannot read {}: {error}", .path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}:{line}:{col}: {message}", .path.display())]
    Parse {
        path: PathBuf,
        line: usize,
        col: usize,
        message: String,
    },
    /// The image is not a PNG the game can use: truncated, corrupt, or too large.
    #[error("{} is not a usable PNG: {message}", .path.display())]
    Image { path: PathBuf, message: String },
    #[error("clip `{clip}` has no frames")]
    EmptyClip { clip: String },
    #[error("clip `{clip}` has a non-positive or non-finite frame_time {frame_time}")]
    BadFrameTime { clip: String, frame_time: f32 },
    #[error("clip `{clip}` names frame `{frame}`, which is not in the frame table")]
    MissingFrame { clip: String, frame: String },
    #[error("frame `{frame}` ({rect:?}) lies outside the {width}x{height} image")]
    OutOfBounds {
        frame: String,
        rect: FrameRect,
        width: u32,
        height: u32,
    },
}

impl AtlasData {
    /// Parse a frame table from RON text (no validation beyond the schema).
    ///
    /// ```
    /// use game::atlas::AtlasData;
    ///
    /// let text = r#"(image: "atlas.png", tile: 16,
    ///     frames: { "coin_0": (x: 0, y: 0, w: 16, h: 16) },
    ///     clips: { "coin": (frames: ["coin_0"], frame_time: 0.1, looping: true) })"#;
    /// let atlas = AtlasData::from_ron(text).unwrap();
    /// assert_eq!(atlas.frame("coin_0").map(|r| r.w), Some(16));
    /// assert!(atlas.validate().is_ok());
    /// ```
    pub fn from_ron(text: &str) -> Result<Self, AtlasError> {
        Self::parse(text, Path::new("<string>"))
    }

    /// Read `atlas.ron` from `assets_dir`, then validate it against the image it names.
    ///
    /// Only the PNG header is read, to learn the image size: enough for `check`, which needs the
    /// crate skins. Whatever draws or simulates uses [`load_with_image`](Self::load_with_image).
    pub fn load(assets_dir: &Path) -> Result<Self, AtlasError> {
        let (data, image_path) = Self::load_table(assets_dir)?;
        let (width, height) = png_size(&image_path)?;
        data.validate_within(width, height)?;
        Ok(data)
    }

    /// Read `atlas.ron` from `assets_dir` and decode the whole image it names, then validate the
    /// table against it: a truncated or corrupt image is an error here, not a blank texture
    /// later. The window and `crate-room sim` load the atlas this way.
    pub fn load_with_image(assets_dir: &Path) -> Result<(Self, RgbaImage), AtlasError> {
        let (data, image_path) = Self::load_table(assets_dir)?;
        let image = RgbaImage::load(&image_path)?;
        data.validate_within(image.width, image.height)?;
        Ok((data, image))
    }

    /// The parsed `atlas.ron` and the path of the image it names.
    fn load_table(assets_dir: &Path) -> Result<(Self, PathBuf), AtlasError> {
        let path = assets_dir.join(ATLAS_RON);
        let io_error = |error| AtlasError::Io {
            path: path.clone(),
            error,
        };
        let bytes = crate::fsutil::read_bounded(&path, MAX_TABLE_BYTES).map_err(|e| match e {
            crate::fsutil::BoundedReadError::Io(e) => io_error(e),
            too_large => io_error(std::io::Error::other(too_large)),
        })?;
        let text = String::from_utf8(bytes)
            .map_err(|e| io_error(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
        let data = Self::parse(&text, &path)?;
        let image_path = assets_dir.join(&data.image);
        Ok((data, image_path))
    }

    fn parse(text: &str, path: &Path) -> Result<Self, AtlasError> {
        ron::from_str(text).map_err(|e: ron::error::SpannedError| AtlasError::Parse {
            path: path.to_path_buf(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })
    }

    /// Check that every clip is playable: non-empty, positive frame time, and every frame it
    /// names exists in the frame table.
    pub fn validate(&self) -> Result<(), AtlasError> {
        for (name, clip) in &self.clips {
            if clip.frames.is_empty() {
                return Err(AtlasError::EmptyClip { clip: name.clone() });
            }
            if !(clip.frame_time.is_finite() && clip.frame_time > 0.0) {
                return Err(AtlasError::BadFrameTime {
                    clip: name.clone(),
                    frame_time: clip.frame_time,
                });
            }
            if let Some(missing) = clip.frames.iter().find(|f| !self.frames.contains_key(*f)) {
                return Err(AtlasError::MissingFrame {
                    clip: name.clone(),
                    frame: missing.clone(),
                });
            }
        }
        Ok(())
    }

    /// [`validate`](Self::validate), plus check that every frame lies inside a
    /// `width` x `height` image.
    pub fn validate_within(&self, width: u32, height: u32) -> Result<(), AtlasError> {
        self.validate()?;
        for (name, &rect) in &self.frames {
            let right = u32::from(rect.x) + u32::from(rect.w);
            let bottom = u32::from(rect.y) + u32::from(rect.h);
            if rect.w == 0 || rect.h == 0 || right > width || bottom > height {
                return Err(AtlasError::OutOfBounds {
                    frame: name.clone(),
                    rect,
                    width,
                    height,
                });
            }
        }
        Ok(())
    }

    /// Look up a clip by name.
    pub fn clip(&self, name: &str) -> Option<&Clip> {
        self.clips.get(name)
    }

    /// Look up a frame rectangle by name.
    pub fn frame(&self, name: &str) -> Option<FrameRect> {
        self.frames.get(name).copied()
    }

    /// Every skin a crate can use (see [`has_crate_skin`](Self::has_crate_skin)), in name order:
    /// the list a level's skins are checked against.
    pub fn crate_skins(&self) -> Vec<&str> {
        self.clips
            .keys()
            .filter_map(|clip| clip_names::crate_skin_of_idle(clip))
            .filter(|skin| self.has_crate_skin(skin))
            .collect()
    }

    /// Whether `skin` can be used for a crate: it needs every clip of
    /// [`crate_skin_clips`](clip_names::crate_skin_clips): `{skin}_idle` and `{skin}_hit` at
    /// every crack stage (`{skin}_idle_cracks1` ...) and `{skin}_explode`.
    pub fn has_crate_skin(&self, skin: &str) -> bool {
        clip_names::crate_skin_clips(skin)
            .iter()
            .all(|clip| self.clips.contains_key(clip))
    }
}

/// A decoded PNG (the atlas image; the window tests read screenshots with it): RGBA8 pixels,
/// row by row from the top.
#[derive(Clone, PartialEq, Eq)]
pub struct RgbaImage {
    pub width: u32,
    pub height: u32,
    /// `width * height * 4` bytes.
    pub pixels: Vec<u8>,
}

impl std::fmt::Debug for RgbaImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RgbaImage({} x {})", self.width, self.height)
    }
}

impl RgbaImage {
    /// Decode the PNG file at `path` into RGBA8, refusing (never panicking on) a truncated,
    /// corrupt or oversized file, and anything but a regular file.
    pub fn load(path: &Path) -> Result<Self, AtlasError> {
        let bad = |message: String| AtlasError::Image {
            path: path.to_path_buf(),
            message,
        };
        let mut reader = png_reader(path)?;
        reader.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
        let mut reader = reader.read_info().map_err(|e| bad(e.to_string()))?;
        let (width, height) = (reader.info().width, reader.info().height);
        // Checked before the pixel buffer is allocated: the header alone decides its size.
        if width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE {
            return Err(bad(format!(
                "{width} x {height} pixels; at most {MAX_IMAGE_SIDE} x {MAX_IMAGE_SIDE} are read"
            )));
        }
        // The sides are capped above, so the size cannot overflow.
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader
            .next_frame(&mut pixels)
            .map_err(|e| bad(e.to_string()))?;
        if info.bit_depth != png::BitDepth::Eight || info.color_type != png::ColorType::Rgba {
            return Err(bad(format!(
                "expected 8-bit RGBA after expansion, got {:?} {:?}",
                info.bit_depth, info.color_type
            )));
        }
        pixels.truncate(info.buffer_size());
        Ok(Self {
            width: info.width,
            height: info.height,
            pixels,
        })
    }
}

/// Largest image side [`RgbaImage::load`] decodes, in pixels: 4096 x 4096 x 4 bytes = 64 MiB,
/// far above the 256 x 128 atlas the generator draws, and within every OpenGL driver's texture
/// limit.
pub const MAX_IMAGE_SIDE: u32 = 4096;

/// Largest `atlas.ron` read: the generated table is about 10 KB.
const MAX_TABLE_BYTES: u64 = 4 * 1024 * 1024;

/// Largest `atlas.png` read: a PNG of [`MAX_IMAGE_SIDE`] squared pixels that compressed
/// nothing, with room for its chunks.
const MAX_IMAGE_FILE_BYTES: u64 = (MAX_IMAGE_SIDE as u64).pow(2) * 4 + (1 << 20);

/// A PNG decoder on the bytes of the regular file at `path` (read through
/// [`crate::fsutil::read_bounded`], the one gate every platform's files are read through).
fn png_reader(path: &Path) -> Result<png::Decoder<std::io::Cursor<Vec<u8>>>, AtlasError> {
    let bytes = crate::fsutil::read_bounded(path, MAX_IMAGE_FILE_BYTES).map_err(|e| match e {
        crate::fsutil::BoundedReadError::Io(error) => AtlasError::Io {
            path: path.to_path_buf(),
            error,
        },
        too_large @ crate::fsutil::BoundedReadError::TooLarge { .. } => AtlasError::Image {
            path: path.to_path_buf(),
            message: too_large.to_string(),
        },
    })?;
    Ok(png::Decoder::new(std::io::Cursor::new(bytes)))
}

/// Read the width and height from a PNG header.
fn png_size(path: &Path) -> Result<(u32, u32), AtlasError> {
    let reader = png_reader(path)?
        .read_info()
        .map_err(|e| AtlasError::Image {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    let info = reader.info();
    Ok((info.width, info.height))
}

#[cfg(test)]
mod tests {
    use super::clip_names::{CRATE_SKINS, CrateState, Facing};
    use super::*;

    fn assets_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets")
    }

    fn committed() -> AtlasData {
        match AtlasData::load(&assets_dir()) {
            Ok(atlas) => atlas,
            Err(e) => panic!("committed atlas does not load: {e}"),
        }
    }

    fn sample() -> AtlasData {
        let text = r#"(image: "atlas.png", tile: 16,
            frames: { "a": (x: 0, y: 0, w: 16, h: 16), "b": (x: 16, y: 0, w: 16, h: 16) },
            clips: { "ab": (frames: ["a", "b"], frame_time: 0.1, looping: false) })"#;
        AtlasData::from_ron(text).unwrap()
    }

    #[test]
    fn committed_atlas_parses_and_validates_against_its_image() {
        let atlas = committed();
        assert_eq!(atlas.image, "atlas.png");
        assert_eq!(atlas.tile, 16);
    }

    #[test]
    fn committed_atlas_has_every_clip_the_game_plays() {
        let atlas = committed();
        let missing: Vec<_> = clip_names::all()
            .into_iter()
            .filter(|name| atlas.clip(name).is_none())
            .collect();
        assert!(missing.is_empty(), "missing clips: {missing:?}");
    }

    #[test]
    fn clips_have_the_promised_length_and_looping() {
        let atlas = committed();
        let expect = |name: &str, min_frames: usize, looping: bool| {
            let clip = atlas.clip(name).unwrap();
            assert!(clip.frames.len() >= min_frames, "{name} is too short");
            assert_eq!(clip.looping, looping, "{name} looping");
        };
        for facing in Facing::ALL {
            expect(&clip_names::player_idle(facing), 2, true);
            expect(&clip_names::player_walk(facing), 4, true);
            expect(&clip_names::player_attack(facing), 3, false);
            expect(&clip_names::slash(facing), 2, false);
        }
        for skin in CRATE_SKINS {
            for stage in 0..=clip_names::CRACK_STAGES {
                let staged = |state| clip_names::cracked_crate_clip(skin, state, stage);
                expect(&staged(CrateState::Idle), 1, true);
                expect(&staged(CrateState::Hit), 4, false);
            }
            expect(&clip_names::crate_clip(skin, CrateState::Explode), 5, false);
        }
        expect(clip_names::DEBRIS, 4, true);
        expect(clip_names::COIN, 6, true);
    }

    #[test]
    fn both_crate_skins_are_complete_and_unknown_skins_are_not() {
        let atlas = committed();
        for skin in CRATE_SKINS {
            assert!(atlas.has_crate_skin(skin), "{skin}");
        }
        assert!(!atlas.has_crate_skin("barrel"));
        assert_eq!(atlas.crate_skins(), CRATE_SKINS);
    }

    #[test]
    fn a_skin_missing_a_crack_stage_is_not_offered_to_levels() {
        let mut atlas = committed();
        let stage = clip_names::cracked_crate_clip(
            clip_names::STRONG_CRATE,
            CrateState::Hit,
            clip_names::CRACK_STAGES,
        );
        assert!(atlas.clips.remove(&stage).is_some());
        assert!(!atlas.has_crate_skin(clip_names::STRONG_CRATE));
        assert_eq!(
            atlas.crate_skins(),
            [clip_names::PLAIN_CRATE, clip_names::KEG]
        );
    }

    #[test]
    fn the_hit_flash_lasts_100_ms_at_every_crack_stage() {
        // The first two hit frames are the white flash: 2 x 0.05 s.
        let atlas = committed();
        for skin in atlas.crate_skins() {
            for stage in 0..=clip_names::CRACK_STAGES {
                let name = clip_names::cracked_crate_clip(skin, CrateState::Hit, stage);
                let clip = atlas.clip(&name).unwrap();
                assert!((clip.frame_time * 2.0 - 0.1).abs() < 1e-6, "{name}");
            }
        }
    }

    #[test]
    fn parse_error_carries_line_and_column() {
        let err = AtlasData::from_ron("(image: \"atlas.png\",\n tile: oops)").unwrap_err();
        assert!(err.to_string().starts_with("<string>:2:"), "{err}");
        match err {
            // ron points at the value (or the gap just before it), never at line 1.
            AtlasError::Parse { line, col, .. } => assert!(line == 2 && (7..=8).contains(&col)),
            other => panic!("expected a parse error, got {other}"),
        }
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let text = r#"(image: "atlas.png", tile: 16, frames: {}, clips: {}, extra: 1)"#;
        assert!(matches!(
            AtlasData::from_ron(text),
            Err(AtlasError::Parse { .. })
        ));
    }

    #[test]
    fn load_error_names_the_missing_file() {
        let dir = Path::new("/nonexistent/crate-room-assets");
        let message = AtlasData::load(dir).unwrap_err().to_string();
        assert!(
            message.contains("/nonexistent/crate-room-assets/atlas.ron"),
            "{message}"
        );
    }

    #[test]
    fn clip_naming_an_absent_frame_fails_validation() {
        let mut atlas = sample();
        atlas.frames.remove("b");
        let err = atlas.validate().unwrap_err();
        assert!(matches!(err, AtlasError::MissingFrame { ref frame, .. } if frame == "b"));
    }

    #[test]
    fn empty_clip_and_zero_frame_time_fail_validation() {
        let mut atlas = sample();
        atlas.clips.get_mut("ab").unwrap().frame_time = 0.0;
        assert!(matches!(
            atlas.validate(),
            Err(AtlasError::BadFrameTime { .. })
        ));
        atlas.clips.get_mut("ab").unwrap().frames.clear();
        assert!(matches!(
            atlas.validate(),
            Err(AtlasError::EmptyClip { .. })
        ));
    }

    #[test]
    fn frame_outside_the_image_fails_validation() {
        let atlas = sample();
        assert!(atlas.validate_within(32, 16).is_ok());
        assert!(matches!(
            atlas.validate_within(24, 16),
            Err(AtlasError::OutOfBounds { ref frame, .. }) if frame == "b"
        ));
    }
}
