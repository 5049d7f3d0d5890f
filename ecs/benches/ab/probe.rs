//! A/B probe against an older `ecs` (see `run.sh`): the k-of-N reader workload, with k writes in
//! a shuffled order before each timed update, run on the old crate (`before`) and on this one
//! with change-order delivery (`sparse`), slot-order delivery (`dense`) and the default
//! threshold (`default`), one frame of each in turn so that all see the same machine load.
//! Prints the median per-update time of each. Also: an update with 8 watching systems and
//! nothing changed.

use std::hint::black_box;
use std::time::Instant;

macro_rules! probe {
    ($module:ident, $krate:ident) => {
        pub mod $module {
            use super::*;
            use ::$krate::{Entity, SystemDesc, SystemEntities, World};

            #[derive(Clone, Copy)]
            pub struct Value(pub u64);

            pub struct Bench {
                pub world: World,
                order: Vec<Entity>,
            }

            pub fn reader(n: usize, watchers: usize) -> Bench {
                let mut world = World::new();
                for _ in 0..watchers {
                    world.add_system(
                        SystemDesc::new("reader").requires::<Value>().watches::<Value>(),
                        |world: &mut World, entities: &SystemEntities<'_>| {
                            let column = world.column::<Value>();
                            let mut sum = 0;
                            for &e in entities.dirty() {
                                sum += column.get(e).map_or(0, |v| v.0);
                            }
                            black_box(sum);
                        },
                    );
                }
                let es: Vec<Entity> = (0..n as u64).map(|i| world.spawn((Value(i),))).collect();
                world.update();
                Bench { world, order: shuffled(&es) }
            }

            impl Bench {
                /// Write k values (untimed), then time one update; nanoseconds.
                pub fn frame(&mut self, k: usize) -> f64 {
                    let column = self.world.column_mut::<Value>();
                    for &e in &self.order[..k] {
                        if let Some(mut v) = column.get_mut(e) {
                            v.0 += 1;
                        }
                    }
                    let start = Instant::now();
                    self.world.update();
                    start.elapsed().as_nanos() as f64
                }
            }

            pub fn idle(n: usize) -> World {
                let mut world = World::new();
                for _ in 0..8 {
                    world.add_system(
                        SystemDesc::new("idle").requires::<Value>().watches::<Value>(),
                        |_: &mut World, entities: &SystemEntities<'_>| {
                            for &e in entities.dirty() {
                                black_box(e);
                            }
                        },
                    );
                }
                for i in 0..n as u64 {
                    world.spawn((Value(i),));
                }
                world.update();
                world
            }

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
        }
    };
}

probe!(before, ecs_before);
probe!(after, ecs);

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    for n in [1_000, 1_000_000] {
        let mut before = before::idle(n);
        let mut after = after::idle(n);
        let (mut tb, mut ta) = (Vec::new(), Vec::new());
        for _ in 0..200 {
            let start = Instant::now();
            for _ in 0..10_000 {
                before.update();
            }
            tb.push(start.elapsed().as_nanos() as f64 / 1e4);
            let start = Instant::now();
            for _ in 0..10_000 {
                after.update();
            }
            ta.push(start.elapsed().as_nanos() as f64 / 1e4);
        }
        println!(
            "idle, 8 watching systems, N={n}: before {:.1} ns, after {:.1} ns",
            median(tb),
            median(ta)
        );
    }
    println!("| N | watchers | k | before us | sparse us | dense us | default us | default/before |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let cases: [(usize, usize, &[usize], usize); 6] = [
        (100_000, 1, &[1, 1_000, 5_000, 10_000, 20_000, 100_000], 301),
        (1_000_000, 1, &[1, 10_000, 50_000, 100_000, 200_000, 1_000_000], 41),
        (100_000, 2, &[10_000], 301),
        (1_000_000, 2, &[100_000], 41),
        (100_000, 4, &[10_000], 301),
        (1_000_000, 4, &[100_000], 41),
    ];
    for (n, watchers, ks, rounds) in cases {
        let mut before = before::reader(n, watchers);
        let mut after = after::reader(n, watchers);
        for &k in ks {
            let mut t: [Vec<f64>; 4] = Default::default();
            for _ in 0..rounds {
                t[0].push(before.frame(k));
                for (i, dense) in [
                    ::ecs::DenseDelivery::NEVER,
                    ::ecs::DenseDelivery::ALWAYS,
                    ::ecs::DenseDelivery::DEFAULT,
                ]
                .into_iter()
                .enumerate()
                {
                    after.world.set_dense_delivery(dense);
                    t[i + 1].push(after.frame(k));
                }
            }
            let m = t.map(median);
            println!(
                "| {n} | {watchers} | {k} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
                m[0] / 1e3,
                m[1] / 1e3,
                m[2] / 1e3,
                m[3] / 1e3,
                m[3] / m[0]
            );
        }
    }
}
