//! Gamepads through `gilrs`: polled once a frame (gilrs queues events between polls, which
//! fits macroquad's loop without a thread), each event translated to a [`PadEvent`] for
//! [`crate::input::pad`], whose mapping is plain data.
//!
//! Gamepads are optional: when the backend cannot start (no `/dev/input` in a container or CI,
//! no udev, an unsupported platform, or a panic inside it) the game plays on the keyboard and
//! says so only in the F1 help and the scripted report, never on stderr.

use gilrs::{Axis, Button, EventType, Gilrs};

use crate::input::pad::{PadAxis, PadButton, PadEvent, PadFrame, PadState};
use crate::sim::Input;

/// The gamepad backend, if it started, and the pads' state.
pub struct Gamepads {
    gilrs: Option<Gilrs>,
    state: PadState,
    /// Why there is no backend.
    off: Option<String>,
}

impl std::fmt::Debug for Gamepads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gamepads")
            .field("on", &self.gilrs.is_some())
            .field("off", &self.off)
            .finish()
    }
}

impl Gamepads {
    /// Start gilrs; without it, keyboard only.
    pub fn start() -> Self {
        Self::start_with(|| Gilrs::new().map_err(Box::new))
    }

    /// Start with `init` as the backend's constructor (tests hand it one that fails).
    pub fn start_with(init: impl FnOnce() -> Result<Gilrs, Box<gilrs::Error>>) -> Self {
        let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(init));
        let (gilrs, off) = match started {
            Ok(Ok(gilrs)) => (Some(gilrs), None),
            // A platform gilrs does not support: no pads, nothing wrong.
            Ok(Err(e)) if matches!(*e, gilrs::Error::NotImplemented(_)) => {
                (None, Some("not supported on this platform".to_owned()))
            }
            Ok(Err(e)) => (None, Some(e.to_string())),
            Err(_) => (None, Some("the gamepad library failed to start".to_owned())),
        };
        Self {
            gilrs,
            state: PadState::default(),
            off,
        }
    }

    /// Take every event since the last poll; the frame's menu moves and commands.
    pub fn poll(&mut self) -> PadFrame {
        let mut frame = PadFrame::default();
        let Some(gilrs) = &mut self.gilrs else {
            return frame;
        };
        while let Some(event) = gilrs.next_event() {
            if let Some(e) = translate(event.event) {
                self.state.apply(e, &mut frame);
            }
        }
        frame
    }

    /// What the pads hold, as the simulation's input.
    pub fn input(&self) -> Input {
        self.state.input()
    }

    /// A line for the help screen: the pads connected, or why there are none.
    pub fn status(&self) -> String {
        match (&self.gilrs, &self.off) {
            (Some(g), _) => match g.gamepads().count() {
                0 => "gamepad: none connected".to_owned(),
                1 => format!(
                    "gamepad: {}",
                    g.gamepads()
                        .next()
                        .map_or_else(String::new, |(_, p)| p.name().to_owned())
                ),
                n => format!("gamepads: {n} connected"),
            },
            (None, Some(why)) => format!("gamepad: off ({why})"),
            (None, None) => "gamepad: off".to_owned(),
        }
    }
}

/// A gilrs event as the game's [`PadEvent`], if it is one the game uses.
pub fn translate(event: EventType) -> Option<PadEvent> {
    match event {
        EventType::ButtonPressed(b, _) => button(b).map(PadEvent::Pressed),
        EventType::ButtonReleased(b, _) => button(b).map(PadEvent::Released),
        EventType::AxisChanged(a, value, _) => axis(a).map(|a| PadEvent::Axis(a, value)),
        EventType::Disconnected => Some(PadEvent::Disconnected),
        _ => None,
    }
}

/// The game's name for a gilrs button.
pub fn button(b: Button) -> Option<PadButton> {
    Some(match b {
        Button::South => PadButton::South,
        Button::East => PadButton::East,
        Button::West => PadButton::West,
        Button::North => PadButton::North,
        Button::RightTrigger => PadButton::RightBumper,
        Button::Start => PadButton::Start,
        Button::Select => PadButton::Select,
        Button::DPadUp => PadButton::DPadUp,
        Button::DPadDown => PadButton::DPadDown,
        Button::DPadLeft => PadButton::DPadLeft,
        Button::DPadRight => PadButton::DPadRight,
        _ => return None,
    })
}

/// The game's name for a gilrs axis.
pub fn axis(a: Axis) -> Option<PadAxis> {
    match a {
        Axis::LeftStickX => Some(PadAxis::LeftStickX),
        Axis::LeftStickY => Some(PadAxis::LeftStickY),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_that_cannot_start_leaves_the_keyboard_playing() {
        let mut pads =
            Gamepads::start_with(|| Err(Box::new(gilrs::Error::Other("no /dev/input".into()))));
        assert_eq!(pads.poll(), PadFrame::default());
        assert_eq!(pads.input(), Input::default());
        assert_eq!(pads.status(), "gamepad: off (no /dev/input)");
    }

    #[test]
    fn a_backend_that_panics_is_caught() {
        let pads = Gamepads::start_with(|| panic!("simulated gamepad backend failure"));
        assert!(
            pads.status().starts_with("gamepad: off"),
            "{}",
            pads.status()
        );
    }

    #[test]
    fn gilrs_buttons_and_axes_map_to_the_games() {
        assert_eq!(button(Button::South), Some(PadButton::South));
        assert_eq!(button(Button::RightTrigger), Some(PadButton::RightBumper));
        assert_eq!(button(Button::DPadLeft), Some(PadButton::DPadLeft));
        assert_eq!(button(Button::Mode), None);
        assert_eq!(axis(Axis::LeftStickY), Some(PadAxis::LeftStickY));
        assert_eq!(axis(Axis::RightStickX), None);
    }
}
