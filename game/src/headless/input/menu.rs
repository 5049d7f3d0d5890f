//! Menus as plain data: the moves a menu understands ([`MenuInput`], from keys or a gamepad)
//! and the settings menu ([`SettingsMenu`]: its rows and what each move does to the settings).
//! The window draws them (`app/screens.rs`) and feeds them input; nothing here touches it.

use crate::player_data::settings::{MAX_VOLUME, Settings};

/// One move in a menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MenuInput {
    Up,
    Down,
    Left,
    Right,
    /// Enter / Space, or the pad's south button.
    Confirm,
    /// Esc / Backspace, or the pad's east button.
    Back,
}

/// A row of the settings menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsRow {
    Sound,
    Volume,
    Shake,
    ReduceFlashing,
    HitStop,
    Fullscreen,
    Music,
    Ghost,
    Done,
}

impl SettingsRow {
    /// Every row, top to bottom.
    pub const ALL: [SettingsRow; 9] = [
        SettingsRow::Sound,
        SettingsRow::Volume,
        SettingsRow::Shake,
        SettingsRow::ReduceFlashing,
        SettingsRow::HitStop,
        SettingsRow::Fullscreen,
        SettingsRow::Music,
        SettingsRow::Ghost,
        SettingsRow::Done,
    ];

    /// The row's label.
    pub fn label(self) -> &'static str {
        match self {
            SettingsRow::Sound => "Sound",
            SettingsRow::Volume => "Volume",
            SettingsRow::Shake => "Screen shake",
            SettingsRow::ReduceFlashing => "Reduce flashing",
            SettingsRow::HitStop => "Hit-stop",
            SettingsRow::Fullscreen => "Fullscreen",
            SettingsRow::Music => "Music",
            SettingsRow::Ghost => "Ghost to race",
            SettingsRow::Done => "Done",
        }
    }

    /// The row's value in `s`, as shown (`on`, `80 %`); empty for Done.
    pub fn value(self, s: &Settings) -> String {
        let on = |b: bool| if b { "on" } else { "off" }.to_owned();
        match self {
            SettingsRow::Sound => on(s.sound),
            SettingsRow::Volume => format!("{} %", s.volume),
            SettingsRow::Shake => on(s.shake),
            SettingsRow::ReduceFlashing => on(s.reduce_flashing),
            SettingsRow::HitStop => on(s.hit_stop),
            SettingsRow::Fullscreen => on(s.fullscreen),
            SettingsRow::Music => format!("{} %", s.music),
            SettingsRow::Ghost => s.ghost.word().to_owned(),
            SettingsRow::Done => String::new(),
        }
    }
}

/// Volume changes in steps of this many percent.
pub const VOLUME_STEP: u8 = 10;

/// The settings menu: which row is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SettingsMenu {
    /// Index into [`SettingsRow::ALL`].
    pub selected: usize,
}

/// What a move in the settings menu did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MenuOutcome {
    /// Nothing to do (or only the selection moved).
    Stay,
    /// The settings should become these.
    Change(Settings),
    /// Leave the menu.
    Close,
}

impl SettingsMenu {
    /// The chosen row.
    pub fn row(&self) -> SettingsRow {
        SettingsRow::ALL[self.selected.min(SettingsRow::ALL.len() - 1)]
    }

    /// Apply one move to the menu and, through the outcome, to `current`: Up / Down choose a
    /// row (wrapping), Left / Right / Confirm switch a setting (Left / Right step the volume),
    /// Confirm on Done or Back closes.
    pub fn handle(&mut self, input: MenuInput, current: &Settings) -> MenuOutcome {
        let n = SettingsRow::ALL.len();
        let mut s = current.clone();
        match input {
            MenuInput::Up => {
                self.selected = (self.selected + n - 1) % n;
                return MenuOutcome::Stay;
            }
            MenuInput::Down => {
                self.selected = (self.selected + 1) % n;
                return MenuOutcome::Stay;
            }
            MenuInput::Back => return MenuOutcome::Close,
            MenuInput::Left | MenuInput::Right | MenuInput::Confirm => {}
        }
        match (self.row(), input) {
            (SettingsRow::Done, MenuInput::Confirm) => return MenuOutcome::Close,
            (SettingsRow::Done, _) => return MenuOutcome::Stay,
            (SettingsRow::Volume, MenuInput::Left) => {
                s.volume = s.volume.saturating_sub(VOLUME_STEP);
            }
            (SettingsRow::Volume, _) => {
                // Confirm past the loudest wraps to silent, so one button reaches every step.
                s.volume = match (input, s.volume) {
                    (MenuInput::Confirm, MAX_VOLUME) => 0,
                    (_, v) => v.saturating_add(VOLUME_STEP).min(MAX_VOLUME),
                };
            }
            (SettingsRow::Music, MenuInput::Left) => {
                s.music = s.music.saturating_sub(VOLUME_STEP);
            }
            (SettingsRow::Music, _) => {
                s.music = match (input, s.music) {
                    (MenuInput::Confirm, MAX_VOLUME) => 0,
                    (_, v) => v.saturating_add(VOLUME_STEP).min(MAX_VOLUME),
                };
            }
            (SettingsRow::Ghost, _) => s.ghost = s.ghost.next(),
            (SettingsRow::Sound, _) => s.sound = !s.sound,
            (SettingsRow::Shake, _) => s.shake = !s.shake,
            (SettingsRow::ReduceFlashing, _) => s.reduce_flashing = !s.reduce_flashing,
            (SettingsRow::HitStop, _) => s.hit_stop = !s.hit_stop,
            (SettingsRow::Fullscreen, _) => s.fullscreen = !s.fullscreen,
        }
        if s == *current {
            MenuOutcome::Stay
        } else {
            MenuOutcome::Change(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_wrap_and_each_switch_flips_its_own_setting() {
        let mut menu = SettingsMenu::default();
        let s = Settings::default();
        assert_eq!(menu.handle(MenuInput::Up, &s), MenuOutcome::Stay);
        assert_eq!(menu.row(), SettingsRow::Done);
        menu.handle(MenuInput::Down, &s);
        assert_eq!(menu.row(), SettingsRow::Sound);
        let MenuOutcome::Change(off) = menu.handle(MenuInput::Confirm, &s) else {
            panic!("sound switches");
        };
        assert_eq!(
            off,
            Settings {
                sound: false,
                ..s.clone()
            }
        );
        menu.selected = index_of(SettingsRow::Fullscreen);
        let MenuOutcome::Change(full) = menu.handle(MenuInput::Right, &s) else {
            panic!("fullscreen switches");
        };
        assert!(full.fullscreen && full.sound);
        menu.selected = index_of(SettingsRow::ReduceFlashing);
        let MenuOutcome::Change(calm) = menu.handle(MenuInput::Confirm, &s) else {
            panic!("reduce flashing switches");
        };
        assert!(calm.reduce_flashing && calm.shake);
    }

    #[test]
    fn volume_steps_and_stops_at_its_ends() {
        let mut menu = SettingsMenu { selected: 1 };
        let loud = Settings {
            volume: 100,
            ..Settings::default()
        };
        assert_eq!(menu.handle(MenuInput::Right, &loud), MenuOutcome::Stay);
        let MenuOutcome::Change(s) = menu.handle(MenuInput::Left, &loud) else {
            panic!("volume down");
        };
        assert_eq!(s.volume, 90);
        let MenuOutcome::Change(s) = menu.handle(MenuInput::Confirm, &loud) else {
            panic!("confirm wraps");
        };
        assert_eq!(s.volume, 0);
        assert_eq!(menu.handle(MenuInput::Left, &s), MenuOutcome::Stay);
    }

    fn index_of(row: SettingsRow) -> usize {
        SettingsRow::ALL.iter().position(|&r| r == row).unwrap()
    }

    #[test]
    fn back_or_done_closes() {
        let s = Settings::default();
        assert_eq!(
            SettingsMenu::default().handle(MenuInput::Back, &s),
            MenuOutcome::Close
        );
        let mut menu = SettingsMenu {
            selected: index_of(SettingsRow::Done),
        };
        assert_eq!(menu.handle(MenuInput::Left, &s), MenuOutcome::Stay);
        assert_eq!(menu.handle(MenuInput::Confirm, &s), MenuOutcome::Close);
    }
}
