//! The editor's keys: Ctrl shortcuts (save, undo, clipboard, stamps, resize) and the plain keys
//! (play, quit, forms, the scatter brush, zoom to fit, brush picking), with the questions they
//! ask ("again to confirm") kept open only by the same key.

use macroquad::prelude::*;

use super::edit_session::{Confirm, Outcome, Session, Tool};
use super::mouse_tools::SCATTER_SIDE;
use super::picker::number_key;
use crate::editor::SCATTER_STEPS;
use crate::window::ui::ink;

impl Session {
    /// A key went down (`ctrl` and `shift` as held then; `repeat` for the keyboard's
    /// auto-repeat); `w`, `h` and `game_scale` are for Home's fit.
    pub(super) fn key(
        &mut self,
        key: KeyCode,
        ctrl: bool,
        shift: bool,
        repeat: bool,
        (w, h, game_scale): (f32, f32, f32),
    ) -> Outcome {
        let asked = self.confirm.take();
        let repeats = (ctrl && matches!(key, KeyCode::Z | KeyCode::Y))
            || (!ctrl && self.selection.is_some() && is_arrow(key));
        if repeat && !repeats {
            self.confirm = asked;
            return Outcome::Stay;
        }
        if ctrl {
            self.ctrl_key(key, shift, asked);
            return Outcome::Stay;
        }
        self.plain_key(key, asked, (w, h, game_scale))
    }

    /// A key with Ctrl held; `asked` is the question open before it.
    fn ctrl_key(&mut self, key: KeyCode, shift: bool, asked: Option<Confirm>) {
        match key {
            KeyCode::S => self.save(asked == Some(Confirm::Save)),
            KeyCode::Z if shift => self.redo(),
            KeyCode::Z => self.undo(),
            KeyCode::Y => self.redo(),
            KeyCode::C => self.copy(false),
            KeyCode::X => self.copy(true),
            KeyCode::V => self.paste(),
            KeyCode::B => self.save_stamp(),
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => {
                self.resize_key(key, if shift { -1 } else { 1 });
            }
            // Ctrl itself (the first half of every shortcut) keeps the question open.
            KeyCode::LeftControl | KeyCode::RightControl => self.confirm = asked,
            _ => {}
        }
    }

    /// A key without Ctrl; `asked` is the question open before it.
    fn plain_key(
        &mut self,
        key: KeyCode,
        asked: Option<Confirm>,
        (w, h, game_scale): (f32, f32, f32),
    ) -> Outcome {
        match key {
            KeyCode::E => return Outcome::Play,
            KeyCode::Escape if self.selection.is_some() => {
                self.selection = None;
                self.say("selection cleared", ink::DIM);
            }
            KeyCode::Escape => return self.escape(asked),
            KeyCode::Delete | KeyCode::Backspace => self.erase_selection(),
            KeyCode::P => self.open_level_form(),
            KeyCode::O => self.open_crate_form(),
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
                if self.selection.is_some() =>
            {
                let (dx, dy) = match key {
                    KeyCode::Up => (0, -1),
                    KeyCode::Down => (0, 1),
                    KeyCode::Left => (-1, 0),
                    _ => (1, 0),
                };
                self.move_selection(dx, dy);
            }
            KeyCode::R => self.toggle_scatter(),
            KeyCode::Minus | KeyCode::Equal | KeyCode::KpSubtract | KeyCode::KpAdd => {
                self.step_density(matches!(key, KeyCode::Equal | KeyCode::KpAdd));
            }
            KeyCode::Home => self.fit(w, h, game_scale),
            KeyCode::LeftBracket => {
                let n = self.palette.len().max(1);
                self.pick((self.brush + n - 1) % n);
            }
            KeyCode::RightBracket => self.pick((self.brush + 1) % self.palette.len().max(1)),
            KeyCode::LeftShift
            | KeyCode::RightShift
            | KeyCode::LeftControl
            | KeyCode::RightControl
            | KeyCode::LeftAlt
            | KeyCode::RightAlt => self.confirm = asked,
            _ => {
                if let Some(i) = number_key(key) {
                    self.pick(i);
                }
            }
        }
        Outcome::Stay
    }

    /// Esc with no selection: quit, asking first when there are unsaved edits.
    fn escape(&mut self, asked: Option<Confirm>) -> Outcome {
        if !self.model.is_modified() || asked == Some(Confirm::Quit) {
            return Outcome::Quit;
        }
        self.confirm = Some(Confirm::Quit);
        self.say(
            "unsaved edits: Esc again quits without saving them (Ctrl+S saves)",
            ink::GOLD,
        );
        Outcome::Stay
    }

    /// R: the scatter brush on or off.
    fn toggle_scatter(&mut self) {
        self.tool = if self.tool == Tool::Scatter {
            Tool::Pen
        } else {
            Tool::Scatter
        };
        let text = match self.tool {
            Tool::Scatter => format!(
                "scatter brush: {}% of a {SCATTER_SIDE} x {SCATTER_SIDE} square \
                 (- / = change it)",
                u32::from(self.density) * 10
            ),
            _ => "pen".to_owned(),
        };
        self.say(text, ink::TEXT);
    }

    /// `-` / `=`: the scatter brush's density a step down or `up`.
    fn step_density(&mut self, up: bool) {
        let steps = SCATTER_STEPS;
        self.density = if up {
            (self.density + 1).min(*steps.end())
        } else {
            self.density.saturating_sub(1).max(*steps.start())
        };
        self.say(
            format!("scatter density {}%", u32::from(self.density) * 10),
            ink::TEXT,
        );
    }

    fn undo(&mut self) {
        self.edited();
        if self.model.undo() {
            self.say("undone", ink::DIM);
        } else {
            self.say("nothing to undo", ink::DIM);
        }
    }

    fn redo(&mut self) {
        self.edited();
        if self.model.redo() {
            self.say("redone", ink::DIM);
        } else {
            self.say("nothing to redo", ink::DIM);
        }
    }
}

/// Whether `key` is an arrow key.
pub(super) fn is_arrow(key: KeyCode) -> bool {
    matches!(
        key,
        KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
    )
}
