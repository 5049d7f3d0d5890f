//! Picking from the palette: a brush or a stamp by click, number key or `[` `]`, and
//! scrolling the palette when it is longer than the window.

use macroquad::prelude::*;

use super::edit_layout::{PALETTE_W, palette_fits, palette_layout};
use super::edit_session::{Session, Tool};
use crate::window::app::screens::HUD_BAR;
use crate::window::ui::ink;

impl Session {
    /// Palette entry `i`: a brush, or (past the brushes) a stamp.
    pub(super) fn pick_entry(&mut self, i: usize) {
        if i < self.palette.len() {
            self.pick(i);
        } else if let Some(stamp) = self.stamps.get(i - self.palette.len()) {
            let text = format!(
                "stamp \"{}\" ({} x {}): click to place it",
                stamp.name,
                stamp.rows.first().map_or(0, |r| r.chars().count()),
                stamp.rows.len()
            );
            self.tool = Tool::Stamp(i - self.palette.len());
            self.say(text, ink::TEXT);
        }
    }

    pub(super) fn pick(&mut self, i: usize) {
        if let Some(b) = self.palette.get(i) {
            self.brush = i;
            if matches!(self.tool, Tool::Stamp(_)) {
                self.tool = Tool::Pen;
            }
            let text = format!("brush: {} '{}'", b.label, b.ch);
            self.say(text, ink::TEXT);
            self.show_entry(i);
        }
    }

    /// Palette rows: the brushes, then the stamps.
    pub(super) fn entries(&self) -> usize {
        self.palette.len() + self.stamps.len()
    }

    /// Scroll the palette by `rows` (clamped so it never scrolls past its end).
    pub(super) fn scroll_palette(&mut self, rows: i64) {
        let visible = palette_fits(screen_height());
        let max = self.entries().saturating_sub(visible);
        self.palette_top = (self.palette_top as i64 + rows).clamp(0, max as i64) as usize;
    }

    /// Scroll the palette so that entry `i` shows.
    fn show_entry(&mut self, i: usize) {
        let visible = palette_fits(screen_height()).max(1);
        if i < self.palette_top {
            self.palette_top = i;
        } else if i >= self.palette_top + visible {
            self.palette_top = i + 1 - visible;
        }
    }

    /// Which palette entry is at screen point `p`, if any.
    pub(super) fn palette_entry_at(&self, (x, y): (f32, f32)) -> Option<usize> {
        let (row, visible) = palette_layout(self.entries(), screen_height());
        if !(0.0..PALETTE_W).contains(&x) || y < HUD_BAR + 4.0 {
            return None;
        }
        let shown = ((y - HUD_BAR - 4.0) / row).floor() as usize;
        let i = self.palette_top + shown;
        (shown < visible && i < self.entries()).then_some(i)
    }
}

/// The palette entry a number key picks: 1-9 the first nine, 0 the tenth.
pub(super) fn number_key(key: KeyCode) -> Option<usize> {
    const KEYS: [KeyCode; 10] = [
        KeyCode::Key1,
        KeyCode::Key2,
        KeyCode::Key3,
        KeyCode::Key4,
        KeyCode::Key5,
        KeyCode::Key6,
        KeyCode::Key7,
        KeyCode::Key8,
        KeyCode::Key9,
        KeyCode::Key0,
    ];
    KEYS.iter().position(|&k| k == key)
}
