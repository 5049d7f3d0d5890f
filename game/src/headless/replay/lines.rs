//! [`Lines`]: the replay parser's cursor over numbered lines, and the fields and words it reads.

use super::syntax::{SyntaxError, SyntaxErrorKind, Wanted};
use crate::input::key_line;

/// The replay's lines ([`crate::text_lines::lines`]) with 1-based numbers, trailing whitespace
/// trimmed.
pub(super) struct Lines<'a> {
    inner: std::iter::Peekable<std::iter::Enumerate<crate::text_lines::Lines<'a>>>,
    last: usize,
}

impl<'a> Lines<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Self {
            inner: crate::text_lines::lines(text).enumerate().peekable(),
            last: 0,
        }
    }

    /// The number of the last line read (0 before the first).
    pub(super) fn last(&self) -> usize {
        self.last
    }

    /// The number of the line the next read gives (one past the end at the end).
    pub(super) fn peek_number(&mut self) -> usize {
        self.inner.peek().map_or(self.last + 1, |&(i, _)| i + 1)
    }

    /// The next line; at the end, an error saying the file is truncated before `wanted`.
    pub(super) fn next_line(&mut self, wanted: Wanted) -> Result<(usize, &'a str), SyntaxError> {
        match self.inner.next() {
            Some((i, line)) => {
                self.last = i + 1;
                Ok((i + 1, line.trim_end()))
            }
            None => Err(SyntaxError::at(
                self.last + 1,
                1,
                SyntaxErrorKind::Truncated(wanted),
            )),
        }
    }

    /// The next line that is not blank, if any.
    pub(super) fn next_nonblank(&mut self) -> Option<(usize, &'a str)> {
        self.inner
            .by_ref()
            .map(|(i, l)| (i + 1, l.trim_end()))
            .find(|(_, l)| !l.is_empty())
    }

    /// A line that is exactly `word`.
    pub(super) fn keyword(&mut self, word: &'static str) -> Result<usize, SyntaxError> {
        let (n, line) = self.next_line(Wanted::Line(word))?;
        if line == word {
            Ok(n)
        } else {
            Err(SyntaxError::at(
                n,
                1,
                SyntaxErrorKind::ExpectedKeyword(word),
            ))
        }
    }

    /// A `NAME VALUE` line: the value (the rest of the line after one space).
    pub(super) fn field(&mut self, name: &'static str) -> Result<(usize, &'a str), SyntaxError> {
        let (n, line) = self.next_line(Wanted::Line(name))?;
        match line
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(' '))
        {
            Some(value) => Ok((n, value)),
            None => Err(SyntaxError::at(n, 1, SyntaxErrorKind::ExpectedField(name))),
        }
    }

    /// A `NAME N` line: the whole number N, at most `max`.
    pub(super) fn number_field(
        &mut self,
        name: &'static str,
        max: u64,
    ) -> Result<u64, SyntaxError> {
        let (n, value) = self.field(name)?;
        parse_count(value, value_column(name), n, max, "a whole number")
    }

    /// A `NAME HASH` line: the 16-digit hexadecimal hash.
    pub(super) fn hex_field(&mut self, name: &'static str) -> Result<u64, SyntaxError> {
        let (n, value) = self.field(name)?;
        parse_hex(value)
            .ok_or_else(|| SyntaxError::at(n, value_column(name), SyntaxErrorKind::ExpectedHash))
    }
}

/// The 1-based column of a `NAME VALUE` line's value.
pub(super) fn value_column(name: &str) -> usize {
    name.chars().count() + 2
}

/// A number at `col` of line `line`, as [`key_line::parse_number`] reads it.
pub(super) fn parse_count(
    word: &str,
    col: usize,
    line: usize,
    max: u64,
    what: &str,
) -> Result<u64, SyntaxError> {
    key_line::parse_number(word, max, what)
        .map_err(|message| SyntaxError::at(line, col, SyntaxErrorKind::KeyLine(message)))
}

/// A hash written as exactly 16 hexadecimal digits.
pub(super) fn parse_hex(word: &str) -> Option<u64> {
    (word.len() == 16 && word.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(word, 16).ok())
        .flatten()
}
