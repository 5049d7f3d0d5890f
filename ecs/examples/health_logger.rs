//! The dirty-component demo from the design's source post: a system that logs an entity's
//! health only when it changed.
//!
//! `cargo run -p ecs --example health_logger` prints `10/10` then `8/10`: the first update sees
//! the freshly added component, the second sees nothing, the third sees the hit, the fourth
//! nothing again.

use std::sync::Arc;
use std::sync::Mutex;

use ecs::{SystemDesc, SystemEntities, World};

/// Hit points of an entity.
#[derive(Debug, PartialEq)]
pub struct Health {
    pub current: u32,
    pub max: u32,
}

/// Run the demo, returning the lines the logger printed, in order.
pub fn run() -> Vec<String> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let out = Arc::clone(&lines);

    let mut world = World::new();
    world.add_system(
        SystemDesc::new("latest_health_logger")
            .requires::<Health>()
            .watches::<Health>(),
        move |world: &mut World, entities: &SystemEntities<'_>| {
            let mut changed = entities.changed::<&Health>(world);
            while let Some((_, health)) = changed.next() {
                out.lock()
                    .unwrap()
                    .push(format!("{}/{}", health.current, health.max));
            }
        },
    );

    let player = world.spawn((Health {
        current: 10,
        max: 10,
    },));
    world.update(); // logs 10/10: a new component starts dirty
    world.update(); // logs nothing
    if let Some(mut health) = world.get_mut::<Health>(player) {
        health.current = 8;
    }
    world.update(); // logs 8/10
    world.update(); // logs nothing

    std::mem::take(&mut *lines.lock().unwrap())
}

fn main() {
    for line in run() {
        println!("{line}");
    }
}
