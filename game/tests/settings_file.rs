//! The settings file: read without ever failing (a bad line keeps that setting's default and is
//! reported), saved atomically, a failing save reported once, and flags kept out of it.

use crate::common;

use common::TempDir;
use game::player_data::Store;
use game::player_data::settings::{Overrides, SettingsFile};

#[test]
fn a_damaged_line_keeps_its_default_and_the_rest_is_read() {
    let dir = TempDir::new("settings-damaged");
    let file = dir.0.join("settings.txt");
    std::fs::write(&file, "volume = 40\nshake = sideways\nfullscreen = on\n").unwrap();
    let (mut settings, problem) = SettingsFile::load(&Store::at(&dir.0), Overrides::default());
    let problem = problem.expect("reported").to_string();
    assert!(
        problem.contains("settings.txt:2:") && problem.contains("`on` or `off`"),
        "{problem}"
    );
    let s = settings.current();
    assert!(s.volume == 40 && s.fullscreen && s.shake, "{s:?}");
    settings.change(|s| s.volume = 50).expect("saves");
    assert!(
        dir.0.join("settings.damaged.txt").exists(),
        "the damaged file is kept"
    );
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(
        saved.contains("volume = 50") && saved.contains("shake = on"),
        "{saved}"
    );
}

#[test]
fn an_unwritable_folder_is_reported_once_and_the_settings_keep_working() {
    let dir = TempDir::new("settings-unwritable");
    let blocked = dir.0.join("blocked");
    std::fs::write(&blocked, "a file where the folder should be").unwrap();
    let (mut settings, _) = SettingsFile::load(&Store::at(&blocked), Overrides::default());
    let first = settings.change(|s| s.sound = false);
    assert!(first.is_err(), "the first failure is reported");
    assert!(settings.change(|s| s.volume = 10).is_ok(), "and only once");
    assert!(!settings.current().sound && settings.current().volume == 10);
}

#[test]
fn flags_change_the_run_and_never_the_file() {
    let dir = TempDir::new("settings-flags");
    let flags = Overrides {
        mute: true,
        no_shake: true,
        no_hit_stop: true,
        reduce_flashing: true,
        fullscreen: Some(true),
    };
    let (mut settings, _) = SettingsFile::load(&Store::at(&dir.0), flags);
    let run = settings.current().clone();
    assert!(!run.sound && !run.shake && !run.hit_stop && run.fullscreen);
    settings.change(|s| s.volume = 20).unwrap();
    let saved = std::fs::read_to_string(dir.0.join("settings.txt")).unwrap();
    for line in [
        "sound = on",
        "shake = on",
        "hit_stop = on",
        "fullscreen = off",
        "volume = 20",
    ] {
        assert!(saved.contains(line), "{line}: {saved}");
    }
}
