//! `--floor-gap`: where the `ecs` reader's time goes beside the hand-kept list's.
//!
//! The `ecs` reader is one `World::update`: the changed slots' bits are moved from the
//! `Position` column to the system and drained, in slot order, into the list the system reads
//! (delivery), then the system looks each handle up in the column (the read). The hand-kept
//! list has no delivery: its writer pushed each handle as it wrote, so its reader is the read
//! alone. [`EcsDelivery`] is the `ecs` peer with a system that takes the list and reads no
//! position, so `ecs - ecs delivery` is the read, and `ecs delivery` what the floor does not
//! pay at read time.

use ecs::{Entity, SystemDesc, SystemEntities, World};

use crate::workload::{Peer, Position, Velocity};

/// How many entities the system was handed in its last run.
struct Seen(usize);

/// `ecs` with a watching system that counts its dirty list and reads nothing.
pub struct EcsDelivery {
    world: World,
    entities: Vec<Entity>,
    targets: Vec<Entity>,
}

impl std::fmt::Debug for EcsDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EcsDelivery")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl EcsDelivery {
    /// Spawn `n` entities in one group and run the system once, so every spawn is delivered.
    pub fn new(n: usize) -> Self {
        let mut world = World::new();
        world.insert_resource(Seen(0));
        world.add_system(
            SystemDesc::new("count_changed_positions")
                .requires::<Position>()
                .watches::<Position>(),
            |world: &mut World, entities: &SystemEntities<'_>| {
                world.resource_mut::<Seen>().0 = entities.dirty().len();
            },
        );
        let entities = (0..n)
            .map(|i| world.spawn((Position::initial(i), Velocity::initial(i))))
            .collect();
        world.update();
        world.resource_mut::<Seen>().0 = 0;
        Self {
            world,
            entities,
            targets: Vec::new(),
        }
    }
}

impl Peer for EcsDelivery {
    fn name(&self) -> &'static str {
        "ecs delivery"
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
        self.world.update();
        std::mem::take(&mut self.world.resource_mut::<Seen>().0)
    }
}
