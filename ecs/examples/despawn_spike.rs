//! What despawning costs in a column filled in slot order, one despawn at a time: the first
//! removal that moves the column's last member into the hole makes the column build its sparse
//! index, in one pass over its members. That despawn is the longest; this prints its time next
//! to the others'.
//!
//! `cargo run --release -p ecs --example despawn_spike -- 10000000` (default 1,000,000): one
//! column and no system, so the pass is one column's; every column and tracked set that holds
//! the despawned entities makes its own pass at about the same despawn.

use std::time::Instant;

use ecs::World;

struct Position(#[allow(dead_code)] [f32; 2]);

fn main() {
    let n: usize = match std::env::args().nth(1) {
        Some(arg) => match arg.parse() {
            Ok(n) if n >= 64 => n,
            _ => {
                eprintln!("despawn_spike: {arg:?} is not an entity count of at least 64");
                std::process::exit(2);
            }
        },
        None => 1_000_000,
    };
    let mut world = World::new();
    let entities = world.spawn_batch((0..n).map(|i| (Position([i as f32, 0.0]),)));
    // A spread of distinct entities.
    let count = n / 64 + n / 100;
    let step = n / count;
    let mut times: Vec<(f64, usize)> = Vec::with_capacity(count);
    for j in 0..count {
        let start = Instant::now();
        world.despawn(entities[j * step]);
        times.push((start.elapsed().as_secs_f64() * 1e3, j + 1));
    }
    let total: f64 = times.iter().map(|t| t.0).sum();
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut rest: Vec<f64> = times[1..].iter().map(|t| t.0 * 1e6).collect();
    rest.sort_by(f64::total_cmp);
    println!(
        "{n} entities, {count} despawned one at a time: {total:.1} ms in all; the longest, \
         despawn number {}, {:.2} ms; the others' median {:.0} ns, second longest {:.2} ms",
        times[0].1,
        times[0].0,
        rest[rest.len() / 2],
        times[1].0,
    );
}
