//! The debug overlay: collision boxes, the spatial-hash grid, the dirty view, the stats panel
//! and the profiler window. Nothing is queried or drawn for a view that is off; what is drawn is
//! plain quads from macroquad's batcher (one draw call per view), never one call per box.
//!
//! The profiler window (egui) has two tabs: **Systems**, a table of what each system cost per
//! simulation step, read from the ECS's own timings; and **Flamegraph**, puffin's view of the
//! frame, zoomed to the `update` scope (a whole frame in software GL is tens of milliseconds, so
//! at full width the update is a sliver). The window docks to a side of the screen, below the
//! HUD, and moves across when the player walks under it.

use std::collections::VecDeque;

use ecs::World;
use macroquad::prelude::*;

use super::views::{View, Views};
use crate::sim::components::{Collider, DrawData, Player, Position};
use crate::sim::grid::{Aabb, Hit};
use crate::sim::resources::{CollisionGrid, DebugCounts, DrawDirtyLog, DrawGrid};
use crate::sim::{Sim, TILE};
use crate::window::egui_bridge::EguiBridge;
use crate::window::ui::{Hud, ink};

/// Wall-clock cost of one frame, for the stats panel's bars.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameCost {
    /// Simulation steps run this frame.
    pub steps: u32,
    /// Time in `Sim::step` this frame, milliseconds.
    pub update_ms: f32,
    /// Time building the frame's draw lists, milliseconds.
    pub render_ms: f32,
    /// Draw calls of the world pass, as last measured.
    pub world_draw_calls: Option<usize>,
    /// Quads in the world pass.
    pub world_quads: usize,
}

/// Debug views and their state between frames.
pub struct Overlay {
    /// Which views are on.
    pub views: Views,
    egui: Option<EguiBridge>,
    history: VecDeque<FrameCost>,
    hits: Vec<Hit>,
    profiler: ProfilerWindow,
    /// Serving profiles for `puffin_viewer`; kept alive (and read) while the game runs.
    server: Option<puffin_http::Server>,
}

impl std::fmt::Debug for Overlay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overlay")
            .field("views", &self.views)
            .finish_non_exhaustive()
    }
}

const HISTORY: usize = 120;

impl Overlay {
    /// An overlay with `views` on, serving puffin data on `puffin_addr` if given.
    ///
    /// # Errors
    /// If the puffin server cannot listen on the address.
    pub fn new(views: Views, puffin_addr: Option<&str>) -> Result<Self, String> {
        let server = puffin_addr
            .map(|addr| {
                puffin_http::Server::new(addr)
                    .map_err(|e| format!("cannot start the puffin server on {addr}: {e:#}"))
            })
            .transpose()?;
        let overlay = Self {
            views,
            egui: None,
            history: VecDeque::with_capacity(HISTORY),
            hits: Vec::new(),
            profiler: ProfilerWindow::default(),
            server,
        };
        overlay.sync_profiling();
        Ok(overlay)
    }

    /// Flip a view.
    pub fn toggle(&mut self, view: View) {
        self.views.toggle(view);
        self.sync_profiling();
    }

    /// Whether a view that shows the ECS's per-system timings is on (the stats panel or the
    /// profiler window): the world times its systems only then.
    pub fn reads_system_timings(&self) -> bool {
        self.views.is_on(View::Stats) || self.views.is_on(View::Profiler)
    }

    /// Profile scopes cost only while someone looks at them.
    fn sync_profiling(&self) {
        puffin::set_scopes_on(self.server.is_some() || self.views.is_on(View::Profiler));
    }

    /// Record this frame's cost for the stats panel.
    pub fn record(&mut self, cost: FrameCost) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(cost);
    }

    /// Draw the world-space views (world camera set, after the world pass). With the profiler
    /// window open, also take this frame's per-system figures for it and move it off the
    /// player (this is where the overlay learns where the player is on screen).
    pub fn draw_world_views(&mut self, sim: &Sim, view: &Aabb, scale: f32, hud: &mut Hud) {
        puffin::profile_function!();
        let thin = 1.0 / scale;
        let world = sim.world();
        if self.views.is_on(View::Profiler) {
            self.profiler.sample(world, sim.dirty_optimization());
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
        if self.views.is_on(View::Dirty) {
            let log = &world.resource::<DrawDirtyLog>().0;
            for &e in log {
                if let Some(d) = world.get::<DrawData>(e) {
                    let r = Aabb {
                        min_x: d.x,
                        min_y: d.y,
                        max_x: d.x + f32::from(d.src.w),
                        max_y: d.y + f32::from(d.src.h),
                    };
                    if r.overlaps(view) {
                        draw_rectangle(
                            r.min_x,
                            r.min_y,
                            TILE,
                            TILE,
                            Color::new(1.0, 0.2, 0.8, 0.45),
                        );
                    }
                }
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
    }

    /// Queue the stats panel (if on) into `hud`, its top at `top`, at the right edge. The panel
    /// is opaque, so its figures read the same over any part of the level.
    pub fn draw_panels(&mut self, sim: &Sim, fps: f32, top: f32, hud: &mut Hud) {
        if !self.views.is_on(View::Stats) {
            return;
        }
        puffin::profile_function!();
        let last = self.history.back().copied().unwrap_or_default();
        let world = sim.world();
        let steps = match last.steps {
            1 => "1 step".to_string(),
            n => format!("{n} steps"),
        };
        let mut lines = vec![
            ("Stats (F6)".to_string(), ink::GOLD),
            (
                format!(
                    "{fps:.0} FPS   update {} ({steps})   render {}",
                    micros(last.update_ms * 1e3),
                    micros(last.render_ms * 1e3)
                ),
                ink::TEXT,
            ),
            (
                format!(
                    "entities {}   world quads {}   world draw calls {}",
                    world.len(),
                    last.world_quads,
                    last.world_draw_calls
                        .map_or("-".to_string(), |n| n.to_string())
                ),
                ink::TEXT,
            ),
            (
                world
                    .get_resource::<DebugCounts>()
                    .map_or(String::new(), |c| {
                        format!(
                            "crates {} ({} exploding)  movers {}  animating {}  effects {}",
                            c.crates, c.exploding, c.movers, c.animating, c.effects
                        )
                    }),
                ink::TEXT,
            ),
            (
                format!(
                    "dirty optimization {}",
                    if sim.dirty_optimization() {
                        "ON"
                    } else {
                        "OFF (F7)"
                    }
                ),
                if sim.dirty_optimization() {
                    ink::TEXT
                } else {
                    ink::ERROR
                },
            ),
            (
                format!("{:<16}{:>8}{:>8}{:>9}", "system", "tracked", "dirty", "µs"),
                ink::DIM,
            ),
        ];
        for s in world.systems() {
            lines.push((
                format!(
                    "{:<16}{:>8}{:>8}{:>9.1}",
                    s.name,
                    s.tracked,
                    s.last_dirty,
                    s.last_duration.as_secs_f64() * 1e6
                ),
                ink::TEXT,
            ));
        }

        const SIZE: f32 = 18.0;
        const LABEL: f32 = 16.0;
        let pad = SIZE * 0.5;
        let (text_w, text_h) = Hud::box_size(&lines, SIZE);
        let graph_w = HISTORY as f32 * BAR_STEP;
        // The widest scale label the graph is likely to need.
        let axis_w = measure_text(micros(50_000.0), None, LABEL as u16, 1.0).width;
        let w = text_w.max(pad + graph_w + 8.0 + axis_w + pad);
        // Text, a gap, the graph, its legend.
        let h = text_h + 12.0 + GRAPH_H + 28.0 + LEGEND_LINE;
        let x = (screen_width() - w - MARGIN).max(0.0);
        hud.panel(Rect::new(x, top, w, h), ink::OPAQUE);
        for (i, (t, c)) in lines.iter().enumerate() {
            let y = top + pad + SIZE * 0.8 + SIZE * 1.15 * i as f32;
            hud.text(t.clone(), x + pad, y, SIZE, *c);
        }

        // One bar per frame, update under render. The scale is the round figure above nine
        // frames in ten of the history, so the update stays visible next to the render and a
        // rare slow frame does not flatten the rest; bars cut at the top line get a red tip.
        let top_us = graph_scale(
            self.history
                .iter()
                .map(|c| (c.update_ms + c.render_ms) * 1e3),
        );
        let (gx, base) = (x + pad, top + text_h + 12.0 + GRAPH_H);
        let per_us = GRAPH_H / top_us;
        for us in [0.0, top_us / 2.0, top_us] {
            let y = base - us * per_us;
            hud.panel(Rect::new(gx, y, graph_w, 1.0), GRID_INK);
            let label = if us == 0.0 {
                "0".to_string()
            } else {
                micros(us)
            };
            hud.text(label, gx + graph_w + 8.0, y + 5.0, LABEL, ink::DIM);
        }
        for (i, c) in self.history.iter().enumerate() {
            let u = (c.update_ms * 1e3 * per_us).min(GRAPH_H);
            let r = (c.render_ms * 1e3 * per_us).min(GRAPH_H - u);
            let bx = gx + i as f32 * BAR_STEP;
            hud.panel(Rect::new(bx, base - u, BAR_STEP - 1.0, u), UPDATE_INK);
            hud.panel(Rect::new(bx, base - u - r, BAR_STEP - 1.0, r), RENDER_INK);
            if (c.update_ms + c.render_ms) * 1e3 > top_us {
                hud.panel(
                    Rect::new(bx, base - GRAPH_H, BAR_STEP - 1.0, 3.0),
                    ink::ERROR,
                );
            }
        }
        let legend_y = base + 22.0;
        let mut lx = gx;
        for (name, colour) in [
            ("update (simulation)", UPDATE_INK),
            ("render (draw lists)", RENDER_INK),
        ] {
            hud.panel(Rect::new(lx, legend_y - 10.0, 10.0, 10.0), colour);
            hud.text(name, lx + 14.0, legend_y, LABEL, colour);
            lx += 14.0 + measure_text(name, None, LABEL as u16, 1.0).width + 16.0;
        }
        hud.text(
            "one bar per frame, time in µs; red tip: over the scale",
            gx,
            legend_y + LEGEND_LINE,
            LABEL,
            ink::DIM,
        );
    }

    /// Run and paint the profiler window (last, over everything), its top at `top`.
    pub fn draw_profiler(&mut self, top: f32) {
        if !self.views.is_on(View::Profiler) {
            return;
        }
        let egui = self.egui.get_or_insert_with(EguiBridge::new);
        let profiler = &mut self.profiler;
        let last = self.history.back().copied().unwrap_or_default();
        let rect = ProfilerWindow::rect(profiler.side, top);
        let mut open = true;
        egui.run(|ctx| {
            // The window's frame adds margins and the title bar around the content.
            let content = [rect.w - 14.0, rect.h - 44.0];
            egui::Window::new("Profiler (F2)")
                .open(&mut open)
                .collapsible(false)
                .fixed_pos([rect.x, rect.y])
                .fixed_size(content)
                .max_width(content[0])
                .show(ctx, |ui| profiler.ui(ui, last));
        });
        egui.draw();
        if !open {
            self.views.set(View::Profiler, false);
            self.sync_profiling();
        }
    }
}

/// Frames the Systems tab averages over: one second at 60 FPS.
const COST_WINDOW: usize = 60;
/// Line height of the stats graph's legend.
const LEGEND_LINE: f32 = 20.0;
/// Height of the stats graph in pixels.
const GRAPH_H: f32 = 72.0;
/// Pixels per frame in the stats graph: a 2 px bar and a 1 px gap.
const BAR_STEP: f32 = 3.0;
/// Gap between a debug panel and the screen's edge.
const MARGIN: f32 = 12.0;
const UPDATE_INK: Color = Color::new(1.0, 0.55, 0.2, 1.0);
const RENDER_INK: Color = Color::new(0.3, 0.7, 1.0, 1.0);
const GRID_INK: Color = Color::new(0.35, 0.33, 0.4, 1.0);

/// The stats graph's full height in microseconds: the first of 100, 200, 500, 1,000, 2,000, ...
/// at or above nine in ten of `totals`.
fn graph_scale(totals: impl Iterator<Item = f32>) -> f32 {
    let mut totals: Vec<f32> = totals.collect();
    totals.sort_by(f32::total_cmp);
    let p90 = totals.get(totals.len() * 9 / 10).copied().unwrap_or(0.0);
    let mut scale = 100.0;
    let mut steps = [2.0, 2.5, 2.0].into_iter().cycle();
    // Capped at 100 s, so a nonsense figure cannot loop for ever.
    while scale < p90 && scale < 1e8 {
        scale *= steps.next().unwrap_or(2.0);
    }
    scale
}

/// Microseconds, whole, with thousands separated: `16,667 µs`.
fn micros(us: f32) -> String {
    let n = us.round().max(0.0) as u64;
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + 6);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out + " µs"
}

/// Which side of the screen the profiler window is docked to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Side {
    #[default]
    Left,
    Right,
}

impl Side {
    fn other(self) -> Self {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// The profiler window's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Tab {
    #[default]
    Systems,
    Flamegraph,
}

/// One system's recent cost, for the Systems tab.
#[derive(Debug)]
struct SystemCost {
    name: &'static str,
    tracked: usize,
    dirty: usize,
    /// Its last step's time, one entry per frame, newest last, in microseconds.
    recent_us: VecDeque<f32>,
}

impl SystemCost {
    fn mean_us(&self) -> f32 {
        self.recent_us.iter().sum::<f32>() / self.recent_us.len().max(1) as f32
    }
}

/// The profiler window: where it is docked, which tab is open, and what it shows.
#[derive(Default)]
struct ProfilerWindow {
    side: Side,
    tab: Tab,
    costs: Vec<SystemCost>,
    dirty_optimization: bool,
    /// puffin's own viewer state, made when the window first opens (from then on it collects
    /// frames).
    puffin: Option<puffin_egui::GlobalProfilerUi>,
    /// The flamegraph should zoom to the update scope as soon as there is one to zoom to.
    zoom_pending: bool,
}

/// Widest profiler window: the Systems table needs about 430 px; more would only hide the game.
const PROFILER_MAX_W: f32 = 500.0;
/// Narrowest profiler window, for small screens (it then reaches the middle).
const PROFILER_MIN_W: f32 = 440.0;
/// The middle of the screen the profiler window leaves clear: where the camera keeps the player
/// in a level larger than the screen (a 48 px sprite at scale 3, plus room to swing).
const CLEAR_MIDDLE: f32 = 300.0;
/// How close the player may come to the window, in screen pixels, before it moves across.
const PLAYER_CLEARANCE: f32 = 40.0;

impl ProfilerWindow {
    /// The window's rectangle when docked to `side`: a column from `top` to the bottom of the
    /// screen, leaving the middle clear.
    fn rect(side: Side, top: f32) -> Rect {
        let w = ((screen_width() - CLEAR_MIDDLE) / 2.0 - MARGIN)
            .clamp(PROFILER_MIN_W, PROFILER_MAX_W)
            .min(screen_width() - 2.0 * MARGIN);
        let x = match side {
            Side::Left => MARGIN,
            Side::Right => screen_width() - w - MARGIN,
        };
        Rect::new(x, top, w, (screen_height() - top - MARGIN).max(120.0))
    }

    /// Dock to `preferred` (the side no other panel uses), or to the other side while the
    /// player, at screen x `player_x`, is under it. Coming back waits until the player is well
    /// clear, so a player on the edge does not make the window jump to and fro.
    fn place(&mut self, preferred: Side, player_x: Option<f32>) {
        let covers = |side, clearance| {
            let r = Self::rect(side, 0.0);
            player_x.is_some_and(|x| x + clearance > r.x && x - clearance < r.x + r.w)
        };
        if self.side != preferred && !covers(preferred, 3.0 * PLAYER_CLEARANCE) {
            self.side = preferred;
        }
        if covers(self.side, PLAYER_CLEARANCE) && !covers(self.side.other(), PLAYER_CLEARANCE) {
            self.side = self.side.other();
        }
    }

    /// Take this frame's per-system figures from the world.
    fn sample(&mut self, world: &World, dirty_optimization: bool) {
        self.dirty_optimization = dirty_optimization;
        let same = self.costs.len() == world.systems().len()
            && self
                .costs
                .iter()
                .zip(world.systems())
                .all(|(c, s)| c.name == s.name);
        if !same {
            self.costs = world
                .systems()
                .map(|s| SystemCost {
                    name: s.name,
                    tracked: 0,
                    dirty: 0,
                    recent_us: VecDeque::with_capacity(COST_WINDOW),
                })
                .collect();
        }
        for (cost, s) in self.costs.iter_mut().zip(world.systems()) {
            cost.tracked = s.tracked;
            cost.dirty = s.last_dirty;
            if cost.recent_us.len() == COST_WINDOW {
                cost.recent_us.pop_front();
            }
            cost.recent_us
                .push_back(s.last_duration.as_secs_f32() * 1e6);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, last: FrameCost) {
        let puffin = self.puffin.get_or_insert_with(|| {
            let mut p = puffin_egui::GlobalProfilerUi::default();
            // One row per system however many steps the frame ran; the view also keeps its
            // zoom when the number of frames shown changes.
            p.profiler_ui.flamegraph_options.merge_scopes = true;
            p
        });
        ui.horizontal(|ui| {
            for (tab, name) in [(Tab::Systems, "Systems"), (Tab::Flamegraph, "Flamegraph")] {
                if ui.selectable_label(self.tab == tab, name).clicked() && self.tab != tab {
                    self.tab = tab;
                    self.zoom_pending = tab == Tab::Flamegraph;
                }
            }
            if self.costs.is_empty() {
                return;
            }
            ui.separator();
            let (state, colour) = if self.dirty_optimization {
                ("ON", egui::Color32::from_rgb(130, 220, 130))
            } else {
                ("OFF", egui::Color32::from_rgb(255, 115, 100))
            };
            ui.label("dirty tracking");
            ui.label(egui::RichText::new(state).strong().color(colour));
            ui.weak("(F7)");
        });
        ui.separator();
        match self.tab {
            Tab::Systems if self.costs.is_empty() => {
                ui.label("No level is running.");
            }
            Tab::Systems => systems_table(ui, &self.costs, last),
            Tab::Flamegraph => {
                ui.horizontal(|ui| {
                    if ui.button("Zoom to update").clicked() {
                        self.zoom_pending = true;
                    }
                    ui.weak("double-click: whole frame; ctrl+scroll: zoom");
                });
                if self.zoom_pending {
                    let canvas_width = ui.available_width() - 12.0;
                    self.zoom_pending = !zoom_to_update(puffin, canvas_width);
                }
                // Long lines (puffin's frame summary) end in "…" rather than widen the window.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                // Space swings the hammer; puffin would take it as "pause".
                ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Space));
                puffin.ui(ui);
            }
        }
    }
}

/// The Systems tab: each system's time per step (mean of the last second's frames), its share
/// of the step as a bar, and what it tracked and was given dirty.
fn systems_table(ui: &mut egui::Ui, costs: &[SystemCost], last: FrameCost) {
    let total: f32 = costs.iter().map(SystemCost::mean_us).sum();
    ui.label(format!(
        "This frame: update {} in {} step{}, render {}.",
        micros(last.update_ms * 1e3),
        last.steps,
        if last.steps == 1 { "" } else { "s" },
        micros(last.render_ms * 1e3)
    ));
    ui.weak(format!(
        "µs per step, mean of the last {COST_WINDOW} frames; the bar is the system's share of \
         the step's {total:.1} µs."
    ));
    let bar_ink = egui::Color32::from_rgb(255, 140, 50);
    egui::ScrollArea::vertical().show(ui, |ui| {
        egui::Grid::new("systems")
            .striped(true)
            .spacing([8.0, 3.0])
            .show(ui, |ui| {
                ui.strong("system");
                ui.strong(format!("{:>7}", "tracked"));
                ui.strong(format!("{:>6}", "dirty"));
                ui.strong(format!("{:>8}", "µs"));
                ui.strong("share");
                ui.end_row();
                for c in costs {
                    let mean = c.mean_us();
                    let share = if total > 0.0 { mean / total } else { 0.0 };
                    ui.monospace(c.name);
                    ui.monospace(format!("{:>7}", c.tracked));
                    ui.monospace(format!("{:>6}", c.dirty));
                    ui.monospace(format!("{mean:>8.1}"));
                    ui.horizontal(|ui| {
                        let (rect, _) =
                            ui.allocate_exact_size(egui::vec2(100.0, 12.0), egui::Sense::hover());
                        ui.painter()
                            .rect_filled(rect, 2.0, egui::Color32::from_gray(45));
                        let mut bar = rect;
                        bar.set_width(rect.width() * share);
                        ui.painter().rect_filled(bar, 2.0, bar_ink);
                        ui.monospace(format!("{:>3.0}%", share * 100.0));
                    });
                    ui.end_row();
                }
                ui.strong("all systems");
                ui.label("");
                ui.label("");
                ui.strong(egui::RichText::new(format!("{total:>8.1}")).monospace());
                ui.label("");
                ui.end_row();
            });
    });
}

/// Zoom puffin's merged flamegraph to the `update` scope of the latest frame, with a little room
/// either side. Returns false while no frame has an update that ran systems.
fn zoom_to_update(profiler: &mut puffin_egui::GlobalProfilerUi, canvas_width: f32) -> bool {
    let span = {
        let view = profiler.global_frame_view().lock();
        let Some(frame) = view.latest_frame().and_then(|f| f.unpacked().ok()) else {
            return false;
        };
        let frames = [frame];
        let names = view.scope_collection();
        frames[0].thread_streams.keys().find_map(|thread| {
            let merged = puffin::merge_scopes_for_thread(names, &frames, thread).ok()?;
            // The flamegraph's left edge is the earliest top-level scope.
            let origin = merged.iter().map(|s| s.relative_start_ns).min()?;
            find_scope(&merged, names, "update", 0).map(|(start, len)| (start - origin, len))
        })
    };
    let Some((start, len)) = span else {
        return false;
    };
    let margin = len as f32 * 0.05;
    let options = &mut profiler.profiler_ui.flamegraph_options;
    options.canvas_width_ns = len as f32 + 2.0 * margin;
    options.sideways_pan_in_points =
        -canvas_width * (start as f32 - margin) / options.canvas_width_ns;
    true
}

/// Start (in the flamegraph's time) and length of the first merged scope called `name` that has
/// children, searching depth first.
fn find_scope(
    scopes: &[puffin::MergeScope<'_>],
    names: &puffin::ScopeCollection,
    name: &str,
    parent_start: i64,
) -> Option<(i64, i64)> {
    scopes.iter().find_map(|s| {
        let start = parent_start + s.relative_start_ns;
        let named = names.fetch_by_id(&s.id).is_some_and(|d| d.name() == name);
        if named && !s.children.is_empty() {
            Some((start, s.duration_per_frame_ns))
        } else {
            find_scope(&s.children, names, name, start)
        }
    })
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

#[cfg(test)]
mod tests {
    use super::{graph_scale, micros};

    #[test]
    fn micros_are_whole_and_grouped_in_thousands() {
        assert_eq!(micros(0.4), "0 µs");
        assert_eq!(micros(999.6), "1,000 µs");
        assert_eq!(micros(16_666.7), "16,667 µs");
        assert_eq!(micros(1_234_567.0), "1,234,567 µs");
    }

    #[test]
    fn graph_scale_is_a_round_figure_above_nine_frames_in_ten() {
        assert_eq!(graph_scale(std::iter::empty()), 100.0);
        assert_eq!(graph_scale([40.0; 10].into_iter()), 100.0);
        assert_eq!(graph_scale([1_100.0; 10].into_iter()), 2_000.0);
        // One slow frame in twenty does not set the scale.
        let totals = [300.0; 19].into_iter().chain([9_000.0]);
        assert_eq!(graph_scale(totals), 500.0);
        assert_eq!(graph_scale([f32::INFINITY; 3].into_iter()), 1e8);
    }
}
