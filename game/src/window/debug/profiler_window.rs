//! The profiler window (F2): two tabs, **Systems**, a table of what each system cost per
//! simulation step, read from the ECS's own timings; and **Flamegraph**, puffin's view of the
//! frame, zoomed to the `update` scope (a whole frame in software GL is tens of milliseconds, so
//! at full width the update is a sliver). The window docks to a side of the screen, below the
//! HUD, and moves across when the player walks under it.

use std::collections::VecDeque;

use ecs::World;
use macroquad::prelude::*;

use super::frame_cost::{FrameCost, micros};
use super::stats_panel::MARGIN;

/// Frames the Systems tab averages over: one second at 60 FPS.
const COST_WINDOW: usize = 60;

/// Which side of the screen the profiler window is docked to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Side {
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
pub(super) struct ProfilerWindow {
    pub(super) side: Side,
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
    pub(super) fn rect(side: Side, top: f32) -> Rect {
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
    pub(super) fn place(&mut self, preferred: Side, player_x: Option<f32>) {
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
    pub(super) fn sample(&mut self, world: &World, dirty_optimization: bool) {
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

    pub(super) fn ui(&mut self, ui: &mut egui::Ui, last: FrameCost) {
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
