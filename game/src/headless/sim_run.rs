//! Headless runs (`crate-room sim`): load a level, step the simulation with idle or bot input,
//! and report the outcome and its cost.
//!
//! A run's memory does not grow with its length: per-step update times go into a fixed-size
//! histogram ([`TimeHistogram`]) rather than a list, so a soak of a billion steps needs what a
//! run of ten does.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::atlas::AtlasData;
use crate::input::InputSource;
use crate::replay::{self, Recorder, Replay, ReplayError};
use crate::sim::{LoadError, Sim};

/// Why a headless run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The level or the atlas.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The replay asked for cannot be recorded.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// `--record` of more steps than a replay may hold.
    #[error(
        "--record takes runs of at most {} steps (a day at 60 per second); --frames is {frames}",
        replay::MAX_STEPS
    )]
    TooLongToRecord {
        /// Steps asked for.
        frames: u64,
    },
}

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
    /// Record the run as a replay ([`SimReport::replay`]); at most [`replay::MAX_STEPS`].
    pub record: bool,
    /// Evict the caches between steps (untimed), as a window's frame does: each step then
    /// runs on cold caches, the way it does in the window ([`ColdCaches`]).
    pub cold: bool,
}

/// Per-system figures of a run.
#[derive(Clone, Debug, Serialize)]
pub struct SystemReport {
    /// System name.
    pub name: &'static str,
    /// Mean wall time per step (after the first), microseconds.
    pub mean_us: f64,
    /// Median wall time per step (after the first; zero for a step that skipped it),
    /// microseconds, within 1.6 % (see [`TimeHistogram`]).
    pub median_us: f64,
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
    /// Input source (`idle`, `bot`, `script` or `replay`).
    pub input: &'static str,
    /// Seed.
    pub seed: u64,
    /// Whether the dirty optimization was on.
    pub dirty: bool,
    /// Whether the caches were evicted between steps (`--cold`).
    pub cold: bool,
    /// Live entities at the end.
    pub entities: usize,
    /// Crates in the level.
    pub crates_total: u32,
    /// Crates left at the end.
    pub crates_left: u32,
    /// Coins collected.
    pub score: u32,
    /// Blasts that caught the player while the clock ran (2 s each on the clock).
    pub burns: u32,
    /// The step the last crate broke on, if it did.
    pub cleared_at: Option<u64>,
    /// The room's time in steps, if it was cleared: from the first move or swing to the clear,
    /// plus 2 s per burn, less a second per coin (what best times and par times count).
    pub room_time: Option<u64>,
    /// Hash of the final world state (hex).
    pub state_hash: String,
    /// Time to read, validate and build the level, milliseconds.
    pub load_ms: f64,
    /// The first step's update time, microseconds: everything is new, so every watching system
    /// sees every entity once. Not included in the figures below.
    pub update_us_first: f64,
    /// Mean `World::update` time per step after the first, microseconds.
    pub update_us_mean: f64,
    /// Median update time after the first step, microseconds, within 1.6 % (see
    /// [`TimeHistogram`]).
    pub update_us_median: f64,
    /// 99th-percentile update time after the first step, microseconds, within 1.6 %.
    pub update_us_p99: f64,
    /// Per-system figures, in run order.
    pub systems: Vec<SystemReport>,
    /// The run's replay, when [`SimOptions::record`] asked for one.
    #[serde(skip)]
    pub replay: Option<Replay>,
}

/// Run the simulation as `opts` says and measure it.
///
/// # Errors
/// A [`RunError`] if the level cannot be loaded, the atlas lacks a clip, or a replay is asked
/// for a run longer than [`replay::MAX_STEPS`].
pub fn run(opts: &SimOptions, atlas: &AtlasData) -> Result<SimReport, RunError> {
    if opts.record && opts.frames > replay::MAX_STEPS {
        return Err(RunError::TooLongToRecord {
            frames: opts.frames,
        });
    }
    let started = Instant::now();
    let (level, mut sim) = Sim::load(&opts.level, atlas, opts.seed)?;
    let load = started.elapsed();
    // Only the name is reported: the parsed level (tiles and crates) is not kept while the
    // game runs.
    let level_name = level.name.clone();
    drop(level);
    let mut recorder = match opts.record {
        true => Some(Recorder::for_level(&opts.level, opts.seed)?),
        false => None,
    };
    sim.set_dirty_optimization(opts.dirty);
    // The report has each system's mean time.
    sim.world_mut().set_timing(true);
    sim.set_bot(opts.input.is_bot());
    // No stats panel shows the debug counts here.
    sim.set_debug_systems(false);

    let mut totals = SystemTotals::new(&sim);
    let mut first = Duration::ZERO;
    let mut steady = TimeHistogram::new();
    let mut cold = opts.cold.then(ColdCaches::new);
    for step in 0..opts.frames {
        if let Some(cold) = &mut cold {
            cold.evict();
        }
        let t = Instant::now();
        sim.step(opts.input.scripted_input(step));
        let took = t.elapsed();
        if let Some(recorder) = &mut recorder {
            recorder.record(&sim);
        }
        if step == 0 {
            first = took; // the first step is reported on its own
            continue;
        }
        steady.record(took);
        totals.add(&sim);
    }
    let frames = opts.frames.saturating_sub(1).max(1) as f64;
    let systems = totals.reports(&sim, frames);
    let state = sim.state();
    let micros = |d: Duration| d.as_secs_f64() * 1e6;
    Ok(SimReport {
        level: opts.level.display().to_string(),
        level_name,
        frames: opts.frames,
        input: input_name(&opts.input),
        seed: opts.seed,
        dirty: opts.dirty,
        cold: opts.cold,
        entities: sim.world().len(),
        crates_total: state.crates_total,
        crates_left: state.crates_left,
        score: state.score,
        burns: state.burns,
        cleared_at: state.cleared_at,
        room_time: state.room_time(),
        state_hash: format!("{:016x}", sim.state_hash()),
        load_ms: load.as_secs_f64() * 1e3,
        update_us_first: micros(first),
        update_us_mean: micros(steady.mean()),
        update_us_median: micros(steady.quantile(0.5)),
        update_us_p99: micros(steady.quantile(0.99)),
        systems,
        replay: recorder.map(|r| r.finish(&sim)),
    })
}

/// What a window's frame does to the CPU between two steps, done untimed between steps of a
/// headless run (`--cold`): rendering touches more memory than the caches hold (textures,
/// vertex buffers, egui), and waiting for the display gives the core away to other threads
/// and processes, which leave the caches, the TLB and the branch predictors to the next step
/// cold. Here: a write to each 64-byte line of 16 MiB (more than a last-level cache), then a
/// 1 ms sleep. With both, a step costs what it costs in the window (see BENCHMARKS.md).
struct ColdCaches {
    buffer: Vec<u8>,
    pass: u8,
}

impl ColdCaches {
    const BYTES: usize = 16 << 20;
    const LINE: usize = 64;
    const YIELD: Duration = Duration::from_millis(1);

    fn new() -> Self {
        Self {
            buffer: vec![0; Self::BYTES],
            pass: 0,
        }
    }

    fn evict(&mut self) {
        self.pass = self.pass.wrapping_add(1);
        for line in self.buffer.chunks_exact_mut(Self::LINE) {
            line[0] = self.pass;
        }
        std::hint::black_box(&mut self.buffer);
        std::thread::sleep(Self::YIELD);
    }
}

/// How the report names an input source.
fn input_name(input: &InputSource) -> &'static str {
    match input {
        InputSource::Keyboard => "keyboard",
        InputSource::Idle => "idle",
        InputSource::Bot => "bot",
        InputSource::Script(_) => "script",
        InputSource::Replay(_) => "replay",
    }
}

/// Each system's time and dirty count summed over the steady steps (all but the first).
struct SystemTotals {
    time: Vec<TimeHistogram>,
    dirty: Vec<u64>,
}

impl SystemTotals {
    fn new(sim: &Sim) -> Self {
        let systems = sim.world().systems().count();
        Self {
            time: vec![TimeHistogram::new(); systems],
            dirty: vec![0; systems],
        }
    }

    /// Add the figures of the step `sim` just ran.
    fn add(&mut self, sim: &Sim) {
        for (i, info) in sim.world().systems().enumerate() {
            // A system that did not run this step (disabled) keeps its last figures.
            if info.enabled {
                self.time[i].record(info.last_duration);
                self.dirty[i] += info.last_dirty as u64;
            }
        }
    }

    /// The enabled systems' means over `frames` steps.
    fn reports(&self, sim: &Sim, frames: f64) -> Vec<SystemReport> {
        sim.world()
            .systems()
            .enumerate()
            .filter(|(_, info)| info.enabled)
            .map(|(i, info)| SystemReport {
                name: info.name,
                mean_us: self.time[i].mean().as_secs_f64() * 1e6,
                median_us: self.time[i].quantile(0.5).as_secs_f64() * 1e6,
                tracked: info.tracked,
                dirty_mean: self.dirty[i] as f64 / frames,
            })
            .collect()
    }
}

impl SimReport {
    /// Human-readable summary.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} ({}): {} steps, input {}, dirty optimization {}\n\
             crates {}/{} left, score {}, {} entities, state {}\n\
             load {:.1} ms, first update {:.1} us, then mean {:.1} us, median {:.1} us, p99 {:.1} us\n",
            crate::level::escape_for_display(&self.level_name),
            crate::level::escape_for_display(&self.level),
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
        s.push_str("  system            mean us  median us   tracked  dirty/step\n");
        for sys in &self.systems {
            s.push_str(&format!(
                "  {:<16} {:>8.2} {:>10.2} {:>9} {:>11.1}\n",
                sys.name, sys.mean_us, sys.median_us, sys.tracked, sys.dirty_mean
            ));
        }
        s
    }
}

/// Durations counted in log-spaced buckets: a fixed 15 KiB whatever the number recorded, with
/// quantiles within 1.6 % of the recorded values'.
///
/// Nanosecond values below 2^5 have a bucket each; above, each power-of-two range
/// `[2^k, 2^(k+1))` is cut into 2^5 = 32 equal buckets (as in HdrHistogram). A bucket is thus at
/// most 1/32 of its lower bound wide, and reporting its midpoint is off by at most half that:
/// 1/64, about 1.6 %. The sum is kept exactly, so the mean is exact.
///
/// ```text
/// ns:      0 1 ... 31 | 32 33 ... 63 | 64 66 ... 126 | 128 132 ... | ...
/// bucket:  0 1 ... 31 | 32 33 ... 63 | 64 65 ...  95 | 96  97  ... | ...
///          exact        width 1        width 2         width 4
/// ```
#[derive(Clone, Debug)]
pub struct TimeHistogram {
    counts: Box<[u64; BUCKETS]>,
    total: u64,
    sum: Duration,
}

/// log2 of the buckets per power of two.
const SUB_BITS: u32 = 5;
/// Buckets per power of two.
const SUB: usize = 1 << SUB_BITS;
/// Every `u64` nanosecond value has a bucket: the exact ones, then 32 per power of two from
/// 2^5 to 2^63.
const BUCKETS: usize = SUB + (64 - SUB_BITS as usize) * SUB;

impl Default for TimeHistogram {
    fn default() -> Self {
        Self::new()
    }
}

impl TimeHistogram {
    /// An empty histogram.
    pub fn new() -> Self {
        Self {
            counts: Box::new([0; BUCKETS]),
            total: 0,
            sum: Duration::ZERO,
        }
    }

    /// Count one duration.
    pub fn record(&mut self, d: Duration) {
        let nanos = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.counts[bucket_of(nanos)] += 1;
        self.total += 1;
        self.sum = self.sum.saturating_add(d);
    }

    /// Durations recorded.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Exact mean of the recorded durations; zero if none.
    pub fn mean(&self) -> Duration {
        match self.total {
            0 => Duration::ZERO,
            n => Duration::from_secs_f64(self.sum.as_secs_f64() / n as f64),
        }
    }

    /// The `p` quantile (`0.0..=1.0`): the value of rank `round((n - 1) * p)` in sorted order,
    /// as its bucket's midpoint; zero if nothing was recorded.
    pub fn quantile(&self, p: f64) -> Duration {
        if self.total == 0 {
            return Duration::ZERO;
        }
        let rank = ((self.total - 1) as f64 * p.clamp(0.0, 1.0)).round() as u64;
        let mut seen = 0;
        for (bucket, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen > rank {
                return Duration::from_nanos(midpoint_of(bucket));
            }
        }
        Duration::ZERO // unreachable: the counts add up to `total`
    }
}

fn bucket_of(nanos: u64) -> usize {
    if nanos < SUB as u64 {
        return nanos as usize;
    }
    let k = 63 - nanos.leading_zeros(); // 2^k <= nanos < 2^(k+1), k >= SUB_BITS
    let sub = (nanos >> (k - SUB_BITS)) as usize - SUB; // in 0..SUB
    SUB + (k - SUB_BITS) as usize * SUB + sub
}

/// The middle of the nanosecond values that fall in `bucket`.
fn midpoint_of(bucket: usize) -> u64 {
    if bucket < SUB {
        return bucket as u64;
    }
    let k = (bucket - SUB) / SUB + SUB_BITS as usize;
    let sub = ((bucket - SUB) % SUB + SUB) as u64;
    let shift = k - SUB_BITS as usize;
    let low = sub << shift;
    low + ((1u64 << shift) >> 1)
}

// The command line's part: a browser has none (see `window::platform`), and builds without clap.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use command_line::{SimArgs, command};

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod command_line {
    use std::path::PathBuf;
    use std::process::ExitCode;

    use anyhow::Context as _;

    use super::{SimOptions, run};
    use crate::game_data::GameData;
    use crate::input::InputSpec;
    use crate::tool_io::{check_output_arg, print_out};

    /// The `sim` subcommand's options.
    #[derive(clap::Args, Debug)]
    pub struct SimArgs {
        /// Level file.
        #[arg(long)]
        level: PathBuf,
        /// Steps to simulate (60 per second of game time). Memory does not grow with it.
        #[arg(long, default_value_t = 600)]
        frames: u64,
        /// Input source: idle, bot or script:FILE.
        #[arg(long, value_name = "SOURCE", default_value = "idle",
              value_parser = clap::builder::TypedValueParser::try_map(
              clap::builder::OsStringValueParser::new(), InputSpec::from_os))]
        input: InputSpec,
        /// Seed of the simulation's randomness.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Turn the dirty-component optimization off (same result, more work).
        #[arg(long)]
        no_dirty: bool,
        /// Evict the CPU caches between steps (untimed), so each step runs on cold caches as in
        /// the window, where a frame's rendering comes between two steps.
        #[arg(long)]
        cold: bool,
        /// Print one JSON object instead of a summary.
        #[arg(long)]
        json: bool,
        /// Write the run's replay to FILE (at most a day of steps).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    }

    /// `crate-room sim`: run, write the replay if asked, and print the report.
    ///
    /// # Errors
    /// Keyboard input, an unusable `--record`, an invalid script, the data or the level not
    /// loading, or standard output failing.
    pub fn command(args: SimArgs) -> anyhow::Result<ExitCode> {
        if args.input == InputSpec::Keyboard {
            anyhow::bail!("`sim` runs without a window: use --input idle, bot or script:FILE");
        }
        if let Some(path) = &args.record {
            let mut inputs = vec![args.level.as_path()];
            if let InputSpec::Script(script) = &args.input {
                inputs.push(script);
            }
            check_output_arg("--record", path, &inputs)?;
        }
        let input = args.input.load()?;
        // The whole image is decoded, as the window does: a corrupt one fails here too.
        let (data, _image) = GameData::load_with_image()?;
        let report = run(
            &SimOptions {
                level: args.level,
                frames: args.frames,
                input,
                seed: args.seed,
                dirty: !args.no_dirty,
                record: args.record.is_some(),
                cold: args.cold,
            },
            &data.atlas,
        )?;
        if let (Some(path), Some(replay)) = (&args.record, &report.replay) {
            replay.save(path).context("--record")?;
        }
        if args.json {
            print_out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
        } else {
            print_out(&report.summary())?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_lands_in_a_bucket_whose_midpoint_is_within_1_6_percent() {
        let mut values: Vec<u64> = (0..5000).collect();
        values.extend((0..64).map(|k| 1u64 << k));
        values.extend((1..64).map(|k| (1u64 << k) - 1));
        values.extend([u64::MAX, 1_234_567, 999_999_999]);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x >> (x % 64));
        }
        for v in values {
            let b = bucket_of(v);
            assert!(b < BUCKETS, "{v}");
            let mid = midpoint_of(b);
            let err = mid.abs_diff(v) as f64;
            assert!(err <= v as f64 / 64.0, "{v} -> bucket {b}, midpoint {mid}");
        }
    }

    #[test]
    fn quantiles_match_a_sorted_list_within_the_stated_precision() {
        let mut hist = TimeHistogram::new();
        let mut exact = Vec::new();
        let mut x = 12_345u64;
        for _ in 0..20_000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            // 1 us to about 1 ms, skewed towards small values like real update times.
            let nanos = 1_000 + (x >> 44) * (x >> 54) / 4;
            hist.record(Duration::from_nanos(nanos));
            exact.push(nanos);
        }
        exact.sort_unstable();
        for p in [0.0, 0.5, 0.9, 0.99, 1.0] {
            let want = exact[((exact.len() - 1) as f64 * p).round() as usize] as f64;
            let got = hist.quantile(p).as_nanos() as f64;
            assert!((got - want).abs() <= want / 64.0, "p{p}: {got} vs {want}");
        }
        let mean = exact.iter().sum::<u64>() as f64 / exact.len() as f64;
        assert!((hist.mean().as_nanos() as f64 - mean).abs() <= 1.0);
        assert_eq!(hist.len(), 20_000);
    }

    #[test]
    fn empty_histogram_reports_zero() {
        let hist = TimeHistogram::new();
        assert!(hist.is_empty());
        assert_eq!(hist.quantile(0.5), Duration::ZERO);
        assert_eq!(hist.mean(), Duration::ZERO);
    }
}
