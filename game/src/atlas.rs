//! TEMPORARY stand-in for the atlas module (replaced by the art branch).
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameRect {
    pub x: u16,
    pub y: u16,
    pub w: u16,
    pub h: u16,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clip {
    pub frames: Vec<String>,
    pub frame_time: f32,
    pub looping: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AtlasData {
    pub image: String,
    pub tile: u16,
    pub frames: BTreeMap<String, FrameRect>,
    pub clips: BTreeMap<String, Clip>,
}

#[derive(Debug, thiserror::Error)]
#[error("atlas error: {0}")]
pub struct AtlasError(String);

impl AtlasData {
    pub fn load(dir: &Path) -> Result<Self, AtlasError> {
        let text = std::fs::read_to_string(dir.join("atlas.ron"))
            .map_err(|e| AtlasError(e.to_string()))?;
        ron::from_str(&text).map_err(|e| AtlasError(e.to_string()))
    }
    pub fn clip(&self, name: &str) -> Option<&Clip> {
        self.clips.get(name)
    }
    pub fn frame(&self, name: &str) -> Option<FrameRect> {
        self.frames.get(name).copied()
    }
    pub fn has_crate_skin(&self, skin: &str) -> bool {
        ["idle", "hit", "explode"]
            .iter()
            .all(|s| self.clips.contains_key(&format!("{skin}_{s}")))
    }
    /// Test helper: a synthetic atlas with every clip the game needs.
    pub fn synthetic() -> Self {
        let mut frames = BTreeMap::new();
        let mut clips = BTreeMap::new();
        let mut add = |name: &str, n: usize, looping: bool| {
            let mut names = Vec::new();
            for i in 0..n {
                let f = format!("{name}_{i}");
                let k = frames.len() as u16;
                frames.insert(
                    f.clone(),
                    FrameRect {
                        x: (k % 16) * 16,
                        y: (k / 16) * 16,
                        w: 16,
                        h: 16,
                    },
                );
                names.push(f);
            }
            clips.insert(
                name.to_string(),
                Clip {
                    frames: names,
                    frame_time: 0.1,
                    looping,
                },
            );
        };
        for d in ["down", "up", "left", "right"] {
            add(&format!("player_idle_{d}"), 2, true);
            add(&format!("player_walk_{d}"), 4, true);
            add(&format!("player_attack_{d}"), 3, false);
            add(&format!("slash_{d}"), 3, false);
        }
        for s in ["crate", "crate_strong"] {
            add(&format!("{s}_idle"), 1, true);
            add(&format!("{s}_hit"), 3, false);
            add(&format!("{s}_explode"), 5, false);
        }
        add("debris", 4, true);
        add("coin", 6, true);
        add("shadow", 1, true);
        for i in 0..4 {
            add(&format!("floor_{i}"), 1, true);
            add(&format!("wall_{i}"), 1, true);
        }
        Self {
            image: "atlas.png".into(),
            tile: 16,
            frames,
            clips,
        }
    }
}
