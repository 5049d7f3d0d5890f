//! The lessons the campaign's levels teach work in the levels as shipped: a scripted player walks
//! to where the lesson says to stand, swings once, and the simulation does what the level
//! promises.

use crate::common;

use std::collections::VecDeque;

use common::{repo, sim_from_file};
use ecs::Entity;
use game::level::{self, DEFAULT_SKINS, Level, Tile};
use game::sim::components::{Crate, Keg, Player, Position};
use game::sim::tuning::TILE;
use game::sim::{Input, Sim};

/// Steps a scripted walk may take before the test gives up on reaching its cell.
const WALK_DEADLINE: u32 = 60 * 60;

fn load(name: &str) -> Level {
    level::load(&repo().join("levels").join(name), &DEFAULT_SKINS).unwrap_or_else(|e| panic!("{e}"))
}

fn player(sim: &Sim) -> Entity {
    sim.world().column::<Player>().entities()[0]
}

fn cell_of(p: Position) -> (i32, i32) {
    ((p.x / TILE) as i32, (p.y / TILE) as i32)
}

/// The crates and kegs still standing, by cell.
fn crates_by_cell(sim: &Sim) -> Vec<((i32, i32), Entity)> {
    let world = sim.world();
    world
        .column::<Crate>()
        .entities()
        .iter()
        .map(|&e| (cell_of(*world.get::<Position>(e).unwrap()), e))
        .collect()
}

/// Walk the player to the centre of `goal` through floor cells free of crates (breadth-first,
/// one axis at a time, as a player on the keyboard would), then face `facing` (`(dx, dy)`,
/// one step's press, which a crate or wall ahead stops).
fn walk_to(sim: &mut Sim, level: &Level, goal: (i32, i32), facing: (i8, i8)) {
    let occupied: Vec<(i32, i32)> = crates_by_cell(sim).iter().map(|&(c, _)| c).collect();
    let free = |(x, y): (i32, i32)| {
        x >= 0
            && y >= 0
            && (x as u32) < level.width
            && (y as u32) < level.height
            && level.tile(x as u32, y as u32) == Tile::Floor
            && !occupied.contains(&(x, y))
    };
    let start = cell_of(*sim.world().get::<Position>(player(sim)).unwrap());
    let mut parent = std::collections::HashMap::new();
    let mut queue = VecDeque::from([start]);
    parent.insert(start, start);
    while let Some(c) = queue.pop_front() {
        if c == goal {
            break;
        }
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let n = (c.0 + dx, c.1 + dy);
            if free(n) && !parent.contains_key(&n) {
                parent.insert(n, c);
                queue.push_back(n);
            }
        }
    }
    assert!(
        parent.contains_key(&goal),
        "no way from {start:?} to {goal:?}"
    );
    let mut path = vec![goal];
    while *path.last().unwrap() != start {
        path.push(parent[path.last().unwrap()]);
    }
    path.reverse();
    let mut steps = 0;
    for (cx, cy) in path {
        let (tx, ty) = ((cx as f32 + 0.5) * TILE, (cy as f32 + 0.5) * TILE);
        loop {
            let p = *sim.world().get::<Position>(player(sim)).unwrap();
            let (dx, dy) = (tx - p.x, ty - p.y);
            let mut input = Input::default();
            if dx.abs() > 0.75 {
                input.move_x = dx.signum() as i8;
            } else if dy.abs() > 0.75 {
                input.move_y = dy.signum() as i8;
            } else {
                break;
            }
            sim.step(input);
            steps += 1;
            assert!(
                steps < WALK_DEADLINE,
                "the walk to {goal:?} is stuck at {p:?}"
            );
        }
    }
    sim.step(Input {
        move_x: facing.0,
        move_y: facing.1,
        attack: false,
    });
}

fn swing(sim: &mut Sim) {
    sim.step(Input {
        attack: true,
        ..Input::default()
    });
}

fn idle(sim: &mut Sim, steps: u32) {
    for _ in 0..steps {
        sim.step(Input::default());
    }
}

fn kegs_in_row(sim: &Sim, row: i32) -> Vec<(i32, i32)> {
    let world = sim.world();
    let mut kegs: Vec<(i32, i32)> = crates_by_cell(sim)
        .into_iter()
        .filter(|&(c, e)| c.1 == row && world.has::<Keg>(e))
        .map(|(c, _)| c)
        .collect();
    kegs.sort_unstable();
    kegs
}

#[test]
fn one_swing_at_the_end_keg_of_each_row_of_keg_row_blows_every_keg_in_the_row() {
    let level = load("keg_row.ron");
    let mut rows: Vec<i32> = level
        .crates
        .iter()
        .filter(|c| c.skin.as_str() == "keg")
        .map(|c| c.at.y as i32)
        .collect();
    rows.dedup();
    assert!(rows.len() >= 2, "Keg Row has rows of kegs: {rows:?}");
    for row in rows {
        let mut sim = sim_from_file("keg_row.ron", 1);
        let kegs = kegs_in_row(&sim, row);
        let end = kegs[0];
        walk_to(&mut sim, &level, (end.0 - 1, end.1), (1, 0));
        swing(&mut sim);
        // Each keg blows within a fuse of the one before it; ten seconds is far more.
        idle(&mut sim, 600);
        let left = kegs_in_row(&sim, row);
        assert!(
            left.is_empty(),
            "row {row}: one swing at the end keg {end:?} blew {} of its {} kegs; still standing: \
             {left:?}",
            kegs.len() - left.len(),
            kegs.len()
        );
    }
}

/// A pair: two crates in cells side by side (or one above the other).
fn pairs(level: &Level) -> Vec<((i32, i32), (i32, i32))> {
    let cells: Vec<(i32, i32)> = level
        .crates
        .iter()
        .map(|c| (c.at.x as i32, c.at.y as i32))
        .collect();
    let mut pairs = Vec::new();
    for &a in &cells {
        for b in [(a.0 + 1, a.1), (a.0, a.1 + 1)] {
            if cells.contains(&b) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

#[test]
fn every_crate_of_first_swing_is_one_of_a_pair() {
    let level = load("first_swing.ron");
    let pairs = pairs(&level);
    for c in &level.crates {
        let cell = (c.at.x as i32, c.at.y as i32);
        assert!(
            pairs.iter().any(|&(a, b)| a == cell || b == cell),
            "First Swing's crate at {cell:?} has no crate beside it: one swing cannot hit it and \
             another"
        );
    }
}

#[test]
fn one_swing_at_the_seam_of_each_pair_of_first_swing_hits_both_crates() {
    let level = load("first_swing.ron");
    let pairs = pairs(&level);
    assert!(pairs.len() >= 3, "First Swing teaches pairs: {pairs:?}");
    one_swing_at_each_seam_hits_both("first_swing.ron", &level, pairs, |_| {});
}

#[test]
fn every_iron_crate_of_iron_bands_shares_a_swing_with_a_plain_one_beside_it() {
    let level = load("iron_bands.ron");
    let health = |cell: (i32, i32)| {
        level
            .crates
            .iter()
            .find(|c| (c.at.x as i32, c.at.y as i32) == cell)
            .map(|c| c.health)
    };
    let mixed: Vec<_> = pairs(&level)
        .into_iter()
        .filter(|&(a, b)| {
            let mut kinds = [health(a), health(b)];
            kinds.sort_unstable();
            kinds == [Some(3), Some(6)]
        })
        .collect();
    let iron = level.crates.iter().filter(|c| c.health == 6);
    for c in iron {
        let cell = (c.at.x as i32, c.at.y as i32);
        assert!(
            mixed.iter().any(|&(a, b)| a == cell || b == cell),
            "the iron crate at {cell:?} has no plain crate beside it"
        );
    }
    one_swing_at_each_seam_hits_both("iron_bands.ron", &level, mixed, break_out);
}

/// Smash whatever stands right beside the start (Iron Bands' warm-up crates box the player
/// in), and wait for the bursts to clear.
fn break_out(sim: &mut Sim) {
    for (x, y) in [(0, -1), (-1, 0), (1, 0), (0, 1)] {
        sim.step(Input {
            move_x: x,
            move_y: y,
            attack: false,
        });
        for _ in 0..6 {
            swing(sim);
            idle(sim, 25);
        }
    }
    idle(sim, 120);
}

/// One swing at the seam of each pair (from the side, as a player would stand, after `before`)
/// takes a hit off both crates.
fn one_swing_at_each_seam_hits_both(
    name: &str,
    level: &Level,
    pairs: Vec<((i32, i32), (i32, i32))>,
    before: fn(&mut Sim),
) {
    for (a, b) in pairs {
        let mut sim = sim_from_file(name, 1);
        before(&mut sim);
        let find = |sim: &Sim, cell| {
            crates_by_cell(sim)
                .into_iter()
                .find(|&(c, _)| c == cell)
                .map(|(_, e)| e)
                .unwrap()
        };
        let (ea, eb) = (find(&sim, a), find(&sim, b));
        // Stand on the cell just past the seam's middle on the side facing the pair, so the
        // arc's centre lands on the seam: the cell below a side-by-side pair (the walk ends at
        // a cell's centre, so nudge half a tile along the seam), the cell left of a stacked one.
        let horizontal = a.1 == b.1;
        let (stand, facing, nudge) = if horizontal {
            ((a.0, a.1 + 1), (0, -1), (1, 0))
        } else {
            ((a.0 - 1, a.1), (1, 0), (0, 1))
        };
        walk_to(&mut sim, level, stand, facing);
        let p = player(&sim);
        let target = {
            let c = *sim.world().get::<Position>(p).unwrap();
            (
                c.x + f32::from(nudge.0) * TILE / 2.0,
                c.y + f32::from(nudge.1) * TILE / 2.0,
            )
        };
        for _ in 0..WALK_DEADLINE {
            let c = *sim.world().get::<Position>(p).unwrap();
            if (c.x - target.0).abs() < 0.75 && (c.y - target.1).abs() < 0.75 {
                break;
            }
            sim.step(Input {
                move_x: nudge.0,
                move_y: nudge.1,
                attack: false,
            });
        }
        // Moving along the seam turned the player; face the pair again.
        sim.step(Input {
            move_x: facing.0,
            move_y: facing.1,
            attack: false,
        });
        swing(&mut sim);
        idle(&mut sim, 30);
        for (cell, e) in [(a, ea), (b, eb)] {
            let health = sim
                .world()
                .get::<Crate>(e)
                .map(|c| (c.health, c.max_health));
            assert!(
                matches!(health, Some((h, max)) if h + 1 == max),
                "{name}: pair {a:?}-{b:?}: one swing from {stand:?} left the crate at {cell:?} \
                 at (health, max) {health:?}, not one hit down"
            );
        }
    }
}

/// Every coin of a level: those lying on the floor and those inside crates.
fn all_coins(level: &Level) -> Vec<(u32, u32)> {
    let loose = level.coins.iter().map(|c| (c.x, c.y));
    let in_crates = level
        .crates
        .iter()
        .filter(|c| c.coin)
        .map(|c| (c.at.x, c.at.y));
    loose.chain(in_crates).collect()
}

/// The coins of `level` that some clear can collect while the room's clock runs, by cell.
///
/// A coin counts only if it is picked up before the last crate breaks, so some crate `last`
/// must be able to stand until every other crate is gone, with the coin reachable meanwhile:
/// with `last` as a wall and every other crate broken (crates break one after another, each
/// from the floor beside it, so the floor a player can reach is what a flood fill reaches
/// through the other crates' cells), every other crate, the coin (a coin crate's is dropped
/// on its own cell) and a side of `last` are reachable, and the blasts of the kegs in reach
/// of `last` leave it standing. A coin crate's own coin counts only if it is not `last`.
fn collectable_coins(level: &Level) -> Vec<(u32, u32)> {
    use game::sim::tuning::{KEG_DAMAGE, KEG_RADIUS};
    let (w, h) = (level.width as i32, level.height as i32);
    let index = |x: i32, y: i32| (x >= 0 && y >= 0 && x < w && y < h).then(|| (y * w + x) as usize);
    let is_keg = |c: &game::level::CrateSpawn| c.skin.as_str() == "keg";
    let coins = all_coins(level);
    let mut found = Vec::new();
    for last in &level.crates {
        if found.len() == coins.len() {
            break;
        }
        let blasts = level
            .crates
            .iter()
            .filter(|k| is_keg(k) && k.at != last.at)
            .filter(|k| {
                let (dx, dy) = (
                    k.at.x as f32 - last.at.x as f32,
                    k.at.y as f32 - last.at.y as f32,
                );
                (dx * dx + dy * dy) * TILE * TILE <= KEG_RADIUS * KEG_RADIUS
            })
            .count() as u32;
        let survives = if is_keg(last) {
            blasts == 0
        } else {
            blasts * KEG_DAMAGE < last.health
        };
        if !survives {
            continue;
        }
        let mut reached = vec![false; (w * h) as usize];
        let start = level.player_start;
        let mut queue = VecDeque::from([(start.x as i32, start.y as i32)]);
        reached[index(start.x as i32, start.y as i32).unwrap()] = true;
        while let Some((x, y)) = queue.pop_front() {
            for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                let Some(i) = index(nx, ny) else { continue };
                let open = level.tile(nx as u32, ny as u32) == Tile::Floor
                    && (nx as u32, ny as u32) != (last.at.x, last.at.y);
                if open && !reached[i] {
                    reached[i] = true;
                    queue.push_back((nx, ny));
                }
            }
        }
        let at = |x: u32, y: u32| index(x as i32, y as i32).is_some_and(|i| reached[i]);
        let (lx, ly) = (last.at.x as i32, last.at.y as i32);
        let last_reachable = [(lx + 1, ly), (lx - 1, ly), (lx, ly + 1), (lx, ly - 1)]
            .into_iter()
            .any(|(x, y)| index(x, y).is_some_and(|i| reached[i]));
        let others_reachable = level
            .crates
            .iter()
            .all(|c| c.at == last.at || at(c.at.x, c.at.y));
        if !(last_reachable && others_reachable) {
            continue;
        }
        for &coin in &coins {
            let own = coin == (last.at.x, last.at.y);
            if !own && at(coin.0, coin.1) && !found.contains(&coin) {
                found.push(coin);
            }
        }
    }
    found
}

#[test]
fn every_coin_of_every_shipped_level_can_be_collected_before_the_clock_stops() {
    for path in common::shipped_levels() {
        let level = level::load(&path, &DEFAULT_SKINS).unwrap_or_else(|e| panic!("{e}"));
        let found = collectable_coins(&level);
        let coins = all_coins(&level);
        let lost: Vec<_> = coins.iter().filter(|c| !found.contains(c)).collect();
        assert!(
            lost.is_empty(),
            "{}: no clear collects the coins at {lost:?} before its last crate breaks",
            path.display()
        );
    }
}

#[test]
fn a_coin_behind_the_only_possible_last_crate_is_found_uncollectable() {
    // One lane: the crates must break left to right, and the coin lies past the last one.
    let level =
        common::valid_level("(name: \"lane\", map: [\"#######\", \"#@c.co#\", \"#######\"])");
    assert_eq!(collectable_coins(&level), vec![]);
    // With the coin before the last crate it can count.
    let level =
        common::valid_level("(name: \"lane\", map: [\"#######\", \"#@co.c#\", \"#######\"])");
    assert_eq!(collectable_coins(&level), vec![(3, 1)]);
}
