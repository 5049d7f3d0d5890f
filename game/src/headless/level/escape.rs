//! [`escape_for_display`], through which every piece of file text passes before it is shown,
//! and the escapes it writes.

use std::borrow::Cow;
use std::fmt;

/// Text from a level file, made safe to print on a terminal or on the in-game overlay.
///
/// Characters that would break a line, drive the terminal or hide and reorder text are written
/// as escapes: `\n`, `\r`, `\t`, `\0`, and `\u{1b}` style for ESC and every other control
/// character, the bidirectional overrides and isolates (`\u{202e}`), zero-width characters, the
/// line and paragraph separators and the byte-order mark. Everything else, a backslash included,
/// is kept as it is, so escaping twice changes nothing.
///
/// ```
/// use game::level::escape_for_display;
///
/// assert_eq!(escape_for_display("Crate Room"), "Crate Room");
/// assert_eq!(
///     escape_for_display("a\nb.ron:1:1: error: \u{1b}[31mforged\0"),
///     "a\\nb.ron:1:1: error: \\u{1b}[31mforged\\0"
/// );
/// assert_eq!(escape_for_display("\u{202e}gnp.exe"), "\\u{202e}gnp.exe");
/// ```
pub fn escape_for_display(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Whether `c` is shown as an escape rather than as itself.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'  // soft hyphen
            | '\u{061C}' // Arabic letter mark
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
            | '\u{180E}' // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}' // zero-width space, joiners, LRM, RLM
            | '\u{2028}'..='\u{202E}' // line and paragraph separators, bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates
            | '\u{FEFF}' // byte-order mark
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
            | '\u{E0000}'..='\u{E007F}' // tag characters
        )
}

pub(super) fn push_escaped(out: &mut String, c: char) {
    use fmt::Write as _;
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\0' => out.push_str("\\0"),
        c if needs_escape(c) => {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

/// A character from the file as quoted in a message, written the way RON writes it: `'x'`,
/// `'\''`, `'\u{1b}'`.
pub(crate) fn quoted_char(c: char) -> String {
    let mut out = String::from("'");
    match c {
        '\'' => out.push_str("\\'"),
        '\\' => out.push_str("\\\\"),
        c => push_escaped(&mut out, c),
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::excerpt::shown_width;

    #[test]
    fn escaping_leaves_no_control_character_and_is_idempotent() {
        let nasty = "a\nb\r\tc\0\u{1b}[2J\u{7f}\u{85}\u{202e}\u{2066}\u{200b}\u{feff}\u{e0041}\\n";
        let once = escape_for_display(nasty);
        assert_eq!(
            once,
            "a\\nb\\r\\tc\\0\\u{1b}[2J\\u{7f}\\u{85}\\u{202e}\\u{2066}\\u{200b}\\u{feff}\\u{e0041}\\n"
        );
        assert!(!once.chars().any(needs_escape));
        assert_eq!(escape_for_display(&once), once);
        assert!(matches!(escape_for_display("plain é 漢"), Cow::Borrowed(_)));
        for c in [
            '\n',
            '\0',
            '\u{1}',
            '\u{1b}',
            '\u{7f}',
            '\u{202e}',
            '\u{e0041}',
        ] {
            assert_eq!(
                shown_width(c),
                escape_for_display(&c.to_string()).len(),
                "{c:?}"
            );
        }
    }
}
