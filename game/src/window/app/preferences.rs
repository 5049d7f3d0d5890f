//! The player's settings in the window: applying them to the sound, the feel and the window,
//! changing them, and the settings screen's input.

use macroquad::prelude::set_fullscreen;

use super::app_state::App;
use super::mode::{Mode, Over};
use crate::feel::FeelSettings;
use crate::input::menu::{MenuInput, MenuOutcome, SettingsMenu, SettingsRow};
use crate::player_data::settings::Settings;

impl App {
    /// Make the sound, the feel and the window follow the settings.
    pub fn apply_settings(&mut self) {
        let s = self.records.settings.current().clone();
        self.juice.sounds.set_muted(!s.sound);
        self.juice.sounds.set_volume(f32::from(s.volume) / 100.0);
        self.juice
            .sounds
            .set_music_volume(f32::from(s.music) / 100.0);
        self.juice.feel.set_settings(FeelSettings {
            shake: s.shake,
            hit_stop: s.hit_stop,
            flash: !s.reduce_flashing,
        });
        if self.drawing.fullscreen != s.fullscreen {
            self.drawing.fullscreen = s.fullscreen;
            set_fullscreen(s.fullscreen);
        }
    }

    /// The player changed a setting: apply it now and keep it in the settings file.
    pub fn change_settings(&mut self, edit: impl Fn(&mut Settings)) {
        if let Err(e) = self.records.settings.change(edit) {
            self.report_settings_problem(&e.to_string());
        }
        self.apply_settings();
    }

    /// A settings file that cannot be read or written: said once, on stderr and on screen.
    pub fn report_settings_problem(&mut self, problem: &str) {
        self.warn(format!("settings: {problem}"));
    }

    /// Keys and pad of the settings screen.
    pub fn settings_input(&mut self, menu: &[MenuInput]) {
        let Mode::Settings { menu: state, .. } = &mut self.mode else {
            return;
        };
        let mut state = *state;
        if !menu.is_empty() {
            self.juice.sounds.play(super::audio::Sfx::Menu);
        }
        for &input in menu {
            match state.handle(input, self.records.settings.current()) {
                MenuOutcome::Stay => {}
                // Only the row's own setting changes: the rest of `new` may hold this run's
                // command-line overrides, which the file must not take.
                MenuOutcome::Change(new) => {
                    let row = state.row();
                    self.change_settings(|s| match row {
                        SettingsRow::Sound => s.sound = new.sound,
                        SettingsRow::Volume => s.volume = new.volume,
                        SettingsRow::Shake => s.shake = new.shake,
                        SettingsRow::ReduceFlashing => s.reduce_flashing = new.reduce_flashing,
                        SettingsRow::HitStop => s.hit_stop = new.hit_stop,
                        SettingsRow::Fullscreen => s.fullscreen = new.fullscreen,
                        SettingsRow::Music => s.music = new.music,
                        SettingsRow::Ghost => s.ghost = new.ghost,
                        SettingsRow::Done => {}
                    });
                }
                MenuOutcome::Close => {
                    self.close_settings();
                    return;
                }
            }
        }
        if let Mode::Settings { menu, .. } = &mut self.mode {
            *menu = state;
        }
    }

    /// Back to what the settings were over: the title as it was, or the game, still paused.
    fn close_settings(&mut self) {
        let mode = std::mem::replace(&mut self.mode, Mode::Playing { paused: true });
        if let Mode::Settings {
            over: Over::Title(title),
            ..
        } = mode
        {
            self.mode = Mode::Title(title);
        }
    }

    /// The settings screen over the game, which pauses.
    pub fn open_settings_in_game(&mut self) {
        if self.mode.is_playback() {
            return;
        }
        self.mode = Mode::Settings {
            menu: SettingsMenu::default(),
            over: Over::Game,
        };
    }
}
