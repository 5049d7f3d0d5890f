//! The tolerant RON scanner behind [`Spans`](super::spans::Spans): a [`Cursor`] that walks
//! text ron already accepted along a path of [`Step`]s, skipping values without building them.

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

/// ron's whitespace (`ron::parse::is_whitespace_char`, which is private).
pub(super) fn is_ron_whitespace(c: char) -> bool {
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

pub(super) fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

pub(super) fn next_char(text: &str, at: usize) -> usize {
    at + text[at..].chars().next().map_or(1, char::len_utf8)
}

/// Offset just past the escape sequence starting with the backslash at `at`.
pub(super) fn escape_end(text: &str, at: usize) -> usize {
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
pub(super) struct Cursor<'a> {
    pub(super) text: &'a str,
    pub(super) at: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Cursor { text, at: 0 }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    pub(super) fn rest(&self) -> &'a str {
        self.text.get(self.at..).unwrap_or_default()
    }

    /// Move to the top-level value, past comments and `#![enable(...)]` attributes.
    pub(super) fn document_start(&mut self) -> Option<()> {
        self.skip_trivia();
        while self.peek() == Some(b'#') {
            self.at += self.rest().find(']')? + 1;
            self.skip_trivia();
        }
        self.peek().map(|_| ())
    }

    pub(super) fn eat(&mut self, byte: u8) -> bool {
        self.skip_trivia();
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Skip whitespace and comments, as ron does.
    pub(super) fn skip_trivia(&mut self) {
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

    pub(super) fn skip_block_comment(&mut self) {
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
    pub(super) fn ident(&mut self) -> Option<&'a str> {
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

    pub(super) fn at_ident(&self) -> bool {
        self.peek()
            .is_some_and(|c| c == b'_' || c.is_ascii_alphabetic())
            && !self.at_string()
    }

    /// Whether a string literal starts here: `"`, `b"`, `r"`, `r#"`, `br#"`, ...
    pub(super) fn at_string(&self) -> bool {
        let rest = self.rest();
        let rest = rest.strip_prefix('b').unwrap_or(rest);
        let rest = rest
            .strip_prefix('r')
            .map_or(rest, |r| r.trim_start_matches('#'));
        rest.starts_with('"')
    }

    /// Move past the opening delimiter of the string literal here; whether it is raw, and its
    /// number of `#`.
    pub(super) fn open_string(&mut self) -> Option<(bool, usize)> {
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
    pub(super) fn closes(&self, hashes: usize) -> bool {
        let after = &self.text.as_bytes()[self.at + 1..];
        after.len() >= hashes && after[..hashes].iter().all(|&b| b == b'#')
    }

    /// Move past the string literal here and return the offset of its closing quote; `None`
    /// if it is never closed.
    pub(super) fn skip_string(&mut self) -> Option<usize> {
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
    pub(super) fn skip_char(&mut self) -> Option<()> {
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
    pub(super) fn skip_value(&mut self) -> Option<usize> {
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
    pub(super) fn skip_atom(&mut self) {
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
    pub(super) fn through_some(&mut self) {
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
    pub(super) fn step(&mut self, step: Step<'_>) -> Option<()> {
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
