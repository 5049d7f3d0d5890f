//! `movement`: moves every mover by its velocity. Movers with a collider slide along solid
//! boxes (walls, crates) instead of entering them: each axis moves separately, in substeps no
//! longer than [`MAX_SUBSTEP`], so nothing tunnels and diagonal moves slide along edges.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{Collider, Friction, Position, Velocity};
use crate::sim::grid::{Aabb, Hit, SpatialHash};
use crate::sim::resources::CollisionGrid;
use crate::sim::tuning::{MAX_SUBSTEP, REST_SPEED};

/// Scratch buffers kept between runs.
#[derive(Debug, Default)]
pub struct Movement {
    moves: Vec<(Entity, Position, Velocity)>,
    hits: Vec<Hit>,
}

impl ecs::System for Movement {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("movement");
        // Movers never block each other, so the order they move in cannot change the outcome.
        self.moves.clear();
        {
            let grid = &world.resource::<CollisionGrid>().0;
            for &e in entities.tracked() {
                let (Some(&v), Some(&p)) = (world.get::<Velocity>(e), world.get::<Position>(e))
                else {
                    continue;
                };
                if v == Velocity::default() {
                    continue;
                }
                let moved = match world.get::<Collider>(e) {
                    Some(c) if c.enabled => slide(grid, e, p, v, c, &mut self.hits),
                    _ => Position {
                        x: p.x + v.x,
                        y: p.y + v.y,
                    },
                };
                let v = match world.get::<Friction>(e) {
                    Some(f) => slow_down(v, f.0),
                    None => v,
                };
                self.moves.push((e, moved, v));
            }
        }
        let (positions, velocities) = world.columns_mut::<Position, Velocity>();
        for &(e, p, v) in &self.moves {
            if let Some(mut pos) = positions.get_mut(e) {
                pos.set_if_neq(p);
            }
            if let Some(mut vel) = velocities.get_mut(e) {
                vel.set_if_neq(v);
            }
        }
    }
}

fn slow_down(v: Velocity, keep: f32) -> Velocity {
    let v = Velocity {
        x: v.x * keep,
        y: v.y * keep,
    };
    if v.x.abs() < REST_SPEED && v.y.abs() < REST_SPEED {
        Velocity::default()
    } else {
        v
    }
}

/// Move `p` by `v`, x then y, stopping flush against solid boxes other than `me`'s own.
pub(crate) fn slide(
    grid: &SpatialHash,
    me: Entity,
    mut p: Position,
    v: Velocity,
    c: &Collider,
    hits: &mut Vec<Hit>,
) -> Position {
    let n = (v.x.abs().max(v.y.abs()) / MAX_SUBSTEP).ceil().max(1.0);
    let (sx, sy) = (v.x / n, v.y / n);
    for _ in 0..n as u32 {
        p.x = move_axis(grid, me, p, sx, true, c, hits);
        p.y = move_axis(grid, me, p, sy, false, c, hits);
    }
    p
}

fn move_axis(
    grid: &SpatialHash,
    me: Entity,
    p: Position,
    d: f32,
    horizontal: bool,
    c: &Collider,
    hits: &mut Vec<Hit>,
) -> f32 {
    let (start, target) = if horizontal {
        (p.x, p.x + d)
    } else {
        (p.y, p.y + d)
    };
    if d == 0.0 {
        return start;
    }
    let (x, y) = if horizontal {
        (target, p.y)
    } else {
        (p.x, target)
    };
    let moved = Aabb::centered(x, y, c.half_w, c.half_h);
    grid.query(&moved, hits);
    let mut result = target;
    for hit in hits.iter().filter(|h| h.solid && h.entity != me) {
        // Stop flush against the nearest face in the direction of travel.
        let flush = match (horizontal, d > 0.0) {
            (true, true) => hit.aabb.min_x - c.half_w,
            (true, false) => hit.aabb.max_x + c.half_w,
            (false, true) => hit.aabb.min_y - c.half_h,
            (false, false) => hit.aabb.max_y + c.half_h,
        };
        result = if d > 0.0 {
            result.min(flush)
        } else {
            result.max(flush)
        };
    }
    // Never move backwards because of a box we already overlap (e.g. spawned inside one).
    if d > 0.0 {
        result.max(start)
    } else {
        result.min(start)
    }
}
