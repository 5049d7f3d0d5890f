//! The editor's event feed: macroquad's input events for the editor, in the order the window
//! received them (an input subscriber, so that every click and key between two frames counts).

use macroquad::miniquad::{self, KeyMods};
use macroquad::prelude::*;

/// One input event, in the order the window received them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EditEvent {
    Down(MouseButton, f32, f32),
    Up(MouseButton, f32, f32),
    Move(f32, f32),
    /// Wheel notches, positive away from the user (zoom in).
    Wheel(f32),
    /// A key went down (repeats included, marked).
    Key {
        key: KeyCode,
        ctrl: bool,
        shift: bool,
        alt: bool,
        repeat: bool,
    },
    /// A key went up.
    KeyUp(KeyCode),
    /// A character typed (for the editor's text fields).
    Char(char),
}

/// Collects the window's input events for the editor, in order.
#[derive(Debug)]
pub struct EventFeed {
    subscriber: usize,
    events: Vec<EditEvent>,
}

impl EventFeed {
    /// Subscribe to the window's events (call once the window is open).
    pub fn subscribe() -> Self {
        Self {
            subscriber: macroquad::input::utils::register_input_subscriber(),
            events: Vec::new(),
        }
    }

    /// Every event since the last call. Call every frame, editing or not, so that events
    /// never pile up.
    pub fn take(&mut self) -> Vec<EditEvent> {
        let subscriber = self.subscriber;
        macroquad::input::utils::repeat_all_miniquad_input(self, subscriber);
        std::mem::take(&mut self.events)
    }
}

impl miniquad::EventHandler for EventFeed {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn mouse_motion_event(&mut self, x: f32, y: f32) {
        self.events.push(EditEvent::Move(x, y));
    }
    fn mouse_wheel_event(&mut self, _x: f32, y: f32) {
        self.events.push(EditEvent::Wheel(y));
    }
    fn mouse_button_down_event(&mut self, button: MouseButton, x: f32, y: f32) {
        self.events.push(EditEvent::Down(button, x, y));
    }
    fn mouse_button_up_event(&mut self, button: MouseButton, x: f32, y: f32) {
        self.events.push(EditEvent::Up(button, x, y));
    }
    fn key_down_event(&mut self, key: KeyCode, mods: KeyMods, repeat: bool) {
        self.events.push(EditEvent::Key {
            key,
            ctrl: mods.ctrl,
            shift: mods.shift,
            alt: mods.alt,
            repeat,
        });
    }
    fn key_up_event(&mut self, key: KeyCode, _mods: KeyMods) {
        self.events.push(EditEvent::KeyUp(key));
    }
    fn char_event(&mut self, character: char, _mods: KeyMods, _repeat: bool) {
        self.events.push(EditEvent::Char(character));
    }
}
