//! Criterion benches of the hot game systems and whole steps, on generated levels.
//!
//! `cargo bench -p benches --bench systems`

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ecs::Entity;
use game::atlas::AtlasData;
use game::level;
use game::sim::components::{Crate, Position};
use game::sim::spatial_hash::{Aabb, Hit, SpatialHash};
use game::sim::{Input, Sim};

fn atlas() -> AtlasData {
    AtlasData::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets")).unwrap()
}

fn sim_with_crates(crates: usize, atlas: &AtlasData) -> Sim {
    let text = level::generate(crates, 1).unwrap();
    let level = level::parse(Path::new("generated.ron"), &text, &atlas.crate_skins()).unwrap();
    let mut sim = Sim::new(&level, atlas, 1).unwrap();
    sim.step(Input::default()); // settle: the first step sees everything as new
    sim
}

fn spatial_hash(c: &mut Criterion) {
    let mut group = c.benchmark_group("spatial_hash");
    let mut world = ecs::World::new();
    let entities: Vec<Entity> = (0..10_000).map(|_| world.spawn(())).collect();
    let boxes: Vec<Aabb> = (0..10_000)
        .map(|i| {
            Aabb::centered(
                (i % 100) as f32 * 16.0 + 8.0,
                (i / 100) as f32 * 16.0 + 8.0,
                8.0,
                8.0,
            )
        })
        .collect();
    group.bench_function("insert/10000", |b| {
        b.iter(|| {
            let mut grid = SpatialHash::new(1600.0, 1600.0, 32.0);
            for (e, aabb) in entities.iter().zip(&boxes) {
                grid.insert(*e, *aabb, true);
            }
            black_box(grid.len())
        })
    });
    let mut grid = SpatialHash::new(1600.0, 1600.0, 32.0);
    for (e, aabb) in entities.iter().zip(&boxes) {
        grid.insert(*e, *aabb, true);
    }
    let mut out: Vec<Hit> = Vec::new();
    group.bench_function("query/10000/screen_view", |b| {
        b.iter(|| {
            grid.query(&Aabb::centered(800.0, 800.0, 213.0, 120.0), &mut out);
            black_box(out.len())
        })
    });
    group.bench_function("query/10000/player_box", |b| {
        b.iter(|| {
            grid.query(&Aabb::centered(800.0, 800.0, 5.0, 5.0), &mut out);
            black_box(out.len())
        })
    });
    group.finish();
}

/// One system's update alone on a 10,000-crate level, with `dirty` crates changed beforehand
/// (`usize::MAX`: change tracking off, i.e. every tracked entity dirty).
fn system_alone(c: &mut Criterion) {
    let atlas = atlas();
    let mut group = c.benchmark_group("system");
    for system in ["draw_data", "collision_grid", "collision", "choose_clip"] {
        for dirty in [0usize, 100, usize::MAX] {
            let mut sim = sim_with_crates(10_000, &atlas);
            let world = sim.world_mut();
            let ids: Vec<_> = world.systems().map(|s| (s.id, s.name)).collect();
            for (id, name) in ids {
                world.set_enabled(id, name == system);
            }
            world.set_change_tracking(dirty != usize::MAX);
            let crates: Vec<Entity> = world.column::<Crate>().entities().to_vec();
            let label = if dirty == usize::MAX {
                "all".to_string()
            } else {
                dirty.to_string()
            };
            let mut nudge = 0.0f32;
            group.bench_function(
                BenchmarkId::new(format!("{system}/10000_crates/dirty"), label),
                |b| {
                    b.iter(|| {
                        nudge = if nudge == 0.0 { 0.5 } else { 0.0 };
                        if dirty != usize::MAX {
                            let positions = world.column_mut::<Position>();
                            for &e in crates.iter().take(dirty) {
                                if let Some(mut p) = positions.get_mut(e) {
                                    p.x = p.x.floor() + nudge;
                                }
                            }
                        }
                        world.update();
                    })
                },
            );
        }
    }
    group.finish();
}

fn whole_step(c: &mut Criterion) {
    let atlas = atlas();
    let mut group = c.benchmark_group("step");
    group.sample_size(30);
    for crates in [1_000usize, 10_000, 100_000] {
        for (mode, bot, dirty) in [
            ("idle", false, true),
            ("bot", true, true),
            ("idle_no_dirty", false, false),
        ] {
            if crates == 100_000 && !dirty {
                continue; // seconds per sample; the 10,000 figure makes the point
            }
            let mut sim = sim_with_crates(crates, &atlas);
            sim.set_bot(bot);
            sim.set_dirty_optimization(dirty);
            group.bench_function(BenchmarkId::new(mode, crates), |b| {
                b.iter(|| sim.step(Input::default()))
            });
        }
    }
    // Profiler scopes must cost nothing measurable while off (the default).
    let mut sim = sim_with_crates(10_000, &atlas);
    sim.set_bot(true);
    for on in [false, true] {
        puffin::set_scopes_on(on);
        let name = if on {
            "bot_scopes_on"
        } else {
            "bot_scopes_off"
        };
        group.bench_function(BenchmarkId::new(name, 10_000), |b| {
            b.iter(|| {
                sim.step(Input::default());
                if on {
                    puffin::GlobalProfiler::lock().new_frame();
                }
            })
        });
    }
    puffin::set_scopes_on(false);
    group.finish();
}

criterion_group!(benches, spatial_hash, system_alone, whole_step);
criterion_main!(benches);
