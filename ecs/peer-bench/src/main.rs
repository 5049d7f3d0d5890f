//! Peer benchmark: the k-of-N change-detection workload on `ecs`, `bevy_ecs`, `shipyard`,
//! `specs` and `hecs`, side by side in one process.
//!
//! Each library holds N entities with a [`Position`](workload::Position) and a velocity. Each
//! frame a writer bumps the position of k of them (the same evenly spread set for every library,
//! visited in one of four [orders](workload::Order): ascending, wrapping once, descending,
//! random), then a reader visits exactly the changed ones and reads their positions: in `ecs` a
//! system that watches `Position`, in `bevy_ecs` a `Query<&Position, Changed<Position>>` system
//! run by a `Schedule`, in `shipyard` a workload system iterating `View::modified()`, in `specs`
//! a dispatched system draining a `FlaggedStorage`'s `ReaderId` into a `BitSet`, in `hecs`
//! (which has no change detection) a full scan against last frame's values and, as the floor, a
//! hand-kept `Vec` of dirty handles. Every frame, warm-up and timed, asserts the reader visited
//! exactly k entities.
//!
//! Each frame's writer and reader are timed apart with `Instant`; the tables hold medians of
//! the reader, the writer and the whole frame. The libraries take turns in rounds (a few frames
//! each, the order rotating), so a burst of load on a shared machine falls on all of them alike.

mod bevy_peer;
mod ecs_peer;
mod hecs_peer;
mod shipyard_peer;
mod specs_peer;
mod workload;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use workload::{Order, Peer, spread};

const USAGE: &str = "\
Usage: peer-bench [--quick] [--order ORDER[,ORDER...]] [--n N[,N...]] [--results FILE]

  --quick       a short run (~1/10 of the frames), for checking the bench itself
  --order O,... the writer's order: ascending, wrap (ascending from the middle, wrapping
                once), descending, random (one seeded shuffle); default all four
  --n N,...     only these entity counts (default 100000,1000000)
  --results F   also write the full tables to F (markdown), headed by the command line
  -h, --help    this text

Prints two markdown tables per order (reader, whole frame; medians per frame, with ratios of
ecs to bevy_ecs and to the hand-kept list), then a summary of the ecs / bevy_ecs ratios at
k = N/10 and k = N, on stdout; progress goes to stderr.";

/// Entity counts of the default grid.
const SIZES: [usize; 2] = [100_000, 1_000_000];
/// Seed of the random write order.
const SHUFFLE_SEED: u64 = 15;
/// Timed rounds per cell; each library runs a turn of frames in each.
const ROUNDS: usize = 5;
/// Frames per turn, at least (so slow cells still get `ROUNDS * 3` samples) and at most.
const MIN_FRAMES_PER_TURN: usize = 3;
const MAX_FRAMES_PER_TURN: usize = 20_000;
/// Measured (writer + reader) time per library per cell, spread over the rounds.
const BUDGET: Duration = Duration::from_millis(400);
const QUICK_BUDGET: Duration = Duration::from_millis(40);

#[derive(Debug)]
struct Options {
    budget: Duration,
    orders: Vec<Order>,
    sizes: Vec<usize>,
    results: Option<String>,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        budget: BUDGET,
        orders: Order::ALL.to_vec(),
        sizes: SIZES.to_vec(),
        results: None,
    };
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.budget = QUICK_BUDGET,
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
                let list = args
                    .next()
                    .ok_or("--n needs a comma-separated list of entity counts")?;
                options.sizes = list
                    .split(',')
                    .map(|s| match s.trim().parse::<usize>() {
                        Ok(n) if n > 0 => Ok(n),
                        _ => Err(format!("--n: {s:?} is not a positive entity count")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--results" => {
                options.results = Some(args.next().ok_or("--results needs a file name")?);
            }
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Some(options))
}

/// The k of the grid for N entities: 0, 1, N/1000, N/100, N/10 and N, each once.
fn changed_counts(n: usize) -> Vec<usize> {
    let mut ks = vec![0, 1, n / 1_000, n / 100, n / 10, n];
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
        if frames >= MAX_FRAMES_PER_TURN || (frames >= MIN_FRAMES_PER_TURN && spent >= budget) {
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

/// Every library, in table order: `ecs` first, `bevy_ecs` second, the hand-kept list at
/// [`LIST`], then `ecs` and `bevy_ecs` again with their writes through `World::get_mut`.
fn peers(n: usize) -> Vec<Box<dyn Peer>> {
    vec![
        Box::new(ecs_peer::EcsPeer::new(n)),
        Box::new(bevy_peer::BevyPeer::new(n)),
        Box::new(shipyard_peer::ShipyardPeer::new(n)),
        Box::new(specs_peer::SpecsPeer::new(n)),
        Box::new(hecs_peer::HecsScan::new(n)),
        Box::new(hecs_peer::HecsList::new(n)),
        Box::new(ecs_peer::EcsPeer::by_type(n)),
        Box::new(bevy_peer::BevyPeer::by_type(n)),
        Box::new(ecs_peer::EcsPeer::walkthrough(n)),
    ]
}

/// Place of the hand-kept list (the floor) in [`peers`].
const LIST: usize = 5;
/// Place of `ecs` writing through `World::get_mut` in [`peers`].
const BY_TYPE: usize = 6;
/// Place of `bevy_ecs` writing through `World::get_mut` in [`peers`].
const BEVY_BY_TYPE: usize = 7;
/// Place of `ecs` reading through `dirty()` in [`peers`].
const WALKTHROUGH: usize = 8;

/// Medians of one library in one cell, in nanoseconds.
#[derive(Clone, Copy, Debug)]
struct Medians {
    read: f64,
    write: f64,
    frame: f64,
}

struct Row {
    order: Order,
    n: usize,
    k: usize,
    medians: Vec<Medians>,
}

fn print_tables(out: &mut String, order: Order, names: &[&str], rows: &[&Row]) {
    use std::fmt::Write;
    let list = LIST;
    macro_rules! println {
        ($($arg:tt)*) => { writeln!(out, $($arg)*).expect("a String takes any write") };
    }
    let header = |out: &mut String, what: &str, extra: &str| {
        let cols: Vec<String> = names.iter().map(|n| format!("{n} {what}")).collect();
        let seps = "---:|".repeat(names.len() + 2 + extra.matches('|').count() + 1);
        writeln!(out, "| N | k | {} | {extra} |\n|{seps}", cols.join(" | "))
            .expect("a String takes any write");
    };
    println!("\n#### Writes in {} order: reader\n", order.name());
    header(
        out,
        "read",
        "ecs / bevy_ecs | ecs dirty() / bevy_ecs | ecs / hecs list",
    );
    for row in rows {
        let m = &row.medians;
        let cells: Vec<String> = m.iter().map(|m| duration(m.read)).collect();
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            grouped(row.n),
            grouped(row.k),
            cells.join(" | "),
            sig3(m[0].read / m[1].read),
            sig3(m[WALKTHROUGH].read / m[1].read),
            sig3(m[0].read / m[list].read),
        );
    }
    println!(
        "\n#### Writes in {} order: whole frame (write + read)\n",
        order.name()
    );
    header(
        out,
        "frame",
        "ecs / bevy_ecs | ecs / hecs list | write ecs / bevy_ecs | write ecs / hecs list \
         | write ecs World::get_mut / bevy_ecs | write ecs World::get_mut / bevy_ecs \
         World::get_mut",
    );
    for row in rows {
        let m = &row.medians;
        let cells: Vec<String> = m.iter().map(|m| duration(m.frame)).collect();
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            grouped(row.n),
            grouped(row.k),
            cells.join(" | "),
            sig3(m[0].frame / m[1].frame),
            sig3(m[0].frame / m[list].frame),
            sig3(m[0].write / m[1].write),
            sig3(m[0].write / m[list].write),
            sig3(m[BY_TYPE].write / m[1].write),
            sig3(m[BY_TYPE].write / m[BEVY_BY_TYPE].write),
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
    let turn_budget = options.budget / ROUNDS as u32;
    eprintln!(
        "peer-bench: {} rounds, {:?} measured per library per cell, orders {:?}; load average {} at start",
        ROUNDS,
        options.budget,
        options.orders,
        load_average()
    );

    let mut rows = Vec::new();
    let mut names = Vec::new();
    for &n in &options.sizes {
        eprintln!("N = {}: spawning", grouped(n));
        let mut peers = peers(n);
        names = peers.iter().map(|p| p.name()).collect();
        for &order in &options.orders {
            for k in changed_counts(n) {
                eprintln!("{}: N = {}, k = {}", order.name(), grouped(n), grouped(k));
                let mut targets = spread(n, k);
                order.arrange(&mut targets, SHUFFLE_SEED);
                let mut samples: Vec<Samples> = peers.iter().map(|_| Samples::default()).collect();
                for peer in &mut peers {
                    peer.select(&targets);
                    turn(peer.as_mut(), n, k, Duration::ZERO, None);
                }
                for round in 0..ROUNDS {
                    for i in 0..peers.len() {
                        let p = (i + round) % peers.len();
                        turn(peers[p].as_mut(), n, k, turn_budget, Some(&mut samples[p]));
                    }
                }
                let medians = samples
                    .iter_mut()
                    .map(|s| Medians {
                        read: median(&mut s.read),
                        write: median(&mut s.write),
                        frame: median(&mut s.frame),
                    })
                    .collect();
                rows.push(Row {
                    order,
                    n,
                    k,
                    medians,
                });
            }
        }
    }
    let floor = timer_floor();
    eprintln!(
        "load average {} at end; an empty Instant interval takes {} (included in every figure)",
        load_average(),
        duration(floor)
    );
    let mut tables = String::new();
    for &order in &options.orders {
        let of_order: Vec<&Row> = rows.iter().filter(|r| r.order == order).collect();
        print_tables(&mut tables, order, &names, &of_order);
    }
    print!("{tables}");
    println!("\n{}", summary(&rows));
    if let Some(path) = &options.results {
        let command: Vec<String> = std::env::args().skip(1).collect();
        let text = format!(
            "# Peer bench: full tables\n\nProduced by `cargo run --release --manifest-path \
             ecs/peer-bench/Cargo.toml -- {}` (load average {} at the end; an empty `Instant` \
             interval takes {}, included in every figure). Medians per frame; columns as in \
             `ecs/peer-bench/src/main.rs`.\n{tables}\n## Summary\n\n{}\n",
            command.join(" "),
            load_average(),
            duration(floor),
            summary(&rows),
        );
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("peer-bench: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// One line per order, N and k in {N/10, N}: the ratios of `ecs` to `bevy_ecs` of the reader
/// through `dirty_in`, through `dirty()`, and of the whole frame.
fn summary(rows: &[Row]) -> String {
    let mut out = String::from(
        "| writes | N | k | reader `dirty_in` / bevy | reader `dirty()` / bevy | frame / bevy |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for row in rows.iter().filter(|r| r.k == r.n || r.k == r.n / 10) {
        let m = &row.medians;
        out += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            row.order.name(),
            grouped(row.n),
            grouped(row.k),
            sig3(m[0].read / m[1].read),
            sig3(m[WALKTHROUGH].read / m[1].read),
            sig3(m[0].frame / m[1].frame),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_dedupes_equal_counts() {
        assert_eq!(changed_counts(1_000), [0, 1, 10, 100, 1_000]);
        assert_eq!(changed_counts(100_000), [0, 1, 100, 1_000, 10_000, 100_000]);
        assert_eq!(changed_counts(10), [0, 1, 10]);
    }

    #[test]
    fn every_peer_visits_exactly_the_changed_entities() {
        let n = 2_000;
        for mut peer in peers(n) {
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
        turn(&mut blind, 10, 3, Duration::ZERO, None);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
        assert!(args(&["--n", "0"]).is_err());
        assert!(args(&["--n"]).is_err());
        assert!(args(&["--fast"]).is_err());
        assert_eq!(args(&["--n", "5,7"]).unwrap().unwrap().sizes, [5, 7]);
        assert!(args(&["--order", "up"]).is_err());
        assert_eq!(
            args(&["--order", "wrap,random"]).unwrap().unwrap().orders,
            [Order::Wrap, Order::Random]
        );
        assert_eq!(args(&[]).unwrap().unwrap().orders, Order::ALL);
        assert!(args(&["--help"]).unwrap().is_none());
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
