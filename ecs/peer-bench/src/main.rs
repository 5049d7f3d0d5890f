//! Peer benchmark: the change-detection matrix (k of N entities written, every library reading
//! what changed) on `ecs`, `bevy_ecs`, flecs, `shipyard`, `specs` and `hecs`, side by side in
//! one process.
//!
//! Each library holds N entities with a [`Position`](workload::Position) and a velocity, all in
//! one archetype or spread over 20 or 100 (a [marker](workload::Group) component per group).
//! Each frame a writer bumps the position of k of them (the same evenly spread set for every
//! library, visited in one of four [orders](workload::Order): ascending, wrapping once,
//! descending, random), then a reader visits exactly the changed ones and reads their
//! positions: in `ecs` a system that watches `Position`, in `bevy_ecs` a
//! `Query<&Position, Changed<Position>>` system run by a `Schedule`, in flecs an `OnSet`
//! observer (called inside the writes), in `shipyard` a workload system iterating
//! `View::modified()`, in `specs` a dispatched system draining a `FlaggedStorage`'s `ReaderId`
//! into a `BitSet`, in `hecs` (which has no change detection) a full scan against last frame's
//! values and, as the floor, a hand-kept `Vec` of dirty handles read through a view. Every
//! frame, warm-up and timed, asserts the reader visited exactly k entities.
//!
//! Each frame's writer and reader are timed apart with `Instant`; the tables hold medians of
//! the reader and the whole frame. The libraries take turns in rounds (a few frames each, the
//! order rotating), so a burst of load on a shared machine falls on all of them alike.

mod bevy_peer;
mod ecs_peer;
mod flecs_peer;
mod floor_gap;
mod hecs_peer;
mod shipyard_peer;
mod specs_peer;
mod workload;

use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use workload::{MAX_GROUPS, Order, Peer, spread};

const USAGE: &str = "\
Usage: peer-bench [--quick] [--order O[,O...]] [--n N[,N...]] [--groups G[,G...]] [--results FILE]

  --quick        the whole matrix with a twentieth of the frames (about a minute of CPU)
  --order O,...  the writer's order: ascending, wrap (ascending from the middle, wrapping
                 once), descending, random (one seeded shuffle); default all four
  --n N,...      only these entity counts (default 10000,100000,1000000)
  --groups G,... only these fragmentations: the entities spread over G archetypes, 1 to 100
                 (default 1,20,100)
  --results F    also write a summary to F (markdown: the worst ratios, the targets missed
                 counted by kind, the command, the load average at start and end) and
                 every cell to F with the extension .tsv (tab-separated, one row per
                 library per cell)
  --floor-gap    instead of the matrix: the ecs reader split into delivery and lookups beside
                 the hand-kept list's, at N >= 100,000 in one archetype, k >= 1,000
  -h, --help     this text

Prints two markdown tables per fragmentation and order (reader; whole frame), medians per
frame with the ratios of ecs to bevy_ecs, flecs and the hand-kept list, then a summary of the
worst ratios and every target missed, on stdout; progress goes to stderr.";

/// Entity counts of the default matrix.
const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];
/// Archetypes the entities are spread over in the default matrix.
const GROUPS: [usize; 3] = [1, 20, 100];
/// Seed of the random write order.
const SHUFFLE_SEED: u64 = 15;
/// Frames per turn, at most.
const MAX_FRAMES_PER_TURN: usize = 20_000;

/// How long each library runs in each cell.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Effort {
    /// Timed rounds per cell; each library runs a turn of frames in each.
    rounds: usize,
    /// Frames per turn, at least (so slow cells still get `rounds * min_frames` samples).
    min_frames: usize,
    /// Measured (writer + reader) time per library per cell, spread over the rounds.
    budget: Duration,
}

/// 5 rounds x 2 frames = 10 samples at least (a flecs frame of a million writes takes a second).
const FULL: Effort = Effort {
    rounds: 5,
    min_frames: 2,
    budget: Duration::from_millis(200),
};
/// One round of 2 frames at least, a twentieth of the budget: for checking the bench, and
/// the shape of the results, not for their last digit.
const QUICK: Effort = Effort {
    rounds: 1,
    min_frames: 2,
    budget: Duration::from_millis(10),
};

#[derive(Debug)]
struct Options {
    effort: Effort,
    orders: Vec<Order>,
    sizes: Vec<usize>,
    groups: Vec<usize>,
    results: Option<String>,
    floor_gap: bool,
}

/// A comma-separated list of numbers, each accepted by `valid`.
fn numbers(
    flag: &str,
    list: Option<String>,
    valid: impl Fn(usize) -> bool,
    what: &str,
) -> Result<Vec<usize>, String> {
    let list = list.ok_or_else(|| format!("{flag} needs a comma-separated list of {what}"))?;
    list.split(',')
        .map(|s| match s.trim().parse::<usize>() {
            Ok(n) if valid(n) => Ok(n),
            _ => Err(format!("{flag}: {s:?} is not one of {what}")),
        })
        .collect()
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        effort: FULL,
        orders: Order::ALL.to_vec(),
        sizes: SIZES.to_vec(),
        groups: GROUPS.to_vec(),
        results: None,
        floor_gap: false,
    };
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.effort = QUICK,
            "--floor-gap" => options.floor_gap = true,
            "--order" => {
                let list = args
                    .next()
                    .ok_or("--order needs a comma-separated list of write orders")?;
                options.orders = list
                    .split(',')
                    .map(|s| {
                        Order::parse(s.trim()).ok_or_else(|| {
                            format!(
                                "--order: {s:?} is not one of ascending, wrap, descending, random"
                            )
                        })
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--n" => {
                options.sizes = numbers("--n", args.next(), |n| n > 0, "positive entity counts")?;
            }
            "--groups" => {
                options.groups = numbers(
                    "--groups",
                    args.next(),
                    |g| (1..=MAX_GROUPS).contains(&g),
                    "archetype counts from 1 to 100",
                )?;
            }
            "--results" => {
                let file = args.next().ok_or("--results needs a file name")?;
                if Path::new(&file).extension().is_some_and(|e| e == "tsv") {
                    return Err(format!(
                        "--results: {file:?} would be overwritten by its own .tsv data"
                    ));
                }
                options.results = Some(file);
            }
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if let Some(&g) = options
        .groups
        .iter()
        .find(|&&g| options.sizes.iter().any(|&n| n < g))
    {
        return Err(format!(
            "--groups: {g} archetypes need at least {g} entities"
        ));
    }
    Ok(Some(options))
}

/// The k of the matrix for N entities: none, one, a thousandth, 1%, 10%, half and all, each
/// once.
fn changed_counts(n: usize) -> Vec<usize> {
    let mut ks = vec![0, 1, n / 1_000, n / 100, n / 10, n / 2, n];
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// Per-frame times of one library in one cell, in nanoseconds.
#[derive(Debug, Default)]
struct Samples {
    write: Vec<f64>,
    read: Vec<f64>,
    frame: Vec<f64>,
}

/// Run frames of `peer` until `budget` of measured time (and at least a few frames), asserting
/// each reader visit; record their times in `samples` unless this is a warm-up.
fn turn(
    peer: &mut dyn Peer,
    n: usize,
    k: usize,
    min_frames: usize,
    budget: Duration,
    mut samples: Option<&mut Samples>,
) {
    let mut spent = Duration::ZERO;
    let mut frames = 0;
    loop {
        let start = Instant::now();
        peer.write();
        let written = Instant::now();
        let seen = black_box(peer.read());
        let read = Instant::now();
        assert_eq!(
            seen,
            k,
            "{}: N = {n}, k = {k}: the reader visited {seen} entities, not the {k} changed",
            peer.name()
        );
        if let Some(samples) = samples.as_deref_mut() {
            samples.write.push((written - start).as_nanos() as f64);
            samples.read.push((read - written).as_nanos() as f64);
            samples.frame.push((read - start).as_nanos() as f64);
        }
        spent += read - start;
        frames += 1;
        if frames >= MAX_FRAMES_PER_TURN || (frames >= min_frames && spent >= budget) {
            break;
        }
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_unstable_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    }
}

/// Median cost of an empty `Instant` interval: included in every figure of the table.
fn timer_floor() -> f64 {
    let mut samples: Vec<f64> = (0..100_000)
        .map(|_| {
            let start = Instant::now();
            (Instant::now() - start).as_nanos() as f64
        })
        .collect();
    median(&mut samples)
}

/// `x` with three significant digits (or none after the point from 100 up).
fn sig3(x: f64) -> String {
    let digits = if x >= 100.0 {
        0
    } else if x >= 10.0 {
        1
    } else if x >= 1.0 {
        2
    } else if x > 0.0 {
        (2 - x.log10().floor() as i32) as usize
    } else {
        0
    };
    format!("{x:.digits$}")
}

fn duration(ns: f64) -> String {
    if ns < 1e3 {
        format!("{} ns", sig3(ns))
    } else if ns < 1e6 {
        format!("{} µs", sig3(ns / 1e3))
    } else {
        format!("{} ms", sig3(ns / 1e6))
    }
}

/// `1234567` as `1,234,567`.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Every library, in table order: `ecs`, `bevy_ecs`, flecs and the hand-kept list (the floor)
/// at [`ECS`], [`BEVY`], [`FLECS`] and [`LIST`], then the others. `shipyard` and `specs` store
/// each component in a set of its own, with no archetypes: `groups` does not apply to them.
fn peers(n: usize, groups: usize) -> Vec<Box<dyn Peer>> {
    vec![
        Box::new(ecs_peer::EcsPeer::new(n, groups)),
        Box::new(bevy_peer::BevyPeer::new(n, groups)),
        Box::new(flecs_peer::FlecsPeer::new(n, groups)),
        Box::new(hecs_peer::HecsList::new(n, groups)),
        Box::new(ecs_peer::EcsPeer::via_entity_list(n, groups)),
        Box::new(shipyard_peer::ShipyardPeer::new(n)),
        Box::new(specs_peer::SpecsPeer::new(n)),
        Box::new(hecs_peer::HecsScan::new(n, groups)),
    ]
}

/// Places in [`peers`].
const ECS: usize = 0;
const BEVY: usize = 1;
const FLECS: usize = 2;
const LIST: usize = 3;

/// The reader within this factor of the floor, for k >= [`FLOOR_MIN_K`] at N >= [`FLOOR_MIN_N`].
const FLOOR_TARGET: f64 = 1.25;
const FLOOR_MIN_K: usize = 1_000;
const FLOOR_MIN_N: usize = 100_000;

/// Medians of one library in one cell, in nanoseconds.
#[derive(Clone, Copy, Debug)]
struct Medians {
    read: f64,
    frame: f64,
}

#[derive(Debug)]
struct Row {
    n: usize,
    groups: usize,
    order: Order,
    k: usize,
    medians: Vec<Medians>,
}

impl Row {
    fn reader(&self, a: usize, b: usize) -> f64 {
        self.medians[a].read / self.medians[b].read
    }

    fn frame(&self, a: usize, b: usize) -> f64 {
        self.medians[a].frame / self.medians[b].frame
    }

    /// The targets of this cell: (what, ratio, bound), each met when the ratio is below
    /// (or, for the floor, at most) its bound.
    fn targets(&self) -> Vec<(&'static str, f64, f64)> {
        let mut targets = vec![
            ("frame ecs / bevy_ecs", self.frame(ECS, BEVY), 1.0),
            ("frame ecs / flecs", self.frame(ECS, FLECS), 1.0),
        ];
        if self.k <= self.n / 10 {
            targets.push(("reader ecs / bevy_ecs", self.reader(ECS, BEVY), 1.0));
        }
        if self.k >= FLOOR_MIN_K && self.n >= FLOOR_MIN_N {
            targets.push(("reader ecs / floor", self.reader(ECS, LIST), FLOOR_TARGET));
        }
        targets
    }
}

fn archetypes(groups: usize) -> String {
    if groups == 1 {
        "1 archetype".to_owned()
    } else {
        format!("{groups} archetypes")
    }
}

fn print_tables(out: &mut String, groups: usize, order: Order, names: &[&str], rows: &[&Row]) {
    use std::fmt::Write;
    macro_rules! println {
        ($($arg:tt)*) => { writeln!(out, $($arg)*).expect("a String takes any write") };
    }
    let header = |out: &mut String, what: &str, ratios: &[&str]| {
        let cols: Vec<String> = names.iter().map(|n| format!("{n} {what}")).collect();
        let seps = "---:|".repeat(names.len() + 2 + ratios.len());
        writeln!(
            out,
            "| N | k | {} | {} |\n|{seps}",
            cols.join(" | "),
            ratios.join(" | ")
        )
        .expect("a String takes any write");
    };
    let place = format!("{}, writes in {} order", archetypes(groups), order.name());
    println!("\n#### {place}: reader\n");
    header(out, "read", &["ecs / bevy_ecs", "ecs / hecs list"]);
    for row in rows {
        let cells: Vec<String> = row.medians.iter().map(|m| duration(m.read)).collect();
        println!(
            "| {} | {} | {} | {} | {} |",
            grouped(row.n),
            grouped(row.k),
            cells.join(" | "),
            sig3(row.reader(ECS, BEVY)),
            sig3(row.reader(ECS, LIST)),
        );
    }
    println!("\n#### {place}: whole frame (write + read)\n");
    header(
        out,
        "frame",
        &["ecs / bevy_ecs", "ecs / flecs", "ecs / hecs list"],
    );
    for row in rows {
        let cells: Vec<String> = row.medians.iter().map(|m| duration(m.frame)).collect();
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            grouped(row.n),
            grouped(row.k),
            cells.join(" | "),
            sig3(row.frame(ECS, BEVY)),
            sig3(row.frame(ECS, FLECS)),
            sig3(row.frame(ECS, LIST)),
        );
    }
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("peer-bench: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let effort = options.effort;
    if options.floor_gap {
        print!("{}", floor_gap(&options));
        return ExitCode::SUCCESS;
    }
    let load_start = load_average();
    eprintln!(
        "peer-bench: {} rounds, {:?} measured per library per cell; load average {load_start} \
         at start",
        effort.rounds, effort.budget,
    );
    let started = Instant::now();

    let mut rows = Vec::new();
    let mut names = Vec::new();
    for &n in &options.sizes {
        for &groups in &options.groups {
            eprintln!(
                "{:>4.0} s: N = {}, {}: spawning",
                started.elapsed().as_secs_f64(),
                grouped(n),
                archetypes(groups)
            );
            let mut peers = peers(n, groups);
            names = peers.iter().map(|p| p.name()).collect();
            for &order in &options.orders {
                eprintln!(
                    "{:>4.0} s: N = {}, {}, {}: k = {:?}",
                    started.elapsed().as_secs_f64(),
                    grouped(n),
                    archetypes(groups),
                    order.name(),
                    changed_counts(n)
                );
                for k in changed_counts(n) {
                    let medians = measure(&mut peers, n, k, order, effort);
                    rows.push(Row {
                        n,
                        groups,
                        order,
                        k,
                        medians,
                    });
                }
            }
        }
    }
    let floor = timer_floor();
    let load = load_average();
    eprintln!(
        "load average {load} at end, after {:.0} s; an empty Instant interval takes {} \
         (included in every figure)",
        started.elapsed().as_secs_f64(),
        duration(floor)
    );
    let mut tables = String::new();
    for &groups in &options.groups {
        for &order in &options.orders {
            let of_cell: Vec<&Row> = rows
                .iter()
                .filter(|r| r.groups == groups && r.order == order)
                .collect();
            print_tables(&mut tables, groups, order, &names, &of_cell);
        }
    }
    print!("{tables}");
    println!("\n{}\n{}", summary(&rows), misses(&rows));
    if let Some(path) = &options.results {
        let run = Run {
            command: std::env::args().skip(1).collect::<Vec<_>>().join(" "),
            load_start,
            load_end: load,
            seconds: started.elapsed().as_secs_f64(),
            cores: std::thread::available_parallelism().map_or(0, |n| n.get()),
            timer_floor: floor,
        };
        let data = Path::new(path).with_extension("tsv");
        let data_name = data
            .file_name()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        for (file, text) in [
            (data.as_path(), results_data(&rows, &names)),
            (Path::new(path), results_markdown(&rows, &run, &data_name)),
        ] {
            if let Err(e) = std::fs::write(file, text) {
                eprintln!("peer-bench: cannot write {}: {e}", file.display());
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Run every peer on one cell (k of n written in `order`): a warm-up frame each, then
/// `effort.rounds` rounds of turns; the medians of each peer's frames.
fn measure(
    peers: &mut [Box<dyn Peer>],
    n: usize,
    k: usize,
    order: Order,
    effort: Effort,
) -> Vec<Medians> {
    let turn_budget = effort.budget / effort.rounds as u32;
    let mut targets = spread(n, k);
    order.arrange(&mut targets, SHUFFLE_SEED);
    let mut samples: Vec<Samples> = peers.iter().map(|_| Samples::default()).collect();
    for peer in peers.iter_mut() {
        peer.select(&targets);
        turn(peer.as_mut(), n, k, 1, Duration::ZERO, None);
    }
    for round in 0..effort.rounds {
        for i in 0..peers.len() {
            let p = (i + round) % peers.len();
            turn(
                peers[p].as_mut(),
                n,
                k,
                effort.min_frames,
                turn_budget,
                Some(&mut samples[p]),
            );
        }
    }
    samples
        .iter_mut()
        .map(|s| Medians {
            read: median(&mut s.read),
            frame: median(&mut s.frame),
        })
        .collect()
}

/// The `--floor-gap` table: for N of at least [`FLOOR_MIN_N`] in one archetype and k of at
/// least [`FLOOR_MIN_K`], the `ecs` reader split into delivery and read beside the floor's.
fn floor_gap(options: &Options) -> String {
    let mut out = String::from(
        "| N | writes | k | ecs read | of which delivery | of which lookups | hecs list read \
         | ecs / floor | lookups / floor | ecs frame / hecs list frame |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for &n in options.sizes.iter().filter(|&&n| n >= FLOOR_MIN_N) {
        let mut peers: Vec<Box<dyn Peer>> = vec![
            Box::new(ecs_peer::EcsPeer::new(n, 1)),
            Box::new(floor_gap::EcsDelivery::new(n)),
            Box::new(hecs_peer::HecsList::new(n, 1)),
        ];
        for &order in &options.orders {
            for k in changed_counts(n).into_iter().filter(|&k| k >= FLOOR_MIN_K) {
                eprintln!(
                    "floor gap: N = {}, {}, k = {}",
                    grouped(n),
                    order.name(),
                    grouped(k)
                );
                let m = measure(&mut peers, n, k, order, options.effort);
                let lookups = m[0].read - m[1].read;
                out += &format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    grouped(n),
                    order.name(),
                    grouped(k),
                    duration(m[0].read),
                    duration(m[1].read),
                    duration(lookups),
                    duration(m[2].read),
                    sig3(m[0].read / m[2].read),
                    sig3(lookups / m[2].read),
                    sig3(m[0].frame / m[2].frame),
                );
            }
        }
    }
    out + &format!("\nLoad average {} at the end.\n", load_average())
}

/// The worst ratio of one kind over some rows, with the cell it comes from.
fn worst(rows: &[&Row], ratio: impl Fn(&Row) -> f64, counts: bool) -> String {
    let worst = rows
        .iter()
        .filter(|_| counts)
        .map(|r| (ratio(r), r))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match worst {
        Some((x, r)) => format!("{} ({}, k = {})", sig3(x), r.order.name(), grouped(r.k)),
        None => "–".to_owned(),
    }
}

/// One line per N and fragmentation: the worst ratio of `ecs` to each peer over the write
/// orders and the k where that ratio has a target.
fn summary(rows: &[Row]) -> String {
    let mut out = String::from(
        "| N | archetypes | reader / floor, k ≥ 1,000 | reader / bevy_ecs, k ≤ N/10 \
         | frame / bevy_ecs | frame / flecs |\n|---:|---:|---|---|---|---|\n",
    );
    let mut cells: Vec<(usize, usize)> = rows.iter().map(|r| (r.n, r.groups)).collect();
    cells.dedup();
    for (n, groups) in cells {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| r.n == n && r.groups == groups)
            .collect();
        let floor: Vec<&Row> = of.iter().copied().filter(|r| r.k >= FLOOR_MIN_K).collect();
        let few: Vec<&Row> = of.iter().copied().filter(|r| r.k <= r.n / 10).collect();
        out += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            grouped(n),
            groups,
            worst(&floor, |r| r.reader(ECS, LIST), n >= FLOOR_MIN_N),
            worst(&few, |r| r.reader(ECS, BEVY), true),
            worst(&of, |r| r.frame(ECS, BEVY), true),
            worst(&of, |r| r.frame(ECS, FLECS), true),
        );
    }
    out
}

/// A target a cell misses (see [`Row::targets`]).
struct Miss<'a> {
    row: &'a Row,
    what: &'static str,
    ratio: f64,
    bound: f64,
}

impl Miss<'_> {
    fn bound(&self) -> &'static str {
        if self.bound == FLOOR_TARGET {
            "≤ 1.25"
        } else {
            "< 1.0"
        }
    }

    fn cell(&self) -> String {
        format!(
            "N = {}, {}, {}, k = {}",
            grouped(self.row.n),
            archetypes(self.row.groups),
            self.row.order.name(),
            grouped(self.row.k)
        )
    }
}

/// The targets of every row, each with whether it is met.
fn targets(rows: &[Row]) -> impl Iterator<Item = (Miss<'_>, bool)> {
    rows.iter().flat_map(|row| {
        row.targets().into_iter().map(move |(what, ratio, bound)| {
            let met = if bound == FLOOR_TARGET {
                ratio <= bound
            } else {
                ratio < bound
            };
            (
                Miss {
                    row,
                    what,
                    ratio,
                    bound,
                },
                met,
            )
        })
    })
}

/// Every target a cell misses, one line each.
fn misses(rows: &[Row]) -> String {
    let missed: Vec<Miss<'_>> = targets(rows)
        .filter(|(_, met)| !met)
        .map(|(m, _)| m)
        .collect();
    let mut out = format!("Targets missed: {}.\n\n", missed.len());
    for m in &missed {
        out += &format!(
            "- {} = {} (target {}) at {}\n",
            m.what,
            sig3(m.ratio),
            m.bound(),
            m.cell()
        );
    }
    out
}

/// The targets missed, counted by kind, each kind with its worst cells.
fn misses_by_kind(rows: &[Row]) -> String {
    const WORST: usize = 3;
    let mut kinds: Vec<(&'static str, &'static str, usize, Vec<Miss<'_>>)> = Vec::new();
    for (miss, met) in targets(rows) {
        let at = match kinds.iter().position(|(what, ..)| *what == miss.what) {
            Some(at) => at,
            None => {
                kinds.push((miss.what, miss.bound(), 0, Vec::new()));
                kinds.len() - 1
            }
        };
        kinds[at].2 += 1;
        if !met {
            kinds[at].3.push(miss);
        }
    }
    let total: usize = kinds.iter().map(|(.., missed)| missed.len()).sum();
    let mut out = format!(
        "## Targets missed: {total}\n\n| target | missed, of cells | worst |\n|---|---:|---|\n"
    );
    for (what, bound, cells, mut missed) in kinds {
        missed.sort_by(|a, b| b.ratio.total_cmp(&a.ratio));
        let worst: Vec<String> = missed
            .iter()
            .take(WORST)
            .map(|m| format!("{} ({})", sig3(m.ratio), m.cell()))
            .collect();
        out += &format!(
            "| {what} {bound} | {} of {cells} | {} |\n",
            missed.len(),
            if worst.is_empty() {
                "–".to_owned()
            } else {
                worst.join("; ")
            }
        );
    }
    out
}

/// How a run went, for the head of the results file.
struct Run {
    command: String,
    load_start: String,
    load_end: String,
    seconds: f64,
    cores: usize,
    /// Median of an empty `Instant` interval, in nanoseconds.
    timer_floor: f64,
}

/// The `--results` file: the command and the load, the summary, the targets missed by kind,
/// and a link to `data` (every cell).
fn results_markdown(rows: &[Row], run: &Run, data: &str) -> String {
    format!(
        "# Peer bench: the change-detection matrix\n\n\
         `cargo run --release --manifest-path ecs/peer-bench/Cargo.toml -- {}`: {:.0} s on {} \
         cores, load average {} at the start and {} at the end. Medians per frame; an empty \
         `Instant` interval takes {}, included in every figure. Ratios are `ecs` over the peer, \
         below 1 where `ecs` is faster; compare within this run only. The columns and targets \
         are described in [README.md](README.md); flecs reads inside its writes (an `OnSet` \
         observer), so it is compared by whole frame.\n\n\
         Every cell, one row per library (N, archetypes, order, k, reader and frame medians, \
         ratios): [{data}]({data}).\n\n\
         ## Summary: the worst ratio over the write orders\n\n{}\n{}",
        run.command,
        run.seconds,
        run.cores,
        run.load_start,
        run.load_end,
        duration(run.timer_floor),
        summary(rows),
        misses_by_kind(rows),
    )
}

/// Every cell of the matrix as tab-separated values: one row per library per cell, times in
/// nanoseconds, and the ratios of `ecs` to that library.
fn results_data(rows: &[Row], names: &[&str]) -> String {
    let mut out = String::from(
        "peer\tn\tgroups\torder\tk\treader_median_ns\tframe_median_ns\t\
         ecs_reader_ratio\tecs_frame_ratio\n",
    );
    for row in rows {
        for (p, (name, m)) in names.iter().zip(&row.medians).enumerate() {
            out += &format!(
                "{name}\t{}\t{}\t{}\t{}\t{:.0}\t{:.0}\t{:.4}\t{:.4}\n",
                row.n,
                row.groups,
                row.order.name(),
                row.k,
                m.read,
                m.frame,
                row.reader(ECS, p),
                row.frame(ECS, p),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_dedupes_equal_counts() {
        assert_eq!(changed_counts(1_000), [0, 1, 10, 100, 500, 1_000]);
        assert_eq!(
            changed_counts(100_000),
            [0, 1, 100, 1_000, 10_000, 50_000, 100_000]
        );
        assert_eq!(changed_counts(10), [0, 1, 5, 10]);
    }

    #[test]
    fn every_peer_visits_exactly_the_changed_entities() {
        let n = 2_000;
        for mut peer in peers(n, 1).into_iter().chain(peers(n, 20)) {
            assert_eq!(
                peer.read(),
                0,
                "{}: nothing changed since spawn was read",
                peer.name()
            );
            for (k, order) in [
                (0, Order::Ascending),
                (7, Order::Ascending),
                (n, Order::Ascending),
                (300, Order::Random),
                (n, Order::Random),
                (n / 10, Order::Descending),
                (n, Order::Wrap),
            ] {
                let mut targets = spread(n, k);
                order.arrange(&mut targets, SHUFFLE_SEED);
                peer.select(&targets);
                for _ in 0..3 {
                    peer.write();
                    assert_eq!(peer.read(), k, "{}", peer.name());
                }
            }
            peer.write();
            peer.select(&[]);
            assert_eq!(
                peer.read(),
                n,
                "{}: the last writes are still pending",
                peer.name()
            );
            assert_eq!(peer.read(), 0, "{}: and seen once", peer.name());
        }
    }

    /// A reader that misses one changed entity.
    struct Blind(usize);

    impl Peer for Blind {
        fn name(&self) -> &'static str {
            "blind"
        }
        fn select(&mut self, targets: &[usize]) {
            self.0 = targets.len();
        }
        fn write(&mut self) {}
        fn read(&mut self) -> usize {
            self.0.saturating_sub(1)
        }
    }

    #[test]
    #[should_panic(expected = "blind: N = 10, k = 3: the reader visited 2 entities")]
    fn a_reader_that_misses_a_change_stops_the_bench() {
        let mut blind = Blind(0);
        blind.select(&spread(10, 3));
        turn(&mut blind, 10, 3, 1, Duration::ZERO, None);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
        assert!(args(&["--n", "0"]).is_err());
        assert!(args(&["--n"]).is_err());
        assert!(args(&["--fast"]).is_err());
        assert_eq!(
            args(&["--groups", "1", "--n", "5,7"])
                .unwrap()
                .unwrap()
                .sizes,
            [5, 7]
        );
        assert!(args(&["--order", "up"]).is_err());
        assert_eq!(
            args(&["--order", "wrap,random"]).unwrap().unwrap().orders,
            [Order::Wrap, Order::Random]
        );
        assert_eq!(args(&[]).unwrap().unwrap().orders, Order::ALL);
        assert!(args(&["--help"]).unwrap().is_none());
        assert!(args(&["--groups", "101"]).is_err());
        assert!(args(&["--groups", "20", "--n", "10"]).is_err());
        assert_eq!(args(&["--groups", "1,7"]).unwrap().unwrap().groups, [1, 7]);
    }

    /// The full matrix with `ecs` at twice every peer's time: every target missed.
    fn all_missed() -> Vec<Row> {
        let mut rows = Vec::new();
        for n in SIZES {
            for groups in GROUPS {
                for order in Order::ALL {
                    for k in changed_counts(n) {
                        let mut medians = vec![
                            Medians {
                                read: 1_234.5,
                                frame: 98_765.4,
                            };
                            8
                        ];
                        medians[ECS] = Medians {
                            read: 2_469.0,
                            frame: 197_530.8,
                        };
                        rows.push(Row {
                            n,
                            groups,
                            order,
                            k,
                            medians,
                        });
                    }
                }
            }
        }
        rows
    }

    #[test]
    fn the_results_file_stays_small_and_the_data_holds_every_cell() {
        let rows = all_missed();
        let run = Run {
            command: "--results ecs/peer-bench/RESULTS.md".to_owned(),
            load_start: "10.52".to_owned(),
            load_end: "11.07".to_owned(),
            seconds: 543.0,
            cores: 2,
            timer_floor: 20.0,
        };
        let markdown = results_markdown(&rows, &run, "RESULTS.tsv");
        assert!(
            markdown.len() <= 7_000,
            "{} bytes:\n{markdown}",
            markdown.len()
        );
        let missed = targets(&rows).filter(|(_, met)| !met).count();
        assert!(missed > 500, "{missed}");
        assert!(markdown.contains(&format!("## Targets missed: {missed}\n")));
        assert!(markdown.contains("[RESULTS.tsv](RESULTS.tsv)"));
        assert!(markdown.contains("load average 10.52 at the start and 11.07 at the end"));
        assert!(markdown.contains("| 1,000,000 | 100 |"), "{markdown}");

        let names = peers(100, 1).iter().map(|p| p.name()).collect::<Vec<_>>();
        let data = results_data(&rows, &names);
        let lines: Vec<&str> = data.lines().collect();
        assert_eq!(lines.len(), 1 + rows.len() * names.len());
        assert!(lines.iter().all(|l| l.split('\t').count() == 9));
        assert_eq!(
            lines[1],
            "ecs\t10000\t1\tascending\t0\t2469\t197531\t1.0000\t1.0000"
        );
        assert_eq!(
            lines[2],
            "bevy_ecs\t10000\t1\tascending\t0\t1234\t98765\t2.0000\t2.0000"
        );
    }

    #[test]
    fn a_results_file_named_tsv_is_refused() {
        let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
        assert!(args(&["--results", "out.tsv"]).is_err());
        assert_eq!(
            args(&["--results", "out.md"]).unwrap().unwrap().results,
            Some("out.md".to_owned())
        );
    }

    #[test]
    fn figures_keep_three_significant_digits() {
        assert_eq!(duration(153.4), "153 ns");
        assert_eq!(duration(41_330.0), "41.3 µs");
        assert_eq!(duration(1_234_567.0), "1.23 ms");
        assert_eq!(sig3(0.00361), "0.00361");
        assert_eq!(grouped(1_000_000), "1,000,000");
    }
}
