//! Source positions in a level file: the line and column of a byte offset, and where a value of
//! the parsed level starts in the text.
//!
//! ron reports where *syntax* goes wrong, but a value that parsed fine carries no position.
//! Validation errors (a ragged row, a health of 0, an unknown skin) must still point at the exact
//! character, so when validation finds a problem it asks for the value at a path such as
//! `crates[3].at`, and a small, tolerant scanner walks the text ron already accepted to find it.
//! The scanner never decides whether a file is valid: when it meets something it does not
//! understand it stops, and callers fall back to the deepest value it did reach.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as editors show them; columns count `char`s from 1,
//! so a tab or an ideographic space is one column.
//!
//! Architecture invariant: nothing here keeps anything per line or per value. A lookup is one
//! pass over the text, made only when an error is reported, so a valid level costs no lookups
//! at all and a 32 MiB file costs no memory beyond its text. The one exception is
//! [`Spans::list`], which the level editor calls once per file it opens.

pub(crate) use super::scanner::Step;
use super::scanner::{Cursor, escape_end, floor_char_boundary, is_ron_whitespace, next_char};

/// A 1-based line and column; columns count `char`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    pub line: usize,
    pub col: usize,
}

/// A string literal that runs on past where its author meant it to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Runaway {
    /// Byte offset of its opening quote.
    pub start: usize,
    /// Byte offset of the quote that closes it, if any does.
    pub closes: Option<usize>,
}

/// Where a list's items are in the text: byte ranges of each value, and of its brackets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListSpan {
    /// Offset of the opening bracket.
    pub open: usize,
    /// Offset of the closing bracket.
    pub close: usize,
    /// Each item, from its first character to just past its last (trivia and commas excluded).
    pub items: Vec<std::ops::Range<usize>>,
}

/// Position lookups in the text of one level file.
#[derive(Debug)]
pub(crate) struct Spans<'a> {
    text: &'a str,
}

impl<'a> Spans<'a> {
    pub fn new(text: &'a str) -> Self {
        Spans { text }
    }

    /// Line and column of a byte offset (clamped to the text).
    pub fn pos(&self, offset: usize) -> Pos {
        let bytes = self.text.as_bytes();
        let mut offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        // The `\n` of a `\r\n` belongs to the line end the `\r` starts.
        if offset > 0 && bytes.get(offset) == Some(&b'\n') && bytes[offset - 1] == b'\r' {
            offset -= 1;
        }
        let line_start = bytes[..offset]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |i| i + 1);
        let line = 1 + (0..line_start).filter(|&i| self.ends_line(i)).count();
        Pos {
            line,
            col: self.text[line_start..offset].chars().count() + 1,
        }
    }

    /// Whether the byte at `i` ends a line: a `\n`, or a `\r` not followed by `\n`.
    fn ends_line(&self, i: usize) -> bool {
        let bytes = self.text.as_bytes();
        match bytes[i] {
            b'\n' => true,
            b'\r' => bytes.get(i + 1) != Some(&b'\n'),
            _ => false,
        }
    }

    /// The byte offset of a position counted the way ron counts it: lines end at `\n` only
    /// (a lone `\r` is a character of the line).
    pub fn ron_offset(&self, line: usize, col: usize) -> usize {
        let line_start = if line <= 1 {
            0
        } else {
            match self.text.match_indices('\n').nth(line - 2) {
                Some((i, _)) => i + 1,
                None => return self.text.len(),
            }
        };
        self.text[line_start..]
            .char_indices()
            .nth(col.saturating_sub(1))
            .map_or(self.text.len(), |(i, _)| line_start + i)
    }

    /// The first offset at or after `offset` that is not whitespace as ron counts it; `None` if
    /// only whitespace follows.
    ///
    /// ron's whitespace is narrower than Unicode's: an ideographic space (U+3000), for one, is a
    /// character ron stumbles on, so it must not be skipped here.
    pub fn skip_whitespace(&self, offset: usize) -> Option<usize> {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        self.text[offset..]
            .find(|c| !is_ron_whitespace(c))
            .map(|skip| offset + skip)
    }

    /// The text from byte offset `offset` on (empty past the end).
    pub fn text_at(&self, offset: usize) -> &'a str {
        self.text.get(offset..).unwrap_or_default()
    }

    /// The offset just past the last character.
    pub fn end(&self) -> usize {
        self.text.len()
    }

    /// The text of 1-based line `line`, without its line end.
    pub fn line_text(&self, line: usize) -> Option<&'a str> {
        let start = if line == 1 {
            0
        } else {
            let bytes = self.text.as_bytes();
            let mut seen = 1;
            let mut at = None;
            for i in 0..bytes.len() {
                if self.ends_line(i) {
                    seen += 1;
                    if seen == line {
                        at = Some(i + 1);
                        break;
                    }
                }
            }
            at?
        };
        let rest = self.text.get(start..)?;
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        Some(&rest[..end])
    }

    /// Byte offset where the value at `path` starts, if the scanner finds all of it.
    pub fn find(&self, path: &[Step<'_>]) -> Option<usize> {
        let (steps, at) = self.walk(path);
        (steps == path.len()).then_some(at)
    }

    /// Byte offset where the value at `path` starts, or where the deepest value along it that
    /// the scanner finds starts (the top-level value at worst).
    pub fn nearest(&self, path: &[Step<'_>]) -> usize {
        self.walk(path).1
    }

    /// Byte offset where the value at `path` starts, `path` taken from the value that starts
    /// at `start` (an item [`list`](Self::list) gave, say) rather than from the top: the cost
    /// is that of the value, not of the file before it.
    pub fn find_from(&self, start: usize, path: &[Step<'_>]) -> Option<usize> {
        let mut cursor = Cursor::new(self.text);
        cursor.at = start;
        cursor.through_some();
        let (steps, at) = self.walk_from(cursor, path);
        (steps == path.len()).then_some(at)
    }

    /// How many lines end in `text[range]`: the line of `range.end` is that of `range.start`
    /// plus this (for walking through a file's offsets in order, without [`pos`](Self::pos)'s
    /// count from the top each time).
    pub fn lines_ending_in(&self, range: std::ops::Range<usize>) -> usize {
        let end = range.end.min(self.text.len());
        (range.start.min(end)..end)
            .filter(|&i| self.ends_line(i))
            .count()
    }

    /// How many steps of `path` resolve, and the offset of the last value reached.
    fn walk(&self, path: &[Step<'_>]) -> (usize, usize) {
        let mut cursor = Cursor::new(self.text);
        if cursor.document_start().is_none() {
            return (0, 0);
        }
        self.walk_from(cursor, path)
    }

    /// [`walk`](Self::walk) from where `cursor` is.
    fn walk_from(&self, mut cursor: Cursor<'a>, path: &[Step<'_>]) -> (usize, usize) {
        let mut reached = (0, cursor.at);
        for (i, &step) in path.iter().enumerate() {
            if cursor.step(step).is_none() {
                break;
            }
            cursor.through_some();
            reached = (i + 1, cursor.at);
        }
        reached
    }

    /// The items of the list (or tuple) at `path`: where each value starts and ends, and where
    /// the list's brackets are.
    ///
    /// Unlike the other lookups this keeps one range per item; the level editor asks for it
    /// once per file it opens, to rewrite map rows and crate overrides in place.
    pub fn list(&self, path: &[Step<'_>]) -> Option<ListSpan> {
        let mut cursor = Cursor::new(self.text);
        cursor.at = self.find(path)?;
        if cursor.at_ident() {
            cursor.ident()?;
        }
        cursor.skip_trivia();
        let close = match cursor.peek()? {
            b'[' => b']',
            b'(' => b')',
            _ => return None,
        };
        let open = cursor.at;
        cursor.at += 1;
        let mut items = Vec::new();
        loop {
            cursor.skip_trivia();
            if cursor.peek()? == close {
                return Some(ListSpan {
                    open,
                    close: cursor.at,
                    items,
                });
            }
            let start = cursor.at;
            let end = cursor.skip_value()?;
            items.push(start..end);
            if !cursor.eat(b',') {
                cursor.skip_trivia();
                if cursor.peek()? != close {
                    return None;
                }
            }
        }
    }

    /// Byte offset just past the value that starts at `start` (a number, string, tuple, ...).
    pub fn value_end(&self, start: usize) -> Option<usize> {
        let mut cursor = Cursor::new(self.text);
        cursor.at = start;
        cursor.skip_value()
    }

    /// Byte offset of the `index`-th character of the decoded value of the string literal that
    /// starts at `start`, or of its closing quote when `index` is the string's length.
    pub fn char_in_str(&self, start: usize, index: usize) -> Option<usize> {
        let mut cursor = Cursor {
            text: self.text,
            at: start,
        };
        let (raw, hashes) = cursor.open_string()?;
        let mut seen = 0;
        loop {
            let at = cursor.at;
            let c = cursor.peek()?;
            if c == b'"' && cursor.closes(hashes) {
                return (seen == index).then_some(at);
            }
            if seen == index {
                return Some(at);
            }
            cursor.at = if !raw && c == b'\\' {
                escape_end(self.text, at)
            } else {
                next_char(self.text, at)
            };
            seen += 1;
        }
    }

    /// The string literal that swallowed the text up to `offset`, where ron reported a syntax
    /// error: one still open at the end of the file, or one that runs over a line end and is
    /// followed right away, at `offset`, by text that cannot follow a string (its closing quote
    /// was most likely meant to open the next string, and ron stumbled on that string's
    /// contents).
    pub fn runaway_string(&self, offset: usize) -> Option<Runaway> {
        let mut cursor = Cursor::new(self.text);
        loop {
            cursor.skip_trivia();
            if cursor.at >= offset {
                return None;
            }
            let start = cursor.at;
            if cursor.at_string() {
                let Some(close) = cursor.skip_string() else {
                    return Some(Runaway {
                        start,
                        closes: None,
                    });
                };
                let body = &self.text[start..close];
                let broken = body
                    .match_indices(['\n', '\r'])
                    .any(|(i, _)| !body[..i].ends_with('\\') && !body[..i].ends_with("\\\r"));
                let follows = self.text[cursor.at..].chars().next();
                let can_follow = |c: char| is_ron_whitespace(c) || ",)]}:/".contains(c);
                if broken && cursor.at == offset && follows.is_some_and(|c| !can_follow(c)) {
                    return Some(Runaway {
                        start,
                        closes: Some(close),
                    });
                }
            } else if cursor.peek() == Some(b'\'') {
                if cursor.skip_char().is_none() {
                    cursor.at = start + 1;
                }
            } else {
                cursor.skip_atom();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Step::{Field, Item, Key, Value};
    use super::*;

    #[test]
    fn map_row_characters_resolve_to_their_source_column() {
        let text = "(\n  name: \"x\",\n  map: [\n    \"#\\\"@\",\n    r#\"ab\"#,\n  ],\n)";
        let spans = Spans::new(text);
        let row0 = spans.find(&[Field("map"), Item(0)]).expect("row 0");
        // Row 0 is `"#\"@"`: decoded `#`, `"`, `@`, then the closing quote.
        let cols: Vec<usize> = (0..4)
            .map(|i| spans.pos(spans.char_in_str(row0, i).expect("char")).col)
            .collect();
        assert_eq!(cols, vec![6, 7, 9, 10]);
        let row1 = spans.find(&[Field("map"), Item(1)]).expect("row 1");
        let b = spans.pos(spans.char_in_str(row1, 1).expect("char"));
        assert_eq!(b, Pos { line: 5, col: 9 });
        assert_eq!(spans.find(&[Field("map"), Item(2)]), None);
    }

    #[test]
    fn fields_look_through_some_and_names() {
        let text = "Level(crates: [(at: (1, 2), health: Some(4))])";
        let spans = Spans::new(text);
        let health = spans
            .find(&[Field("crates"), Item(0), Field("health")])
            .expect("health");
        assert_eq!(spans.pos(health).col, 42);
    }

    #[test]
    fn lookups_skip_nested_values_strings_chars_and_comments() {
        let text = r##"( // a "comment" with ( and [
            name: "a ) ] } \" ,",
            legend: { ')': Crate(skin: "x", health: 2), 'y' /* } */ : Wall },
            crates: [ (at: (0, 0), skin: r#"q"#), (at: (1, 0), health: 3) ],
        )"##;
        let spans = Spans::new(text);
        let at = |path: &[Step<'_>]| spans.find(path).map(|o| &text[o..o + 3]);
        assert_eq!(at(&[Field("legend"), Key(1)]), Some("'y'"));
        assert_eq!(at(&[Field("legend"), Value(1)]), Some("Wal"));
        assert_eq!(
            at(&[Field("legend"), Value(0), Field("health")]),
            Some("2),")
        );
        assert_eq!(
            at(&[Field("crates"), Item(1), Field("health")]),
            Some("3) ")
        );
        assert_eq!(at(&[Field("crates"), Item(0), Field("skin")]), Some("r#\""));
        assert_eq!(at(&[Field("crates"), Item(2)]), None);
        // What cannot be found falls back to the deepest value that can.
        let item = spans.find(&[Field("crates"), Item(1)]).expect("item 1");
        assert_eq!(
            spans.nearest(&[Field("crates"), Item(1), Field("skin")]),
            item
        );
    }

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        for (text, line_ends) in [
            ("ab\ncd\nef", "\n"),
            ("ab\r\ncd\r\nef", "\r\n"),
            ("ab\rcd\ref", "\r"),
        ] {
            let spans = Spans::new(text);
            let e = text.find('e').expect("e");
            assert_eq!(spans.pos(e), Pos { line: 3, col: 1 }, "{line_ends:?}");
            assert_eq!(spans.pos(e - 1), Pos { line: 2, col: 3 }, "{line_ends:?}");
            assert_eq!(spans.line_text(2), Some("cd"), "{line_ends:?}");
            assert_eq!(spans.line_text(3), Some("ef"), "{line_ends:?}");
            assert_eq!(spans.line_text(4), None, "{line_ends:?}");
        }
        // ron counts lines at `\n` only: its 1:4 in a CR-only file is our 2:1.
        let spans = Spans::new("ab\rcd");
        assert_eq!(spans.pos(spans.ron_offset(1, 4)), Pos { line: 2, col: 1 });
    }

    #[test]
    fn columns_count_characters() {
        let spans = Spans::new("\t\u{3000}é漢x");
        let x = spans.text.find('x').expect("x");
        assert_eq!(spans.pos(x), Pos { line: 1, col: 5 });
        // An ideographic space is not whitespace to ron, so it is not skipped.
        assert_eq!(spans.skip_whitespace(0), Some(1));
    }

    #[test]
    fn a_string_that_runs_on_is_found_where_it_starts() {
        let text = "(\n  name: \"x,\n  map: [\"#@#\"],\n)";
        let spans = Spans::new(text);
        let error = text.find('#').expect("#");
        let runaway = spans.runaway_string(error).expect("runaway");
        assert_eq!(spans.pos(runaway.start), Pos { line: 2, col: 9 });
        assert_eq!(runaway.closes.map(|c| spans.pos(c).line), Some(3));
        let text = "(name: \"x\", map: [\"#@#";
        let spans = Spans::new(text);
        let runaway = spans.runaway_string(text.len()).expect("unclosed");
        assert_eq!((runaway.start, runaway.closes), (18, None));
        // A string closed on its own line is not a runaway.
        let text = "(name: \"x\", map: [\"#@#\"] oops)";
        assert_eq!(Spans::new(text).runaway_string(25), None);
        // Nor is one over two lines that is followed by what may follow a string.
        let text = "(name: \"x\", map: [\"a\nb\",] oops)";
        let error = text.find("oops").expect("oops");
        assert_eq!(Spans::new(text).runaway_string(error), None);
    }
}
