//! The editor's bars: along the top, what is being edited and the main keys; along the bottom,
//! the status line (cursor, brush, tool, selection, map size, zoom); above it, the editor's
//! last message and why the level cannot be saved or played, if it cannot.

use macroquad::prelude::*;

use super::edit_layout::{PALETTE_W, STATUS_H};
use super::edit_session::{Drag, Session, Tool};
use crate::window::app::screens::{HUD_BAR, shorten};
use crate::window::ui::{Hud, ink};

impl Session {
    pub(super) fn draw_bars(&self, hud: &mut Hud, w: f32, h: f32) {
        self.draw_title_bar(hud, w);
        self.draw_status_line(hud, w, h);
        self.draw_messages(hud, h);
    }

    /// The bar along the top: what is being edited.
    fn draw_title_bar(&self, hud: &mut Hud, w: f32) {
        draw_rectangle(0.0, 0.0, w, HUD_BAR, ink::OPAQUE);
        draw_rectangle(0.0, HUD_BAR - 2.0, w, 2.0, ink::EDGE);
        let base = HUD_BAR / 2.0 + 8.0;
        let name = self.model.path().file_name().map_or_else(
            || self.model.path().display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let modified = if self.model.is_modified() {
            "  (unsaved)"
        } else {
            ""
        };
        hud.text("EDIT", 14.0, base, 24.0, ink::ERROR);
        hud.text(
            format!("{}{modified}", shorten(&name, 48)),
            80.0,
            base,
            24.0,
            ink::GOLD,
        );
        let keys = "Ctrl+S save   E play   F1 keys";
        let kw = measure_text(keys, None, 20, 1.0).width;
        hud.text(keys, w - kw - 14.0, base, 20.0, ink::DIM);
    }

    /// The status line along the bottom: cursor, brush, size, zoom.
    fn draw_status_line(&self, hud: &mut Hud, w: f32, h: f32) {
        draw_rectangle(0.0, h - STATUS_H, w, STATUS_H, ink::OPAQUE);
        let cursor = match self.map_cell(self.mouse) {
            Some((x, y)) => format!("({x}, {y}) '{}'", self.model.cell(x, y).unwrap_or(' ')),
            None => "-".into(),
        };
        let brush = self
            .palette
            .get(self.brush)
            .map_or(String::new(), |b| format!("{} '{}'", b.label, b.ch));
        let tool = match self.tool {
            Tool::Pen => String::new(),
            Tool::Scatter => format!(
                "     scatter {}% (seed {})",
                u32::from(self.density) * 10,
                self.scatter_seed
            ),
            Tool::Stamp(i) => self.stamps.get(i).map_or(String::new(), |s| {
                format!("     stamp \"{}\"", shorten(&s.name, 24))
            }),
        };
        let selection = self.selection.map_or(String::new(), |r| {
            format!(
                "     selection {} x {} at ({}, {})",
                r.width, r.height, r.x, r.y
            )
        });
        let status = format!(
            "cell {cursor}     brush {brush}{tool}{selection}     map {} x {}     zoom {}x",
            self.model.width(),
            self.model.height(),
            self.view.scale()
        );
        hud.text(status, PALETTE_W + 10.0, h - 8.0, 20.0, ink::TEXT);
    }

    /// Above the status line: the level's problem (live validation) and the editor's last
    /// message.
    fn draw_messages(&self, hud: &mut Hud, h: f32) {
        let mut lines: Vec<(String, Color)> = Vec::new();
        if let Some((text, color)) = &self.message {
            lines.push((shorten(text, 150), *color));
        }
        let problem = if matches!(self.drag, Some(Drag::Paint { .. })) {
            self.problem_before_drag.clone()
        } else {
            self.model.problem().map(ToString::to_string)
        };
        if let Some(problem) = problem {
            lines.push(("cannot save or play:".into(), ink::GOLD));
            lines.extend(
                problem
                    .lines()
                    .take(4)
                    .map(|l| (shorten(l, 150), ink::ERROR)),
            );
        }
        if !lines.is_empty() {
            let (bw, bh) = Hud::box_size(&lines, 20.0);
            let (bx, by) = (PALETTE_W + 8.0, h - STATUS_H - bh - 6.0);
            // Opaque under the (translucent) text box: readable over any map.
            hud.panel(Rect::new(bx, by, bw, bh), ink::OPAQUE);
            hud.text_box(&lines, bx, by, 20.0);
        }
    }
}
