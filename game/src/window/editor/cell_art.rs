//! The sprites the editor draws cells with: for each map character, the atlas frames of its
//! ground (floor or wall, in the variant the game shows at that cell) and what stands on it.

use std::collections::HashMap;

use crate::atlas::clip_names::{self, CrateState, Facing};
use crate::atlas::{AtlasData, FrameRect};
use crate::editor::{Brush, BrushKind};
use crate::level::Tile;

/// How an atlas frame is drawn for one kind of cell.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Looks {
    /// Ground under it: floor or wall (walls come in variants: the first is kept here, and
    /// the cell picks one like the game does).
    pub(super) ground: Ground,
    /// Something standing on the ground: a crate, a coin, the player.
    pub(super) sprite: Option<FrameRect>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Ground {
    #[default]
    Void,
    Floor,
    Wall,
}

/// Frames the editor draws cells with.
#[derive(Debug, Default)]
pub(super) struct Art {
    floors: Vec<FrameRect>,
    walls: Vec<FrameRect>,
    /// By map character.
    pub(super) looks: HashMap<char, Looks>,
}

/// The first frame of `clip`, if the atlas has it.
fn first_frame(atlas: &AtlasData, clip: &str) -> Option<FrameRect> {
    atlas
        .clip(clip)
        .and_then(|c| c.frames.first())
        .and_then(|f| atlas.frame(f))
}

impl Art {
    pub(super) fn new(atlas: &AtlasData, palette: &[Brush]) -> Self {
        let frames = |name: fn(u32) -> String| {
            (0..)
                .map_while(|i| first_frame(atlas, &name(i)))
                .collect::<Vec<_>>()
        };
        let looks = palette
            .iter()
            .map(|b| (b.ch, looks_of(atlas, &b.kind)))
            .collect();
        Self {
            floors: frames(clip_names::floor),
            walls: frames(clip_names::wall),
            looks,
        }
    }

    /// The ground frame of cell `(x, y)`: the variant the game shows there.
    pub(super) fn ground(&self, ground: Ground, x: u32, y: u32) -> Option<FrameRect> {
        match ground {
            Ground::Void => None,
            // The same cell hashes as `render.rs` (floor) and `sim/setup.rs` (walls).
            Ground::Floor => {
                let v = x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503);
                let i = if v % 7 < 4 {
                    0
                } else {
                    (v as usize / 7) % self.floors.len().max(1)
                };
                self.floors.get(i).copied()
            }
            Ground::Wall => {
                let v = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) as usize;
                self.walls.get(v % self.walls.len().max(1)).copied()
            }
        }
    }
}

/// How a brush's kind looks.
fn looks_of(atlas: &AtlasData, kind: &BrushKind) -> Looks {
    let on_floor = |clip: &str| Looks {
        ground: Ground::Floor,
        sprite: first_frame(atlas, clip),
    };
    match kind {
        BrushKind::Tile(Tile::Wall) => Looks {
            ground: Ground::Wall,
            sprite: None,
        },
        BrushKind::Tile(Tile::Floor) => Looks {
            ground: Ground::Floor,
            sprite: None,
        },
        BrushKind::Tile(Tile::Void) => Looks::default(),
        BrushKind::Coin => on_floor(clip_names::COIN),
        BrushKind::Player => on_floor(&clip_names::player_idle(Facing::Down)),
        BrushKind::Crate { skin, .. } => on_floor(&clip_names::crate_clip(skin, CrateState::Idle)),
    }
}
