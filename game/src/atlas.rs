//! Sprite atlas: the frame table and animation clips that describe `assets/atlas.png`.
//!
//! The table is plain data (RON on disk) so the simulation side can name clips without knowing
//! how they are drawn; only the render module turns a [`FrameRect`] into a macroquad draw call.
//! The art itself is produced by [`generate`], a deterministic pixel-art generator run by the
//! `gen-assets` binary.
//!
//! Architecture Invariant: this module and its children never import macroquad.

pub mod canvas;
pub mod generate;
pub mod palette;
mod sprites;

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
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}:{col}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        col: usize,
        message: String,
    },
    #[error("cannot read the header of {path}: {source}")]
    Image {
        path: PathBuf,
        #[source]
        source: png::DecodingError,
    },
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
    pub fn from_ron(text: &str) -> Result<Self, AtlasError> {
        Self::parse(text, Path::new("<string>"))
    }

    /// Read `atlas.ron` from `assets_dir`, then validate it against the image it names.
    ///
    /// Only the PNG header is read, to learn the image size; decoding pixels is the renderer's job.
    pub fn load(assets_dir: &Path) -> Result<Self, AtlasError> {
        let path = assets_dir.join(ATLAS_RON);
        let text = std::fs::read_to_string(&path).map_err(|source| AtlasError::Io {
            path: path.clone(),
            source,
        })?;
        let data = Self::parse(&text, &path)?;
        let image_path = assets_dir.join(&data.image);
        let (width, height) = png_size(&image_path)?;
        data.validate_within(width, height)?;
        Ok(data)
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

    /// Whether `skin` can be used for a crate: it needs `{skin}_idle`, `{skin}_hit` and
    /// `{skin}_explode` clips.
    pub fn has_crate_skin(&self, skin: &str) -> bool {
        ["idle", "hit", "explode"]
            .iter()
            .all(|state| self.clips.contains_key(&format!("{skin}_{state}")))
    }
}

/// Read the width and height from a PNG header.
fn png_size(path: &Path) -> Result<(u32, u32), AtlasError> {
    let file = std::fs::File::open(path).map_err(|source| AtlasError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let reader = decoder.read_info().map_err(|source| AtlasError::Image {
        path: path.to_path_buf(),
        source,
    })?;
    let info = reader.info();
    Ok((info.width, info.height))
}
