//! Game flow between levels: opening a level, (re)starting its game, the title screen's rows,
//! stepping through the levels (N / B) and the campaign's locks.

use std::path::Path;

use super::app_state::{App, Unplayable};
use super::ghost::{self, Ghost};
use super::mode::{Mode, TitleScreen};
use super::screens::TitleEntry;
use crate::input::InputSource;
use crate::level::{Level, escape_for_display};
use crate::player_data::settings::GhostRun;
use crate::replay;
use crate::sim::{FixedStep, Sim};
use crate::window::ui::ink;

impl App {
    /// Switch to the level at `path` (watching it for edits), keeping the current game if it
    /// fails to load.
    pub fn open_level(&mut self, path: &Path) {
        // A replay's level opens in playback, which the replay never leaves.
        if !self.mode.is_playback() {
            self.mode = Mode::Playing { paused: false };
        }
        if self
            .edits
            .session
            .as_ref()
            .is_some_and(|s| !same_file(s.path(), path))
        {
            self.edits.session = None;
        }
        self.run.path = path.to_path_buf();
        self.watch(path);
        self.reload();
        // Levels of the levels folder are remembered for the title screen.
        if same_file(path.parent().unwrap_or(path), &self.config.dirs.levels) {
            let file = level_key(path);
            self.change_settings(|s| s.last_level = Some(file.clone()));
        }
    }

    /// (Re)load the current level file from disk now, on this thread. Returns whether it
    /// loaded. A background load still under way is dropped: this one is newer.
    pub fn reload(&mut self) -> bool {
        if let Some(loader) = &mut self.reload.loader {
            loader.cancel();
        }
        let config = &self.config;
        let loaded = match &config.input {
            // Checked against the recorded level's hash again: it may have changed since.
            InputSource::Replay(r) => replay::load_sim(r, &config.atlas, Some(&config.dirs.levels))
                .map(|(_, level, sim)| (level, sim))
                .map_err(|e| e.to_string()),
            // While a level is being edited, it restarts as edited (saved or not).
            _ => match &self.edits.session {
                Some(session) => session
                    .level()
                    .map_err(|e| e.to_string())
                    .and_then(|level| {
                        let sim = Sim::new(&level, &config.atlas, config.seed)
                            .map_err(|e| e.to_string())?;
                        Ok((level, sim))
                    }),
                None => {
                    Sim::load(&self.run.path, &config.atlas, config.seed).map_err(|e| e.to_string())
                }
            },
        };
        match loaded {
            Ok((level, sim)) => {
                self.start(level, sim);
                true
            }
            Err(e) => {
                self.run.error = Some(e);
                false
            }
        }
    }

    /// Play `sim`, just built from `level`, in place of the current game.
    pub fn start(&mut self, level: Level, sim: Sim) {
        let replaced = self.swap_in(&level, sim);
        self.discard((replaced, level));
        self.start_recording();
    }

    /// Put `sim`, built from `level`, in place of the current game, with the game's settings;
    /// returns the game it replaces. The caller starts the recording, and drops the level and
    /// the game replaced (a large one off this thread: see [`discard`](Self::discard)).
    pub(super) fn swap_in(&mut self, level: &Level, mut sim: Sim) -> Option<Sim> {
        sim.set_dirty_optimization(self.dirty_optimization());
        sim.set_bot(self.config.input.is_bot());
        self.drawing.renderer.fit_camera(&mut sim);
        self.run.name.clone_from(&level.name);
        self.run.par = level.par;
        self.run.hint.clone_from(&level.hint);
        let replaced = self.run.sim.replace(sim);
        self.run.error = None;
        self.run.fixed = FixedStep::default();
        self.run.cleared = None;
        self.juice.new_run();
        self.load_ghost();
        replaced
    }

    /// The ghost the settings ask for, on the level just started: none while a replay is
    /// watched or unsaved edits are played (no recording is of them); why there is none, said
    /// once, when one was asked for.
    pub(super) fn load_ghost(&mut self) {
        let run = self.records.settings.current().ghost;
        let unsaved = self
            .edits
            .session
            .as_ref()
            .is_some_and(crate::window::editor::Session::is_modified);
        if self.mode.is_playback() || unsaved || run == GhostRun::Off {
            self.run.ghost = None;
            return;
        }
        let data_dir = ghost::data_dir(self.script.is_some());
        let loaded = Ghost::load(
            run,
            &self.run.path,
            &self.config.dirs.levels,
            data_dir.as_deref(),
            &self.config.atlas,
        );
        match loaded {
            Ok(ghost) => self.run.ghost = ghost,
            Err(why) => {
                self.run.ghost = None;
                self.notify(format!("ghost: {why}"), ink::DIM);
            }
        }
    }

    /// Whether the dirty-component optimization is on: the game's, or as the command line
    /// started it before there is a game.
    pub(super) fn dirty_optimization(&self) -> bool {
        self.run
            .sim
            .as_ref()
            .map_or(self.config.dirty_at_start, Sim::dirty_optimization)
    }

    /// The levels folder's levels in play order: the campaign's (a missing one too, at its
    /// place), then the others by name; and which of the campaign's cannot be played.
    pub(super) fn refresh_levels(&mut self) {
        let files = self.config.dirs.level_files();
        let records = &mut self.records;
        records.levels = records.campaign.listing(&self.config.dirs.levels, &files);
        let skins = self.config.atlas.crate_skins();
        records.unplayable = records
            .levels
            .iter()
            .filter_map(|path| {
                let file = level_key(path);
                records.campaign.position(&file)?;
                let why = if !crate::fsutil::is_file(path) {
                    Unplayable::Missing
                } else if crate::level::load(path, &skins).is_err() {
                    Unplayable::DoesNotLoad
                } else {
                    return None;
                };
                Some((file, why))
            })
            .collect();
    }

    /// Whether the title screen and N / B may open `path`; if not, say why.
    pub fn may_open(&mut self, path: &Path) -> bool {
        let file = level_key(path);
        if self.records.unplayable.get(&file) == Some(&Unplayable::Missing) {
            let text = format!(
                "{} is listed in {} but missing from {}",
                escape_for_display(&file),
                crate::campaign::FILE_NAME,
                escape_for_display(&self.config.dirs.levels.display().to_string())
            );
            self.notify(text, ink::ERROR);
            return false;
        }
        if self.records.is_open(&file) {
            return true;
        }
        let campaign = &self.records.campaign;
        let before = campaign
            .position(&file)
            .and_then(|i| campaign.levels().get(i.wrapping_sub(1)))
            .map_or_else(String::new, |f| self.level_title(f));
        let locked = self.level_title(&file);
        self.notify(
            format!("{locked} is locked: clear {before} first"),
            ink::GOLD,
        );
        false
    }

    /// What the title says under the list when campaign level `file` is chosen: why it cannot
    /// be played, why it is locked, or why it is open while the level before it is not
    /// cleared. `None` when there is nothing to explain.
    fn why_open(&self, file: &str) -> Option<String> {
        let records = &self.records;
        let levels =
            escape_for_display(&self.config.dirs.levels.display().to_string()).into_owned();
        let shown = |f: &str| escape_for_display(f).into_owned();
        match records.unplayable.get(file) {
            Some(Unplayable::Missing) => {
                return Some(format!(
                    "{} is listed in {} but missing from {levels}; the levels after it open as if it were cleared",
                    shown(file),
                    crate::campaign::FILE_NAME
                ));
            }
            Some(Unplayable::DoesNotLoad) => {
                return Some(format!(
                    "{} does not load (Enter shows why); the levels after it open as if it were cleared",
                    shown(file)
                ));
            }
            None => {}
        }
        let i = records.campaign.position(file)?;
        if i < crate::campaign::OPEN_AT_START {
            return None;
        }
        let levels = records.campaign.levels();
        let before = &levels[i - 1];
        if records.is_cleared(before) {
            return None;
        }
        if !records.is_open(file) {
            // The level that keeps it locked: the nearest before it that can be played.
            let decider = levels[..i]
                .iter()
                .rev()
                .find(|l| !records.unplayable.contains_key(l.as_str()))
                .unwrap_or(before);
            return Some(format!("locked: clear {} first", self.level_title(decider)));
        }
        records.unplayable.get(before.as_str()).map(|why| {
            format!(
                "open: the level before it, {}, {}",
                shown(before),
                why.verb()
            )
        })
    }

    /// The name of the level file `file` of the levels folder, or its file stem if it does
    /// not load.
    pub fn level_title(&self, file: &str) -> String {
        let path = self.config.dirs.levels.join(file);
        crate::level::load(&path, &self.config.atlas.crate_skins())
            .map_or_else(|_| file.trim_end_matches(".ron").to_owned(), |l| l.name)
    }

    /// N / B: the next or previous level of the levels folder, if it is open.
    pub fn cycle_level(&mut self, delta: isize) {
        self.refresh_levels();
        let levels = &self.records.levels;
        if levels.is_empty() {
            return;
        }
        let current = levels
            .iter()
            .position(|p| same_file(p, &self.run.path))
            .map_or(0, |i| i as isize);
        let next = (current + delta).rem_euclid(levels.len() as isize) as usize;
        let path = levels[next].clone();
        if self.may_open(&path) {
            self.open_level(&path);
        }
    }

    /// The title screen, on the level last played (or the first of the campaign).
    pub fn open_title(&mut self) {
        self.refresh_levels();
        let skins = self.config.atlas.crate_skins();
        let entries = self
            .records
            .levels
            .iter()
            .map(|path| {
                let file = level_key(path);
                let campaign = self.records.campaign.position(&file).is_some();
                // A level that does not load is listed by its file name, without par times. A
                // big sandbox level (no medals) is listed by the name at its head, unread past
                // it, so a folder of them never holds the title.
                let big = !campaign
                    && crate::fsutil::regular_file_metadata(path)
                        .is_ok_and(|m| m.len() >= crate::level::WHOLE_READ_MAX_BYTES);
                let level = (!big)
                    .then(|| crate::level::load(path, &skins).ok())
                    .flatten();
                let unplayable = self.records.unplayable.get(&file);
                TitleEntry {
                    name: match &level {
                        Some(level) => Some(level.name.clone()),
                        None if big => crate::level::head_name(path),
                        None => None,
                    },
                    par: level.and_then(|l| l.par),
                    best: self.records.best.best(&file),
                    open: self.records.is_open(&file) && unplayable != Some(&Unplayable::Missing),
                    campaign,
                    problem: unplayable.map(|u| u.label()),
                    why: self.why_open(&file),
                    file,
                }
            })
            .collect();
        let selected = self
            .records
            .levels
            .iter()
            .position(|p| same_file(p, &self.run.path))
            .unwrap_or(0);
        self.mode = Mode::Title(TitleScreen {
            selected,
            entries,
            new_level: None,
        });
    }
}

/// The name best times are kept under: the level's file name.
pub(super) fn level_key(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Whether `a` and `b` name the same file (as given, if either cannot be resolved).
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
