//! The sprites themselves. Every function returns 16x16 canvases; light comes from the top-left.
//!
//! Characters are painted from small character templates (one letter per palette entry) and
//! outlined automatically, so silhouettes stay closed however parts are combined.

use super::canvas::{CLEAR, Canvas, Rgba, alpha, noise, opaque};
use super::colors::*;
use super::sheet::SheetBuilder;
use crate::atlas::clip_names::{self, CrateState, Facing};

const SIZE: usize = 16;

fn blank() -> Canvas {
    Canvas::new(SIZE, SIZE)
}

/// Draw every clip the game uses, in atlas order.
pub(super) fn draw_all(sheet: &mut SheetBuilder) {
    for facing in Facing::ALL {
        sheet.new_row();
        player(sheet, facing);
        // Two frames of 2 steps: on screen for exactly the swing's 4 live steps.
        sheet.clip(&clip_names::slash(facing), slash(facing), 2.0 / 60.0, false);
    }
    for skin in [Skin::Plain, Skin::Strong, Skin::Keg] {
        sheet.new_row();
        crate_clips(sheet, skin);
    }
    sheet.clip(clip_names::KEG_LIT, keg_lit(), 0.05, true);
    sheet.clip(clip_names::DEBRIS, debris(), 0.08, true);
    sheet.clip(clip_names::SHADOW, vec![shadow()], 1.0, true);
    sheet.new_row();
    sheet.clip(clip_names::COIN, coin(), 0.1, true);
    for variant in 0..clip_names::FLOOR_VARIANTS {
        sheet.clip(&clip_names::floor(variant), vec![floor(variant)], 1.0, true);
    }
    for variant in 0..clip_names::WALL_VARIANTS {
        sheet.clip(&clip_names::wall(variant), vec![wall(variant)], 1.0, true);
    }
}

// ---------------------------------------------------------------------------------------------
// Player

/// Letters used by the character templates.
fn hero_key() -> [(char, Rgba); 12] {
    [
        ('o', opaque(OUTLINE)),
        ('h', opaque(HAIR)),
        ('H', opaque(HAIR_LIGHT)),
        ('k', opaque(mix(HAIR, OUTLINE, 0.45))),
        ('s', opaque(SKIN)),
        ('S', opaque(SKIN_DARK)),
        ('e', opaque(OUTLINE)),
        ('b', opaque(PLAYER_BASE)),
        ('B', opaque(PLAYER_LIGHT)),
        ('d', opaque(PLAYER_DARK)),
        ('l', opaque(LEATHER)),
        ('y', opaque(COIN_DARK)),
    ]
}

// Upper body (head, torso, arms, belt, tunic hem) for rows 0..=12; legs are separate so walking
// and breathing can move them independently.
const UPPER_DOWN: [&str; 13] = [
    "................",
    "................",
    ".....HHHhhh.....",
    "....HHhhhhhh....",
    "....Hhhhhhhk....",
    "....hhssssSk....",
    "....hsessesk....",
    "....hssssssk....",
    ".....sssSSS.....",
    "....BBbbbbbd....",
    "...BoBbbbbdod...",
    "...soldyyldoS...",
    "....bbbbbbdd....",
];

const UPPER_UP: [&str; 13] = [
    "................",
    "................",
    ".....HHHhhh.....",
    "....HHHhhhhh....",
    "....Hhhhhhhk....",
    "....hhhhhhhk....",
    "....hhhhhhkk....",
    "....khhhhkkk....",
    ".....sSSSSS.....",
    "....BBbbbbbd....",
    "...BoBbbbbdod...",
    "...solllllloS...",
    "....bbbbbbdd....",
];

const UPPER_RIGHT: [&str; 13] = [
    "................",
    "................",
    ".....HHHhhh.....",
    "....HHhhhhhhh...",
    "....Hhhhhhsss...",
    "....hhhhhssess..",
    "....khhhhsssss..",
    "....kkhhSssss...",
    ".....kkSSss.....",
    ".....BBbbbd.....",
    ".....BBBbdd.....",
    ".....lllyll.....",
    ".....bbbbdd.....",
];

/// Leg poses: (left/back leg lifted, right/front leg lifted) for the front/back views, or a
/// stride for the side view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Legs {
    Stand,
    LiftA,
    LiftB,
}

fn legs(facing: Facing, pose: Legs) -> [&'static str; 3] {
    match (facing, pose) {
        (Facing::Down | Facing::Up, Legs::Stand) => {
            [".....dd..dd.....", ".....ll..ll.....", "................"]
        }
        (Facing::Down | Facing::Up, Legs::LiftA) => {
            [".....ll..dd.....", "..........ll....", "................"]
        }
        (Facing::Down | Facing::Up, Legs::LiftB) => {
            [".....dd..ll.....", ".....ll.........", "................"]
        }
        (_, Legs::Stand) => [".....dd.dd......", ".....ll.lll.....", "................"],
        (_, Legs::LiftA) => ["....dd...dd.....", "...ll.....lll...", "................"],
        (_, Legs::LiftB) => [".....ddddd......", "......llll......", "................"],
    }
}

/// Where the hammer is: the hand pixel and the direction the handle points.
#[derive(Debug, Clone, Copy)]
struct Grip {
    hand: (i32, i32),
    dir: (i32, i32),
    len: i32,
    /// Whether the hammer is hidden behind the body.
    behind: bool,
}

fn rest_grip(facing: Facing) -> Grip {
    match facing {
        Facing::Down => Grip {
            hand: (12, 11),
            dir: (0, -1),
            len: 4,
            behind: false,
        },
        Facing::Up => Grip {
            hand: (3, 11),
            dir: (0, -1),
            len: 4,
            behind: true,
        },
        _ => Grip {
            hand: (8, 11),
            dir: (-1, -1),
            len: 4,
            behind: true,
        },
    }
}

fn attack_grips(facing: Facing) -> [Grip; 3] {
    let g = |hand, dir, len, behind| Grip {
        hand,
        dir,
        len,
        behind,
    };
    match facing {
        Facing::Down => [
            g((11, 9), (1, -1), 2, true),
            g((12, 10), (1, 1), 1, false),
            g((9, 11), (0, 1), 1, false),
        ],
        Facing::Up => [
            g((3, 11), (-1, 1), 2, false),
            g((3, 9), (-1, -1), 3, true),
            g((8, 8), (0, -1), 4, true),
        ],
        _ => [
            g((7, 10), (-1, -1), 4, true),
            g((9, 9), (1, -1), 3, false),
            g((10, 11), (1, 0), 3, false),
        ],
    }
}

/// Draw the hammer: a wooden handle from the hand along `dir`, then an iron head across it.
fn hammer(c: &mut Canvas, grip: Grip) {
    let (hx, hy) = grip.hand;
    let (dx, dy) = grip.dir;
    for i in 1..=grip.len {
        c.set(hx + dx * i, hy + dy * i, opaque(HANDLE));
    }
    let (cx, cy) = (hx + dx * (grip.len + 1), hy + dy * (grip.len + 1));
    if dx == 0 || dy == 0 {
        // Head 4 wide across the handle, 3 deep along it.
        let (ax, ay) = (-dy, dx);
        for along in 0..3 {
            for across in -2..=1 {
                let (x, y) = (cx + dx * along + ax * across, cy + dy * along + ay * across);
                c.set(x, y, opaque(iron_shade(x - cx, y - cy)));
            }
        }
    } else {
        for oy in -1..=1 {
            for ox in -1..=1 {
                c.set(cx + ox, cy + oy, opaque(iron_shade(ox, oy)));
            }
        }
        // Stretch the block across the handle by one pixel at each end, so it reads as a
        // hammer head rather than a ball.
        let (px, py) = (-dy, dx);
        for (k, col) in [(1, IRON_DARK), (-1, IRON_LIGHT)] {
            c.set(cx + 2 * k * px, cy + k * py, opaque(col));
            c.set(cx + k * px, cy + 2 * k * py, opaque(col));
        }
    }
    c.set(hx, hy, opaque(SKIN));
}

fn iron_shade(ox: i32, oy: i32) -> Rgb {
    match ox + oy {
        i32::MIN..=-2 => IRON_LIGHT,
        -1..=1 => IRON_BASE,
        _ => IRON_DARK,
    }
}

/// One hero frame: legs, upper body bobbed down by `bob`, hammer, outline.
fn hero(facing: Facing, pose: Legs, bob: i32, grip: Grip) -> Canvas {
    let key = hero_key();
    let side = matches!(facing, Facing::Left | Facing::Right);
    let upper: &[&str] = match facing {
        Facing::Down => &UPPER_DOWN,
        Facing::Up => &UPPER_UP,
        _ => &UPPER_RIGHT,
    };
    let mut c = blank();
    if grip.behind {
        hammer(&mut c, grip_bob(grip, bob));
    }
    c.stamp(0, 13, &legs(facing, pose), &key);
    c.stamp(0, bob, upper, &key);
    if !grip.behind {
        hammer(&mut c, grip_bob(grip, bob));
    }
    if side {
        // The near arm swings with the hammer, drawn over the torso.
        let (hx, hy) = grip_bob(grip, bob).hand;
        let shoulder = (8, 9 + bob);
        c.line(shoulder, (hx, hy), opaque(PLAYER_LIGHT));
        c.set(hx, hy, opaque(SKIN));
    }
    c.outline(opaque(OUTLINE));
    if facing == Facing::Left {
        c.flip_x()
    } else {
        c
    }
}

fn grip_bob(grip: Grip, bob: i32) -> Grip {
    Grip {
        hand: (grip.hand.0, grip.hand.1 + bob),
        ..grip
    }
}

fn player(sheet: &mut SheetBuilder, facing: Facing) {
    let rest = rest_grip(facing);
    let idle = vec![
        hero(facing, Legs::Stand, 0, rest),
        hero(facing, Legs::Stand, 1, rest),
    ];
    sheet.clip(&clip_names::player_idle(facing), idle, 0.5, true);
    let walk = vec![
        hero(facing, Legs::Stand, 1, rest),
        hero(facing, Legs::LiftA, 0, rest),
        hero(facing, Legs::Stand, 1, rest),
        hero(facing, Legs::LiftB, 0, rest),
    ];
    sheet.clip(&clip_names::player_walk(facing), walk, 0.12, true);
    let attack = attack_grips(facing)
        .into_iter()
        .map(|grip| hero(facing, Legs::Stand, 0, grip))
        .collect();
    sheet.clip(&clip_names::player_attack(facing), attack, 0.06, false);
    sheet.clip(
        &clip_names::player_stunned(facing),
        stunned(facing),
        0.12,
        true,
    );
}

/// A stunned hero: slumped (bobbed down), two small stars circling over the head, swapping
/// sides every frame.
fn stunned(facing: Facing) -> Vec<Canvas> {
    let star = |c: &mut Canvas, (x, y): (i32, i32)| {
        c.set(x, y, opaque(FIRE_WHITE));
        for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            c.set(x + dx, y + dy, opaque(FIRE_YELLOW));
        }
    };
    [[(3, 1), (11, 2)], [(5, 2), (12, 1)]]
        .iter()
        .map(|stars| {
            let mut c = hero(facing, Legs::Stand, 1, rest_grip(facing));
            for &at in stars {
                star(&mut c, at);
            }
            c
        })
        .collect()
}

/// The arc of a swing: a disc of the swing's radius (`tuning::SWING_RADIUS`) centred in the
/// frame, which is exactly the area the swing hits. A faint fill shows the whole disc; a bright
/// band sweeps along its far rim, top to bottom like the hammer. Drawn for `Right` and turned
/// for the other facings (the disc itself is the same either way).
fn slash(facing: Facing) -> Vec<Canvas> {
    let radius = crate::sim::tuning::SWING_RADIUS;
    // (first angle, last angle) of the bright band per frame; degrees, 0 = straight ahead,
    // negative = up.
    let sweeps = [(-100.0f32, 20.0f32), (-40.0, 100.0)];
    sweeps
        .iter()
        .map(|&(from, to)| {
            let mut c = blank();
            for y in 0..16 {
                for x in 0..16 {
                    let (px, py) = (x as f32 + 0.5 - 8.0, y as f32 + 0.5 - 8.0);
                    let r = (px * px + py * py).sqrt();
                    if r >= radius {
                        continue;
                    }
                    let a = py.atan2(px).to_degrees();
                    let depth = radius - r;
                    // Thickest mid-sweep, tapering to points at both ends.
                    let t = (a - from) / (to - from);
                    let width = if (0.0..=1.0).contains(&t) {
                        0.6 + 2.6 * (std::f32::consts::PI * t).sin()
                    } else {
                        0.0
                    };
                    let col = if depth < width.min(1.2) {
                        alpha(SLASH_WHITE, 255)
                    } else if depth < width {
                        alpha(SLASH_YELLOW, 220)
                    } else if depth < 1.0 {
                        // The rim of the reach, where the band is not.
                        alpha(SLASH_YELLOW, 110)
                    } else {
                        alpha(SLASH_YELLOW, 55)
                    };
                    c.set(x, y, col);
                }
            }
            match facing {
                Facing::Right => c,
                Facing::Left => c.flip_x(),
                Facing::Down => c.rotate_cw(),
                Facing::Up => c.rotate_cw().rotate_cw().rotate_cw(),
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Crates

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skin {
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
    let (x0, x1) = (1, 14);
    let (lid_top, lid_bottom, lip, face_top, bottom) = (2, 5, 6, 7, 14);
    // Lid.
    for y in lid_top..=lid_bottom {
        for x in x0..=x1 {
            let col = if y == lid_top {
                mix(CRATE_LIGHT, [255, 240, 200], 0.25)
            } else if y == lid_bottom || x == 5 || x == 10 {
                // Front edge of the lid and the seams between its boards.
                CRATE_BASE
            } else if x == x0 || x == 6 || x == 11 {
                mix(CRATE_LIGHT, [255, 240, 200], 0.15)
            } else {
                CRATE_LIGHT
            };
            c.set(x, y, opaque(col));
        }
    }
    for x in x0..=x1 {
        c.set(x, lip, opaque(CRATE_EDGE));
    }
    // Front face: frame posts and rails around a recessed panel (rows 8..=13, cols 3..=12).
    for y in face_top..=bottom {
        for x in x0..=x1 {
            let col = if x == x0 || y == face_top {
                CRATE_LIGHT
            } else if x == x1 || y == bottom {
                CRATE_DARK
            } else if x == x0 + 1 || x == x1 - 1 {
                CRATE_BASE
            } else if y == face_top + 1 || x == x0 + 2 {
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
    // Sparse grain: short dark streaks along the boards.
    for (x, y) in [(3, 3), (8, 4), (12, 3), (9, 12), (4, 10)] {
        let col = c.get(x, y);
        let streak = opaque(mix([col[0], col[1], col[2]], CRATE_EDGE, 0.35));
        c.set(x, y, streak);
        c.set(x + 1, y, streak);
    }
    let nail = |c: &mut Canvas, x: i32, y: i32| {
        c.set(x, y, opaque(NAIL));
        c.set(x, y + 1, opaque(CRATE_EDGE));
    };
    match skin {
        Skin::Plain => {
            // Diagonal brace across the panel in even 2-pixel steps, lit along its upper edge.
            for x in x0 + 2..=x1 - 2 {
                let y = 13 - (x - (x0 + 2)) / 2;
                c.set(x, y - 1, opaque(CRATE_LIGHT));
                c.set(x, y, opaque(CRATE_BASE));
                if y + 1 < bottom {
                    c.set(x, y + 1, opaque(CRATE_EDGE));
                }
            }
            for (x, y) in [(2, 8), (13, 8), (2, 12), (13, 12), (2, 3), (13, 3)] {
                nail(&mut c, x, y);
            }
        }
        Skin::Keg => {}
        Skin::Strong => {
            // A riveted iron band round the middle and across the lid, iron corner caps.
            for &(band, rivets) in &[(10, true), (3, false)] {
                for x in x0..=x1 {
                    c.set(x, band, opaque(IRON_LIGHT));
                    c.set(x, band + 1, opaque(IRON_DARK));
                }
                if rivets {
                    for x in [x0 + 2, 7, x1 - 2] {
                        c.set(x, band, opaque([236, 238, 240]));
                    }
                }
            }
            for (cx, cy, sx, sy) in [(x0, face_top, 1, 1), (x1, face_top, -1, 1)]
                .into_iter()
                .chain([(x0, bottom, 1, -1), (x1, bottom, -1, -1)])
            {
                for i in 0..3 {
                    let lit = i == 0 && (sx > 0 || sy > 0);
                    let col = if lit { IRON_LIGHT } else { IRON_BASE };
                    c.set(cx + sx * i, cy, opaque(col));
                    c.set(cx, cy + sy * i, opaque(col));
                }
                c.set(cx + sx, cy + sy, opaque(IRON_DARK));
            }
            for x in [x0, x1] {
                for y in lid_top..=lid_bottom {
                    c.set(x, y, opaque(if x == x0 { IRON_LIGHT } else { IRON_BASE }));
                }
            }
        }
    }
    c.outline(opaque(OUTLINE));
    c
}

fn crate_clips(sheet: &mut SheetBuilder, skin: Skin) {
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

// ---------------------------------------------------------------------------------------------
// Powder keg

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
fn keg_body() -> Canvas {
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
fn keg_lit() -> Vec<Canvas> {
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
fn blast() -> Vec<Canvas> {
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

/// A hit on `body` (at its crack stage, so the cracks stay visible): a white flash that fades
/// over two frames (100 ms at 0.05 s a frame), a squash, then a slight stretch on the way back.
fn hit(body: &Canvas) -> Vec<Canvas> {
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
fn cracked(body: &Canvas, stage: u8) -> Canvas {
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
fn explode(body: &Canvas) -> Vec<Canvas> {
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
fn debris() -> Vec<Canvas> {
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

/// Soft, semi-transparent ellipse under the feet.
fn shadow() -> Canvas {
    let mut c = blank();
    let (cx, cy, rx, ry) = (8.0f32, 13.5f32, 6.5f32, 2.5f32);
    for y in 0..16 {
        for x in 0..16 {
            let (dx, dy) = ((x as f32 + 0.5 - cx) / rx, (y as f32 + 0.5 - cy) / ry);
            let d = dx * dx + dy * dy;
            if d <= 1.0 {
                // Two-step falloff keeps it pixel-crisp rather than a smooth gradient.
                let a = if d < 0.5 { 130 } else { 85 };
                c.set(x, y, alpha(SHADOW, a));
            }
        }
    }
    c
}

// ---------------------------------------------------------------------------------------------
// Pickups

/// Gold coin spinning about its vertical axis: full face, narrowing, edge-on, widening.
fn coin() -> Vec<Canvas> {
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

// ---------------------------------------------------------------------------------------------
// Tiles

/// Stone floor: one bevelled slab per tile (lit top-left), with per-variant cracks, moss or chips.
fn floor(variant: u32) -> Canvas {
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
fn wall(variant: u32) -> Canvas {
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

/// Linear blend from `a` (t = 0) to `b` (t = 1).
fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let lerp = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    [lerp(a[0], b[0]), lerp(a[1], b[1]), lerp(a[2], b[2])]
}
