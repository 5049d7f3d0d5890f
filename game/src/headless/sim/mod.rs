//! The crate room simulation: components, systems and their schedule, headless and
//! deterministic. Nothing here touches the window library; input arrives as the [`Input`] resource.

pub mod components;
pub mod game_events;
mod hashed;
pub mod resources;
mod schedule;
mod setup;
pub mod spatial_hash;
pub mod state_hash;
pub(crate) mod systems;
pub mod tuning;
mod wreck;

use std::path::Path;

use ecs::World;

pub use resources::{Camera, ClipError, Clips, GameState, Input, RoleClips, STEPS_PER_SECOND};
pub use spatial_hash::{Aabb, SpatialHash};
pub use tuning::TILE;
pub use wreck::directions_hash;

use crate::atlas::AtlasData;
use crate::level::{self, Level, LevelError};

/// Anything that stops a level file from becoming a running simulation.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The level file is missing or invalid.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// The atlas lacks a clip the game needs, or has one that cannot be played.
    #[error(transparent)]
    Clips(#[from] ClipError),
}

/// A running crate room: the world with every system scheduled, built from a level.
#[derive(Debug)]
pub struct Sim {
    world: World,
    bot: ecs::SystemId,
    debug_stats: ecs::SystemId,
}

impl Sim {
    /// Load and validate the level at `path` against `atlas`, and build its simulation: how the
    /// window, `crate-room sim` and the tests start a game.
    ///
    /// # Errors
    /// A [`LoadError`] saying what to fix: the level file, or the atlas's clips.
    pub fn load(path: &Path, atlas: &AtlasData, seed: u64) -> Result<(Level, Self), LoadError> {
        puffin::profile_scope!("load_level");
        let level = level::load(path, &atlas.crate_skins())?;
        let sim = Self::new(&level, atlas, seed)?;
        Ok((level, sim))
    }

    /// Build the world for `level`, with clips resolved from `atlas` and randomness from `seed`.
    ///
    /// # Errors
    /// If the atlas lacks a clip the rules need, or has a clip that cannot be played.
    pub fn new(level: &Level, atlas: &AtlasData, seed: u64) -> Result<Self, ClipError> {
        let clips = Clips::from_atlas(atlas)?;
        let role = RoleClips::resolve(&clips)?;
        let mut world = World::new();
        setup::insert_resources(&mut world, level, clips, role, seed);
        let ids = schedule::add_systems(&mut world);
        setup::spawn_level(&mut world, level);
        world.set_enabled(ids.bot, false);
        Ok(Self {
            world,
            bot: ids.bot,
            debug_stats: ids.debug_stats,
        })
    }

    /// Advance one fixed step with `input` (ignored while the bot plays).
    pub fn step(&mut self, input: Input) {
        self.begin_step(input);
        self.world.update();
    }

    /// [`Sim::step`], calling `after` with the world and the system's name after each system of
    /// the schedule (deep replay verification compares states there).
    pub fn step_observed(
        &mut self,
        input: Input,
        after: &mut dyn FnMut(&ecs::World, &'static str),
    ) {
        self.begin_step(input);
        self.world.update_observed(after);
    }

    /// What a step does before its systems: the input in (unless the bot plays), the counter.
    fn begin_step(&mut self, input: Input) {
        if !self.world.is_enabled(self.bot) {
            *self.world.resource_mut::<Input>() = input;
        }
        self.world.resource_mut::<GameState>().step += 1;
    }

    /// Let the scripted bot produce the input (for `--input bot`, demos and tests).
    pub fn set_bot(&mut self, on: bool) {
        self.world.set_enabled(self.bot, on);
    }

    /// Run the debug systems (`debug_stats`, the counts the stats panel shows) in each step
    /// (the default) or not: a run with no panel to show them skips their work.
    pub fn set_debug_systems(&mut self, on: bool) {
        self.world.set_enabled(self.debug_stats, on);
    }

    /// Whether the debug systems run in each step ([`Sim::set_debug_systems`]).
    pub fn debug_systems(&self) -> bool {
        self.world.is_enabled(self.debug_stats)
    }

    /// Whether the scripted bot produces the input.
    pub fn bot_enabled(&self) -> bool {
        self.world.is_enabled(self.bot)
    }

    /// Turn the dirty-component optimization on (default) or off. Results are identical
    /// either way; only the cost differs.
    pub fn set_dirty_optimization(&mut self, on: bool) {
        self.world.set_change_tracking(on);
    }

    /// Whether the dirty-component optimization is on.
    pub fn dirty_optimization(&self) -> bool {
        self.world.change_tracking()
    }

    /// The world, for rendering, debug views and tests.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, mutably (tests, the window's camera size).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Score, crate counts and step counter.
    pub fn state(&self) -> GameState {
        *self.world.resource::<GameState>()
    }

    /// Hash of the whole simulation state; equal hashes mean equal games. The camera, which the
    /// window sizes to itself, is left out: a run hashes the same headless and in any window.
    pub fn state_hash(&self) -> u64 {
        state_hash::hash_world(&self.world)
    }

    /// The replay checkpoint hash ([`state_hash::checkpoint_hash`]): the game's state without
    /// the camera (which follows the window's size) and without what is derived from the
    /// entities, its entity part kept up to date by the `checkpoint` system, so taking it at a
    /// checkpoint step costs O(1) however large the world (between them, what changed since
    /// the last). Equal for a run in any window and re-simulated headless.
    pub fn checkpoint_hash(&self) -> u64 {
        state_hash::checkpoint_hash(&self.world)
    }
}

/// Fixed-step accumulator: turns frame times into a whole number of simulation steps.
#[derive(Clone, Copy, Debug, Default)]
pub struct FixedStep {
    accumulated: f64,
}

impl FixedStep {
    /// Longest frame time that is simulated: a stall longer than this (a debugger, a dragged
    /// window) is dropped instead of being caught up, so the game cannot spiral into ever
    /// longer frames. 0.25 s = at most 15 steps per frame.
    pub const MAX_FRAME: f64 = 0.25;

    /// Add `dt` seconds; returns how many steps to run now.
    pub fn advance(&mut self, dt: f64) -> u32 {
        let step = 1.0 / f64::from(STEPS_PER_SECOND);
        self.accumulated += dt.clamp(0.0, Self::MAX_FRAME);
        let steps = (self.accumulated / step).floor();
        self.accumulated -= steps * step;
        steps as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_step_runs_one_step_per_sixtieth_and_clamps_stalls() {
        let mut fs = FixedStep::default();
        assert_eq!(fs.advance(1.0 / 60.0 + 1e-9), 1);
        assert_eq!(fs.advance(0.5 / 60.0), 0);
        assert_eq!(fs.advance(0.5 / 60.0), 1);
        assert_eq!(
            fs.advance(10.0),
            15,
            "a 10 s stall runs at most 0.25 s of steps"
        );
    }
}
