//! The state hash covers the whole state: every component type and every resource a running
//! world holds is hashed (or, for a resource, left out with a stated reason), and a change to
//! any of the parts it used to skip changes the hash.

use crate::common;

use std::any::TypeId;
use std::collections::HashSet;

use common::sim_from_rows_and;
use game::sim::components::{
    CameraTarget, Coin, Crate, Debris, Exploding, Friction, Lifetime, Sprite, Swing, Velocity,
};
use game::sim::resources::{BotPlan, SimRng, TileMap};
use game::sim::state_hash::{hashed_components, hashed_resources, unhashed_resources};
use game::sim::{Input, Sim};

/// A room with a plain crate, a strong one, a coin crate, a keg and a loose coin, played by the
/// bot, who lights the keg and is caught in its blast.
fn busy_room() -> Sim {
    let mut sim = sim_from_rows_and(
        &[
            "#########",
            "#@kc.C.$#",
            "#o......#",
            "#....x..#",
            "#########",
        ],
        "    legend: { 'x': Crate(health: 1, skin: \"crate_strong\", coin: true) },",
    );
    sim.set_bot(true);
    sim
}

/// The busy room, played until the first step on which something slides (debris or a coin,
/// which have friction) while a crate still stands: every edit below then has a target.
fn busy_room_mid_run() -> Sim {
    let mut sim = busy_room();
    for step in 0.. {
        assert!(
            step < 3000,
            "no step of the run had sliding things and a crate standing"
        );
        sim.step(Input::default());
        let world = sim.world();
        if !world.column::<Friction>().is_empty() && sim.state().crates_left > 1 {
            return sim;
        }
    }
    unreachable!()
}

fn unique(list: impl Iterator<Item = (TypeId, &'static str)>) -> HashSet<TypeId> {
    let mut seen = HashSet::new();
    for (id, name) in list {
        assert!(seen.insert(id), "{name} is listed twice");
    }
    seen
}

/// What has shown up so far in a run: the kinds of entity whose components must be hashed.
#[derive(Debug, Default)]
struct Seen {
    debris: bool,
    arc: bool,
    exploding: bool,
    thrown_coin: bool,
}

impl Seen {
    fn look(&mut self, sim: &Sim) {
        let world = sim.world();
        let has_any = |n: Option<usize>| n.is_some_and(|n| n > 0);
        self.debris |= has_any(world.try_column::<Debris>().map(|c| c.len()));
        self.exploding |= !world.column::<Exploding>().is_empty();
        self.arc |= world
            .column::<Lifetime>()
            .entities()
            .iter()
            .any(|&e| !world.has::<Debris>(e));
        self.thrown_coin |= world.column::<Coin>().entities().iter().any(|&e| {
            world
                .get::<Velocity>(e)
                .is_some_and(|v| *v != Velocity::default())
        });
    }
}

#[test]
fn every_component_type_and_resource_of_a_running_world_is_hashed_or_left_out_for_a_reason() {
    let components = unique(hashed_components());
    let resources = unique(hashed_resources());
    let unhashed = unique(unhashed_resources().map(|(id, name, _)| (id, name)));
    assert!(resources.is_disjoint(&unhashed));

    let mut sim = busy_room();
    let healths: HashSet<u32> = sim
        .world()
        .column::<Crate>()
        .values()
        .iter()
        .map(|c| c.health)
        .collect();
    assert_eq!(healths, HashSet::from([1, 3, 6]), "crates of every kind");
    let mut seen = Seen::default();
    for step in 0..1500 {
        sim.step(Input::default());
        seen.look(&sim);
        let world = sim.world();
        for (id, name) in world.component_types() {
            assert!(
                components.contains(&id),
                "step {step}: the world has component type {name}, which state_hash does not hash"
            );
        }
        for (id, name) in world.resource_types() {
            assert!(
                resources.contains(&id) || unhashed.contains(&id),
                "step {step}: the world has resource {name}, which state_hash neither hashes nor \
                 lists as left out"
            );
        }
    }
    assert!(
        seen.debris && seen.arc && seen.exploding && seen.thrown_coin,
        "the run showed every kind of entity: {seen:?}"
    );
    assert_eq!(sim.state().crates_left, 0, "the bot smashed every crate");
    let world = sim.world();
    assert_eq!(
        world.component_types().len(),
        components.len(),
        "no type hashed in vain"
    );
}

#[test]
fn a_change_to_a_sprite_a_friction_the_camera_target_the_map_the_rng_or_a_systems_state_changes_the_hash()
 {
    let sim = busy_room_mid_run();
    let before = sim.state_hash();
    type Edit = fn(&mut ecs::World);
    let edits: [(&str, Edit); 9] = [
        ("sprite layer", |world| {
            let e = world.column::<Sprite>().entities()[0];
            world.get_mut::<Sprite>(e).unwrap().layer += 1;
        }),
        ("friction", |world| {
            let e = world.column::<Friction>().entities()[0];
            world.get_mut::<Friction>(e).unwrap().0 = 0.5;
        }),
        ("camera target", |world| {
            let e = world.column::<CameraTarget>().entities()[0];
            world.remove::<CameraTarget>(e);
        }),
        ("a crate on the map", |world| {
            let i = world
                .resource::<TileMap>()
                .crates()
                .iter()
                .position(Option::is_some)
                .unwrap();
            world.resource_mut::<TileMap>().set_crate(i, None);
        }),
        ("a random draw", |world| {
            world.resource_mut::<SimRng>().next_u32();
        }),
        // What systems keep between steps: the swing's arc and the crates it hit (`attack`),
        // the bot's target, path and replanning count (`bot`).
        ("the swing's already-hit list", |world| {
            let e = world.column::<Swing>().entities()[0];
            let c = world.column::<Crate>().entities()[0];
            world.get_mut::<Swing>(e).unwrap().hit.push(c);
        }),
        ("the swing's arc", |world| {
            let e = world.column::<Swing>().entities()[0];
            let c = world.column::<Crate>().entities()[0];
            world.get_mut::<Swing>(e).unwrap().arc = Some(c);
        }),
        ("the bot's path", |world| {
            world.resource_mut::<BotPlan>().path.push_back((1, 1));
        }),
        ("the bot's steps since planning", |world| {
            world.resource_mut::<BotPlan>().since_plan += 1;
        }),
    ];
    for (what, edit) in edits {
        let mut changed = busy_room_mid_run();
        assert_eq!(changed.state_hash(), before, "same run, same hash");
        edit(changed.world_mut());
        assert_ne!(changed.state_hash(), before, "{what} changed unseen");
    }
}
