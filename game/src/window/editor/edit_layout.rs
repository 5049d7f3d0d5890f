//! Where the editor's parts sit on screen: the palette strip along the left edge, the status
//! line along the bottom, the map's resize buttons, and how the palette's rows fit the window.

use crate::window::app::screens::HUD_BAR;

/// Size of a new level `--edit` makes without `--size`: one screen at the default window
/// (1280 x 720 at 48 screen pixels a cell, below the HUD bar).
pub const NEW_LEVEL_SIZE: (u32, u32) = (26, 15);

/// Width of the palette strip along the left edge, in screen pixels.
pub(super) const PALETTE_W: f32 = 76.0;
/// Side of the map's resize buttons, in screen pixels.
pub(super) const RESIZE_BUTTON: f32 = 22.0;
/// Height of the status line along the bottom, in screen pixels.
pub(super) const STATUS_H: f32 = 28.0;

/// Shortest palette row, in screen pixels: shorter would make the sprites too small to tell
/// apart, so a longer palette scrolls instead.
const PALETTE_MIN_ROW: f32 = 36.0;

/// The height of one palette row for `entries` entries in a window `h` pixels tall, and how
/// many rows show at once.
pub(super) fn palette_layout(entries: usize, h: f32) -> (f32, usize) {
    let room = (h - HUD_BAR - STATUS_H - 8.0).max(PALETTE_MIN_ROW);
    let row = (room / entries.max(1) as f32).clamp(PALETTE_MIN_ROW, 52.0);
    (row, ((room / row).floor() as usize).min(entries))
}

/// How many palette rows a window `h` pixels tall shows when the palette scrolls.
pub(super) fn palette_fits(h: f32) -> usize {
    palette_layout(usize::MAX, h).1
}
