//! Whether the game can open a window here. The windowing library panics where there is no
//! display (`XOpenDisplay() failed!`); a person should instead read one line that says what to
//! do. Nothing here connects to the display to find out: an X server that is not told to keep
//! running (Xvfb without `-noreset`) resets when its last client leaves, and a window opened
//! during that reset fails. So the check is what the environment names, and the library's own
//! failure to connect is recognised by [`is_open_failure`].

/// Whether the environment names a display (`$DISPLAY` or `$WAYLAND_DISPLAY`, not empty).
pub fn named() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .into_iter()
        .any(|var| std::env::var_os(var).is_some_and(|v| !v.is_empty()))
}

/// Whether a panic message is the windowing library's failure to reach the display.
pub fn is_open_failure(message: &str) -> bool {
    message.contains("XOpenDisplay")
}

/// The one line said when no window can be opened.
pub fn unavailable_message() -> String {
    let display = std::env::var("DISPLAY").unwrap_or_default();
    let which = if display.is_empty() {
        "there is none ($DISPLAY is not set)".to_owned()
    } else {
        format!(
            "none answers at DISPLAY={}",
            crate::level::escape_for_display(&display)
        )
    };
    format!(
        "this needs a display to open its window, and {which}; `crate-room sim` runs without one"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_failure_is_recognised_and_nothing_else() {
        assert!(is_open_failure("XOpenDisplay() failed!"));
        assert!(!is_open_failure("index out of bounds"));
    }
}
