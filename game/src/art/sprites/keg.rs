//! The powder keg: its barrel, its lit fuse and its blast.

use super::basics::{blank, mix};
use crate::art::canvas::{Canvas, alpha, noise, opaque};
use crate::art::colors::*;

/// A powder keg: a wooden barrel standing upright, seen from above and in front. An oval lid
/// (rows 1..=4) with a fuse, bulging staves (rows 3..=14) lit from the left, two iron hoops and
/// a red powder band between them.
///
/// ```text
///      .---.~*     lid and fuse
///     (_____)      lid rim
///    |=======|     iron hoop
///    | RED   |     powder band
///    |=======|     iron hoop
///     '-----'
/// ```
pub(super) fn keg_body() -> Canvas {
    let mut c = blank();
    // Half-width of the barrel per row: it bulges in the middle.
    let half = |y: i32| -> f32 {
        let t = (y as f32 - 8.5) / 6.5;
        6.5 - 1.2 * t * t
    };
    for y in 3..=14 {
        let h = half(y);
        for x in 0..16 {
            let dx = x as f32 + 0.5 - 8.0;
            if dx.abs() > h {
                continue;
            }
            // Staves: light on the left, dark on the right, a seam every 3 px.
            let u = (dx / h + 1.0) / 2.0;
            let mut col = if u < 0.25 {
                CRATE_LIGHT
            } else if u < 0.7 {
                CRATE_BASE
            } else {
                CRATE_DARK
            };
            if x % 3 == 0 {
                col = mix(col, CRATE_EDGE, 0.45);
            }
            if y == 5 || y == 12 {
                col = if u < 0.3 { IRON_LIGHT } else { IRON_BASE };
            } else if y == 6 || y == 13 {
                col = IRON_DARK;
            } else if (8..=10).contains(&y) {
                col = if u < 0.25 { KEG_RED_LIGHT } else { KEG_RED };
            }
            c.set(x, y, opaque(col));
        }
    }
    // The lid: an oval over the top of the staves.
    for y in 1..=4 {
        for x in 0..16 {
            let (dx, dy) = ((x as f32 + 0.5 - 8.0) / 5.6, (y as f32 + 0.5 - 2.9) / 1.9);
            if dx * dx + dy * dy <= 1.0 {
                let rim = dx * dx + dy * dy > 0.55;
                let col = if rim { CRATE_EDGE } else { CRATE_LIGHT };
                c.set(x, y, opaque(col));
            }
        }
    }
    // A bung and the fuse rising from it.
    c.set(7, 2, opaque(CRATE_DARK));
    c.set(8, 2, opaque(CRATE_DARK));
    for (x, y) in [(9, 2), (10, 1), (11, 1)] {
        c.set(x, y, opaque(FUSE));
    }
    c.set(12, 0, opaque(NAIL));
    c.outline(opaque(OUTLINE));
    c
}

/// A keg whose fuse burns: a spark that flickers white, yellow and orange at the fuse's end,
/// and a red glow that pulses on the powder band, four frames.
pub(super) fn keg_lit() -> Vec<Canvas> {
    let body = keg_body();
    let sparks = [FIRE_WHITE, FIRE_YELLOW, FIRE_ORANGE, FIRE_YELLOW];
    (0..4)
        .map(|i| {
            let glow = if i % 2 == 0 { 0.45 } else { 0.15 };
            let mut c = body.map(|_, y, col| {
                if col[3] == 0 || !(8..=10).contains(&y) || col[..3] == OUTLINE {
                    col
                } else {
                    opaque(mix([col[0], col[1], col[2]], FIRE_YELLOW, glow))
                }
            });
            let spark = opaque(sparks[i]);
            c.set(12, 0, spark);
            c.set(13, 1, spark);
            if i % 2 == 0 {
                c.set(13, 0, opaque(FIRE_WHITE));
                c.set(11, 0, alpha(FIRE_ORANGE, 200));
            } else {
                c.set(14, 0, alpha(FIRE_YELLOW, 180));
            }
            c
        })
        .collect()
}

/// A keg going off: a white flash that fills the tile, a fireball of yellow, orange and red,
/// then a ring of fire round dark smoke that drifts up and thins; six frames.
pub(super) fn blast() -> Vec<Canvas> {
    // (fireball radius, smoke radius, smoke drift up, smoke opacity)
    let stages: [(f32, f32, f32, u8); 6] = [
        (8.5, 0.0, 0.0, 0),
        (8.0, 0.0, 0.0, 0),
        (7.5, 3.5, 0.0, 230),
        (5.0, 5.5, 1.0, 210),
        (0.0, 5.5, 2.5, 150),
        (0.0, 4.5, 4.0, 80),
    ];
    (0..stages.len())
        .map(|i| {
            let (fire, smoke, drift, smoke_a) = stages[i];
            let mut c = blank();
            for y in 0..16 {
                for x in 0..16 {
                    let (dx, dy) = (x as f32 + 0.5 - 8.0, y as f32 + 0.5 - 8.0);
                    let d = (dx * dx + dy * dy).sqrt();
                    // Texture noise from the pixel position keeps the ball ragged but stable.
                    let ragged = (noise(x, y, 77 + i as u32) % 100) as f32 / 100.0;
                    if d <= fire - ragged {
                        let t = d / fire.max(1.0);
                        let col = match i {
                            0 => FIRE_WHITE,
                            _ if t < 0.35 => FIRE_WHITE,
                            _ if t < 0.6 => FIRE_YELLOW,
                            _ if t < 0.85 => FIRE_ORANGE,
                            _ => FIRE_RED,
                        };
                        c.set(x, y, opaque(col));
                    }
                    let (sx, sy) = (dx, dy + drift);
                    let sd = (sx * sx + sy * sy).sqrt();
                    if smoke > 0.0 && sd <= smoke - ragged {
                        let lit = sx + sy < -smoke * 0.4;
                        let col = if lit { SMOKE_LIGHT } else { SMOKE };
                        c.blend(x, y, alpha(col, smoke_a));
                    }
                }
            }
            c
        })
        .collect()
}
