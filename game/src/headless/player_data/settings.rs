//! The player's settings, kept between runs in `settings.txt` in the data directory (beside the
//! best times): sound on or off, volume, screen shake, hit-stop, fullscreen and the level last
//! played. One `key = value` per line:
//!
//! ```text
//! # Crate Room settings
//! sound = on
//! volume = 80
//! shake = on
//! hit_stop = on
//! fullscreen = off
//! music = 50
//! ghost = off
//! last_level = "first_swing.ron"
//! ```
//!
//! A missing file is the defaults; a line that cannot be read keeps that setting's default and
//! is reported once (so is a setting given twice: the first is kept), and the next save keeps
//! the damaged file as `settings.damaged.txt`. A save writes only the settings this game
//! changed into the file as it is on disk then, so two games sharing the folder never undo
//! each other's choices; saves are atomic. Command-line flags ([`Overrides`]) change a run's settings without
//! touching the file: [`SettingsFile`] keeps what the file says apart from what the run uses.
//!
//! ```
//! use game::player_data::settings::{Overrides, SettingsFile};
//! use game::player_data::Store;
//!
//! let dir = std::env::temp_dir().join(format!("crate-room-settings-doc-{}", std::process::id()));
//! let (mut file, problem) = SettingsFile::load(&Store::at(&dir), Overrides::default());
//! assert!(problem.is_none() && file.current().sound);
//! file.change(|s| s.volume = 30).unwrap();
//!
//! // `--mute` for one run: the run is silent, the file keeps the sound on.
//! let mute = Overrides { mute: true, ..Overrides::default() };
//! let (again, _) = SettingsFile::load(&Store::at(&dir), mute);
//! assert!(!again.current().sound && again.current().volume == 30);
//! assert!(again.saved().sound);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::player_data::Store;
use std::collections::BTreeSet;

use crate::player_data::datafile::{self, DataFile, DataFileError, Merged};

/// The file's name without `.txt`, in the data directory.
pub const FILE_STEM: &str = "settings";

/// Loudest volume, in percent.
pub const MAX_VOLUME: u8 = 100;

/// What the player chose.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Settings {
    /// Sound effects on.
    pub sound: bool,
    /// Volume of the sound effects, 0 to [`MAX_VOLUME`] percent.
    pub volume: u8,
    /// Screen shake.
    pub shake: bool,
    /// No flash of the screen at all, not even a blast's (which is otherwise at most three a
    /// second).
    pub reduce_flashing: bool,
    /// The short pause on a hit or a break.
    pub hit_stop: bool,
    /// Fullscreen rather than a window.
    pub fullscreen: bool,
    /// Volume of the music loop, 0 to [`MAX_VOLUME`] percent (0: no music).
    pub music: u8,
    /// The run a translucent ghost plays beside the player's, if any.
    pub ghost: GhostRun,
    /// The level file played last (the title screen opens on it).
    pub last_level: Option<String>,
}

/// Which recorded run the ghost replays beside the player's: none, the level's author run (the
/// fastest route known, whose replay is kept in `levels/gold/`), or the player's own best.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GhostRun {
    #[default]
    Off,
    Author,
    Best,
}

impl GhostRun {
    /// Every choice, in the order a key cycles them.
    pub const ALL: [GhostRun; 3] = [GhostRun::Off, GhostRun::Author, GhostRun::Best];

    /// The word the file and the settings screen use.
    pub fn word(self) -> &'static str {
        match self {
            GhostRun::Off => "off",
            GhostRun::Author => "author",
            GhostRun::Best => "best",
        }
    }

    /// The choice a settings file's word names: [`GhostRun::word`], or `gold`, which settings
    /// files of earlier versions use for the author run.
    pub fn from_word(word: &str) -> Option<Self> {
        match word {
            "gold" => Some(GhostRun::Author),
            _ => Self::ALL.into_iter().find(|g| g.word() == word),
        }
    }

    /// The next choice, wrapping round.
    #[must_use]
    pub fn next(self) -> Self {
        let i = Self::ALL.iter().position(|&g| g == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            sound: true,
            volume: 80,
            shake: true,
            reduce_flashing: false,
            hit_stop: true,
            fullscreen: false,
            music: 50,
            ghost: GhostRun::Off,
            last_level: None,
        }
    }
}

/// Command-line flags that change the settings for one run, never the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `--mute`.
    pub mute: bool,
    /// `--no-shake`.
    pub no_shake: bool,
    /// `--no-hit-stop`.
    pub no_hit_stop: bool,
    /// `--reduce-flashing`.
    pub reduce_flashing: bool,
    /// `--fullscreen` (`Some(true)`) or `--windowed` (`Some(false)`).
    pub fullscreen: Option<bool>,
}

impl Overrides {
    /// `settings` as this run uses them.
    pub fn apply(&self, mut settings: Settings) -> Settings {
        settings.sound &= !self.mute;
        settings.shake &= !self.no_shake;
        settings.hit_stop &= !self.no_hit_stop;
        settings.reduce_flashing |= self.reduce_flashing;
        if let Some(on) = self.fullscreen {
            settings.fullscreen = on;
        }
        settings
    }
}

/// The settings file and the run's settings.
#[derive(Clone, Debug)]
pub struct SettingsFile {
    /// `None`: never saved (scripted runs without a data folder).
    file: Option<DataFile>,
    /// What the file says (and what a save writes).
    saved: Settings,
    /// What this run uses: `saved` with the command line's overrides.
    current: Settings,
    /// The keys this game changed: what its saves write into the file.
    changed: BTreeSet<&'static str>,
    /// A save failed once: later failures are not reported again.
    write_failed: bool,
}

impl SettingsFile {
    /// Settings that are never saved, with `overrides` applied.
    pub fn in_memory(overrides: Overrides) -> Self {
        Self {
            file: None,
            saved: Settings::default(),
            current: overrides.apply(Settings::default()),
            changed: BTreeSet::new(),
            write_failed: false,
        }
    }

    /// Find the data directory (as the best times do) and load from it.
    pub fn open(overrides: Overrides) -> (Self, Option<String>) {
        match Store::locate() {
            Ok(store) => {
                let (file, problem) = Self::load(&store, overrides);
                (file, problem.map(|e| e.to_string()))
            }
            Err(e) => (Self::in_memory(overrides), Some(e.to_string())),
        }
    }

    /// Load the settings kept in `store`. Never writes and never fails: what cannot be read is
    /// the default, with the error to show once.
    pub fn load(store: &Store, overrides: Overrides) -> (Self, Option<DataFileError>) {
        let file = DataFile::new(store.dir(), FILE_STEM);
        let mut saved = Settings::default();
        let (_, problem) = file.load(line_parser(&mut saved));
        let current = overrides.apply(saved.clone());
        let settings = Self {
            file: Some(file),
            saved,
            current,
            changed: BTreeSet::new(),
            write_failed: false,
        };
        (settings, problem)
    }

    /// The settings this run uses.
    pub fn current(&self) -> &Settings {
        &self.current
    }

    /// The settings as the file keeps them.
    pub fn saved(&self) -> &Settings {
        &self.saved
    }

    /// The player changed a setting: `edit` it in this run and in the file, and save the file
    /// if that changed it. Settings the command line overrode and `edit` leaves alone stay
    /// overridden for this run.
    ///
    /// # Errors
    /// The first failed save's [`DataFileError`] (later ones return `Ok`: a problem is shown
    /// once). The settings in memory keep working.
    pub fn change(&mut self, edit: impl Fn(&mut Settings)) -> Result<(), DataFileError> {
        edit(&mut self.current);
        let before = self.saved.clone();
        edit(&mut self.saved);
        if self.saved == before {
            return Ok(());
        }
        for key in KEYS {
            if !same(&before, &self.saved, key) {
                self.changed.insert(key);
            }
        }
        let Some(file) = &self.file else {
            return Ok(());
        };
        let (mine, changed) = (&self.saved, &self.changed);
        let mut merged = mine.clone();
        let saved = file.save_merged(|bytes| {
            let mut disk = Settings::default();
            let problem = bytes.and_then(|b| file.parse(b, line_parser(&mut disk)).1);
            for &key in changed {
                copy(mine, &mut disk, key);
            }
            merged = disk;
            Merged {
                text: to_text(&merged),
                damaged: problem.is_some(),
            }
        });
        match saved {
            Ok(()) => {
                self.saved = merged;
                Ok(())
            }
            Err(_) if self.write_failed => Ok(()),
            Err(e) => {
                self.write_failed = true;
                Err(e)
            }
        }
    }
}

const HEADER: &str = "# Crate Room settings (written by the game; a line it cannot read is \
                      skipped and reported, not fatal)\n";

/// The file's text for `s`.
pub fn to_text(s: &Settings) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    let mut text = format!(
        "{HEADER}sound = {}\nvolume = {}\nshake = {}\nreduce_flashing = {}\nhit_stop = {}\n\
         fullscreen = {}\nmusic = {}\nghost = {}\n",
        on(s.sound),
        s.volume,
        on(s.shake),
        on(s.reduce_flashing),
        on(s.hit_stop),
        on(s.fullscreen),
        s.music,
        s.ghost.word()
    );
    if let Some(level) = &s.last_level {
        text.push_str(&format!("last_level = {}\n", datafile::quote(level)));
    }
    text
}

/// Every setting's key, as the file writes it ([`to_text`] writes each, `last_level` when
/// there is one).
pub const KEYS: [&str; 9] = [
    "sound",
    "volume",
    "shake",
    "reduce_flashing",
    "hit_stop",
    "fullscreen",
    "music",
    "ghost",
    "last_level",
];

/// Whether `a` and `b` hold the same value for `key`.
fn same(a: &Settings, b: &Settings, key: &str) -> bool {
    let mut b_with_a = b.clone();
    copy(a, &mut b_with_a, key);
    b_with_a == *b
}

/// Set `key` of `to` to its value in `from`.
fn copy(from: &Settings, to: &mut Settings, key: &str) {
    match key {
        "sound" => to.sound = from.sound,
        "volume" => to.volume = from.volume,
        "shake" => to.shake = from.shake,
        "reduce_flashing" => to.reduce_flashing = from.reduce_flashing,
        "hit_stop" => to.hit_stop = from.hit_stop,
        "fullscreen" => to.fullscreen = from.fullscreen,
        "music" => to.music = from.music,
        "ghost" => to.ghost = from.ghost,
        "last_level" => to.last_level.clone_from(&from.last_level),
        _ => {}
    }
}

/// The reader of the file's lines into `s`: a setting given twice keeps its first value, and
/// the second is reported as a line that could not be read.
fn line_parser(s: &mut Settings) -> impl FnMut(&str) -> Result<Option<()>, String> + '_ {
    let mut seen = BTreeSet::new();
    move |line| {
        let key = line.split_once('=').map(|(key, _)| key.trim().to_owned());
        if let Some(key) = key.as_ref().filter(|key| seen.contains(*key)) {
            return Err(format!(
                "`{}` is set a second time; the first is kept",
                key.escape_debug()
            ));
        }
        parse_line(line, s)?;
        seen.extend(key);
        Ok(Some(()))
    }
}

/// Read one `key = value` line into `s`, or say why it cannot be.
fn parse_line(line: &str, s: &mut Settings) -> Result<(), String> {
    let Some((key, value)) = line.split_once('=') else {
        return Err("expected `setting = value`".to_owned());
    };
    let (key, value) = (key.trim(), value.trim());
    let switch = |value: &str| match value {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!(
            "`{key}` is `on` or `off`, not `{}`",
            other.escape_debug()
        )),
    };
    match key {
        "sound" => s.sound = switch(value)?,
        "shake" => s.shake = switch(value)?,
        "reduce_flashing" => s.reduce_flashing = switch(value)?,
        "hit_stop" => s.hit_stop = switch(value)?,
        "fullscreen" => s.fullscreen = switch(value)?,
        "ghost" => {
            s.ghost = GhostRun::from_word(value).ok_or_else(|| {
                format!(
                    "`ghost` is `off`, `author` or `best`, not `{}`",
                    value.escape_debug()
                )
            })?;
        }
        "music" => {
            s.music = value
                .parse::<u8>()
                .ok()
                .filter(|v| *v <= MAX_VOLUME)
                .ok_or_else(|| {
                    format!(
                        "`music` is a whole number from 0 to {MAX_VOLUME}, not `{}`",
                        value.escape_debug()
                    )
                })?;
        }
        "volume" => {
            s.volume = value
                .parse::<u8>()
                .ok()
                .filter(|v| *v <= MAX_VOLUME)
                .ok_or_else(|| {
                    format!(
                        "`volume` is a whole number from 0 to {MAX_VOLUME}, not `{}`",
                        value.escape_debug()
                    )
                })?;
        }
        "last_level" => {
            let (name, rest) = datafile::unquote(value)?;
            if !rest.trim().is_empty() {
                return Err(format!("unexpected `{}` after the level name", rest.trim()));
            }
            s.last_level = Some(name);
        }
        other => return Err(format!("unknown setting `{}`", other.escape_debug())),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_survives_the_file() {
        let s = Settings {
            sound: false,
            volume: 35,
            shake: false,
            reduce_flashing: true,
            hit_stop: true,
            fullscreen: true,
            music: 20,
            ghost: GhostRun::Best,
            last_level: Some("q\"uo te.ron".to_owned()),
        };
        let mut back = Settings::default();
        for line in to_text(&s).lines().filter(|l| !l.starts_with('#')) {
            parse_line(line, &mut back).unwrap();
        }
        assert_eq!(back, s);
    }

    #[test]
    fn every_setting_a_player_changes_is_kept_in_the_file() {
        let dir =
            std::env::temp_dir().join(format!("crate-room-settings-kept-{}", std::process::id()));
        let store = Store::at(&dir);
        let (mut file, _) = SettingsFile::load(&store, Overrides::default());
        file.change(|s| {
            s.reduce_flashing = true;
            s.music = 30;
            s.ghost = GhostRun::Author;
        })
        .unwrap();
        let (again, _) = SettingsFile::load(&store, Overrides::default());
        let kept = again.saved().clone();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(kept.reduce_flashing, "reduce flashing is kept");
        assert_eq!((kept.music, kept.ghost), (30, GhostRun::Author));
    }

    #[test]
    fn a_ghost_of_gold_in_an_old_file_is_the_author_run_and_saved_as_author() {
        let mut s = Settings::default();
        parse_line("ghost = gold", &mut s).unwrap();
        assert_eq!(s.ghost, GhostRun::Author);
        assert!(to_text(&s).contains("ghost = author\n"), "{}", to_text(&s));
    }

    #[test]
    fn bad_lines_say_why() {
        for (line, why) in [
            ("sound on", "expected"),
            ("sound = loud", "`on` or `off`"),
            ("volume = 101", "0 to 100"),
            ("volume = -1", "0 to 100"),
            ("music = 200", "0 to 100"),
            ("ghost = silver", "`off`, `author` or `best`"),
            ("colour = red", "unknown setting"),
            ("last_level = a.ron", "double quotes"),
        ] {
            let err = parse_line(line, &mut Settings::default()).unwrap_err();
            assert!(err.contains(why), "{line}: {err}");
        }
    }

    #[test]
    fn flags_override_the_run_and_never_the_file() {
        let all = Overrides {
            mute: true,
            no_shake: true,
            no_hit_stop: true,
            reduce_flashing: true,
            fullscreen: Some(true),
        };
        let run = all.apply(Settings::default());
        assert!(!run.sound && !run.shake && !run.hit_stop && run.fullscreen);
        assert!(run.reduce_flashing);
        let mut file = SettingsFile::in_memory(all);
        file.change(|s| s.volume = 10).unwrap();
        assert!(file.saved().sound && !file.saved().fullscreen);
        assert_eq!(file.saved().volume, 10);
        assert!(!file.current().sound, "still muted for this run");
    }
}
