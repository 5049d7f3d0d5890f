//! The editor's small forms: a few labelled text fields (the level's name and size, the
//! skin and health of the crate under the mouse), typed into, checked by the model when
//! applied (Enter), with the validator's message under them when it refuses.

use macroquad::prelude::*;

use crate::window::app::screens::{HUD_BAR, shorten};
use crate::window::ui::{Hud, ink};

/// What a form edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormKind {
    /// P: the level's name, width and height.
    Level,
    /// O: the override of the crate at this cell.
    Crate { x: u32, y: u32 },
    /// N on the title screen: the name of a new level.
    NewLevel,
}

/// A form being filled in.
#[derive(Clone, Debug)]
pub struct Form {
    pub kind: FormKind,
    /// Label and text of each field.
    pub fields: Vec<(&'static str, String)>,
    /// The field typing goes into.
    pub focus: usize,
    /// Why the last Enter was refused (the validator's message).
    pub error: Option<String>,
    /// The key that opened the form also types its character: that one is not text.
    pub skip: Option<char>,
}

/// What a key did to a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormKey {
    /// Keep editing.
    Stay,
    /// Enter: apply the fields.
    Apply,
    /// Esc: close without applying.
    Cancel,
}

impl Form {
    pub fn new(kind: FormKind, fields: Vec<(&'static str, String)>) -> Self {
        Self {
            kind,
            fields,
            focus: 0,
            error: None,
            skip: None,
        }
    }

    /// A key went down: Tab / Down and Up move between fields, Backspace deletes, Enter
    /// applies, Esc cancels.
    pub fn key(&mut self, key: KeyCode, shift: bool) -> FormKey {
        let n = self.fields.len().max(1);
        match key {
            KeyCode::Enter | KeyCode::KpEnter => return FormKey::Apply,
            KeyCode::Escape => return FormKey::Cancel,
            KeyCode::Tab if shift => self.focus = (self.focus + n - 1) % n,
            KeyCode::Up => self.focus = (self.focus + n - 1) % n,
            KeyCode::Tab | KeyCode::Down => self.focus = (self.focus + 1) % n,
            KeyCode::Backspace => {
                if let Some((_, text)) = self.fields.get_mut(self.focus) {
                    text.pop();
                }
            }
            _ => {}
        }
        FormKey::Stay
    }

    /// A character typed into the focused field (control characters are not text).
    pub fn char(&mut self, c: char) {
        if c.is_control() || self.skip.take() == Some(c.to_ascii_lowercase()) {
            return;
        }
        if let Some((_, text)) = self.fields.get_mut(self.focus) {
            text.push(c);
        }
    }

    /// The text of field `label`.
    pub fn value(&self, label: &str) -> &str {
        self.fields
            .iter()
            .find(|(l, _)| *l == label)
            .map_or("", |(_, v)| v.as_str())
    }

    /// Queue the form: a panel with its title, fields (the focused one marked) and error.
    pub fn draw(&self, hud: &mut Hud, x: f32) {
        let size = 20.0;
        let line = size * 1.4;
        let title = match self.kind {
            FormKind::Level => "Level properties".to_owned(),
            FormKind::Crate { x, y } => format!("Crate at ({x}, {y}): override"),
            FormKind::NewLevel => "New level: its name (the file is named after it)".to_owned(),
        };
        let hint = "Tab next field   Enter apply   Esc cancel";
        let rows = self.fields.len() + 2 + usize::from(self.error.is_some());
        let w = 620.0;
        let h = line * rows as f32 + size;
        let y = HUD_BAR + 12.0;
        hud.panel(Rect::new(x, y, w, h), ink::OPAQUE);
        hud.text(title, x + size / 2.0, y + line, size, ink::GOLD);
        for (i, (label, value)) in self.fields.iter().enumerate() {
            let base = y + line * (i + 2) as f32;
            let focused = i == self.focus;
            let color = if focused { ink::GOLD } else { ink::TEXT };
            hud.text(*label, x + size / 2.0, base, size, color);
            let cursor = if focused { "_" } else { "" };
            hud.text(format!("{value}{cursor}"), x + 150.0, base, size, ink::TEXT);
        }
        let mut base = y + line * (self.fields.len() + 2) as f32;
        if let Some(error) = &self.error {
            hud.text(shorten(error, 60), x + size / 2.0, base, size, ink::ERROR);
            base += line;
        }
        hud.text(hint, x + size / 2.0, base, size * 0.8, ink::DIM);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_goes_into_the_focused_field_and_tab_moves_on() {
        let mut form = Form::new(
            FormKind::Level,
            vec![("name", "Ab".into()), ("width", "26".into())],
        );
        form.char('c');
        form.key(KeyCode::Tab, false);
        form.key(KeyCode::Backspace, false);
        form.char('\u{8}');
        form.char('7');
        assert_eq!(form.value("name"), "Abc");
        assert_eq!(form.value("width"), "27");
        assert_eq!(form.key(KeyCode::Enter, false), FormKey::Apply);
        assert_eq!(form.key(KeyCode::Escape, false), FormKey::Cancel);
    }
}
