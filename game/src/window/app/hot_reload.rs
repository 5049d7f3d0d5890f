//! Swapping a saved level into the running game: the window's side of hot reload, which asks
//! the watcher for saves, the background loader for them ready to play, and leaves the editor's
//! unsaved edits alone.

use std::path::Path;

use super::app_state::App;
use crate::background_loader::{Prepared, Start};
use crate::window::platform::{BackgroundLoader, LevelWatcher};
use crate::window::ui::ink;

impl App {
    /// Start watching `path` for saves (or switch the watcher to it).
    pub fn watch(&mut self, path: &Path) {
        let reload = &mut self.reload;
        match &mut reload.watcher {
            // A replay plays the recorded level, never an edit of it.
            _ if self.mode.is_playback() => {}
            // A directory it cannot watch is its `problem()`, shown until it can.
            Some(w) => w.set_file(path),
            None => match LevelWatcher::new(path) {
                Ok(w) => {
                    reload.watcher = Some(w);
                    reload.watch_error = None;
                }
                Err(e) => reload.watch_error = Some(e.to_string()),
            },
        }
    }

    /// Whether the watcher saw the level file change since the last frame.
    pub fn level_file_saved(&mut self) -> bool {
        self.reload.watcher.as_mut().is_some_and(LevelWatcher::poll)
    }

    /// The watcher saw the level file change. Without an editor, hot reload. With one: the
    /// editor's own save changes nothing; someone else's change is taken when there are no
    /// unsaved edits, and otherwise noticed and shown while the edits are kept.
    pub fn level_file_changed(&mut self) {
        let Some(session) = &mut self.edits.session else {
            self.reload_in_background();
            return;
        };
        if session.disk_matches_last_save() {
            return;
        }
        if session.is_modified() {
            session.note_disk_change();
            self.notify(
                "the level file changed on disk; the editor keeps your unsaved edits".into(),
                ink::ERROR,
            );
            return;
        }
        if !self.mode.is_editing() {
            // Nothing unsaved: the file is the level again, hot reloaded as usual.
            self.edits.session = None;
            self.reload_in_background();
            return;
        }
        match session.reopen(&self.config.atlas) {
            Ok(()) => self.notify("the level file changed on disk: reloaded".into(), ink::GOOD),
            Err(e) => {
                session.note_disk_change();
                let first = crate::window::editor::headline(&e);
                self.notify(
                    format!("the level file changed on disk: {first}"),
                    ink::ERROR,
                );
            }
        }
    }

    /// The level file was saved: make it ready to play off the frame thread (read, parse,
    /// build and run its first step: see [`crate::background_loader`]); the current level runs and is
    /// drawn until [`finish_reload`](Self::finish_reload) swaps the new one in.
    fn reload_in_background(&mut self) {
        let start = Start {
            seed: self.config.seed,
            bot: self.config.input.is_bot(),
            dirty: self.dirty_optimization(),
            // The keyboard's first step is an idle one: the step runs before the swap.
            input: self.config.input.scripted_input(0),
        };
        let frame = self.frames.frame;
        match &mut self.reload.loader {
            Some(loader) => {
                loader.request(&self.run.path, start, frame);
            }
            None => {
                if self.reload() {
                    self.notify_reloaded();
                }
            }
        }
    }

    /// Start the level a background load made ready, if one did, or show why it is not one
    /// (the running game goes on). The game it replaces is dropped off the frame thread.
    pub fn finish_reload(&mut self) {
        let Some(loaded) = self.reload.loader.as_mut().and_then(BackgroundLoader::poll) else {
            return;
        };
        puffin::profile_scope!("swap_level");
        match loaded.prepared {
            Ok(Prepared {
                level,
                sim,
                recorder,
            }) => {
                let replaced = self.swap_in(&level, sim);
                self.discard((replaced, level));
                self.start_recording_from(Some(recorder));
                self.notify_reloaded();
            }
            Err(e) => self.run.error = Some(e.to_string()),
        }
    }

    /// Drop `garbage` (a game no longer played, a level started) on the loader's thread when
    /// there is one: a large world takes a while to drop, and so does a large level, whose
    /// every crate holds a share of its skin's name.
    pub(super) fn discard(&mut self, garbage: impl Send + 'static) {
        if let Some(loader) = &mut self.reload.loader {
            loader.discard(garbage);
        }
    }

    /// Wait for a change the watcher noticed to settle and its reload to start, then for a
    /// reload in flight, and swap it in: a scripted run's report must not depend on how fast
    /// this machine runs its frames or parses.
    pub fn wait_for_reload(&mut self) {
        while self
            .reload
            .watcher
            .as_ref()
            .is_some_and(LevelWatcher::is_settling)
        {
            std::thread::sleep(std::time::Duration::from_millis(2));
            if self.level_file_saved() {
                self.level_file_changed();
            }
        }
        let loading = |app: &Self| {
            app.reload
                .loader
                .as_ref()
                .is_some_and(BackgroundLoader::is_loading)
        };
        if loading(self) && std::env::var_os(crate::background_loader::HOLD_LOADS).is_some() {
            let frame = self.frames.frame;
            let line =
                format!("frame {frame}: the last frame waits for the level being prepared\n");
            // A reader gone is the test's business; the game goes on.
            let _ = crate::tool_io::print_out(&line);
        }
        while loading(self) {
            std::thread::sleep(std::time::Duration::from_millis(2));
            self.finish_reload();
        }
    }

    fn notify_reloaded(&mut self) {
        self.reload.reloads += 1;
        let name = self.run.name.clone();
        self.notify(format!("level reloaded: {name}"), ink::GOOD);
    }
}
