//! The dirty claim under a burst: a field of kegs (100 x 100 = 10,000 by default) goes off as a
//! wave from its centre, and every step's update time is recorded against the number of
//! entities that step changed. With change tracking, the cost should follow the change count
//! and fall back to the idle figure once the wave has passed; with tracking off, it follows the
//! entity count. The same run with tracking off must give the same `state_hash` at every step.
//!
//! "Changed" is counted by value, not taken from the dirty sets under test: the entities whose
//! components (any of them) differ from the step before, plus those spawned and despawned
//! (`state_hash::entity_hashes`). The CSV also has the dirty sets' total size and the number of
//! kegs that blew up in the step.
//!
//! `cargo bench -p benches --bench keg_burst` writes `docs/burst.csv` (one row per step) and prints
//! a summary; `python3 benches/plot_burst.py` fits the line and draws `docs/burst.png`.
//! `KEG_BURST_SIDE` changes the field's side, `KEG_BURST_REPEATS` the timed runs per step
//! (each step's figure is the fastest of them: the least disturbed by other processes),
//! `KEG_BURST_OUT` the CSV's path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ecs::EventReader;
use game::atlas::AtlasData;
use game::level;
use game::sim::components::{Exploding, Fuse, Lifetime, Velocity};
use game::sim::game_events::KegExploded;
use game::sim::resources::TileMap;
use game::sim::state_hash::entity_hashes;
use game::sim::{Input, Sim};

/// Idle steps before the first keg is lit (the first steps see every entity as new, and are
/// left out of the idle figure).
const IDLE_BEFORE: u32 = 120;
/// Idle steps recorded once everything has come to rest.
const IDLE_AFTER: u32 = 120;
/// Rows of floor between the player's row and the field: the player is out of every blast.
const GAP_ROWS: usize = 2;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A room holding a `side` x `side` field of kegs, the player in the corner above it.
fn field_level(side: usize) -> String {
    let wall = "#".repeat(side + 2);
    let mut rows = vec![wall.clone(), format!("#@{}#", ".".repeat(side - 1))];
    for _ in 0..GAP_ROWS {
        rows.push(format!("#{}#", ".".repeat(side)));
    }
    for _ in 0..side {
        rows.push(format!("#{}#", "k".repeat(side)));
    }
    rows.push(wall);
    let map: String = rows.iter().map(|r| format!("    \"{r}\",\n")).collect();
    format!("(\n  name: \"Keg field {side} x {side}\",\n  map: [\n{map}  ],\n)\n")
}

fn new_sim(level: &level::Level, atlas: &AtlasData, tracking: bool) -> Sim {
    let mut sim = Sim::new(level, atlas, 1).expect("the repository atlas has every clip");
    sim.set_dirty_optimization(tracking);
    sim
}

/// Light the keg in the middle of the field.
fn light_centre(sim: &mut Sim, side: usize) {
    let (x, y) = (1 + side / 2, 2 + GAP_ROWS + side / 2);
    let map = sim.world().resource::<TileMap>();
    let keg = map
        .index(x as i32, y as i32)
        .and_then(|i| map.crate_at(i))
        .expect("a keg in the middle of the field");
    sim.world_mut()
        .insert(keg, Fuse { steps: 1 })
        .expect("a live keg");
}

/// Whether anything is still going on: burning fuses, explosions, debris, sliding things.
fn busy(sim: &Sim) -> bool {
    let world = sim.world();
    let moving = world
        .column::<Velocity>()
        .values()
        .iter()
        .any(|v| *v != Velocity::default());
    moving
        || !world.column::<Fuse>().is_empty()
        || !world.column::<Exploding>().is_empty()
        || !world.column::<Lifetime>().is_empty()
}

/// One step of a recorded run.
#[derive(Clone, Copy, Default)]
struct Step {
    us: f64,
    hash: u64,
}

/// Run the whole burst: idle, light, `wave` steps (or, when `None`, until quiet plus the idle
/// tail), calling `each` after every step. Returns the step count of the wave.
fn run(
    level: &level::Level,
    atlas: &AtlasData,
    side: usize,
    tracking: bool,
    wave: Option<u32>,
    mut each: impl FnMut(&Sim, u32, f64),
) -> u32 {
    let mut sim = new_sim(level, atlas, tracking);
    let mut step = 0u32;
    let mut timed = |sim: &mut Sim, step: &mut u32| {
        let start = Instant::now();
        sim.step(Input::default());
        let us = start.elapsed().as_secs_f64() * 1e6;
        each(sim, *step, us);
        *step += 1;
    };
    for _ in 0..IDLE_BEFORE {
        timed(&mut sim, &mut step);
    }
    light_centre(&mut sim, side);
    let wave_steps = match wave {
        Some(n) => {
            for _ in 0..n {
                timed(&mut sim, &mut step);
            }
            n
        }
        None => {
            let mut n = 0;
            while busy(&sim) || n == 0 {
                timed(&mut sim, &mut step);
                n += 1;
            }
            n
        }
    };
    for _ in 0..IDLE_AFTER {
        timed(&mut sim, &mut step);
    }
    wave_steps
}

fn main() {
    let side: usize = env_or("KEG_BURST_SIDE", 100);
    let repeats: u32 = env_or("KEG_BURST_REPEATS", 5);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out: PathBuf = env_or("KEG_BURST_OUT", root.join("docs/burst.csv"));
    let atlas = AtlasData::load(&root.join("assets")).expect("the repository atlas");
    let text = field_level(side);
    let level = level::parse(Path::new("keg_field.ron"), &text, &atlas.crate_skins())
        .expect("the generated field is a valid level");

    // Tracking off: the reference hashes, and the cost of visiting everything.
    let mut off: Vec<Step> = Vec::new();
    let wave = run(&level, &atlas, side, false, None, |sim, _, us| {
        off.push(Step {
            us,
            hash: sim.state_hash(),
        });
    });
    let steps = off.len();

    // Tracking on, counting: changed entities (by value) and dirty-set sizes, hashes checked.
    let mut changed = vec![0usize; steps];
    let mut dirty = vec![0usize; steps];
    let mut entities = vec![0usize; steps];
    let mut blasts = vec![0usize; steps];
    let mut spawned = vec![0usize; steps];
    let mut despawned = vec![0usize; steps];
    let mut blast_reader = EventReader::<KegExploded>::default();
    let mut mismatch = None;
    let mut before: HashMap<u64, u64> = HashMap::new();
    run(&level, &atlas, side, true, Some(wave), |sim, i, _| {
        let i = i as usize;
        let now: HashMap<u64, u64> = entity_hashes(sim.world())
            .into_iter()
            .map(|(e, h)| (e.to_bits(), h))
            .collect();
        let spawned_or_changed = now.iter().filter(|(e, h)| before.get(e) != Some(h)).count();
        despawned[i] = before.keys().filter(|e| !now.contains_key(e)).count();
        spawned[i] = now.keys().filter(|e| !before.contains_key(e)).count();
        changed[i] = spawned_or_changed + despawned[i];
        dirty[i] = sim.world().systems().map(|s| s.last_dirty).sum();
        entities[i] = now.len();
        blasts[i] = blast_reader.read(sim.world()).count();
        before = now;
        if mismatch.is_none() && sim.state_hash() != off[i].hash {
            mismatch = Some(i);
        }
    });

    // Tracking on, timed only: each step's fastest of `repeats` runs.
    let mut on_us = vec![f64::INFINITY; steps];
    for _ in 0..repeats {
        run(&level, &atlas, side, true, Some(wave), |_, i, us| {
            let slot = &mut on_us[i as usize];
            *slot = slot.min(us);
        });
    }

    let mut csv = String::from(
        "step,phase,changed,spawned,despawned,dirty,entities,blasts,update_us,update_us_off\n",
    );
    for i in 0..steps {
        let phase = if i < IDLE_BEFORE as usize {
            "idle_before"
        } else if i < steps - IDLE_AFTER as usize {
            "wave"
        } else {
            "idle_after"
        };
        csv += &format!(
            "{i},{phase},{},{},{},{},{},{},{:.2},{:.2}\n",
            changed[i],
            spawned[i],
            despawned[i],
            dirty[i],
            entities[i],
            blasts[i],
            on_us[i],
            off[i].us
        );
    }
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).expect("create the CSV's directory");
    }
    std::fs::write(&out, csv).expect("write the CSV");

    let kegs = side * side;
    let peak = changed.iter().copied().max().unwrap_or(0);
    println!(
        "keg_burst/{kegs}: {steps} steps ({IDLE_BEFORE} idle, {wave} wave, {IDLE_AFTER} idle), \
         peak {peak} changed entities in a step, fastest of {repeats} runs per step"
    );
    match mismatch {
        None => println!("state_hash identical with tracking off at all {steps} steps"),
        Some(i) => {
            println!("state_hash DIFFERS with tracking off from step {i}");
            std::process::exit(1);
        }
    }
    println!("wrote {}", out.display());
}
