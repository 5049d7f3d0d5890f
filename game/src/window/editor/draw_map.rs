//! Drawing the map in the editor: the cells with the game's own sprites, the grid and the
//! map's edge, the resize buttons, the selection and what the mouse would do where it is.

use macroquad::prelude::*;

use super::edit_layout::PALETTE_W;
use super::edit_session::{Drag, Session, Tool};
use super::edit_view::CellPos;
use crate::sim::{Aabb, TILE};
use crate::window::app::render::Renderer;
use crate::window::app::strength;
use crate::window::ui::{Hud, ink};

/// The selection's outline.
const SELECTION: Color = Color::new(0.4, 0.8, 1.0, 1.0);

impl Session {
    /// Draw the document, grid, palette, status line and messages (the screen is cleared).
    pub fn draw(&mut self, renderer: &Renderer, hud: &mut Hud, game_scale: f32) {
        let (w, h) = (screen_width(), screen_height());
        self.place(w, h, game_scale);
        let aabb = self.view.aabb(w, h);
        renderer.set_world_camera(&aabb);
        self.draw_cells(renderer, &aabb);
        set_default_camera();
        self.queue_strengths(hud, &aabb);
        // Under the grid and the bars, as the cells they mark.
        hud.draw();
        self.draw_grid(w, h);
        self.draw_palette(renderer, hud, h);
        self.draw_bars(hud, w, h);
        if let Some(form) = &self.form {
            form.draw(hud, PALETTE_W + 12.0);
        }
    }

    fn visible_cells(&self, aabb: &Aabb) -> (u32, u32, u32, u32) {
        let clamp = |v: f32, max: u32| (v / TILE).floor().clamp(0.0, max as f32) as u32;
        (
            clamp(aabb.min_x, self.model.width()),
            clamp(aabb.min_y, self.model.height()),
            clamp(aabb.max_x + TILE, self.model.width()),
            clamp(aabb.max_y + TILE, self.model.height()),
        )
    }

    fn draw_cells(&self, renderer: &Renderer, aabb: &Aabb) {
        let (x0, y0, x1, y1) = self.visible_cells(aabb);
        // Ground first, then what stands on it, so a tall sprite overlaps the row above.
        for pass in 0..2 {
            for y in y0..y1 {
                for x in x0..x1 {
                    let ch = self.model.cell(x, y).unwrap_or(' ');
                    let looks = self.art.looks.get(&ch).copied().unwrap_or_default();
                    let (wx, wy) = (x as f32 * TILE, y as f32 * TILE);
                    if pass == 0 {
                        if let Some(frame) = self.art.ground(looks.ground, x, y) {
                            renderer.draw_frame_world(frame, wx, wy, WHITE);
                        }
                    } else if let Some(frame) = looks.sprite {
                        // Centred on the cell, feet on its bottom edge.
                        let sx = wx + (TILE - f32::from(frame.w)) / 2.0;
                        let sy = wy + TILE - f32::from(frame.h);
                        let iron = self
                            .model
                            .crate_strength(x, y)
                            .is_some_and(|hits| hits >= strength::IRON_HITS);
                        let tint = if iron { strength::IRON } else { WHITE };
                        renderer.draw_frame_world(frame, sx, sy, tint);
                    }
                }
            }
        }
    }

    /// Queue each visible crate's strength marks, as the game shows them (overrides included).
    fn queue_strengths(&self, hud: &mut Hud, aabb: &Aabb) {
        let (x0, y0, x1, y1) = self.visible_cells(aabb);
        let side = TILE * self.view.scale();
        // Marks smaller than this are noise when zoomed far out.
        if side < 12.0 {
            return;
        }
        for y in y0..y1 {
            for x in x0..x1 {
                if let Some(hits) = self.model.crate_strength(x, y) {
                    let [sx, sy, w, h] = self.view.cell_rect((i64::from(x), i64::from(y)));
                    strength::queue(hud, Rect::new(sx, sy, w, h), hits, self.view.scale());
                }
            }
        }
    }

    fn draw_grid(&self, w: f32, h: f32) {
        let (mw, mh) = (self.model.width() as i64, self.model.height() as i64);
        let [left, top, ..] = self.view.cell_rect((0, 0));
        let [right, bottom, ..] = self.view.cell_rect((mw, mh));
        let side = TILE * self.view.scale();
        let line = Color::new(1.0, 1.0, 1.0, 0.12);
        // A grid finer than 6 screen pixels is a grey wash: leave it out when zoomed far out.
        if side >= 6.0 {
            let first_x = ((0.0 - left) / side).floor().max(0.0) as i64;
            let last_x = (((w - left) / side).ceil() as i64).min(mw);
            for i in first_x..=last_x {
                let x = left + i as f32 * side;
                draw_line(x, top.max(0.0), x, bottom.min(h), 1.0, line);
            }
            let first_y = ((0.0 - top) / side).floor().max(0.0) as i64;
            let last_y = (((h - top) / side).ceil() as i64).min(mh);
            for i in first_y..=last_y {
                let y = top + i as f32 * side;
                draw_line(left.max(0.0), y, right.min(w), y, 1.0, line);
            }
        }
        // The map's edge.
        draw_rectangle_lines(
            left - 1.0,
            top - 1.0,
            right - left + 2.0,
            bottom - top + 2.0,
            2.0,
            ink::GOLD,
        );
        self.draw_resize_buttons();
        if let Some((from, to)) = self.shown_selection() {
            self.outline_cells(from, to, Color::new(0.4, 0.8, 1.0, 0.18), SELECTION);
        }
        self.draw_cursor();
    }

    /// The `+` and `-` buttons beside the map's edges.
    fn draw_resize_buttons(&self) {
        for (_, delta, [x, y, bw, bh]) in self.resize_buttons() {
            draw_rectangle(x, y, bw, bh, ink::OPAQUE);
            draw_rectangle_lines(x, y, bw, bh, 1.0, ink::GOLD);
            let (cx, cy) = (x + bw / 2.0, y + bh / 2.0);
            draw_line(cx - 6.0, cy, cx + 6.0, cy, 2.0, ink::GOLD);
            if delta > 0 {
                draw_line(cx, cy - 6.0, cx, cy + 6.0, 2.0, ink::GOLD);
            }
        }
    }

    /// The corners of the selection as it shows now: being dragged out, being moved, or
    /// standing.
    fn shown_selection(&self) -> Option<(CellPos, CellPos)> {
        match self.drag {
            Some(Drag::Select { from, to }) => Some((from, to)),
            Some(Drag::Move { grab, to }) => self.selection.map(|r| {
                let (dx, dy) = (to.0 - grab.0, to.1 - grab.1);
                let (x, y) = (i64::from(r.x) + dx, i64::from(r.y) + dy);
                (
                    (x, y),
                    (x + i64::from(r.width) - 1, y + i64::from(r.height) - 1),
                )
            }),
            _ => self.selection.map(|r| {
                let (x, y) = (i64::from(r.x), i64::from(r.y));
                (
                    (x, y),
                    (x + i64::from(r.width) - 1, y + i64::from(r.height) - 1),
                )
            }),
        }
    }

    /// The rectangle being filled, or what a click would paint at the cell under the mouse.
    fn draw_cursor(&self) {
        if let Some(Drag::Fill { from, to, .. }) = self.drag {
            self.outline_cells(from, to, Color::new(1.0, 0.82, 0.3, 0.25), ink::GOLD);
        } else if let Some((x, y)) = self.map_cell(self.mouse) {
            let cell = (i64::from(x), i64::from(y));
            match self.tool {
                Tool::Scatter => {
                    if let Some(r) = self.scatter_rect(cell) {
                        let (x, y) = (i64::from(r.x), i64::from(r.y));
                        let to = (x + i64::from(r.width) - 1, y + i64::from(r.height) - 1);
                        self.outline_cells((x, y), to, Color::new(1.0, 1.0, 1.0, 0.08), WHITE);
                    }
                }
                Tool::Stamp(i) => {
                    if let Some(stamp) = self.stamps.get(i) {
                        let w = stamp.rows.first().map_or(1, |r| r.chars().count()) as i64;
                        let h = stamp.rows.len() as i64;
                        let to = (cell.0 + w - 1, cell.1 + h - 1);
                        self.outline_cells(cell, to, Color::new(1.0, 1.0, 1.0, 0.08), WHITE);
                    }
                }
                Tool::Pen => {
                    let [cx, cy, cw, ch] = self.view.cell_rect(cell);
                    draw_rectangle_lines(cx, cy, cw, ch, 2.0, WHITE);
                }
            }
        }
    }

    /// Shade and outline the cells from `from` to `to` (corners, either order).
    fn outline_cells(&self, from: CellPos, to: CellPos, fill: Color, line: Color) {
        let a = self.view.cell_rect((from.0.min(to.0), from.1.min(to.1)));
        let b = self.view.cell_rect((from.0.max(to.0), from.1.max(to.1)));
        let (rw, rh) = (b[0] + b[2] - a[0], b[1] + b[3] - a[1]);
        draw_rectangle(a[0], a[1], rw, rh, fill);
        draw_rectangle_lines(a[0], a[1], rw, rh, 2.0, line);
    }
}
