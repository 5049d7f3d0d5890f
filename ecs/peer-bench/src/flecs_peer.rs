//! The workload on flecs (through `flecs_ecs`): an `OnSet` observer on `Position`.
//!
//! flecs has two ways to react to change. A cached query built with `detect_changes()` reports,
//! per table, whether any of its rows was written since the query last ran; flecs.h says of it
//! "Change detection works on a per-table basis. Changes to individual entities cannot be
//! detected this way." An observer on `OnSet` is called once per entity and component set
//! (`set`, or `modified` after a write in place). Only the observer visits exactly the changed
//! entities, so it is the reader here. It runs inside the writer, at each `modified`; the
//! [`Peer::read`] of this library only hands over what the observer counted.

use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;

use flecs_ecs::prelude::*;

use crate::workload::{Peer, Position, Velocity, group_of, weight};

/// What the observer saw since the last [`Peer::read`].
#[derive(Debug, Default)]
struct Seen {
    count: Cell<usize>,
    sum: Cell<f32>,
}

/// flecs with one `OnSet` observer on `Position`; the writer bumps each position in place
/// through `EntityView::get::<&mut Position>` and signals it with `modified`.
pub struct FlecsPeer {
    world: World,
    seen: Rc<Seen>,
    entities: Vec<Entity>,
    targets: Vec<Entity>,
}

impl std::fmt::Debug for FlecsPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlecsPeer")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl FlecsPeer {
    /// Spawn `n` entities spread over `groups` (one: no marker), each group's marker a tag
    /// entity of its own, then add the observer (so the spawns are not counted).
    pub fn new(n: usize, groups: usize) -> Self {
        let world = World::new();
        let tags: Vec<Entity> = (0..groups).map(|_| world.entity().id()).collect();
        let entities = (0..n)
            .map(|i| {
                let e = world
                    .entity()
                    .set(Position::initial(i))
                    .set(Velocity::initial(i));
                if groups > 1 {
                    e.add(tags[group_of(i, n, groups)]);
                }
                e.id()
            })
            .collect();
        let seen = Rc::new(Seen::default());
        let observed = Rc::clone(&seen);
        world.observer::<flecs::OnSet, &Position>().each(move |p| {
            observed.count.set(observed.count.get() + 1);
            observed.sum.set(observed.sum.get() + weight(p));
        });
        Self {
            world,
            seen,
            entities,
            targets: Vec::new(),
        }
    }
}

impl Peer for FlecsPeer {
    fn name(&self) -> &'static str {
        "flecs"
    }

    fn select(&mut self, targets: &[usize]) {
        self.targets = targets.iter().map(|&i| self.entities[i]).collect();
    }

    fn write(&mut self) {
        for &e in &self.targets {
            let e = self.world.entity_from_id(e);
            e.get::<&mut Position>(|p| p.bump());
            e.modified(Position::id());
        }
    }

    fn read(&mut self) -> usize {
        black_box(self.seen.sum.take());
        self.seen.count.take()
    }
}
