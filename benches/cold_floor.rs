//! What a step costs before it does any work, when it runs the way it does in a window: after
//! the caches were evicted and the core gave itself away for a moment (a frame's rendering and
//! its wait for the display), rather than back to back with the step before, as `sim` runs.
//!
//! Two schedules of systems that each add one to a resource, and nothing else, are timed:
//! through the ECS (`World::update`, systems that run every update, as the game's input,
//! movement and camera systems do), and as plain boxed closures called in a loop, the least a
//! schedule of that many calls can cost. Each is timed three ways: warm (back to back), after
//! a write to every 64-byte line of 16 MiB (more than the last-level cache), and after that
//! write and a 1 ms sleep (what `crate-room sim --cold` does between steps).
//!
//! `cargo bench -p benches --bench cold_floor` prints the medians of 400 updates per cell for
//! 1 and 13 systems (13 is how many of the game's systems run in a step of cratetopia with the
//! bot). `COLD_FLOOR_UPDATES` changes the count.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ecs::{SystemDesc, SystemEntities, World};

/// A plain schedule: boxed calls in a loop.
type Closure = Box<dyn FnMut(&mut u64)>;

/// Bytes written between two cold updates: more than the machine's last-level cache.
const EVICT_BYTES: usize = 16 << 20;
/// How long a cold update waits before it runs, as a window waits for the display.
const PAUSE: Duration = Duration::from_millis(1);

/// What comes between two updates.
#[derive(Clone, Copy)]
enum Between {
    Nothing,
    Evict,
    EvictAndPause,
}

impl Between {
    const ALL: [Self; 3] = [Self::Nothing, Self::Evict, Self::EvictAndPause];

    fn name(self) -> &'static str {
        match self {
            Self::Nothing => "warm",
            Self::Evict => "evicted",
            Self::EvictAndPause => "evicted + 1 ms sleep",
        }
    }
}

/// A buffer written through to push everything else out of the caches.
struct Evictor {
    buffer: Vec<u8>,
    pass: u8,
}

impl Evictor {
    fn run(&mut self, between: Between) {
        if matches!(between, Between::Nothing) {
            return;
        }
        self.pass = self.pass.wrapping_add(1);
        for line in self.buffer.chunks_exact_mut(64) {
            line[0] = self.pass;
        }
        black_box(&mut self.buffer);
        if matches!(between, Between::EvictAndPause) {
            std::thread::sleep(PAUSE);
        }
    }
}

/// The median of `updates` timed calls of `update`, each after `between`, in microseconds.
fn median_us(
    evictor: &mut Evictor,
    between: Between,
    updates: usize,
    mut update: impl FnMut(),
) -> f64 {
    let mut times: Vec<f64> = (0..updates)
        .map(|_| {
            evictor.run(between);
            let started = Instant::now();
            update();
            started.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let updates = std::env::var("COLD_FLOOR_UPDATES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let mut evictor = Evictor {
        buffer: vec![0; EVICT_BYTES],
        pass: 0,
    };
    println!("median of {updates} updates, in µs");
    println!(
        "{:>7}  {:<22} {:>9} {:>9}",
        "systems", "between updates", "ecs", "closures"
    );
    for systems in [1, 13] {
        let mut world = World::new();
        world.insert_resource(0u64);
        for _ in 0..systems {
            world.add_system(
                SystemDesc::new("add_one").every_update(),
                |w: &mut World, _: &SystemEntities<'_>| *w.resource_mut::<u64>() += 1,
            );
        }
        let mut count = 0u64;
        let mut closures: Vec<Closure> = (0..systems)
            .map(|_| Box::new(|n: &mut u64| *n += 1) as Closure)
            .collect();
        for between in Between::ALL {
            let ecs = median_us(&mut evictor, between, updates, || world.update());
            let plain = median_us(&mut evictor, between, updates, || {
                closures.iter_mut().for_each(|c| c(black_box(&mut count)));
            });
            println!(
                "{systems:>7}  {:<22} {ecs:>9.2} {plain:>9.2}",
                between.name()
            );
        }
        assert_eq!(
            *world.resource::<u64>(),
            count,
            "both schedules made the same calls"
        );
    }
}
