//! The mouse on the map: what a press starts (paint, erase, fill, select, move, scatter, a
//! stamp, the eyedropper, panning), how a drag goes on, and what letting go does.

use macroquad::prelude::*;

use super::edit_layout::PALETTE_W;
use super::edit_session::{Drag, ERASE, Session, Tool};
use super::edit_view::{CellPos, line_cells};
use super::selection::rect_contains;
use crate::editor::CellRect;
use crate::window::app::screens::HUD_BAR;
use crate::window::ui::ink;

/// Side of the scatter brush's square, in cells.
pub(super) const SCATTER_SIDE: u32 = 5;
/// A middle press that moves less than this (screen pixels) is a click: the eyedropper.
const CLICK_SLOP: f32 = 4.0;

impl Session {
    /// A button went down at screen point `p`: on the palette, a resize button or the map.
    pub(super) fn press(&mut self, button: MouseButton, p: (f32, f32)) {
        if button == MouseButton::Middle {
            self.drag = Some(Drag::Pan { last: p, from: p });
            return;
        }
        if p.0 < PALETTE_W && p.1 >= HUD_BAR {
            if button == MouseButton::Left
                && let Some(i) = self.palette_entry_at(p)
            {
                self.pick_entry(i);
            }
            return;
        }
        if button == MouseButton::Left
            && let Some((side, delta)) = self.resize_button_at(p)
        {
            self.resize(side, delta);
            return;
        }
        let Some(cell) = self.map_cell(p) else { return };
        if button == MouseButton::Left && (self.alt || is_key_down(KeyCode::LeftAlt)) {
            self.eyedropper(cell);
            return;
        }
        self.press_map(button, (i64::from(cell.0), i64::from(cell.1)));
    }

    /// A left or right press on map cell `cell` (not the eyedropper): start what it does.
    fn press_map(&mut self, button: MouseButton, cell: CellPos) {
        let shift =
            self.shift || is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        let ctrl = self.ctrl || is_key_down(KeyCode::LeftControl);
        let Some(brush) = self.palette.get(self.brush) else {
            return;
        };
        let brush = brush.ch;
        if button == MouseButton::Left && ctrl {
            self.selection = None;
            self.drag = Some(Drag::Select {
                from: cell,
                to: cell,
            });
            return;
        }
        if button == MouseButton::Left
            && !shift
            && self.selection.is_some_and(|r| rect_contains(r, cell))
        {
            self.drag = Some(Drag::Move {
                grab: cell,
                to: cell,
            });
            return;
        }
        if button == MouseButton::Left || button == MouseButton::Right {
            self.selection = None;
        }
        let ch = if button == MouseButton::Left {
            brush
        } else {
            ERASE
        };
        match button {
            MouseButton::Left | MouseButton::Right if shift => {
                self.drag = Some(Drag::Fill {
                    ch,
                    from: cell,
                    to: cell,
                });
            }
            MouseButton::Left if matches!(self.tool, Tool::Stamp(_)) => {
                if let Tool::Stamp(i) = self.tool {
                    self.place_stamp(i, cell);
                }
            }
            MouseButton::Left if self.tool == Tool::Scatter => {
                self.begin_stroke();
                self.scatter_at(cell, brush);
                self.drag = Some(Drag::Scatter {
                    ch: brush,
                    last: cell,
                });
            }
            MouseButton::Left | MouseButton::Right => {
                self.begin_stroke();
                self.paint(cell, ch);
                self.drag = Some(Drag::Paint { ch, last: cell });
            }
            _ => {}
        }
    }

    /// A paint or scatter stroke begins: one undo step, and the panel keeps the problem it
    /// showed until the stroke ends.
    fn begin_stroke(&mut self) {
        self.edited();
        self.problem_before_drag = self.model.problem().map(ToString::to_string);
        self.model.begin_stroke();
    }

    pub(super) fn drag_to(&mut self, p: (f32, f32)) {
        match self.drag {
            Some(Drag::Pan { last, from }) => {
                self.view.pan(last.0 - p.0, last.1 - p.1);
                self.drag = Some(Drag::Pan { last: p, from });
            }
            Some(Drag::Paint { ch, last }) => {
                let cell = self.view.cell_at(p.0, p.1);
                if cell != last {
                    for c in line_cells(last, cell).into_iter().skip(1) {
                        self.paint(c, ch);
                    }
                    self.drag = Some(Drag::Paint { ch, last: cell });
                }
            }
            Some(Drag::Scatter { ch, last }) => {
                let cell = self.view.cell_at(p.0, p.1);
                if cell != last {
                    for c in line_cells(last, cell).into_iter().skip(1) {
                        self.scatter_at(c, ch);
                    }
                    self.drag = Some(Drag::Scatter { ch, last: cell });
                }
            }
            Some(Drag::Fill { ch, from, .. }) => {
                let to = self.clamp_cell(self.view.cell_at(p.0, p.1));
                self.drag = Some(Drag::Fill { ch, from, to });
            }
            Some(Drag::Select { from, .. }) => {
                let to = self.clamp_cell(self.view.cell_at(p.0, p.1));
                self.drag = Some(Drag::Select { from, to });
            }
            Some(Drag::Move { grab, .. }) => {
                let to = self.view.cell_at(p.0, p.1);
                self.drag = Some(Drag::Move { grab, to });
            }
            None => {}
        }
    }

    pub(super) fn end_drag(&mut self) {
        match self.drag.take() {
            Some(Drag::Paint { .. }) => self.model.end_stroke(),
            Some(Drag::Scatter { .. }) => {
                self.model.end_stroke();
                self.say(
                    format!(
                        "scattered at {}% with seed {}",
                        u32::from(self.density) * 10,
                        self.scatter_seed
                    ),
                    ink::TEXT,
                );
                // The next stroke paints other cells; the same seed always paints the same.
                self.scatter_seed += 1;
            }
            Some(Drag::Fill { ch, from, to }) if from == to => {
                self.edited();
                match self.model.flood(from.0 as u32, from.1 as u32, ch) {
                    Ok(_) => self.say(
                        format!("flooded from ({}, {}) with '{ch}'", from.0, from.1),
                        ink::TEXT,
                    ),
                    Err(e) => self.say(format!("not filled: {e}"), ink::ERROR),
                }
            }
            Some(Drag::Fill { ch, from, to }) => {
                self.edited();
                let rect =
                    CellRect::spanning((from.0 as u32, from.1 as u32), (to.0 as u32, to.1 as u32));
                if let Err(e) = self.model.fill(rect, ch) {
                    self.say(format!("not filled: {e}"), ink::ERROR);
                }
            }
            Some(Drag::Select { from, to }) => {
                let rect =
                    CellRect::spanning((from.0 as u32, from.1 as u32), (to.0 as u32, to.1 as u32));
                self.selection = Some(rect);
                self.say(
                    format!(
                        "selected {} x {} at ({}, {})",
                        rect.width, rect.height, rect.x, rect.y
                    ),
                    ink::TEXT,
                );
            }
            Some(Drag::Move { grab, to }) => {
                self.move_selection(to.0 - grab.0, to.1 - grab.1);
            }
            Some(Drag::Pan { last, from }) => {
                let moved = (last.0 - from.0).abs().max((last.1 - from.1).abs());
                if moved < CLICK_SLOP
                    && let Some(cell) = self.map_cell(from)
                {
                    self.eyedropper(cell);
                }
            }
            None => {}
        }
    }

    /// Alt+click or a middle click: the brush becomes the cell's character.
    pub(super) fn eyedropper(&mut self, (x, y): (u32, u32)) {
        let Some(ch) = self.model.cell(x, y) else {
            return;
        };
        match self.palette.iter().position(|b| b.ch == ch) {
            Some(i) => self.pick(i),
            None => self.say(format!("'{ch}' is not in the palette"), ink::ERROR),
        }
    }

    /// Paint one cell if the map has it (a stroke may leave the map and come back).
    fn paint(&mut self, (x, y): CellPos, ch: char) {
        if let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y))
            && x < self.model.width()
            && y < self.model.height()
            && let Err(e) = self.model.paint(x, y, ch)
        {
            self.say(format!("not painted: {e}"), ink::ERROR);
        }
    }

    /// The scatter brush's square centred on `cell`, clipped to the map.
    pub(super) fn scatter_rect(&self, (x, y): CellPos) -> Option<CellRect> {
        let half = i64::from(SCATTER_SIDE / 2);
        let (w, h) = (
            i64::from(self.model.width()),
            i64::from(self.model.height()),
        );
        let (x0, y0) = ((x - half).max(0), (y - half).max(0));
        let (x1, y1) = ((x + half).min(w - 1), (y + half).min(h - 1));
        (x0 <= x1 && y0 <= y1).then(|| CellRect {
            x: x0 as u32,
            y: y0 as u32,
            width: (x1 - x0 + 1) as u32,
            height: (y1 - y0 + 1) as u32,
        })
    }

    fn scatter_at(&mut self, cell: CellPos, ch: char) {
        if let Some(rect) = self.scatter_rect(cell)
            && let Err(e) = self
                .model
                .scatter(rect, ch, self.density, self.scatter_seed)
        {
            self.say(format!("not scattered: {e}"), ink::ERROR);
        }
    }
}
