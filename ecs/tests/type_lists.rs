//! Listing the component and resource types a world holds: README's "Diagnostics", the basis
//! of checks that must cover every type (a state hash, a save format).

use crate::common;

use std::any::TypeId;
use std::collections::HashSet;

use common::{Pos, Vel};
use ecs::{SystemDesc, SystemEntities, World};

#[derive(Debug, PartialEq)]
struct Tag;

#[derive(Debug, PartialEq)]
struct Watched(u32);

#[derive(Debug, PartialEq)]
struct Score(u32);

#[derive(Debug, PartialEq)]
struct Level(&'static str);

fn component_ids(world: &World) -> Vec<TypeId> {
    world.component_types().map(|(id, _)| id).collect()
}

#[test]
fn component_types_lists_every_registered_type_once_in_registration_order() {
    let mut world = World::new();
    assert_eq!(world.component_types().len(), 0);
    let e = world.spawn((Pos(1), Vel(2)));
    world.spawn((Pos(3),));
    world.insert(e, Tag).unwrap();
    world.insert(e, Tag).unwrap();
    assert_eq!(
        component_ids(&world),
        [
            TypeId::of::<Pos>(),
            TypeId::of::<Vel>(),
            TypeId::of::<Tag>()
        ]
    );
    let names: Vec<&str> = world.component_types().map(|(_, name)| name).collect();
    assert!(
        names[0].ends_with("Pos") && names[2].ends_with("Tag"),
        "{names:?}"
    );
}

#[test]
fn a_type_only_a_system_names_is_listed_and_no_type_is_dropped_when_its_column_empties() {
    let mut world = World::new();
    world.add_system(
        SystemDesc::new("s").requires::<Pos>().watches::<Watched>(),
        |_: &mut World, _: &SystemEntities<'_>| {},
    );
    world.register::<Tag>();
    let expected = [
        TypeId::of::<Pos>(),
        TypeId::of::<Watched>(),
        TypeId::of::<Tag>(),
    ];
    assert_eq!(component_ids(&world), expected);
    let e = world.spawn((Pos(1),));
    world.remove::<Pos>(e);
    world.despawn(e);
    world.clear();
    assert_eq!(
        component_ids(&world),
        expected,
        "registered types stay listed"
    );
}

#[test]
fn resource_types_follows_inserts_and_removes() {
    let mut world = World::new();
    assert_eq!(world.resource_types().len(), 0);
    world.insert_resource(Score(1));
    world.insert_resource(Level("a"));
    world.insert_resource(Score(2));
    let listed: HashSet<TypeId> = world.resource_types().map(|(id, _)| id).collect();
    assert_eq!(
        listed,
        HashSet::from([TypeId::of::<Score>(), TypeId::of::<Level>()])
    );
    assert_eq!(
        world.resource_types().len(),
        2,
        "a replaced resource is listed once"
    );
    world.remove_resource::<Score>();
    let listed: Vec<(TypeId, &str)> = world.resource_types().collect();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0, TypeId::of::<Level>());
    assert!(listed[0].1.ends_with("Level"), "{}", listed[0].1);
    assert_eq!(world.resource::<Level>(), &Level("a"));
}
