//! Keyboard to game input: movement and attack become the simulation's [`Input`]; the rest are
//! commands for the game loop.

use macroquad::prelude::{KeyCode, is_key_down, is_key_pressed};

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
    /// F1: the help overlay listing the debug keys.
    ToggleHelp,
    /// F2: the puffin profiler window.
    ToggleProfiler,
    /// F3: collision boxes.
    ToggleBoxes,
    /// F4: the spatial-hash grid.
    ToggleGrid,
    /// F5: tint entities the draw-data system recomputed this frame.
    ToggleDirtyView,
    /// F6: the stats panel.
    ToggleStats,
    /// F7: dirty-component optimization on/off.
    ToggleDirtyOptimization,
    /// M: sound on/off.
    ToggleSound,
}

impl Command {
    /// Every command with its key, for the help overlay.
    pub const ALL: [(Command, KeyCode, &'static str); 12] = [
        (Command::TogglePause, KeyCode::P, "P / Esc  pause"),
        (Command::Restart, KeyCode::R, "R        restart level"),
        (Command::NextLevel, KeyCode::N, "N        next level"),
        (
            Command::PreviousLevel,
            KeyCode::B,
            "B        previous level",
        ),
        (Command::ToggleSound, KeyCode::M, "M        sound on/off"),
        (Command::ToggleHelp, KeyCode::F1, "F1       this help"),
        (
            Command::ToggleProfiler,
            KeyCode::F2,
            "F2       profiler (puffin)",
        ),
        (
            Command::ToggleBoxes,
            KeyCode::F3,
            "F3       collision boxes",
        ),
        (
            Command::ToggleGrid,
            KeyCode::F4,
            "F4       spatial-hash grid",
        ),
        (Command::ToggleDirtyView, KeyCode::F5, "F5       dirty view"),
        (Command::ToggleStats, KeyCode::F6, "F6       stats panel"),
        (
            Command::ToggleDirtyOptimization,
            KeyCode::F7,
            "F7       dirty optimization on/off",
        ),
    ];
}

/// Commands whose keys were pressed this frame.
pub fn read_commands() -> Vec<Command> {
    let mut out: Vec<Command> = Command::ALL
        .iter()
        .filter(|(_, key, _)| is_key_pressed(*key))
        .map(|&(c, _, _)| c)
        .collect();
    if is_key_pressed(KeyCode::Escape) && !out.contains(&Command::TogglePause) {
        out.push(Command::TogglePause);
    }
    out
}
