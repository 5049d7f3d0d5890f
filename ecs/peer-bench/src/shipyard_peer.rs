//! The workload on `shipyard`: `Position` tracks modification, and a system in a workload
//! iterates `View::modified()`, which inside a workload yields what changed since that system
//! last ran (the crate's guide, "Tracking").

use std::hint::black_box;

use shipyard::{
    Component, EntityId, Get, IntoIter, Unique, UniqueView, UniqueViewMut, View, ViewMut, Workload,
    World, track,
};

use crate::workload::{Peer, Position, Velocity, weight};

impl Component for Position {
    type Tracking = track::Modification;
}

impl Component for Velocity {
    type Tracking = track::Untracked;
}

/// How many entities the reader system visited in its last run.
struct Seen(usize);

impl Unique for Seen {}

const READ: &str = "read";

fn read_changed_positions(positions: View<'_, Position>, mut seen: UniqueViewMut<'_, Seen>) {
    let mut count = 0;
    let mut sum = 0.0;
    for p in positions.modified().iter() {
        count += 1;
        sum += weight(p);
    }
    black_box(sum);
    seen.0 = count;
}

/// `shipyard` with one reader system in a workload; [`Peer::read`] runs the workload.
pub struct ShipyardPeer {
    world: World,
    entities: Vec<EntityId>,
    targets: Vec<EntityId>,
}

impl std::fmt::Debug for ShipyardPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShipyardPeer")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl ShipyardPeer {
    /// Spawn `n` entities and run the reader once, so every spawn has been delivered.
    pub fn new(n: usize) -> Self {
        let mut world = World::new();
        world.add_unique(Seen(0));
        let entities = world
            .bulk_add_entity((0..n).map(|i| (Position::initial(i), Velocity::initial(i))))
            .collect();
        Workload::new(READ)
            .with_system(read_changed_positions)
            .add_to_world(&world)
            .expect("a new workload name");
        let mut peer = Self {
            world,
            entities,
            targets: Vec::new(),
        };
        peer.read();
        peer
    }
}

impl Peer for ShipyardPeer {
    fn name(&self) -> &'static str {
        "shipyard"
    }

    fn select(&mut self, targets: &[usize]) {
        self.targets = targets.iter().map(|&i| self.entities[i]).collect();
    }

    fn write(&mut self) {
        let mut positions = self
            .world
            .borrow::<ViewMut<'_, Position>>()
            .expect("Position storage");
        for &e in &self.targets {
            if let Ok(mut p) = (&mut positions).get(e) {
                p.bump();
            }
        }
    }

    fn read(&mut self) -> usize {
        self.world
            .run_workload(READ)
            .expect("the read workload runs");
        self.world.run(|seen: UniqueView<'_, Seen>| seen.0)
    }
}
