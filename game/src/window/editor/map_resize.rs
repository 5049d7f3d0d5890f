//! Resizing the map from the editor: Ctrl+arrow adds a row or column on that side
//! (Ctrl+Shift+arrow removes one), and so do the `+` and `-` buttons beside each edge.

use macroquad::prelude::*;

use super::edit_layout::{PALETTE_W, RESIZE_BUTTON, STATUS_H};
use super::edit_session::Session;
use crate::editor::Side;
use crate::sim::TILE;
use crate::window::app::screens::HUD_BAR;
use crate::window::ui::ink;

impl Session {
    pub(super) fn resize_key(&mut self, key: KeyCode, delta: i32) {
        let side = match key {
            KeyCode::Up => Side::Top,
            KeyCode::Down => Side::Bottom,
            KeyCode::Left => Side::Left,
            _ => Side::Right,
        };
        self.resize(side, delta);
    }

    /// The `+` and `-` buttons beside the middle of each map edge (screen rectangles
    /// `[x, y, w, h]`), each with the side and rows or columns it adds (`+1`) or removes
    /// (`-1`); only those clear of the palette and the bars.
    pub(super) fn resize_buttons(&self) -> Vec<(Side, i32, [f32; 4])> {
        const B: f32 = RESIZE_BUTTON;
        let (w, h) = (screen_width(), screen_height());
        let (mw, mh) = (
            i64::from(self.model.width()),
            i64::from(self.model.height()),
        );
        let [left, top, ..] = self.view.cell_rect((0, 0));
        let [right, bottom, ..] = self.view.cell_rect((mw, mh));
        let (mid_x, mid_y) = ((left + right) / 2.0, (top + bottom) / 2.0);
        let gap = 6.0;
        let across = |y: f32| [(1, [mid_x - B - 2.0, y]), (-1, [mid_x + 2.0, y])];
        let down = |x: f32| [(1, [x, mid_y - B - 2.0]), (-1, [x, mid_y + 2.0])];
        let placed = [
            (Side::Top, across(top - gap - B)),
            (Side::Bottom, across(bottom + gap)),
            (Side::Left, down(left - gap - B)),
            (Side::Right, down(right + gap)),
        ];
        placed
            .into_iter()
            .flat_map(|(side, buttons)| buttons.map(|(delta, [x, y])| (side, delta, [x, y, B, B])))
            .filter(|(_, _, [x, y, ..])| {
                *x >= PALETTE_W && *y >= HUD_BAR && x + B <= w && y + B <= h - STATUS_H
            })
            .collect()
    }

    pub(super) fn resize_button_at(&self, (px, py): (f32, f32)) -> Option<(Side, i32)> {
        self.resize_buttons()
            .into_iter()
            .find(|(_, _, [x, y, w, h])| (*x..x + w).contains(&px) && (*y..y + h).contains(&py))
            .map(|(side, delta, _)| (side, delta))
    }

    pub(super) fn resize(&mut self, side: Side, delta: i32) {
        self.edited();
        match self.model.resize(side, delta) {
            Ok(()) => {
                // Rows or columns added (removed) at the top or left move the map's content
                // down or right (up or left): move the view with it, so nothing jumps.
                let shift = delta as f32 * TILE;
                match side {
                    Side::Top => self.view.origin.1 += shift,
                    Side::Left => self.view.origin.0 += shift,
                    Side::Bottom | Side::Right => {}
                }
                self.say(
                    format!("map {} x {}", self.model.width(), self.model.height()),
                    ink::TEXT,
                );
            }
            Err(e) => self.say(format!("cannot resize: {e}"), ink::ERROR),
        }
    }
}
