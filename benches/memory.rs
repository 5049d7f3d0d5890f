//! Where the bytes of a dense level go, and what loading it and its first steps cost: a
//! `gen-level --dense --crates N --seed 1` level generated in memory, parsed, turned into a
//! `Sim` (the parsed level is then dropped: a restart re-parses the kept text), stepped once
//! (every entity is new) and then 60 times idle (their median and longest step are printed
//! too). Prints each phase's wall and CPU time and the process's resident memory after it
//! (`VmRSS`, and the peak `VmHWM`, from `/proc/self/status`), the first step's time by system,
//! and a table of the heap bytes of every ECS column, watched column's change bits and system
//! (by capacity, `ecs::diagnostics::memory_use`), the grids, the tile map and the level text, per crate.
//!
//! `cargo bench -p benches --bench memory` (`MEMORY_CRATES=100000` for another size).

use std::path::Path;
use std::time::Instant;

use game::atlas::AtlasData;
use game::level;
use game::sim::resources::{CollisionGrid, DrawGrid, TileMap};
use game::sim::{Input, Sim};

/// `VmRSS` and `VmHWM` of this process, in bytes (0 where `/proc` has no such line).
fn resident() -> (usize, usize) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<usize>().ok())
            .map_or(0, |kb| kb * 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// CPU time this process has used (user and system), in milliseconds, from `/proc/self/stat`
/// (0 where there is none): on a loaded machine it says what a phase cost, where its wall time
/// also counts the waits for a core.
fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which ends with the last ')'): utime and stime are
    // the 12th and 13th, in clock ticks of 1/100 s (`CLK_TCK` on Linux).
    let ticks: u64 = stat
        .rsplit_once(')')
        .map(|(_, rest)| {
            rest.split_whitespace()
                .skip(11)
                .take(2)
                .filter_map(|v| v.parse::<u64>().ok())
                .sum()
        })
        .unwrap_or(0);
    ticks as f64 * 10.0
}

fn mb(bytes: usize) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}

fn main() {
    let crates: usize = std::env::var("MEMORY_CRATES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let atlas = AtlasData::load(&root.join("assets")).expect("the repository atlas");
    let mut phases = Vec::new();
    let mut cpu_before = cpu_ms();
    let mut phase = |name: &str, start: Instant| {
        let (rss, peak) = resident();
        let cpu = cpu_ms();
        phases.push((
            name.to_owned(),
            start.elapsed().as_secs_f64() * 1e3,
            cpu - cpu_before,
            rss,
            peak,
        ));
        cpu_before = cpu;
    };

    let start = Instant::now();
    let text = level::generate_dense(crates, 0, 1).expect("a size the dense layout fits");
    phase("generate the level text", start);
    let start = Instant::now();
    let level = level::parse(Path::new("dense.ron"), &text, &atlas.crate_skins())
        .expect("a generated level parses");
    phase("parse it", start);
    let start = Instant::now();
    let mut sim = Sim::new(&level, &atlas, 1).expect("the repository atlas has every clip");
    // What a game keeps to restart the level is its text (re-parsed on restart), not the
    // parsed level.
    let parsed_bytes = level.tiles.capacity() * size_of_val(&level.tiles[0])
        + level.crates.capacity() * size_of_val(&level.crates[0]);
    drop(level);
    phase("build the sim (spawn)", start);
    sim.world_mut().set_timing(true);
    let start = Instant::now();
    sim.step(Input::default());
    phase("first step", start);
    // The first step by system: its entities are all new to every system that tracks them.
    let first_step: Vec<(&str, usize, f64)> = sim
        .world()
        .systems()
        .filter(|s| s.last_duration.as_secs_f64() >= 1e-3)
        .map(|s| (s.name, s.last_dirty, s.last_duration.as_secs_f64() * 1e3))
        .collect();
    sim.world_mut().set_timing(false);
    let start = Instant::now();
    let mut idle: Vec<f64> = (0..60)
        .map(|_| {
            let step = Instant::now();
            sim.step(Input::default());
            step.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    phase("60 idle steps", start);
    idle.sort_by(f64::total_cmp);

    println!(
        "{crates} crates, {} entities; idle steps after the first: median {:.1} us, max {:.0} us\n",
        sim.world().len(),
        idle[idle.len() / 2],
        idle[idle.len() - 1]
    );
    println!("| phase | ms | CPU ms | RSS MB after | peak RSS MB | peak bytes per crate |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, ms, cpu, rss, peak) in &phases {
        println!(
            "| {name} | {ms:.0} | {cpu:.0} | {} | {} | {:.0} |",
            mb(*rss),
            mb(*peak),
            *peak as f64 / crates as f64
        );
    }

    println!("\n| first step: system (1 ms or more) | entities received | ms |");
    println!("|---|---:|---:|");
    for (name, dirty, ms) in &first_step {
        println!("| `{name}` | {dirty} | {ms:.0} |");
    }

    let world = sim.world();
    let memory = ecs::diagnostics::memory_use(world);
    let mut rows: Vec<(String, usize)> = Vec::new();
    rows.push((
        "level text (RON), kept for a restart".into(),
        text.capacity(),
    ));
    rows.push(("ecs: entity slots".into(), memory.entities));
    for (name, bytes) in &memory.columns {
        rows.push((format!("ecs column `{}`", short(name)), *bytes));
    }
    for (name, bytes) in &memory.change_bits {
        rows.push((format!("ecs change bits of `{}`", short(name)), *bytes));
    }
    for (name, bytes) in &memory.systems {
        rows.push((format!("ecs system `{name}`: entity sets"), *bytes));
    }
    rows.push((
        "`CollisionGrid`".into(),
        world.resource::<CollisionGrid>().0.heap_bytes(),
    ));
    rows.push((
        "`DrawGrid`".into(),
        world.resource::<DrawGrid>().0.heap_bytes(),
    ));
    rows.push(("`TileMap`".into(), world.resource::<TileMap>().heap_bytes()));
    let counted: usize = rows.iter().map(|r| r.1).sum();
    let ecs: usize = rows
        .iter()
        .filter(|r| r.0.starts_with("ecs"))
        .map(|r| r.1)
        .sum();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1));
    println!("\n| where | MB | bytes per crate |");
    println!("|---|---:|---:|");
    for (name, bytes) in rows.iter().filter(|r| r.1 > 0) {
        println!(
            "| {name} | {} | {:.1} |",
            mb(*bytes),
            *bytes as f64 / crates as f64
        );
    }
    let (rss, peak) = resident();
    println!(
        "| **counted** | **{}** | **{:.0}** |\n| resident now (`VmRSS`) | {} | {:.0} |\n| peak (`VmHWM`) | {} | {:.0} |",
        mb(counted),
        counted as f64 / crates as f64,
        mb(rss),
        rss as f64 / crates as f64,
        mb(peak),
        peak as f64 / crates as f64
    );
    println!(
        "\nthe parsed level (tiles and crate list), dropped once the sim is built: {} MB, {:.1} \
         bytes per crate",
        mb(parsed_bytes),
        parsed_bytes as f64 / crates as f64
    );
    println!(
        "of the counted bytes, the ecs crate's (columns, change bits, entity sets, slots): {} MB, \
         {:.0} bytes per crate; the game's (grids, tile map, level): {:.0} bytes per crate",
        mb(ecs),
        ecs as f64 / crates as f64,
        (counted - ecs) as f64 / crates as f64
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    println!("load average at the end: {}", load.join(" "));
}

/// `game::sim::components::Position` as `Position`.
fn short(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}
