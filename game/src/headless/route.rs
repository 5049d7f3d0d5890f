//! Routes through a level, played and measured: a run by the bot (in any [`BotStyle`]) or by
//! a list of inputs, its clear time, its inputs as an input script, and its **pacing**: the
//! longest stretch of the room's clock in which nothing new happens.
//!
//! Something new is a keg lit or going off, a coin picked up, a burn, or a swing at a crate of
//! a strength (hits to break) no earlier swing of the run met. Between two of those the player
//! walks and hammers crates of strengths already met: one action. The campaign keeps that
//! stretch to about ten seconds in every level's author run (`crate-room-routes pace`, and the
//! `level_pacing` test).

use std::collections::BTreeMap;
use std::fmt;

use ecs::EventReader;

use crate::atlas::AtlasData;
use crate::input::InputScript;
use crate::level::Level;
use crate::sim::components::{Crate, Keg};
use crate::sim::game_events::{CoinCollected, CrateHit, KegExploded};
use crate::sim::resources::{BotPlan, BotStyle, ClipError};
use crate::sim::{Input, STEPS_PER_SECOND, Sim};

/// Who plays a route.
#[derive(Clone, Debug)]
pub enum Driver {
    /// The bot, weighing its choices by the style.
    Bot(BotStyle),
    /// These inputs, one a step from the first; nothing after the last.
    Inputs(Vec<Input>),
    /// These inputs, then the bot in this style from where they leave the player (a route's
    /// head spliced to another bot's tail).
    Then(Vec<Input>, BotStyle),
}

impl Driver {
    /// The inputs of an input script, one a step.
    pub fn from_script(script: &InputScript) -> Self {
        Self::Inputs(
            (0..script.len())
                .map(|step| script.input_at(step))
                .collect(),
        )
    }
}

/// A route played to its end.
#[derive(Clone, Debug)]
pub struct Run {
    /// The input of every step played, to the clear (or the step limit).
    pub inputs: Vec<Input>,
    /// The step the last crate broke on, if it did.
    pub cleared_at: Option<u64>,
    /// The room's time in steps, if cleared (what par times count).
    pub room_time: Option<u64>,
    /// Burns taken.
    pub burns: u32,
    /// Coins picked up.
    pub coins: u32,
    /// The longest stretch with nothing new ([`Pacing`]).
    pub longest: Stretch,
    /// Plans the bot made (0 for inputs): the numbers [`BotStyle::second_best_at`] counts.
    pub plans: u32,
}

/// Play `level` with `driver` until the room is cleared or `limit` steps have run.
///
/// # Errors
/// If the atlas lacks a clip the rules need.
pub fn play(
    level: &Level,
    atlas: &AtlasData,
    seed: u64,
    driver: &Driver,
    limit: u64,
) -> Result<Run, ClipError> {
    let mut sim = Sim::new(level, atlas, seed)?;
    sim.set_debug_systems(false);
    if let Driver::Bot(style) = driver {
        sim.set_bot(true);
        sim.world_mut().resource_mut::<BotPlan>().style = *style;
    }
    let mut pacing = Pacing::default();
    let mut inputs = Vec::new();
    for step in 0..limit {
        let input = match driver {
            Driver::Bot(_) => Input::default(),
            Driver::Inputs(list) => list.get(step as usize).copied().unwrap_or_default(),
            Driver::Then(list, style) => match list.get(step as usize) {
                Some(&input) => input,
                None => {
                    if !sim.bot_enabled() {
                        sim.set_bot(true);
                        sim.world_mut().resource_mut::<BotPlan>().style = *style;
                    }
                    Input::default()
                }
            },
        };
        sim.step(input);
        // What the step ran on: the bot writes it during the step.
        inputs.push(*sim.world().resource::<Input>());
        pacing.observe(&sim);
        if sim.state().cleared_at.is_some() {
            break;
        }
    }
    let state = sim.state();
    Ok(Run {
        inputs,
        cleared_at: state.cleared_at,
        room_time: state.room_time(),
        burns: state.burns,
        coins: state.score,
        longest: pacing.longest(),
        plans: sim.world().resource::<BotPlan>().plans,
    })
}

/// A stretch of the room's clock, in steps, and the hits on crates it held, by strength.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stretch {
    /// First step (the clock's start, or the step of something new).
    pub from: u64,
    /// Last step (the next new thing, or the clear).
    pub to: u64,
    /// Swings' hits in it: `strength -> hits`.
    pub hits: BTreeMap<u32, u32>,
}

impl Stretch {
    /// Its length in steps.
    pub fn steps(&self) -> u64 {
        self.to - self.from
    }
}

impl fmt::Display for Stretch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = |s: u64| s as f64 / f64::from(STEPS_PER_SECOND);
        write!(
            f,
            "{:5.2} s (at {:.2}-{:.2} s):",
            secs(self.steps()),
            secs(self.from),
            secs(self.to)
        )?;
        if self.hits.is_empty() {
            return f.write_str(" walking");
        }
        for (i, (strength, hits)) in self.hits.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep} {hits} hits on {strength}-hit crates")?;
        }
        Ok(())
    }
}

/// Watches a run step by step for the longest stretch with nothing new: call
/// [`Pacing::observe`] after every step, then [`Pacing::longest`].
#[derive(Debug, Default)]
pub struct Pacing {
    hits: EventReader<CrateHit>,
    blasts: EventReader<KegExploded>,
    coins: EventReader<CoinCollected>,
    burns: u32,
    /// Strengths a swing has met.
    met: Vec<u32>,
    /// The stretch going on (from the clock's start or the last new thing), once the clock runs.
    current: Option<Stretch>,
    longest: Stretch,
    done: bool,
}

impl Pacing {
    /// Take in the step `sim` just ran.
    pub fn observe(&mut self, sim: &Sim) {
        let world = sim.world();
        let state = sim.state();
        let mut new = self.blasts.read(world).count() > 0;
        new |= self.coins.read(world).count() > 0;
        new |= state.burns > self.burns;
        self.burns = state.burns;
        let mut hits = Vec::new();
        for hit in self.hits.read(world) {
            if world.has::<Keg>(hit.target) {
                new = true;
            } else if let Some(c) = world.get::<Crate>(hit.target) {
                hits.push(c.max_health);
            }
        }
        if self.done {
            return;
        }
        let Some(started) = state.started_at else {
            return;
        };
        let current = self.current.get_or_insert_with(|| Stretch {
            from: started,
            to: started,
            hits: BTreeMap::new(),
        });
        for strength in hits {
            if !self.met.contains(&strength) {
                self.met.push(strength);
                new = true;
            }
            *current.hits.entry(strength).or_default() += 1;
        }
        let step = state.cleared_at.unwrap_or(state.step);
        if new || state.cleared_at.is_some() {
            current.to = step;
            let ended = std::mem::replace(
                current,
                Stretch {
                    from: step,
                    to: step,
                    hits: BTreeMap::new(),
                },
            );
            if ended.steps() > self.longest.steps() {
                self.longest = ended;
            }
        }
        self.done = state.cleared_at.is_some();
    }

    /// The longest stretch with nothing new so far (the one going on counts to now).
    pub fn longest(&self) -> Stretch {
        match &self.current {
            Some(c) if !self.done && c.steps() > self.longest.steps() => c.clone(),
            _ => self.longest.clone(),
        }
    }
}

/// `inputs` as an input script: one `STEPS [KEY ...]` line per stretch of equal inputs, after
/// the `# ` comment lines of `header`.
pub fn script_text(header: &str, inputs: &[Input]) -> String {
    let mut out = String::new();
    for line in header.lines() {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    let mut i = 0;
    while i < inputs.len() {
        let input = inputs[i];
        let run = inputs[i..].iter().take_while(|&&x| x == input).count();
        out.push_str(&run.to_string());
        for (on, key) in [
            (input.move_y < 0, "up"),
            (input.move_y > 0, "down"),
            (input.move_x < 0, "left"),
            (input.move_x > 0, "right"),
            (input.attack, "attack"),
        ] {
            if on {
                out.push(' ');
                out.push_str(key);
            }
        }
        out.push('\n');
        i += run;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_written_from_inputs_reads_back_as_the_same_inputs() {
        let held = |move_x, move_y, attack| Input {
            move_x,
            move_y,
            attack,
        };
        let inputs = [
            held(0, -1, false),
            held(0, -1, false),
            held(1, 1, true),
            held(0, 0, false),
            held(-1, 0, false),
        ];
        let text = script_text("a route", &inputs);
        assert!(
            text.starts_with("# a route\n2 up\n1 down right attack\n"),
            "{text}"
        );
        let script = InputScript::parse(&text).unwrap();
        let back: Vec<Input> = (0..script.len()).map(|s| script.input_at(s)).collect();
        assert_eq!(back, inputs);
    }
}
