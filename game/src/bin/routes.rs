//! `crate-room-routes`: the campaign's author routes, searched for and measured.
//!
//! - `search [LEVEL ...]` plays each level with many bots (the built-in one and others with
//!   other walk weights, coin worths, blast rules and jittered target orders), plus the route
//!   kept in `levels/gold/LEVEL.input` if there is one; then, from the best few bots, takes
//!   detours from their greedy order (at one plan after another, the second-best target
//!   instead of the best, kept while the clear gets faster); then shortens the best few routes
//!   step by step (each stretch of held keys cut while the clear gets faster), and prints the
//!   best, the runner-up and the built-in bot's time. `--write` keeps the best as
//!   `levels/gold/LEVEL.input` when it beats the built-in bot (else removes the file, so
//!   `tools/record_gold.sh` plays the bot).
//! - `pace [LEVEL ...]` plays each level's author route (the script, else the built-in bot) and
//!   prints its time and its longest stretch with nothing new ([`game::route::Pacing`]).
//!
//! Run from the repository's root; with no level named, every level of `levels/campaign.txt`.

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
            for flee_blasts in [true, false] {
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
                        flee_blasts,
                        jitter,
                        seed,
                        ..BotStyle::default()
                    };
                    let run = play(&Driver::Bot(style), LIMIT)?;
                    if run.room_time.is_some() {
                        found.push(Found {
                            source: format!(
                                "bot walk {walk_weight} coin {coin_scale} flee {flee_blasts} jitter {jitter} seed {seed}"
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
    // Shorten the best few.
    let mut polished: Vec<Found> = Vec::new();
    for f in found.iter().take(polish) {
        let run = shorten(&mut play, f.run.clone())?;
        polished.push(Found {
            source: format!("{}, shortened", f.source),
            style: None,
            run,
        });
    }
    found.extend(polished);
    found.sort_by_key(|f| (f.time(), f.source.clone()));
    let best = &found[0];
    let runner = found
        .iter()
        .find(|f| f.run.inputs != best.run.inputs)
        .map_or("none".to_owned(), |f| {
            format!("{} ({})", time(&f.run), f.source)
        });
    println!(
        "{name:<14} routes {:5} ({searched} bots and scripts, {detour_tries} with detours, {} shortened)\n  best      {}; {})\n  runner-up {runner}\n  built-in bot {})",
        tries.get(),
        tries.get() - searched - detour_tries,
        time_in_full(&best.run),
        best.source,
        time_in_full(&bot),
    );
    if write {
        let path = script_path(name);
        if best.time() < bot.room_time.unwrap_or(u64::MAX) {
            let header = format!(
                "The author route through levels/{name}.ron, found by `crate-room-routes search`:\n\
                 {} (the built-in bot: {}), from {}.\n\
                 The keys held step by step (STEPS [KEY ...] a line, as `--input script:FILE` reads them).",
                time(&best.run).trim(),
                time(&bot).trim(),
                best.source
            );
            std::fs::write(&path, route::script_text(&header, &best.run.inputs))
                .with_context(|| path.display().to_string())?;
        } else if path.exists() {
            std::fs::remove_file(&path).with_context(|| path.display().to_string())?;
        }
    }
    Ok(())
}

/// Add detours to `style`'s route one at a time: at each free slot, the plan at which taking
/// the second-best choice clears the room soonest, while one does. Gives the style, its run
/// and the detours added.
fn detour(
    play: &mut impl FnMut(&Driver, u64) -> Result<Run>,
    mut style: BotStyle,
    mut run: Run,
) -> Result<(BotStyle, Run, usize)> {
    let Some(mut best) = run.room_time else {
        return Ok((style, run, 0));
    };
    let free = style.second_best_at.iter().filter(|&&at| at == 0).count();
    for added in 0..free {
        let slot = style
            .second_best_at
            .iter()
            .position(|&at| at == 0)
            .unwrap_or(0);
        let mut found: Option<(BotStyle, Run)> = None;
        for at in 1..=run.plans {
            if style.second_best_at.contains(&at) {
                continue;
            }
            let mut tried = style;
            tried.second_best_at[slot] = at;
            let limit = run.cleared_at.unwrap_or(LIMIT) + 1;
            let tried_run = play(&Driver::Bot(tried), limit)?;
            if let Some(t) = tried_run.room_time.filter(|&t| t < best) {
                best = t;
                found = Some((tried, tried_run));
            }
        }
        match found {
            Some((s, r)) => {
                style = s;
                run = r;
            }
            None => return Ok((style, run, added)),
        }
    }
    Ok((style, run, free))
}

/// Shorten `run` step by step: cut each stretch of held keys (last first) by 8, 4, 2 or 1
/// steps, or drop a short one, keeping any cut that clears the room sooner; repeat while a pass
/// finds one, at most `PASSES` times.
fn shorten(play: &mut impl FnMut(&Driver, u64) -> Result<Run>, mut run: Run) -> Result<Run> {
    const PASSES: usize = 3;
    let Some(mut best) = run.room_time else {
        return Ok(run);
    };
    for _ in 0..PASSES {
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
