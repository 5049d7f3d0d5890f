//! Headless runs (`crate-room sim`): load a level, step the simulation with idle or bot input,
//! and report the outcome and its cost.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::atlas::AtlasData;
use crate::input::InputSource;
use crate::sim::{LoadError, Sim};

/// Options of a headless run.
#[derive(Clone, Debug)]
pub struct SimOptions {
    /// Level file.
    pub level: PathBuf,
    /// Steps to simulate.
    pub frames: u64,
    /// Input source (idle, bot or a script; the keyboard gives nothing here).
    pub input: InputSource,
    /// Seed of the simulation's randomness.
    pub seed: u64,
    /// Dirty-component optimization on (the default) or off.
    pub dirty: bool,
}

/// Per-system figures of a run.
#[derive(Clone, Debug, Serialize)]
pub struct SystemReport {
    /// System name.
    pub name: &'static str,
    /// Mean wall time per step (after the first), microseconds.
    pub mean_us: f64,
    /// Entities tracked at the end of the run.
    pub tracked: usize,
    /// Mean dirty entities received per step (after the first).
    pub dirty_mean: f64,
}

/// Outcome and cost of a headless run (the `--json` output).
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    /// Level file.
    pub level: String,
    /// Level name.
    pub level_name: String,
    /// Steps simulated.
    pub frames: u64,
    /// Input source (`idle`, `bot` or `script`).
    pub input: &'static str,
    /// Seed.
    pub seed: u64,
    /// Whether the dirty optimization was on.
    pub dirty: bool,
    /// Live entities at the end.
    pub entities: usize,
    /// Crates in the level.
    pub crates_total: u32,
    /// Crates left at the end.
    pub crates_left: u32,
    /// Coins collected.
    pub score: u32,
    /// Hash of the final world state (hex).
    pub state_hash: String,
    /// Time to read, validate and build the level, milliseconds.
    pub load_ms: f64,
    /// The first step's update time, microseconds: everything is new, so every watching system
    /// sees every entity once. Not included in the figures below.
    pub update_us_first: f64,
    /// Mean `World::update` time per step after the first, microseconds.
    pub update_us_mean: f64,
    /// Median update time after the first step, microseconds.
    pub update_us_median: f64,
    /// 99th-percentile update time after the first step, microseconds.
    pub update_us_p99: f64,
    /// Per-system figures, in run order.
    pub systems: Vec<SystemReport>,
}

/// Run the simulation as `opts` says and measure it.
///
/// # Errors
/// A [`LoadError`] if the level cannot be loaded or the atlas lacks a clip.
pub fn run(opts: &SimOptions, atlas: &AtlasData) -> Result<SimReport, LoadError> {
    let started = Instant::now();
    let (level, mut sim) = Sim::load(&opts.level, atlas, opts.seed)?;
    let load = started.elapsed();
    sim.set_dirty_optimization(opts.dirty);
    sim.set_bot(opts.input.is_bot());

    let names: Vec<&'static str> = sim.world().systems().map(|s| s.name).collect();
    let mut system_time = vec![Duration::ZERO; names.len()];
    let mut system_dirty = vec![0u64; names.len()];
    let mut updates = Vec::with_capacity(opts.frames as usize);
    for step in 0..opts.frames {
        let t = Instant::now();
        sim.step(opts.input.scripted_input(step));
        updates.push(t.elapsed());
        if step == 0 {
            continue; // the first step is reported on its own
        }
        for (i, info) in sim.world().systems().enumerate() {
            // A system that did not run this step (disabled) keeps its last figures.
            if info.enabled {
                system_time[i] += info.last_duration;
                system_dirty[i] += info.last_dirty as u64;
            }
        }
    }
    let frames = opts.frames.saturating_sub(1).max(1) as f64;
    let systems = sim
        .world()
        .systems()
        .enumerate()
        .filter(|(_, info)| info.enabled)
        .map(|(i, info)| SystemReport {
            name: info.name,
            mean_us: system_time[i].as_secs_f64() * 1e6 / frames,
            tracked: info.tracked,
            dirty_mean: system_dirty[i] as f64 / frames,
        })
        .collect();
    let state = sim.state();
    let first = updates.first().copied().unwrap_or_default();
    let steady = updates.get(1..).unwrap_or_default();
    let mut sorted = steady.to_vec();
    sorted.sort();
    let percentile = |p: f64| {
        sorted
            .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1e6)
    };
    Ok(SimReport {
        level: opts.level.display().to_string(),
        level_name: level.name.clone(),
        frames: opts.frames,
        input: match opts.input {
            InputSource::Keyboard => "keyboard",
            InputSource::Idle => "idle",
            InputSource::Bot => "bot",
            InputSource::Script(_) => "script",
        },
        seed: opts.seed,
        dirty: opts.dirty,
        entities: sim.world().len(),
        crates_total: state.crates_total,
        crates_left: state.crates_left,
        score: state.score,
        state_hash: format!("{:016x}", sim.state_hash()),
        load_ms: load.as_secs_f64() * 1e3,
        update_us_first: first.as_secs_f64() * 1e6,
        update_us_mean: steady
            .iter()
            .map(Duration::as_secs_f64)
            .fold(0.0, |a, b| a + b)
            * 1e6
            / steady.len().max(1) as f64,
        update_us_median: percentile(0.5),
        update_us_p99: percentile(0.99),
        systems,
    })
}

impl SimReport {
    /// Human-readable summary.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} ({}): {} steps, input {}, dirty optimization {}\n\
             crates {}/{} left, score {}, {} entities, state {}\n\
             load {:.1} ms, first update {:.1} us, then mean {:.1} us, median {:.1} us, p99 {:.1} us\n",
            crate::level::escape_for_display(&self.level_name),
            self.level,
            self.frames,
            self.input,
            if self.dirty { "on" } else { "off" },
            self.crates_left,
            self.crates_total,
            self.score,
            self.entities,
            self.state_hash,
            self.load_ms,
            self.update_us_first,
            self.update_us_mean,
            self.update_us_median,
            self.update_us_p99,
        );
        s.push_str("  system            mean us   tracked  dirty/step\n");
        for sys in &self.systems {
            s.push_str(&format!(
                "  {:<16} {:>8.2} {:>9} {:>11.1}\n",
                sys.name, sys.mean_us, sys.tracked, sys.dirty_mean
            ));
        }
        s
    }
}
