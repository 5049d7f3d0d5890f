//! The workload on `bevy_ecs`: a `Query<&Position, Changed<Position>>` system in a `Schedule`.

use std::hint::black_box;

use bevy_ecs::entity::Entity;
use bevy_ecs::query::{Changed, QueryState};
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::Schedule;
use bevy_ecs::system::{Query, ResMut};
use bevy_ecs::world::World;

use crate::workload::{
    Group, Peer, Position, SpawnInGroup, Velocity, group_of, spawn_in_group, weight,
};

/// How many entities the reader system visited in its last run.
#[derive(Resource)]
struct Seen(usize);

fn read_changed_positions(
    query: Query<'_, '_, &Position, Changed<Position>>,
    mut seen: ResMut<'_, Seen>,
) {
    let mut count = 0;
    let mut sum = 0.0;
    for p in &query {
        count += 1;
        sum += weight(p);
    }
    black_box(sum);
    seen.0 = count;
}

/// `bevy_ecs` with one reader system in a schedule; [`Peer::read`] is what a bevy app does each
/// frame with it: run the schedule, then `World::clear_trackers`. The writer bumps through a
/// `QueryState<&mut Position>` (the component resolved once).
pub struct BevyPeer {
    world: World,
    schedule: Schedule,
    positions: QueryState<&'static mut Position>,
    entities: Vec<Entity>,
    targets: Vec<Entity>,
}

impl std::fmt::Debug for BevyPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BevyPeer")
            .field("entities", &self.entities.len())
            .finish()
    }
}

impl BevyPeer {
    /// Spawn `n` entities spread over `groups` (one: no marker) and run the reader once, so
    /// every spawn has been delivered.
    pub fn new(n: usize, groups: usize) -> Self {
        let mut world = World::new();
        world.insert_resource(Seen(0));
        let entities = if groups == 1 {
            world
                .spawn_batch((0..n).map(|i| (Position::initial(i), Velocity::initial(i))))
                .collect()
        } else {
            let mut spawner = Spawner {
                world: &mut world,
                entities: Vec::with_capacity(n),
            };
            for i in 0..n {
                spawn_in_group(&mut spawner, i, group_of(i, n, groups));
            }
            spawner.entities
        };
        let positions = world.query::<&mut Position>();
        let mut schedule = Schedule::default();
        schedule.add_systems(read_changed_positions);
        let mut peer = Self {
            world,
            schedule,
            positions,
            entities,
            targets: Vec::new(),
        };
        peer.read();
        peer
    }
}

struct Spawner<'w> {
    world: &'w mut World,
    entities: Vec<Entity>,
}

impl SpawnInGroup for Spawner<'_> {
    fn spawn<const G: usize>(&mut self, i: usize) {
        let e = self
            .world
            .spawn((Position::initial(i), Velocity::initial(i), Group::<G>))
            .id();
        self.entities.push(e);
    }
}

impl Peer for BevyPeer {
    fn name(&self) -> &'static str {
        "bevy_ecs"
    }

    fn select(&mut self, targets: &[usize]) {
        self.targets = targets.iter().map(|&i| self.entities[i]).collect();
    }

    fn write(&mut self) {
        let mut positions = self.positions.query_mut(&mut self.world);
        for &e in &self.targets {
            if let Ok(mut p) = positions.get_mut(e) {
                p.bump();
            }
        }
    }

    fn read(&mut self) -> usize {
        self.schedule.run(&mut self.world);
        self.world.clear_trackers();
        self.world.resource::<Seen>().0
    }
}
