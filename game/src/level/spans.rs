//! Source positions of the values in a level file, recovered after ron has parsed it.
//!
//! ron reports where *syntax* goes wrong, but a value that parsed fine carries no position.
//! Validation errors (a ragged row, a health of 0, an unknown skin) must still point at the exact
//! character, so this module re-reads text that ron already accepted with a small, tolerant
//! scanner and records the byte offset where each value starts. It never decides whether a file
//! is valid: when it meets something it does not understand it gives up and callers fall back to
//! a coarser position.
//!
//! Architecture invariant: the scanner allocates one small node per value, never one per
//! character, so a 16 MiB file costs memory proportional to its number of values.

/// A 1-based line and column; columns count `char`s, like ron's own positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    pub line: usize,
    pub col: usize,
}

/// A value in the source and where it starts.
#[derive(Debug)]
pub(crate) struct Node {
    /// Byte offset of the first character of the value (the opening quote of a string).
    pub start: usize,
    pub kind: Kind,
}

/// The shape of a value, as far as position lookups need it.
#[derive(Debug)]
pub(crate) enum Kind {
    /// A string literal. `raw` strings have no escapes; `end` is the offset of the closing quote.
    Str {
        raw: bool,
        end: usize,
    },
    /// Numbers, chars, booleans, bare identifiers.
    Atom,
    List(Vec<Node>),
    Map(Vec<(Node, Node)>),
    /// `Name(field: value, ...)` or `(field: value, ...)`: field name, its offset, its value.
    Fields(Vec<(String, usize, Node)>),
    /// `Name(a, b)` or `(a, b)`.
    Tuple(Option<String>, Vec<Node>),
}

impl Node {
    /// The value of field `name`, looking through `Some(...)`.
    pub fn field(&self, name: &str) -> Option<&Node> {
        match &self.unwrap_some().kind {
            Kind::Fields(fields) => fields
                .iter()
                .find(|(key, _, _)| key == name)
                .map(|(_, _, value)| value.unwrap_some()),
            _ => None,
        }
    }

    /// The `index`-th element of a list or tuple.
    pub fn item(&self, index: usize) -> Option<&Node> {
        match &self.unwrap_some().kind {
            Kind::List(items) | Kind::Tuple(_, items) => items.get(index),
            _ => None,
        }
    }

    /// The `index`-th key and value of a map.
    pub fn entry(&self, index: usize) -> Option<(&Node, &Node)> {
        match &self.unwrap_some().kind {
            Kind::Map(entries) => entries.get(index).map(|(k, v)| (k, v.unwrap_some())),
            _ => None,
        }
    }

    fn unwrap_some(&self) -> &Node {
        match &self.kind {
            Kind::Tuple(Some(name), items) if name == "Some" && items.len() == 1 => {
                items[0].unwrap_some()
            }
            _ => self,
        }
    }
}

/// A parsed level text: its value tree (if the scanner understood it) and a line index.
#[derive(Debug)]
pub(crate) struct Spans<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
    pub root: Option<Node>,
}

impl<'a> Spans<'a> {
    pub fn new(text: &'a str) -> Self {
        Spans {
            text,
            line_starts: line_starts(text),
            root: Scanner::new(text).document(),
        }
    }

    /// Line index only, for texts ron rejected.
    pub fn lines_only(text: &'a str) -> Self {
        Spans {
            text,
            line_starts: line_starts(text),
            root: None,
        }
    }

    /// Line and column of a byte offset (clamped to the text).
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        Pos {
            line,
            col: self.text[start..offset].chars().count() + 1,
        }
    }

    /// The first non-whitespace position at or after `pos`; `None` if only whitespace follows.
    pub fn skip_whitespace(&self, pos: Pos) -> Option<Pos> {
        let line_start = *self.line_starts.get(pos.line.saturating_sub(1))?;
        let line = &self.text[line_start..];
        let offset = line
            .char_indices()
            .nth(pos.col.saturating_sub(1))
            .map_or(self.text.len(), |(i, _)| line_start + i);
        let skip = self.text[offset..].find(|c: char| !c.is_whitespace())?;
        Some(self.pos(offset + skip))
    }

    /// The position just past the last character.
    pub fn end(&self) -> Pos {
        self.pos(self.text.len())
    }

    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: usize) -> Option<&'a str> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let rest = &self.text[start..];
        let end = rest.find('\n').unwrap_or(rest.len());
        Some(rest[..end].trim_end_matches('\r'))
    }

    /// Byte offset of the `index`-th character of the decoded value of string node `node`, or
    /// of its closing quote when `index` is the string's length.
    pub fn char_in_str(&self, node: &Node, index: usize) -> Option<usize> {
        let Kind::Str { raw, end } = node.kind else {
            return None;
        };
        let bytes = self.text.as_bytes();
        // Skip the opening delimiter: `"`, `b"`, `r#"`, `br#"`.
        let mut at = node.start;
        while at < end && bytes[at] != b'"' {
            at += 1;
        }
        at += 1;
        let mut seen = 0;
        while at < end {
            if seen == index {
                return Some(at);
            }
            at = if !raw && bytes[at] == b'\\' {
                escape_end(self.text, at)
            } else {
                next_char(self.text, at)
            };
            seen += 1;
        }
        (seen == index).then_some(end)
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
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
        Some(b'x') => (at + 4).min(text.len()),
        Some(_) => next_char(text, at + 1),
        None => text.len(),
    }
}

/// Deeper than any valid level needs; a guard so the scanner's recursion stays bounded.
const MAX_DEPTH: usize = 32;

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            bytes: text.as_bytes(),
            at: 0,
            depth: 0,
        }
    }

    fn document(mut self) -> Option<Node> {
        self.skip_trivia();
        // `#![enable(...)]` attributes come before the value.
        while self.peek() == Some(b'#') {
            let close = self.text[self.at..].find(']')?;
            self.at += close + 1;
            self.skip_trivia();
        }
        self.value()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
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

    fn skip_trivia(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.at += 1,
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'/') => {
                    self.at = self.text[self.at..]
                        .find('\n')
                        .map_or(self.text.len(), |nl| self.at + nl + 1);
                }
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'*') => {
                    self.skip_block_comment();
                }
                Some(c) if c >= 0x80 => {
                    // Unicode whitespace, which ron also skips.
                    match self.text[self.at..].chars().next() {
                        Some(c) if c.is_whitespace() => self.at += c.len_utf8(),
                        _ => return,
                    }
                }
                _ => return,
            }
        }
    }

    fn skip_block_comment(&mut self) {
        let mut level = 0usize;
        while self.at < self.bytes.len() {
            if self.bytes[self.at..].starts_with(b"/*") {
                level += 1;
                self.at += 2;
            } else if self.bytes[self.at..].starts_with(b"*/") {
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

    fn value(&mut self) -> Option<Node> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let node = self.value_inner();
        self.depth -= 1;
        node
    }

    fn value_inner(&mut self) -> Option<Node> {
        self.skip_trivia();
        let start = self.at;
        let kind = match self.peek()? {
            b'"' => self.string(false)?,
            b'r' | b'b' if self.raw_or_byte_string_start() => {
                let raw = self.text[self.at..]
                    .trim_start_matches('b')
                    .starts_with('r');
                self.string(raw)?
            }
            b'\'' => {
                self.char_literal()?;
                Kind::Atom
            }
            b'[' => {
                self.at += 1;
                Kind::List(self.items(b']')?)
            }
            b'{' => {
                self.at += 1;
                Kind::Map(self.map_entries()?)
            }
            b'(' => {
                self.at += 1;
                self.parenthesised(None)?
            }
            c if c == b'_' || c.is_ascii_alphabetic() => {
                let name = self.ident()?;
                self.skip_trivia();
                if self.peek() == Some(b'(') {
                    self.at += 1;
                    self.parenthesised(Some(name))?
                } else {
                    Kind::Atom
                }
            }
            _ => {
                // Numbers and anything else atomic: run to the next delimiter.
                while let Some(c) = self.peek() {
                    if matches!(
                        c,
                        b',' | b')' | b']' | b'}' | b':' | b' ' | b'\t' | b'\r' | b'\n'
                    ) {
                        break;
                    }
                    self.at += 1;
                }
                if self.at == start {
                    return None;
                }
                Kind::Atom
            }
        };
        Some(Node { start, kind })
    }

    fn raw_or_byte_string_start(&self) -> bool {
        let rest = &self.text[self.at..];
        let rest = rest.strip_prefix('b').unwrap_or(rest);
        let rest = rest
            .strip_prefix('r')
            .map_or(rest, |r| r.trim_start_matches('#'));
        rest.starts_with('"') && !self.text[self.at..].starts_with('"')
    }

    fn string(&mut self, raw: bool) -> Option<Kind> {
        let hashes = if raw {
            let quote = self.text[self.at..].find('"')?;
            let hashes = self.text[self.at..self.at + quote]
                .bytes()
                .filter(|&b| b == b'#')
                .count();
            self.at += quote + 1;
            hashes
        } else {
            let quote = self.text[self.at..].find('"')?;
            self.at += quote + 1;
            0
        };
        loop {
            match self.peek()? {
                b'\\' if !raw => self.at = escape_end(self.text, self.at),
                b'"' => {
                    let end = self.at;
                    let closing = &self.bytes[self.at + 1..];
                    if closing.len() >= hashes && closing[..hashes].iter().all(|&b| b == b'#') {
                        self.at += 1 + hashes;
                        return Some(Kind::Str { raw, end });
                    }
                    self.at += 1;
                }
                _ => self.at = next_char(self.text, self.at),
            }
        }
    }

    fn char_literal(&mut self) -> Option<()> {
        self.at += 1;
        match self.peek()? {
            b'\\' => self.at = escape_end(self.text, self.at),
            _ => self.at = next_char(self.text, self.at),
        }
        (self.peek()? == b'\'').then(|| self.at += 1)
    }

    fn ident(&mut self) -> Option<String> {
        if self.text[self.at..].starts_with("r#") {
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
        (self.at > start).then(|| self.text[start..self.at].to_owned())
    }

    /// Comma-separated values up to `close` (already past the opener).
    fn items(&mut self, close: u8) -> Option<Vec<Node>> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Some(items);
            }
            items.push(self.value()?);
            if !self.eat(b',') {
                return self.eat(close).then_some(items);
            }
        }
    }

    fn map_entries(&mut self) -> Option<Vec<(Node, Node)>> {
        let mut entries = Vec::new();
        loop {
            if self.eat(b'}') {
                return Some(entries);
            }
            let key = self.value()?;
            if !self.eat(b':') {
                return None;
            }
            let value = self.value()?;
            entries.push((key, value));
            if !self.eat(b',') {
                return self.eat(b'}').then_some(entries);
            }
        }
    }

    /// The inside of `( ... )`: named fields if it starts with `ident:`, else a tuple.
    fn parenthesised(&mut self, name: Option<String>) -> Option<Kind> {
        self.skip_trivia();
        let before = self.at;
        let named = self.ident().is_some() && self.eat(b':');
        self.at = before;
        if !named {
            return Some(Kind::Tuple(name, self.items(b')')?));
        }
        let mut fields = Vec::new();
        loop {
            if self.eat(b')') {
                return Some(Kind::Fields(fields));
            }
            self.skip_trivia();
            let key_at = self.at;
            let key = self.ident()?;
            if !self.eat(b':') {
                return None;
            }
            let value = self.value()?;
            fields.push((key, key_at, value));
            if !self.eat(b',') {
                return self.eat(b')').then_some(Kind::Fields(fields));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_row_characters_resolve_to_their_source_column() {
        let text = "(\n  name: \"x\",\n  map: [\n    \"#\\\"@\",\n    r#\"ab\"#,\n  ],\n)";
        let spans = Spans::new(text);
        let root = spans.root.as_ref().expect("scanner understands the text");
        let map = root.field("map").expect("map field");
        let row0 = map.item(0).expect("row 0");
        // Row 0 is `"#\"@"`: decoded `#`, `"`, `@`, then the closing quote.
        let cols: Vec<usize> = (0..4)
            .map(|i| spans.pos(spans.char_in_str(row0, i).expect("char")).col)
            .collect();
        assert_eq!(cols, vec![6, 7, 9, 10]);
        let row1 = map.item(1).expect("row 1");
        let b = spans.pos(spans.char_in_str(row1, 1).expect("char"));
        assert_eq!(b, Pos { line: 5, col: 9 });
    }

    #[test]
    fn fields_look_through_some_and_names() {
        let text = "Level(crates: [(at: (1, 2), health: Some(4))])";
        let spans = Spans::new(text);
        let root = spans.root.as_ref().expect("parsed");
        let health = root
            .field("crates")
            .and_then(|c| c.item(0))
            .and_then(|o| o.field("health"))
            .expect("health");
        assert_eq!(spans.pos(health.start).col, 42);
    }
}
