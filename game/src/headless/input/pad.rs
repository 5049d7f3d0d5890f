//! Gamepad input as data: the events a pad sends ([`PadEvent`], translated from the gamepad
//! library by `window/platform/gamepad.rs`) and what they mean to the game ([`PadState`]): the held
//! buttons and stick become the simulation's [`Input`], and presses become menu moves and
//! commands ([`PadFrame`]). Nothing here talks to a device, so the mapping is tested as data.
//!
//! | pad | plays | menus |
//! |---|---|---|
//! | left stick, d-pad | walk (diagonals too) | choose (up / down), change (left / right) |
//! | south (A / cross), west (X / square), right bumper | swing | south: confirm |
//! | east (B / circle) | | back |
//! | start | pause | confirm on the title |
//! | select (back / view) | | settings (title and pause screens) |
//!
//! ```
//! use game::input::menu::MenuInput;
//! use game::input::pad::{PadAxis, PadButton, PadEvent, PadFrame, PadState};
//!
//! let mut pad = PadState::default();
//! let mut frame = PadFrame::default();
//! pad.apply(PadEvent::Axis(PadAxis::LeftStickY, 0.9), &mut frame); // stick pushed up
//! pad.apply(PadEvent::Pressed(PadButton::South), &mut frame);
//! let input = pad.input();
//! assert_eq!((input.move_x, input.move_y, input.attack), (0, -1, true));
//! assert_eq!(frame.menu, [MenuInput::Up, MenuInput::Confirm]);
//! ```

use crate::input::menu::MenuInput;
use crate::sim::Input;

/// A pad button the game uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PadButton {
    South,
    East,
    West,
    North,
    RightBumper,
    Start,
    Select,
    DPadUp,
    DPadDown,
    DPadLeft,
    DPadRight,
}

impl PadButton {
    const ALL: [PadButton; 11] = [
        PadButton::South,
        PadButton::East,
        PadButton::West,
        PadButton::North,
        PadButton::RightBumper,
        PadButton::Start,
        PadButton::Select,
        PadButton::DPadUp,
        PadButton::DPadDown,
        PadButton::DPadLeft,
        PadButton::DPadRight,
    ];

    fn bit(self) -> u16 {
        1 << PadButton::ALL.iter().position(|&b| b == self).unwrap_or(0)
    }
}

/// A pad axis the game uses: the left stick, up and right positive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PadAxis {
    LeftStickX,
    LeftStickY,
}

/// One thing a pad did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadEvent {
    Pressed(PadButton),
    Released(PadButton),
    /// An axis moved to a value in -1.0..=1.0.
    Axis(PadAxis, f32),
    /// The pad went away: nothing it held is held any more.
    Disconnected,
}

/// How far the stick must lean to walk.
pub const WALK_THRESHOLD: f32 = 0.35;
/// How far the stick must lean to move a menu selection (once per lean).
pub const MENU_THRESHOLD: f32 = 0.6;

/// What the pads did this frame, besides the held state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PadFrame {
    /// Menu moves, in order.
    pub menu: Vec<MenuInput>,
    /// Start was pressed: pause or resume (and confirm on the title).
    pub start: bool,
    /// Select was pressed: the settings screen.
    pub select: bool,
}

/// What every connected pad holds together: buttons and the left stick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PadState {
    held: u16,
    stick: (f32, f32),
}

impl PadState {
    /// Take one event into the held state, and its menu moves and commands into `frame`.
    pub fn apply(&mut self, event: PadEvent, frame: &mut PadFrame) {
        match event {
            PadEvent::Pressed(button) => {
                self.held |= button.bit();
                let menu = match button {
                    PadButton::DPadUp => Some(MenuInput::Up),
                    PadButton::DPadDown => Some(MenuInput::Down),
                    PadButton::DPadLeft => Some(MenuInput::Left),
                    PadButton::DPadRight => Some(MenuInput::Right),
                    PadButton::South => Some(MenuInput::Confirm),
                    PadButton::East => Some(MenuInput::Back),
                    PadButton::Start => {
                        frame.start = true;
                        None
                    }
                    PadButton::Select => {
                        frame.select = true;
                        None
                    }
                    PadButton::West | PadButton::North | PadButton::RightBumper => None,
                };
                frame.menu.extend(menu);
            }
            PadEvent::Released(button) => self.held &= !button.bit(),
            PadEvent::Axis(axis, value) => {
                let value = if value.is_finite() {
                    value.clamp(-1.0, 1.0)
                } else {
                    0.0
                };
                let (old, moves) = match axis {
                    PadAxis::LeftStickX => {
                        let old = self.stick.0;
                        self.stick.0 = value;
                        (old, [MenuInput::Left, MenuInput::Right])
                    }
                    PadAxis::LeftStickY => {
                        let old = self.stick.1;
                        self.stick.1 = value;
                        (old, [MenuInput::Down, MenuInput::Up])
                    }
                };
                // A menu move when the stick leans past the threshold, not while it stays.
                let side = |v: f32| (v >= MENU_THRESHOLD) as i8 - (v <= -MENU_THRESHOLD) as i8;
                match (side(old), side(value)) {
                    (o, -1) if o != -1 => frame.menu.push(moves[0]),
                    (o, 1) if o != 1 => frame.menu.push(moves[1]),
                    _ => {}
                }
            }
            PadEvent::Disconnected => *self = PadState::default(),
        }
    }

    fn holds(&self, button: PadButton) -> bool {
        self.held & button.bit() != 0
    }

    /// The simulation's input from what is held: the d-pad, or else the stick past
    /// [`WALK_THRESHOLD`], walks (screen y points down, the stick's up is positive); a swing
    /// button swings.
    pub fn input(&self) -> Input {
        let axis = |neg: PadButton, pos: PadButton, stick: f32| -> i8 {
            let pad = i8::from(self.holds(pos)) - i8::from(self.holds(neg));
            if pad != 0 {
                pad
            } else if stick >= WALK_THRESHOLD {
                1
            } else if stick <= -WALK_THRESHOLD {
                -1
            } else {
                0
            }
        };
        Input {
            move_x: axis(PadButton::DPadLeft, PadButton::DPadRight, self.stick.0),
            move_y: axis(PadButton::DPadUp, PadButton::DPadDown, -self.stick.1),
            attack: [PadButton::South, PadButton::West, PadButton::RightBumper]
                .iter()
                .any(|&b| self.holds(b)),
        }
    }
}

/// The keyboard's input and the pads' together: a direction either gives, a swing from
/// either (the keyboard's direction wins where both give one).
pub fn combine(keyboard: Input, pad: Input) -> Input {
    let pick = |k: i8, p: i8| if k != 0 { k } else { p };
    Input {
        move_x: pick(keyboard.move_x, pad.move_x),
        move_y: pick(keyboard.move_y, pad.move_y),
        attack: keyboard.attack || pad.attack,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(events: &[PadEvent]) -> (PadState, PadFrame) {
        let mut state = PadState::default();
        let mut frame = PadFrame::default();
        for &e in events {
            state.apply(e, &mut frame);
        }
        (state, frame)
    }

    fn moves(input: Input) -> (i8, i8, bool) {
        (input.move_x, input.move_y, input.attack)
    }

    #[test]
    fn the_d_pad_walks_in_eight_directions_and_release_stops() {
        use PadButton::*;
        use PadEvent::*;
        let (s, _) = run(&[Pressed(DPadUp), Pressed(DPadLeft)]);
        assert_eq!(moves(s.input()), (-1, -1, false));
        let (s, _) = run(&[Pressed(DPadDown), Pressed(DPadRight)]);
        assert_eq!(moves(s.input()), (1, 1, false));
        let (s, _) = run(&[Pressed(DPadDown), Released(DPadDown)]);
        assert_eq!(moves(s.input()), (0, 0, false));
    }

    #[test]
    fn the_stick_walks_past_its_threshold_with_up_up_the_screen() {
        use PadAxis::*;
        use PadEvent::*;
        let (s, _) = run(&[Axis(LeftStickX, 0.2), Axis(LeftStickY, -0.2)]);
        assert_eq!(moves(s.input()), (0, 0, false), "inside the dead zone");
        let (s, _) = run(&[Axis(LeftStickX, -0.5), Axis(LeftStickY, 0.9)]);
        assert_eq!(moves(s.input()), (-1, -1, false));
        let (s, _) = run(&[Axis(LeftStickY, -1.0)]);
        assert_eq!(moves(s.input()), (0, 1, false), "stick down walks down");
        let (s, _) = run(&[Axis(LeftStickX, f32::NAN)]);
        assert_eq!(moves(s.input()), (0, 0, false));
    }

    #[test]
    fn face_buttons_swing_and_the_d_pad_beats_the_stick() {
        use PadButton::*;
        use PadEvent::*;
        for b in [South, West, RightBumper] {
            assert!(run(&[Pressed(b)]).0.input().attack, "{b:?}");
        }
        assert!(!run(&[Pressed(East)]).0.input().attack);
        assert!(!run(&[Pressed(North)]).0.input().attack);
        let (s, _) = run(&[Axis(PadAxis::LeftStickX, 1.0), Pressed(DPadLeft)]);
        assert_eq!(s.input().move_x, -1);
    }

    #[test]
    fn presses_become_menu_moves_and_a_lean_moves_once() {
        use PadAxis::*;
        use PadButton::*;
        use PadEvent::*;
        let (_, f) = run(&[
            Pressed(DPadDown),
            Released(DPadDown),
            Pressed(South),
            Pressed(East),
            Axis(LeftStickY, 0.7),
            Axis(LeftStickY, 0.9),
            Axis(LeftStickY, 0.0),
            Axis(LeftStickY, 0.8),
            Axis(LeftStickX, 1.0),
            Axis(LeftStickX, -1.0),
        ]);
        use MenuInput as M;
        assert_eq!(
            f.menu,
            [
                M::Down,
                M::Confirm,
                M::Back,
                M::Up,
                M::Up,
                M::Right,
                M::Left
            ]
        );
        assert!(!f.start && !f.select);
        let (_, f) = run(&[Pressed(Start), Pressed(Select)]);
        assert!(f.start && f.select && f.menu.is_empty());
    }

    #[test]
    fn a_disconnect_lets_go_of_everything() {
        use PadButton::*;
        use PadEvent::*;
        let (s, _) = run(&[Pressed(South), Axis(PadAxis::LeftStickX, 1.0), Disconnected]);
        assert_eq!(moves(s.input()), (0, 0, false));
    }

    #[test]
    fn the_keyboard_and_a_pad_play_together() {
        let k = Input {
            move_x: 1,
            move_y: 0,
            attack: false,
        };
        let p = Input {
            move_x: -1,
            move_y: -1,
            attack: true,
        };
        assert_eq!(moves(combine(k, p)), (1, -1, true));
        assert_eq!(
            moves(combine(Input::default(), Input::default())),
            (0, 0, false)
        );
    }
}
