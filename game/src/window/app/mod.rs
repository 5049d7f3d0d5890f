//! The windowed game: the frame loop (input -> fixed-step update -> draw), game flow (title,
//! pause, restart, levels, room cleared, best times), hot reload and the scripted screenshot
//! mode. The window side is this module with [`crate::window::debug`], [`crate::window::ui`] and
//! [`crate::window::egui_bridge`]; the simulation never sees macroquad.

pub mod audio;
pub mod frame_times;
pub mod gamepad;
pub mod keys;
pub mod playback;
pub mod recording;
pub mod render;
pub mod screens;
pub mod screenshot;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use ecs::EventReader;
use macroquad::prelude::*;
use serde::Serialize;

use crate::atlas::{AtlasData, AtlasError};
use crate::campaign::Campaign;
use crate::campaign::medals::Par;
use crate::feel::{Feel, FeelSettings};
use crate::game_data::{GameData, GameDataError};
use crate::input::InputSource;
use crate::input::menu::{MenuInput, MenuOutcome, SettingsMenu, SettingsRow};
use crate::input::pad::PadFrame;
use crate::level::Level;
use crate::level::watch::{BackgroundLoader, LevelWatcher};
use crate::paths::{DataDirs, DataDirsError};
use crate::records::progress::Progress;
use crate::records::settings::{Overrides, Settings, SettingsFile};
use crate::records::{self, BestTimes};
use crate::replay;
use crate::sim::components::{Player, Position};
use crate::sim::game_events::{CrateBroken, CrateHit, KegExploded};
use crate::sim::{FixedStep, Sim};
use crate::window::debug::overlay::{FrameCost, Overlay};
use crate::window::debug::views::{View, Views};
use crate::window::editor::{self, edit_form};
use crate::window::ui::{Hud, ink};
use audio::{AudioThread, Cues, Sounds};
pub use editor::EditStart;
use editor::{EditEvent, EditorReport, EventFeed, Outcome, Session};
use frame_times::{CpuTimes, FrameTimes};
use gamepad::Gamepads;
use keys::Command;
use playback::{Playback, PlaybackCommand};
use recording::Recording;
use render::{Renderer, TextureError};
use screens::{Cleared, HUD_BAR, TitleEntry};

/// Options of a windowed run.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Level to start with; without one the game opens on the title screen.
    pub level: Option<PathBuf>,
    /// Start in the editor on this level (`--edit`) instead.
    pub edit: Option<EditStart>,
    /// Seed of the simulation's randomness.
    pub seed: u64,
    /// Who plays.
    pub input: InputSource,
    /// Scripted mode: run exactly this many frames (at most one step each), then exit.
    pub frames: Option<u64>,
    /// Scripted mode: write the last frame here as a PNG.
    pub screenshot: Option<PathBuf>,
    /// Debug views on at start.
    pub debug: Views,
    /// Serve puffin profiles on this address (for `puffin_viewer`).
    pub puffin_server: Option<String>,
    /// Settings the command line changes for this run (the settings file keeps the rest).
    pub overrides: Overrides,
    /// Start with the dirty-component optimization on (F7 toggles it).
    pub dirty: bool,
    /// Write the current run's replay here (`--record`): every checkpoint, when the room is
    /// cleared and when the game ends.
    pub record: Option<PathBuf>,
}

/// What a scripted run prints when it ends (one JSON object).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ScriptReport {
    /// The screen at the end: `title`, `settings`, `playing` or `editing`.
    pub showing: &'static str,
    /// The gamepads: connected, none, or why the backend is off.
    pub gamepad: String,
    /// Whether the window was asked to be fullscreen.
    pub fullscreen: bool,
    /// The settings as the settings file keeps them when the run ends (a command-line flag
    /// changes the run, not these).
    pub settings: Settings,
    /// On the title screen: each level as listed.
    pub title: Option<Vec<TitleRow>>,
    /// On the room-cleared screen: the time, medal and what the clear opened.
    pub cleared: Option<ClearedRow>,
    /// Frames drawn.
    pub frames: u64,
    /// Simulation steps run (fewer than frames while hit-stop held the game).
    pub steps: u64,
    /// The level's name.
    pub level: String,
    /// Crates the level started with.
    pub crates_total: u32,
    /// Crates left at the end.
    pub crates_left: u32,
    /// Coins collected.
    pub score: u32,
    /// Draw calls of the world pass, as measured on the last frames.
    pub world_draw_calls: Option<usize>,
    /// Quads of the last world pass.
    pub world_quads: usize,
    /// Screen size in pixels.
    pub screen: [f32; 2],
    /// What the screen showed, in world pixels: `[min_x, min_y, max_x, max_y]`. Tests map level
    /// cells to screen pixels with it.
    pub view: [f32; 4],
    /// Screen pixels per world pixel.
    pub scale: f32,
    /// Saves of the level file swapped in by hot reload.
    pub reloads: u32,
    /// The editor, if a level was being edited (in edit mode or not): its view, cursor and
    /// state. While `showing` is `editing`, `view` and `scale` above are the editor's too.
    pub editor: Option<EditorReport>,
    /// CPU time per frame, update and render: medians, 99th percentiles and maxima in
    /// microseconds (`frame_us_median`, `update_us_p99`, `render_us_max`, ...), at the top level
    /// of the JSON.
    #[serde(flatten)]
    pub cpu: CpuTimes,
}

/// A level as the title screen lists it, in the scripted report.
#[derive(Clone, Debug, Serialize)]
pub struct TitleRow {
    /// The level file's name.
    pub file: String,
    /// Whether it can be played.
    pub open: bool,
    /// Its best time in steps.
    pub best: Option<u64>,
    /// The medal of its best time.
    pub medal: Option<&'static str>,
}

/// The room-cleared screen, in the scripted report.
#[derive(Clone, Debug, Serialize)]
pub struct ClearedRow {
    /// The run's time in steps.
    pub time: u64,
    /// The medal it won.
    pub medal: Option<&'static str>,
    /// The level the clear opened.
    pub unlocked: Option<String>,
}

/// What stops the window before or during a run.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// `assets/` and `levels/` are nowhere to be found.
    #[error(transparent)]
    DataDirs(#[from] DataDirsError),
    /// The atlas's frame table or image is missing or invalid.
    #[error(transparent)]
    Atlas(#[from] AtlasError),
    /// The atlas image is too large for a texture.
    #[error(transparent)]
    Texture(#[from] TextureError),
    /// The profile server could not start.
    #[error("{0}")]
    Profiler(String),
    /// A scripted run's level did not load (a window player sees the error on screen instead).
    #[error("{0}")]
    Level(String),
    /// The screenshot could not be written.
    #[error("screenshot not saved: {0}")]
    Screenshot(crate::fsutil::WriteError),
    /// A scripted run's `--record` file could not be written.
    #[error("{0}")]
    Record(String),
}

impl From<GameDataError> for AppError {
    /// The window says the cause alone: it has no subcommand's context to add.
    fn from(error: GameDataError) -> Self {
        match error {
            GameDataError::Dirs(e) => Self::DataDirs(e),
            GameDataError::Atlas(e) => Self::Atlas(e),
        }
    }
}

/// Which screen the game is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Screen {
    /// The level list; `selected` is an index into `App::levels`.
    Title { selected: usize },
    /// Playing (or paused, or cleared) the loaded level.
    Playing,
    /// The settings, over the title (`title: Some(selected)`) or the paused game (`None`).
    Settings {
        menu: SettingsMenu,
        title: Option<usize>,
    },
}

/// A line of news shown under the HUD bar for a while.
#[derive(Debug)]
struct Notice {
    text: String,
    color: Color,
    until_frame: u64,
}

/// How long a notice stays: two seconds at 60 frames per second.
const NOTICE_FRAMES: u64 = 120;

/// Everything the running game holds between frames.
struct App {
    dirs: DataDirs,
    atlas: AtlasData,
    renderer: Renderer,
    seed: u64,
    input: InputSource,
    scripted: bool,
    screen: Screen,
    levels: Vec<PathBuf>,
    level_path: PathBuf,
    sim: Option<Sim>,
    level_name: String,
    /// The running level's par times.
    par: Option<Par>,
    /// The order of the levels and which are open.
    campaign: Campaign,
    /// The levels cleared at least once.
    progress: Progress,
    /// The title screen's rows, read when it opens.
    title_entries: Vec<TitleEntry>,
    /// The player's settings, and the file that keeps them.
    settings: SettingsFile,
    /// The last load error, shown until a good version of the level loads.
    error: Option<String>,
    watcher: Option<LevelWatcher>,
    /// Why there is no watcher.
    watch_error: Option<String>,
    /// Parses saved levels off the frame thread (`None` if its thread could not start: then
    /// hot reload loads on the frame thread).
    loader: Option<BackgroundLoader>,
    fixed: FixedStep,
    paused: bool,
    overlay: Overlay,
    hud: Hud,
    frame: u64,
    steps: u64,
    fps: f32,
    probe: DrawCallProbe,
    best: BestTimes,
    cleared: Option<Cleared>,
    notices: Vec<Notice>,
    /// Saves swapped in by hot reload (for the scripted report).
    reloads: u32,
    feel: Feel,
    hits: EventReader<CrateHit>,
    breaks: EventReader<CrateBroken>,
    blasts: EventReader<KegExploded>,
    sounds: Sounds,
    cues: Cues,
    /// The dirty optimization's setting for a level loaded when none is running.
    dirty_at_start: bool,
    recording: Recording,
    /// Watching a replay: its speed and end.
    playback: Option<Playback>,
    /// The level being edited, kept between edit mode and playtests (E) until another level
    /// is opened.
    session: Option<Session>,
    /// In edit mode: the simulation stands still, the editor takes the input and the screen.
    editing: bool,
    /// The window's input events, in order, for the editor.
    feed: EventFeed,
    /// The running game is a playtest of edits not saved yet: it is not recorded and sets no
    /// best time.
    playtest_unsaved: bool,
    /// A command that discards unsaved edits (N, B, T, closing the window) was asked once:
    /// the same again goes ahead.
    discard_armed: Option<Command>,
    /// CPU time per frame, for the scripted report.
    times: FrameTimes,
    /// The title screen's "new level" form (N), while it is open.
    new_level: Option<edit_form::Form>,
    /// Whether the window was last asked to be fullscreen.
    fullscreen: bool,
    /// Gamepads, when the backend started.
    pads: Gamepads,
}

/// Counts the world pass's draw calls with macroquad's own telemetry: a capture is requested,
/// the next frame's draw calls are recorded until the world pass ends, and the count is read
/// the frame after.
#[derive(Debug, Default)]
struct DrawCallProbe {
    requested_at: Option<u64>,
    world_draw_calls: Option<usize>,
}

impl DrawCallProbe {
    fn begin_frame(&mut self, frame: u64, want: bool) {
        match self.requested_at {
            Some(at) if frame >= at + 2 => {
                self.world_draw_calls = Some(macroquad::telemetry::drawcalls().len());
                self.requested_at = None;
            }
            Some(_) => {}
            None if want => {
                macroquad::telemetry::capture_frame();
                self.requested_at = Some(frame);
            }
            None => {}
        }
    }

    /// Call right after the world pass: stops recording, so HUD and overlay calls are not counted.
    fn end_world_pass(&self) {
        macroquad::telemetry::pause_gl_capture();
    }
}

impl App {
    fn new(
        dirs: DataDirs,
        atlas: AtlasData,
        mut renderer: Renderer,
        overlay: Overlay,
        sounds: Sounds,
        opts: &PlayOptions,
    ) -> Self {
        let (campaign, campaign_problem) = Campaign::load(&dirs.levels);
        let levels = campaign.order(&dirs.level_files());
        let scripted = opts.frames.is_some();
        renderer.top_inset = HUD_BAR;
        // A scripted run (tests, CI, benchmarks) keeps best times only where it is told to, so it
        // never writes into a player's data directory.
        let (best, problem) = if scripted && records::env_data_dir().is_none() {
            (BestTimes::in_memory(), None)
        } else {
            BestTimes::open()
        };
        let (progress, progress_problem) = if scripted && records::env_data_dir().is_none() {
            (Progress::in_memory(), None)
        } else {
            Progress::open()
        };
        let (settings, settings_problem) = if scripted && records::env_data_dir().is_none() {
            (SettingsFile::in_memory(opts.overrides), None)
        } else {
            SettingsFile::open(opts.overrides)
        };
        // The title opens on the first level of the campaign until one is played.
        let default_level = levels
            .first()
            .cloned()
            .unwrap_or_else(|| dirs.levels.join("crate_room.ron"));
        let skins = atlas.crate_skins().into_iter().map(str::to_owned).collect();
        let (loader, loader_error) = match BackgroundLoader::new(skins) {
            Ok(loader) => (Some(loader), None),
            Err(e) => (None, Some(e)),
        };
        let mut app = Self {
            dirs,
            atlas,
            renderer,
            seed: opts.seed,
            input: opts.input.clone(),
            scripted,
            screen: Screen::Playing,
            levels,
            level_path: default_level,
            sim: None,
            level_name: String::new(),
            par: None,
            campaign,
            progress,
            title_entries: Vec::new(),
            settings,
            error: None,
            watcher: None,
            watch_error: None,
            loader,
            fixed: FixedStep::default(),
            paused: false,
            overlay,
            hud: Hud::default(),
            frame: 0,
            steps: 0,
            fps: 60.0,
            probe: DrawCallProbe::default(),
            best,
            cleared: None,
            notices: Vec::new(),
            reloads: 0,
            feel: Feel::new(FeelSettings::default()),
            hits: EventReader::default(),
            breaks: EventReader::default(),
            blasts: EventReader::default(),
            sounds,
            cues: Cues::default(),
            dirty_at_start: opts.dirty,
            recording: Recording::new(opts.record.clone()),
            playback: match &opts.input {
                InputSource::Replay(r) => Some(Playback::new(r.steps())),
                _ => None,
            },
            session: None,
            editing: false,
            feed: EventFeed::subscribe(),
            playtest_unsaved: false,
            discard_armed: None,
            times: FrameTimes::default(),
            new_level: None,
            // The window opens windowed (macroquad's `Conf` default).
            fullscreen: false,
            pads: Gamepads::start(),
        };
        if let Some(problem) = problem {
            app.warn(format!("best times: {problem}"));
        }
        // Without a data directory the best times said so already.
        let no_data_dir = records::Store::locate().is_err();
        if let Some(problem) = progress_problem.filter(|_| !no_data_dir) {
            app.warn(format!("progress: {problem}"));
        }
        if let Some(problem) = campaign_problem {
            app.warn(problem.to_string());
        }
        if let Some(problem) = settings_problem.filter(|_| !no_data_dir) {
            app.report_settings_problem(&problem);
        }
        app.apply_settings();
        // The title opens on the level played last.
        if let Some(last) = &app.settings.current().last_level {
            let path = app.dirs.levels.join(last);
            if path.is_file() {
                app.level_path = path;
            }
        }
        if let Some(e) = loader_error {
            app.notify(
                format!("cannot start the level loader thread ({e}): saves load in the frame"),
                ink::ERROR,
            );
        }
        match (&opts.level, &opts.edit) {
            (_, Some(start)) => app.open_editor(start),
            (Some(path), None) => app.open_level(path),
            (None, None) => app.open_title(),
        }
        app
    }

    /// Make the sound, the feel and the window follow the settings.
    fn apply_settings(&mut self) {
        let s = self.settings.current().clone();
        self.sounds.set_muted(!s.sound);
        self.sounds.set_volume(f32::from(s.volume) / 100.0);
        self.feel.set_settings(FeelSettings {
            shake: s.shake,
            hit_stop: s.hit_stop,
        });
        if self.fullscreen != s.fullscreen {
            self.fullscreen = s.fullscreen;
            set_fullscreen(s.fullscreen);
        }
    }

    /// The player changed a setting: apply it now and keep it in the settings file.
    fn change_settings(&mut self, edit: impl Fn(&mut Settings)) {
        if let Err(e) = self.settings.change(edit) {
            self.report_settings_problem(&e.to_string());
        }
        self.apply_settings();
    }

    /// A settings file that cannot be read or written: said once, on stderr and on screen.
    fn report_settings_problem(&mut self, problem: &str) {
        self.warn(format!("settings: {problem}"));
    }

    /// Show a failure on screen, and say it on stderr too: a long line is cut off on a small
    /// window, and a player who started the game from a terminal or a script reads it there.
    fn warn(&mut self, text: String) {
        // Not `eprintln!`, which panics when stderr cannot be written.
        let _ = writeln!(std::io::stderr(), "crate-room: {text}");
        self.notify(text, ink::ERROR);
    }

    fn notify(&mut self, text: String, color: Color) {
        self.notices.push(Notice {
            text,
            color,
            until_frame: self.frame + NOTICE_FRAMES,
        });
    }

    /// `--edit PATH`: the editor on `start.path` (a new level if there is no file), in edit
    /// mode, with the level playable behind it when it is valid.
    fn open_editor(&mut self, start: &EditStart) {
        match Session::open(&start.path, start.new_size, &self.atlas) {
            Ok(mut session) => {
                session.set_echo(self.scripted);
                self.watch(&start.path);
                self.level_path = start.path.clone();
                self.screen = Screen::Playing;
                self.session = Some(session);
                self.editing = true;
                self.reload();
                // A new level's problem (say, no player start yet) is the editor's to show.
                self.error = None;
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// E while playing: edit the running level (keeping the edits of an earlier visit).
    fn enter_editor(&mut self) {
        if self.playback.is_some() {
            return;
        }
        if self
            .session
            .as_ref()
            .is_none_or(|s| !same_file(s.path(), &self.level_path))
        {
            match Session::open(&self.level_path, editor::NEW_LEVEL_SIZE, &self.atlas) {
                Ok(mut session) => {
                    session.set_echo(self.scripted);
                    self.session = Some(session);
                }
                Err(e) => {
                    self.notify(format!("cannot edit: {}", editor::headline(&e)), ink::ERROR);
                    return;
                }
            }
        }
        if let Some(session) = &mut self.session {
            session.resume();
        }
        self.editing = true;
        self.cleared = None;
    }

    /// E in the editor: play the edited map from the start (saved or not). An invalid level
    /// stays in the editor, which shows why.
    fn leave_editor(&mut self) {
        let Some(session) = &mut self.session else {
            self.editing = false;
            return;
        };
        match session.level() {
            Ok(level) => match Sim::new(&level, &self.atlas, self.seed) {
                Ok(sim) => {
                    self.editing = false;
                    self.paused = false;
                    self.start(level, sim);
                }
                Err(e) => session.say(format!("cannot play: {e}"), ink::ERROR),
            },
            Err(e) => {
                let first = editor::headline(&e);
                session.say(format!("cannot play it yet: {first}"), ink::ERROR);
            }
        }
    }

    /// The watcher saw the level file change. Without an editor, hot reload. With one: the
    /// editor's own save changes nothing; someone else's change is taken when there are no
    /// unsaved edits, and otherwise noticed and shown while the edits are kept.
    fn level_file_changed(&mut self) {
        let Some(session) = &mut self.session else {
            self.reload_in_background();
            return;
        };
        if session.disk_matches_last_save() {
            return;
        }
        if session.is_modified() {
            session.note_disk_change();
            self.notify(
                "the level file changed on disk; the editor keeps your unsaved edits".into(),
                ink::ERROR,
            );
            return;
        }
        if !self.editing {
            // Nothing unsaved: the file is the level again, hot reloaded as usual.
            self.session = None;
            self.reload_in_background();
            return;
        }
        match session.reopen(&self.atlas) {
            Ok(()) => self.notify("the level file changed on disk: reloaded".into(), ink::GOOD),
            Err(e) => {
                session.note_disk_change();
                let first = editor::headline(&e);
                self.notify(
                    format!("the level file changed on disk: {first}"),
                    ink::ERROR,
                );
            }
        }
    }

    /// Start watching `path` for saves (or switch the watcher to it).
    fn watch(&mut self, path: &Path) {
        match &mut self.watcher {
            // A replay plays the recorded level, never an edit of it.
            _ if self.playback.is_some() => {}
            // A directory it cannot watch is its `problem()`, shown until it can.
            Some(w) => w.set_file(path),
            None => match LevelWatcher::new(path) {
                Ok(w) => {
                    self.watcher = Some(w);
                    self.watch_error = None;
                }
                Err(e) => self.watch_error = Some(e.to_string()),
            },
        }
    }

    /// Whether a command may throw away unsaved edits: yes without any; with some, the
    /// first time it only says so, and the same command again goes ahead.
    fn may_discard_edits(&mut self, command: Command, what: &str) -> bool {
        if !self.session.as_ref().is_some_and(Session::is_modified) {
            return true;
        }
        if self.discard_armed == Some(command) {
            self.discard_armed = None;
            return true;
        }
        self.discard_armed = Some(command);
        let save = if self.editing {
            "Ctrl+S saves"
        } else {
            "E, then Ctrl+S, saves"
        };
        self.notify(
            format!("unsaved edits in the editor: {what} again discards them ({save})"),
            ink::GOLD,
        );
        false
    }

    /// Switch to the level at `path` (watching it for edits), keeping the current game if it
    /// fails to load.
    fn open_level(&mut self, path: &Path) {
        self.screen = Screen::Playing;
        self.paused = false;
        if self
            .session
            .as_ref()
            .is_some_and(|s| !same_file(s.path(), path))
        {
            self.session = None;
        }
        self.editing = false;
        self.level_path = path.to_path_buf();
        self.watch(path);
        self.reload();
        // Levels of the levels folder are remembered for the title screen.
        if same_file(path.parent().unwrap_or(path), &self.dirs.levels) {
            let file = level_key(path);
            self.change_settings(|s| s.last_level = Some(file.clone()));
        }
    }

    /// (Re)load the current level file from disk now, on this thread. Returns whether it
    /// loaded. A background load still under way is dropped: this one is newer.
    fn reload(&mut self) -> bool {
        if let Some(loader) = &mut self.loader {
            loader.cancel();
        }
        let loaded = match &self.input {
            // Checked against the recorded level's hash again: it may have changed since.
            InputSource::Replay(r) => replay::load_sim(r, &self.atlas, Some(&self.dirs.levels))
                .map(|(_, level, sim)| (level, sim))
                .map_err(|e| e.to_string()),
            // While a level is being edited, it restarts as edited (saved or not).
            _ => match &self.session {
                Some(session) => session
                    .level()
                    .map_err(|e| e.to_string())
                    .and_then(|level| {
                        let sim =
                            Sim::new(&level, &self.atlas, self.seed).map_err(|e| e.to_string())?;
                        Ok((level, sim))
                    }),
                None => {
                    Sim::load(&self.level_path, &self.atlas, self.seed).map_err(|e| e.to_string())
                }
            },
        };
        match loaded {
            Ok((level, sim)) => {
                self.start(level, sim);
                true
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    /// The level file was saved: read it off the frame thread; the current level runs and is
    /// drawn until [`finish_reload`](Self::finish_reload) swaps the new one in.
    fn reload_in_background(&mut self) {
        match &mut self.loader {
            Some(loader) => {
                loader.request(&self.level_path);
            }
            None => {
                if self.reload() {
                    self.notify_reloaded();
                }
            }
        }
    }

    /// Start the level a background load finished, if one did, or show why it is not one
    /// (the running game goes on).
    fn finish_reload(&mut self) {
        let Some(loaded) = self.loader.as_mut().and_then(BackgroundLoader::poll) else {
            return;
        };
        puffin::profile_scope!("build_level");
        // Building the world stays on this thread: the world is not `Send`.
        let built = loaded.level.map_err(|e| e.to_string()).and_then(|level| {
            let sim = Sim::new(&level, &self.atlas, self.seed).map_err(|e| e.to_string())?;
            Ok((level, sim))
        });
        match built {
            Ok((level, sim)) => {
                self.start(level, sim);
                self.notify_reloaded();
            }
            Err(e) => self.error = Some(e),
        }
    }

    fn notify_reloaded(&mut self) {
        self.reloads += 1;
        let name = self.level_name.clone();
        self.notify(format!("level reloaded: {name}"), ink::GOOD);
    }

    /// Play `sim`, just built from `level`, in place of the current game.
    fn start(&mut self, level: Level, mut sim: Sim) {
        let dirty = self
            .sim
            .as_ref()
            .map_or(self.dirty_at_start, Sim::dirty_optimization);
        sim.set_dirty_optimization(dirty);
        sim.set_bot(self.input.is_bot());
        self.renderer.fit_camera(&mut sim);
        self.level_name = level.name;
        self.par = level.par;
        self.sim = Some(sim);
        self.error = None;
        self.fixed = FixedStep::default();
        self.cleared = None;
        self.hits = EventReader::default();
        self.breaks = EventReader::default();
        self.blasts = EventReader::default();
        self.start_recording();
    }

    /// A new run starts: record it (unless it is a replay being watched).
    fn start_recording(&mut self) {
        // A playtest of unsaved edits is not the file's level: a replay of it would name the
        // file, and verify against a different game.
        self.playtest_unsaved = self.session.as_ref().is_some_and(Session::is_modified);
        let level = (self.playback.is_none() && !self.playtest_unsaved)
            .then_some((&*self.level_path, self.seed));
        if let Err(e) = self.recording.start(level) {
            self.warn(format!("this run is not recorded: {e}"));
        }
    }

    /// `--record FILE`: write the current run's replay there.
    fn save_record(&mut self) {
        let Some(sim) = &self.sim else { return };
        if let Err(e) = self.recording.write(sim) {
            self.warn(e);
        }
    }

    /// The cleared screen's "save replay" (V).
    fn save_cleared_replay(&mut self) {
        if self.cleared.is_none() {
            return;
        }
        match self.recording.save_cleared(&self.level_path, self.scripted) {
            Ok(path) => {
                let shown = path.display().to_string();
                if let Some(c) = &mut self.cleared {
                    c.saved_replay = Some(shown.clone());
                }
                self.notify(format!("replay saved: {shown}"), ink::GOOD);
            }
            Err(e) => self.warn(format!("replay not saved: {e}")),
        }
    }

    /// The levels folder's levels in play order: the campaign's, then the others by name.
    fn refresh_levels(&mut self) {
        self.levels = self.campaign.order(&self.dirs.level_files());
    }

    /// Whether the level file at `path` has been cleared (a best time counts: it was).
    fn is_cleared(&self, file: &str) -> bool {
        self.progress.is_cleared(file) || self.best.best(file).is_some()
    }

    /// Whether the title screen and N / B may open `path`; if not, say why.
    fn may_open(&mut self, path: &Path) -> bool {
        let file = level_key(path);
        if self.campaign.is_open(&file, |f| self.is_cleared(f)) {
            return true;
        }
        let before = self
            .campaign
            .position(&file)
            .and_then(|i| self.campaign.levels().get(i.wrapping_sub(1)))
            .map_or_else(String::new, |f| f.trim_end_matches(".ron").to_owned());
        self.notify(
            format!(
                "{} is locked: clear {before} first",
                file.trim_end_matches(".ron")
            ),
            ink::GOLD,
        );
        false
    }

    fn cycle_level(&mut self, delta: isize) {
        self.refresh_levels();
        if self.levels.is_empty() {
            return;
        }
        let current = self
            .levels
            .iter()
            .position(|p| same_file(p, &self.level_path))
            .map_or(0, |i| i as isize);
        let next = (current + delta).rem_euclid(self.levels.len() as isize) as usize;
        let path = self.levels[next].clone();
        if self.may_open(&path) {
            self.open_level(&path);
        }
    }

    fn handle(&mut self, command: Command) {
        // A replay stays on its level; its pause is a playback key.
        let level_change = matches!(
            command,
            Command::NextLevel | Command::PreviousLevel | Command::Title | Command::TogglePause
        );
        if self.playback.is_some() && (level_change || command == Command::ToggleEdit) {
            return;
        }
        if command != self.discard_armed.unwrap_or(command) {
            self.discard_armed = None;
        }
        match command {
            Command::NextLevel if !self.may_discard_edits(command, "N") => {}
            Command::PreviousLevel if !self.may_discard_edits(command, "B") => {}
            Command::Title if !self.may_discard_edits(command, "T") => {}
            Command::ToggleEdit => self.enter_editor(),
            Command::Settings => self.open_settings_in_game(),
            Command::SaveReplay => self.save_cleared_replay(),
            Command::TogglePause => self.paused = !self.paused,
            Command::Restart => {
                self.reload();
            }
            Command::NextLevel => self.cycle_level(1),
            Command::PreviousLevel => self.cycle_level(-1),
            Command::Title => self.open_title(),
            Command::ToggleShake => {
                let s = self.feel.settings();
                let on = !(s.shake || s.hit_stop);
                self.change_settings(|s| {
                    s.shake = on;
                    s.hit_stop = on;
                });
                let state = if on { "on" } else { "off" };
                self.notify(format!("screen shake and hit-stop {state} (K)"), ink::TEXT);
            }
            Command::ToggleView(view) => self.overlay.toggle(view),
            Command::ToggleSound => {
                let on = self.sounds.is_muted();
                self.change_settings(|s| s.sound = on);
                let state = if self.sounds.is_muted() { "off" } else { "on" };
                self.notify(format!("sound {state} (M)"), ink::TEXT);
            }
            Command::ToggleDirtyOptimization => {
                if let Some(sim) = &mut self.sim {
                    let on = !sim.dirty_optimization();
                    sim.set_dirty_optimization(on);
                }
            }
        }
    }

    /// The title screen, on the level last played (or the first of the campaign).
    fn open_title(&mut self) {
        self.refresh_levels();
        self.title_entries = self
            .levels
            .iter()
            .map(|path| {
                let file = level_key(path);
                // A level that does not load is listed by its file name, without par times.
                let level = crate::level::load(path, &self.atlas.crate_skins()).ok();
                TitleEntry {
                    name: level.as_ref().map(|l| l.name.clone()),
                    par: level.and_then(|l| l.par),
                    best: self.best.best(&file),
                    open: self.campaign.is_open(&file, |f| self.is_cleared(f)),
                    campaign: self.campaign.position(&file).is_some(),
                    file,
                }
            })
            .collect();
        let selected = self
            .levels
            .iter()
            .position(|p| same_file(p, &self.level_path))
            .unwrap_or(0);
        self.screen = Screen::Title { selected };
    }

    /// The title screen's N: a form for the new level's name.
    fn open_new_level_form(&mut self) {
        let mut form =
            edit_form::Form::new(edit_form::FormKind::NewLevel, vec![("name", String::new())]);
        form.skip = Some('n');
        self.new_level = Some(form);
    }

    /// Input while the new-level form is open: Enter makes the level (a file in `levels/`
    /// named after it, written on the first Ctrl+S) and opens it in the editor; Esc closes it.
    fn new_level_events(&mut self, events: &[EditEvent]) {
        for &event in events {
            let Some(form) = &mut self.new_level else {
                return;
            };
            match event {
                EditEvent::Char(c) => form.char(c),
                EditEvent::Key { key, shift, .. } => match form.key(key, shift) {
                    edit_form::FormKey::Stay => {}
                    edit_form::FormKey::Cancel => self.new_level = None,
                    edit_form::FormKey::Apply => {
                        let name = form.value("name").trim().to_owned();
                        if let Err(e) = self.make_new_level(&name)
                            && let Some(form) = &mut self.new_level
                        {
                            form.error = Some(e);
                        }
                    }
                },
                _ => {}
            }
        }
    }

    /// A new level named `name`: `levels/NAME.ron` (lower case, letters, digits and `_`; a
    /// number added if the file exists), opened in the editor, not written until saved.
    fn make_new_level(&mut self, name: &str) -> Result<(), String> {
        let stem: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect::<String>()
            .split('_')
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("_");
        let stem = if stem.is_empty() {
            "level".to_owned()
        } else {
            stem
        };
        let path = (1..)
            .map(|n| {
                let file = if n == 1 {
                    format!("{stem}.ron")
                } else {
                    format!("{stem}_{n}.ron")
                };
                self.dirs.levels.join(file)
            })
            .find(|p| !p.exists())
            .unwrap_or_else(|| self.dirs.levels.join(format!("{stem}.ron")));
        let mut session = Session::open(&path, editor::NEW_LEVEL_SIZE, &self.atlas)
            .map_err(|e| editor::headline(&e))?;
        session.set_name(name)?;
        session.set_echo(self.scripted);
        session.say(
            format!("new level \"{name}\": Ctrl+S writes {}", path.display()),
            ink::GOOD,
        );
        self.new_level = None;
        self.watch(&path);
        self.level_path = path;
        self.screen = Screen::Playing;
        self.session = Some(session);
        self.editing = true;
        self.sim = None;
        self.error = None;
        Ok(())
    }

    /// Keys and pad of the title screen: choose a level, start it, open the settings, or quit
    /// (Esc on the keyboard). Returns false to quit.
    fn title_input(&mut self, menu: &[MenuInput], pad: &PadFrame) -> bool {
        let Screen::Title { selected } = self.screen else {
            return true;
        };
        if is_key_pressed(KeyCode::Escape) {
            return false;
        }
        if is_key_pressed(KeyCode::N) {
            self.open_new_level_form();
            return true;
        }
        if let Some(help) = View::ALL.iter().find(|e| e.view == View::Help)
            && is_key_pressed(help.key)
        {
            self.overlay.toggle(View::Help);
        }
        if is_key_pressed(keys::SETTINGS_KEY) || pad.select {
            self.screen = Screen::Settings {
                menu: SettingsMenu::default(),
                title: Some(selected),
            };
            return true;
        }
        let n = self.levels.len();
        if n == 0 {
            return true;
        }
        let mut selected = selected.min(n - 1);
        let mut confirm = pad.start;
        for &input in menu {
            match input {
                MenuInput::Up => selected = (selected + n - 1) % n,
                MenuInput::Down => selected = (selected + 1) % n,
                MenuInput::Confirm => confirm = true,
                MenuInput::Left | MenuInput::Right | MenuInput::Back => {}
            }
        }
        self.screen = Screen::Title { selected };
        if confirm {
            let path = self.levels[selected].clone();
            if self.may_open(&path) {
                self.open_level(&path);
            }
        }
        true
    }

    /// The pad's Start (pause or resume) and Select (settings) while a level is on.
    fn pad_commands(&mut self, pad: &PadFrame) {
        if self.screen != Screen::Playing {
            return;
        }
        if pad.start {
            self.handle(Command::TogglePause);
        }
        if pad.select {
            self.open_settings_in_game();
        }
    }

    /// Keys and pad of the settings screen.
    fn settings_input(&mut self, menu: &[MenuInput]) {
        let Screen::Settings {
            menu: mut state,
            title,
        } = self.screen
        else {
            return;
        };
        for &input in menu {
            match state.handle(input, self.settings.current()) {
                MenuOutcome::Stay => {}
                // Only the row's own setting changes: the rest of `new` may hold this run's
                // command-line overrides, which the file must not take.
                MenuOutcome::Change(new) => {
                    let row = state.row();
                    self.change_settings(|s| match row {
                        SettingsRow::Sound => s.sound = new.sound,
                        SettingsRow::Volume => s.volume = new.volume,
                        SettingsRow::Shake => s.shake = new.shake,
                        SettingsRow::HitStop => s.hit_stop = new.hit_stop,
                        SettingsRow::Fullscreen => s.fullscreen = new.fullscreen,
                        SettingsRow::Done => {}
                    });
                }
                MenuOutcome::Close => {
                    self.screen = match title {
                        Some(selected) => Screen::Title { selected },
                        None => Screen::Playing,
                    };
                    return;
                }
            }
        }
        self.screen = Screen::Settings { menu: state, title };
    }

    /// The settings screen over the game, which pauses.
    fn open_settings_in_game(&mut self) {
        if self.playback.is_some() {
            return;
        }
        self.paused = true;
        self.screen = Screen::Settings {
            menu: SettingsMenu::default(),
            title: None,
        };
    }

    /// Keys of a replay being watched: pause, speed, one step. Returns false to quit.
    fn playback_keys(&mut self) -> bool {
        let Some(p) = &mut self.playback else {
            return true;
        };
        for command in playback::read_commands() {
            match command {
                PlaybackCommand::TogglePause => self.paused = !self.paused,
                PlaybackCommand::Speed(speed) => p.speed = speed,
                PlaybackCommand::Step => {
                    self.paused = true;
                    p.step_once = true;
                }
                PlaybackCommand::Quit => return false,
            }
        }
        true
    }

    /// Advance the simulation: by wall time normally, exactly one step per frame when scripted
    /// (hit-stop may hold a step back). Returns the number of steps run.
    fn update(&mut self) -> u32 {
        puffin::profile_scope!("update");
        let Some(sim) = &mut self.sim else {
            return 0;
        };
        if self.screen != Screen::Playing || self.editing {
            return 0;
        }
        sim.world_mut()
            .set_timing(self.overlay.reads_system_timings());
        self.renderer.fit_camera(sim);
        let ticks = if self.scripted {
            1
        } else {
            self.fixed.advance(f64::from(get_frame_time()))
        };
        let ticks = match &mut self.playback {
            Some(p) => p.steps_now(ticks, self.paused, sim.state().step),
            None if self.paused => 0,
            None => ticks,
        };
        if ticks == 0 {
            // Debug systems keep the overlays current while the game stands still.
            sim.world_mut().update_debug_only();
            return 0;
        }
        let keyboard = matches!(self.input, InputSource::Keyboard)
            .then(|| crate::input::pad::combine(keys::read_input(), self.pads.input()));
        let mut steps = 0;
        for _ in 0..ticks {
            let frozen = self.feel.freeze_steps_now();
            self.feel.tick();
            if frozen {
                continue;
            }
            let input = keyboard.unwrap_or_else(|| self.input.scripted_input(sim.state().step));
            sim.step(input);
            steps += 1;
            self.recording.record(sim);
            self.cues.play_step(sim, &mut self.sounds);
            let world = sim.world();
            if self.breaks.read(world).count() > 0 {
                self.feel.on_break();
            }
            if self.hits.read(world).count() > 0 {
                self.feel.on_hit();
            }
            // The nearest blast of the step, measured from the player, sets the jolt.
            let player = world
                .column::<Player>()
                .entities()
                .first()
                .and_then(|&p| world.get::<Position>(p).copied());
            let nearest = self
                .blasts
                .read(world)
                .filter_map(|b| player.map(|p| (b.at.x - p.x).hypot(b.at.y - p.y)))
                .min_by(f32::total_cmp);
            if let Some(distance) = nearest {
                self.feel.on_blast(distance);
            }
        }
        let before = self.steps;
        self.steps += u64::from(steps);
        self.renderer.shake = self.feel.offset();
        self.note_clear();
        if before / replay::CHECKPOINT_EVERY != self.steps / replay::CHECKPOINT_EVERY {
            self.save_record();
        }
        steps
    }

    /// The first frame a level is cleared: keep the time if it is a best, for the cleared screen.
    fn note_clear(&mut self) {
        let Some(sim) = &self.sim else { return };
        let state = sim.state();
        // Watching a replay sets no best time.
        let (Some(time), None, None) = (state.cleared_at, &self.cleared, self.playback) else {
            return;
        };
        let can_save_replay = self.recording.on_clear(sim);
        let file = level_key(&self.level_path);
        let previous_best = self.best.best(&file);
        self.cleared = Some(Cleared {
            time,
            previous_best,
            crates: state.crates_total - state.crates_left,
            coins: state.score,
            can_save_replay,
            saved_replay: None,
            par: self.par,
            unlocked: None,
        });
        self.save_record();
        if self.playtest_unsaved {
            // Best times belong to the level file, not to edits of it not saved yet.
            return;
        }
        self.note_progress(&file);
        let saved = match self.best.record(&file, time) {
            Ok(outcome) if outcome.new_best => self.best.save(),
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = saved {
            self.warn(format!("best time not saved: {e}"));
        }
    }

    /// A clear of `file`: keep it in the progress, and say which level it opened.
    fn note_progress(&mut self, file: &str) {
        let next = self
            .campaign
            .position(file)
            .and_then(|i| self.campaign.levels().get(i + 1))
            .cloned();
        let was_open = next
            .as_deref()
            .is_some_and(|n| self.campaign.is_open(n, |f| self.is_cleared(f)));
        if !self.progress.mark_cleared(file) {
            return;
        }
        if let Err(e) = self.progress.save() {
            self.warn(format!("progress not saved: {e}"));
        }
        let next_exists = next
            .as_deref()
            .is_some_and(|n| self.dirs.levels.join(n).is_file());
        if let (Some(next), false, true) = (next, was_open, next_exists)
            && let Some(c) = &mut self.cleared
        {
            let path = self.dirs.levels.join(&next);
            let name = crate::level::load(&path, &self.atlas.crate_skins())
                .map_or_else(|_| next.trim_end_matches(".ron").to_owned(), |l| l.name);
            c.unlocked = Some(name);
        }
    }

    fn draw(&mut self) {
        puffin::profile_scope!("render");
        clear_background(Color::from_rgba(20, 17, 26, 255));
        let over_title = match self.screen {
            Screen::Title { selected } => Some(selected),
            Screen::Settings { title, .. } => title,
            Screen::Playing => None,
        };
        if let Some(selected) = over_title {
            match self.screen {
                Screen::Settings { menu, .. } => {
                    screens::settings(&mut self.hud, self.settings.current(), menu.selected);
                }
                _ => screens::title(&mut self.hud, &self.title_entries, selected),
            }
            if let Some(form) = &self.new_level {
                form.draw(&mut self.hud, 40.0);
            }
            if self.overlay.views.is_on(View::Help) {
                self.draw_help();
            }
            self.draw_notices();
            self.hud.draw();
            return;
        }
        if let (true, Some(session)) = (self.editing, &mut self.session) {
            session.draw(&self.renderer, &mut self.hud, self.renderer.scale);
            self.probe.end_world_pass();
            self.hud.draw();
            self.draw_notices();
            if self.overlay.views.is_on(View::Help) {
                self.draw_help();
            }
            self.hud.draw();
            return;
        }
        if let Some(sim) = &mut self.sim {
            // The window may have been resized while the game stood still (paused, cleared).
            self.renderer.fit_camera(sim);
        }
        if let Some(sim) = &self.sim {
            let view = self.renderer.view(sim);
            self.renderer.set_world_camera(&view);
            self.renderer.draw_world(sim, &view);
            self.probe.end_world_pass();
            self.overlay
                .draw_world_views(sim, &view, self.renderer.scale, &mut self.hud);
        }
        set_default_camera();
        let flash = self.feel.flash_alpha();
        if flash > 0.0 {
            // A blast's flash whitens the world, under the HUD.
            let c = Color::new(1.0, 0.96, 0.85, flash);
            draw_rectangle(0.0, 0.0, screen_width(), screen_height(), c);
        }
        // Labels the world views queued (grid counts) go under the HUD.
        self.hud.draw();
        self.draw_hud();
        if let Some(sim) = &self.sim {
            self.overlay
                .draw_panels(sim, self.fps, HUD_BAR + 12.0, &mut self.hud);
        }
        if self.overlay.views.is_on(View::Help) {
            self.draw_help();
        }
        self.hud.draw();
    }

    fn draw_hud(&mut self) {
        let Some(sim) = &self.sim else {
            self.hud
                .centered("No level loaded", screen_height() * 0.3, 40.0, ink::TEXT);
            if let Some(e) = &self.error {
                screens::error_box(&mut self.hud, e);
            }
            return;
        };
        let state = sim.state();
        let muted = if self.sounds.is_muted() {
            "sound off (M)   "
        } else {
            ""
        };
        let hint = match &self.playback {
            Some(p) => p.label(self.paused, state.step) + muted,
            // A playtest of edits not saved yet says so, with the way back to them.
            None if self.session.as_ref().is_some_and(Session::is_modified) => {
                format!("unsaved edits (E)   {muted}")
            }
            None => muted.to_string(),
        };
        screens::hud_bar(&self.renderer, &self.level_name, &state, &hint);
        if let Screen::Settings { menu, .. } = self.screen {
            screens::settings(&mut self.hud, self.settings.current(), menu.selected);
        } else if let Some(c) = &self.cleared {
            screens::cleared(&mut self.hud, c);
        } else if self.paused && self.playback.is_none() {
            screens::paused(&mut self.hud);
        }
        self.draw_notices();
        if let Some(e) = &self.error {
            screens::error_box(&mut self.hud, e);
        }
    }

    fn draw_notices(&mut self) {
        let frame = self.frame;
        self.notices.retain(|n| n.until_frame > frame);
        // Why saves are not noticed: the watcher could not start, or its directory is gone.
        let watch = match &self.watcher {
            Some(w) => w.problem().map(ToString::to_string),
            None => self.watch_error.clone(),
        }
        .map(|w| (format!("hot reload off: {w}"), ink::ERROR));
        screens::notices(
            &mut self.hud,
            self.notices
                .iter()
                .map(|n| (n.text.as_str(), n.color))
                .chain(watch.iter().map(|(t, c)| (t.as_str(), *c))),
        );
    }

    /// The key help (F1): every key, and the state of the switches it lists.
    fn draw_help(&mut self) {
        if self.editing {
            editor::help(&mut self.hud);
            return;
        }
        let dirty = self.sim.as_ref().is_none_or(Sim::dirty_optimization);
        let feel = self.feel.settings();
        let mut lines = vec![
            ("Keys".to_string(), ink::GOLD),
            (
                "WASD / arrows  move     Space / J / Enter  smash".to_string(),
                ink::TEXT,
            ),
        ];
        if self.playback.is_some() {
            lines.extend(playback::HELP.iter().map(|l| (l.to_string(), ink::GOLD)));
        }
        lines.extend(keys::help_lines().map(|l| (l.to_string(), ink::TEXT)));
        lines.extend(keys::PAD_HELP.iter().map(|l| (l.to_string(), ink::GOLD)));
        lines.push((self.pads.status(), ink::DIM));
        lines.push((
            format!(
                "dirty tracking {}   shake {}",
                if dirty { "ON" } else { "OFF" },
                if feel.shake || feel.hit_stop {
                    "on"
                } else {
                    "off"
                }
            ),
            if dirty { ink::DIM } else { ink::ERROR },
        ));
        help_boxes(&mut self.hud, &lines);
    }
}

/// Queue the help's lines under the HUD bar: at 20 px where they fit the screen, otherwise
/// smaller, in one column if it can be at least 12 px, else in two.
fn help_boxes(hud: &mut Hud, lines: &[(String, Color)]) {
    const LARGEST: f32 = 20.0;
    let top = HUD_BAR + 12.0;
    let room_h = (screen_height() - top - 8.0).max(60.0);
    let room_w = (screen_width() - 16.0).max(100.0);
    // The largest size at which `part` fits `width` x `room_h` (text widths scale with size).
    let fit = |part: &[(String, Color)], width: f32| {
        let (w, h) = Hud::box_size(part, LARGEST);
        (LARGEST * (width / w).min(room_h / h)).min(LARGEST).floor()
    };
    let size = fit(lines, room_w);
    if size >= 12.0 {
        hud.text_box(lines, 8.0, top, size);
        return;
    }
    let (first, second) = lines.split_at(lines.len().div_ceil(2));
    let column = (room_w - 6.0) / 2.0;
    let size = fit(first, column).min(fit(second, column)).max(6.0);
    let left = hud.text_box(first, 8.0, top, size);
    hud.text_box(second, left.x + left.w + 6.0, top, size);
}

/// The name best times are kept under: the level's file name.
fn level_key(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The window's game loop, for `macroquad::Window::from_config`: runs until the player quits
/// (`Ok(None)`) or a scripted run ends (`Ok(Some(report))`, after writing the screenshot).
///
/// Not `async` itself: calling it installs the audio-thread watch at once, before the window
/// (and with it macroquad's audio thread) starts.
///
/// # Errors
/// If the data folders, the atlas or the profile server cannot be set up, a scripted run's
/// level does not load, or its screenshot cannot be written.
pub fn run(opts: PlayOptions) -> impl Future<Output = Result<Option<ScriptReport>, AppError>> {
    let audio_thread = AudioThread::watch();
    game_loop(opts, audio_thread)
}

async fn game_loop(
    opts: PlayOptions,
    audio_thread: AudioThread,
) -> Result<Option<ScriptReport>, AppError> {
    let (GameData { dirs, atlas }, image) = GameData::load_with_image()?;
    let renderer = Renderer::new(&image, &atlas)?;
    drop(image);
    let overlay =
        Overlay::new(opts.debug, opts.puffin_server.as_deref()).map_err(AppError::Profiler)?;
    let sounds = Sounds::load(&dirs.assets, opts.overrides.mute, audio_thread);
    let mut app = App::new(dirs, atlas, renderer, overlay, sounds, &opts);
    if opts.edit.is_some() && app.session.is_none() {
        // `--edit` on a file that is not a valid level: nothing to edit.
        return Err(AppError::Level(
            app.error.clone().unwrap_or_else(|| "no level".into()),
        ));
    }
    if app.scripted && app.screen == Screen::Playing && app.sim.is_none() && app.session.is_none() {
        return Err(AppError::Level(
            app.error.clone().unwrap_or_else(|| "no level".into()),
        ));
    }
    // Closing the window asks first while there are unsaved edits.
    prevent_quit();
    let mut fps_smoothed = 60.0f32;
    loop {
        let frame_started = std::time::Instant::now();
        puffin::GlobalProfiler::lock().new_frame();
        puffin::profile_scope!("frame");
        app.frame += 1;
        let last_frame = opts.frames.is_some_and(|n| app.frame >= n);
        // Scripted runs measure the world's draw calls on their last frames.
        let want_probe = opts
            .frames
            .map_or(app.frame.is_multiple_of(30), |n| app.frame + 3 == n);
        app.probe.begin_frame(app.frame, want_probe);
        let dt = get_frame_time();
        if dt > 0.0 {
            fps_smoothed = fps_smoothed * 0.95 + (1.0 / dt) * 0.05;
        }
        app.fps = fps_smoothed;

        // Taken every frame, editing or not, so events never pile up.
        let events = app.feed.take();
        let mut quit = is_quit_requested() && app.may_discard_edits(Command::Title, "closing");
        if app.editing {
            // The editor takes input in scripted runs too (with `--edit` only), so tests can
            // drive it with real clicks; the simulation stands still meanwhile.
            let scale = app.renderer.scale;
            if let Some(session) = &mut app.session {
                match session.handle(&events, get_frame_time(), scale) {
                    Outcome::Stay => {}
                    Outcome::Play => app.leave_editor(),
                    Outcome::Quit => quit = true,
                }
            }
            for command in keys::read_commands() {
                if let Command::ToggleView(view) = command {
                    app.overlay.toggle(view);
                }
            }
        } else if app.new_level.is_some() {
            app.new_level_events(&events);
        } else {
            let pad = app.pads.poll();
            if keys::fullscreen_pressed() {
                app.change_settings(|s| s.fullscreen = !s.fullscreen);
            }
            let mut menu = keys::read_menu();
            menu.extend(pad.menu.iter().copied());
            match app.screen {
                Screen::Title { .. } => quit = !app.title_input(&menu, &pad),
                Screen::Settings { .. } => app.settings_input(&menu),
                Screen::Playing => {
                    quit = !app.playback_keys();
                    if !quit {
                        for command in keys::read_commands() {
                            app.handle(command);
                        }
                        app.pad_commands(&pad);
                    }
                }
            }
        }
        if quit {
            app.save_record();
            if app.scripted {
                // A scripted editor run ends when the editor is quit, with its report.
                return finish_script(&mut app, opts.screenshot.as_deref()).map(Some);
            }
            return Ok(None);
        }
        if app.watcher.as_mut().is_some_and(LevelWatcher::poll) {
            app.level_file_changed();
        }
        app.finish_reload();
        let started = std::time::Instant::now();
        let steps = app.update();
        let update = started.elapsed();
        let render_started = std::time::Instant::now();
        app.draw();
        app.overlay.record(FrameCost {
            steps,
            update_ms: update.as_secs_f32() * 1e3,
            render_ms: render_started.elapsed().as_secs_f32() * 1e3,
            world_draw_calls: app.probe.world_draw_calls,
            world_quads: app.renderer.last_quads,
        });
        // The profiler window goes over everything, after the stats panel's figures are taken.
        app.overlay.draw_profiler(HUD_BAR + 12.0);
        // Hand the batched draws to OpenGL now (setting the camera flushes them), so that the
        // render time includes submitting them; `next_frame` is left with the buffer swap.
        set_default_camera();
        let render = render_started.elapsed();
        app.times.record(frame_started.elapsed(), update, render);

        if last_frame {
            // A scripted run's report must not depend on how fast this machine parses: a
            // reload in flight is waited for and swapped in first.
            while app
                .loader
                .as_ref()
                .is_some_and(BackgroundLoader::is_loading)
            {
                std::thread::sleep(std::time::Duration::from_millis(2));
                app.finish_reload();
            }
            app.save_record();
            return finish_script(&mut app, opts.screenshot.as_deref()).map(Some);
        }
        next_frame().await;
    }
}

/// Save the scripted run's screenshot and say what it saw.
fn finish_script(app: &mut App, screenshot: Option<&Path>) -> Result<ScriptReport, AppError> {
    if app.editing {
        // The screen the run ends on: a quit may come between frames.
        app.draw();
    }
    if let Some(path) = screenshot {
        screenshot::save(path).map_err(AppError::Screenshot)?;
    }
    if let Some(failure) = app.recording.failure() {
        return Err(AppError::Record(failure.to_owned()));
    }
    let mut report = ScriptReport {
        showing: match app.screen {
            Screen::Settings { .. } => "settings",
            _ => "title",
        },
        gamepad: app.pads.status(),
        fullscreen: app.fullscreen,
        settings: app.settings.saved().clone(),
        title: matches!(app.screen, Screen::Title { .. }).then(|| {
            app.title_entries
                .iter()
                .map(|e| TitleRow {
                    file: e.file.clone(),
                    open: e.open,
                    best: e.best,
                    medal: e.medal().map(crate::campaign::medals::Medal::name),
                })
                .collect()
        }),
        cleared: app.cleared.as_ref().map(|c| ClearedRow {
            time: c.time,
            medal: c
                .par
                .and_then(|p| p.medal(c.time))
                .map(crate::campaign::medals::Medal::name),
            unlocked: c.unlocked.clone(),
        }),
        frames: app.frame,
        screen: [screen_width(), screen_height()],
        editor: app.session.as_ref().map(Session::report),
        cpu: app.times.report(),
        ..ScriptReport::default()
    };
    if let (true, Some(e)) = (app.editing, &report.editor) {
        report.showing = "editing";
        report.view = e.view;
        report.scale = e.scale;
        report.steps = app.steps;
        if let Some(sim) = &app.sim {
            let state = sim.state();
            report.level = app.level_name.clone();
            report.crates_total = state.crates_total;
            report.crates_left = state.crates_left;
            report.score = state.score;
        }
        return Ok(report);
    }
    let (Screen::Playing, Some(sim)) = (app.screen, &app.sim) else {
        return Ok(report);
    };
    let state = sim.state();
    let view = app.renderer.view(sim);
    report = ScriptReport {
        showing: "playing",
        steps: app.steps,
        level: app.level_name.clone(),
        crates_total: state.crates_total,
        crates_left: state.crates_left,
        score: state.score,
        world_draw_calls: app.probe.world_draw_calls,
        world_quads: app.renderer.last_quads,
        view: [view.min_x, view.min_y, view.max_x, view.max_y],
        scale: app.renderer.scale,
        reloads: app.reloads,
        ..report
    };
    Ok(report)
}
