//! Tiles: stone floor and brick wall, each in a few variants.

use super::basics::{blank, mix};
use crate::art::canvas::{Canvas, noise, opaque};
use crate::art::colors::*;

/// Stone floor: one bevelled slab per tile (lit top-left), with per-variant cracks, moss or chips.
pub(super) fn floor(variant: u32) -> Canvas {
    let mut c = blank();
    for y in 0..16 {
        for x in 0..16 {
            let n = noise(x, y, 100 + variant);
            // Coarse mottling in 4x4 blocks, then sparse single-pixel grit.
            let patch = noise(x / 4, y / 4, 300 + variant);
            let mut col = if n < 14 {
                FLOOR_DARK
            } else if n > 244 {
                FLOOR_LIGHT
            } else if patch < 70 {
                mix(FLOOR_BASE, FLOOR_DARK, 0.3)
            } else {
                FLOOR_BASE
            };
            if x == 15 || y == 15 {
                col = FLOOR_SEAM;
            } else if x == 0 || y == 0 {
                col = FLOOR_LIGHT;
            } else if x == 14 || y == 14 {
                col = FLOOR_DARK;
            }
            c.set(x, y, opaque(col));
        }
    }
    match variant {
        1 => {
            let path = [(3, 4), (5, 6), (5, 8), (8, 9), (9, 12)];
            for w in path.windows(2) {
                c.line(w[0], w[1], opaque(FLOOR_SEAM));
            }
            c.set(6, 6, opaque(FLOOR_LIGHT));
            c.set(6, 8, opaque(FLOOR_LIGHT));
        }
        2 => {
            for y in 8..15 {
                for x in 0..9 {
                    let d = (x - 2) * (x - 2) + (y - 13) * (y - 13) * 2;
                    if d < 26 && noise(x, y, 5) > 50 {
                        let col = if noise(x, y, 6) > 170 {
                            MOSS_LIGHT
                        } else {
                            MOSS
                        };
                        c.set(x, y, opaque(col));
                    }
                }
            }
        }
        3 => {
            // A split slab: the seam runs across, with a chipped corner.
            for x in 1..15 {
                c.set(x, 7, opaque(FLOOR_SEAM));
                c.set(x, 8, opaque(FLOOR_LIGHT));
            }
            c.set(11, 11, opaque(FLOOR_DARK));
            c.set(12, 11, opaque(FLOOR_SEAM));
            c.set(11, 12, opaque(FLOOR_SEAM));
        }
        _ => {}
    }
    c
}

/// Brick wall: a lit cap along the top, then staggered courses of bricks 8 wide and 4 tall.
pub(super) fn wall(variant: u32) -> Canvas {
    let mut c = blank();
    for y in 0..16 {
        for x in 0..16 {
            let col = if y < 3 {
                if y == 0 {
                    WALL_TOP
                } else if y == 1 {
                    WALL_LIGHT
                } else {
                    MORTAR
                }
            } else {
                let row = (y - 3) / 4;
                let ry = (y - 3) % 4;
                let shift = if row % 2 == 0 { 0 } else { 4 };
                let rx = (x + shift) % 8;
                if ry == 3 || rx == 7 {
                    MORTAR
                } else if ry == 0 || rx == 0 {
                    WALL_LIGHT
                } else if ry == 2 || rx == 6 || noise(x, y, 200 + variant) < 30 {
                    WALL_DARK
                } else {
                    WALL_BASE
                }
            };
            c.set(x, y, opaque(col));
        }
    }
    match variant {
        1 => {
            // A crack running through two courses, with a lit lip on its upper-left side.
            for w in [(9, 3), (10, 5), (9, 7), (11, 9), (12, 11)].windows(2) {
                c.line(w[0], w[1], opaque(OUTLINE));
            }
            c.set(8, 4, opaque(WALL_LIGHT));
            c.set(8, 7, opaque(WALL_LIGHT));
        }
        2 => {
            for (x, y) in [
                (2, 14),
                (3, 14),
                (4, 14),
                (3, 13),
                (1, 14),
                (12, 10),
                (13, 10),
            ] {
                c.set(x, y, opaque(MOSS));
            }
            c.set(3, 12, opaque(MOSS_LIGHT));
            c.set(12, 9, opaque(MOSS_LIGHT));
        }
        3 => {
            // One sooty brick and a chipped corner.
            for y in 7..10 {
                for x in 4..10 {
                    if c.get(x, y)[..3] != MORTAR {
                        c.set(x, y, opaque(mix(WALL_DARK, OUTLINE, 0.35)));
                    }
                }
            }
            c.set(13, 4, opaque(MORTAR));
            c.set(14, 4, opaque(MORTAR));
            c.set(14, 5, opaque(MORTAR));
        }
        _ => {}
    }
    c
}
