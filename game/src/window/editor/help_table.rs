//! The editor's key help (F1): the table of keys and what they do, and the panel that shows it.

use macroquad::prelude::*;

use super::edit_layout::PALETTE_W;
use crate::window::app::screens::HUD_BAR;
use crate::window::ui::{Hud, ink};

/// The editor's keys and what they do (F1 shows them; the README's table says the same).
pub const HELP: [(&str, &str); 19] = [
    ("E", "play the edited level / back to the editor"),
    ("left / right drag", "paint with the brush / erase to floor"),
    ("Shift + click", "flood fill (right button: with floor)"),
    (
        "Shift + drag",
        "fill a rectangle (right button: with floor)",
    ),
    ("Alt + click, middle click", "pick the brush from the map"),
    ("Ctrl + drag", "select; drag inside it or arrows move it"),
    (
        "Ctrl+C / X / V, Delete",
        "copy / cut / paste at the mouse, erase",
    ),
    ("R, - / =", "scatter brush on/off, its density"),
    ("Ctrl+B", "save the selection as a stamp"),
    ("P / O", "level properties / the crate under the mouse"),
    (
        "1-9, 0, click",
        "pick a brush or stamp ([ ] step, wheel scrolls)",
    ),
    ("WASD / arrows", "pan (or drag with the middle button)"),
    ("wheel / Home", "zoom about the mouse / the whole level"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo (Ctrl+Shift+Z redoes too)"),
    ("Ctrl+S", "save (again, to confirm, when it asks)"),
    (
        "Ctrl+arrow",
        "add a row / column on that side (or + beside the map)",
    ),
    (
        "Ctrl+Shift+arrow",
        "remove the row / column on that side (or -)",
    ),
    ("Esc", "quit (asks first with unsaved edits)"),
    ("F1", "this help"),
];

/// Queue the editor's key help: keys in one column, what they do in the next, on an opaque
/// panel over the map.
pub fn help(hud: &mut Hud) {
    let size = 20.0;
    let line = size * 1.2;
    let key_w = HELP
        .iter()
        .map(|(k, _)| measure_text(k, None, size as u16, 1.0).width)
        .fold(0.0, f32::max);
    let text_w = HELP
        .iter()
        .map(|(_, t)| measure_text(t, None, size as u16, 1.0).width)
        .fold(0.0, f32::max);
    let (x, y) = (PALETTE_W + 12.0, HUD_BAR + 12.0);
    let (w, h) = (
        key_w + text_w + 3.0 * size,
        line * (HELP.len() + 1) as f32 + size,
    );
    hud.panel(Rect::new(x, y, w, h), ink::OPAQUE);
    hud.text(
        "Editor keys",
        x + size / 2.0,
        y + size * 1.2,
        size,
        ink::GOLD,
    );
    for (i, (key, what)) in HELP.iter().enumerate() {
        let base = y + size * 1.2 + line * (i + 1) as f32;
        hud.text(*key, x + size / 2.0, base, size, ink::GOLD);
        hud.text(*what, x + key_w + size * 1.5, base, size, ink::TEXT);
    }
}
