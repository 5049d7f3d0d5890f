//! Keyboard to game input: movement and attack become the simulation's [`Input`]; the rest are
//! commands for the game loop, read from one table (the debug views' keys come from
//! [`View::ALL`]).

use macroquad::prelude::{KeyCode, is_key_down, is_key_pressed};

use crate::input::menu::MenuInput;
use crate::sim::Input;
use crate::window::debug::views::View;

/// Movement and attack held this frame (WASD or arrows; Space, J or Enter to swing).
pub fn read_input() -> Input {
    let down = |keys: &[KeyCode]| keys.iter().any(|&k| is_key_down(k));
    let axis = |neg: &[KeyCode], pos: &[KeyCode]| i8::from(down(pos)) - i8::from(down(neg));
    Input {
        move_x: axis(&[KeyCode::A, KeyCode::Left], &[KeyCode::D, KeyCode::Right]),
        move_y: axis(&[KeyCode::W, KeyCode::Up], &[KeyCode::S, KeyCode::Down]),
        // Alt+Enter is the fullscreen key, not a swing.
        attack: down(&[KeyCode::Space, KeyCode::J]) || (down(&[KeyCode::Enter]) && !alt_down()),
    }
}

fn alt_down() -> bool {
    is_key_down(KeyCode::LeftAlt) || is_key_down(KeyCode::RightAlt)
}

/// F11 or Alt+Enter was pressed this frame: fullscreen on/off, on every screen.
pub fn fullscreen_pressed() -> bool {
    is_key_pressed(KeyCode::F11)
        || (alt_down() && (is_key_pressed(KeyCode::Enter) || is_key_pressed(KeyCode::KpEnter)))
}

/// Menu moves from the keyboard this frame: arrows or WASD, Enter / Space to confirm, Esc /
/// Backspace to go back.
pub fn read_menu() -> Vec<MenuInput> {
    let pressed = |keys: &[KeyCode]| keys.iter().any(|&k| is_key_pressed(k));
    let mut out = Vec::new();
    for (keys, input) in [
        (&[KeyCode::Up, KeyCode::W][..], MenuInput::Up),
        (&[KeyCode::Down, KeyCode::S], MenuInput::Down),
        (&[KeyCode::Left, KeyCode::A], MenuInput::Left),
        (&[KeyCode::Right, KeyCode::D], MenuInput::Right),
        (&[KeyCode::Escape, KeyCode::Backspace], MenuInput::Back),
    ] {
        if pressed(keys) {
            out.push(input);
        }
    }
    if pressed(&[KeyCode::Enter, KeyCode::KpEnter, KeyCode::Space]) && !alt_down() {
        out.push(MenuInput::Confirm);
    }
    out
}

/// The settings screen's key (also on the title and pause screens).
pub const SETTINGS_KEY: KeyCode = KeyCode::O;

/// The gamepad's buttons, for the help screen.
pub const PAD_HELP: [&str; 4] = [
    "Gamepad: stick / d-pad  move     A / X / RB  smash",
    "         Start  pause     Select  settings",
    "         menus: d-pad / stick choose, A confirm, B back",
    "F11 / Alt+Enter  fullscreen on/off",
];

/// A key press that is a command rather than play input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Esc or P.
    TogglePause,
    /// R.
    Restart,
    /// N.
    NextLevel,
    /// B.
    PreviousLevel,
    /// T: back to the title screen.
    Title,
    /// K: screen shake and hit-stop on/off.
    ToggleShake,
    /// One of the debug views' keys (F1-F6).
    ToggleView(View),
    /// F7: dirty-component optimization on/off.
    ToggleDirtyOptimization,
    /// M: sound on/off.
    ToggleSound,
    /// V: save the run's replay (on the room-cleared screen).
    SaveReplay,
    /// E: the level editor on the running level (E again plays the edited level).
    ToggleEdit,
    /// O: the settings screen.
    Settings,
    /// G: the ghost to race: none, the author run, your best (kept in the settings).
    CycleGhost,
}

/// The game's own keys with their help lines (the debug views' keys are in [`View::ALL`]).
pub const KEYS: [(Command, KeyCode, &str); 12] = [
    (
        Command::ToggleEdit,
        KeyCode::E,
        "E        edit this level (E again plays it)",
    ),
    (Command::TogglePause, KeyCode::P, "P / Esc  pause"),
    (Command::Settings, SETTINGS_KEY, "O        settings"),
    (Command::Restart, KeyCode::R, "R        restart level"),
    (
        Command::CycleGhost,
        KeyCode::G,
        "G        ghost to race: off / author run / your best",
    ),
    (
        Command::NextLevel,
        KeyCode::N,
        "N / B    next / previous level",
    ),
    (Command::PreviousLevel, KeyCode::B, ""),
    (Command::ToggleSound, KeyCode::M, "M        sound on/off"),
    (Command::Title, KeyCode::T, "T        title screen"),
    (
        Command::ToggleShake,
        KeyCode::K,
        "K        screen shake on/off",
    ),
    (
        Command::ToggleDirtyOptimization,
        KeyCode::F7,
        "F7       dirty optimization on/off",
    ),
    (
        Command::SaveReplay,
        KeyCode::V,
        "V        save the replay (room cleared)",
    ),
];

/// Every help line: the game's keys, then the debug views'.
pub fn help_lines() -> impl Iterator<Item = &'static str> {
    KEYS.iter()
        .map(|&(_, _, help)| help)
        .chain(View::ALL.iter().map(|e| e.help))
        .filter(|help| !help.is_empty())
}

/// Commands whose keys were pressed this frame.
pub fn read_commands() -> Vec<Command> {
    let mut out: Vec<Command> = KEYS
        .iter()
        .filter(|(_, key, _)| is_key_pressed(*key))
        .map(|&(c, _, _)| c)
        .chain(
            View::ALL
                .iter()
                .filter(|e| is_key_pressed(e.key))
                .map(|e| Command::ToggleView(e.view)),
        )
        .collect();
    if is_key_pressed(KeyCode::Escape) && !out.contains(&Command::TogglePause) {
        out.push(Command::TogglePause);
    }
    out
}

/// A game key pressed at a frame of a scripted run (`--press KEY@FRAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptedPress {
    /// The frame it is pressed on (1 is the first).
    pub frame: u64,
    /// What the key does.
    pub command: Command,
}

impl std::fmt::Display for ScriptedPress {
    /// `F7@300`, as it was given.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let key = KEYS
            .iter()
            .find(|&&(c, _, _)| c == self.command)
            .map(|&(_, key, _)| format!("{key:?}"))
            .or_else(|| {
                View::ALL
                    .iter()
                    .find(|e| Command::ToggleView(e.view) == self.command)
                    .map(|e| format!("{:?}", e.key))
            })
            .unwrap_or_else(|| format!("{:?}", self.command));
        write!(f, "{key}@{}", self.frame)
    }
}

impl std::str::FromStr for ScriptedPress {
    type Err = String;

    /// Parse `F7@300`: a game or debug key's name (as the key help writes it), `@`, a frame.
    fn from_str(text: &str) -> Result<Self, String> {
        let names = || {
            KEYS.iter()
                .map(|&(c, key, _)| (format!("{key:?}"), c))
                .chain(
                    View::ALL
                        .iter()
                        .map(|e| (format!("{:?}", e.key), Command::ToggleView(e.view))),
                )
        };
        let (key, frame) = text
            .split_once('@')
            .ok_or_else(|| format!("`{text}`: expected KEY@FRAME, e.g. F7@300"))?;
        let command = names()
            .find(|(name, _)| name.eq_ignore_ascii_case(key.trim()))
            .map(|(_, c)| c)
            .ok_or_else(|| {
                let all: Vec<String> = names().map(|(n, _)| n).collect();
                format!("`{key}` is not a game key (one of: {})", all.join(", "))
            })?;
        let frame = frame
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&f| f >= 1)
            .ok_or_else(|| format!("`{frame}`: the frame is a whole number from 1"))?;
        Ok(Self { frame, command })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scripted_press_names_a_key_and_a_frame() {
        let press: ScriptedPress = "F7@300".parse().unwrap();
        assert_eq!(
            press,
            ScriptedPress {
                frame: 300,
                command: Command::ToggleDirtyOptimization
            }
        );
        let f2: ScriptedPress = "f2@1".parse().unwrap();
        assert_eq!(f2.command, Command::ToggleView(View::Profiler));
        for (bad, says) in [
            ("F7", "KEY@FRAME"),
            ("F13@2", "not a game key"),
            ("F7@0", "from 1"),
        ] {
            let err = bad.parse::<ScriptedPress>().unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn no_two_commands_share_a_key() {
        let mut keys: Vec<String> = KEYS
            .iter()
            .map(|(_, k, _)| format!("{k:?}"))
            .chain(View::ALL.iter().map(|e| format!("{:?}", e.key)))
            .collect();
        let all = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), all, "{keys:?}");
    }
}
