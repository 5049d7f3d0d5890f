//! `collision`: finds what each mover that moved (or changed shape) now overlaps, testing it
//! only against its neighbourhood in the [`CollisionGrid`], and hands the [`Contact`]s to
//! [`pickup`](super::pickup) (a player touching a coin). Static boxes never move, so
//! static-static pairs are never tested.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{Collider, Position};
use crate::sim::resources::CollisionGrid;
use crate::sim::spatial_hash::{Aabb, Hit};

/// A mover's box overlaps another box this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contact {
    /// The entity that moved.
    pub mover: Entity,
    /// The entity it overlaps.
    pub other: Entity,
}

/// Scratch buffers kept between runs.
#[derive(Debug, Default)]
pub struct Collision {
    hits: Vec<Hit>,
    contacts: Vec<Contact>,
}

impl ecs::System for Collision {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("collision");
        self.contacts.clear();
        let (mut shapes, resources) = entities
            .changed::<(&Position, &Collider)>(world)
            .with_resources();
        let grid = &resources.resource::<CollisionGrid>().0;
        while let Some((e, (p, c))) = shapes.next() {
            if !c.enabled {
                continue;
            }
            grid.query(
                &Aabb::centered(p.x, p.y, c.half_w, c.half_h),
                &mut self.hits,
            );
            for hit in &self.hits {
                if hit.entity != e {
                    // One contact per pair, whichever of the two moved.
                    let (mover, other) = if e.index() < hit.entity.index() {
                        (e, hit.entity)
                    } else {
                        (hit.entity, e)
                    };
                    self.contacts.push(Contact { mover, other });
                }
            }
        }
        // Dirty order depends on history; sort so the events are the same with or without the
        // dirty optimization.
        self.contacts
            .sort_unstable_by_key(|c| (c.mover.index(), c.other.index()));
        self.contacts.dedup();
        super::pickup::collect(world, &self.contacts);
    }
}
