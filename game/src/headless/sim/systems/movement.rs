//! `movement`: moves every mover by its velocity. Nothing moves into a void cell or off the
//! map (the level format's "not walkable"), and movers with a collider also slide along solid
//! boxes (walls, crates) instead of entering them: each axis moves separately, in substeps no
//! longer than [`MAX_SUBSTEP`], so nothing tunnels and diagonal moves slide along edges. A mover
//! without an enabled collider (debris) flies over walls and crates; only the void stops it,
//! as a box of [`FREE_MOVER_HALF`].

use ecs::{Entity, SystemEntities, World};

use crate::level::Tile;
use crate::sim::components::{Collider, Friction, Position, Velocity};
use crate::sim::resources::{CollisionGrid, TileMap};
use crate::sim::spatial_hash::{Aabb, Hit, SpatialHash};
use crate::sim::tuning::{FREE_MOVER_HALF, MAX_SUBSTEP, REST_SPEED, TILE};

/// Scratch buffer kept between runs.
#[derive(Debug, Default)]
pub struct Movement {
    hits: Vec<Hit>,
}

impl ecs::System for Movement {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("movement");
        // Movers never block each other (they slide along the grid's boxes, which move only in
        // `collision_grid`), so the order they move in cannot change the outcome.
        let (mut movers, resources) = entities
            .query::<(
                &mut Position,
                &mut Velocity,
                Option<&Collider>,
                Option<&Friction>,
            )>(world)
            .with_resources();
        let resources = &*resources;
        // Looked up only for a mover: most steps most movers stand still.
        let mut lookups = None;
        while let Some((e, (mut pos, mut vel, collider, friction))) = movers.next() {
            let (p, v) = (*pos, *vel);
            if v == Velocity::default() {
                continue;
            }
            let (grid, map) = *lookups.get_or_insert_with(|| {
                (
                    &resources.resource::<CollisionGrid>().0,
                    resources.resource::<TileMap>(),
                )
            });
            let (obstacles, half) = match collider {
                Some(c) if c.enabled => (
                    Obstacles {
                        grid: Some(grid),
                        map,
                    },
                    (c.half_w, c.half_h),
                ),
                _ => (
                    Obstacles { grid: None, map },
                    (FREE_MOVER_HALF, FREE_MOVER_HALF),
                ),
            };
            pos.set_if_neq(slide(&obstacles, e, p, v, half, &mut self.hits));
            if let Some(f) = friction {
                vel.set_if_neq(slow_down(v, f.0));
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

/// What stops a mover: void cells and the map's edge always, and the solid boxes of `grid`
/// when there is one (movers with a collider).
pub(crate) struct Obstacles<'a> {
    /// Solid boxes to slide along, if the mover collides with them.
    pub grid: Option<&'a SpatialHash>,
    /// The tile map, whose void cells (and everything beyond its edge) block like walls.
    pub map: &'a TileMap,
}

/// Move `p` (a box of half extents `half`) by `v`, x then y, stopping flush against obstacles
/// other than `me`'s own box.
pub(crate) fn slide(
    obstacles: &Obstacles<'_>,
    me: Entity,
    mut p: Position,
    v: Velocity,
    half: (f32, f32),
    hits: &mut Vec<Hit>,
) -> Position {
    let n = (v.x.abs().max(v.y.abs()) / MAX_SUBSTEP).ceil().max(1.0);
    let (sx, sy) = (v.x / n, v.y / n);
    for _ in 0..n as u32 {
        p.x = move_axis(obstacles, me, p, sx, true, half, hits);
        p.y = move_axis(obstacles, me, p, sy, false, half, hits);
    }
    p
}

fn move_axis(
    obstacles: &Obstacles<'_>,
    me: Entity,
    p: Position,
    d: f32,
    horizontal: bool,
    (half_w, half_h): (f32, f32),
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
    let moved = Aabb::centered(x, y, half_w, half_h);
    let mut result = target;
    // Stop flush against the nearest face in the direction of travel.
    let mut block = |obstacle: &Aabb| {
        let flush = match (horizontal, d > 0.0) {
            (true, true) => obstacle.min_x - half_w,
            (true, false) => obstacle.max_x + half_w,
            (false, true) => obstacle.min_y - half_h,
            (false, false) => obstacle.max_y + half_h,
        };
        result = if d > 0.0 {
            result.min(flush)
        } else {
            result.max(flush)
        };
    };
    if let Some(grid) = obstacles.grid {
        grid.query(&moved, hits);
        for hit in hits.iter().filter(|h| h.solid && h.entity != me) {
            block(&hit.aabb);
        }
    }
    for_each_void_cell(obstacles.map, &moved, block);
    // Never move backwards because of a box we already overlap (e.g. spawned inside one).
    if d > 0.0 {
        result.max(start)
    } else {
        result.min(start)
    }
}

/// Call `f` with the box of every void cell that `aabb` overlaps. Outside the map everything is
/// void: the ring of cells around it stands for it, each stretched to infinity away from the
/// map, so the loop stays small however far out a box is.
///
/// ```text
///   -inf ... | -1 | 0 .. w-1 | w | ... +inf      (the same along y)
/// ```
fn for_each_void_cell(map: &TileMap, aabb: &Aabb, mut f: impl FnMut(&Aabb)) {
    let (w, h) = (map.width as i32, map.height as i32);
    let cell = |v: f32, max: i32| ((v / TILE).floor() as i32).clamp(-1, max);
    let (x0, x1) = (cell(aabb.min_x, w), cell(aabb.max_x, w));
    let (y0, y1) = (cell(aabb.min_y, h), cell(aabb.max_y, h));
    let span = |c: i32, max: i32| {
        let lo = if c < 0 {
            f32::NEG_INFINITY
        } else {
            c as f32 * TILE
        };
        let hi = if c >= max {
            f32::INFINITY
        } else {
            (c + 1) as f32 * TILE
        };
        (lo, hi)
    };
    for cy in y0..=y1 {
        for cx in x0..=x1 {
            if map.tile(cx, cy) != Tile::Void {
                continue;
            }
            let ((min_x, max_x), (min_y, max_y)) = (span(cx, w), span(cy, h));
            let cell_box = Aabb {
                min_x,
                min_y,
                max_x,
                max_y,
            };
            // Sharing an edge is not overlapping: a box flush against the void may slide along it.
            if cell_box.overlaps(aabb) {
                f(&cell_box);
            }
        }
    }
}
