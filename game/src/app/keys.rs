//! Keyboard to game input: movement and attack become the simulation's [`Input`]; the rest are
//! commands for the game loop, read from one table (the debug views' keys come from
//! [`View::ALL`]).

use macroquad::prelude::{KeyCode, is_key_down, is_key_pressed};

use crate::debug::views::View;
use crate::sim::Input;

/// Movement and attack held this frame (WASD or arrows; Space, J or Enter to swing).
pub fn read_input() -> Input {
    let down = |keys: &[KeyCode]| keys.iter().any(|&k| is_key_down(k));
    let axis = |neg: &[KeyCode], pos: &[KeyCode]| i8::from(down(pos)) - i8::from(down(neg));
    Input {
        move_x: axis(&[KeyCode::A, KeyCode::Left], &[KeyCode::D, KeyCode::Right]),
        move_y: axis(&[KeyCode::W, KeyCode::Up], &[KeyCode::S, KeyCode::Down]),
        attack: down(&[KeyCode::Space, KeyCode::J, KeyCode::Enter]),
    }
}

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
}

/// The game's own keys with their help lines (the debug views' keys are in [`View::ALL`]).
pub const KEYS: [(Command, KeyCode, &str); 10] = [
    (
        Command::ToggleEdit,
        KeyCode::E,
        "E        edit this level (E again plays it)",
    ),
    (Command::TogglePause, KeyCode::P, "P / Esc  pause"),
    (Command::Restart, KeyCode::R, "R        restart level"),
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

#[cfg(test)]
mod tests {
    use super::*;

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
