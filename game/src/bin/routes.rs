//! `crate-room-routes`: the campaign's author routes, searched for and measured.
//!
//! - `search [LEVEL ...]` plays each level with many bots (the built-in one and others with
//!   other walk weights, coin and keg worths, blast rules and jittered target orders), plus the route
//!   kept in `levels/gold/LEVEL.input` if there is one; then, from the best few bots, takes
//!   detours from their greedy order (at one plan after another, the second-best target
//!   instead of the best, kept while the clear gets faster); splices the best route's head
//!   (every half second) to the tails of the best few dozen bots; then shortens the best few routes
//!   step by step (each stretch of held keys cut while the clear gets faster), and prints the
//!   best, the runner-up and the built-in bot's time. `--write` keeps the best as
//!   `levels/gold/LEVEL.input` when it beats the built-in bot (else removes the file, so
//!   `tools/record_gold.sh` plays the bot).
//! - `pace [LEVEL ...]` plays each level's author route (the script, else the built-in bot) and
//!   prints its time and its longest stretch with nothing new ([`game::route::Pacing`]).
//!
//! Run from the repository's root; with no level named, every level of `levels/campaign.txt`.

// A page has no command line: built for the browser, this tool is empty and needs no clap.
#![cfg_attr(all(target_arch = "wasm32", target_os = "unknown"), no_main)]
#![cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use game::atlas::AtlasData;
use game::input::InputScript;
use game::level::{self, Level};
use game::route::{self, Driver, Run};
use game::sim::Input;
use game::sim::resources::BotStyle;

/// Steps a route may take: ten minutes.
const LIMIT: u64 = 36_000;
/// The seed `tools/record_gold.sh` records with (`sim`'s default).
const SEED: u64 = 1;

#[derive(Parser, Debug)]
#[command(
    name = "crate-room-routes",
    about = "Search and measure the campaign's author routes"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Search for the fastest route through each level.
    Search {
        /// Level names (`vault` or `vault.ron`); none: the campaign.
        levels: Vec<String>,
        /// Jittered bots per combination of weights, of each jitter (0.2 and 0.5).
        #[arg(long, default_value_t = 6)]
        jitters: u64,
        /// Routes shortened step by step, best first.
        #[arg(long, default_value_t = 6)]
        polish: usize,
        /// Keep the best route as `levels/gold/LEVEL.input` when it beats the built-in bot.
        #[arg(long)]
        write: bool,
    },
    /// Print each level's author time and longest stretch with nothing new.
    Pace {
        /// Level names; none: the campaign.
        levels: Vec<String>,
        /// Play the built-in bot even where a script exists.
        #[arg(long)]
        bot: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = (|| -> Result<()> {
        let atlas = AtlasData::load(Path::new("assets"))
            .context("loading assets/ (run from the repository's root)")?;
        match cli.command {
            Command::Search {
                levels,
                jitters,
                polish,
                write,
            } => {
                for name in campaign_or(levels)? {
                    search(&atlas, &name, jitters, polish, write)?;
                }
            }
            Command::Pace { levels, bot } => {
                let mut worst = 0;
                for name in campaign_or(levels)? {
                    let level = load(&name)?;
                    let (driver, who) = author(&name, bot)?;
                    let run = route::play(&level, &atlas, SEED, &driver, LIMIT)?;
                    worst = worst.max(run.longest.steps());
                    println!(
                        "{name:<14} {who:<6} {}  longest {}",
                        time(&run),
                        run.longest
                    );
                }
                println!(
                    "longest stretch of one action in any level: {:.2} s",
                    worst as f64 / 60.0
                );
            }
        }
        Ok(())
    })();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The levels named, or the campaign's.
fn campaign_or(levels: Vec<String>) -> Result<Vec<String>> {
    if !levels.is_empty() {
        return Ok(levels
            .into_iter()
            .map(|l| l.trim_end_matches(".ron").to_owned())
            .collect());
    }
    let list = std::fs::read_to_string("levels/campaign.txt").context("levels/campaign.txt")?;
    Ok(list
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.trim_end_matches(".ron").to_owned())
        .collect())
}

fn load(name: &str) -> Result<Level> {
    let path = PathBuf::from(format!("levels/{name}.ron"));
    Ok(level::load(&path, &level::DEFAULT_SKINS)?)
}

fn script_path(name: &str) -> PathBuf {
    PathBuf::from(format!("levels/gold/{name}.input"))
}

/// The author route's player: the level's script if there is one (and `bot` is not asked
/// for), else the built-in bot.
fn author(name: &str, bot: bool) -> Result<(Driver, &'static str)> {
    let path = script_path(name);
    if !bot && path.exists() {
        let script = InputScript::load(&path)?;
        return Ok((Driver::from_script(&script), "script"));
    }
    Ok((Driver::Bot(BotStyle::default()), "bot"))
}

fn time(run: &Run) -> String {
    match run.room_time {
        Some(t) => format!("{:6.2} s", t as f64 / 60.0),
        None => "no clear".into(),
    }
}

/// The time, with the coins and burns in it.
fn time_in_full(run: &Run) -> String {
    format!("{} ({} coins, {} burns", time(run), run.coins, run.burns)
}

/// A route found: who found it (and the bot's style, if a bot did), and its run.
struct Found {
    source: String,
    style: Option<BotStyle>,
    run: Run,
}

impl Found {
    fn time(&self) -> u64 {
        self.run.room_time.unwrap_or(u64::MAX)
    }
}

fn search(atlas: &AtlasData, name: &str, jitters: u64, polish: usize, write: bool) -> Result<()> {
    let level = load(name)?;
    let tries = std::cell::Cell::new(0u64);
    let mut play = |driver: &Driver, limit: u64| -> Result<Run> {
        tries.set(tries.get() + 1);
        Ok(route::play(&level, atlas, SEED, driver, limit)?)
    };
    let bot = play(&Driver::Bot(BotStyle::default()), LIMIT)?;
    let mut found = vec![Found {
        source: "bot".into(),
        style: Some(BotStyle::default()),
        run: bot.clone(),
    }];
    if let Ok((driver @ Driver::Inputs(_), _)) = author(name, false) {
        found.push(Found {
            source: "script".into(),
            style: None,
            run: play(&driver, LIMIT)?,
        });
    }
    for walk_weight in [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0] {
        for coin_scale in [0.0, 0.5, 1.0, 2.0, 4.0] {
            for (flee_blasts, keg_scale) in [
                (true, 1.0),
                (false, 1.0),
                (true, 0.2),
                (false, 0.2),
                (true, 0.03),
                (false, 0.03),
            ] {
                // Seed 0 unjittered; then small jitters (near ties reordered) and large ones.
                for seed in 0..=2 * jitters {
                    let jitter = match seed {
                        0 => 0.0,
                        s if s <= jitters => 0.2,
                        _ => 0.5,
                    };
                    let style = BotStyle {
                        walk_weight,
                        coin_scale,
                        keg_scale,
                        flee_blasts,
                        jitter,
                        seed,
                        ..BotStyle::default()
                    };
                    let run = play(&Driver::Bot(style), LIMIT)?;
                    if run.room_time.is_some() {
                        found.push(Found {
                            source: format!(
                                "bot walk {walk_weight} coin {coin_scale} keg {keg_scale} flee {flee_blasts} jitter {jitter} seed {seed}"
                            ),
                            style: Some(style),
                            run,
                        });
                    }
                }
            }
        }
    }
    found.sort_by_key(|f| (f.time(), f.source.clone()));
    found.dedup_by(|a, b| a.run.inputs == b.run.inputs);
    let searched = tries.get();
    // Detours from the best few bots' greedy orders.
    let mut detoured: Vec<Found> = Vec::new();
    for f in found.iter().filter(|f| f.style.is_some()).take(polish) {
        if let Some(style) = f.style {
            let (style, run, detours) = detour(&mut play, style, f.run.clone())?;
            if detours > 0 {
                detoured.push(Found {
                    source: format!("{}, {detours} detours", f.source),
                    style: Some(style),
                    run,
                });
            }
        }
    }
    found.extend(detoured);
    found.sort_by_key(|f| (f.time(), f.source.clone()));
    let detour_tries = tries.get() - searched;
    // The best route's head, spliced to the tails of the best few dozen other bots.
    let mut tails: Vec<BotStyle> = Vec::new();
    for style in found.iter().filter_map(|f| f.style) {
        if tails.len() < SPLICE_TAILS && !tails.contains(&style) {
            tails.push(style);
        }
    }
    let (spliced, cuts) = splice(&mut play, &found[0].run, &tails)?;
    if cuts > 0 {
        found.insert(
            0,
            Found {
                source: format!("{}, {cuts} splices", found[0].source),
                style: None,
                run: spliced,
            },
        );
    }
    let splice_tries = tries.get() - searched - detour_tries;
    // Shorten the best few.
    let mut polished: Vec<Found> = Vec::new();
    for f in found.iter().take(polish) {
        let run = shorten(&mut play, f.run.clone(), 3)?;
        polished.push(Found {
            source: format!("{}, shortened", f.source),
            style: None,
            run,
        });
    }
    found.extend(polished);
    found.sort_by_key(|f| (f.time(), f.source.clone()));
    // The best, on until the cuts run out.
    let run = shorten(&mut play, found[0].run.clone(), 20)?;
    if run.room_time < found[0].run.room_time {
        found.insert(
            0,
            Found {
                source: format!("{}, shortened further", found[0].source),
                style: None,
                run,
            },
        );
    }
    let best = &found[0];
    let runner = found
        .iter()
        .find(|f| origin(&f.source) != origin(&best.source) && f.run.inputs != best.run.inputs)
        .map_or("none".to_owned(), |f| {
            format!("{} ({})", time(&f.run), f.source)
        });
    println!(
        "{name:<14} routes {:5} ({searched} bots and scripts, {detour_tries} with detours, {splice_tries} spliced, {} shortened)\n  best      {}; {})\n  runner-up {runner}\n  built-in bot {})",
        tries.get(),
        tries.get() - searched - detour_tries - splice_tries,
        time_in_full(&best.run),
        best.source,
        time_in_full(&bot),
    );
    if write {
        let path = script_path(name);
        let kept = found
            .iter()
            .any(|f| f.source == "script" && f.run.inputs == best.run.inputs);
        if kept {
            // The script is the best route known: its file (and the history in its header)
            // stays.
        } else if best.time() < bot.room_time.unwrap_or(u64::MAX) {
            // A route grown from the kept script is named by where that one came from.
            let source = match best.source.strip_prefix("script") {
                Some(rest) => format!("{}{rest}", kept_source(&path)),
                None => best.source.clone(),
            };
            let header = format!(
                "The author route through levels/{name}.ron, found by `crate-room-routes search`:\n\
                 {} (the built-in bot: {}), from {}.\n\
                 The keys held step by step (STEPS [KEY ...] a line, as `--input script:FILE` reads them).",
                time(&best.run).trim(),
                time(&bot).trim(),
                source
            );
            std::fs::write(&path, route::script_text(&header, &best.run.inputs))
                .with_context(|| path.display().to_string())?;
        } else if path.exists() {
            std::fs::remove_file(&path).with_context(|| path.display().to_string())?;
        }
    }
    Ok(())
}

/// Add detours to `style`'s route one at a time: of every plan and both kinds of detour (the
/// second-best target instead of the best, or the best coin), the one that clears the room
/// soonest, while one does and a slot is free. Gives the style, its run and the detours added.
fn detour(
    play: &mut impl FnMut(&Driver, u64) -> Result<Run>,
    mut style: BotStyle,
    mut run: Run,
) -> Result<(BotStyle, Run, usize)> {
    let Some(mut best) = run.room_time else {
        return Ok((style, run, 0));
    };
    let mut added = 0;
    loop {
        let mut found: Option<(BotStyle, Run)> = None;
        for at in 1..=run.plans {
            for coin in [false, true] {
                let mut tried = style;
                let slots = match coin {
                    false => &mut tried.second_best_at,
                    true => &mut tried.coin_at,
                };
                let Some(slot) = slots.iter().position(|&a| a == 0) else {
                    continue;
                };
                if slots.contains(&at) {
                    continue;
                }
                slots[slot] = at;
                let limit = run.cleared_at.unwrap_or(LIMIT) + 1;
                let tried_run = play(&Driver::Bot(tried), limit)?;
                if let Some(t) = tried_run.room_time.filter(|&t| t < best) {
                    best = t;
                    found = Some((tried, tried_run));
                }
            }
        }
        match found {
            Some((s, r)) => {
                style = s;
                run = r;
                added += 1;
            }
            None => return Ok((style, run, added)),
        }
    }
}

/// Splice `run`: play its first steps (a multiple of [`SPLICE_EVERY`]), then one of `tails`'
/// bots from there, and keep the splice that clears the room soonest; again from it while one
/// helps, at most [`SPLICE_ROUNDS`] times. Gives the route and the splices kept.
fn splice(
    play: &mut impl FnMut(&Driver, u64) -> Result<Run>,
    run: &Run,
    tails: &[BotStyle],
) -> Result<(Run, usize)> {
    let mut run = run.clone();
    let Some(mut best) = run.room_time else {
        return Ok((run, 0));
    };
    for round in 0..SPLICE_ROUNDS {
        let mut found: Option<Run> = None;
        for head in (SPLICE_EVERY..run.inputs.len()).step_by(SPLICE_EVERY) {
            for &style in tails {
                let driver = Driver::Then(run.inputs[..head].to_vec(), style);
                let tried = play(&driver, run.cleared_at.unwrap_or(LIMIT) + 1)?;
                if let Some(t) = tried.room_time.filter(|&t| t < best) {
                    best = t;
                    found = Some(tried);
                }
            }
        }
        match found {
            Some(better) => run = better,
            None => return Ok((run, round)),
        }
    }
    Ok((run, SPLICE_ROUNDS))
}

/// Bots whose tails [`splice`] tries: the best distinct styles found.
const SPLICE_TAILS: usize = 24;
/// Steps between the points [`splice`] cuts a route at: half a second.
const SPLICE_EVERY: usize = 30;
/// Rounds of [`splice`] at most.
const SPLICE_ROUNDS: usize = 8;

/// Shorten `run` step by step: cut each stretch of held keys (last first) by 8, 4, 2 or 1
/// steps, or drop a short one, keeping any cut that clears the room sooner; repeat while a pass
/// finds one, at most `passes` times.
fn shorten(
    play: &mut impl FnMut(&Driver, u64) -> Result<Run>,
    mut run: Run,
    passes: usize,
) -> Result<Run> {
    let Some(mut best) = run.room_time else {
        return Ok(run);
    };
    for _ in 0..passes {
        let mut better = false;
        // From the last stretch back: a cut moves only the stretches after it.
        for (start, len) in stretches(&run.inputs).into_iter().rev() {
            for cut in [len, 8, 4, 2, 1] {
                if cut > len || (cut == len && len > 30) {
                    continue;
                }
                let mut inputs: Vec<Input> = run.inputs.clone();
                inputs.drain(start..start + cut);
                let limit = run.cleared_at.unwrap_or(LIMIT) + 1;
                let tried = play(&Driver::Inputs(inputs), limit)?;
                if let Some(t) = tried.room_time.filter(|&t| t < best) {
                    best = t;
                    run = tried;
                    better = true;
                    break;
                }
            }
        }
        if !better {
            break;
        }
    }
    Ok(run)
}

/// Where the script at `path` came from, as its header says (`..., from SOURCE.`).
fn kept_source(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .find_map(|l| {
            l.split_once("), from ")
                .map(|(_, s)| s.trim_end_matches('.').to_owned())
        })
        .unwrap_or_else(|| "the kept script".to_owned())
}

/// The bot or script a route started from (its source without the detours and cuts).
fn origin(source: &str) -> &str {
    source.split(',').next().unwrap_or(source)
}

/// `(first step, steps)` of each stretch of equal inputs.
fn stretches(inputs: &[Input]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < inputs.len() {
        let len = inputs[i..].iter().take_while(|&&x| x == inputs[i]).count();
        out.push((i, len));
        i += len;
    }
    out
}
