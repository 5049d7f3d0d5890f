//! [`quote`]: text as a RON string literal, the way the editor writes names and map rows.

/// `row` as a RON string literal: `"` and `\` escaped, and every character that would break the
/// line or hide in it (see [`escape_for_display`](crate::level::escape_for_display)) written
/// as `\u{..}`.
pub(crate) fn quote(row: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(row.len() + 2);
    out.push('"');
    for c in row.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if crate::level::needs_escape(c) => {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_escapes_what_must_be_escaped() {
        assert_eq!(quote("#.c"), "\"#.c\"");
        assert_eq!(quote("\"\\\n\u{202e}é"), "\"\\\"\\\\\\u{a}\\u{202e}é\"");
        let back: String = ron::from_str(&quote("\"\\\n\u{202e}é")).unwrap();
        assert_eq!(back, "\"\\\n\u{202e}é");
    }
}
