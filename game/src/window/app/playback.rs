//! Watching a replay in the window (`crate-room replay FILE`): its speed, pause and single
//! steps, their keys, and the HUD's `REPLAY 4x`. The inputs themselves come from
//! [`InputSource::Replay`](crate::input::InputSource::Replay), like a script's.

use macroquad::prelude::{KeyCode, is_key_pressed};

/// Steps per frame-step at each speed: 1x, 4x and 16x, on keys 1, 2 and 3.
pub const SPEEDS: [(KeyCode, u32); 3] =
    [(KeyCode::Key1, 1), (KeyCode::Key2, 4), (KeyCode::Key3, 16)];

/// The playback keys' help lines (F1).
pub const HELP: [&str; 4] = [
    "P / Space / Esc  pause replay",
    "1 / 2 / 3        speed 1x / 4x / 16x",
    ".                one step (paused)",
    "Q                quit the replay",
];

/// How a replay is being watched.
#[derive(Clone, Copy, Debug)]
pub struct Playback {
    /// Steps run for each step of game time: 1, 4 or 16.
    pub speed: u32,
    /// Steps the replay holds; after them the game stands still.
    pub steps: u64,
    /// Run one step on the next update although paused.
    pub step_once: bool,
}

/// What a playback key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaybackCommand {
    /// P, Space or Esc.
    TogglePause,
    /// 1, 2 or 3.
    Speed(u32),
    /// `.`: one step.
    Step,
    /// Q: close the window.
    Quit,
}

impl Playback {
    /// Watch a replay of `steps` steps at 1x.
    pub fn new(steps: u64) -> Self {
        Self {
            speed: 1,
            steps,
            step_once: false,
        }
    }

    /// Steps to run this frame: `ticks` (frame time in steps) at the speed, none while paused
    /// (but one after `.`), and never past the replay's end at `step`.
    pub fn steps_now(&mut self, ticks: u32, paused: bool, step: u64) -> u32 {
        let wanted = if paused {
            u32::from(std::mem::take(&mut self.step_once))
        } else {
            ticks.saturating_mul(self.speed)
        };
        let left = self.steps.saturating_sub(step);
        wanted.min(u32::try_from(left).unwrap_or(u32::MAX))
    }

    /// The HUD label: `REPLAY 4x`, `REPLAY 4x paused` or `REPLAY end`.
    pub fn label(&self, paused: bool, step: u64) -> String {
        if step >= self.steps {
            "REPLAY end   ".into()
        } else if paused {
            format!("REPLAY {}x paused   ", self.speed)
        } else {
            format!("REPLAY {}x   ", self.speed)
        }
    }
}

/// Playback keys pressed this frame.
pub fn read_commands() -> Vec<PlaybackCommand> {
    let mut out = Vec::new();
    if [KeyCode::P, KeyCode::Space, KeyCode::Escape]
        .iter()
        .any(|&k| is_key_pressed(k))
    {
        out.push(PlaybackCommand::TogglePause);
    }
    out.extend(
        SPEEDS
            .iter()
            .filter(|(key, _)| is_key_pressed(*key))
            .map(|&(_, speed)| PlaybackCommand::Speed(speed)),
    );
    if is_key_pressed(KeyCode::Period) {
        out.push(PlaybackCommand::Step);
    }
    if is_key_pressed(KeyCode::Q) {
        out.push(PlaybackCommand::Quit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_pause_and_single_steps_never_run_past_the_end() {
        let mut p = Playback::new(100);
        assert_eq!(p.steps_now(2, false, 0), 2);
        p.speed = 16;
        assert_eq!(p.steps_now(2, false, 0), 32);
        assert_eq!(p.steps_now(2, false, 90), 10);
        assert_eq!(p.steps_now(2, false, 100), 0);
        assert_eq!(p.steps_now(2, true, 50), 0);
        p.step_once = true;
        assert_eq!(p.steps_now(0, true, 50), 1);
        assert_eq!(p.steps_now(0, true, 51), 0, "one step per press");
        assert_eq!(p.label(true, 51), "REPLAY 16x paused   ");
        assert_eq!(p.label(false, 100), "REPLAY end   ");
    }
}
