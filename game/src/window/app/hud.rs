//! What is drawn over the world: the HUD bar, the pause, cleared and settings screens over
//! the game, notices (and saying them on stderr), the level-error banner and the key help.

use macroquad::prelude::{Color, screen_height, screen_width};

use super::app_state::App;
use super::mode::Mode;
use super::screens::{self, HUD_BAR};
use super::{keys, playback};
use crate::sim::{Sim, TILE};
use crate::window::debug::views::View;
use crate::window::editor::{self, Session};
use crate::window::ui::{Hud, ink};

impl App {
    /// Show a failure on screen, and say it on stderr too (in a browser, its console): a long
    /// line is cut off on a small window, and a player who started the game from a terminal or
    /// a script reads it there.
    pub fn warn(&mut self, text: String) {
        crate::window::platform::say(&format!("crate-room: {text}"));
        self.notify(text, ink::ERROR);
    }

    /// Show `text` for a while (see [`screens::notices`] for where).
    pub fn notify(&mut self, text: String, color: Color) {
        let now = self.notice_clock();
        self.drawing.notices.push(text, color, now);
    }

    /// The clock notices are timed on, in seconds: the wall clock, or in a scripted run its
    /// frames at 60 a second, so a scripted run shows the same notices on the same frames.
    fn notice_clock(&self) -> f64 {
        if self.script.is_some() {
            self.frames.frame as f64 / 60.0
        } else {
            macroquad::time::get_time()
        }
    }

    /// Queue the HUD over the game: the bar, the screen over it (settings, cleared, paused),
    /// notices and the level error.
    pub fn draw_hud(&mut self) {
        self.drawing.hint = None;
        self.drawing.bar.clear();
        let Some(sim) = &self.run.sim else {
            self.drawing
                .hud
                .centered("No level loaded", screen_height() * 0.3, 40.0, ink::TEXT);
            if let Some(e) = &self.run.error {
                screens::error_box(&mut self.drawing.hud, e);
            }
            return;
        };
        let state = sim.state();
        let muted = if self.juice.sounds.is_muted() {
            "sound off (M)   "
        } else {
            ""
        };
        let hint = match &self.mode {
            Mode::Playback { playback, paused } => playback.label(*paused, state.step) + muted,
            // A playtest of edits not saved yet says so, with the way back to them.
            _ if self
                .edits
                .session
                .as_ref()
                .is_some_and(Session::is_modified) =>
            {
                format!("unsaved edits (E)   {muted}")
            }
            _ => muted.to_string(),
        };
        self.drawing.bar = screens::hud_bar(
            &self.drawing.renderer,
            &self.run.name,
            &state,
            self.run.par,
            &hint,
        );
        let hud = &mut self.drawing.hud;
        if let Mode::Settings { menu, .. } = &self.mode {
            screens::settings(hud, self.records.settings.current(), menu.selected);
        } else if let Some(c) = &self.run.cleared {
            screens::cleared(hud, c, self.frames.frame.saturating_sub(c.at_frame));
        } else if let Mode::Playing { paused: true } = self.mode {
            screens::paused(hud, self.run.hint.as_deref());
        } else if let Some(level_hint) = &self.run.hint
            && !self.drawing.overlay.views.is_on(View::Help)
        {
            // The first seconds of a level: what it teaches (not under F1's help, which covers
            // the same place).
            if state.step < screens::HINT_SECONDS * u64::from(crate::sim::STEPS_PER_SECOND) {
                let overlay = &self.drawing.overlay;
                let panels =
                    overlay.views.is_on(View::Stats) || overlay.views.is_on(View::Profiler);
                // The bottom is the F7 banner's, while it shows; the hint goes above it.
                let bottom = overlay
                    .banner_starts_at()
                    .map_or(screen_height(), |top| top + 6.0);
                // Where it covers none of the room's floor: under the room where it leaves
                // space (a small room in a small window), else over its top wall while that
                // is in view.
                let height = screens::hint_height(level_hint);
                let renderer = &self.drawing.renderer;
                let (top, bottom_edge) = renderer.room_edges(sim);
                let wall = TILE * renderer.scale;
                let y = if panels || bottom - bottom_edge >= height + 24.0 {
                    bottom - height - 12.0
                } else if top >= HUD_BAR - 1.0 && height <= wall {
                    top + (wall - height) / 2.0
                } else {
                    HUD_BAR + 56.0
                };
                let shown = screens::level_hint(&mut self.drawing.hud, level_hint, y);
                self.drawing.hint = Some(shown);
            }
        }
        // Drawn first, so a notice's box covers the text under it.
        self.drawing.hud.draw();
        self.draw_notices();
        if let Some(e) = &self.run.error {
            screens::error_box(&mut self.drawing.hud, e);
        }
    }

    /// Queue the notices, and why saves are not noticed if they are not.
    pub fn draw_notices(&mut self) {
        // The watcher could not start, or its directory is gone.
        let watch = match &self.reload.watcher {
            Some(w) => w.problem().map(ToString::to_string),
            None => self.reload.watch_error.clone(),
        }
        .map(|w| (format!("hot reload off: {w}"), ink::ERROR));
        let now = self.notice_clock();
        let place = if self.mode.is_editing() {
            screens::NoticePlace::Top
        } else {
            screens::NoticePlace::Bottom
        };
        let drawing = &mut self.drawing;
        screens::notices(
            &mut drawing.hud,
            place,
            drawing
                .notices
                .current(now)
                .chain(watch.iter().map(|(t, c)| (t.as_str(), *c))),
        );
    }

    /// The key help (F1): every key, and the state of the switches it lists.
    pub fn draw_help(&mut self) {
        if self.mode.is_editing() {
            editor::help(&mut self.drawing.hud);
            return;
        }
        let dirty = self.run.sim.as_ref().is_none_or(Sim::dirty_optimization);
        let feel = self.juice.feel.settings();
        let mut lines = vec![
            ("Keys".to_string(), ink::GOLD),
            (
                "WASD / arrows  move     Space / J / Enter  smash".to_string(),
                ink::TEXT,
            ),
        ];
        if self.mode.is_playback() {
            lines.extend(playback::HELP.iter().map(|l| (l.to_string(), ink::GOLD)));
        }
        lines.extend(keys::help_lines().map(|l| (l.to_string(), ink::TEXT)));
        lines.extend(keys::PAD_HELP.iter().map(|l| (l.to_string(), ink::GOLD)));
        lines.push((self.devices.pads.status(), ink::DIM));
        lines.push((
            format!(
                "dirty tracking {}   shake {}",
                if dirty { "ON" } else { "OFF" },
                if feel.shake || feel.hit_stop {
                    "on"
                } else {
                    "off"
                }
            ),
            if dirty { ink::DIM } else { ink::ERROR },
        ));
        help_boxes(&mut self.drawing.hud, &lines);
    }
}

/// Queue the help's lines under the HUD bar: at 20 px where they fit the screen, otherwise
/// smaller, in one column if it can be at least 12 px, else in two. The boxes are opaque: the
/// help is drawn last, over everything, and nothing under it shows through.
fn help_boxes(hud: &mut Hud, lines: &[(String, Color)]) {
    const LARGEST: f32 = 20.0;
    let top = HUD_BAR + 12.0;
    let room_h = (screen_height() - top - 8.0).max(60.0);
    let room_w = (screen_width() - 16.0).max(100.0);
    // The largest size at which `part` fits `width` x `room_h` (text widths scale with size).
    let fit = |part: &[(String, Color)], width: f32| {
        let (w, h) = Hud::box_size(part, LARGEST);
        (LARGEST * (width / w).min(room_h / h)).min(LARGEST).floor()
    };
    let size = fit(lines, room_w);
    if size >= 12.0 {
        hud.text_box_on(lines, 8.0, top, size, ink::OPAQUE);
        return;
    }
    let (first, second) = lines.split_at(lines.len().div_ceil(2));
    let column = (room_w - 6.0) / 2.0;
    let size = fit(first, column).min(fit(second, column)).max(6.0);
    let left = hud.text_box_on(first, 8.0, top, size, ink::OPAQUE);
    hud.text_box_on(second, left.x + left.w + 6.0, top, size, ink::OPAQUE);
}
