//! Crates: the body of each skin (plain, strong, keg) and its clips at every crack stage.

use super::basics::{blank, mix};
use crate::art::canvas::{Canvas, opaque};
use crate::art::colors::*;
use crate::art::sheet::SheetBuilder;
use crate::atlas::clip_names::{self, CrateState};

use super::effects::{cracked, explode, hit};
use super::keg::{blast, keg_body};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Skin {
    Plain,
    Strong,
    Keg,
}

/// Crate seen from above and in front: a lit lid of three boards (rows 2..=5), the shadow of its
/// overhang (row 6), then a framed front face (rows 7..=14) with a recessed panel.
///
/// ```text
///  ..............   lid: boards run front to back, seams at x = 5 and x = 10
///  |____|____|___|  lip
///  ||  frame    ||  posts 2 px, rails 2 px, nails in the corners
///  || /panel/   ||  recessed panel, diagonal brace (plain) or iron band (strong)
///  ||___________||
/// ```
fn crate_body(skin: Skin) -> Canvas {
    if skin == Skin::Keg {
        return keg_body();
    }
    let mut c = blank();
    lid(&mut c);
    front_face(&mut c);
    grain(&mut c);
    match skin {
        Skin::Plain => brace(&mut c),
        Skin::Keg => {}
        Skin::Strong => iron_fittings(&mut c),
    }
    c.outline(opaque(OUTLINE));
    c
}

/// The crate's left and right columns.
const X0: i32 = 1;
const X1: i32 = 14;
/// The lid's rows, the lip's shadow, and the front face's rows.
const LID_TOP: i32 = 2;
const LID_BOTTOM: i32 = 5;
const LIP: i32 = 6;
const FACE_TOP: i32 = 7;
const BOTTOM: i32 = 14;

/// The lid of three boards, and the shadow of its lip.
fn lid(c: &mut Canvas) {
    for y in LID_TOP..=LID_BOTTOM {
        for x in X0..=X1 {
            let col = if y == LID_TOP {
                mix(CRATE_LIGHT, [255, 240, 200], 0.25)
            } else if y == LID_BOTTOM || x == 5 || x == 10 {
                // Front edge of the lid and the seams between its boards.
                CRATE_BASE
            } else if x == X0 || x == 6 || x == 11 {
                mix(CRATE_LIGHT, [255, 240, 200], 0.15)
            } else {
                CRATE_LIGHT
            };
            c.set(x, y, opaque(col));
        }
    }
    for x in X0..=X1 {
        c.set(x, LIP, opaque(CRATE_EDGE));
    }
}

/// Front face: frame posts and rails around a recessed panel (rows 8..=13, cols 3..=12).
fn front_face(c: &mut Canvas) {
    for y in FACE_TOP..=BOTTOM {
        for x in X0..=X1 {
            let col = if x == X0 || y == FACE_TOP {
                CRATE_LIGHT
            } else if x == X1 || y == BOTTOM {
                CRATE_DARK
            } else if x == X0 + 1 || x == X1 - 1 {
                CRATE_BASE
            } else if y == FACE_TOP + 1 || x == X0 + 2 {
                // The frame shades the top and left of the recess.
                CRATE_EDGE
            } else if y == 11 {
                // Seam between the two panel boards.
                mix(CRATE_DARK, CRATE_EDGE, 0.5)
            } else {
                CRATE_DARK
            };
            c.set(x, y, opaque(col));
        }
    }
}

/// Sparse grain: short dark streaks along the boards.
fn grain(c: &mut Canvas) {
    for (x, y) in [(3, 3), (8, 4), (12, 3), (9, 12), (4, 10)] {
        let col = c.get(x, y);
        let streak = opaque(mix([col[0], col[1], col[2]], CRATE_EDGE, 0.35));
        c.set(x, y, streak);
        c.set(x + 1, y, streak);
    }
}

/// The plain crate's diagonal brace across the panel, and its nails.
fn brace(c: &mut Canvas) {
    // Diagonal brace across the panel in even 2-pixel steps, lit along its upper edge.
    for x in X0 + 2..=X1 - 2 {
        let y = 13 - (x - (X0 + 2)) / 2;
        c.set(x, y - 1, opaque(CRATE_LIGHT));
        c.set(x, y, opaque(CRATE_BASE));
        if y + 1 < BOTTOM {
            c.set(x, y + 1, opaque(CRATE_EDGE));
        }
    }
    for (x, y) in [(2, 8), (13, 8), (2, 12), (13, 12), (2, 3), (13, 3)] {
        c.set(x, y, opaque(NAIL));
        c.set(x, y + 1, opaque(CRATE_EDGE));
    }
}

/// The strong crate's riveted iron band round the middle and across the lid, and iron corner
/// caps.
fn iron_fittings(c: &mut Canvas) {
    for &(band, rivets) in &[(10, true), (3, false)] {
        for x in X0..=X1 {
            c.set(x, band, opaque(IRON_LIGHT));
            c.set(x, band + 1, opaque(IRON_DARK));
        }
        if rivets {
            for x in [X0 + 2, 7, X1 - 2] {
                c.set(x, band, opaque([236, 238, 240]));
            }
        }
    }
    for (cx, cy, sx, sy) in [(X0, FACE_TOP, 1, 1), (X1, FACE_TOP, -1, 1)]
        .into_iter()
        .chain([(X0, BOTTOM, 1, -1), (X1, BOTTOM, -1, -1)])
    {
        for i in 0..3 {
            let lit = i == 0 && (sx > 0 || sy > 0);
            let col = if lit { IRON_LIGHT } else { IRON_BASE };
            c.set(cx + sx * i, cy, opaque(col));
            c.set(cx, cy + sy * i, opaque(col));
        }
        c.set(cx + sx, cy + sy, opaque(IRON_DARK));
    }
    for x in [X0, X1] {
        for y in LID_TOP..=LID_BOTTOM {
            c.set(x, y, opaque(if x == X0 { IRON_LIGHT } else { IRON_BASE }));
        }
    }
}

pub(super) fn crate_clips(sheet: &mut SheetBuilder, skin: Skin) {
    let name = match skin {
        Skin::Plain => clip_names::PLAIN_CRATE,
        Skin::Strong => clip_names::STRONG_CRATE,
        Skin::Keg => clip_names::KEG,
    };
    let whole = crate_body(skin);
    for stage in 0..=clip_names::CRACK_STAGES {
        let clip = |state| clip_names::cracked_crate_clip(name, state, stage);
        let body = cracked(&whole, stage);
        sheet.clip(&clip(CrateState::Idle), vec![body.clone()], 1.0, true);
        sheet.clip(&clip(CrateState::Hit), hit(&body), 0.05, false);
    }
    let heaviest = cracked(&whole, clip_names::CRACK_STAGES);
    let explosion = if skin == Skin::Keg {
        blast()
    } else {
        explode(&heaviest)
    };
    sheet.clip(
        &clip_names::crate_clip(name, CrateState::Explode),
        explosion,
        0.07,
        false,
    );
}
