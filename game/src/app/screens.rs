//! What a player reads: the HUD bar (level, crates left, coins, time), the title screen, the
//! pause and room-cleared screens, notices and the level-error banner.

use macroquad::prelude::*;

use super::render::Renderer;
use crate::records::clock;
use crate::sim::GameState;
use crate::ui::{Hud, ink};

/// Height of the HUD bar along the top of the screen, in screen pixels. The camera keeps the
/// level below it, so the bar never covers the playfield.
pub const HUD_BAR: f32 = 40.0;

/// Draw the HUD bar now (screen camera set): level name, a crate icon with the crates left, a
/// coin icon with the coins, and the time since the level started (frozen once cleared).
pub fn hud_bar(renderer: &Renderer, level_name: &str, state: &GameState, muted_hint: &str) {
    let w = screen_width();
    draw_rectangle(0.0, 0.0, w, HUD_BAR, ink::OPAQUE);
    draw_rectangle(0.0, HUD_BAR - 2.0, w, 2.0, ink::EDGE);
    let (size, base) = (24.0, HUD_BAR / 2.0 + 8.0);
    let mut x = 14.0;
    let text = |t: &str, x: &mut f32, color: Color| {
        draw_text(t, x.round(), base, size, color);
        *x += measure_text(t, None, size as u16, 1.0).width;
    };
    text(&shorten(level_name, 40), &mut x, ink::GOLD);
    x += 36.0;
    let icons = renderer.icons();
    let icon_size = 30.0;
    let icon_y = (HUD_BAR - icon_size) / 2.0 - 1.0;
    if let Some(icon) = icons.crate_icon {
        renderer.draw_icon(icon, x, icon_y, icon_size);
        x += icon_size + 8.0;
    } else {
        text("Crates ", &mut x, ink::DIM);
    }
    text(
        &format!("{} / {}", state.crates_left, state.crates_total),
        &mut x,
        ink::TEXT,
    );
    x += 36.0;
    if let Some(icon) = icons.coin {
        renderer.draw_icon(icon, x, icon_y, icon_size);
        x += icon_size + 8.0;
    } else {
        text("Coins ", &mut x, ink::DIM);
    }
    text(&state.score.to_string(), &mut x, ink::TEXT);
    x += 36.0;
    let time = state.cleared_at.unwrap_or(state.step);
    text(&clock(time), &mut x, ink::TEXT);
    let hint = format!("{muted_hint}F1 keys");
    let hw = measure_text(&hint, None, 20, 1.0).width;
    draw_text(&hint, (w - hw - 14.0).round(), base, 20.0, ink::DIM);
}

/// One level on the title screen.
#[derive(Clone, Debug)]
pub struct TitleEntry {
    /// The level's file name (what best times are kept under).
    pub file: String,
    /// Its best time in steps, if it has been cleared.
    pub best: Option<u64>,
}

/// Queue the title screen: the game's name, the level list with best times, the keys.
pub fn title(hud: &mut Hud, entries: &[TitleEntry], selected: usize) {
    let (w, h) = (screen_width(), screen_height());
    hud.centered("CRATE ROOM", h * 0.2, 72.0, ink::GOLD);
    hud.centered(
        "Smash every crate. The clock is running.",
        h * 0.2 + 40.0,
        24.0,
        ink::DIM,
    );
    let size = 26.0;
    let line = size * 1.35;
    let top = h * 0.2 + 90.0;
    let width = 560.0_f32.min(w - 40.0);
    let x = (w - width) / 2.0;
    // Only as many rows as fit; the list scrolls to keep the selection in view.
    let rows = (((h - top - 90.0) / line).floor() as usize).max(1);
    let first = selected.saturating_sub(rows - 1);
    hud.panel(
        Rect::new(
            x,
            top,
            width,
            line * rows.min(entries.len()).max(1) as f32 + 16.0,
        ),
        ink::PANEL,
    );
    if entries.is_empty() {
        hud.text(
            "No levels in levels/",
            x + 16.0,
            top + 8.0 + size,
            size,
            ink::ERROR,
        );
    }
    for (row, (i, entry)) in entries
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .enumerate()
    {
        let y = top + 8.0 + line * row as f32;
        let chosen = i == selected;
        if chosen {
            hud.panel(
                Rect::new(x + 4.0, y + 2.0, width - 8.0, line),
                ink::HIGHLIGHT,
            );
        }
        let name = shorten(entry.file.trim_end_matches(".ron"), 28);
        let color = if chosen { ink::GOLD } else { ink::TEXT };
        hud.text(
            format!("{}{name}", if chosen { "> " } else { "  " }),
            x + 12.0,
            y + size,
            size,
            color,
        );
        let best = entry.best.map_or("--:--.--".to_string(), |steps| {
            format!("best {}", clock(steps))
        });
        let bw = measure_text(&best, None, size as u16, 1.0).width;
        hud.text(best, x + width - bw - 16.0, y + size, size, ink::DIM);
    }
    hud.centered(
        "Up / Down choose      Enter play      Esc quit",
        h - 40.0,
        22.0,
        ink::DIM,
    );
}

/// What the room-cleared screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cleared {
    /// Time to clear, in steps.
    pub time: u64,
    /// The best time before this run, if any.
    pub previous_best: Option<u64>,
    /// Crates smashed.
    pub crates: u32,
    /// Coins collected.
    pub coins: u32,
    /// Whether the run's replay can be saved (V).
    pub can_save_replay: bool,
    /// Where the replay was saved, once it was.
    pub saved_replay: Option<String>,
}

/// Queue the room-cleared screen.
pub fn cleared(hud: &mut Hud, c: &Cleared) {
    let (w, h) = (screen_width(), screen_height());
    hud.panel(Rect::new(0.0, h * 0.3, w, h * 0.4), ink::PANEL);
    hud.centered("Room cleared!", h * 0.39, 64.0, ink::GOLD);
    hud.centered(format!("Time {}", clock(c.time)), h * 0.47, 36.0, ink::TEXT);
    let (best, color) = match c.previous_best {
        Some(prev) if prev <= c.time => (format!("Best {}", clock(prev)), ink::DIM),
        Some(prev) => (format!("New best! (was {})", clock(prev)), ink::GOOD),
        None => ("New best!".to_string(), ink::GOOD),
    };
    hud.centered(best, h * 0.52, 28.0, color);
    hud.centered(
        format!("Crates smashed {}      Coins {}", c.crates, c.coins),
        h * 0.57,
        26.0,
        ink::TEXT,
    );
    let keys = if c.can_save_replay && c.saved_replay.is_none() {
        "R  play again      N  next level      T  title      V  save replay"
    } else {
        "R  play again      N  next level      T  title"
    };
    hud.centered(keys, h * 0.63, 22.0, ink::DIM);
    if let Some(path) = &c.saved_replay {
        hud.centered(
            format!("Replay saved: {}", shorten(path, 90)),
            h * 0.67,
            20.0,
            ink::GOOD,
        );
    }
}

/// Queue the pause screen.
pub fn paused(hud: &mut Hud) {
    let h = screen_height();
    hud.panel(
        Rect::new(0.0, h * 0.4, screen_width(), h * 0.16),
        ink::PANEL,
    );
    hud.centered("Paused", h * 0.48, 56.0, ink::TEXT);
    hud.centered("P / Esc to resume", h * 0.53, 22.0, ink::DIM);
}

/// Queue short notices (a level reloaded, a problem with the best-times file) under the bar.
pub fn notices<'a>(hud: &mut Hud, notices: impl Iterator<Item = (&'a str, Color)>) {
    const SIZE: f32 = 20.0;
    let mut y = HUD_BAR + 10.0;
    for (text, color) in notices {
        // Wrapped to the window, so a long message (a path, an OS error) is read whole.
        let lines: Vec<(String, Color)> = wrap(&shorten(text, 600), screen_width() - 40.0, SIZE)
            .into_iter()
            .map(|line| (line, color))
            .collect();
        let (w, h) = Hud::box_size(&lines, SIZE);
        hud.text_box(&lines, ((screen_width() - w) / 2.0).max(0.0), y, SIZE);
        y += h + 6.0;
    }
}

/// `text` in lines at most `width` pixels wide at font size `size`, broken between words (a
/// word wider than that on its own is cut).
fn wrap(text: &str, width: f32, size: f32) -> Vec<String> {
    let fits = |line: &str| Hud::box_size(&[(line.to_owned(), ink::ERROR)], size).0 <= width;
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || fits(&candidate) {
            line = candidate;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        }
    }
    lines.push(line);
    for line in &mut lines {
        let whole = line.clone();
        let mut chars = whole.chars().count();
        while chars > 1 && !fits(line) {
            chars -= chars / 8 + 1;
            *line = shorten(&whole, chars);
        }
    }
    lines
}

/// Queue the level-error banner along the bottom of the screen.
pub fn error_box(hud: &mut Hud, error: &str) {
    let mut lines: Vec<_> = vec![(
        "Level error (the last good level keeps running; fix and save):".to_string(),
        ink::GOLD,
    )];
    lines.extend(
        error
            .lines()
            .take(12)
            .map(|l| (shorten(l, 160), ink::ERROR)),
    );
    let size = 20.0;
    let height = (lines.len() as f32 * 1.15 + 0.5) * size;
    hud.text_box(&lines, 12.0, screen_height() - height - 12.0, size);
}

/// At most `max` characters of `text`, with an ellipsis if cut (names and messages come from
/// files and can be any length).
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn long_text_is_cut_on_a_character_boundary() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "abc...");
        assert_eq!(shorten("ééééé", 2), "éé...");
    }
}
