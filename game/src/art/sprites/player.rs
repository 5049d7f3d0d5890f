//! The player: the hero template in each facing, walking, attacking and stunned, the
//! hammer's slash, and the shadow under the feet.

use super::basics::{blank, mix};
use crate::art::canvas::{Canvas, Rgba, alpha, opaque};
use crate::art::colors::*;
use crate::art::sheet::SheetBuilder;
use crate::atlas::clip_names::{self, Facing};

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

pub(super) fn player(sheet: &mut SheetBuilder, facing: Facing) {
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
pub(super) fn slash(facing: Facing) -> Vec<Canvas> {
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

/// Soft, semi-transparent ellipse under the feet.
pub(super) fn shadow() -> Canvas {
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
