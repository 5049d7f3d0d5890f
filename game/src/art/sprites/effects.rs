//! What happens to a crate: the flash and squash of a hit, its cracks, its explosion into
//! dust, and the debris it leaves.

use super::basics::{blank, mix};
use crate::art::canvas::{CLEAR, Canvas, alpha, opaque};
use crate::art::colors::*;

/// A hit on `body` (at its crack stage, so the cracks stay visible): a white flash that fades
/// over two frames (100 ms at 0.05 s a frame), a squash, then a slight stretch on the way back.
pub(super) fn hit(body: &Canvas) -> Vec<Canvas> {
    let flash = |white: f32| {
        body.map(|_, _, c| {
            if c[3] == 0 {
                c
            } else if c[..3] == OUTLINE {
                // Outline and cracks stay darker than the planks, so both still read.
                opaque(mix(OUTLINE, [255, 255, 255], white * 0.6))
            } else {
                opaque(mix([c[0], c[1], c[2]], [255, 255, 255], white))
            }
        })
    };
    let mut squash = blank();
    squash.draw_scaled(body, -1, 3, 18, 13);
    let mut stretch = blank();
    stretch.draw_scaled(body, 1, 0, 14, 16);
    vec![flash(0.85), flash(0.6), squash, stretch]
}

/// Cracks drawn over the crate at `stage` (0 = none): each stage keeps the cracks of the one
/// before and adds more, so a crate's damage only ever grows.
///
/// ```text
///  stage 1: one jagged split down the front panel, a nick in the lid
///  stage 2: the split runs on to the bottom rail and forks; a crack in from the left post;
///           a split along a lid board
///  stage 3: a crack in from the right post, a second split lid board, a hole knocked
///           through the panel, the lid's corner chipped off
/// ```
///
/// A crack splits whatever it crosses, iron bands included (a strong crate's bands cover much
/// of its wood); only the outline is left alone.
pub(super) fn cracked(body: &Canvas, stage: u8) -> Canvas {
    // Crack pixels per stage, in the 16 x 16 crate (lid rows 2..=5, front face rows 7..=14).
    const CRACKS: [&[(i32, i32)]; 3] = [
        &[(8, 8), (8, 9), (9, 10), (9, 11), (7, 3), (7, 4)],
        &[
            (8, 12),
            (8, 13),
            (10, 12),
            (11, 12),
            (3, 9),
            (4, 10),
            (4, 11),
            (12, 2),
            (12, 3),
            (11, 4),
        ],
        &[
            (12, 8),
            (11, 9),
            (11, 10),
            (12, 11),
            (3, 3),
            (4, 4),
            (4, 5),
            (5, 12),
            (6, 11),
            (6, 12),
            (7, 12),
        ],
    ];
    let mut out = body.clone();
    for &(x, y) in CRACKS.iter().take(usize::from(stage)).copied().flatten() {
        if body.get(x, y)[3] == 255 {
            out.set(x, y, opaque(OUTLINE));
        }
    }
    if stage >= 3 {
        // A splinter sticking into the hole, and the lid's front corner gone.
        out.set(6, 13, opaque(CRATE_LIGHT));
        out.set(14, 2, CLEAR);
        out.set(14, 1, CLEAR);
        out.set(13, 2, opaque(OUTLINE));
        out.set(15, 2, CLEAR);
        out.set(14, 3, opaque(OUTLINE));
    }
    out
}

/// Swell, burst, dust: six frames starting from the crate at its heaviest cracks.
pub(super) fn explode(body: &Canvas) -> Vec<Canvas> {
    let crack = opaque(OUTLINE);
    let mut cracked_more = body.clone();
    for path in [[(2, 9), (3, 12), (4, 13)], [(10, 7), (9, 10), (10, 13)]] {
        for w in path.windows(2) {
            cracked_more.line(w[0], w[1], crack);
        }
    }
    // Swollen just before bursting.
    let mut swollen = blank();
    swollen.draw_scaled(&cracked_more, -1, 0, 18, 16);

    let mut frames = vec![body.clone(), swollen];
    let quarters = [(0, 0, -1, -1), (8, 0, 1, -1), (0, 8, -1, 1), (8, 8, 1, 1)];
    // (how far the pieces fly, their size, dust puff radius, how far puffs drift, dust opacity)
    let bursts = [
        (1, 7, 3.0, 0.0, 230u8),
        (3, 5, 4.5, 0.5, 210),
        (5, 0, 4.5, 1.5, 170),
        (6, 0, 3.0, 2.5, 100),
    ];
    for (step, &(spread, size, dust_r, drift, dust_a)) in (0u32..).zip(&bursts) {
        let mut c = blank();
        dust(&mut c, dust_r, drift, dust_a);
        for &(qx, qy, sx, sy) in &quarters {
            let (px, py) = (qx + sx * spread, qy + sy * spread);
            if size > 0 {
                // Chunks of the crate itself, shrinking as they fly.
                let mut piece = Canvas::new(8, 8);
                for y in 0..8 {
                    for x in 0..8 {
                        piece.set(x, y, body.get(qx + x, qy + y));
                    }
                }
                let inset = (8 - size) / 2;
                c.draw_scaled(&piece, px + inset, py + inset, size, size);
            } else if step == 2 || (qx == 0) == (qy == 0) {
                // Loose splinters at the edge of the cloud.
                let (x, y) = (px + 3, py + 3);
                let (x, y) = (x.clamp(1, 13), y.clamp(1, 14));
                c.set(x, y, opaque(CRATE_LIGHT));
                c.set(x + 1, y, opaque(CRATE_BASE));
                c.set(x + 1, y + 1, opaque(CRATE_DARK));
            }
        }
        frames.push(c);
    }
    frames
}

/// Puffy dust cloud: overlapping discs lit from the top-left. As `drift` grows the puffs move
/// out and up from the centre and separate.
fn dust(c: &mut Canvas, radius: f32, drift: f32, a: u8) {
    let (cx, cy) = (8.0f32, 9.0f32);
    let puffs = [
        (8.0, 9.0, 1.0),
        (4.0, 10.5, 0.7),
        (12.0, 10.5, 0.7),
        (5.5, 6.5, 0.6),
        (10.5, 6.0, 0.55),
    ];
    let mut cloud = blank();
    for &(px, py, scale) in &puffs {
        let (px, py) = (
            px + (px - cx) * drift * 0.4,
            py + (py - cy) * drift * 0.4 - drift,
        );
        let r = radius * scale;
        for y in 0..16 {
            for x in 0..16 {
                let (dx, dy) = (x as f32 + 0.5 - px, y as f32 + 0.5 - py);
                if dx * dx + dy * dy > r * r {
                    continue;
                }
                let lit = dx + dy < -r * 0.4;
                cloud.set(
                    x,
                    y,
                    opaque(if lit { DUST } else { mix(DUST, DUST_DARK, 0.4) }),
                );
            }
        }
    }
    // Darker rim on the bottom-right edges of the whole cloud.
    let solid = cloud.clone();
    let cloud = solid.map(|x, y, col| {
        if col[3] == 0 {
            col
        } else if solid.get(x + 1, y)[3] == 0 || solid.get(x, y + 1)[3] == 0 {
            alpha(DUST_DARK, a)
        } else {
            [col[0], col[1], col[2], a]
        }
    });
    c.draw(&cloud, 0, 0);
}

/// A splinter tumbling end over end.
pub(super) fn debris() -> Vec<Canvas> {
    let shapes: [&[&str]; 4] = [
        &["......", ".LLLB.", ".bbbd.", "......"],
        &[".....", "...L.", "..LB.", ".Lbd.", ".bd..", "....."],
        &["....", ".Lb.", ".Lb.", ".bd.", ".bd.", "...."],
        &[".....", ".L...", ".bL..", "..bB.", "...d.", "....."],
    ];
    let key = [
        ('L', opaque(CRATE_LIGHT)),
        ('b', opaque(CRATE_BASE)),
        ('B', opaque(CRATE_LIGHT)),
        ('d', opaque(CRATE_DARK)),
    ];
    shapes
        .iter()
        .map(|rows| {
            let mut c = blank();
            let (w, h) = (rows[0].len() as i32, rows.len() as i32);
            c.stamp(8 - w / 2, 8 - h / 2, rows, &key);
            c.outline(opaque(CRATE_EDGE));
            c
        })
        .collect()
}
