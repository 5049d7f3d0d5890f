//! `World` is `Send`: a world built on one thread (a loader) runs on another.

use ecs::{SystemDesc, SystemEntities, World};

fn assert_send<T: Send>() {}

#[test]
fn world_is_send() {
    assert_send::<World>();
}

#[test]
fn world_built_on_a_thread_runs_on_another() {
    let built = std::thread::spawn(|| {
        let mut world = World::new();
        world.insert_resource(0u32);
        world.add_system(
            SystemDesc::new("sum").watches::<u32>(),
            |w: &mut World, e: &SystemEntities<'_>| {
                let mut sum = 0;
                e.changed::<&u32>(w).for_each(|_, v| sum += v);
                *w.resource_mut::<u32>() += sum;
            },
        );
        world.spawn((3u32,));
        world.spawn((4u32,));
        world
    })
    .join()
    .expect("the loader thread builds the world");
    let mut world = built;
    world.update();
    assert_eq!(*world.resource::<u32>(), 7);
}
