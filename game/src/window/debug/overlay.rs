//! The debug overlay: collision boxes, the spatial-hash grid, the dirty view, the stats panel
//! and the profiler window. Nothing is queried or drawn for a view that is off; what is drawn is
//! plain quads from macroquad's batcher (one draw call per view), never one call per box.
//!
//! This file holds the views' state and draws the world-space views; the stats panel is
//! `stats_panel`'s, the profiler window `profiler_window`'s.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Duration;

use crate::window::platform::Instant;

use macroquad::prelude::*;

use super::compare::Compare;
pub use super::costs::FrameCost;
use super::costs::{HISTORY, OwnCost, StepCosts, StepFigures, group, median, step_micros};
use super::profiler_window::{COMPACT_BELOW, ProfilerWindow, Side, fit_style};
use super::stats_panel::{DIRTY_INK, OverlayFigures, comparison_lines, draw_stats};
use super::views::{View, Views};
use crate::sim::components::{Collider, DrawData, Player, Position};
use crate::sim::resources::{CollisionGrid, DrawDirtyLog, DrawGrid};
use crate::sim::spatial_hash::{Aabb, Hit};
use crate::sim::{Sim, TILE};
use crate::window::egui_bridge::EguiBridge;
use crate::window::ui::{Hud, ink};

/// Frames between two refreshes of the panels' figures (six a second at 60 FPS): figures that
/// change every frame cannot be read, and the profiler window costs less when it runs only
/// when its figures change or input comes.
const REFRESH_FRAMES: u32 = 10;

/// Text size of the F7 comparison's banner.
const BANNER_SIZE: f32 = 20.0;
/// The dirty view's tint (F5), and its legend's ink.
const DIRTY_TINT: Color = Color::new(1.0, 0.2, 0.8, 0.45);

/// The parts of the overlay whose own cost is kept apart.
#[derive(Clone, Copy)]
enum Part {
    Views,
    Stats,
    Profiler,
}

/// Debug views and their state between frames.
pub struct Overlay {
    /// Which views are on.
    pub views: Views,
    egui: Option<EguiBridge>,
    history: VecDeque<FrameCost>,
    hits: Vec<Hit>,
    profiler: ProfilerWindow,
    /// What the steps cost: the one record of them.
    steps: StepCosts,
    /// The figures the panels show, worked out from `steps` every [`REFRESH_FRAMES`] frames
    /// and at each switch: both panels show the same figures, they hold still long enough to
    /// be read, and the medians are not sorted again for every line that shows one.
    shown: StepFigures,
    /// Frames drawn with a level since `shown` was refreshed.
    since_refresh: u32,
    /// The profiler window's rectangle when egui last ran it, and whether its figures have
    /// been refreshed since.
    profiler_ran: Option<(Rect, bool)>,
    /// The overlay's own cost per frame (world views, stats panel, profiler window), newest
    /// last, in microseconds.
    own_us: [VecDeque<f32>; 3],
    /// The overlay's time so far this frame (the profiler window's lands in the next frame's).
    own_now: [Duration; 3],
    /// The stats panel's lines as last drawn (for the scripted report).
    stats_shown: Vec<String>,
    /// The stats panel's rectangle as last drawn (for the scripted report).
    stats_rect: Rect,
    /// The banner's rectangle as last drawn (for the scripted report).
    banner_rect: Option<Rect>,
    /// The dirty view's legend this frame, while it is on (F5): what pink means, and how many
    /// sprites were recomputed.
    dirty_legend: Option<String>,
    /// The top the profiler window was last drawn at.
    profiler_top: f32,
    /// `--save-profile FILE`: the frames kept for it from the start (the latest and the
    /// slowest, as puffin's own viewer keeps them).
    capture: Option<(PathBuf, puffin::GlobalFrameView)>,
    /// What the last save of a profile did, for the profiler window.
    pub saved: Option<String>,
    /// Compare mode's second run (F8), while it is on and follows the game.
    pub compare: Option<Compare>,
    /// Why compare mode shows no figures, when it cannot follow the game.
    pub compare_note: Option<String>,
    /// Serving profiles for `puffin_viewer`; kept alive (and read) while the game runs.
    server: Option<crate::window::platform::ProfileServer>,
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overlay")
            .field("views", &self.views)
            .finish_non_exhaustive()
    }
}

impl Overlay {
    /// An overlay with `views` on, serving puffin data on `puffin_addr` if given, and keeping
    /// frames from the start for `save_profile` if given.
    ///
    /// # Errors
    /// If the puffin server cannot listen on the address.
    pub fn new(
        views: Views,
        puffin_addr: Option<&str>,
        save_profile: Option<PathBuf>,
    ) -> Result<Self, String> {
        let server = puffin_addr
            .map(crate::window::platform::serve_profiles)
            .transpose()?;
        let overlay = Self {
            views,
            egui: None,
            history: VecDeque::with_capacity(HISTORY),
            hits: Vec::new(),
            profiler: ProfilerWindow::default(),
            steps: StepCosts::default(),
            shown: StepFigures::default(),
            since_refresh: 0,
            profiler_ran: None,
            own_us: std::array::from_fn(|_| VecDeque::with_capacity(HISTORY)),
            own_now: [Duration::ZERO; 3],
            capture: save_profile.map(|path| (path, puffin::GlobalFrameView::default())),
            saved: None,
            stats_shown: Vec::new(),
            stats_rect: Rect::default(),
            banner_rect: None,
            dirty_legend: None,
            profiler_top: 0.0,
            compare: None,
            compare_note: None,
            server,
        };
        overlay.sync_profiling();
        Ok(overlay)
    }

    /// Flip a view.
    pub fn toggle(&mut self, view: View) {
        self.views.toggle(view);
        if view == View::Profiler && self.views.is_on(view) {
            self.profiler.opened();
        }
        self.sync_profiling();
    }

    /// Whether a view that shows the ECS's per-system timings is on (the stats panel or the
    /// profiler window): the world times its systems only then.
    pub fn reads_system_timings(&self) -> bool {
        self.views.is_on(View::Stats) || self.views.is_on(View::Profiler)
    }

    /// Whether the debug systems (`debug_stats`) run: while a panel shows their counts and
    /// times (F2, F6), or a profile is served or captured (its frames name every system).
    pub fn runs_debug_systems(&self) -> bool {
        self.reads_system_timings() || self.server.is_some() || self.capture.is_some()
    }

    /// Profile scopes cost only while someone looks at them.
    fn sync_profiling(&self) {
        puffin::set_scopes_on(
            self.server.is_some() || self.capture.is_some() || self.views.is_on(View::Profiler),
        );
    }

    /// Write the profiler's frames (the latest thousand and the slowest 256 of the session) to a
    /// `.puffin` file that `puffin_viewer` opens: `--save-profile`'s file with the frames kept
    /// since the start, or else `crate-room.puffin` in the working folder with those the
    /// profiler window has seen. Returns where, or `None` with nothing to save.
    ///
    /// # Errors
    /// The file cannot be written (the message names it); an older file is left as it was.
    pub fn save_profile(&mut self) -> Result<Option<PathBuf>, String> {
        let (path, view) = match (&self.capture, self.profiler.frame_view()) {
            (Some((path, view)), _) => (path.clone(), view),
            (None, Some(view)) => (PathBuf::from("crate-room.puffin"), view),
            (None, None) => return Ok(None),
        };
        let bytes = crate::window::platform::profile_bytes(&view.lock())
            .map_err(|e| format!("profile not saved to {}: {e}", path.display()))?;
        let saved = crate::output::write(&path, crate::output::Output::Other, &bytes)
            .map_err(|e| format!("profile not saved: {e}"))
            .map(|()| Some(path.clone()));
        self.saved = Some(match &saved {
            Ok(_) => format!("saved {}", path.display()),
            Err(e) => e.clone(),
        });
        saved
    }

    /// As the game ends: write `--save-profile`'s file (nothing without the option).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn save_capture(&mut self) -> Result<(), String> {
        match self.capture {
            Some(_) => self.save_profile().map(drop),
            None => Ok(()),
        }
    }

    /// Note a step of `sim` that took `took` in `Sim::step`.
    pub fn record_step(&mut self, sim: &Sim, took: Duration) {
        let timed = self.reads_system_timings();
        self.steps.record(sim.world(), took, timed);
    }

    /// The dirty optimization was just switched (F7) to `on`: pin what it cost before.
    pub fn switched(&mut self, on: bool) {
        self.steps.switched(on);
        self.since_refresh = REFRESH_FRAMES;
    }

    /// The F7 comparison pinned on screen, if any.
    pub fn comparison(&self) -> Option<String> {
        self.steps.comparison()
    }

    /// Compare mode's lines (F8): both settings' step times, one step a frame and back to back
    /// (a line each), or why there are none yet.
    pub fn compare_text(&self) -> Option<String> {
        if !self.views.is_on(View::Compare) {
            return None;
        }
        self.compare
            .as_ref()
            .and_then(Compare::text)
            .or_else(|| self.compare_note.clone())
    }

    /// The banner's lines: the dirty view's legend, the pinned F7 comparison and compare mode's
    /// lines, shown at the bottom of the screen while the stats panel (which shows them
    /// otherwise) is off.
    fn banner_lines(&self) -> Vec<(String, Color)> {
        let mut lines = Vec::new();
        if self.views.is_on(View::Stats) {
            return lines;
        }
        if let Some(legend) = &self.dirty_legend {
            lines.push((legend.clone(), DIRTY_INK));
        }
        if let Some(text) = self.shown.comparison.clone() {
            let one = [(format!("dirty optimization: {text}"), ink::GOLD)];
            if Hud::box_size(&one, BANNER_SIZE).0 > screen_width() - 24.0 {
                lines.extend(comparison_lines(&text).into_iter().map(|t| (t, ink::GOLD)));
            } else {
                lines.extend(one);
            }
        }
        if let Some(text) = self.compare_text() {
            for line in text.lines() {
                lines.extend(
                    fit_lines(line, BANNER_SIZE)
                        .into_iter()
                        .map(|t| (t, ink::GOLD)),
                );
            }
        }
        lines
    }

    /// The top of a banner of `lines` at the bottom of the screen (`None`: no lines, no banner).
    fn banner_top(&self, lines: &[(String, Color)]) -> Option<f32> {
        (!lines.is_empty()).then(|| screen_height() - Hud::box_size(lines, BANNER_SIZE).1 - 12.0)
    }

    /// Where this frame's banner (the F7 comparison, compare mode's line) starts at the bottom of
    /// the screen, if there is one: what else goes at the bottom (the level's hint) goes above.
    pub fn banner_starts_at(&self) -> Option<f32> {
        self.banner_top(&self.banner_lines())
    }

    /// The banner's rectangle as last drawn, `[x, y, w, h]` in screen pixels (`None`: none).
    pub fn banner_rect(&self) -> Option<[f32; 4]> {
        self.banner_rect.map(|r| [r.x, r.y, r.w, r.h])
    }

    /// The panels' rectangles as last drawn, `[x, y, w, h]` in screen pixels: the stats panel's
    /// and the profiler window's (none for a panel that is off).
    pub fn panel_rects(&self) -> Vec<[f32; 4]> {
        let mut rects = Vec::new();
        if self.views.is_on(View::Stats) {
            rects.push(self.stats_rect);
        }
        if self.views.is_on(View::Profiler) {
            rects.push(self.profiler_rect());
        }
        rects.into_iter().map(|r| [r.x, r.y, r.w, r.h]).collect()
    }

    /// The text the panels showed last: the stats panel's lines, then the profiler window's
    /// Systems rows (empty for a panel that is off).
    pub fn shown_text(&self) -> (Vec<String>, Vec<String>) {
        let on = |v| self.views.is_on(v);
        (
            if on(View::Stats) {
                self.stats_shown.clone()
            } else {
                Vec::new()
            },
            if on(View::Profiler) {
                self.profiler.shown.clone()
            } else {
                Vec::new()
            },
        )
    }

    /// The profiler window's rectangle: its column, clear of the stats panel.
    fn profiler_rect(&self) -> Rect {
        let (side, top) = (self.profiler.side, self.profiler_top);
        let stats = self.views.is_on(View::Stats).then_some(self.stats_rect);
        ProfilerWindow::beside(ProfilerWindow::rect(side, top, self.profiler.bottom), stats)
    }

    /// Work out the panels' figures again when they are due (see `draw_world_views`).
    fn refresh_if_due(&mut self) {
        if self.since_refresh >= REFRESH_FRAMES || self.shown.phase.steps == 0 {
            self.shown = self.steps.figures();
            self.since_refresh = 0;
            if let Some((_, stale)) = &mut self.profiler_ran {
                *stale = true;
            }
        }
    }

    /// The overlay's own median cost per frame, each part apart.
    fn own_cost(&self) -> OwnCost {
        let [views, stats, profiler] = self.own_us.each_ref().map(median);
        OwnCost {
            views,
            stats,
            profiler,
        }
    }

    /// Count the overlay's own time since `started` into this frame's.
    fn add_own(&mut self, part: Part, started: Instant) {
        self.own_now[part as usize] += started.elapsed();
    }

    /// Record this frame's cost for the stats panel.
    pub fn record(&mut self, cost: FrameCost) {
        if cost.playing {
            self.steps.record_frame(cost.frame_ms, cost.update_ms);
        }
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(cost);
        for (ring, now) in self.own_us.iter_mut().zip(&mut self.own_now) {
            if ring.len() == HISTORY {
                ring.pop_front();
            }
            ring.push_back(std::mem::take(now).as_secs_f32() * 1e6);
        }
    }

    /// Draw the world-space views (world camera set, after the world pass). With the profiler
    /// window open, also take this frame's per-system figures for it and move it off the
    /// player (this is where the overlay learns where the player is on screen).
    pub fn draw_world_views(&mut self, sim: &Sim, view: &Aabb, scale: f32, hud: &mut Hud) {
        puffin::profile_function!();
        let started = Instant::now();
        // The first drawing of a frame that reads the figures: the one place they are counted
        // and refreshed, so every panel of the frame shows the same ones.
        self.since_refresh += 1;
        self.refresh_if_due();
        let thin = 1.0 / scale;
        let world = sim.world();
        if self.views.is_on(View::Profiler) {
            self.profiler.sample(sim.dirty_optimization());
            let player = world
                .try_column::<Player>()
                .and_then(|c| c.entities().first().copied())
                .and_then(|e| world.get::<Position>(e));
            // The key help (F1) takes the left, the stats panel the right.
            let preferred = if self.views.is_on(View::Help) {
                Side::Right
            } else {
                Side::Left
            };
            let player_x = player.map(|p| to_screen(view, scale, p.x, p.y).0);
            self.profiler.place(preferred, player_x);
        }
        if self.views.is_on(View::Grid) {
            let grid = &world.resource::<CollisionGrid>().0;
            for (cell, count) in grid.occupied_cells(view) {
                let shade = (0.15 + 0.1 * count as f32).min(0.6);
                draw_rectangle(
                    cell.min_x,
                    cell.min_y,
                    cell.max_x - cell.min_x,
                    cell.max_y - cell.min_y,
                    Color::new(0.2, 0.5, 1.0, shade * 0.5),
                );
                outline(&cell, thin, Color::new(0.35, 0.6, 1.0, 0.9));
                let (sx, sy) = to_screen(view, scale, cell.min_x + 2.0, cell.min_y + 8.0);
                hud.text(count.to_string(), sx, sy, 18.0, WHITE);
            }
        }
        self.dirty_legend = None;
        if self.views.is_on(View::Dirty) {
            let log = world.resource::<DrawDirtyLog>();
            let sprites = world.try_column::<DrawData>().map_or(0, |c| c.len());
            let recomputed = if log.all { sprites } else { log.entities.len() };
            self.dirty_legend = Some(format!(
                "F5 pink: recomputed this frame, {} of {} sprites (tracking {})",
                group(recomputed as u64),
                group(sprites as u64),
                if sim.dirty_optimization() {
                    "on"
                } else {
                    "off"
                }
            ));
            let mark = |e| {
                if let Some(d) = world.get::<DrawData>(e) {
                    let r = Aabb {
                        min_x: d.x,
                        min_y: d.y,
                        max_x: d.x + f32::from(d.src.w),
                        max_y: d.y + f32::from(d.src.h),
                    };
                    if r.overlaps(view) {
                        draw_rectangle(r.min_x, r.min_y, TILE, TILE, DIRTY_TINT);
                    }
                }
            };
            if log.all {
                // Everything was recomputed: what the render grid holds in view.
                world.resource::<DrawGrid>().0.query(view, &mut self.hits);
                self.hits.iter().for_each(|hit| mark(hit.entity));
            } else {
                log.entities.iter().for_each(|&e| mark(e));
            }
        }
        if self.views.is_on(View::Boxes) {
            // The render grid holds every visible sprite, including crates whose collider is off.
            world.resource::<DrawGrid>().0.query(view, &mut self.hits);
            for hit in &self.hits {
                let (Some(c), Some(p)) = (
                    world.get::<Collider>(hit.entity),
                    world.get::<Position>(hit.entity),
                ) else {
                    continue;
                };
                let colour = match (c.enabled, c.solid) {
                    (false, _) => Color::new(1.0, 0.25, 0.2, 1.0),
                    (true, true) => Color::new(0.3, 1.0, 0.4, 1.0),
                    (true, false) => Color::new(0.3, 0.9, 1.0, 1.0),
                };
                outline(&Aabb::centered(p.x, p.y, c.half_w, c.half_h), thin, colour);
            }
        }
        self.add_own(Part::Views, started);
    }

    /// Queue the stats panel (if on) into `hud`, its top at `top`, at the right edge. The panel
    /// is opaque, so its figures read the same over any part of the level.
    /// Without the stats panel, a pinned F7 comparison and compare mode's line (F8) go in a
    /// banner at the bottom.
    pub fn draw_panels(&mut self, sim: &Sim, fps: f32, top: f32, hud: &mut Hud) {
        if !self.views.is_on(View::Stats) {
            let lines = self.banner_lines();
            self.banner_rect = self.banner_top(&lines).map(|y| {
                let (w, h) = Hud::box_size(&lines, BANNER_SIZE);
                let rect = Rect::new(((screen_width() - w) / 2.0).max(0.0), y, w, h);
                hud.panel(rect, ink::OPAQUE);
                hud.text_box(&lines, rect.x, rect.y, BANNER_SIZE)
            });
            return;
        }
        self.banner_rect = None;
        puffin::profile_function!();
        let started = Instant::now();
        (self.stats_shown, self.stats_rect) = draw_stats(
            hud,
            sim,
            fps,
            top,
            &self.history,
            &self.shown,
            OverlayFigures {
                compare: self.compare_text(),
                dirty_legend: self.dirty_legend.clone(),
                own_us: self.own_cost(),
                beside_profiler: self.views.is_on(View::Profiler),
            },
        );
        self.add_own(Part::Stats, started);
    }

    /// Run and paint the profiler window (last, over everything), its top at `top`, its bottom
    /// above the banner and the level's `hint` (the box drawn this frame, if any) where it
    /// would cover them.
    pub fn draw_profiler(&mut self, top: f32, hint: Option<Rect>) {
        if !self.views.is_on(View::Profiler) {
            return;
        }
        let started = Instant::now();
        self.profiler_top = top;
        let below: Vec<Rect> = self.banner_rect.into_iter().chain(hint).collect();
        self.profiler.bottom = ProfilerWindow::bottom(self.profiler.side, top, &below);
        let own_us = self.own_cost();
        let egui = self.egui.get_or_insert_with(EguiBridge::new);
        let steps = &self.shown;
        let saved = self.saved.as_deref();
        let profiler = &mut self.profiler;
        let last = self.history.back().copied().unwrap_or_default();
        let stats = self.views.is_on(View::Stats).then_some(self.stats_rect);
        let rect = ProfilerWindow::beside(
            ProfilerWindow::rect(profiler.side, top, profiler.bottom),
            stats,
        );
        let mut open = true;
        // egui runs (and lays the window out again) only when there is something new to show
        // or to answer: refreshed figures, input, a move, a zoom in progress. Else its last
        // meshes are painted again.
        let input = mouse_wheel() != (0.0, 0.0)
            || mouse_delta_position() != Vec2::ZERO
            || [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
                .into_iter()
                .any(|b| is_mouse_button_down(b) || is_mouse_button_released(b))
            || !get_keys_pressed().is_empty();
        let fresh = match self.profiler_ran {
            Some((last, stale)) => !stale && last == rect && !input && !profiler.busy(),
            None => false,
        };
        if fresh {
            egui.repaint();
            self.add_own(Part::Profiler, started);
            return;
        }
        self.profiler_ran = Some((rect, false));
        egui.run(|ctx| {
            ctx.style_mut(fit_style);
            let compact = screen_height() < COMPACT_BELOW;
            // The window's frame adds margins and the title bar around the content.
            let content = [rect.w - 14.0, rect.h - if compact { 30.0 } else { 44.0 }];
            // A short screen has the step's median in the title instead of a line of its own.
            let title = match compact {
                true => format!(
                    "F2  step {} (median, {} steps)",
                    step_micros(steps.phase.step_us),
                    steps.phase.steps
                ),
                false => "Profiler (F2)".to_owned(),
            };
            egui::Window::new(title)
                .id(egui::Id::new("profiler"))
                .open(&mut open)
                .collapsible(false)
                .fixed_pos([rect.x, rect.y])
                .fixed_size(content)
                .max_width(content[0])
                .show(ctx, |ui| profiler.ui(ui, last, steps, own_us, saved));
        });
        egui.draw();
        self.add_own(Part::Profiler, started);
        if std::mem::take(&mut self.profiler.save_requested) {
            // The outcome shows in the window (`saved`).
            let _ = self.save_profile();
        }
        if !open {
            self.views.set(View::Profiler, false);
            self.sync_profiling();
        }
    }
}

/// `text` on one line, or on two (split at its last comma) when one is wider than the screen.
fn fit_lines(text: &str, size: f32) -> Vec<String> {
    let one = [(text.to_owned(), ink::GOLD)];
    match text.rsplit_once(", ") {
        Some((a, b)) if Hud::box_size(&one, size).0 > screen_width() - 24.0 => {
            vec![a.to_owned(), b.to_owned()]
        }
        _ => vec![text.to_owned()],
    }
}

fn to_screen(view: &Aabb, scale: f32, x: f32, y: f32) -> (f32, f32) {
    ((x - view.min_x) * scale, (y - view.min_y) * scale)
}

fn outline(r: &Aabb, t: f32, c: Color) {
    let (w, h) = (r.max_x - r.min_x, r.max_y - r.min_y);
    draw_rectangle(r.min_x, r.min_y, w, t, c);
    draw_rectangle(r.min_x, r.max_y - t, w, t, c);
    draw_rectangle(r.min_x, r.min_y, t, h, c);
    draw_rectangle(r.max_x - t, r.min_y, t, h, c);
}
