//! macroquad's keys as egui's: the named keys and punctuation, the digits (top row and
//! keypad alike), the letters and the function keys.

use egui::Key as E;
use macroquad::input::KeyCode;

/// Map a macroquad key to the egui key it means, if egui has one.
pub(super) fn egui_key(key: KeyCode) -> Option<E> {
    named_key(key)
        .or_else(|| digit_key(key))
        .or_else(|| letter_key(key))
        .or_else(|| function_key(key))
}

/// Arrows, editing and navigation keys, and punctuation.
fn named_key(key: KeyCode) -> Option<E> {
    Some(match key {
        KeyCode::Up => E::ArrowUp,
        KeyCode::Down => E::ArrowDown,
        KeyCode::Left => E::ArrowLeft,
        KeyCode::Right => E::ArrowRight,
        KeyCode::Escape => E::Escape,
        KeyCode::Tab => E::Tab,
        KeyCode::Backspace => E::Backspace,
        KeyCode::Enter | KeyCode::KpEnter => E::Enter,
        KeyCode::Space => E::Space,
        KeyCode::Insert => E::Insert,
        KeyCode::Delete => E::Delete,
        KeyCode::Home => E::Home,
        KeyCode::End => E::End,
        KeyCode::PageUp => E::PageUp,
        KeyCode::PageDown => E::PageDown,
        KeyCode::Apostrophe => E::Quote,
        KeyCode::Comma => E::Comma,
        KeyCode::Minus | KeyCode::KpSubtract => E::Minus,
        KeyCode::Period | KeyCode::KpDecimal => E::Period,
        KeyCode::Slash | KeyCode::KpDivide => E::Slash,
        KeyCode::Semicolon => E::Semicolon,
        KeyCode::Equal | KeyCode::KpEqual => E::Equals,
        KeyCode::KpAdd => E::Plus,
        KeyCode::LeftBracket => E::OpenBracket,
        KeyCode::RightBracket => E::CloseBracket,
        KeyCode::Backslash => E::Backslash,
        KeyCode::GraveAccent => E::Backtick,
        _ => return None,
    })
}

/// The digits, from the top row or the keypad.
fn digit_key(key: KeyCode) -> Option<E> {
    Some(match key {
        KeyCode::Key0 | KeyCode::Kp0 => E::Num0,
        KeyCode::Key1 | KeyCode::Kp1 => E::Num1,
        KeyCode::Key2 | KeyCode::Kp2 => E::Num2,
        KeyCode::Key3 | KeyCode::Kp3 => E::Num3,
        KeyCode::Key4 | KeyCode::Kp4 => E::Num4,
        KeyCode::Key5 | KeyCode::Kp5 => E::Num5,
        KeyCode::Key6 | KeyCode::Kp6 => E::Num6,
        KeyCode::Key7 | KeyCode::Kp7 => E::Num7,
        KeyCode::Key8 | KeyCode::Kp8 => E::Num8,
        KeyCode::Key9 | KeyCode::Kp9 => E::Num9,
        _ => return None,
    })
}

/// The letters.
fn letter_key(key: KeyCode) -> Option<E> {
    Some(match key {
        KeyCode::A => E::A,
        KeyCode::B => E::B,
        KeyCode::C => E::C,
        KeyCode::D => E::D,
        KeyCode::E => E::E,
        KeyCode::F => E::F,
        KeyCode::G => E::G,
        KeyCode::H => E::H,
        KeyCode::I => E::I,
        KeyCode::J => E::J,
        KeyCode::K => E::K,
        KeyCode::L => E::L,
        KeyCode::M => E::M,
        KeyCode::N => E::N,
        KeyCode::O => E::O,
        KeyCode::P => E::P,
        KeyCode::Q => E::Q,
        KeyCode::R => E::R,
        KeyCode::S => E::S,
        KeyCode::T => E::T,
        KeyCode::U => E::U,
        KeyCode::V => E::V,
        KeyCode::W => E::W,
        KeyCode::X => E::X,
        KeyCode::Y => E::Y,
        KeyCode::Z => E::Z,
        _ => return None,
    })
}

/// F1 to F12.
fn function_key(key: KeyCode) -> Option<E> {
    Some(match key {
        KeyCode::F1 => E::F1,
        KeyCode::F2 => E::F2,
        KeyCode::F3 => E::F3,
        KeyCode::F4 => E::F4,
        KeyCode::F5 => E::F5,
        KeyCode::F6 => E::F6,
        KeyCode::F7 => E::F7,
        KeyCode::F8 => E::F8,
        KeyCode::F9 => E::F9,
        KeyCode::F10 => E::F10,
        KeyCode::F11 => E::F11,
        KeyCode::F12 => E::F12,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn navigation_and_editing_keys_map_to_their_egui_keys() {
        let expected = [
            (KeyCode::Up, egui::Key::ArrowUp),
            (KeyCode::Down, egui::Key::ArrowDown),
            (KeyCode::Left, egui::Key::ArrowLeft),
            (KeyCode::Right, egui::Key::ArrowRight),
            (KeyCode::Enter, egui::Key::Enter),
            (KeyCode::KpEnter, egui::Key::Enter),
            (KeyCode::Backspace, egui::Key::Backspace),
            (KeyCode::Tab, egui::Key::Tab),
            (KeyCode::Escape, egui::Key::Escape),
            (KeyCode::Delete, egui::Key::Delete),
        ];
        for (key, egui_key_expected) in expected {
            assert_eq!(egui_key(key), Some(egui_key_expected), "{key:?}");
        }
    }

    #[test]
    fn every_letter_maps_to_the_same_egui_letter() {
        use KeyCode::*;
        #[rustfmt::skip]
        let letters = [
            A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z,
        ];
        for (offset, key) in letters.into_iter().enumerate() {
            let name = char::from(b'A' + offset as u8).to_string();
            let mapped = egui_key(key).map(|k| k.name());
            assert_eq!(mapped, Some(name.as_str()), "{key:?}");
        }
    }

    #[test]
    fn top_row_and_keypad_digits_map_to_the_same_egui_digit() {
        let pairs = [
            (KeyCode::Key0, KeyCode::Kp0, egui::Key::Num0),
            (KeyCode::Key5, KeyCode::Kp5, egui::Key::Num5),
            (KeyCode::Key9, KeyCode::Kp9, egui::Key::Num9),
        ];
        for (top_row, keypad, digit) in pairs {
            assert_eq!(egui_key(top_row), Some(digit));
            assert_eq!(egui_key(keypad), Some(digit));
        }
    }

    #[test]
    fn modifier_keys_are_not_egui_keys() {
        for key in [KeyCode::LeftShift, KeyCode::RightControl, KeyCode::LeftAlt] {
            assert_eq!(egui_key(key), None, "{key:?}");
        }
    }
}
