//! The windowed game: the frame loop (input -> fixed-step update -> draw), game flow (pause,
//! restart, levels, room cleared), hot reload and the scripted screenshot mode. This module and
//! its children are the only code that touches macroquad.

pub mod audio;
pub mod hud;
pub mod keys;
pub mod render;
pub mod screenshot;

use std::path::{Path, PathBuf};

use macroquad::prelude::*;

use crate::atlas::AtlasData;
use crate::debug::overlay::{FrameCost, Overlay};
use crate::debug::views::{View, Views};
use crate::headless;
use crate::level::watch::LevelWatcher;
use crate::paths::DataDirs;
use crate::sim::{FixedStep, Input, Sim};
use audio::{AudioThread, Cues, Sounds};
use hud::{Hud, format_steps, ink};
use keys::Command;
use render::Renderer;

/// How the game is driven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayInput {
    /// The keyboard (normal play).
    Keyboard,
    /// The simulation's scripted bot (demos, automated checks).
    Bot,
}

/// Options of a windowed run.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Level to start with (default: `levels/crate_room.ron`).
    pub level: Option<PathBuf>,
    /// Seed of the simulation's randomness.
    pub seed: u64,
    /// Who plays.
    pub input: PlayInput,
    /// Scripted mode: run exactly this many frames (one step each), then exit.
    pub frames: Option<u64>,
    /// Scripted mode: write the last frame here as a PNG.
    pub screenshot: Option<PathBuf>,
    /// Debug views on at start.
    pub debug: Views,
    /// Serve puffin profiles on this address (for `puffin_viewer`).
    pub puffin_server: Option<String>,
    /// Start with the sound muted.
    pub mute: bool,
}

/// Everything the running game holds between frames.
struct App {
    dirs: DataDirs,
    atlas: AtlasData,
    renderer: Renderer,
    seed: u64,
    input: PlayInput,
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
    fps: f32,
    probe: DrawCallProbe,
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
        renderer: Renderer,
        overlay: Overlay,
        sounds: Sounds,
        opts: &PlayOptions,
    ) -> Self {
        let levels = dirs.level_files();
        let level_path = opts
            .level
            .clone()
            .unwrap_or_else(|| dirs.levels.join("crate_room.ron"));
        let mut app = Self {
            dirs,
            atlas,
            renderer,
            seed: opts.seed,
            input: opts.input,
            levels,
            level_path: level_path.clone(),
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
            fps: 60.0,
            probe: DrawCallProbe::default(),
            sounds,
            cues: Cues::default(),
        };
        app.open_level(&level_path);
        app
    }

    /// Switch to the level at `path` (watching it for edits), keeping the current game if it
    /// fails to load.
    fn open_level(&mut self, path: &Path) {
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

    /// (Re)load the current level file from disk.
    fn reload(&mut self) {
        match headless::load_sim(&self.level_path, &self.atlas, self.seed) {
            Ok((level, mut sim)) => {
                let dirty = self.sim.as_ref().is_none_or(Sim::dirty_optimization);
                sim.set_dirty_optimization(dirty);
                sim.set_bot(self.input == PlayInput::Bot);
                self.renderer.fit_camera(&mut sim);
                self.level_name = level.name;
                self.sim = Some(sim);
                self.error = None;
                self.fixed = FixedStep::default();
            }
            Err(e) => self.error = Some(e.to_string()),
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
            Command::Restart => self.reload(),
            Command::NextLevel => self.cycle_level(1),
            Command::PreviousLevel => self.cycle_level(-1),
            Command::ToggleHelp => self.overlay.toggle(View::Help),
            Command::ToggleProfiler => self.overlay.toggle(View::Profiler),
            Command::ToggleBoxes => self.overlay.toggle(View::Boxes),
            Command::ToggleGrid => self.overlay.toggle(View::Grid),
            Command::ToggleDirtyView => self.overlay.toggle(View::Dirty),
            Command::ToggleStats => self.overlay.toggle(View::Stats),
            Command::ToggleSound => self.sounds.toggle_muted(),
            Command::ToggleDirtyOptimization => {
                if let Some(sim) = &mut self.sim {
                    let on = !sim.dirty_optimization();
                    sim.set_dirty_optimization(on);
                }
            }
        }
    }

    /// Advance the simulation: by wall time normally, exactly one step per frame when scripted.
    /// Returns the number of steps run.
    fn update(&mut self, scripted: bool) -> u32 {
        puffin::profile_scope!("update");
        let Some(sim) = &mut self.sim else {
            return 0;
        };
        self.renderer.fit_camera(sim);
        let steps = if scripted {
            1
        } else {
            self.fixed.advance(f64::from(get_frame_time()))
        };
        if self.paused {
            // Debug systems keep the overlays current while the game stands still.
            sim.world_mut().update_debug_only();
            return 0;
        }
        let input = if self.input == PlayInput::Keyboard {
            keys::read_input()
        } else {
            Input::default()
        };
        for _ in 0..steps {
            sim.step(input);
            self.cues.play_step(sim, &mut self.sounds);
        }
        steps
    }

    fn draw(&mut self) {
        puffin::profile_scope!("render");
        clear_background(Color::from_rgba(20, 17, 26, 255));
        if let Some(sim) = &self.sim {
            let view = self.renderer.view(sim);
            self.renderer.set_world_camera(&view);
            self.renderer.draw_world(sim, &view);
            self.probe.end_world_pass();
            self.overlay
                .draw_world_views(sim, &view, self.renderer.scale, &mut self.hud);
        }
        set_default_camera();
        // Labels the world views queued (grid counts) go under the HUD's own panels.
        self.hud.draw();
        self.draw_hud();
        if let Some(sim) = &self.sim {
            self.overlay.draw_panels(sim, &mut self.hud);
        }
        self.hud.draw();
    }

    fn draw_hud(&mut self) {
        let Some(sim) = &self.sim else {
            self.hud
                .centered("No level loaded", screen_height() * 0.3, 40.0, ink::TEXT);
            if let Some(e) = &self.error {
                error_box(&mut self.hud, e);
            }
            return;
        };
        let state = sim.state();
        let mut lines = vec![
            (self.level_name.clone(), ink::GOLD),
            (
                format!(
                    "Crates {}/{}   Score {}",
                    state.crates_left, state.crates_total, state.score
                ),
                ink::TEXT,
            ),
            (
                format!(
                    "{:.0} FPS   dirty tracking {} (F7)   F1 help",
                    self.fps,
                    if sim.dirty_optimization() {
                        "ON"
                    } else {
                        "OFF"
                    }
                ),
                ink::DIM,
            ),
        ];
        if let Some(w) = &self.watch_error {
            lines.push((format!("hot reload off: {w}"), ink::ERROR));
        }
        self.hud.text_box(&lines, 12.0, 12.0, 22.0);

        if let Some(at) = state.cleared_at {
            let (w, h) = (screen_width(), screen_height());
            self.hud
                .panel(Rect::new(0.0, h * 0.32, w, h * 0.3), ink::PANEL);
            self.hud
                .centered("Room cleared!", h * 0.42, 64.0, ink::GOLD);
            self.hud.centered(
                format!("Time {}   Score {}", format_steps(at), state.score),
                h * 0.50,
                30.0,
                ink::TEXT,
            );
            self.hud
                .centered("R  play again      N  next level", h * 0.57, 24.0, ink::DIM);
        } else if self.paused {
            let h = screen_height();
            self.hud.panel(
                Rect::new(0.0, h * 0.4, screen_width(), h * 0.16),
                ink::PANEL,
            );
            self.hud.centered("Paused", h * 0.48, 56.0, ink::TEXT);
            self.hud
                .centered("P / Esc to resume", h * 0.53, 22.0, ink::DIM);
        }
        if self.overlay.views.is_on(View::Help) {
            let lines: Vec<_> = std::iter::once(("Keys".to_string(), ink::GOLD))
                .chain(std::iter::once((
                    "WASD / arrows  move     Space / J  smash".to_string(),
                    ink::TEXT,
                )))
                .chain(
                    Command::ALL
                        .iter()
                        .map(|(_, _, help)| (help.to_string(), ink::TEXT)),
                )
                .collect();
            self.hud.text_box(&lines, 12.0, 140.0, 20.0);
        }
        if let Some(e) = &self.error {
            error_box(&mut self.hud, e);
        }
    }
}

fn error_box(hud: &mut Hud, error: &str) {
    let mut lines: Vec<_> = vec![(
        "Level error (the last good level keeps running; fix and save):".to_string(),
        ink::GOLD,
    )];
    lines.extend(error.lines().map(|l| (l.to_string(), ink::ERROR)));
    let size = 20.0;
    let height = (lines.len() as f32 * 1.15 + 0.5) * size;
    hud.text_box(&lines, 12.0, screen_height() - height - 12.0, size);
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The window's game loop, for `macroquad::Window::from_config`. Exits the process when done
/// (scripted mode) or on fatal errors.
///
/// Not `async` itself: calling it installs the audio-thread watch at once, before the window
/// (and with it macroquad's audio thread) starts.
pub fn run(opts: PlayOptions) -> impl Future<Output = ()> {
    let audio_thread = AudioThread::watch();
    game_loop(opts, audio_thread)
}

async fn game_loop(opts: PlayOptions, audio_thread: AudioThread) {
    let exit = |code: i32, message: &str| -> ! {
        eprintln!("{message}");
        std::process::exit(code)
    };
    let dirs = DataDirs::locate().unwrap_or_else(|e| exit(1, &format!("error: {e}")));
    let atlas = AtlasData::load(&dirs.assets).unwrap_or_else(|e| exit(1, &format!("error: {e}")));
    let renderer =
        Renderer::new(&dirs.assets, &atlas).unwrap_or_else(|e| exit(1, &format!("error: {e}")));
    let overlay = Overlay::new(opts.debug, opts.puffin_server.as_deref())
        .unwrap_or_else(|e| exit(1, &format!("error: {e}")));
    let sounds = Sounds::load(&dirs.assets, opts.mute, audio_thread);
    let mut app = App::new(dirs, atlas, renderer, overlay, sounds, &opts);
    let scripted = opts.frames.is_some();
    if scripted && app.sim.is_none() {
        exit(
            1,
            &format!("error: {}", app.error.as_deref().unwrap_or("no level")),
        );
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

        if !scripted {
            for command in keys::read_commands() {
                app.handle(command);
            }
        }
        if app.watcher.as_mut().is_some_and(LevelWatcher::poll) {
            app.reload();
        }
        let started = std::time::Instant::now();
        let steps = app.update(scripted);
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
            let sim = app.sim.as_ref().expect("scripted runs have a level");
            let state = sim.state();
            if let Some(Err(e)) = opts.screenshot.as_deref().map(screenshot::save) {
                exit(1, &format!("error: {e}"));
            }
            println!(
                "{}",
                serde_json::json!({
                    "frames": app.frame,
                    "level": app.level_name,
                    "crates_total": state.crates_total,
                    "crates_left": state.crates_left,
                    "score": state.score,
                    "world_draw_calls": app.probe.world_draw_calls,
                    "world_quads": app.renderer.last_quads,
                    "screen": [screen_width(), screen_height()],
                })
            );
            std::process::exit(0);
        }
        next_frame().await;
    }
}
