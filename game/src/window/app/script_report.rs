//! The report a scripted run prints when it ends: the screen it ended on, the game's state,
//! the editor's, and the CPU times, with the screenshot written first.

use std::path::Path;

use macroquad::prelude::{screen_height, screen_width};
use serde::Serialize;

use super::app_error::AppError;
use super::app_state::App;
use super::mode::Mode;
use super::screens::BarItem;
use super::screenshot;
use super::script_timing::CpuTimes;
use crate::campaign::medals::Medal;
use crate::player_data::settings::Settings;
use crate::sim::components::{Player, Position};
use crate::window::editor::{EditorReport, Session};

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
    /// The simulation's `state_hash` at the end, as `crate-room sim` prints it (16 hex
    /// digits), with a level on.
    pub state_hash: Option<String>,
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
    /// The player's position in world pixels (the centre of its box), with a level on: with
    /// `view` and `scale`, where it is on the screen.
    pub player: Option<[f32; 2]>,
    /// The ghost's player, as drawn: its sprite's box `[x, y, w, h]` in world pixels and which
    /// run it replays, while one races the player.
    pub ghost: Option<([f32; 4], &'static str)>,
    /// The debug panels on screen at the end (stats panel, profiler window), each as
    /// `[x, y, w, h]` in screen pixels.
    pub panels: Vec<[f32; 4]>,
    /// The level's hint box at the end, `[x, y, w, h]` in screen pixels, while it shows.
    pub hint: Option<[f32; 4]>,
    /// The HUD bar's items at the end, left to right: what each shows, its text and its box.
    pub hud_bar: Vec<BarItem>,
    /// The banner at the bottom at the end (the F7 comparison or compare mode's line, while the
    /// stats panel is off), `[x, y, w, h]` in screen pixels.
    pub banner: Option<[f32; 4]>,
    /// Saves of the level file swapped in by hot reload.
    pub reloads: u32,
    /// The editor, if a level was being edited (in edit mode or not): its view, cursor and
    /// state. While `showing` is `editing`, `view` and `scale` above are the editor's too.
    pub editor: Option<EditorReport>,
    /// The F7 comparison pinned on screen at the end, if the optimization was switched.
    pub comparison: Option<String>,
    /// Compare mode's lines at the end (`--debug compare`, F8), if it is on: one step a frame,
    /// then back to back, separated by a newline.
    pub compare: Option<String>,
    /// `--press` keys that fell on a screen that takes no game keys, each with why
    /// (`F7@50: the editor is open, and takes no game keys`).
    pub presses_not_taken: Vec<String>,
    /// The stats panel's lines of text at the end (empty while it is off).
    pub stats_text: Vec<String>,
    /// The profiler window's Systems rows at the end (empty while it is off).
    pub profiler_text: Vec<String>,
    /// Each frame's mean brightness, 0 to 255, with `--report-brightness`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brightness: Option<Vec<f32>>,
    /// Each stretch of play with the dirty optimization on or off (a new one at each F7),
    /// oldest first: its frame rate and the update's share of the frame.
    pub phases: Vec<super::script_timing::PhaseReport>,
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
    /// Why a campaign level cannot be played (`missing`, `does not load`).
    pub problem: Option<&'static str>,
    /// What the title says under the list while it is chosen: why it can or cannot be opened.
    pub why: Option<String>,
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

impl App {
    /// Save the scripted run's screenshot and say what it saw.
    pub fn finish_script(&mut self, screenshot: Option<&Path>) -> Result<ScriptReport, AppError> {
        if self.mode.is_editing() {
            // The screen the run ends on: a quit may come between frames.
            self.draw();
        }
        if let Some(path) = screenshot {
            screenshot::save(path).map_err(AppError::Screenshot)?;
        }
        if let Some(failure) = self.run.recording.failure() {
            return Err(AppError::Record(failure.to_owned()));
        }
        let report = self.menus_report();
        if let (true, Some(e)) = (self.mode.is_editing(), &report.editor) {
            return Ok(self.editing_report(ScriptReport {
                showing: "editing",
                view: e.view,
                scale: e.scale,
                ..report
            }));
        }
        Ok(self.playing_report(report))
    }

    /// What every report says: the screen (as if on the title or settings), the devices and
    /// settings, the title's rows or the cleared screen, the editor and the CPU times.
    fn menus_report(&self) -> ScriptReport {
        ScriptReport {
            showing: match self.mode {
                Mode::Settings { .. } => "settings",
                _ => "title",
            },
            gamepad: self.devices.pads.status(),
            fullscreen: self.drawing.fullscreen,
            settings: self.records.settings.saved().clone(),
            title: match &self.mode {
                Mode::Title(title) => Some(title.entries.iter().map(TitleRow::of).collect()),
                _ => None,
            },
            cleared: self.run.cleared.as_ref().map(|c| ClearedRow {
                time: c.time,
                medal: c.par.and_then(|p| p.medal(c.time)).map(Medal::name),
                unlocked: c.unlocked.clone(),
            }),
            frames: self.frames.frame,
            screen: [screen_width(), screen_height()],
            editor: self.edits.session.as_ref().map(Session::report),
            comparison: self.drawing.overlay.comparison(),
            compare: self.drawing.overlay.compare_text(),
            stats_text: self.drawing.overlay.shown_text().0,
            profiler_text: self.drawing.overlay.shown_text().1,
            cpu: self.frames.times.report(),
            phases: self.frames.times.phases(),
            brightness: self.script.as_ref().and_then(|s| s.brightness.clone()),
            presses_not_taken: self
                .script
                .as_ref()
                .map(|s| s.presses_not_taken.clone())
                .unwrap_or_default(),
            ..ScriptReport::default()
        }
    }

    /// In the editor: the steps, and the level's figures if it is playable.
    fn editing_report(&self, mut report: ScriptReport) -> ScriptReport {
        report.steps = self.frames.steps;
        if let Some(sim) = &self.run.sim {
            let state = sim.state();
            report.level = self.run.name.clone();
            report.crates_total = state.crates_total;
            report.crates_left = state.crates_left;
            report.score = state.score;
        }
        report
    }

    /// With a level on: the game's figures, the world's draw calls and the view.
    fn playing_report(&self, report: ScriptReport) -> ScriptReport {
        let (true, Some(sim)) = (self.mode.shows_level(), &self.run.sim) else {
            return report;
        };
        let state = sim.state();
        let renderer = &self.drawing.renderer;
        let view = renderer.view(sim);
        ScriptReport {
            showing: "playing",
            steps: self.frames.steps,
            state_hash: Some(format!("{:016x}", sim.state_hash())),
            level: self.run.name.clone(),
            crates_total: state.crates_total,
            crates_left: state.crates_left,
            score: state.score,
            world_draw_calls: self.frames.probe.world_draw_calls,
            world_quads: renderer.last_quads,
            view: [view.min_x, view.min_y, view.max_x, view.max_y],
            scale: renderer.scale,
            player: sim
                .world()
                .try_column::<Player>()
                .and_then(|c| c.entities().first().copied())
                .and_then(|e| sim.world().get::<Position>(e))
                .map(|p| [p.x, p.y]),
            ghost: self.run.ghost.as_ref().and_then(|g| {
                let d = g.player()?;
                let size = [f32::from(d.src.w), f32::from(d.src.h)];
                Some(([d.x, d.y, size[0], size[1]], g.run.word()))
            }),
            panels: self.drawing.overlay.panel_rects(),
            hint: self.drawing.hint.map(|r| [r.x, r.y, r.w, r.h]),
            hud_bar: self.drawing.bar.clone(),
            banner: self.drawing.overlay.banner_rect(),
            reloads: self.reload.reloads,
            ..report
        }
    }
}

impl TitleRow {
    fn of(entry: &super::screens::TitleEntry) -> Self {
        Self {
            file: entry.file.clone(),
            open: entry.open,
            best: entry.best,
            medal: entry.medal().map(Medal::name),
            problem: entry.problem,
            why: entry.why.clone(),
        }
    }
}
