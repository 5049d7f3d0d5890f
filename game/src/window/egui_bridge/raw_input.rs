//! macroquad's input for one frame as egui's `RawInput`: the pointer, its buttons and the
//! wheel, the keys (with Ctrl+C / X / V as clipboard events), typed text, the modifiers and
//! the screen in points.

use macroquad::input::{
    KeyCode, MouseButton, get_char_pressed, get_keys_pressed, get_keys_released, is_key_down,
    is_mouse_button_pressed, is_mouse_button_released, mouse_position, mouse_wheel,
};
use macroquad::miniquad;
use macroquad::time::{get_frame_time, get_time};
use macroquad::window::screen_dpi_scale;

use super::key_map::egui_key;

/// Raw wheel units per line of scrolling: Windows reports `WHEEL_DELTA` (120) per notch, X11,
/// Wayland and the web report one unit per notch.
const WHEEL_UNITS_PER_LINE: f32 = if cfg!(windows) { 120.0 } else { 1.0 };

/// This frame's input for egui. `last_pointer` is where the pointer was last reported (in
/// points): a pointer that did not move sends no event.
pub(super) fn gather_input(
    ctx: &egui::Context,
    last_pointer: &mut Option<egui::Pos2>,
) -> egui::RawInput {
    let dpi_scale = screen_dpi_scale();
    let pixels_per_point = dpi_scale * ctx.zoom_factor();
    let points_per_logical_pixel = dpi_scale / pixels_per_point;
    let modifiers = current_modifiers();
    let mut events = Vec::new();
    pointer_events(
        &mut events,
        last_pointer,
        points_per_logical_pixel,
        modifiers,
    );
    key_events(&mut events, modifiers);
    text_event(&mut events, modifiers);

    let (width_px, height_px) = miniquad::window::screen_size();
    let mut raw_input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(width_px, height_px) / pixels_per_point,
        )),
        time: Some(get_time()),
        predicted_dt: get_frame_time(),
        modifiers,
        events,
        ..Default::default()
    };
    raw_input
        .viewports
        .entry(raw_input.viewport_id)
        .or_default()
        .native_pixels_per_point = Some(dpi_scale);
    raw_input
}

/// The pointer's move, its buttons' presses and releases, and the wheel.
fn pointer_events(
    events: &mut Vec<egui::Event>,
    last_pointer: &mut Option<egui::Pos2>,
    points_per_logical_pixel: f32,
    modifiers: egui::Modifiers,
) {
    let (mouse_x, mouse_y) = mouse_position();
    let pointer = egui::pos2(mouse_x, mouse_y) * points_per_logical_pixel;
    if *last_pointer != Some(pointer) {
        events.push(egui::Event::PointerMoved(pointer));
        *last_pointer = Some(pointer);
    }
    for button in [MouseButton::Left, MouseButton::Right, MouseButton::Middle] {
        let Some(egui_button) = pointer_button(button) else {
            continue;
        };
        for (happened, pressed) in [
            (is_mouse_button_pressed(button), true),
            (is_mouse_button_released(button), false),
        ] {
            if happened {
                events.push(egui::Event::PointerButton {
                    pos: pointer,
                    button: egui_button,
                    pressed,
                    modifiers,
                });
            }
        }
    }
    if let Some(delta) = wheel_lines(mouse_wheel()) {
        events.push(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta,
            modifiers,
        });
    }
}

/// The keys pressed and released, each after its clipboard event if it is Ctrl+C, X or V.
fn key_events(events: &mut Vec<egui::Event>, modifiers: egui::Modifiers) {
    for (keys, pressed) in [(get_keys_pressed(), true), (get_keys_released(), false)] {
        for key in keys.into_iter().filter_map(egui_key) {
            if pressed && modifiers.command {
                match key {
                    egui::Key::C => events.push(egui::Event::Copy),
                    egui::Key::X => events.push(egui::Event::Cut),
                    egui::Key::V => {
                        if let Some(text) = miniquad::window::clipboard_get() {
                            events.push(egui::Event::Paste(text));
                        }
                    }
                    _ => {}
                }
            }
            events.push(egui::Event::Key {
                key,
                physical_key: None,
                pressed,
                repeat: false,
                modifiers,
            });
        }
    }
}

/// The characters typed this frame, as one text event (none if nothing was typed).
fn text_event(events: &mut Vec<egui::Event>, modifiers: egui::Modifiers) {
    let mut text = String::new();
    while let Some(character) = get_char_pressed() {
        // Ctrl+letter is a shortcut, not typing; AltGr arrives as Ctrl+Alt and is typing.
        if is_typed_text(character) && (!modifiers.command || modifiers.alt) {
            text.push(character);
        }
    }
    if !text.is_empty() {
        events.push(egui::Event::Text(text));
    }
}

fn current_modifiers() -> egui::Modifiers {
    let either = |left, right| is_key_down(left) || is_key_down(right);
    let ctrl = either(KeyCode::LeftControl, KeyCode::RightControl);
    let mac_cmd = cfg!(target_os = "macos") && either(KeyCode::LeftSuper, KeyCode::RightSuper);
    egui::Modifiers {
        alt: either(KeyCode::LeftAlt, KeyCode::RightAlt),
        ctrl,
        shift: either(KeyCode::LeftShift, KeyCode::RightShift),
        mac_cmd,
        command: if cfg!(target_os = "macos") {
            mac_cmd
        } else {
            ctrl
        },
    }
}

/// Map a macroquad mouse button to egui's pointer button.
fn pointer_button(button: MouseButton) -> Option<egui::PointerButton> {
    match button {
        MouseButton::Left => Some(egui::PointerButton::Primary),
        MouseButton::Right => Some(egui::PointerButton::Secondary),
        MouseButton::Middle => Some(egui::PointerButton::Middle),
        MouseButton::Unknown => None,
    }
}

/// Convert macroquad's wheel reading into egui lines; `None` when the wheel did not move.
/// Both use "positive y = wheel away from the user = content moves down".
fn wheel_lines((x, y): (f32, f32)) -> Option<egui::Vec2> {
    let delta = egui::vec2(x, y) / WHEEL_UNITS_PER_LINE;
    (delta != egui::Vec2::ZERO).then_some(delta)
}

/// Whether a character from macroquad's char queue is text, rather than a control code or a
/// private-use code point (which some platforms send for function and arrow keys).
fn is_typed_text(character: char) -> bool {
    !character.is_control() && !('\u{e000}'..='\u{f8ff}').contains(&character)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_right_middle_mouse_buttons_become_primary_secondary_middle() {
        assert_eq!(
            pointer_button(MouseButton::Left),
            Some(egui::PointerButton::Primary)
        );
        assert_eq!(
            pointer_button(MouseButton::Right),
            Some(egui::PointerButton::Secondary)
        );
        assert_eq!(
            pointer_button(MouseButton::Middle),
            Some(egui::PointerButton::Middle)
        );
        assert_eq!(pointer_button(MouseButton::Unknown), None);
    }

    #[test]
    fn resting_wheel_produces_no_scroll() {
        assert_eq!(wheel_lines((0.0, 0.0)), None);
    }

    #[test]
    fn one_wheel_notch_scrolls_one_line_in_the_same_direction() {
        let notch = WHEEL_UNITS_PER_LINE;
        assert_eq!(wheel_lines((0.0, notch)), Some(egui::vec2(0.0, 1.0)));
        assert_eq!(wheel_lines((0.0, -notch)), Some(egui::vec2(0.0, -1.0)));
        assert_eq!(wheel_lines((-notch, 0.0)), Some(egui::vec2(-1.0, 0.0)));
    }

    #[test]
    fn control_and_private_use_characters_are_not_typed_text() {
        assert!(is_typed_text('a'));
        assert!(is_typed_text('é'));
        assert!(!is_typed_text('\u{8}'));
        assert!(!is_typed_text('\r'));
        assert!(!is_typed_text('\u{f700}'));
    }
}
