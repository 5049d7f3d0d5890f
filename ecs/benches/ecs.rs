//! Criterion benches for the ECS, grouped by workload; names carry workload and size.
//!
//! - `dirty_k_of_n/{update,mutate}/N/k`: N entities with a watched component, k mutated per
//!   frame; the update and the mutations are timed separately.
//! - `write_cost/{unwatched,watched}/10000`: one write through `Mut` per entity.
//! - `dense_iteration/*/10000`: `pos += vel` over every entity: a plain `Vec<struct>` loop
//!   (`vec`), `join_mut` (a `Mut` per element) and `join_values_mut` (plain `&mut`, signals every
//!   `Pos` at once). `*_watched` has a system watching `Pos`; `*_frame` also times the update
//!   that delivers the changes, because `join_values_mut` defers that work to it.
//! - `spawn/4_components/10000`: spawning into a world with one tracking system.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ecs::{Entity, SystemDesc, SystemEntities, World, join_mut, join_values_mut};

#[derive(Clone, Copy, Debug, PartialEq)]
struct Value(u64);

#[derive(Clone, Copy, Debug, PartialEq)]
struct Unwatched(u64);

#[derive(Clone, Copy, Debug, PartialEq)]
struct Pos {
    x: f32,
    y: f32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Vel {
    x: f32,
    y: f32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Sprite(u32);

#[derive(Clone, Copy, Debug, PartialEq)]
struct Health(u32);

/// A world of `n` entities with a `Value`, and one system that requires and watches `Value` and
/// reads it for each dirty entity. Returns the entities in spawn order, after the first update
/// has drained the "everything is new" dirty set.
fn k_of_n_world(n: usize) -> (World, Vec<Entity>) {
    let mut world = World::new();
    world.add_system(
        SystemDesc::new("sum_dirty")
            .requires::<Value>()
            .watches::<Value>(),
        |world: &mut World, entities: &SystemEntities<'_>| {
            let column = world.column::<Value>();
            let mut sum = 0;
            for &e in entities.dirty() {
                sum += column.get(e).map_or(0, |v| v.0);
            }
            black_box(sum);
        },
    );
    let entities = (0..n as u64).map(|i| world.spawn((Value(i),))).collect();
    world.update();
    (world, entities)
}

/// Bump the `Value` of `k` entities spread evenly across `entities`.
fn mutate_k(world: &mut World, entities: &[Entity], k: usize) {
    if k == 0 {
        return;
    }
    let stride = entities.len() / k;
    let column = world.column_mut::<Value>();
    for &e in entities.iter().step_by(stride).take(k) {
        if let Some(mut v) = column.get_mut(e) {
            v.0 += 1;
        }
    }
}

fn dirty_k_of_n(c: &mut Criterion) {
    let mut group = c.benchmark_group("dirty_k_of_n");
    let sizes: [(usize, &[usize]); 2] = [
        (100_000, &[0, 1, 100, 1_000, 10_000, 100_000]),
        (1_000, &[0, 1, 100, 1_000]),
    ];
    for (n, ks) in sizes {
        let (mut world, entities) = k_of_n_world(n);
        for &k in ks {
            group.bench_function(BenchmarkId::new("update", format!("{n}/{k}")), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        mutate_k(&mut world, &entities, k);
                        let start = Instant::now();
                        world.update();
                        total += start.elapsed();
                    }
                    total
                });
            });
            group.bench_function(BenchmarkId::new("mutate", format!("{n}/{k}")), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let start = Instant::now();
                        mutate_k(&mut world, &entities, k);
                        total += start.elapsed();
                        world.update();
                    }
                    total
                });
            });
        }
    }
    group.finish();
}

fn write_cost(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("write_cost");
    group.throughput(Throughput::Elements(N as u64));
    let mut world = World::new();
    world.add_system(
        SystemDesc::new("watcher")
            .requires::<Value>()
            .watches::<Value>(),
        |_: &mut World, entities: &SystemEntities<'_>| {
            black_box(entities.dirty().len());
        },
    );
    let entities: Vec<Entity> = (0..N as u64)
        .map(|i| world.spawn((Value(i), Unwatched(i))))
        .collect();
    world.update();

    fn bench_writes<T: 'static>(
        group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
        name: &str,
        world: &mut World,
        entities: &[Entity],
        bump: fn(&mut T),
    ) {
        group.bench_function(BenchmarkId::new(name, N), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let column = world.column_mut::<T>();
                    let start = Instant::now();
                    for &e in entities {
                        if let Some(mut v) = column.get_mut(e) {
                            bump(&mut v);
                        }
                    }
                    total += start.elapsed();
                    world.update(); // drain the changes, untimed
                }
                total
            });
        });
    }
    bench_writes::<Unwatched>(&mut group, "unwatched", &mut world, &entities, |v| {
        v.0 += 1;
    });
    bench_writes::<Value>(&mut group, "watched", &mut world, &entities, |v| v.0 += 1);
    group.finish();
}

fn dense_iteration(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("dense_iteration");
    group.throughput(Throughput::Elements(N as u64));
    let vel = |i: usize| Vel {
        x: (i % 7) as f32 * 0.5,
        y: (i % 3) as f32 * -0.25,
    };

    struct Body {
        pos: Pos,
        vel: Vel,
    }
    let mut bodies: Vec<Body> = (0..N)
        .map(|i| Body {
            pos: Pos { x: 0.0, y: 0.0 },
            vel: vel(i),
        })
        .collect();
    group.bench_function(BenchmarkId::new("vec", N), |b| {
        b.iter(|| {
            for body in &mut bodies {
                body.pos.x += body.vel.x;
                body.pos.y += body.vel.y;
            }
            black_box(&mut bodies);
        });
    });

    for watched in [false, true] {
        let mut world = World::new();
        if watched {
            world.add_system(
                SystemDesc::new("watcher")
                    .requires::<Pos>()
                    .watches::<Pos>(),
                |_: &mut World, entities: &SystemEntities<'_>| {
                    black_box(entities.dirty().len());
                },
            );
        }
        for i in 0..N {
            world.spawn((Pos { x: 0.0, y: 0.0 }, vel(i)));
        }
        world.update();
        let suffix = if watched { "_watched" } else { "" };
        // Loop only; with Pos watched, the per-element change signals are in the loop.
        group.bench_function(BenchmarkId::new(format!("join_mut{suffix}"), N), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (pos, vel) = world.columns_mut::<Pos, Vel>();
                    let start = Instant::now();
                    for (_, mut p, v) in join_mut(pos, vel) {
                        p.x += v.x;
                        p.y += v.y;
                    }
                    total += start.elapsed();
                    world.update(); // drain the changes, untimed
                }
                total
            });
        });
        // `join_values_mut` signals every Pos in O(1) and the delivery happens in the update,
        // so with Pos watched the fair figure is loop + update (`_frame`), for both joins.
        let frame = watched;
        let name = if frame {
            "join_values_mut_watched_frame"
        } else {
            "join_values_mut"
        };
        group.bench_function(BenchmarkId::new(name, N), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (pos, vel) = world.columns_mut::<Pos, Vel>();
                    let start = Instant::now();
                    for (_, p, v) in join_values_mut(pos, vel) {
                        p.x += v.x;
                        p.y += v.y;
                    }
                    if frame {
                        world.update();
                    }
                    total += start.elapsed();
                    if !frame {
                        world.update();
                    }
                }
                total
            });
        });
        if frame {
            group.bench_function(BenchmarkId::new("join_mut_watched_frame", N), |b| {
                b.iter_custom(|iters| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        let (pos, vel) = world.columns_mut::<Pos, Vel>();
                        for (_, mut p, v) in join_mut(pos, vel) {
                            p.x += v.x;
                            p.y += v.y;
                        }
                        world.update();
                    }
                    start.elapsed()
                });
            });
        }
    }
    group.finish();
}

fn spawn(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("spawn");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function(BenchmarkId::new("4_components", N), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut world = World::new();
                world.add_system(
                    SystemDesc::new("movement")
                        .requires::<Pos>()
                        .requires::<Vel>()
                        .watches::<Pos>(),
                    |_: &mut World, _: &SystemEntities<'_>| {},
                );
                let start = Instant::now();
                for i in 0..N {
                    world.spawn((
                        Pos { x: 0.0, y: 0.0 },
                        Vel { x: 1.0, y: 0.0 },
                        Sprite(i as u32),
                        Health(10),
                    ));
                }
                total += start.elapsed();
                black_box(&world);
                drop(world); // untimed
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, dirty_k_of_n, write_cost, dense_iteration, spawn);
criterion_main!(benches);
