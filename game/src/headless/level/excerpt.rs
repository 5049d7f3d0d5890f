//! Excerpts of a level's text for messages: quoted values cut to a length, and the source line
//! shown under an error as a window around the column, with the width of each character shown.

use super::escape::{escape_for_display, needs_escape, push_escaped};

/// Longest piece of file text (a skin, a field name, a legend key) quoted in a message, in
/// characters; longer text is cut and ends in `...`.
pub const MAX_QUOTED_CHARS: usize = 64;

/// Widest source line shown under an error, in columns; map rows can be 4096 characters wide.
pub const MAX_SOURCE_COLUMNS: usize = 120;

/// At most `max` characters of `text`, escaped, with `...` if cut.
pub(crate) fn excerpt_of(text: &str, max: usize) -> String {
    let (head, cut) = match text.char_indices().nth(max) {
        Some((at, _)) => (&text[..at], true),
        None => (text, false),
    };
    let mut out = escape_for_display(head).into_owned();
    if cut {
        out.push_str("...");
    }
    out
}

/// A value from the file as quoted in a message: escaped, at most [`MAX_QUOTED_CHARS`].
pub(crate) fn excerpt(text: &str) -> String {
    excerpt_of(text, MAX_QUOTED_CHARS)
}

/// Columns a character of a source line takes when shown, and what stands under it in the
/// caret line.
pub(super) fn shown_width(c: char) -> usize {
    match c {
        '\t' => TAB_WIDTH,
        '\n' | '\r' | '\0' => 2,
        // `\u{` and `}` around the hex digits.
        c if needs_escape(c) => 4 + (32 - u32::from(c).leading_zeros()).div_ceil(4) as usize,
        c if is_wide(c) => 2,
        _ => 1,
    }
}

/// Columns a tab is shown as.
const TAB_WIDTH: usize = 4;

/// East Asian wide and fullwidth characters, which terminals draw two columns wide.
pub(super) fn is_wide(c: char) -> bool {
    matches!(
        c,
        '\u{1100}'..='\u{115F}'
            | '\u{2E80}'..='\u{303E}'
            | '\u{3041}'..='\u{33FF}'
            | '\u{3400}'..='\u{4DBF}'
            | '\u{4E00}'..='\u{9FFF}'
            | '\u{A000}'..='\u{A4CF}'
            | '\u{AC00}'..='\u{D7A3}'
            | '\u{F900}'..='\u{FAFF}'
            | '\u{FE30}'..='\u{FE4F}'
            | '\u{FF00}'..='\u{FF60}'
            | '\u{FFE0}'..='\u{FFE6}'
            | '\u{1F300}'..='\u{1F64F}'
            | '\u{1F900}'..='\u{1F9FF}'
            | '\u{20000}'..='\u{3FFFD}'
    )
}

/// Push `c` as shown in a source line: a tab as spaces, escapes as in [`escape_for_display`].
fn push_shown(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str(&" ".repeat(TAB_WIDTH)),
        c => push_escaped(out, c),
    }
}

/// The line `line` as shown under an error at 1-based column `col`, and how many of its
/// characters come before the column.
///
/// A line wider than [`MAX_SOURCE_COLUMNS`] is cut to a window around the column, marked with
/// `...` on the cut sides. Only the window is read, so a 32 MiB line costs no more than a short
/// one beyond finding the column.
pub(super) fn source_excerpt(line: &str, col: usize) -> (String, usize) {
    let split = line
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(line.len(), |(at, _)| at);
    let (before, after) = line.split_at(split);
    let right_wants = fitting(after.chars(), MAX_SOURCE_COLUMNS).1;
    // The left side gets at least half the window, and what the right side does not need.
    let left_budget = (MAX_SOURCE_COLUMNS / 2).max(MAX_SOURCE_COLUMNS - right_wants);
    let (left, left_width, left_cut) = fitting(before.chars().rev(), left_budget);
    let (right, _, right_cut) = fitting(after.chars(), MAX_SOURCE_COLUMNS - left_width);

    let mut shown = String::new();
    if left_cut {
        shown.push_str("...");
    }
    for &c in left.iter().rev() {
        push_shown(&mut shown, c);
    }
    let caret_at = shown.chars().count();
    for &c in &right {
        push_shown(&mut shown, c);
    }
    if right_cut {
        shown.push_str("...");
    }
    (shown, caret_at)
}

/// The leading characters of `chars` that fit in `budget` columns, their width, and whether
/// any were left over.
fn fitting(chars: impl Iterator<Item = char>, budget: usize) -> (Vec<char>, usize, bool) {
    let mut taken = Vec::new();
    let mut width = 0;
    for c in chars {
        if width + shown_width(c) > budget {
            return (taken, width, true);
        }
        width += shown_width(c);
        taken.push(c);
    }
    (taken, width, false)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::level::error::LevelError;
    use crate::level::escape::quoted_char;

    #[test]
    fn excerpts_cut_long_text_on_a_character_boundary() {
        assert_eq!(excerpt_of("abc", 3), "abc");
        assert_eq!(excerpt_of("abcd", 3), "abc...");
        assert_eq!(excerpt_of("é\né", 2), "é\\n...");
        assert_eq!(excerpt(&"x".repeat(1 << 20)).len(), MAX_QUOTED_CHARS + 3);
        assert_eq!(quoted_char('x'), "'x'");
        assert_eq!(quoted_char('\''), "'\\''");
        assert_eq!(quoted_char('\u{1b}'), "'\\u{1b}'");
    }

    #[test]
    fn the_caret_stands_under_the_column_whatever_precedes_it() {
        // Tabs are shown as four spaces, escapes as what they print, wide characters as two
        // columns and an ideographic space as itself.
        let cases = [
            ("ab^cd", 3, "ab^cd", "  ^"),
            ("\tx", 2, "    x", "    ^"),
            ("\u{1b}x", 2, "\\u{1b}x", "      ^"),
            ("\u{3000}x", 2, "\u{3000}x", "\u{3000}^"),
            ("漢x", 2, "漢x", "  ^"),
            ("ab", 3, "ab", "  ^"),
        ];
        for (line, col, shown, caret) in cases {
            assert_eq!(
                excerpt_and_caret(line, col),
                (shown.to_owned(), caret.to_owned()),
                "{line:?}"
            );
        }
    }

    /// The source line and caret line an error at `col` of `line` shows.
    fn excerpt_and_caret(line: &str, col: usize) -> (String, String) {
        let (source_line, caret_at) = source_excerpt(line, col);
        let mut err = LevelError::whole_file(Path::new("a.ron"), "boom");
        err.source_line = Some(source_line.clone());
        err.caret_at = caret_at;
        (source_line, err.caret_line().unwrap_or_default())
    }

    #[test]
    fn long_lines_are_shown_as_a_window_around_the_column() {
        let line = format!("{}X{}", "a".repeat(1000), "b".repeat(1000));
        let (shown, caret) = excerpt_and_caret(&line, 1001);
        assert!(
            shown.starts_with("...") && shown.ends_with("..."),
            "{shown}"
        );
        assert_eq!(shown.chars().count(), MAX_SOURCE_COLUMNS + 6);
        let at = caret.len() - 1;
        assert_eq!(&shown[at..=at], "X");
        // Near the end of a long line the window shifts left to stay full.
        let (shown, caret) = excerpt_and_caret(&line, 2000);
        assert!(
            shown.starts_with("...") && !shown.ends_with("..."),
            "{shown}"
        );
        assert_eq!(shown.chars().count(), MAX_SOURCE_COLUMNS + 3);
        // The column is the second-to-last character.
        assert_eq!(shown.len() - caret.len(), 1);
    }
}
