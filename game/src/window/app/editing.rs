//! The editor's place in the game: opening it (`--edit`, E), playtesting from it (E), and the
//! guard on commands that would throw its unsaved edits away.

use super::app_state::App;
use super::flow::same_file;
use super::keys::Command;
use super::mode::Mode;
use crate::sim::Sim;
use crate::window::editor::{self, EditStart, Session};
use crate::window::ui::ink;

impl App {
    /// `--edit PATH`: the editor on `start.path` (a new level if there is no file), in edit
    /// mode, with the level playable behind it when it is valid.
    pub fn open_editor(&mut self, start: &EditStart) {
        match Session::open(&start.path, start.new_size, &self.config.atlas) {
            Ok(mut session) => {
                session.set_echo(self.script.is_some());
                self.watch(&start.path);
                self.run.path = start.path.clone();
                self.edits.session = Some(session);
                self.mode = Mode::Editing;
                self.reload();
                // A new level's problem (say, no player start yet) is the editor's to show.
                self.run.error = None;
            }
            Err(e) => self.run.error = Some(e.to_string()),
        }
    }

    /// E while playing: edit the running level (keeping the edits of an earlier visit).
    pub fn enter_editor(&mut self) {
        if self.mode.is_playback() {
            return;
        }
        if self
            .edits
            .session
            .as_ref()
            .is_none_or(|s| !same_file(s.path(), &self.run.path))
        {
            match Session::open(&self.run.path, editor::NEW_LEVEL_SIZE, &self.config.atlas) {
                Ok(mut session) => {
                    session.set_echo(self.script.is_some());
                    self.edits.session = Some(session);
                }
                Err(e) => {
                    self.notify(format!("cannot edit: {}", editor::headline(&e)), ink::ERROR);
                    return;
                }
            }
        }
        if let Some(session) = &mut self.edits.session {
            session.resume();
        }
        self.mode = Mode::Editing;
        self.run.cleared = None;
    }

    /// E in the editor: play the edited map from the start (saved or not). An invalid level
    /// stays in the editor, which shows why.
    pub fn leave_editor(&mut self) {
        let Some(session) = &mut self.edits.session else {
            self.mode = Mode::Playing { paused: false };
            return;
        };
        match session.level() {
            Ok(level) => match Sim::new(&level, &self.config.atlas, self.config.seed) {
                Ok(sim) => {
                    self.mode = Mode::Playing { paused: false };
                    self.start(level, sim);
                }
                Err(e) => session.say(format!("cannot play: {e}"), ink::ERROR),
            },
            Err(e) => {
                let first = editor::headline(&e);
                session.say(format!("cannot play it yet: {first}"), ink::ERROR);
            }
        }
    }

    /// Whether a command may throw away unsaved edits: yes without any; with some, the
    /// first time it only says so, and the same command again goes ahead.
    pub fn may_discard_edits(&mut self, command: Command, what: &str) -> bool {
        if !self
            .edits
            .session
            .as_ref()
            .is_some_and(Session::is_modified)
        {
            return true;
        }
        if self.edits.discard_armed == Some(command) {
            self.edits.discard_armed = None;
            return true;
        }
        self.edits.discard_armed = Some(command);
        let save = if self.mode.is_editing() {
            "Ctrl+S saves"
        } else {
            "E, then Ctrl+S, saves"
        };
        self.notify(
            format!("unsaved edits in the editor: {what} again discards them ({save})"),
            ink::GOLD,
        );
        false
    }
}
