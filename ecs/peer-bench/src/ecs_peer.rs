//! The workload on this repository's `ecs`: a system that requires and watches [`Position`].

use std::hint::black_box;

use ecs::{Entity, SystemDesc, SystemEntities, World};

use crate::workload::{Peer, Position, Velocity, group_of, weight};

/// How many entities the reader system visited in its last run.
struct Seen(usize);

/// `ecs` with one reader system; [`Peer::read`] is one `World::update`. The reader reads the
/// changed positions through the typed query, `SystemEntities::changed::<&Position>`, or with
/// `via_entity_list` through the entity list and the column: `for &e in entities.dirty()`, then
/// `Column::get` (the lookups the query makes, without it). The writer bumps through
/// `Column::get_mut` (the column fetched once).
pub struct EcsPeer {
    world: World,
    entities: Vec<Entity>,
    targets: Vec<Entity>,
    via_entity_list: bool,
}

impl std::fmt::Debug for EcsPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EcsPeer")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl EcsPeer {
    /// Spawn `n` entities spread over `groups` (one: no marker) and run the reader once, so
    /// every spawn has been delivered.
    pub fn new(n: usize, groups: usize) -> Self {
        Self::with(n, groups, false)
    }

    /// [`EcsPeer::new`] with the reader looping over `dirty()`.
    pub fn via_entity_list(n: usize, groups: usize) -> Self {
        Self::with(n, groups, true)
    }

    fn with(n: usize, groups: usize, via_entity_list: bool) -> Self {
        let mut world = World::new();
        world.insert_resource(Seen(0));
        world.add_system(
            SystemDesc::new("read_changed_positions")
                .requires::<Position>()
                .watches::<Position>(),
            move |world: &mut World, entities: &SystemEntities<'_>| {
                let mut count = 0;
                let mut sum = 0.0;
                if via_entity_list {
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
            .map(|i| {
                let e = world.spawn((Position::initial(i), Velocity::initial(i)));
                if groups > 1 {
                    mark(&mut world, e, group_of(i, n, groups));
                }
                e
            })
            .collect();
        world.update();
        world.resource_mut::<Seen>().0 = 0;
        Self {
            world,
            entities,
            targets: Vec::new(),
            via_entity_list,
        }
    }
}

/// Bit `B` of an entity's group number. A world holds at most 64 component types, so the
/// groups are told apart by which of seven marker bits they hold (2^7 = 128 > 100 groups):
/// each group is still a component set of its own, as a marker type per group makes it in
/// the other libraries.
struct Bit<const B: usize>;

/// Give `e` the marker bits of `group`.
fn mark(world: &mut World, e: Entity, group: usize) {
    macro_rules! bits {
        ($($b:literal)*) => {
            $( if group & (1 << $b) != 0 {
                world.insert(e, Bit::<$b>).expect("just spawned");
            } )*
        };
    }
    bits!(0 1 2 3 4 5 6);
}

impl Peer for EcsPeer {
    fn name(&self) -> &'static str {
        if self.via_entity_list {
            "ecs dirty()"
        } else {
            "ecs"
        }
    }

    fn select(&mut self, targets: &[usize]) {
        self.targets = targets.iter().map(|&i| self.entities[i]).collect();
    }

    fn write(&mut self) {
        let positions = self.world.column_mut::<Position>();
        for &e in &self.targets {
            if let Some(mut p) = positions.get_mut(e) {
                p.bump();
            }
        }
    }

    fn read(&mut self) -> usize {
        // The reader runs only when something changed; taking its count leaves zero for an
        // update it skips.
        self.world.update();
        std::mem::take(&mut self.world.resource_mut::<Seen>().0)
    }
}
