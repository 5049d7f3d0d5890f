//! Drawing the palette strip along the left edge: each brush as its sprite with its number key
//! and map character, each stamp as a miniature, the chosen entry marked, and gold bars where
//! the strip scrolls on.

use macroquad::prelude::*;

use super::edit_layout::{PALETTE_W, palette_layout};
use super::edit_session::{Session, Tool};
use crate::editor::{Brush, BrushKind, Stamp};
use crate::level::Tile;
use crate::sim::TILE;
use crate::window::app::render::Renderer;
use crate::window::app::screens::HUD_BAR;
use crate::window::ui::{Hud, ink};

/// Where one palette row is drawn: its top, height, icon side and text size.
#[derive(Clone, Copy)]
struct Row {
    y: f32,
    height: f32,
    icon: f32,
    size: f32,
}

impl Session {
    pub(super) fn draw_palette(&self, renderer: &Renderer, hud: &mut Hud, h: f32) {
        draw_rectangle(0.0, HUD_BAR, PALETTE_W, h - HUD_BAR, ink::OPAQUE);
        let (row, visible) = palette_layout(self.entries(), h);
        let icon = (row - 8.0).clamp(8.0, 36.0);
        let size = (row * 0.42).clamp(10.0, 18.0);
        for shown in 0..visible {
            let i = self.palette_top + shown;
            let y = HUD_BAR + 4.0 + row * shown as f32;
            let chosen = match self.tool {
                Tool::Stamp(s) => i == self.palette.len() + s,
                _ => i == self.brush,
            };
            if chosen {
                draw_rectangle(2.0, y, PALETTE_W - 4.0, row - 2.0, ink::HIGHLIGHT);
                draw_rectangle_lines(2.0, y, PALETTE_W - 4.0, row - 2.0, 2.0, ink::GOLD);
            }
            let color = if chosen { ink::GOLD } else { ink::TEXT };
            let at = Row {
                y,
                height: row,
                icon,
                size,
            };
            let Some(brush) = self.palette.get(i) else {
                // A stamp: its number and a miniature of its rows.
                let s = i - self.palette.len();
                if let Some(stamp) = self.stamps.get(s) {
                    hud.text(format!("S{}", s + 1), 6.0, y + row * 0.45, size, color);
                    self.draw_miniature(stamp, PALETTE_W - icon - 6.0, y + 2.0, icon);
                }
                continue;
            };
            self.draw_brush_entry(renderer, hud, (i, brush), at, color);
        }
        // More entries above or below: a gold bar at that end (the wheel scrolls).
        if self.palette_top > 0 {
            draw_rectangle(4.0, HUD_BAR + 1.0, PALETTE_W - 8.0, 3.0, ink::GOLD);
        }
        if self.palette_top + visible < self.entries() {
            let y = HUD_BAR + 4.0 + row * visible as f32;
            draw_rectangle(4.0, y, PALETTE_W - 8.0, 3.0, ink::GOLD);
        }
    }

    /// Palette entry `i`, brush `brush`: its sprite on its ground, its number key (in `color`)
    /// and its map character.
    fn draw_brush_entry(
        &self,
        renderer: &Renderer,
        hud: &mut Hud,
        (i, brush): (usize, &Brush),
        at: Row,
        color: Color,
    ) {
        let Row {
            y,
            height: row,
            icon,
            size,
        } = at;
        let looks = self.art.looks.get(&brush.ch).copied().unwrap_or_default();
        let (ix, iy) = (PALETTE_W - icon - 6.0, y + (row - 2.0 - icon) / 2.0);
        if let Some(ground) = self.art.ground(looks.ground, 0, 0) {
            renderer.draw_icon(ground, ix, iy, icon);
        } else {
            // Void: the background, with an outline to show the cell.
            draw_rectangle_lines(ix, iy, icon, icon, 1.0, ink::DIM);
        }
        if let Some(sprite) = looks.sprite {
            let k = icon / TILE;
            let (sw, sh) = (f32::from(sprite.w) * k, f32::from(sprite.h) * k);
            renderer.draw_icon(sprite, ix + (icon - sw) / 2.0, iy + icon - sh, sh);
        }
        let key = match i {
            0..=8 => format!("{}", i + 1),
            9 => "0".into(),
            _ => String::new(),
        };
        hud.text(key, 6.0, y + row * 0.45, size, color);
        hud.text(
            format!("'{}'", brush.ch),
            6.0,
            y + row * 0.85,
            size,
            ink::DIM,
        );
    }

    /// A stamp drawn as coloured squares (wall, floor, crate, ...) in an `side`-pixel square.
    fn draw_miniature(&self, stamp: &Stamp, x: f32, y: f32, side: f32) {
        let (w, h) = (
            stamp.rows.first().map_or(1, |r| r.chars().count()).max(1),
            stamp.rows.len().max(1),
        );
        let cell = side / w.max(h) as f32;
        for (ry, row) in stamp.rows.iter().enumerate().take(64) {
            for (rx, c) in row.chars().enumerate().take(64) {
                let color = match self.palette.iter().find(|b| b.ch == c).map(|b| &b.kind) {
                    Some(BrushKind::Tile(Tile::Wall)) => Color::new(0.55, 0.5, 0.45, 1.0),
                    Some(BrushKind::Tile(Tile::Floor)) => Color::new(0.3, 0.27, 0.24, 1.0),
                    Some(BrushKind::Crate { .. }) => Color::new(0.8, 0.55, 0.25, 1.0),
                    Some(BrushKind::Coin) => ink::GOLD,
                    Some(BrushKind::Player) => ink::GOOD,
                    Some(BrushKind::Tile(Tile::Void)) => continue,
                    None => ink::ERROR,
                };
                draw_rectangle(
                    x + rx as f32 * cell,
                    y + ry as f32 * cell,
                    cell.max(1.0),
                    cell.max(1.0),
                    color,
                );
            }
        }
    }
}
