//! `bot`: a deterministic scripted player for headless runs, demos and tests. It walks (by
//! breadth-first search over the tile map) to the nearest reachable crate, faces it and swings
//! until it breaks, then picks the next one. It writes the [`Input`] resource, like a keyboard.
//!
//! A search that finds nothing is not repeated until something it depends on changes: the
//! cell the player stands on, or a crate on the map ([`TileMap::changes`]). With every crate
//! smashed or walled off, the bot then costs nothing per step instead of a search of every
//! reachable cell (tens of milliseconds on a 1024 x 1024 map). The key is the search's inputs,
//! not any dirty set, so the bot behaves the same with change tracking on and off.

use std::collections::VecDeque;

use ecs::{SystemEntities, World};

use crate::level::Tile;
use crate::sim::components::{Crate, Facing, Player, Position};
use crate::sim::resources::{BotPlan, Input, TileMap};
use crate::sim::tuning::TILE;

/// The search's scratch and its cache, kept between steps; the plan itself (target, path,
/// facing, steps since planning) is the [`BotPlan`] resource, which the state hash covers.
#[derive(Debug, Default)]
pub struct Bot {
    /// Breadth-first search scratch: the step at which each cell was visited, and its parent.
    visited: Vec<u32>,
    parent: Vec<u32>,
    stamp: u32,
    queue: VecDeque<u32>,
    /// What the last search ran on, `(map changes, start cell)`, when it found nothing: the
    /// same search would find the same nothing.
    fruitless: Option<(u64, (i32, i32))>,
}

impl ecs::System for Bot {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("bot");
        let Some(&me) = entities.tracked().first() else {
            return;
        };
        let (Some(&pos), Some(&player)) = (world.get::<Position>(me), world.get::<Player>(me))
        else {
            return;
        };
        let Some(plan) = world.get_resource_mut::<BotPlan>() else {
            return;
        };
        // Taken out while the map is read; put back below.
        let mut plan = std::mem::take(plan);
        let target_alive = plan
            .target
            .and_then(|t| world.get::<Crate>(t))
            .is_some_and(|c| c.health > 0);
        plan.since_plan += 1;
        if !target_alive || plan.since_plan > BotPlan::REPLAN_AFTER {
            let map = world.resource::<TileMap>();
            let key = (map.changes(), cell_of(pos));
            if self.fruitless == Some(key) {
                // The same search would find the same nothing: be where it would leave us.
                plan.since_plan = 0;
            } else {
                self.plan(&mut plan, map, pos);
                self.fruitless = plan.target.is_none().then_some(key);
            }
        }
        let mut input = Input::default();
        if let Some(&(cx, cy)) = plan.path.front() {
            let (tx, ty) = ((cx as f32 + 0.5) * TILE, (cy as f32 + 0.5) * TILE);
            let (dx, dy) = (tx - pos.x, ty - pos.y);
            // Walk one axis at a time: path steps are 4-connected, so this never cuts a corner.
            if dx.abs() > 0.75 {
                input.move_x = dx.signum() as i8;
            } else if dy.abs() > 0.75 {
                input.move_y = dy.signum() as i8;
            } else {
                plan.path.pop_front();
            }
        } else if plan.target.is_some() {
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

impl Bot {
    /// Find the nearest reachable floor cell next to a whole crate and the path to it.
    fn plan(&mut self, plan: &mut BotPlan, map: &TileMap, from: Position) {
        plan.since_plan = 0;
        plan.target = None;
        plan.path.clear();
        let cells = map.tiles().len();
        if self.visited.len() != cells {
            self.visited = vec![0; cells];
            self.parent = vec![0; cells];
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
        let walkable = |i: usize| map.tiles()[i] == Tile::Floor && map.crate_at(i).is_none();
        self.queue.clear();
        self.queue.push_back(s as u32);
        self.visited[s] = self.stamp;
        let w = map.width as i32;
        const DIRS: [(i32, i32, Facing); 4] = [
            (0, 1, Facing::Down),
            (0, -1, Facing::Up),
            (-1, 0, Facing::Left),
            (1, 0, Facing::Right),
        ];
        while let Some(i) = self.queue.pop_front() {
            let (x, y) = (i as i32 % w, i as i32 / w);
            for (dx, dy, facing) in DIRS {
                let Some(n) = map.index(x + dx, y + dy) else {
                    continue;
                };
                if let Some(crate_entity) = map.crate_at(n) {
                    plan.target = Some(crate_entity);
                    plan.face = facing;
                    let mut at = i;
                    while at as usize != s {
                        plan.path.push_front((at as i32 % w, at as i32 / w));
                        at = self.parent[at as usize];
                    }
                    plan.path.push_front(start);
                    return;
                }
                if self.visited[n] != self.stamp && walkable(n) {
                    self.visited[n] = self.stamp;
                    self.parent[n] = i;
                    self.queue.push_back(n as u32);
                }
            }
        }
    }
}

/// The map cell `p` lies in.
fn cell_of(p: Position) -> (i32, i32) {
    ((p.x / TILE) as i32, (p.y / TILE) as i32)
}
