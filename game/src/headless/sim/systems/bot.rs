//! `bot`: a deterministic scripted player for headless runs, demos and tests, and, in many
//! styles, the player of the search for the campaign's author routes. It writes the [`Input`]
//! resource, like a keyboard.
//!
//! Whenever its target goes (broken, lit, picked up), it plans a **stance**: a spot on a 4 px
//! lattice to walk to (by breadth-first search over the tile map) and a way to face, the one
//! that does the most work per step, `work / (walk + swings)`:
//!
//! - a swing hits every crate its arc covers, so the seam of two crates (two hits a swing)
//!   beats one crate alone, and a plain crate beside an iron one shares its swings;
//! - lighting a keg is worth every hit its chain deals (each keg in a blast's reach goes off
//!   too), so kegs go first, what a burning chain is about to break is left alone, and a
//!   stance in a pending blast's reach costs the stun and the burn, and a bot in a burning
//!   chain's reach first walks out of it;
//! - a coin is worth a second off the clock, about three swings, so a near one is picked up on
//!   the way, and one within half a second's walk is picked up before the last crate's swing
//!   (the clock stops there).
//!
//! How it weighs walking, coins and blasts, and whether it jitters each stance's worth to try
//! other target orders, is the plan's [`BotStyle`]; the default is the built-in bot.
//!
//! The search stops [`SEARCH_MARGIN`] cells beyond the first cell within reach of a crate or on
//! a coin, so a plan costs about the same on a 1024 x 1024 map as in a small room.
//!
//! A search that finds nothing is not repeated until something it depends on changes: the
//! cell the player stands on, or a crate on the map ([`TileMap::changes`]). With every crate
//! smashed or walled off, the bot then costs nothing per step instead of a search of every
//! reachable cell. The key is the search's inputs, not any dirty set, so the bot behaves the
//! same with change tracking on and off.

use std::collections::{HashMap, VecDeque};

use ecs::{Entity, SystemEntities, World};

use crate::level::Tile;
use crate::sim::components::{Coin, Crate, Facing, Fuse, Keg, Player, Position, Stunned};
use crate::sim::resources::{BotPlan, BotStyle, COIN_BONUS_STEPS, GameState, Input, TileMap};
use crate::sim::tuning::{
    BURN_STEPS, KEG_DAMAGE, KEG_RADIUS, PLAYER_HALF, PLAYER_SPEED, STUN_STEPS, SWING_COOLDOWN,
    SWING_RADIUS, SWING_REACH, TILE,
};

// The weights below and `BotStyle`'s defaults were tuned on the campaign (each level's time
// with each of a few values). Other styles are the route search's (`crate-room-routes`).

/// Cells the search goes on beyond the first one with work in reach: far enough to see the
/// next pair or keg past a lone crate, near enough to stay cheap.
const SEARCH_MARGIN: u32 = 20;
/// Steps to walk one tile (16 / 1.5).
const STEPS_PER_TILE: f32 = TILE / PLAYER_SPEED;
/// What a coin is worth, in hits: a second off the clock is about three swings' time, counted
/// at half, since the walk to a coin is not weighed (`BotStyle::walk_weight`) like a walk to a
/// crate.
const COIN_WORTH: f32 = COIN_BONUS_STEPS as f32 / SWING_COOLDOWN as f32 / 2.0;
/// How deep inside the arc a planned hit must be, in pixels: the step of walking that turns
/// the player (1.5 px) cannot make it miss.
const HIT_MARGIN: f32 = 2.0;
/// What standing in a pending blast's reach costs, in steps: the stun, the walk back and the
/// burn on the clock.
const BLAST_RISK_STEPS: f32 = STUN_STEPS as f32 + 15.0 + BURN_STEPS as f32;
/// Offsets of a stance from its cell's centre, on each axis: a 4 px lattice, which includes the
/// seams between cells (-8).
const OFFSETS: [i32; 4] = [-8, -4, 0, 4];
/// Largest Chebyshev distance, in cells, from a stance's cell to a crate its arc can reach: the
/// arc's far edge is at most 8 + 12 + 7 = 27 px from the cell's centre.
const ARC_CELLS: i32 = 2;

/// The search's scratch and its cache, kept between steps; the plan itself (target, path,
/// facing, steps since planning) is the [`BotPlan`] resource, which the state hash covers.
#[derive(Debug, Default)]
pub struct Bot {
    /// Breadth-first search scratch: the step at which each cell was visited, its parent and
    /// its distance from the start, and the cells visited in order.
    visited: Vec<u32>,
    parent: Vec<u32>,
    dist: Vec<u32>,
    stamp: u32,
    queue: VecDeque<u32>,
    order: Vec<u32>,
    /// What the last search ran on, `(map changes, start cell)`, when it found nothing: the
    /// same search would find the same nothing.
    fruitless: Option<(u64, (i32, i32))>,
}

impl ecs::System for Bot {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("bot");
        let Some((me, (&pos, &player))) = entities.query::<(&Position, &Player)>(world).next()
        else {
            return;
        };
        let Some(plan) = world.get_resource_mut::<BotPlan>() else {
            return;
        };
        // Taken out while the map is read; put back below.
        let mut plan = std::mem::take(plan);
        plan.since_plan += 1;
        let cleared = world.resource::<GameState>().cleared_at.is_some();
        if cleared || world.has::<Stunned>(me) {
            // Thrown: the keys do nothing, and the plan starts from wherever it lands. Or
            // done: the clock stopped with the last crate.
            plan.target = None;
            plan.path.clear();
            *world.resource_mut::<BotPlan>() = plan;
            *world.resource_mut::<Input>() = Input::default();
            return;
        }
        let target_coin = plan.target.is_some_and(|t| world.has::<Coin>(t));
        let target_live = plan.target.is_some_and(|t| is_live(world, t))
            && !(target_coin && plan.path.is_empty());
        if !target_live || plan.since_plan > BotPlan::REPLAN_AFTER {
            let key = (world.resource::<TileMap>().changes(), cell_of(pos));
            if self.fruitless == Some(key) {
                // The same search would find the same nothing: be where it would leave us.
                plan.since_plan = 0;
            } else {
                self.plan(&mut plan, world, pos);
                self.fruitless = plan.target.is_none().then_some(key);
            }
        }
        let mut input = Input::default();
        // Walk to the next waypoint, diagonally while both axes are off; one reached is
        // dropped in the same step, so walking never pauses at a waypoint.
        while let Some(&(tx, ty)) = plan.path.front() {
            let (dx, dy) = (tx as f32 - pos.x, ty as f32 - pos.y);
            input.move_x = if dx.abs() > 0.75 {
                dx.signum() as i8
            } else {
                0
            };
            input.move_y = if dy.abs() > 0.75 {
                dy.signum() as i8
            } else {
                0
            };
            if input.move_x != 0 || input.move_y != 0 {
                break;
            }
            plan.path.pop_front();
        }
        if plan.path.is_empty() && plan.target.is_some() && !target_coin {
            if player.facing == plan.face {
                input.attack = true;
            } else {
                let (fx, fy) = plan.face.vector();
                input.move_x = fx as i8;
                input.move_y = fy as i8;
            }
        }
        *world.resource_mut::<BotPlan>() = plan;
        *world.resource_mut::<Input>() = input;
    }
}

/// Whether `t` is still worth going for: a coin on the floor, or a whole crate that is not a
/// lit keg.
fn is_live(world: &World, t: Entity) -> bool {
    world.has::<Coin>(t)
        || (world.get::<Crate>(t).is_some_and(|c| c.health > 0) && !world.has::<Fuse>(t))
}

/// Cell offsets a blast reaches: every cell whose centre is within [`KEG_RADIUS`] of the keg's
/// (crates stand on cell centres).
fn blast_offsets() -> impl Iterator<Item = (i32, i32)> {
    (-2..=2_i32)
        .flat_map(|dy| (-2..=2_i32).map(move |dx| (dx, dy)))
        .filter(|&(dx, dy)| {
            let d2 = ((dx * dx + dy * dy) as f32) * TILE * TILE;
            (dx, dy) != (0, 0) && d2 <= KEG_RADIUS * KEG_RADIUS
        })
}

/// The blasts a chain set off by the kegs on `lit` cells deals: for each cell with a crate,
/// how many blasts reach it. Every keg in a blast's reach goes off too, once.
fn chain(map: &TileMap, world: &World, lit: &[usize]) -> HashMap<usize, u32> {
    let w = map.width as i32;
    let mut blasts: HashMap<usize, u32> = HashMap::new();
    let mut gone: Vec<usize> = lit.to_vec();
    let mut next = 0;
    while let Some(&keg) = gone.get(next) {
        next += 1;
        let (x, y) = (keg as i32 % w, keg as i32 / w);
        for (dx, dy) in blast_offsets() {
            let Some(i) = map.index(x + dx, y + dy) else {
                continue;
            };
            let Some(e) = map.crate_at(i) else {
                continue;
            };
            *blasts.entry(i).or_insert(0) += 1;
            if world.has::<Keg>(e) && !gone.contains(&i) {
                gone.push(i);
            }
        }
    }
    for keg in gone {
        // A keg that goes off is gone, however many blasts reach it.
        blasts.insert(keg, u32::MAX / KEG_DAMAGE);
    }
    blasts
}

/// One crate a stance's swing would hit.
#[derive(Clone, Copy)]
struct Hit {
    cell: usize,
    entity: Entity,
    /// Hits it still takes, after the blasts already on their way.
    health: u32,
    keg: bool,
}

/// The best plan found so far: its rate (work per step), where to stand, which way to face,
/// the cell it is reached through, and what it is after.
struct Best {
    rate: f32,
    cell: usize,
    stand: (i32, i32),
    face: Facing,
    target: Entity,
}

impl Bot {
    /// Choose the stance (or coin) with the most work per step and the path to it.
    fn plan(&mut self, plan: &mut BotPlan, world: &World, from: Position) {
        let style = plan.style;
        let coin_worth = COIN_WORTH * style.coin_scale;
        plan.since_plan = 0;
        plan.plans += 1;
        let detour = style.second_best_at.contains(&plan.plans);
        let to_coin = style.coin_at.contains(&plan.plans);
        plan.target = None;
        plan.path.clear();
        let map = world.resource::<TileMap>();
        let cells = map.tiles().len();
        if self.visited.len() != cells {
            self.visited = vec![0; cells];
            self.parent = vec![0; cells];
            self.dist = vec![0; cells];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.visited.fill(0);
            self.stamp = 1;
        }
        let start = cell_of(from);
        let Some(s) = map.index(start.0, start.1) else {
            return;
        };
        let w = map.width as i32;
        let walkable = |i: usize| map.tiles()[i] == Tile::Floor && map.crate_at(i).is_none();
        let crate_near = |i: usize| {
            let (x, y) = (i as i32 % w, i as i32 / w);
            (-ARC_CELLS..=ARC_CELLS).any(|dy| {
                (-ARC_CELLS..=ARC_CELLS).any(|dx| {
                    map.index(x + dx, y + dy)
                        .is_some_and(|n| map.crate_at(n).is_some())
                })
            })
        };
        let coins = cells_with::<Coin>(map, world);

        // Breadth-first search from the player's cell, to SEARCH_MARGIN cells past the first
        // cell with work in reach.
        self.queue.clear();
        self.order.clear();
        self.queue.push_back(s as u32);
        self.visited[s] = self.stamp;
        self.dist[s] = 0;
        let mut horizon = u32::MAX;
        while let Some(i) = self.queue.pop_front() {
            let i = i as usize;
            let d = self.dist[i];
            if d > horizon {
                break;
            }
            self.order.push(i as u32);
            if horizon == u32::MAX
                && (crate_near(i) || coins.binary_search_by_key(&i, |c| c.0).is_ok())
            {
                horizon = d + SEARCH_MARGIN;
            }
            let (x, y) = (i as i32 % w, i as i32 / w);
            for (dx, dy) in [(0, 1), (0, -1), (-1, 0), (1, 0)] {
                let Some(n) = map.index(x + dx, y + dy) else {
                    continue;
                };
                if self.visited[n] != self.stamp && walkable(n) {
                    self.visited[n] = self.stamp;
                    self.parent[n] = i as u32;
                    self.dist[n] = d + 1;
                    self.queue.push_back(n as u32);
                }
            }
        }

        // What the kegs already burning will break.
        let lit: Vec<usize> = cells_with::<Fuse>(map, world)
            .into_iter()
            .map(|(i, _)| i)
            .collect();
        let pending = chain(map, world, &lit);
        let health_left = |i: usize, e: Entity| -> u32 {
            let h = world.get::<Crate>(e).map_or(0, |c| c.health);
            let blasts = pending.get(&i).copied().unwrap_or(0);
            h.saturating_sub(blasts.saturating_mul(KEG_DAMAGE))
        };
        let in_blast = |x: f32, y: f32| {
            pending.iter().any(|(&i, &b)| {
                b >= u32::MAX / KEG_DAMAGE && {
                    let (kx, ky) = (
                        ((i as i32 % w) as f32 + 0.5) * TILE,
                        ((i as i32 / w) as f32 + 0.5) * TILE,
                    );
                    let (dx, dy, r) = (kx - x, ky - y, KEG_RADIUS + PLAYER_HALF);
                    dx * dx + dy * dy <= r * r
                }
            })
        };
        // In a burning chain's reach: out of it first, to the nearest cell it does not reach.
        if style.flee_blasts && in_blast(from.x, from.y) {
            let safe = self.order.iter().map(|&c| c as usize).find(|&c| {
                let (x, y) = cell_centre(c, w);
                !in_blast(x as f32, y as f32)
            });
            if let Some(safe) = safe {
                self.walk(plan, map, from, s, safe, cell_centre(safe, w));
                return;
            }
        }
        // Crates still to break by hand or by a keg not yet lit, when few are left (finding
        // the last swing, before which near coins are picked up).
        let state = world.resource::<GameState>();
        let to_break = (state.crates_left <= 64).then(|| {
            map.crates()
                .iter()
                .enumerate()
                .filter(|&(i, e)| e.is_some_and(|e| health_left(i, e) > 0))
                .count()
        });

        let mut keg_worth: HashMap<usize, f32> = HashMap::new();
        let mut best: Option<Best> = None;
        // The best stance after another target than `best`'s (for a detour).
        let mut second: Option<Best> = None;
        let mut best_coin: Option<Best> = None;
        let mut hits: Vec<Hit> = Vec::new();
        for &c in &self.order {
            let c = c as usize;
            let d = self.dist[c] as f32;
            if let Ok(k) = coins.binary_search_by_key(&c, |c| c.0) {
                let walk = (d * STEPS_PER_TILE).max(1.0);
                let centre = cell_centre(c, w);
                let candidate = Best {
                    rate: coin_worth / walk,
                    cell: c,
                    stand: centre,
                    face: Facing::Down,
                    target: coins[k].1,
                };
                if best_coin.as_ref().is_none_or(|b| candidate.rate > b.rate) {
                    best_coin = Some(candidate);
                }
            }
            if !crate_near(c) {
                continue;
            }
            let (cx, cy) = cell_centre(c, w);
            for oy in OFFSETS {
                for ox in OFFSETS {
                    let (px, py) = (cx + ox, cy + oy);
                    if !box_clear(map, px, py) {
                        continue;
                    }
                    let walk = style.walk_weight * d * STEPS_PER_TILE
                        + (ox.abs() + oy.abs()) as f32 / PLAYER_SPEED
                        + if in_blast(px as f32, py as f32) {
                            BLAST_RISK_STEPS
                        } else {
                            0.0
                        };
                    for face in Facing::ALL {
                        let (fx, fy) = face.vector();
                        let (ax, ay) = (px as f32 + fx * SWING_REACH, py as f32 + fy * SWING_REACH);
                        hits.clear();
                        arc_hits(map, ax, ay, &mut |cell, entity| {
                            let health = health_left(cell, entity);
                            if health > 0 {
                                hits.push(Hit {
                                    cell,
                                    entity,
                                    health,
                                    keg: world.has::<Keg>(entity),
                                });
                            }
                        });
                        let Some(first) = hits.first() else {
                            continue;
                        };
                        let keg = hits.iter().find(|h| h.keg);
                        let (work, swings, target) = if let Some(keg) = keg {
                            let worth = *keg_worth.entry(keg.cell).or_insert_with(|| {
                                lighting_worth(map, world, &lit, &pending, keg.cell)
                            });
                            let others = hits.iter().filter(|h| !h.keg).count() as f32;
                            (worth * style.keg_scale + others, 1, keg.entity)
                        } else {
                            let weakest = hits
                                .iter()
                                .min_by_key(|h| (h.health, h.cell))
                                .unwrap_or(first);
                            let n = weakest.health;
                            ((hits.len() as u32 * n) as f32, n, weakest.entity)
                        };
                        let steps = walk + (swings * SWING_COOLDOWN) as f32;
                        let mut rate = work / steps * jitter(&style, map.changes(), c, face);
                        // The swing that would stop the clock waits for coins within half a
                        // second's walk (there and back inside the second they are worth).
                        let last = to_break.is_some_and(|left| {
                            keg.is_none()
                                && hits.len() == left
                                && hits.iter().all(|h| h.health <= swings)
                        });
                        if last && best_coin.is_some() {
                            rate = 0.0;
                        }
                        let candidate = Best {
                            rate,
                            cell: c,
                            stand: (px, py),
                            face,
                            target,
                        };
                        offer(&mut best, &mut second, candidate);
                    }
                }
            }
        }
        // A last swing waits only for a coin close enough.
        let near_coin = best_coin.as_ref().is_some_and(|coin| {
            let walk = self.dist[coin.cell] as f32 * STEPS_PER_TILE;
            best.as_ref().is_none_or(|b| {
                coin.rate > b.rate || (b.rate == 0.0 && 2.0 * walk < COIN_BONUS_STEPS as f32)
            })
        });
        let choice = match (detour, near_coin) {
            _ if to_coin => best_coin.or(best),
            (false, true) => best_coin,
            (false, false) => best,
            // A detour: the best stance instead of the coin, or the runner-up, or a coin.
            (true, true) => best.or(best_coin),
            (true, false) => second.or(best_coin).or(best),
        };
        let Some(choice) = choice else {
            return;
        };
        plan.target = Some(choice.target);
        plan.face = choice.face;
        self.walk(plan, map, from, s, choice.cell, choice.stand);
    }

    /// Set `plan`'s path: from `from` (in cell `s`) through the search's cells to `cell`, and
    /// on to the spot `stand` in it.
    fn walk(
        &self,
        plan: &mut BotPlan,
        map: &TileMap,
        from: Position,
        s: usize,
        cell: usize,
        stand: (i32, i32),
    ) {
        let w = map.width as i32;
        let mut cells = vec![stand];
        let mut at = cell;
        loop {
            cells.push(cell_centre(at, w));
            if at == s {
                break;
            }
            at = self.parent[at] as usize;
        }
        cells.reverse();
        // Straighten the path: from each point, on to the farthest waypoint whose box-swept
        // rectangle is all floor, so any walk between the two (diagonal, then straight) is
        // clear.
        let mut here = (from.x, from.y);
        let mut i = 0;
        while i < cells.len() {
            let mut j = i;
            while j + 1 < cells.len() && sweep_clear(map, here, cells[j + 1]) {
                j += 1;
            }
            plan.path.push_back(cells[j]);
            here = (cells[j].0 as f32, cells[j].1 as f32);
            i = j + 1;
        }
    }
}

/// Take `candidate` as the best stance if it beats it, keeping in `second` the best one after
/// another target.
fn offer(best: &mut Option<Best>, second: &mut Option<Best>, candidate: Best) {
    match best {
        Some(b) if candidate.rate <= b.rate => {
            if candidate.target != b.target
                && second.as_ref().is_none_or(|s| candidate.rate > s.rate)
            {
                *second = Some(candidate);
            }
        }
        _ => {
            let target = candidate.target;
            if let Some(old) = best.replace(candidate)
                && old.target != target
            {
                *second = Some(old);
            }
        }
    }
}

/// The factor `style` scales a stance's worth by: 1 without jitter, else within `1 ± jitter`,
/// drawn (a SplitMix64 mix) from the seed, the map's change count, the stance's cell and its
/// facing, so the same style plays the same route.
fn jitter(style: &BotStyle, changes: u64, cell: usize, face: Facing) -> f32 {
    if style.jitter == 0.0 {
        return 1.0;
    }
    let mut z = style.seed
        ^ changes.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ ((cell as u64) << 3 | face as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let unit = (z >> 40) as f32 / (1u64 << 24) as f32; // in [0, 1)
    1.0 + style.jitter * (2.0 * unit - 1.0)
}

/// Whether the rectangle the player's box sweeps walking from `a` to `b` (any way that stays
/// inside their bounding box) overlaps only walkable cells.
fn sweep_clear(map: &TileMap, a: (f32, f32), b: (i32, i32)) -> bool {
    let (bx, by) = (b.0 as f32, b.1 as f32);
    let cells = |lo: f32, hi: f32| {
        ((lo - PLAYER_HALF) / TILE).floor() as i32..=((hi + PLAYER_HALF) / TILE).ceil() as i32 - 1
    };
    cells(a.1.min(by), a.1.max(by)).all(|y| {
        cells(a.0.min(bx), a.0.max(bx)).all(|x| {
            map.index(x, y)
                .is_some_and(|i| map.tiles()[i] == Tile::Floor && map.crate_at(i).is_none())
        })
    })
}

/// The hits lighting the keg on cell `keg` adds to what the `lit` chain deals (`pending`).
fn lighting_worth(
    map: &TileMap,
    world: &World,
    lit: &[usize],
    pending: &HashMap<usize, u32>,
    keg: usize,
) -> f32 {
    let mut with = lit.to_vec();
    with.push(keg);
    let after = chain(map, world, &with);
    let dealt = |blasts: &HashMap<usize, u32>, i: usize, h: u32| {
        h.min(
            blasts
                .get(&i)
                .copied()
                .unwrap_or(0)
                .saturating_mul(KEG_DAMAGE),
        )
    };
    after
        .keys()
        .filter_map(|&i| {
            let h = map.crate_at(i).and_then(|e| world.get::<Crate>(e))?.health;
            // A keg counts as one hit (it takes one swing, or one blast).
            let h = if map.crate_at(i).is_some_and(|e| world.has::<Keg>(e)) {
                1
            } else {
                h
            };
            Some(dealt(&after, i, h).saturating_sub(dealt(pending, i, h)))
        })
        .sum::<u32>() as f32
}

/// Call `hit` with each crate a swing's arc centred on `(ax, ay)` surely covers: the arc
/// reaches [`HIT_MARGIN`] into its box.
fn arc_hits(map: &TileMap, ax: f32, ay: f32, hit: &mut impl FnMut(usize, Entity)) {
    let (ax, ay) = (ax.round(), ay.round());
    let r = SWING_RADIUS - HIT_MARGIN;
    let cells = |lo: f32, hi: f32| (lo / TILE).floor() as i32..=(hi / TILE).floor() as i32;
    for y in cells(ay - r, ay + r) {
        for x in cells(ax - r, ax + r) {
            let Some(i) = map.index(x, y) else {
                continue;
            };
            let Some(e) = map.crate_at(i) else {
                continue;
            };
            let (x0, y0) = (x as f32 * TILE, y as f32 * TILE);
            let dx = (x0 - ax).max(ax - (x0 + TILE)).max(0.0);
            let dy = (y0 - ay).max(ay - (y0 + TILE)).max(0.0);
            if dx * dx + dy * dy < r * r && map.swing_reaches(ax, ay, x, y) {
                hit(i, e);
            }
        }
    }
}

/// The map cells of the entities with component `C` (a cell per entity, by its position),
/// with the entities, in cell order.
fn cells_with<C: ecs::Component>(map: &TileMap, world: &World) -> Vec<(usize, Entity)> {
    let mut cells: Vec<(usize, Entity)> = world
        .try_column::<C>()
        .map(|column| column.entities().to_vec())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| {
            let (x, y) = cell_of(*world.get::<Position>(e)?);
            Some((map.index(x, y)?, e))
        })
        .collect();
    cells.sort_unstable();
    cells
}

/// Whether the player's box centred on `(px, py)` overlaps only walkable cells.
fn box_clear(map: &TileMap, px: i32, py: i32) -> bool {
    let half = PLAYER_HALF as i32;
    let t = TILE as i32;
    let range = |p: i32| (p - half).div_euclid(t)..=(p + half - 1).div_euclid(t);
    range(py).all(|y| {
        range(px).all(|x| {
            map.index(x, y)
                .is_some_and(|i| map.tiles()[i] == Tile::Floor && map.crate_at(i).is_none())
        })
    })
}

/// The centre of the cell with row-major index `i`, in whole pixels.
fn cell_centre(i: usize, width: i32) -> (i32, i32) {
    let t = TILE as i32;
    let (x, y) = (i as i32 % width, i as i32 / width);
    (x * t + t / 2, y * t + t / 2)
}

/// The map cell `p` lies in.
fn cell_of(p: Position) -> (i32, i32) {
    ((p.x / TILE) as i32, (p.y / TILE) as i32)
}
