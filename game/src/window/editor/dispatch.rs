//! One frame of the editor's input: each event, in order, goes to an open form, the mouse
//! tools or the keys; the modifiers are tracked from the stream itself; held pan keys move the
//! view.

use macroquad::miniquad;
use macroquad::prelude::*;

use super::edit_layout::PALETTE_W;
use super::edit_session::{Outcome, Session};
use super::feed::EditEvent;
use super::shortcuts::is_arrow;
use crate::window::app::screens::HUD_BAR;

/// Panning speed of WASD / arrows, in screen pixels per second.
const PAN_SPEED: f32 = 700.0;
/// The keys that pan the view while held.
const PAN_KEYS: [KeyCode; 8] = [
    KeyCode::W,
    KeyCode::A,
    KeyCode::S,
    KeyCode::D,
    KeyCode::Up,
    KeyCode::Left,
    KeyCode::Down,
    KeyCode::Right,
];

impl Session {
    /// Handle one frame's input: `events` in order, then the held pan keys. `game_scale` is
    /// the game's zoom (the view starts at it when the map fits).
    pub fn handle(&mut self, events: &[EditEvent], dt: f32, game_scale: f32) -> Outcome {
        let (w, h) = (screen_width(), screen_height());
        self.place(w, h, game_scale);
        if !self.ready {
            // From here on every input event reaches the editor: a test may start clicking.
            self.ready = true;
            if self.echo {
                eprintln!("editor: ready");
            }
        }
        let mut outcome = Outcome::Stay;
        for &event in events {
            match self.event(event, w, h, game_scale) {
                Outcome::Stay => {}
                other => outcome = other,
            }
        }
        if self.clipboard_again && !is_key_down(KeyCode::C) && !is_key_down(KeyCode::X) {
            if let Some(text) = &self.clipboard {
                miniquad::window::clipboard_set(text);
            }
            self.clipboard_again = false;
        }
        // A button let go outside the window never sends its release: end the drag.
        let buttons = [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
        // (`xdotool click` can press and release within one frame: the events above handled
        // both, so this only ends drags whose release was lost.)
        if self.drag.is_some() && !buttons.iter().any(|&b| is_mouse_button_down(b)) {
            self.end_drag();
        }
        if !self.ctrl {
            self.pan_held(dt);
        }
        outcome
    }

    /// Move the view for the pan keys held down.
    fn pan_held(&mut self, dt: f32) {
        // Only keys that went down without Ctrl pan: the S of a Ctrl+S never does, however
        // its events fall between frames.
        let down = |keys: &[KeyCode]| keys.iter().any(|k| self.panning.contains(k));
        let axis =
            |neg: &[KeyCode], pos: &[KeyCode]| f32::from(i8::from(down(pos)) - i8::from(down(neg)));
        let dx = axis(&[KeyCode::A, KeyCode::Left], &[KeyCode::D, KeyCode::Right]);
        let dy = axis(&[KeyCode::W, KeyCode::Up], &[KeyCode::S, KeyCode::Down]);
        if dx != 0.0 || dy != 0.0 {
            let step = PAN_SPEED * dt.min(0.1);
            self.view.pan(dx * step, dy * step);
        }
    }

    fn event(&mut self, event: EditEvent, w: f32, h: f32, game_scale: f32) -> Outcome {
        if self.form.is_some() {
            self.form_event(event);
            return Outcome::Stay;
        }
        match event {
            EditEvent::Move(x, y) => {
                self.mouse = (x, y);
                self.drag_to((x, y));
            }
            EditEvent::Down(button, x, y) => {
                self.mouse = (x, y);
                self.press(button, (x, y));
            }
            EditEvent::Up(_, x, y) => {
                self.mouse = (x, y);
                self.drag_to((x, y));
                self.end_drag();
            }
            EditEvent::Wheel(dy) if dy != 0.0 => {
                let (x, y) = self.mouse;
                if x < PALETTE_W && y >= HUD_BAR {
                    self.scroll_palette(if dy > 0.0 { -1 } else { 1 });
                } else {
                    self.view.zoom_at(if dy > 0.0 { 1 } else { -1 }, x, y);
                }
            }
            EditEvent::Wheel(_) | EditEvent::Char(_) => {}
            EditEvent::KeyUp(key) => {
                self.modifier(key, false);
                self.panning.retain(|&k| k != key);
            }
            EditEvent::Key {
                key,
                ctrl,
                shift,
                alt: _,
                repeat,
            } => {
                self.modifier(key, true);
                let ctrl = ctrl || self.ctrl;
                // With a selection the arrows move it; WASD still pan.
                let moves_selection = self.selection.is_some() && is_arrow(key);
                if !ctrl
                    && !moves_selection
                    && PAN_KEYS.contains(&key)
                    && !self.panning.contains(&key)
                {
                    self.panning.push(key);
                }
                let shift = shift || self.shift;
                return self.key(key, ctrl, shift, repeat, (w, h, game_scale));
            }
        }
        Outcome::Stay
    }

    /// Track Ctrl, Shift and Alt from the event stream itself: a click right after Shift went
    /// down is a Shift-click even if both arrived in one frame.
    pub(super) fn modifier(&mut self, key: KeyCode, down: bool) {
        match key {
            KeyCode::LeftShift | KeyCode::RightShift => self.shift = down,
            KeyCode::LeftControl | KeyCode::RightControl => self.ctrl = down,
            KeyCode::LeftAlt | KeyCode::RightAlt => self.alt = down,
            _ => {}
        }
    }
}
