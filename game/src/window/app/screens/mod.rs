//! What a player reads: the HUD bar (level, crates left, coins, time), the title screen, the
//! pause and room-cleared screens, notices and the level-error banner.

use macroquad::prelude::*;

use serde::Serialize;

use super::render::{Icons, Renderer};
use crate::atlas::FrameRect;
use crate::campaign::medals::{Medal, Par};
use crate::input::menu::SettingsRow;
use crate::player_data::clock;
use crate::player_data::settings::{GhostRun, Settings};
use crate::sim::GameState;
use crate::sim::tuning::BURN_STEPS;
use crate::window::ui::{Hud, ink};

mod cleared;
mod hud_bar;
mod title;

pub use cleared::*;
pub use hud_bar::*;
pub use title::*;

/// The best medal a run whose clock reads `time` can still earn, and its par time.
pub fn time_to_beat(par: Par, time: u64) -> Option<(Medal, u64)> {
    par.medals().find(|&(_, t)| time <= t)
}

/// Queue the settings screen: one row per setting with its value, the chosen row marked.
pub fn settings(hud: &mut Hud, current: &Settings, selected: usize) {
    let (w, h) = (screen_width(), screen_height());
    let big = h >= 600.0;
    let size = if big { 28.0 } else { 20.0 };
    let line = size * 1.4;
    let rows = SettingsRow::ALL.len() as f32;
    let width = 560.0_f32.min(w - 24.0);
    let height = line * rows + size * 5.0;
    let (x, y) = ((w - width) / 2.0, ((h - height) / 2.0).max(HUD_BAR + 4.0));
    hud.panel(Rect::new(x, y, width, height), ink::OPAQUE);
    hud.centered("Settings", y + size * 1.6, size * 1.6, ink::GOLD);
    let top = y + size * 2.4;
    for (i, row) in SettingsRow::ALL.iter().enumerate() {
        let ry = top + line * i as f32;
        let chosen = i == selected;
        if chosen {
            hud.panel(
                Rect::new(x + 8.0, ry + 2.0, width - 16.0, line),
                ink::HIGHLIGHT,
            );
        }
        let color = if chosen { ink::GOLD } else { ink::TEXT };
        hud.text(
            format!("{} {}", if chosen { ">" } else { " " }, row.label()),
            x + 20.0,
            ry + size,
            size,
            color,
        );
        let value = row.value(current);
        let vw = measure_text(&value, None, size as u16, 1.0).width;
        hud.text(value, x + width - vw - 24.0, ry + size, size, color);
    }
    hud.centered(
        "Up / Down choose    Left / Right / Enter change    Esc back",
        top + line * rows + size * 1.3,
        size * 0.7,
        ink::DIM,
    );
    hud.centered(
        "gamepad: d-pad / stick, A change, B back",
        top + line * rows + size * 2.2,
        size * 0.7,
        ink::DIM,
    );
}

/// Queue the pause screen.
pub fn paused(hud: &mut Hud, level_hint: Option<&str>) {
    let (w, h) = (screen_width(), screen_height());
    let small = w < 900.0;
    hud.panel(Rect::new(0.0, h * 0.4, w, h * 0.22), ink::PANEL);
    hud.centered("Paused", h * 0.48, 56.0, ink::TEXT);
    hud.centered(
        "P / Esc / Start  resume      O / Select  settings      T  title",
        h * 0.53,
        if small { 16.0 } else { 22.0 },
        ink::DIM,
    );
    if let Some(level_hint) = level_hint {
        hud.centered(
            level_hint,
            h * 0.59,
            if small { 16.0 } else { 22.0 },
            ink::GOLD,
        );
    }
}

/// Seconds a level's hint stays on screen as the level starts.
pub const HINT_SECONDS: u64 = 6;

/// Queue the level's hint in a box [`hint_height`] tall, its top at `y`, centred. Returns the
/// box.
pub fn level_hint(hud: &mut Hud, level_hint: &str, y: f32) -> Rect {
    let size = hint_size();
    let lines = [(level_hint.to_owned(), ink::GOLD)];
    let (w, _) = Hud::box_size(&lines, size);
    hud.text_box(&lines, ((screen_width() - w) / 2.0).max(4.0), y, size)
}

/// The height of the box [`level_hint`] draws.
pub fn hint_height(level_hint: &str) -> f32 {
    Hud::box_size(&[(level_hint.to_owned(), ink::GOLD)], hint_size()).1
}

/// The size of the level hint's text on this screen.
fn hint_size() -> f32 {
    if screen_width() < 900.0 { 16.0 } else { 22.0 }
}

/// Where notices go on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticePlace {
    /// Under the top edge (the editor, whose status line is at the bottom).
    Top,
    /// Stacked up from just above the title's key line: clear of the title's logo, the HUD
    /// bar and the level's hint under it.
    Bottom,
}

/// Queue short notices (a level reloaded, a locked level, a problem with the best-times file).
pub fn notices<'a>(
    hud: &mut Hud,
    place: NoticePlace,
    notices: impl Iterator<Item = (&'a str, Color)>,
) {
    const GAP: f32 = 6.0;
    let h = screen_height();
    let size = if h >= 600.0 { 20.0 } else { 16.0 };
    // Wrapped to the window, so a long message (a path, an OS error) is read whole.
    let boxes: Vec<Vec<(String, Color)>> = notices
        .map(|(text, color)| {
            wrap(&shorten(text, 600), screen_width() - 40.0, size)
                .into_iter()
                .map(|line| (line, color))
                .collect()
        })
        .collect();
    let total: f32 = boxes
        .iter()
        .map(|lines| Hud::box_size(lines, size).1 + GAP)
        .sum();
    // On the title, the slot its layout keeps free between the totals and the key line (22 px
    // text 30 px from the bottom, 16 px text 12 px from it on a small window); never above
    // the HUD bar.
    let bottom = h - if h >= 600.0 { 50.0 } else { 25.0 } + GAP;
    let mut y = match place {
        NoticePlace::Top => HUD_BAR + 10.0,
        NoticePlace::Bottom => (bottom - total).max(HUD_BAR + 4.0),
    };
    for lines in &boxes {
        let (w, h) = Hud::box_size(lines, size);
        hud.text_box(lines, ((screen_width() - w) / 2.0).max(0.0), y, size);
        y += h + GAP;
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
    fn the_cleared_screen_offers_the_next_level_in_the_campaign_only() {
        let mut cleared = super::Cleared {
            time: 600,
            previous_best: None,
            crates: 2,
            coins: 0,
            can_save_replay: false,
            saved_replay: None,
            par: None,
            unlocked: None,
            ending: None,
            in_campaign: true,
            award: None,
            new_award: false,
            at_frame: 0,
        };
        assert!(super::cleared_keys(&cleared).contains("N  next level"));
        cleared.in_campaign = false;
        assert_eq!(
            super::cleared_keys(&cleared),
            "R  play again      T  title      G  ghost",
            "a sandbox level has no next level"
        );
    }

    #[test]
    fn time_to_the_next_medal_rounds_up_to_a_hundredth() {
        assert_eq!(super::seconds(1), "0.02 s");
        assert_eq!(super::seconds(60), "1.00 s");
        assert_eq!(super::seconds(61 * 60 + 3), "1:01.05");
    }

    #[test]
    fn long_text_is_cut_on_a_character_boundary() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "abc...");
        assert_eq!(shorten("ééééé", 2), "éé...");
    }

    #[test]
    fn the_title_total_of_any_best_times_never_overflows() {
        let entry = |file: &str, best| super::TitleEntry {
            file: file.to_owned(),
            name: None,
            best: Some(best),
            par: None,
            open: true,
            campaign: true,
            problem: None,
            why: None,
        };
        let entries = [
            entry("iron_bands.ron", u64::MAX),
            entry("pocket_change.ron", 1),
        ];
        assert!(super::title_total(&entries).contains("cleared 2 of 2"));
    }

    #[test]
    fn the_title_total_counts_only_the_levels_a_player_can_clear() {
        let entry = |best, problem: Option<&'static str>| super::TitleEntry {
            file: "level.ron".to_owned(),
            name: None,
            best,
            par: None,
            open: problem.is_none(),
            campaign: true,
            problem,
            why: None,
        };
        let mut entries = vec![entry(None, None); 10];
        entries.push(entry(None, Some("missing")));
        assert!(
            super::title_total(&entries).contains("cleared 0 of 10 (1 missing), total 0:00.00"),
            "{}",
            super::title_total(&entries)
        );
        // A level cleared before it went missing, and one that no longer loads: neither counts,
        // nor does its best time.
        entries[0].best = Some(60);
        entries.push(entry(Some(600), Some("missing")));
        entries.push(entry(Some(600), Some("does not load")));
        assert!(
            super::title_total(&entries)
                .contains("cleared 1 of 10 (2 missing, 1 does not load), total 0:01.00"),
            "{}",
            super::title_total(&entries)
        );
        // A sandbox level is in none of it.
        let mut sandbox = entry(Some(60), None);
        sandbox.campaign = false;
        entries.push(sandbox);
        assert!(super::title_total(&entries).contains("cleared 1 of 10 ("));
    }
}
