//! The debug overlay: collision boxes, the spatial-hash grid, the dirty view, the stats panel
//! and puffin's profiler window. Nothing is queried or drawn for a view that is off; what is
//! drawn is plain quads from macroquad's batcher (one draw call per view), never one call per box.

use std::collections::VecDeque;

use macroquad::prelude::*;

use super::views::{View, Views};
use crate::egui_bridge::EguiBridge;
use crate::sim::components::{Collider, DrawData, Position};
use crate::sim::grid::{Aabb, Hit};
use crate::sim::resources::{CollisionGrid, DebugCounts, DrawDirtyLog, DrawGrid};
use crate::sim::{Sim, TILE};
use crate::ui::{Hud, ink};

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
    _server: Option<puffin_http::Server>,
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
                    .map_err(|e| format!("cannot start the puffin server on {addr}: {e}"))
            })
            .transpose()?;
        let overlay = Self {
            views,
            egui: None,
            history: VecDeque::with_capacity(HISTORY),
            hits: Vec::new(),
            _server: server,
        };
        overlay.sync_profiling();
        Ok(overlay)
    }

    /// Flip a view.
    pub fn toggle(&mut self, view: View) {
        self.views.toggle(view);
        self.sync_profiling();
    }

    /// Profile scopes cost only while someone looks at them.
    fn sync_profiling(&self) {
        puffin::set_scopes_on(self._server.is_some() || self.views.is_on(View::Profiler));
    }

    /// Record this frame's cost for the stats panel.
    pub fn record(&mut self, cost: FrameCost) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(cost);
    }

    /// Draw the world-space views (world camera set, after the world pass).
    pub fn draw_world_views(&mut self, sim: &Sim, view: &Aabb, scale: f32, hud: &mut Hud) {
        puffin::profile_function!();
        let thin = 1.0 / scale;
        let world = sim.world();
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

    /// Queue the stats panel (if on) into `hud`, its top at `top`, at the right edge.
    pub fn draw_panels(&mut self, sim: &Sim, fps: f32, top: f32, hud: &mut Hud) {
        if !self.views.is_on(View::Stats) {
            return;
        }
        puffin::profile_function!();
        let last = self.history.back().copied().unwrap_or_default();
        let world = sim.world();
        let mut lines = vec![
            ("Stats (F6)".to_string(), ink::GOLD),
            (
                format!(
                    "{fps:.0} FPS   update {:>6.2} ms ({} steps)   render {:>6.2} ms",
                    last.update_ms, last.steps, last.render_ms
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
                format!("{:<16}{:>8}{:>8}{:>9}", "system", "tracked", "dirty", "us"),
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
        let size = 18.0;
        let x = (screen_width() - Hud::box_size(&lines, size).0 - 12.0).max(0.0);
        let rect = hud.text_box(&lines, x, top, size);
        // Bars like the seed article's overlay: one column per frame, update over render,
        // scaled so the full height is 16.7 ms (one 60 Hz frame).
        let (bx, by, bh) = (rect.x, rect.y + rect.h + 8.0, 60.0);
        hud.panel(
            Rect::new(bx, by, HISTORY as f32 * 3.0 + 8.0, bh + 8.0),
            ink::PANEL,
        );
        for (i, c) in self.history.iter().enumerate() {
            let per_ms = bh / 16.7;
            let u = (c.update_ms * per_ms).min(bh);
            let r = (c.render_ms * per_ms).min(bh - u);
            let x = bx + 4.0 + i as f32 * 3.0;
            hud.panel(
                Rect::new(x, by + 4.0 + bh - u, 2.0, u),
                Color::new(1.0, 0.55, 0.2, 1.0),
            );
            hud.panel(
                Rect::new(x, by + 4.0 + bh - u - r, 2.0, r),
                Color::new(0.3, 0.7, 1.0, 1.0),
            );
        }
        hud.text(
            "update",
            bx + 4.0,
            by + bh + 26.0,
            16.0,
            Color::new(1.0, 0.55, 0.2, 1.0),
        );
        hud.text(
            "render",
            bx + 70.0,
            by + bh + 26.0,
            16.0,
            Color::new(0.3, 0.7, 1.0, 1.0),
        );
    }

    /// Run and paint the profiler window (last, over everything). Returns whether egui wants
    /// the mouse (the game should then ignore clicks).
    pub fn draw_profiler(&mut self) -> bool {
        if !self.views.is_on(View::Profiler) {
            return false;
        }
        let egui = self.egui.get_or_insert_with(EguiBridge::new);
        let mut open = true;
        let top = screen_height() * 0.42;
        egui.run(|ctx| {
            egui::Window::new("Profiler (F2)")
                .open(&mut open)
                .default_pos([12.0, top])
                .default_size([720.0, screen_height() - top - 60.0])
                .show(ctx, puffin_egui::profiler_ui);
        });
        egui.draw();
        let wants_pointer = egui.wants_pointer_input();
        if !open {
            self.views.set(View::Profiler, false);
            self.sync_profiling();
        }
        wants_pointer
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
