//! The windowed game: the frame loop (input -> fixed-step update -> draw), game flow (title,
//! pause, restart, levels, room cleared, best times), hot reload and the scripted screenshot
//! mode. The window side is this module with [`crate::debug`], [`crate::ui`] and
//! [`crate::egui_bridge`]; the simulation never sees macroquad.

pub mod audio;
pub mod keys;
pub mod render;
pub mod screens;
pub mod screenshot;

use std::path::{Path, PathBuf};

use ecs::EventReader;
use macroquad::prelude::*;
use serde::Serialize;

use crate::atlas::{AtlasData, AtlasError};
use crate::debug::overlay::{FrameCost, Overlay};
use crate::debug::views::{View, Views};
use crate::feel::{Feel, FeelSettings};
use crate::input::InputSource;
use crate::level::watch::LevelWatcher;
use crate::paths::{DataDirs, DataDirsNotFound};
use crate::records::{self, BestTimes};
use crate::sim::components::{Player, Position};
use crate::sim::events::{CrateBroken, CrateHit, KegExploded};
use crate::sim::{FixedStep, Sim};
use crate::ui::{Hud, ink};
use audio::{AudioThread, Cues, Sounds};
use keys::Command;
use render::{Renderer, TextureError};
use screens::{Cleared, HUD_BAR, TitleEntry};

/// Options of a windowed run.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Level to start with; without one the game opens on the title screen.
    pub level: Option<PathBuf>,
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
    /// Screen shake and hit-stop.
    pub feel: FeelSettings,
    /// Start with the sound muted.
    pub mute: bool,
}

/// What a scripted run prints when it ends (one JSON object).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ScriptReport {
    /// The screen at the end: `title` or `playing`.
    pub showing: &'static str,
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
}

/// What stops the window before or during a run.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// `assets/` and `levels/` are nowhere to be found.
    #[error(transparent)]
    DataDirs(#[from] DataDirsNotFound),
    /// The atlas's frame table is missing or invalid.
    #[error(transparent)]
    Atlas(#[from] AtlasError),
    /// The atlas image is missing or invalid.
    #[error(transparent)]
    Texture(#[from] TextureError),
    /// The profile server could not start.
    #[error("{0}")]
    Profiler(String),
    /// A scripted run's level did not load (a window player sees the error on screen instead).
    #[error("{0}")]
    Level(String),
    /// The screenshot could not be written.
    #[error("cannot write the screenshot {path}: {source}")]
    Screenshot {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Which screen the game is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Screen {
    /// The level list; `selected` is an index into `App::levels`.
    Title { selected: usize },
    /// Playing (or paused, or cleared) the loaded level.
    Playing,
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
    /// The last load error, shown until a good version of the level loads.
    error: Option<String>,
    watcher: Option<LevelWatcher>,
    watch_error: Option<String>,
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
    feel: Feel,
    hits: EventReader<CrateHit>,
    breaks: EventReader<CrateBroken>,
    blasts: EventReader<KegExploded>,
    sounds: Sounds,
    cues: Cues,
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
        let levels = dirs.level_files();
        let scripted = opts.frames.is_some();
        renderer.top_inset = HUD_BAR;
        // A scripted run (tests, CI, benchmarks) keeps best times only where it is told to, so it
        // never writes into a player's data directory.
        let (best, problem) = if scripted && std::env::var_os(records::ENV_VAR).is_none() {
            (BestTimes::in_memory(), None)
        } else {
            BestTimes::open()
        };
        let default_level = dirs.levels.join("crate_room.ron");
        let mut app = Self {
            dirs,
            atlas,
            renderer,
            seed: opts.seed,
            input: opts.input.clone(),
            scripted,
            screen: Screen::Playing,
            levels,
            level_path: default_level.clone(),
            sim: None,
            level_name: String::new(),
            error: None,
            watcher: None,
            watch_error: None,
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
            feel: Feel::new(opts.feel),
            hits: EventReader::default(),
            breaks: EventReader::default(),
            blasts: EventReader::default(),
            sounds,
            cues: Cues::default(),
        };
        if let Some(problem) = problem {
            app.notify(format!("best times: {problem}"), ink::ERROR);
        }
        match &opts.level {
            Some(path) => app.open_level(path),
            None => {
                let selected = app
                    .levels
                    .iter()
                    .position(|p| same_file(p, &default_level))
                    .unwrap_or(0);
                app.screen = Screen::Title { selected };
            }
        }
        app
    }

    fn notify(&mut self, text: String, color: Color) {
        self.notices.push(Notice {
            text,
            color,
            until_frame: self.frame + NOTICE_FRAMES,
        });
    }

    /// Switch to the level at `path` (watching it for edits), keeping the current game if it
    /// fails to load.
    fn open_level(&mut self, path: &Path) {
        self.screen = Screen::Playing;
        self.paused = false;
        self.level_path = path.to_path_buf();
        match &mut self.watcher {
            Some(w) => {
                if let Err(e) = w.set_file(path) {
                    self.watch_error = Some(e.to_string());
                }
            }
            None => match LevelWatcher::new(path) {
                Ok(w) => self.watcher = Some(w),
                Err(e) => self.watch_error = Some(e.to_string()),
            },
        }
        self.reload();
    }

    /// (Re)load the current level file from disk. Returns whether it loaded.
    fn reload(&mut self) -> bool {
        match Sim::load(&self.level_path, &self.atlas, self.seed) {
            Ok((level, mut sim)) => {
                let dirty = self.sim.as_ref().is_none_or(Sim::dirty_optimization);
                sim.set_dirty_optimization(dirty);
                sim.set_bot(self.input.is_bot());
                self.renderer.fit_camera(&mut sim);
                self.level_name = level.name;
                self.sim = Some(sim);
                self.error = None;
                self.fixed = FixedStep::default();
                self.cleared = None;
                self.hits = EventReader::default();
                self.breaks = EventReader::default();
                self.blasts = EventReader::default();
                true
            }
            Err(e) => {
                self.error = Some(e.to_string());
                false
            }
        }
    }

    fn cycle_level(&mut self, delta: isize) {
        self.levels = self.dirs.level_files();
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
        self.open_level(&path);
    }

    fn handle(&mut self, command: Command) {
        match command {
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
                self.feel.set_settings(FeelSettings {
                    shake: on,
                    hit_stop: on,
                });
                let state = if on { "on" } else { "off" };
                self.notify(format!("screen shake and hit-stop {state} (K)"), ink::TEXT);
            }
            Command::ToggleView(view) => self.overlay.toggle(view),
            Command::ToggleSound => {
                self.sounds.toggle_muted();
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

    fn open_title(&mut self) {
        self.levels = self.dirs.level_files();
        let selected = self
            .levels
            .iter()
            .position(|p| same_file(p, &self.level_path))
            .unwrap_or(0);
        self.screen = Screen::Title { selected };
    }

    /// Keys of the title screen: choose a level, start it, or quit. Returns false to quit.
    fn title_keys(&mut self) -> bool {
        let Screen::Title { selected } = self.screen else {
            return true;
        };
        let n = self.levels.len();
        let pressed = |keys: &[KeyCode]| keys.iter().any(|&k| is_key_pressed(k));
        if pressed(&[KeyCode::Escape]) {
            return false;
        }
        if n == 0 {
            return true;
        }
        let selected = if pressed(&[KeyCode::Up, KeyCode::W]) {
            (selected + n - 1) % n
        } else if pressed(&[KeyCode::Down, KeyCode::S]) {
            (selected + 1) % n
        } else {
            selected.min(n - 1)
        };
        self.screen = Screen::Title { selected };
        if pressed(&[KeyCode::Enter, KeyCode::Space, KeyCode::KpEnter]) {
            let path = self.levels[selected].clone();
            self.open_level(&path);
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
        if self.screen != Screen::Playing {
            return 0;
        }
        self.renderer.fit_camera(sim);
        let ticks = if self.scripted {
            1
        } else {
            self.fixed.advance(f64::from(get_frame_time()))
        };
        if self.paused {
            // Debug systems keep the overlays current while the game stands still.
            sim.world_mut().update_debug_only();
            return 0;
        }
        let keyboard = matches!(self.input, InputSource::Keyboard).then(keys::read_input);
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
        self.steps += u64::from(steps);
        self.renderer.shake = self.feel.offset();
        self.note_clear();
        steps
    }

    /// The first frame a level is cleared: keep the time if it is a best, for the cleared screen.
    fn note_clear(&mut self) {
        let Some(sim) = &self.sim else { return };
        let state = sim.state();
        let (Some(time), None) = (state.cleared_at, self.cleared) else {
            return;
        };
        let file = level_key(&self.level_path);
        let previous_best = self.best.best(&file);
        self.cleared = Some(Cleared {
            time,
            previous_best,
            crates: state.crates_total - state.crates_left,
            coins: state.score,
        });
        let saved = match self.best.record(&file, time) {
            Ok(outcome) if outcome.new_best => self.best.save(),
            Ok(_) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = saved {
            self.notify(format!("best time not saved: {e}"), ink::ERROR);
        }
    }

    fn draw(&mut self) {
        puffin::profile_scope!("render");
        clear_background(Color::from_rgba(20, 17, 26, 255));
        if let Screen::Title { selected } = self.screen {
            let entries: Vec<TitleEntry> = self
                .levels
                .iter()
                .map(|p| {
                    let file = level_key(p);
                    TitleEntry {
                        best: self.best.best(&file),
                        file,
                    }
                })
                .collect();
            screens::title(&mut self.hud, &entries, selected);
            self.draw_notices();
            self.hud.draw();
            return;
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
        screens::hud_bar(&self.renderer, &self.level_name, &state, muted);
        if let Some(c) = &self.cleared {
            screens::cleared(&mut self.hud, c);
        } else if self.paused {
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
        let watch = self
            .watch_error
            .as_deref()
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
        let dirty = self.sim.as_ref().is_none_or(Sim::dirty_optimization);
        let feel = self.feel.settings();
        let mut lines = vec![
            ("Keys".to_string(), ink::GOLD),
            (
                "WASD / arrows  move     Space / J / Enter  smash".to_string(),
                ink::TEXT,
            ),
        ];
        lines.extend(keys::help_lines().map(|l| (l.to_string(), ink::TEXT)));
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
        self.hud.text_box(&lines, 12.0, HUD_BAR + 12.0, 20.0);
    }
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
    let dirs = DataDirs::locate()?;
    let atlas = AtlasData::load(&dirs.assets)?;
    let renderer = Renderer::new(&dirs.assets, &atlas)?;
    let overlay =
        Overlay::new(opts.debug, opts.puffin_server.as_deref()).map_err(AppError::Profiler)?;
    let sounds = Sounds::load(&dirs.assets, opts.mute, audio_thread);
    let mut app = App::new(dirs, atlas, renderer, overlay, sounds, &opts);
    if app.scripted && app.screen == Screen::Playing && app.sim.is_none() {
        return Err(AppError::Level(
            app.error.clone().unwrap_or_else(|| "no level".into()),
        ));
    }
    let mut fps_smoothed = 60.0f32;
    loop {
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

        if !app.scripted {
            if !app.title_keys() {
                return Ok(None);
            }
            if app.screen == Screen::Playing {
                for command in keys::read_commands() {
                    app.handle(command);
                }
            }
        }
        if app.watcher.as_mut().is_some_and(LevelWatcher::poll) && app.reload() {
            let name = app.level_name.clone();
            app.notify(format!("level reloaded: {name}"), ink::GOOD);
        }
        let started = std::time::Instant::now();
        let steps = app.update();
        let update_ms = started.elapsed().as_secs_f32() * 1e3;
        let started = std::time::Instant::now();
        app.draw();
        let render_ms = started.elapsed().as_secs_f32() * 1e3;
        app.overlay.record(FrameCost {
            steps,
            update_ms,
            render_ms,
            world_draw_calls: app.probe.world_draw_calls,
            world_quads: app.renderer.last_quads,
        });
        // The profiler window goes over everything, after the frame is measured.
        app.overlay.draw_profiler();

        if last_frame {
            return finish_script(&app, opts.screenshot.as_deref()).map(Some);
        }
        next_frame().await;
    }
}

/// Save the scripted run's screenshot and say what it saw.
fn finish_script(app: &App, screenshot: Option<&Path>) -> Result<ScriptReport, AppError> {
    if let Some(path) = screenshot {
        screenshot::save(path).map_err(|source| AppError::Screenshot {
            path: path.display().to_string(),
            source,
        })?;
    }
    let mut report = ScriptReport {
        showing: "title",
        frames: app.frame,
        screen: [screen_width(), screen_height()],
        ..ScriptReport::default()
    };
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
        ..report
    };
    Ok(report)
}
