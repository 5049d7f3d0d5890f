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

/// A 1-based line and column; columns count `char`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    pub line: usize,
    pub col: usize,
}

/// One step from a value to a value inside it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step<'p> {
    /// The value of a named field of `( ... )` or `Name( ... )`.
    Field(&'p str),
    /// The `n`-th element of `[ ... ]` or of a tuple `( ... )`.
    Item(usize),
    /// The key of the `n`-th entry of `{ ... }`.
    Key(usize),
    /// The value of the `n`-th entry of `{ ... }`.
    Value(usize),
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

/// ron's whitespace (`ron::parse::is_whitespace_char`, which is private).
fn is_ron_whitespace(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t'
            | '\n'
            | '\r'
            | '\x0B'
            | '\x0C'
            | '\u{85}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn next_char(text: &str, at: usize) -> usize {
    at + text[at..].chars().next().map_or(1, char::len_utf8)
}

/// Offset just past the escape sequence starting with the backslash at `at`.
fn escape_end(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    match bytes.get(at + 1) {
        Some(b'u') if bytes.get(at + 2) == Some(&b'{') => text[at..]
            .find('}')
            .map_or(text.len(), |close| at + close + 1),
        Some(b'x') => floor_char_boundary(text, (at + 4).min(text.len())),
        Some(_) => next_char(text, at + 1),
        None => text.len(),
    }
}

/// A position in the text and the moves of the scanner. It skips values without building
/// anything, so it needs no recursion and no memory.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor { text, at: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.at..).unwrap_or_default()
    }

    /// Move to the top-level value, past comments and `#![enable(...)]` attributes.
    fn document_start(&mut self) -> Option<()> {
        self.skip_trivia();
        while self.peek() == Some(b'#') {
            self.at += self.rest().find(']')? + 1;
            self.skip_trivia();
        }
        self.peek().map(|_| ())
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_trivia();
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Skip whitespace and comments, as ron does.
    fn skip_trivia(&mut self) {
        loop {
            let rest = self.rest();
            if rest.starts_with("//") {
                // Like ron, only `\n` ends a line comment; `parse` turns a lone `\r` into one.
                self.at += rest.find('\n').unwrap_or(rest.len());
            } else if rest.starts_with("/*") {
                self.skip_block_comment();
            } else {
                match rest.chars().next() {
                    Some(c) if is_ron_whitespace(c) => self.at += c.len_utf8(),
                    _ => return,
                }
            }
        }
    }

    fn skip_block_comment(&mut self) {
        let bytes = self.text.as_bytes();
        let mut level = 0usize;
        while self.at < bytes.len() {
            if bytes[self.at..].starts_with(b"/*") {
                level += 1;
                self.at += 2;
            } else if bytes[self.at..].starts_with(b"*/") {
                level -= 1;
                self.at += 2;
                if level == 0 {
                    return;
                }
            } else {
                self.at += 1;
            }
        }
    }

    /// An identifier (`r#` prefix allowed), without allocating.
    fn ident(&mut self) -> Option<&'a str> {
        if self.rest().starts_with("r#") && !self.at_string() {
            self.at += 2;
        }
        let start = self.at;
        while let Some(c) = self.peek() {
            if c == b'_' || c.is_ascii_alphanumeric() {
                self.at += 1;
            } else {
                break;
            }
        }
        (self.at > start).then(|| &self.text[start..self.at])
    }

    fn at_ident(&self) -> bool {
        self.peek()
            .is_some_and(|c| c == b'_' || c.is_ascii_alphabetic())
            && !self.at_string()
    }

    /// Whether a string literal starts here: `"`, `b"`, `r"`, `r#"`, `br#"`, ...
    fn at_string(&self) -> bool {
        let rest = self.rest();
        let rest = rest.strip_prefix('b').unwrap_or(rest);
        let rest = rest
            .strip_prefix('r')
            .map_or(rest, |r| r.trim_start_matches('#'));
        rest.starts_with('"')
    }

    /// Move past the opening delimiter of the string literal here; whether it is raw, and its
    /// number of `#`.
    fn open_string(&mut self) -> Option<(bool, usize)> {
        if !self.at_string() {
            return None;
        }
        let quote = self.rest().find('"')?;
        let prefix = &self.rest()[..quote];
        let raw = prefix.contains('r');
        let hashes = prefix.bytes().filter(|&b| b == b'#').count();
        self.at += quote + 1;
        Some((raw, hashes))
    }

    /// Whether the `"` here, followed by `hashes` `#`, closes a string.
    fn closes(&self, hashes: usize) -> bool {
        let after = &self.text.as_bytes()[self.at + 1..];
        after.len() >= hashes && after[..hashes].iter().all(|&b| b == b'#')
    }

    /// Move past the string literal here and return the offset of its closing quote; `None`
    /// if it is never closed.
    fn skip_string(&mut self) -> Option<usize> {
        let (raw, hashes) = self.open_string()?;
        loop {
            match self.peek()? {
                b'\\' if !raw => self.at = escape_end(self.text, self.at),
                b'"' if self.closes(hashes) => {
                    let close = self.at;
                    self.at += 1 + hashes;
                    return Some(close);
                }
                _ => self.at = next_char(self.text, self.at),
            }
        }
    }

    /// Move past the char literal here (`'x'`, `'\n'`); `None` if it is not one.
    fn skip_char(&mut self) -> Option<()> {
        self.at += 1;
        match self.peek()? {
            b'\\' => self.at = escape_end(self.text, self.at),
            _ => self.at = next_char(self.text, self.at),
        }
        (self.peek()? == b'\'').then(|| self.at += 1)
    }

    /// Move past the value that starts here, and the trivia after it; the offset just past the
    /// value itself. Brackets are counted rather than recursed into, so no nesting depth can
    /// overflow the stack.
    fn skip_value(&mut self) -> Option<usize> {
        let mut depth = 0usize;
        loop {
            self.skip_trivia();
            match self.peek()? {
                b'(' | b'[' | b'{' => {
                    depth += 1;
                    self.at += 1;
                    continue;
                }
                b')' | b']' | b'}' => {
                    // A closing bracket at depth 0 belongs to the enclosing value: there was no
                    // value here.
                    depth = depth.checked_sub(1)?;
                    self.at += 1;
                }
                b',' | b':' if depth == 0 => return None,
                b',' | b':' => {
                    self.at += 1;
                    continue;
                }
                _ if self.at_string() => {
                    self.skip_string()?;
                }
                b'\'' => self.skip_char()?,
                b'b' if self.rest().starts_with("b'") => {
                    self.at += 1;
                    self.skip_char()?;
                }
                _ => self.skip_atom(),
            }
            if depth == 0 {
                // A name is followed by its `( ... )`; anything else ends the value.
                let end = self.at;
                self.skip_trivia();
                if self.peek() != Some(b'(') {
                    return Some(end);
                }
            }
        }
    }

    /// Move past a number, identifier or other bare word.
    fn skip_atom(&mut self) {
        let start = self.at;
        while let Some(c) = self.rest().chars().next() {
            if is_ron_whitespace(c) || "()[]{},:\"'/".contains(c) {
                break;
            }
            self.at += c.len_utf8();
        }
        if self.at == start {
            self.at = next_char(self.text, start);
        }
    }

    /// If the value here is `Some( ... )`, move to the value inside it.
    fn through_some(&mut self) {
        loop {
            let before = self.at;
            if self.ident() == Some("Some") && self.eat(b'(') {
                self.skip_trivia();
            } else {
                self.at = before;
                return;
            }
        }
    }

    /// Move from the start of a value to the start of the value `step` names inside it.
    fn step(&mut self, step: Step<'_>) -> Option<()> {
        self.skip_trivia();
        match step {
            Step::Field(name) => {
                if self.at_ident() {
                    self.ident()?;
                }
                if !self.eat(b'(') {
                    return None;
                }
                loop {
                    self.skip_trivia();
                    let key = self.ident()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    if key == name {
                        self.skip_trivia();
                        return Some(());
                    }
                    self.skip_value()?;
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            Step::Item(index) => {
                if self.at_ident() {
                    self.ident()?;
                }
                let close = if self.eat(b'[') {
                    b']'
                } else if self.eat(b'(') {
                    b')'
                } else {
                    return None;
                };
                for _ in 0..index {
                    self.skip_value()?;
                    if !self.eat(b',') {
                        return None;
                    }
                }
                self.skip_trivia();
                (self.peek()? != close).then_some(())
            }
            Step::Key(index) | Step::Value(index) => {
                if !self.eat(b'{') {
                    return None;
                }
                for _ in 0..index {
                    self.skip_value()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    self.skip_value()?;
                    if !self.eat(b',') {
                        return None;
                    }
                }
                self.skip_trivia();
                if self.peek()? == b'}' {
                    return None;
                }
                if let Step::Value(_) = step {
                    self.skip_value()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    self.skip_trivia();
                }
                Some(())
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
