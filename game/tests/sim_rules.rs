//! The game rules, checked headlessly: blocking and sliding, attacks, breaking crates, coins,
//! powder kegs.

use crate::common;

use common::{clip_name, sim_from_file, sim_from_rows, sim_from_rows_and};
use ecs::Entity;
use game::sim::components::{
    Coin, Collider, Crate, Debris, Exploding, Fuse, Keg, Player, Position, Stunned, Velocity,
};
use game::sim::game_events::{CoinCollected, CrateBroken, KegExploded, SwingStarted};
use game::sim::tuning::{
    KEG_CHAIN_FUSE_STEPS, KEG_DAMAGE, KEG_FUSE_STEPS, KNOCKBACK_SPEED, STUN_STEPS,
};
use game::sim::{GameState, Input, Sim};

fn player(sim: &Sim) -> Entity {
    sim.world().column::<Player>().entities()[0]
}

fn pos(sim: &Sim, e: Entity) -> Position {
    *sim.world().get::<Position>(e).unwrap()
}

fn hold(sim: &mut Sim, input: Input, steps: u32) {
    for _ in 0..steps {
        sim.step(input);
    }
}

fn crate_at(sim: &Sim, cell_x: u32, cell_y: u32) -> Entity {
    let world = sim.world();
    world
        .column::<Crate>()
        .entities()
        .iter()
        .copied()
        .find(|&e| {
            let p = world.get::<Position>(e).unwrap();
            (p.x / 16.0) as u32 == cell_x && (p.y / 16.0) as u32 == cell_y
        })
        .expect("a crate in that cell")
}

const RIGHT: Input = Input {
    move_x: 1,
    move_y: 0,
    attack: false,
};
const LEFT: Input = Input {
    move_x: -1,
    move_y: 0,
    attack: false,
};
const ATTACK: Input = Input {
    move_x: 0,
    move_y: 0,
    attack: true,
};
const IDLE: Input = Input {
    move_x: 0,
    move_y: 0,
    attack: false,
};

#[test]
fn player_is_blocked_flush_by_a_crate_and_by_a_wall() {
    let mut sim = sim_from_rows(&["#######", "#.....#", "#.@.c.#", "#.....#", "#######"]);
    let p = player(&sim);
    hold(&mut sim, RIGHT, 60);
    // Crate in cell 4 spans x 64..80; the player's box is 10 wide.
    assert_eq!(pos(&sim, p).x, 64.0 - 5.0);
    assert_eq!(pos(&sim, p).y, 40.0);
    hold(&mut sim, LEFT, 120);
    // Wall in cell 0 spans x 0..16.
    assert_eq!(pos(&sim, p).x, 16.0 + 5.0);
}

#[test]
fn player_slides_along_a_crate_and_a_wall_when_moving_diagonally() {
    let mut sim = sim_from_rows(&["#######", "#.....#", "#.@.c.#", "#.....#", "#######"]);
    let p = player(&sim);
    hold(&mut sim, RIGHT, 60);
    let before = pos(&sim, p);
    let down_right = Input {
        move_x: 1,
        move_y: 1,
        attack: false,
    };
    hold(&mut sim, down_right, 5);
    let after = pos(&sim, p);
    assert_eq!(after.x, before.x, "still flush against the crate");
    assert!(after.y > before.y + 4.0, "slid down along it: {after:?}");
    // Keep going: the bottom wall (row 4, y 64..80) stops y while x slides on to the right wall.
    hold(&mut sim, down_right, 120);
    let end = pos(&sim, p);
    assert_eq!(end.y, 64.0 - 5.0);
    assert_eq!(end.x, 96.0 - 5.0);
}

#[test]
fn player_never_tunnels_through_a_one_tile_crate() {
    let mut sim = sim_from_rows(&["#########", "#@.c....#", "#########"]);
    let p = player(&sim);
    hold(&mut sim, RIGHT, 600);
    assert!(pos(&sim, p).x <= 48.0 - 5.0);
}

#[test]
fn attack_hits_only_crates_in_reach() {
    let mut sim = sim_from_rows(&["#######", "#.....#", "#.@c.c#", "#..c..#", "#######"]);
    let (near, far, below) = (
        crate_at(&sim, 3, 2),
        crate_at(&sim, 5, 2),
        crate_at(&sim, 3, 3),
    );
    hold(&mut sim, RIGHT, 1); // face right (blocked by the adjacent crate)
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 20);
    let health = |e| sim.world().get::<Crate>(e).unwrap().health;
    assert_eq!(health(near), 2);
    assert_eq!(health(far), 3);
    assert_eq!(health(below), 3);
}

#[test]
fn crate_breaks_after_its_hits_loses_collision_and_counts_as_gone_at_once_and_is_despawned_after_exploding()
 {
    let mut sim = sim_from_rows(&["######", "#@c..#", "######"]);
    let target = crate_at(&sim, 2, 1);
    hold(&mut sim, RIGHT, 1);
    let mut steps = 0;
    while sim.world().get::<Crate>(target).unwrap().health > 0 {
        hold(&mut sim, ATTACK, 1);
        steps += 1;
        assert!(steps < 200, "three swings take well under 200 steps");
        let c = sim.world().get::<Collider>(target).unwrap();
        assert_eq!(
            c.enabled,
            sim.world().get::<Crate>(target).unwrap().health > 0
        );
    }
    assert!(sim.world().has::<Exploding>(target));
    assert!(!sim.world().column::<Debris>().is_empty(), "debris flies");
    assert_eq!(
        sim.state().crates_left,
        0,
        "a broken crate no longer counts"
    );
    assert!(
        sim.state().cleared_at.is_some(),
        "the room is cleared at the break"
    );
    // With collision off the player can walk into the crate's cell while it explodes.
    let p = player(&sim);
    hold(&mut sim, RIGHT, 10);
    assert!(pos(&sim, p).x > 32.0 - 5.0);
    hold(&mut sim, IDLE, 120);
    assert!(
        !sim.world().is_alive(target),
        "despawned once its burst ends"
    );
}

#[test]
fn walking_over_a_coin_picks_it_up() {
    let mut sim = sim_from_rows(&["######", "#@.o.#", "######"]);
    let coin = sim.world().column::<Coin>().entities()[0];
    assert_eq!(sim.state().score, 0);
    hold(&mut sim, RIGHT, 30);
    assert_eq!(sim.state().score, 1);
    assert!(!sim.world().is_alive(coin));
}

#[test]
fn coin_crate_drops_a_coin_that_can_be_collected() {
    // A second crate keeps the room from being cleared (after that, coins stay).
    let mut sim = sim_from_rows(&["#######", "#@$..c#", "#######"]);
    hold(&mut sim, RIGHT, 1);
    hold(&mut sim, ATTACK, 100);
    assert_eq!(
        sim.world().column::<Coin>().len(),
        1,
        "the crate dropped its coin"
    );
    hold(&mut sim, IDLE, 60);
    hold(&mut sim, RIGHT, 120);
    assert_eq!(sim.state().score, 1);
}

#[test]
fn paused_updates_run_only_the_debug_systems() {
    use game::sim::resources::DebugCounts;
    let mut sim = sim_from_rows(&["#######", "#.@.c.#", "#######"]);
    hold(&mut sim, RIGHT, 3);
    let before = sim.state_hash();
    let updates = sim.world().resource::<DebugCounts>().updates;
    for _ in 0..10 {
        sim.world_mut().update_debug_only();
    }
    assert_eq!(sim.state_hash(), before, "nothing moved while paused");
    assert_eq!(sim.world().resource::<DebugCounts>().updates, updates + 10);
    assert_eq!(sim.world().resource::<DebugCounts>().crates, 1);
}

#[test]
fn a_swing_hits_each_crate_once_even_though_its_arc_lives_several_steps() {
    let mut sim = sim_from_rows(&["######", "#@c..#", "######"]);
    let target = crate_at(&sim, 2, 1);
    hold(&mut sim, RIGHT, 1);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 30);
    assert_eq!(sim.world().get::<Crate>(target).unwrap().health, 2);
}

/// Counts of the events the window side plays sounds for, read after every step.
#[derive(Default)]
struct Announcements {
    swings: ecs::EventReader<SwingStarted>,
    breaks: ecs::EventReader<CrateBroken>,
    coins: ecs::EventReader<CoinCollected>,
    broken: Vec<Entity>,
    counts: (usize, usize, usize),
}

impl Announcements {
    fn hold(&mut self, sim: &mut Sim, input: Input, steps: u32) {
        for _ in 0..steps {
            sim.step(input);
            let world = sim.world();
            self.counts.0 += self.swings.read(world).count();
            self.broken
                .extend(self.breaks.read(world).map(|b| b.target));
            self.counts.1 = self.broken.len();
            self.counts.2 += self.coins.read(world).count();
        }
    }
}

#[test]
fn each_swing_break_and_pickup_is_announced_once() {
    // A second crate keeps the room from being cleared (after that, coins stay).
    let mut sim = sim_from_rows(&["#######", "#@$..c#", "#######"]);
    let target = crate_at(&sim, 2, 1);
    let mut seen = Announcements::default();
    seen.hold(&mut sim, RIGHT, 1);
    seen.hold(&mut sim, ATTACK, 1);
    seen.hold(&mut sim, IDLE, 40);
    assert_eq!(seen.counts, (1, 0, 0), "one swing, the crate holds");
    for _ in 0..2 {
        seen.hold(&mut sim, ATTACK, 1);
        seen.hold(&mut sim, IDLE, 40);
    }
    assert_eq!(seen.counts, (3, 1, 0), "the third swing breaks it");
    assert_eq!(seen.broken, [target]);
    seen.hold(&mut sim, IDLE, 60);
    seen.hold(&mut sim, RIGHT, 120);
    assert_eq!(sim.state().score, 1);
    assert_eq!(seen.counts, (3, 1, 1), "its coin is picked up");
}

#[test]
fn every_frame_of_a_clip_is_on_screen_for_its_full_frame_time_the_first_included() {
    use game::sim::components::Animation;
    let mut sim = sim_from_rows(&["#####", "#@.o#", "#####"]);
    let coin = sim.world().column::<Coin>().entities()[0];
    let mut frames = Vec::new();
    for _ in 0..13 {
        sim.step(IDLE);
        frames.push(sim.world().get::<Animation>(coin).unwrap().frame);
    }
    let clip = sim.world().get::<Animation>(coin).unwrap().clip;
    let per_frame = sim
        .world()
        .resource::<game::sim::Clips>()
        .get(clip)
        .steps_per_frame as usize;
    assert_eq!(per_frame, 6, "the coin spins at 0.1 s a frame");
    let expected: Vec<u16> = [0, 1, 2].iter().flat_map(|&f| [f; 6]).take(13).collect();
    assert_eq!(frames, expected);
}

/// Swing once at whatever the player faces, then wait until the swing, its cooldown and any
/// hit flash are over.
fn swing_and_settle(sim: &mut Sim) {
    hold(sim, ATTACK, 1);
    hold(sim, IDLE, 30);
}

#[test]
fn a_six_hit_crate_shows_crack_stages_0_1_2_3_as_it_takes_hits() {
    let mut sim = sim_from_rows(&["######", "#@C..#", "######"]);
    let target = crate_at(&sim, 2, 1);
    hold(&mut sim, RIGHT, 1);
    let mut shown = vec![clip_name(&sim, target)];
    for _ in 0..5 {
        swing_and_settle(&mut sim);
        shown.push(clip_name(&sim, target));
    }
    assert_eq!(
        shown,
        [
            "crate_strong_idle",
            "crate_strong_idle_cracks1",
            "crate_strong_idle_cracks1",
            "crate_strong_idle_cracks2",
            "crate_strong_idle_cracks2",
            "crate_strong_idle_cracks3",
        ]
    );
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 10);
    assert!(
        sim.world().has::<Exploding>(target),
        "the sixth hit breaks it"
    );
}

#[test]
fn a_nine_hit_crate_from_a_legend_cracks_in_thirds_of_its_health() {
    let mut sim = sim_from_rows_and(
        &["######", "#@x..#", "######"],
        "    legend: { 'x': Crate(health: 9, skin: \"crate\") },",
    );
    let target = crate_at(&sim, 2, 1);
    hold(&mut sim, RIGHT, 1);
    let mut stages = vec![clip_name(&sim, target)];
    for _ in 0..8 {
        swing_and_settle(&mut sim);
        stages.push(clip_name(&sim, target));
    }
    let expected: Vec<String> = [0, 1, 1, 1, 2, 2, 2, 3, 3]
        .iter()
        .map(|&stage| match stage {
            0 => "crate_idle".to_owned(),
            n => format!("crate_idle_cracks{n}"),
        })
        .collect();
    assert_eq!(stages, expected);
}

#[test]
fn a_hit_crate_flashes_white_for_100_ms_with_its_new_cracks_showing() {
    use game::sim::components::{Animation, HitFlash};
    let mut sim = sim_from_rows(&["######", "#@c..#", "######"]);
    let target = crate_at(&sim, 2, 1);
    hold(&mut sim, RIGHT, 1);
    hold(&mut sim, ATTACK, 1);
    while !sim.world().has::<HitFlash>(target) {
        hold(&mut sim, IDLE, 1);
    }
    // The step that lands the hit shows it: the cracked crate's hit clip, flash first.
    assert_eq!(clip_name(&sim, target), "crate_hit_cracks1");
    let mut white = 0;
    while clip_name(&sim, target) == "crate_hit_cracks1" {
        // Frames 0 and 1 of a hit clip are the flash and its fade; 2 and 3 the wobble.
        if sim.world().get::<Animation>(target).unwrap().frame < 2 {
            white += 1;
        }
        hold(&mut sim, IDLE, 1);
    }
    assert_eq!(white, 6, "6 steps at 60 steps/s = 100 ms of flash");
    assert_eq!(clip_name(&sim, target), "crate_idle_cracks1");
}

/// Put the player's centre at `(x, y)`, facing right.
fn place_facing_right(sim: &mut Sim, x: f32, y: f32) {
    hold(sim, RIGHT, 1);
    let p = player(sim);
    if let Some(mut pos) = sim.world_mut().get_mut::<Position>(p) {
        *pos = Position { x, y };
    }
}

fn health(sim: &Sim, e: Entity) -> u32 {
    sim.world().get::<Crate>(e).unwrap().health
}

// The swing's arc: a disc of radius 7 whose centre is 12 px in front of the player.

#[test]
fn a_crate_one_pixel_inside_the_arc_is_hit_and_one_touching_it_is_not() {
    let rows = [
        "#########",
        "#.......#",
        "#.@...c.#",
        "#.......#",
        "#########",
    ];
    // The crate in cell 6 spans x 96..112 and y 32..48.
    for (player_x, hit) in [(78.0, true), (77.0, false)] {
        let mut sim = sim_from_rows(&rows);
        let target = crate_at(&sim, 6, 2);
        // Arc centre x = player_x + 12, so the disc reaches x = player_x + 19: 97 or 96.
        place_facing_right(&mut sim, player_x, 40.0);
        hold(&mut sim, ATTACK, 1);
        hold(&mut sim, IDLE, 30);
        assert_eq!(
            health(&sim, target),
            if hit { 2 } else { 3 },
            "player at {player_x}"
        );
    }
}

#[test]
fn a_crate_in_the_corner_of_the_arcs_square_but_outside_its_disc_is_not_hit() {
    let rows = [
        "#########",
        "#.......#",
        "#.@.....#",
        "#.....c.#",
        "#########",
    ];
    // Crate spans x 96..112, y 48..64. Arc centre (90, 42): its bounding square reaches
    // (97, 49), into the crate, but the crate's nearest corner (96, 48) is 8.5 px away.
    let mut sim = sim_from_rows(&rows);
    let target = crate_at(&sim, 6, 3);
    place_facing_right(&mut sim, 78.0, 42.0);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 30);
    assert_eq!(health(&sim, target), 3);
    // Two pixels closer on each axis, (92, 44), the corner is 5.7 px away: inside.
    let mut sim = sim_from_rows(&rows);
    let target = crate_at(&sim, 6, 3);
    place_facing_right(&mut sim, 80.0, 44.0);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 30);
    assert_eq!(health(&sim, target), 2);
}

#[test]
fn one_swing_hits_both_crates_side_by_side_under_its_arc_once_each() {
    let rows = [
        "#######", "#.....#", "#...c.#", "#.@.c.#", "#...c.#", "#######",
    ];
    let mut sim = sim_from_rows(&rows);
    let (upper, lower, below) = (
        crate_at(&sim, 4, 2),
        crate_at(&sim, 4, 3),
        crate_at(&sim, 4, 4),
    );
    // Arc centre (64, 48): on the corner the upper and lower crates share; the crate below
    // them starts 16 px away.
    place_facing_right(&mut sim, 52.0, 48.0);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 30);
    assert_eq!(
        [
            health(&sim, upper),
            health(&sim, lower),
            health(&sim, below)
        ],
        [2, 2, 3]
    );
}

#[test]
fn a_player_slightly_off_the_middle_of_a_lane_hits_only_the_crate_ahead() {
    let rows = [
        "#######", "#.....#", "#...c.#", "#.@.c.#", "#...c.#", "#######",
    ];
    for dy in [-1.4, 0.0, 1.4] {
        let mut sim = sim_from_rows(&rows);
        let (upper, ahead, lower) = (
            crate_at(&sim, 4, 2),
            crate_at(&sim, 4, 3),
            crate_at(&sim, 4, 4),
        );
        // The lane's middle is y = 56; the arc's centre rounds to 55, 56 or 57, and its edge
        // (radius 7) at most touches the neighbours' boxes, which end at 48 and start at 64.
        place_facing_right(&mut sim, 52.0, 56.0 + dy);
        hold(&mut sim, ATTACK, 1);
        hold(&mut sim, IDLE, 30);
        assert_eq!(
            [
                health(&sim, upper),
                health(&sim, ahead),
                health(&sim, lower)
            ],
            [3, 2, 3],
            "player {dy} px off the middle"
        );
    }
}

#[test]
fn the_arc_is_drawn_over_the_disc_that_hits_for_exactly_the_live_steps() {
    use game::sim::components::{DrawData, HitFlash, Lifetime};
    let mut sim = sim_from_rows(&["######", "#@c..#", "######"]);
    let target = crate_at(&sim, 2, 1);
    place_facing_right(&mut sim, 25.5, 24.0);
    let arcs = |sim: &Sim| -> Vec<Entity> {
        let world = sim.world();
        world
            .column::<Lifetime>()
            .entities()
            .iter()
            .copied()
            .filter(|&e| clip_name(sim, e).starts_with("slash_"))
            .collect()
    };
    let mut shown = Vec::new();
    let mut hit_at = None;
    for step in 0..15 {
        hold(&mut sim, if step == 0 { ATTACK } else { IDLE }, 1);
        if let &[arc] = arcs(&sim).as_slice() {
            shown.push(step);
            // Centre 12 px ahead, rounded: (37.5 -> 38, 24); the 16 x 16 sprite is drawn
            // with its centre there, so its pixels are the disc's.
            assert_eq!(pos(&sim, arc), Position { x: 38.0, y: 24.0 });
            let draw = sim.world().get::<DrawData>(arc).unwrap();
            assert_eq!((draw.x, draw.y), (30.0, 16.0));
        }
        if hit_at.is_none() && sim.world().has::<HitFlash>(target) {
            hit_at = Some(step);
        }
    }
    // Steps counted from the one the key is pressed in: live steps 3..=6.
    assert_eq!(shown, [3, 4, 5, 6]);
    assert_eq!(hit_at, Some(3), "the crate is hit on the arc's first step");
}

#[test]
fn the_arc_stays_where_it_appeared_when_the_player_walks_on() {
    let mut sim = sim_from_rows(&["#########", "#.@.....#", "#########"]);
    place_facing_right(&mut sim, 40.0, 24.0);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 3); // the arc appears at (52, 24)
    hold(&mut sim, RIGHT, 3); // the player walks 4.5 px on while it is live
    let world = sim.world();
    let arc = world.column::<game::sim::components::Lifetime>().entities()[0];
    assert_eq!(pos(&sim, arc), Position { x: 52.0, y: 24.0 });
}

#[test]
fn the_bot_waits_while_no_crate_is_reachable_and_goes_for_one_once_the_map_changes() {
    use game::sim::resources::TileMap;
    // The crate at x = 4 is behind the wall at x = 3: nothing to do.
    let mut sim = sim_from_rows(&["######", "#@.#c#", "######"]);
    sim.set_bot(true);
    let p = player(&sim);
    let start = pos(&sim, p);
    for _ in 0..60 {
        sim.step(IDLE);
        assert_eq!(pos(&sim, p), start);
        assert_eq!(sim.world().get::<Player>(p).unwrap().swing, 0);
    }
    // The map now says that crate stands at x = 2, next to the player (a change the bot's
    // search depends on, though no entity moved).
    let c = crate_at(&sim, 4, 1);
    let map = sim.world_mut().resource_mut::<TileMap>();
    let i = map.index(2, 1).unwrap();
    map.set_crate(i, Some(c));
    let swung = (0..60).any(|_| {
        sim.step(IDLE);
        sim.world().get::<Player>(p).unwrap().swing > 0
    });
    assert!(
        swung,
        "the bot searched again and swung at the crate it found"
    );
}

#[test]
fn a_map_without_walls_keeps_the_player_inside_its_edges() {
    let mut sim = sim_from_rows(&["@..", "..."]);
    let p = player(&sim);
    hold(&mut sim, LEFT, 100);
    assert_eq!(
        pos(&sim, p),
        Position { x: 5.0, y: 8.0 },
        "flush with x = 0"
    );
    let up_left = Input {
        move_x: -1,
        move_y: -1,
        attack: false,
    };
    hold(&mut sim, up_left, 100);
    assert_eq!(pos(&sim, p), Position { x: 5.0, y: 5.0 }, "in the corner");
    let down_right = Input {
        move_x: 1,
        move_y: 1,
        attack: false,
    };
    hold(&mut sim, down_right, 100);
    assert_eq!(
        pos(&sim, p),
        Position { x: 43.0, y: 27.0 },
        "the far corner"
    );
}

#[test]
fn a_void_cell_blocks_and_slides_the_player_exactly_like_a_wall() {
    let level = |c: char| {
        let middle = format!(".@.{c}..");
        sim_from_rows(&["......", &middle, "......"])
    };
    let mut void = level(' ');
    let p = player(&void);
    hold(&mut void, RIGHT, 60);
    assert_eq!(
        pos(&void, p).x,
        48.0 - 5.0,
        "flush against the void at x = 3"
    );
    let (mut void, mut wall) = (level(' '), level('#'));
    let (pv, pw) = (player(&void), player(&wall));
    let inputs = [(1, 0, 40), (1, 1, 30), (-1, 0, 10), (1, -1, 40), (1, 0, 30)];
    for (move_x, move_y, steps) in inputs {
        let input = Input {
            move_x,
            move_y,
            attack: false,
        };
        for _ in 0..steps {
            void.step(input);
            wall.step(input);
            assert_eq!(pos(&void, pv), pos(&wall, pw));
        }
    }
}

#[test]
fn debris_and_coins_thrown_by_a_crate_in_the_void_stay_on_its_floor() {
    // Floor is only the crate's cell (x 16..32, y 16..32) and the player's below it.
    let mut sim = sim_from_rows(&["   ", " $ ", " @ ", "   "]);
    let up = Input {
        move_x: 0,
        move_y: -1,
        attack: false,
    };
    hold(&mut sim, up, 5);
    let mut broke = false;
    for _ in 0..300 {
        sim.step(ATTACK);
        let world = sim.world();
        broke |= world.try_column::<Debris>().is_some_and(|c| !c.is_empty());
        let thrown = world.try_column::<Debris>().map(|c| c.entities().to_vec());
        let coins = world.column::<Coin>().entities().to_vec();
        for e in thrown.unwrap_or_default().into_iter().chain(coins) {
            let p = pos(&sim, e);
            assert!(
                (16.0..=32.0).contains(&p.x) && (16.0..=48.0).contains(&p.y),
                "{e:?} left the floor: {p:?}"
            );
        }
    }
    assert!(broke, "the crate broke and threw its debris");
    // The coin lands on the floor, where the player, standing on it too, may pick it up.
    assert_eq!(
        sim.world().column::<Coin>().len() + sim.state().score as usize,
        1,
        "its coin is on the floor or collected"
    );
}

// Powder kegs.

/// Light `keg`'s fuse with `steps` to burn, as a hit would.
fn light(sim: &mut Sim, keg: Entity, steps: u32) {
    sim.world_mut()
        .insert(keg, Fuse { steps })
        .expect("a live keg");
}

fn exploding(sim: &Sim, e: Entity) -> bool {
    sim.world().has::<Exploding>(e)
}

#[test]
fn a_swing_lights_a_keg_instead_of_damaging_it_and_it_blows_when_the_fuse_burns_out() {
    let mut sim = sim_from_rows(&["#######", "#@k...#", "#######"]);
    let keg = crate_at(&sim, 2, 1);
    assert!(sim.world().has::<Keg>(keg));
    hold(&mut sim, RIGHT, 1);
    hold(&mut sim, ATTACK, 1);
    let mut lit_at = None;
    let mut blown_at = None;
    let mut blasts = ecs::EventReader::<KegExploded>::default();
    let mut announced = Vec::new();
    for step in 0..80u32 {
        sim.step(IDLE);
        announced.extend(blasts.read(sim.world()).map(|b| (step, b.keg)));
        if lit_at.is_none() && sim.world().has::<Fuse>(keg) {
            lit_at = Some(step);
            assert_eq!(health(&sim, keg), 1, "a hit does not damage a keg");
            assert_eq!(clip_name(&sim, keg), "keg_lit");
        }
        if blown_at.is_none() && exploding(&sim, keg) {
            blown_at = Some(step);
            assert_eq!(clip_name(&sim, keg), "keg_explode");
        }
    }
    let (lit, blown) = (lit_at.expect("lit"), blown_at.expect("blown"));
    // The fuse burns KEG_FUSE_STEPS steps, the step it is lit included.
    assert_eq!(blown - lit, KEG_FUSE_STEPS - 1);
    assert_eq!(announced, [(blown, keg)], "one blast, announced once");
    hold(&mut sim, IDLE, 60);
    assert!(!sim.world().is_alive(keg), "despawned after its explosion");
}

#[test]
fn a_blast_deals_three_hits_to_every_crate_whose_centre_is_within_two_and_a_half_tiles() {
    // Keg at (5, 5); 9-hit crates around it; the player far off in a corner.
    let mut sim = sim_from_rows_and(
        &[
            "###########",
            "#@........#",
            "#....x....#",
            "#.........#",
            "#...x.....#",
            "#....k.x..#",
            "#......x..#",
            "#.......x.#",
            "#.........#",
            "#.........#",
            "###########",
        ],
        "    legend: { 'x': Crate(health: 9) },",
    );
    let keg = crate_at(&sim, 5, 5);
    // (cell, distance in tiles from the keg, in range)
    let cases = [
        ((4, 4), "1.41", true),
        ((7, 5), "2", true),
        ((7, 6), "2.24", true),
        ((8, 7), "3.61", false),
        ((5, 2), "3", false),
    ];
    let crates: Vec<Entity> = cases
        .iter()
        .map(|&((x, y), ..)| crate_at(&sim, x, y))
        .collect();
    light(&mut sim, keg, 1);
    sim.step(IDLE);
    assert!(exploding(&sim, keg));
    for (&(cell, distance, in_range), &e) in cases.iter().zip(&crates) {
        let expected = if in_range { 9 - KEG_DAMAGE } else { 9 };
        assert_eq!(
            health(&sim, e),
            expected,
            "crate at {cell:?}, {distance} tiles away"
        );
    }
    let p = player(&sim);
    assert!(!sim.world().has::<Stunned>(p), "the player is out of range");
}

#[test]
fn a_crate_between_two_kegs_takes_one_blasts_damage_from_each() {
    let mut sim = sim_from_rows_and(
        &[
            "#########",
            "#@......#",
            "#..kxk..#",
            "#.......#",
            "#..x....#",
            "#########",
        ],
        "    legend: { 'x': Crate(health: 9) },",
    );
    let (left, right) = (crate_at(&sim, 3, 2), crate_at(&sim, 5, 2));
    let between = crate_at(&sim, 4, 2);
    let below = crate_at(&sim, 3, 4);
    light(&mut sim, left, 1);
    light(&mut sim, right, 1);
    sim.step(IDLE);
    assert!(exploding(&sim, left) && exploding(&sim, right));
    assert_eq!(health(&sim, between), 9 - 2 * KEG_DAMAGE, "once per blast");
    assert_eq!(
        health(&sim, below),
        9 - KEG_DAMAGE,
        "only the left keg reaches it"
    );
    hold(&mut sim, IDLE, 60);
    assert_eq!(health(&sim, below), 9 - KEG_DAMAGE, "never again");
}

#[test]
fn a_blast_breaks_a_plain_crate_and_lights_the_kegs_in_range_which_go_off_in_a_wave() {
    // Kegs two cells apart: each is in range of the one before it.
    let mut sim = sim_from_rows(&[
        "############",
        "#@.........#",
        "#.k.k.k.k.c#",
        "############",
    ]);
    let kegs: Vec<Entity> = [2, 4, 6, 8].map(|x| crate_at(&sim, x, 2)).to_vec();
    let plain = crate_at(&sim, 10, 2);
    light(&mut sim, kegs[0], 1);
    let mut blown_at = vec![None; kegs.len()];
    for step in 1..=100u32 {
        sim.step(IDLE);
        for (k, at) in kegs.iter().zip(&mut blown_at) {
            if at.is_none() && exploding(&sim, *k) {
                *at = Some(step);
            }
        }
    }
    let expected: Vec<Option<u32>> = (0..4).map(|i| Some(1 + i * KEG_CHAIN_FUSE_STEPS)).collect();
    assert_eq!(blown_at, expected);
    assert!(!sim.world().is_alive(plain), "3 hits break a 3-hit crate");
    assert_eq!(sim.state().crates_left, 0);
}

#[test]
fn a_blast_throws_the_player_away_and_stuns_it_but_never_kills_it() {
    let mut sim = sim_from_rows(&["##########", "#...k@...#", "##########"]);
    let keg = crate_at(&sim, 4, 1);
    let p = player(&sim);
    let start = pos(&sim, p);
    light(&mut sim, keg, 1);
    // Walking into the keg as it blows: the throw replaces the walk.
    sim.step(LEFT);
    assert_eq!(
        *sim.world().get::<Velocity>(p).unwrap(),
        Velocity {
            x: KNOCKBACK_SPEED,
            y: 0.0
        },
        "thrown straight away from the keg"
    );
    assert!(sim.world().has::<Stunned>(p));
    assert_eq!(
        clip_name(&sim, p),
        "player_stunned_left",
        "stars round its head"
    );
    // While stunned the keys do nothing: holding left, the player still slides right.
    let mut last = pos(&sim, p).x;
    for _ in 1..STUN_STEPS {
        sim.step(LEFT);
        let x = pos(&sim, p).x;
        assert!(x >= last, "stunned players do not walk");
        last = x;
    }
    assert!(!sim.world().has::<Stunned>(p), "the stun wears off");
    assert_ne!(clip_name(&sim, p), "player_stunned_left");
    assert!(last > start.x + 16.0, "thrown more than a tile");
    assert!(sim.world().is_alive(p));
    hold(&mut sim, LEFT, 5);
    assert!(pos(&sim, p).x < last, "walks again");
}

#[test]
fn in_the_powder_room_one_swing_at_the_keg_by_the_wall_brings_the_whole_wall_down() {
    let mut sim = sim_from_file("powder_room.ron", 1);
    let in_wall = |sim: &Sim| {
        let world = sim.world();
        world
            .column::<Crate>()
            .entities()
            .iter()
            .filter(|&&e| (5..=8).contains(&((pos(sim, e).x / 16.0) as u32)))
            .count()
    };
    assert_eq!(
        in_wall(&sim),
        24,
        "18 strong crates, 5 kegs inside, 1 beside"
    );
    let p = player(&sim);
    // Walk up to the keg, swing once, let the swing land, then step back out of reach.
    hold(&mut sim, RIGHT, 30);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 6);
    let mut stunned = false;
    for _ in 0..30 {
        sim.step(LEFT);
        stunned |= sim.world().has::<Stunned>(p);
    }
    for _ in 0..150 {
        sim.step(IDLE);
        stunned |= sim.world().has::<Stunned>(p);
    }
    assert_eq!(in_wall(&sim), 0, "the wall is gone");
    assert!(!stunned, "half a second is time enough to step back");
}

#[test]
fn a_legend_crate_with_the_keg_skin_is_a_keg_whatever_its_health() {
    let mut sim = sim_from_rows_and(
        &["#######", "#@x...#", "#######"],
        "    legend: { 'x': Crate(health: 50, skin: \"keg\") },",
    );
    let keg = crate_at(&sim, 2, 1);
    assert!(sim.world().has::<Keg>(keg));
    hold(&mut sim, RIGHT, 1);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, 6);
    assert!(sim.world().has::<Fuse>(keg), "one swing lights it");
    assert_eq!(health(&sim, keg), 50);
    hold(&mut sim, IDLE, KEG_FUSE_STEPS);
    assert!(exploding(&sim, keg));
}

#[test]
fn a_coin_picked_up_after_the_last_crate_breaks_takes_nothing_off_the_clock() {
    // A crate right of the player, a loose coin at the far left.
    let mut sim = sim_from_rows(&["#######", "#o..@c#", "#######"]);
    hold(&mut sim, RIGHT, 1);
    for _ in 0..600 {
        if sim.state().cleared_at.is_some() {
            break;
        }
        sim.step(ATTACK);
    }
    let time = sim.state().room_time().expect("the room is cleared");
    // Walk over the coin.
    hold(&mut sim, LEFT, 120);
    assert_eq!(
        sim.state().score,
        0,
        "the coin is not collected after the clear"
    );
    assert_eq!(
        sim.world().column::<Coin>().len(),
        1,
        "the coin stays where it lies"
    );
    assert_eq!(
        sim.state().room_time(),
        Some(time),
        "the room's time stands"
    );
}

#[test]
fn the_bot_stands_at_the_seam_of_two_crates_and_breaks_both_with_three_swings() {
    let mut sim = sim_from_rows(&["#######", "#.cc..#", "#.....#", "#...@.#", "#######"]);
    let swings = bot_swings_until_clear(&mut sim, 600);
    assert_eq!(swings, 3, "each swing hit both plain crates (3 hits each)");
}

#[test]
fn the_bot_lights_a_keg_rather_than_smash_what_its_blast_breaks() {
    // Three plain crates around a keg (at least 6 swings by hammer); the keg takes one.
    let mut sim = sim_from_rows(&[
        "#########",
        "#.......#",
        "#...c...#",
        "#..ckc..#",
        "#.......#",
        "#.......#",
        "#@......#",
        "#########",
    ]);
    let swings = bot_swings_until_clear(&mut sim, 1200);
    assert_eq!(swings, 1, "one swing, at the keg, cleared the room");
}

/// Lets the bot play until the room is clear (at most `max_steps`) and counts its swings.
fn bot_swings_until_clear(sim: &mut Sim, max_steps: usize) -> usize {
    sim.set_bot(true);
    let p = player(sim);
    let mut swings = 0;
    for _ in 0..max_steps {
        if sim.state().cleared_at.is_some() {
            break;
        }
        sim.step(IDLE);
        if sim.world().get::<Player>(p).unwrap().swing == game::sim::tuning::SWING_STEPS {
            swings += 1;
        }
    }
    assert!(sim.state().cleared_at.is_some(), "the bot cleared the room");
    swings
}

// The clock and the swing, as README states them.

#[test]
fn the_clock_stops_at_the_last_break_and_a_coin_taken_during_its_burst_does_not_count() {
    // A crate right of the player, a loose coin one tile to its left.
    let mut sim = sim_from_rows(&["#######", "#.o@c.#", "#######"]);
    let target = crate_at(&sim, 4, 1);
    hold(&mut sim, RIGHT, 1);
    let mut broke_at = None;
    for _ in 0..600 {
        sim.step(ATTACK);
        if health(&sim, target) == 0 {
            broke_at = Some(sim.state().step);
            break;
        }
    }
    let broke_at = broke_at.expect("the crate breaks");
    let at_break = sim.state();
    // Its burst still plays: walk over the coin meanwhile.
    hold(&mut sim, LEFT, 20);
    assert!(
        sim.world().get::<Exploding>(target).is_some(),
        "the burst outlasts the walk"
    );
    assert_eq!(
        sim.state().score,
        0,
        "the coin does not count after the break"
    );
    assert_eq!(sim.world().column::<Coin>().len(), 1, "the coin stays");
    assert_eq!(
        at_break.cleared_at,
        Some(broke_at),
        "the clock stopped at the break"
    );
    assert_eq!(
        sim.state().room_time(),
        at_break.room_time(),
        "the room's time stands"
    );
}

/// Put the player's centre at `(x, y)`, facing `facing` (one step of walking that way first).
fn place_facing(sim: &mut Sim, facing: Input, x: f32, y: f32) {
    hold(sim, facing, 1);
    let p = player(sim);
    if let Some(mut pos) = sim.world_mut().get_mut::<Position>(p) {
        *pos = Position { x, y };
    }
}

fn swing_once(sim: &mut Sim) {
    hold(sim, ATTACK, 1);
    hold(sim, IDLE, 30);
}

#[test]
fn a_swing_into_a_wall_misses_the_crate_round_its_corner() {
    // A one-tile connector going down, with a crate round the corner: the player at the
    // connector's bottom, facing right, has the arc centred in the wall (2, 1), and its disc
    // reaches 3 px into the crate (2, 2) below that wall.
    let rows = ["####", "#@##", "#.c#", "####"];
    let mut sim = sim_from_rows(&rows);
    let target = crate_at(&sim, 2, 2);
    // Arc centre (39, 28): in the wall; the crate's box starts at y 32, 4 px away.
    place_facing(&mut sim, RIGHT, 27.0, 28.0);
    swing_once(&mut sim);
    assert_eq!(health(&sim, target), 3, "walls stop the hammer");
    // From the lane the crate stands in, the same crate is hit.
    let mut sim = sim_from_rows(&rows);
    let target = crate_at(&sim, 2, 2);
    place_facing(&mut sim, RIGHT, 27.0, 40.0);
    swing_once(&mut sim);
    assert_eq!(health(&sim, target), 2);
}

#[test]
fn a_swing_does_not_squeeze_between_two_walls_that_meet_at_a_corner() {
    // The crate (4, 2) is diagonal to the cell (3, 1) the arc is centred in, and the cells
    // beside their shared corner, (4, 1) and (3, 2), are both walls.
    let rows = ["######", "#@..##", "####c#", "######"];
    let mut sim = sim_from_rows(&rows);
    let target = crate_at(&sim, 4, 2);
    // The player's box (46..56, 22..32) stands on floor; arc centre (63, 27): the crate's
    // corner (64, 32) is 5.1 px away, inside the disc.
    place_facing(&mut sim, RIGHT, 51.0, 27.0);
    swing_once(&mut sim);
    assert_eq!(health(&sim, target), 3, "no hit through the corner");
    // With one of the two walls open, the corner is open and the same swing hits.
    let mut sim = sim_from_rows(&["######", "#@..##", "###.c#", "######"]);
    let target = crate_at(&sim, 4, 2);
    place_facing(&mut sim, RIGHT, 51.0, 27.0);
    swing_once(&mut sim);
    assert_eq!(health(&sim, target), 2);
}

#[test]
fn one_swing_hits_three_crates_in_an_l_from_the_empty_corner_beside_them() {
    // Crates (2, 2), (2, 3) and (3, 3) around the corner (48, 48); the player stands in the
    // L's empty cell (3, 2), facing left, low in the cell, its box (56..66, 37..47) clear.
    let rows = ["######", "#@...#", "#.c..#", "#.cc.#", "######"];
    let mut sim = sim_from_rows(&rows);
    let l = [
        crate_at(&sim, 2, 2),
        crate_at(&sim, 2, 3),
        crate_at(&sim, 3, 3),
    ];
    // Arc centre (49, 42): 1 px from the first crate, 6 px from the other two.
    place_facing(&mut sim, LEFT, 61.0, 42.0);
    swing_once(&mut sim);
    assert_eq!(
        l.map(|e| health(&sim, e)),
        [2, 2, 2],
        "all three took a hit"
    );
}

#[test]
fn a_blast_that_catches_the_player_burns_two_seconds_onto_the_clock() {
    use game::sim::tuning::BURN_STEPS;
    // A crate out of the blast's reach keeps the clock running.
    let rows = ["##########", "#...k@..c#", "##########"];
    // Light the keg and stand still: caught.
    let mut sim = sim_from_rows(&rows);
    let keg = crate_at(&sim, 4, 1);
    hold(&mut sim, LEFT, 1);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, IDLE, KEG_FUSE_STEPS + 10);
    assert!(
        !sim.world().is_alive(keg) || exploding(&sim, keg),
        "it blew"
    );
    assert_eq!(sim.state().burns, 1);
    let still = sim.state();
    let unburnt = GameState { burns: 0, ..still };
    assert_eq!(still.clock(), unburnt.clock() + BURN_STEPS);
    // Light it and step straight back: half a second of fuse is time to get out of reach.
    let mut sim = sim_from_rows(&rows);
    hold(&mut sim, LEFT, 1);
    hold(&mut sim, ATTACK, 1);
    hold(&mut sim, RIGHT, KEG_FUSE_STEPS + 10);
    assert_eq!(sim.state().burns, 0, "never burnt");
    assert!(!sim.world().has::<Stunned>(player(&sim)), "nor thrown");
}
