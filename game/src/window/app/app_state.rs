//! Everything the running game holds between frames: [`App`], its mode, and its other fields
//! grouped by concern.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ecs::EventReader;

use super::audio::{Cues, Sounds};
use super::draw_probe::DrawCallProbe;
use super::keys::Command;
use super::mode::Mode;
use super::notices::Notices;
use super::render::Renderer;
use super::run_capture::RunCapture;
use super::run_config::Script;
use super::screens::Cleared;
use super::script_timing::ScriptTiming;
use crate::atlas::AtlasData;
use crate::campaign::Campaign;
use crate::campaign::medals::Par;
use crate::feel::Feel;
use crate::input::InputSource;
use crate::paths::DataDirs;
use crate::player_data::BestTimes;
use crate::player_data::progress::Progress;
use crate::player_data::settings::SettingsFile;
use crate::sim::game_events::{CrateBroken, CrateHit, KegExploded};
use crate::sim::{FixedStep, Sim};
use crate::window::debug::overlay::Overlay;
use crate::window::editor::{EventFeed, Session};
use crate::window::platform::Gamepads;
use crate::window::platform::{BackgroundLoader, LevelWatcher};
use crate::window::ui::Hud;

/// Everything the running game holds between frames.
pub(super) struct App {
    /// What the game shows and who takes the input.
    pub mode: Mode,
    /// A scripted run's end and report; `None` for a player.
    pub script: Option<Script>,
    /// What every game is built from.
    pub config: Config,
    /// The level file the game is on, and the game running on it.
    pub run: Run,
    /// The editor's session on the level, kept across modes.
    pub edits: Edits,
    /// The campaign, the player's records and settings.
    pub records: Records,
    /// Hot reload: the level file's watcher and the background loader.
    pub reload: HotReload,
    /// What draws the screen, and what it shows besides the world.
    pub drawing: Drawing,
    /// Frame counts and timings.
    pub frames: Frames,
    /// The game's feel and sound, driven by the simulation's events.
    pub juice: Juice,
    /// The window's input devices besides the keyboard.
    pub devices: Devices,
}

/// What every game is built from.
pub(super) struct Config {
    pub dirs: DataDirs,
    pub atlas: AtlasData,
    /// Seed of the simulation's randomness.
    pub seed: u64,
    /// Who plays.
    pub input: InputSource,
    /// The dirty optimization's setting for a level loaded when none is running.
    pub dirty_at_start: bool,
}

/// The level file the game is on, and the game running on it.
pub(super) struct Run {
    /// The level file.
    pub path: PathBuf,
    pub sim: Option<Sim>,
    /// The running level's name.
    pub name: String,
    /// The running level's par times.
    pub par: Option<Par>,
    /// The running level's one-line hint.
    pub hint: Option<String>,
    /// The last load error, shown until a good version of the level loads.
    pub error: Option<String>,
    /// The room-cleared screen, once the room is.
    pub cleared: Option<Cleared>,
    /// Wall time to steps.
    pub fixed: FixedStep,
    /// The running game is a playtest of edits not saved yet: it is not recorded and sets no
    /// best time.
    pub playtest_unsaved: bool,
    /// The running game's recording.
    pub recording: RunCapture,
    /// The recorded run raced beside it, if the settings ask for one.
    pub ghost: Option<super::ghost::Ghost>,
}

/// The editor's session on the level.
pub(super) struct Edits {
    /// The level being edited, kept between edit mode and playtests (E) until another level
    /// is opened.
    pub session: Option<Session>,
    /// A command that discards unsaved edits (N, B, T, closing the window) was asked once:
    /// the same again goes ahead.
    pub discard_armed: Option<Command>,
}

/// The campaign, the player's records and settings.
pub(super) struct Records {
    /// The levels folder's levels in play order.
    pub levels: Vec<PathBuf>,
    /// The order of the levels and which are open.
    pub campaign: Campaign,
    /// The levels cleared at least once.
    pub progress: Progress,
    pub best: BestTimes,
    /// The player's settings, and the file that keeps them.
    pub settings: SettingsFile,
    /// Campaign levels that cannot be played, by file name, and why: missing from the folder,
    /// or not loading. Like a cleared level, none locks the levels after it.
    pub unplayable: BTreeMap<String, Unplayable>,
}

/// Why a level listed in the campaign cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unplayable {
    /// No such file in the levels folder.
    Missing,
    /// The file is there but does not load (the game shows why when it is opened).
    DoesNotLoad,
}

impl Unplayable {
    /// What it is, after the level's name.
    pub fn verb(self) -> &'static str {
        match self {
            Unplayable::Missing => "is missing",
            Unplayable::DoesNotLoad => "does not load",
        }
    }

    /// The word the title shows in the level's row.
    pub fn label(self) -> &'static str {
        match self {
            Unplayable::Missing => "missing",
            Unplayable::DoesNotLoad => "does not load",
        }
    }
}

/// Hot reload: the level file's watcher and the background loader.
pub(super) struct HotReload {
    pub watcher: Option<LevelWatcher>,
    /// Why there is no watcher.
    pub watch_error: Option<String>,
    /// Parses saved levels off the frame thread (`None` if its thread could not start: then
    /// hot reload loads on the frame thread).
    pub loader: Option<BackgroundLoader>,
    /// Saves swapped in by hot reload (for the scripted report).
    pub reloads: u32,
}

/// What draws the screen, and what it shows besides the world.
pub(super) struct Drawing {
    pub renderer: Renderer,
    pub overlay: Overlay,
    pub hud: Hud,
    pub notices: Notices,
    /// Whether the window was last asked to be fullscreen.
    pub fullscreen: bool,
    /// The level's hint box as last drawn, while it shows (for the scripted report).
    pub hint: Option<macroquad::prelude::Rect>,
    /// The HUD bar's items as last drawn (for the scripted report).
    pub bar: Vec<super::screens::BarItem>,
}

/// Frame counts and timings.
#[derive(Debug, Default)]
pub(super) struct Frames {
    /// Frames drawn.
    pub frame: u64,
    /// Simulation steps run.
    pub steps: u64,
    /// Frames per second, smoothed.
    pub fps: f32,
    pub probe: DrawCallProbe,
    /// CPU time per frame, for the scripted report.
    pub times: ScriptTiming,
}

/// The game's feel and sound, driven by the simulation's events.
pub(super) struct Juice {
    pub feel: Feel,
    pub sounds: Sounds,
    pub cues: Cues,
    pub hits: EventReader<CrateHit>,
    pub breaks: EventReader<CrateBroken>,
    pub blasts: EventReader<KegExploded>,
    /// Blasts whose ring of reach is still spreading: their centre in world pixels and the
    /// frame they went off on.
    pub rings: Vec<(f32, f32, u64)>,
}

impl Juice {
    /// A new game starts: its events are read from the beginning.
    pub fn new_run(&mut self) {
        self.hits = EventReader::default();
        self.breaks = EventReader::default();
        self.blasts = EventReader::default();
        self.rings.clear();
    }
}

/// The window's input devices besides the keyboard.
pub(super) struct Devices {
    /// The window's input events, in order, for the editor and the new-level form.
    pub feed: EventFeed,
    /// Gamepads, when the backend started.
    pub pads: Gamepads,
}

impl Records {
    /// Whether the level file `file` has been cleared (a best time counts: it was).
    pub fn is_cleared(&self, file: &str) -> bool {
        self.progress.is_cleared(file) || self.best.best(file).is_some()
    }

    /// Whether the campaign lets `file` be played.
    pub fn is_open(&self, file: &str) -> bool {
        self.campaign.is_open(
            file,
            |f| self.is_cleared(f),
            |f| self.unplayable.contains_key(f),
        )
    }
}
