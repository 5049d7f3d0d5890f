//! Pickups: the spinning gold coin.

use super::basics::blank;
use crate::art::canvas::{Canvas, opaque};
use crate::art::colors::*;

/// Gold coin spinning about its vertical axis: full face, narrowing, edge-on, widening.
pub(super) fn coin() -> Vec<Canvas> {
    [5.0f32, 4.0, 2.0, 0.8, 2.0, 4.0]
        .iter()
        .enumerate()
        .map(|(i, &rx)| {
            let mut c = blank();
            let (cx, cy, ry) = (8.0f32, 8.0f32, 5.0f32);
            for y in 0..16 {
                for x in 0..16 {
                    let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                    let d = (dx / rx.max(0.6)).powi(2) + (dy / ry).powi(2);
                    if d > 1.0 {
                        continue;
                    }
                    let rim = d > 0.55 && rx > 1.5;
                    let col = if rx < 1.5 {
                        if dy < -1.0 { COIN_LIGHT } else { COIN_DARK }
                    } else if rim {
                        if dx + dy < 0.0 { COIN_LIGHT } else { COIN_DARK }
                    } else if dx + dy < -1.0 {
                        COIN_LIGHT
                    } else {
                        COIN_BASE
                    };
                    c.set(x, y, opaque(col));
                }
            }
            // Stamped mark on the face while it is wide enough to read.
            if rx > 3.0 {
                c.set(8, 6, opaque(COIN_DARK));
                c.set(8, 7, opaque(COIN_DARK));
                c.set(8, 8, opaque(COIN_DARK));
                c.set(8, 9, opaque(COIN_DARK));
                c.set(7, 6, opaque(COIN_LIGHT));
            }
            // A glint on the first frame.
            if i == 0 {
                c.set(5, 5, opaque(SLASH_WHITE));
            }
            c.outline(opaque(OUTLINE));
            c
        })
        .collect()
}
