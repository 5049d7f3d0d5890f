//! Spawning many entities shaped like the game's crates (five components, tracked by five
//! systems that watch some of them), the first update after, and the heap bytes per entity of
//! each structure (`ecs::diagnostics::memory_use`), with and without `World::reserve` beforehand.
//!
//! `cargo run --release -p ecs --example spawn_memory -- 10000000` (default 1,000,000).

use std::time::Instant;

use ecs::{SystemDesc, SystemEntities, World};

struct Position(#[allow(dead_code)] [f32; 2]);
struct Collider(#[allow(dead_code)] [f32; 4]);
struct Crate(#[allow(dead_code)] [u32; 3]);
struct Sprite(#[allow(dead_code)] [u32; 6]);
struct Animation(#[allow(dead_code)] [u32; 4]);

type CrateBundle = (Position, Collider, Crate, Sprite, Animation);

fn bundle(i: usize) -> CrateBundle {
    let f = i as f32;
    (
        Position([f, f]),
        Collider([8.0; 4]),
        Crate([3, 3, 0]),
        Sprite([0; 6]),
        Animation([0; 4]),
    )
}

fn world() -> World {
    let mut world = World::new();
    let nothing = |_: &mut World, _: &SystemEntities<'_>| {};
    world.add_system(
        SystemDesc::new("spatial_hash")
            .requires::<Position>()
            .requires::<Collider>()
            .watches::<Position>(),
        nothing,
    );
    world.add_system(SystemDesc::new("damage").requires::<Crate>(), nothing);
    world.add_system(
        SystemDesc::new("animation_state")
            .requires::<Animation>()
            .requires::<Sprite>()
            .watches::<Sprite>(),
        nothing,
    );
    world.add_system(
        SystemDesc::new("draw_data")
            .requires::<Position>()
            .requires::<Animation>()
            .requires::<Sprite>(),
        nothing,
    );
    world.add_system(
        SystemDesc::new("checkpoint")
            .requires::<Position>()
            .watches::<Crate>(),
        nothing,
    );
    world
}

fn run(n: usize, how: &str) {
    let mut world = world();
    let start = Instant::now();
    match how {
        "spawn" => {
            for i in 0..n {
                world.spawn(bundle(i));
            }
        }
        "reserve + spawn" => {
            world.reserve::<CrateBundle>(n);
            for i in 0..n {
                world.spawn(bundle(i));
            }
        }
        _ => {
            world.spawn_batch((0..n).map(bundle));
        }
    }
    let spawned = start.elapsed();
    let after_spawn = ecs::diagnostics::memory_use(&world);
    let start = Instant::now();
    world.update();
    let updated = start.elapsed();
    let after_update = ecs::diagnostics::memory_use(&world);
    let per = |bytes: usize| bytes as f64 / n as f64;
    println!(
        "\n{how}: {n} entities, spawn {:.0} ms, first update {:.2} ms",
        spawned.as_secs_f64() * 1e3,
        updated.as_secs_f64() * 1e3
    );
    println!("| structure | bytes per entity after spawn | after the first update |");
    println!("|---|---:|---:|");
    println!(
        "| entity slots | {:.1} | {:.1} |",
        per(after_spawn.entities),
        per(after_update.entities)
    );
    let rows = |a: &[(&str, usize)], b: &[(&str, usize)], what: &str| {
        for ((name, x), (_, y)) in a.iter().zip(b) {
            let name = name.rsplit("::").next().unwrap_or(name);
            println!("| {what} `{name}` | {:.1} | {:.1} |", per(*x), per(*y));
        }
    };
    rows(&after_spawn.columns, &after_update.columns, "column");
    rows(
        &after_spawn.change_bits,
        &after_update.change_bits,
        "change bits",
    );
    rows(&after_spawn.systems, &after_update.systems, "system");
    println!(
        "| **total** | **{:.1}** | **{:.1}** |",
        per(after_spawn.total()),
        per(after_update.total())
    );
}

fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    for how in ["spawn", "reserve + spawn", "spawn_batch"] {
        run(n, how);
    }
}
