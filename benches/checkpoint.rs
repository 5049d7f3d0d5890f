//! What a replay checkpoint costs at 2,000, 100,000 and 1,000,000 crates (dense levels, as
//! `crate-room gen-level --dense --crates N --seed 1` writes them): `Recorder::record` at a
//! checkpoint step (the window calls it after every step; every 600th takes a checkpoint), next
//! to the whole-state walk that replay format 1 checkpointed (`Sim::state_hash`: the same walk
//! plus the camera's five fields) and the checkpoint hash from scratch (what the `checkpoint`
//! system spares). Each figure is the median of `CHECKPOINT_REPEATS` runs (default 21), in
//! microseconds, taken after 600 idle steps; and, 300 idle steps later, the hash read between
//! checkpoints, which hashes the entities pending since the last fold.
//!
//! `cargo bench -p benches --bench checkpoint` (`CHECKPOINT_SIZES=2000,100000` to pick sizes).

use std::path::Path;
use std::time::Instant;

use game::atlas::AtlasData;
use game::level;
use game::replay::{CHECKPOINT_EVERY, Recorder};
use game::sim::state_hash::{CheckpointSum, checkpoint_hash_from_scratch};
use game::sim::{Input, Sim};

fn median_us(repeats: usize, mut f: impl FnMut() -> u64) -> (f64, u64) {
    let mut times = Vec::with_capacity(repeats);
    let mut last = 0;
    for _ in 0..repeats {
        let start = Instant::now();
        last = std::hint::black_box(f());
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], last)
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let atlas = AtlasData::load(&root.join("assets")).expect("the repository atlas");
    let repeats: usize = std::env::var("CHECKPOINT_REPEATS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(21);
    let sizes: Vec<usize> = std::env::var("CHECKPOINT_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![2_000, 100_000, 1_000_000]);
    println!(
        "| crates | entities | `Recorder::record` at a checkpoint step, us | whole-state hash (format 1's checkpoint), us | checkpoint hash from scratch, us | `Sim::checkpoint_hash` 300 idle steps later, us (entities pending) |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    for crates in sizes {
        let text = level::generate_dense(crates, 0, 1).expect("a size the dense layout fits");
        let level = level::parse(Path::new("dense.ron"), &text, &atlas.crate_skins())
            .expect("a generated level parses");
        let mut sim = Sim::new(&level, &atlas, 1).expect("the repository atlas has every clip");
        let mut recorder = Recorder::new(Path::new("dense.ron"), text.as_bytes(), 1);
        for _ in 0..CHECKPOINT_EVERY {
            sim.step(Input::default());
            recorder.record(&sim);
        }
        // A recorder one step short of its next checkpoint: each timed `record` takes one.
        recorder = Recorder::new(Path::new("dense.ron"), text.as_bytes(), 1);
        for _ in 0..CHECKPOINT_EVERY - 1 {
            recorder.record(&sim);
        }
        let mut copies: Vec<Recorder> = (0..repeats).map(|_| recorder.clone()).collect();
        let (record, _) = median_us(repeats, || {
            let mut r = copies.pop().expect("one copy per repeat");
            r.record(&sim);
            r.steps()
        });
        let (whole, _) = median_us(repeats, || sim.state_hash());
        let (scratch, from_scratch) =
            median_us(repeats, || checkpoint_hash_from_scratch(sim.world()));
        assert_eq!(from_scratch, sim.checkpoint_hash(), "kept = from scratch");
        // Halfway to the next checkpoint the entities changed since the last one are pending:
        // reading the hash there hashes them on the spot.
        for _ in 0..CHECKPOINT_EVERY / 2 {
            sim.step(Input::default());
        }
        let pending = sim.world().resource::<CheckpointSum>().listed();
        let (between, kept) = median_us(repeats, || sim.checkpoint_hash());
        assert_eq!(
            kept,
            checkpoint_hash_from_scratch(sim.world()),
            "kept = from scratch"
        );
        println!(
            "| {crates} | {} | {record:.2} | {whole:.0} | {scratch:.0} | {between:.2} ({pending}) |",
            sim.world().len()
        );
    }
}
