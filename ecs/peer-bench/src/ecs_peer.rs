//! The workload on this repository's `ecs`: a system that requires and watches [`Position`].

use std::hint::black_box;

use ecs::{Entity, SystemDesc, SystemEntities, World};

use crate::workload::{Peer, Position, Velocity, weight};

/// How many entities the reader system visited in its last run.
struct Seen(usize);

/// `ecs` with one reader system; [`Peer::read`] is one `World::update`. The reader reads the
/// changed positions through the typed query, `SystemEntities::changed::<&Position>`, or with
/// `walkthrough` through the entity list and the column: `for &e in entities.dirty()`, then
/// `Column::get` (the lookups the query makes, without it). The
/// writer bumps through `Column::get_mut` (the column fetched once), or with `by_type` through
/// `World::get_mut` (the column found by type on every call).
pub struct EcsPeer {
    world: World,
    entities: Vec<Entity>,
    targets: Vec<Entity>,
    by_type: bool,
    walkthrough: bool,
}

impl std::fmt::Debug for EcsPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EcsPeer")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl EcsPeer {
    /// Spawn `n` entities and run the reader once, so every spawn has been delivered.
    pub fn new(n: usize) -> Self {
        Self::with(n, false, false)
    }

    /// [`EcsPeer::new`] with the writer going through `World::get_mut`.
    pub fn by_type(n: usize) -> Self {
        Self::with(n, true, false)
    }

    /// [`EcsPeer::new`] with the reader looping over `dirty()`.
    pub fn walkthrough(n: usize) -> Self {
        Self::with(n, false, true)
    }

    fn with(n: usize, by_type: bool, walkthrough: bool) -> Self {
        let mut world = World::new();
        world.insert_resource(Seen(0));
        world.add_system(
            SystemDesc::new("read_changed_positions")
                .requires::<Position>()
                .watches::<Position>(),
            move |world: &mut World, entities: &SystemEntities<'_>| {
                let mut count = 0;
                let mut sum = 0.0;
                if walkthrough {
                    let positions = world.column::<Position>();
                    for &e in entities.dirty() {
                        if let Some(p) = positions.get(e) {
                            count += 1;
                            sum += weight(p);
                        }
                    }
                } else {
                    let mut changed = entities.changed::<&Position>(world);
                    while let Some((_, p)) = changed.next() {
                        count += 1;
                        sum += weight(p);
                    }
                }
                black_box(sum);
                world.resource_mut::<Seen>().0 = count;
            },
        );
        let entities = (0..n)
            .map(|i| world.spawn((Position::initial(i), Velocity::initial(i))))
            .collect();
        world.update();
        Self {
            world,
            entities,
            targets: Vec::new(),
            by_type,
            walkthrough,
        }
    }
}

impl Peer for EcsPeer {
    fn name(&self) -> &'static str {
        if self.by_type {
            "ecs World::get_mut"
        } else if self.walkthrough {
            "ecs dirty()"
        } else {
            "ecs"
        }
    }

    fn select(&mut self, targets: &[usize]) {
        self.targets = targets.iter().map(|&i| self.entities[i]).collect();
    }

    fn write(&mut self) {
        if self.by_type {
            for &e in &self.targets {
                if let Some(mut p) = self.world.get_mut::<Position>(e) {
                    p.bump();
                }
            }
            return;
        }
        let positions = self.world.column_mut::<Position>();
        for &e in &self.targets {
            if let Some(mut p) = positions.get_mut(e) {
                p.bump();
            }
        }
    }

    fn read(&mut self) -> usize {
        // The reader is called only when something changed: count zero unless it runs.
        self.world.resource_mut::<Seen>().0 = 0;
        self.world.update();
        self.world.resource::<Seen>().0
    }
}
