//! The workload on `specs`: `Position` in a `FlaggedStorage`, read by a system that drains its
//! `ReaderId` into a `BitSet` of modified entities and joins the storage with it (the pattern
//! of `FlaggedStorage`'s documentation), run by a `Dispatcher`.

use std::hint::black_box;

use specs::prelude::*;
use specs::storage::ComponentEvent;

use crate::workload::{Peer, Position, Velocity, weight};

impl Component for Position {
    type Storage = FlaggedStorage<Self, VecStorage<Self>>;
}

impl Component for Velocity {
    type Storage = VecStorage<Self>;
}

/// How many entities the reader system visited in its last run.
#[derive(Default)]
struct Seen(usize);

struct ReadChangedPositions {
    reader: ReaderId<ComponentEvent>,
    modified: BitSet,
}

impl<'a> System<'a> for ReadChangedPositions {
    type SystemData = (ReadStorage<'a, Position>, Write<'a, Seen>);

    fn run(&mut self, (positions, mut seen): Self::SystemData) {
        self.modified.clear();
        for event in positions.channel().read(&mut self.reader) {
            if let ComponentEvent::Modified(id) = event {
                self.modified.add(*id);
            }
        }
        let mut count = 0;
        let mut sum = 0.0;
        for (p, _) in (&positions, &self.modified).join() {
            count += 1;
            sum += weight(p);
        }
        black_box(sum);
        seen.0 = count;
    }
}

/// `specs` with one reader system in a dispatcher; [`Peer::read`] is what a specs app does each
/// frame: dispatch, then `World::maintain`.
pub struct SpecsPeer {
    world: World,
    dispatcher: Dispatcher<'static, 'static>,
    entities: Vec<Entity>,
    targets: Vec<Entity>,
}

impl std::fmt::Debug for SpecsPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpecsPeer")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl SpecsPeer {
    /// Spawn `n` entities and register the reader (it sees the changes made from then on).
    pub fn new(n: usize) -> Self {
        let mut world = World::new();
        world.register::<Position>();
        world.register::<Velocity>();
        world.insert(Seen(0));
        let entities = (0..n)
            .map(|i| {
                world
                    .create_entity()
                    .with(Position::initial(i))
                    .with(Velocity::initial(i))
                    .build()
            })
            .collect();
        let reader = world.write_storage::<Position>().register_reader();
        let dispatcher = DispatcherBuilder::new()
            .with(
                ReadChangedPositions {
                    reader,
                    modified: BitSet::new(),
                },
                "read_changed_positions",
                &[],
            )
            .build();
        Self {
            world,
            dispatcher,
            entities,
            targets: Vec::new(),
        }
    }
}

impl Peer for SpecsPeer {
    fn name(&self) -> &'static str {
        "specs"
    }

    fn select(&mut self, targets: &[usize]) {
        self.targets = targets.iter().map(|&i| self.entities[i]).collect();
    }

    fn write(&mut self) {
        let mut positions = self.world.write_storage::<Position>();
        for &e in &self.targets {
            if let Some(p) = positions.get_mut(e) {
                p.bump();
            }
        }
    }

    fn read(&mut self) -> usize {
        self.dispatcher.dispatch(&self.world);
        self.world.maintain();
        self.world.read_resource::<Seen>().0
    }
}
