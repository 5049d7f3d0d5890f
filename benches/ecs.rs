//! Criterion benches for the ECS, grouped by workload; names carry workload and size.
//!
//! - `dirty_k_of_n/{update,mutate}/N/k`: N entities with a watched component, k mutated per
//!   frame; the update and the mutations are timed separately.
//! - `write_cost/{unwatched,watched}/10000`: one write through `Mut` per entity, the column
//!   fetched once; `watched_world_get_mut`: the watched writes through `World::get_mut`.
//! - `dense_iteration/*/10000`: `pos += vel` over every entity: a plain `Vec<struct>` loop
//!   (`vec`), and `Column::iter_mut` with a `Vel` lookup per entity (a `Mut` per element).
//!   `*_watched` has a system watching `Pos`; `*_frame` also times the update that delivers the
//!   changes.
//! - `spawn/4_components/10000`: spawning into a world with one tracking system;
//!   `spawn/4_components_batch/10000` the same through `World::spawn_batch`.
//! - `idle_update/{8_systems,8_every_update_systems}/N`: `world.update()` with eight watching
//!   systems and nothing changed: as declared by default (called only when they have something
//!   to react to), or declared [`every_update`](ecs::SystemDesc::every_update).
//! - `reader/N/k`: the update in which one system visits the k dirty entities (of N) and reads
//!   their `Value`; the k writes before it are untimed and made in a shuffled order, so change
//!   order is not memory order; the reader reads through `SystemEntities::changed::<&Value>`.
//!   `reader_entity_list/N/k`: the same reader looping over `dirty()` with `Column::get`.
//!   `reader_in_order/N/k`: the same with writes in slot order.
//! - `watchers/W/N/k`: `reader` with W systems watching `Value`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ecs::{Column, Entity, SystemDesc, SystemEntities, World};

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
    value_readers_world(n, "sum_dirty", 1)
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

    fn bench_writes<T: ecs::Component>(
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
    // The same watched writes through `World::get_mut`, which finds the column by type.
    group.bench_function(BenchmarkId::new("watched_world_get_mut", N), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                for &e in &entities {
                    if let Some(mut v) = world.get_mut::<Value>(e) {
                        v.0 += 1;
                    }
                }
                total += start.elapsed();
                world.update(); // drain the changes, untimed
            }
            total
        });
    });
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
        group.bench_function(BenchmarkId::new(format!("iter_mut{suffix}"), N), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (pos, vel) = world.columns_mut::<Pos, Vel>();
                    let start = Instant::now();
                    step(pos, vel);
                    total += start.elapsed();
                    world.update(); // drain the changes, untimed
                }
                total
            });
        });
        if watched {
            // Loop and the update that delivers the changes.
            group.bench_function(BenchmarkId::new("iter_mut_watched_frame", N), |b| {
                b.iter_custom(|iters| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        let (pos, vel) = world.columns_mut::<Pos, Vel>();
                        step(pos, vel);
                        world.update();
                    }
                    start.elapsed()
                });
            });
        }
    }
    group.finish();
}

/// `pos += vel` for every entity with both, each `Pos` through its `Mut`.
fn step(pos: &mut Column<Pos>, vel: &Column<Vel>) {
    for (e, mut p) in pos.iter_mut() {
        if let Some(v) = vel.get(e) {
            p.x += v.x;
            p.y += v.y;
        }
    }
}

fn spawn(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("spawn");
    group.throughput(Throughput::Elements(N as u64));
    let bundle = |i: usize| {
        (
            Pos { x: 0.0, y: 0.0 },
            Vel { x: 1.0, y: 0.0 },
            Sprite(i as u32),
            Health(10),
        )
    };
    for batch in [false, true] {
        let name = if batch {
            "4_components_batch"
        } else {
            "4_components"
        };
        group.bench_function(BenchmarkId::new(name, N), |b| {
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
                    if batch {
                        black_box(world.spawn_batch((0..N).map(bundle)));
                    } else {
                        for i in 0..N {
                            world.spawn(bundle(i));
                        }
                    }
                    total += start.elapsed();
                    black_box(&world);
                    drop(world); // untimed
                }
                total
            });
        });
    }
    group.finish();
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Other(u64);

/// `entities` in a shuffled order (a fixed-seed Fisher-Yates, so every run writes in the same
/// order).
fn shuffled(entities: &[Entity]) -> Vec<Entity> {
    let mut out = entities.to_vec();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..out.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.swap(i, (x % (i as u64 + 1)) as usize);
    }
    out
}

/// A world of `n` entities with a `Value` and `watchers` systems that require and watch it and
/// sum the `Value` of each dirty entity; returns it after the first update drained the
/// "everything is new" dirty sets.
fn reader_world(n: usize, watchers: usize) -> (World, Vec<Entity>) {
    value_readers_world(n, "reader", watchers)
}

/// A world of `n` entities with a `Value` and `watchers` systems named `name` that require and
/// watch it and sum the `Value` of each dirty entity. Returns the entities in spawn order, after
/// the first update has drained the "everything is new" dirty sets.
fn value_readers_world(n: usize, name: &'static str, watchers: usize) -> (World, Vec<Entity>) {
    let mut world = World::new();
    for _ in 0..watchers {
        world.add_system(
            SystemDesc::new(name).requires::<Value>().watches::<Value>(),
            |world: &mut World, entities: &SystemEntities<'_>| {
                let mut sum = 0;
                if world.resource::<ViaEntityList>().0 {
                    let column = world.column::<Value>();
                    for &e in entities.dirty() {
                        sum += column.get(e).map_or(0, |v| v.0);
                    }
                } else {
                    let mut changed = entities.changed::<&Value>(world);
                    while let Some((_, v)) = changed.next() {
                        sum += v.0;
                    }
                }
                black_box(sum);
            },
        );
    }
    world.insert_resource(ViaEntityList(false));
    let entities = (0..n as u64).map(|i| world.spawn((Value(i),))).collect();
    world.update();
    (world, entities)
}

/// Time the update after writing the `Value` of the first `k` of `order`, untimed; check once
/// that every reader saw exactly `k` entities.
fn bench_reader(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: BenchmarkId,
    world: &mut World,
    order: &[Entity],
    k: usize,
) {
    let write = |world: &mut World| {
        let column = world.column_mut::<Value>();
        for &e in &order[..k] {
            if let Some(mut v) = column.get_mut(e) {
                v.0 += 1;
            }
        }
    };
    write(world);
    world.update();
    for info in world.systems() {
        assert_eq!(
            info.last_dirty, k,
            "{} saw {} of {k}",
            info.name, info.last_dirty
        );
    }
    group.bench_function(id, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                write(world);
                let start = Instant::now();
                world.update();
                total += start.elapsed();
            }
            total
        });
    });
}

/// Whether the readers of `value_readers_world` read through `dirty()` and the column instead of
/// the query.
struct ViaEntityList(bool);

fn label(n: usize) -> String {
    match n {
        n if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        n if n >= 1_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

fn idle_update(c: &mut Criterion) {
    let mut group = c.benchmark_group("idle_update");
    for (n, every_update) in [1_000, 100_000, 1_000_000]
        .into_iter()
        .flat_map(|n| [(n, false), (n, true)])
    {
        let mut world = World::new();
        for i in 0..8 {
            let desc = SystemDesc::new("idle").requires::<Value>();
            let desc = if every_update {
                desc.every_update()
            } else {
                desc
            };
            let desc = if i % 2 == 0 {
                desc.watches::<Value>()
            } else {
                desc.watches::<Other>()
            };
            world.add_system(desc, |_: &mut World, entities: &SystemEntities<'_>| {
                for &e in entities.dirty() {
                    black_box(e);
                }
            });
        }
        for i in 0..n as u64 {
            world.spawn((Value(i), Other(i)));
        }
        world.update();
        let name = if every_update {
            "8_every_update_systems"
        } else {
            "8_systems"
        };
        group.bench_function(BenchmarkId::new(name, label(n)), |b| {
            b.iter(|| world.update());
        });
    }
    group.finish();
}

fn reader(c: &mut Criterion) {
    let mut group = c.benchmark_group("reader");
    for n in [100_000, 1_000_000] {
        let (mut world, entities) = reader_world(n, 1);
        let order = shuffled(&entities);
        for k in [1, n / 100, n / 10, n] {
            let id = BenchmarkId::new(label(n), label(k));
            bench_reader(&mut group, id, &mut world, &order, k);
        }
    }
    group.finish();
    let mut group = c.benchmark_group("reader_entity_list");
    for n in [100_000, 1_000_000] {
        let (mut world, entities) = reader_world(n, 1);
        world.insert_resource(ViaEntityList(true));
        let order = shuffled(&entities);
        for k in [n / 10, n] {
            let id = BenchmarkId::new(label(n), label(k));
            bench_reader(&mut group, id, &mut world, &order, k);
        }
    }
    group.finish();
    let mut group = c.benchmark_group("reader_in_order");
    let n = 1_000_000;
    let (mut world, entities) = reader_world(n, 1);
    for k in [n / 10, n] {
        let stride: Vec<Entity> = entities.iter().step_by(n / k).copied().collect();
        let id = BenchmarkId::new(label(n), label(k));
        bench_reader(&mut group, id, &mut world, &stride, k);
    }
    group.finish();
}

fn watchers(c: &mut Criterion) {
    let mut group = c.benchmark_group("watchers");
    for n in [100_000, 1_000_000] {
        for w in [1, 2, 4] {
            let (mut world, entities) = reader_world(n, w);
            let order = shuffled(&entities);
            for k in [n / 100, n / 10] {
                let id = BenchmarkId::new(format!("{w}/{}", label(n)), label(k));
                bench_reader(&mut group, id, &mut world, &order, k);
            }
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    dirty_k_of_n,
    write_cost,
    dense_iteration,
    spawn,
    idle_update,
    reader,
    watchers
);
criterion_main!(benches);
