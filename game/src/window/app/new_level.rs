//! The title screen's "new level" (N): a form for the name, then the editor on a new file in
//! `levels/`.

use std::path::{Path, PathBuf};

use super::app_state::App;
use super::mode::Mode;
use crate::window::editor::edit_form::{Form, FormKey, FormKind};
use crate::window::editor::{self, EditEvent, Session};
use crate::window::ui::ink;

impl App {
    /// The title screen's N: a form for the new level's name.
    pub fn open_new_level_form(&mut self) {
        let mut form = Form::new(FormKind::NewLevel, vec![("name", String::new())]);
        form.skip = Some('n');
        if let Mode::Title(title) = &mut self.mode {
            title.new_level = Some(form);
        }
    }

    /// The form, while it is open.
    fn new_level_form(&mut self) -> Option<&mut Form> {
        match &mut self.mode {
            Mode::Title(title) => title.new_level.as_mut(),
            _ => None,
        }
    }

    /// Input while the new-level form is open: Enter makes the level (a file in `levels/`
    /// named after it, written on the first Ctrl+S) and opens it in the editor; Esc closes it.
    pub fn new_level_events(&mut self, events: &[EditEvent]) {
        for &event in events {
            let Some(form) = self.new_level_form() else {
                return;
            };
            match event {
                EditEvent::Char(c) => form.char(c),
                EditEvent::Key { key, shift, .. } => match form.key(key, shift) {
                    FormKey::Stay => {}
                    FormKey::Cancel => {
                        if let Mode::Title(title) = &mut self.mode {
                            title.new_level = None;
                        }
                    }
                    FormKey::Apply => {
                        let name = form.value("name").trim().to_owned();
                        if let Err(e) = self.make_new_level(&name)
                            && let Some(form) = self.new_level_form()
                        {
                            form.error = Some(e);
                        }
                    }
                },
                _ => {}
            }
        }
    }

    /// A new level named `name`: `levels/NAME.ron` (lower case, letters, digits and `_`; a
    /// number added if the file exists), opened in the editor, not written until saved.
    fn make_new_level(&mut self, name: &str) -> Result<(), String> {
        let path = free_path(&self.config.dirs.levels, &file_stem(name));
        let mut session = Session::open(&path, editor::NEW_LEVEL_SIZE, &self.config.atlas)
            .map_err(|e| editor::headline(&e))?;
        session.set_name(name)?;
        session.set_echo(self.script.is_some());
        session.say(
            format!("new level \"{name}\": Ctrl+S writes {}", path.display()),
            ink::GOOD,
        );
        self.watch(&path);
        self.run.path = path;
        self.edits.session = Some(session);
        self.mode = Mode::Editing;
        self.run.sim = None;
        self.run.error = None;
        Ok(())
    }
}

/// The file name a level called `name` gets: lower case letters, digits and single `_`s
/// (`level` if nothing is left).
fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect::<String>()
        .split('_')
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("_");
    if stem.is_empty() {
        "level".to_owned()
    } else {
        stem
    }
}

/// `dir/STEM.ron`, or `dir/STEM_2.ron`, `_3` ... if it exists.
fn free_path(dir: &Path, stem: &str) -> PathBuf {
    (1..)
        .map(|n| {
            let file = if n == 1 {
                format!("{stem}.ron")
            } else {
                format!("{stem}_{n}.ron")
            };
            dir.join(file)
        })
        .find(|p| !crate::fsutil::exists(p))
        .unwrap_or_else(|| dir.join(format!("{stem}.ron")))
}
