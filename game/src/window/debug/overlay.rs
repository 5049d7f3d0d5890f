//! The debug overlay: collision boxes, the spatial-hash grid, the dirty view, the stats panel
//! and the profiler window. Nothing is queried or drawn for a view that is off; what is drawn is
//! plain quads from macroquad's batcher (one draw call per view), never one call per box.
//!
//! This file holds the views' state and draws the world-space views; the stats panel is
//! `stats_panel`'s, the profiler window `profiler_window`'s.

use std::collections::VecDeque;

use macroquad::prelude::*;

pub use super::frame_cost::FrameCost;
use super::frame_cost::HISTORY;
use super::profiler_window::{ProfilerWindow, Side};
use super::stats_panel::draw_stats;
use super::views::{View, Views};
use crate::sim::components::{Collider, DrawData, Player, Position};
use crate::sim::grid::{Aabb, Hit};
use crate::sim::resources::{CollisionGrid, DrawDirtyLog, DrawGrid};
use crate::sim::{Sim, TILE};
use crate::window::egui_bridge::EguiBridge;
use crate::window::ui::Hud;

/// Debug views and their state between frames.
pub struct Overlay {
    /// Which views are on.
    pub views: Views,
    egui: Option<EguiBridge>,
    history: VecDeque<FrameCost>,
    hits: Vec<Hit>,
    profiler: ProfilerWindow,
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
    /// An overlay with `views` on, serving puffin data on `puffin_addr` if given.
    ///
    /// # Errors
    /// If the puffin server cannot listen on the address.
    pub fn new(views: Views, puffin_addr: Option<&str>) -> Result<Self, String> {
        let server = puffin_addr
            .map(crate::window::platform::serve_profiles)
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
            let mark = |e| {
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
            };
            let log = world.resource::<DrawDirtyLog>();
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
    }

    /// Queue the stats panel (if on) into `hud`, its top at `top`, at the right edge. The panel
    /// is opaque, so its figures read the same over any part of the level.
    pub fn draw_panels(&mut self, sim: &Sim, fps: f32, top: f32, hud: &mut Hud) {
        if !self.views.is_on(View::Stats) {
            return;
        }
        puffin::profile_function!();
        draw_stats(hud, sim, fps, top, &self.history);
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
