//! The editor's property forms: P (the level's name and size) and O (the skin and health of
//! the crate under the mouse). While one is open it takes the keys; Enter hands its fields to
//! the model, which checks them as `check` does.

use macroquad::prelude::*;

use super::edit_form::{Form, FormKey, FormKind};
use super::edit_session::Session;
use super::feed::EditEvent;
use crate::editor::{BrushKind, CrateOverride};
use crate::window::ui::ink;

impl Session {
    /// An event while a form is open: keys and characters go to it, the mouse only moves.
    pub(super) fn form_event(&mut self, event: EditEvent) {
        match event {
            EditEvent::Char(c) => {
                if let Some(form) = &mut self.form {
                    form.char(c);
                }
            }
            EditEvent::Key { key, shift, .. } => {
                self.modifier(key, true);
                let shift = shift || self.shift;
                let Some(form) = &mut self.form else { return };
                match form.key(key, shift) {
                    FormKey::Stay => {}
                    FormKey::Cancel => {
                        self.form = None;
                        self.say("closed without changes", ink::DIM);
                    }
                    FormKey::Apply => self.apply_form(),
                }
            }
            EditEvent::KeyUp(key) => self.modifier(key, false),
            EditEvent::Move(x, y) | EditEvent::Down(_, x, y) | EditEvent::Up(_, x, y) => {
                self.mouse = (x, y);
            }
            EditEvent::Wheel(_) => {}
        }
    }

    /// P: the level's name and size.
    pub(super) fn open_level_form(&mut self) {
        self.form = Some(Form::new(
            FormKind::Level,
            vec![
                ("name", self.model.name().to_owned()),
                ("width", self.model.width().to_string()),
                ("height", self.model.height().to_string()),
            ],
        ));
        if let Some(form) = &mut self.form {
            form.skip = Some('p');
        }
        self.say(
            "level properties: Tab next field, Enter apply, Esc cancel",
            ink::TEXT,
        );
    }

    /// O: the skin and health of the crate under the mouse.
    pub(super) fn open_crate_form(&mut self) {
        let Some((x, y)) = self.map_cell(self.mouse) else {
            self.say("O edits the crate under the mouse: point at one", ink::DIM);
            return;
        };
        let ch = self.model.cell(x, y).unwrap_or(' ');
        let is_crate = self
            .palette
            .iter()
            .any(|b| b.ch == ch && matches!(b.kind, BrushKind::Crate { .. }));
        if !is_crate {
            self.say(
                format!("O edits the crate under the mouse: ({x}, {y}) holds '{ch}'"),
                ink::DIM,
            );
            return;
        }
        let now = self.model.crate_override(x, y);
        self.form = Some(Form::new(
            FormKind::Crate { x, y },
            vec![
                ("skin", now.skin.unwrap_or_default()),
                (
                    "health",
                    now.health.map(|h| h.to_string()).unwrap_or_default(),
                ),
            ],
        ));
        if let Some(form) = &mut self.form {
            form.skip = Some('o');
        }
        self.say(
            format!("crate at ({x}, {y}): skin and health (empty: as its map character says)"),
            ink::TEXT,
        );
    }

    /// Enter in a form: hand its fields to the model, which checks them as `check` does; a
    /// refusal keeps the form open with the message.
    fn apply_form(&mut self) {
        let Some(form) = self.form.clone() else {
            return;
        };
        self.edited();
        let result = match form.kind {
            FormKind::Level => self.apply_level_form(&form),
            FormKind::Crate { x, y } => self.apply_crate_form(&form, x, y),
            FormKind::NewLevel => Ok(String::new()),
        };
        match result {
            Ok(said) => {
                self.form = None;
                self.say(said, ink::GOOD);
            }
            Err(message) => {
                self.say(format!("not applied: {message}"), ink::ERROR);
                if let Some(open) = &mut self.form {
                    open.error = Some(message);
                }
            }
        }
    }

    fn apply_level_form(&mut self, form: &Form) -> Result<String, String> {
        let number = |label: &str| {
            let text = form.value(label).trim();
            text.parse::<u32>()
                .map_err(|_| format!("{label}: `{text}` is not a whole number"))
        };
        let (width, height) = (number("width")?, number("height")?);
        let name = form.value("name");
        // The name first: a refused size then leaves the name changed, which undo takes back.
        self.model.set_name(name).map_err(|e| e.message)?;
        self.model.set_size(width, height)?;
        Ok(format!(
            "level \"{}\", {} x {}",
            self.model.name(),
            self.model.width(),
            self.model.height()
        ))
    }

    fn apply_crate_form(&mut self, form: &Form, x: u32, y: u32) -> Result<String, String> {
        let health = match form.value("health").trim() {
            "" => None,
            text => Some(
                text.parse::<i64>()
                    .map_err(|_| format!("health: `{text}` is not a whole number"))?,
            ),
        };
        let skin = Some(form.value("skin").trim().to_owned()).filter(|s| !s.is_empty());
        let coin = self.model.crate_override(x, y).coin;
        let fields = CrateOverride { health, skin, coin };
        self.model
            .set_crate_override(x, y, fields.clone())
            .map_err(|e| e.message)?;
        let shown = |v: Option<String>| v.unwrap_or_else(|| "-".to_owned());
        Ok(format!(
            "crate at ({x}, {y}): skin {}, health {}",
            shown(fields.skin),
            shown(fields.health.map(|h| h.to_string()))
        ))
    }
}
