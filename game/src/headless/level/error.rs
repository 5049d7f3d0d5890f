//! [`LevelError`], the one error type of level loading: a problem located the way a compiler
//! locates one, and its display.

use std::fmt;
use std::path::{Path, PathBuf};

use super::escape::{escape_for_display, needs_escape};
use super::excerpt::is_wide;

/// A problem with a level file, located the way a compiler locates one.
///
/// Displayed as `path:line:col: error: message`, followed by the offending source line with a
/// caret under the column, and a hint when there is one:
///
/// ```text
/// levels/vault.ron:3:5: error: unknown field `lgend`
///   |     lgend: { 'x': Wall },
///   |     ^
///   = hint: did you mean `legend`?
/// ```
///
/// Every piece of the level's text in it (values quoted in the message, the source line) is
/// escaped with [`escape_for_display`] and shortened, so printing an error is safe and cheap
/// whatever the file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    /// The file, as given to [`load`](super::load) or [`parse`](super::parse).
    pub path: PathBuf,
    /// 1-based line, or 0 when the problem is the file as a whole (missing, a directory, ...).
    /// Lines end at `\n`, `\r\n` or a lone `\r`.
    pub line: usize,
    /// 1-based column in characters (a tab or an ideographic space is one), or 0 together with
    /// `line`.
    pub col: usize,
    /// What is wrong, in words a level author can act on.
    pub message: String,
    /// How to fix it, when there is something more useful to say than the message.
    pub hint: Option<String>,
    /// The text of line `line` as shown: escaped, tabs expanded to four spaces, and cut to a
    /// window around the column if long.
    pub source_line: Option<String>,
    /// How many characters of `source_line` come before the column; the caret stands under the
    /// next one (see [`caret_line`](Self::caret_line)).
    pub caret_at: usize,
}

impl LevelError {
    /// Create an error about the file as a whole, with no position.
    pub fn whole_file(path: &Path, message: impl Into<String>) -> Self {
        LevelError {
            path: path.to_owned(),
            line: 0,
            col: 0,
            message: message.into(),
            hint: None,
            source_line: None,
            caret_at: 0,
        }
    }

    /// The line shown under `source_line`: blanks as wide as the characters before the column,
    /// then `^`. Whitespace such as an ideographic space is copied rather than blanked, so the
    /// caret lines up however wide the terminal draws it.
    pub fn caret_line(&self) -> Option<String> {
        let line = self.source_line.as_deref()?;
        let mut caret = String::new();
        for c in line.chars().take(self.caret_at) {
            if c.is_whitespace() && !needs_escape(c) {
                caret.push(c);
            } else if is_wide(c) {
                caret.push_str("  ");
            } else {
                caret.push(' ');
            }
        }
        caret.push('^');
        Some(caret)
    }

    /// The first line of the display form: `path:line:col: error: message`.
    pub fn headline(&self) -> String {
        let line = if self.line == 0 {
            format!("{}: error: {}", self.path.display(), self.message)
        } else {
            format!(
                "{}:{}:{}: error: {}",
                self.path.display(),
                self.line,
                self.col,
                self.message
            )
        };
        // The message is escaped where it is made; this keeps a path or a hand-built error from
        // breaking the line too (escaping twice changes nothing).
        escape_for_display(&line).into_owned()
    }

    pub(crate) fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.headline())?;
        if let Some(line) = &self.source_line {
            write!(f, "\n  | {}", escape_for_display(line))?;
            if let Some(caret) = self.caret_line() {
                write!(f, "\n  | {}", escape_for_display(&caret))?;
            }
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n  = hint: {}", escape_for_display(hint))?;
        }
        Ok(())
    }
}

impl std::error::Error for LevelError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_compiler_style() {
        let err = LevelError {
            path: "a.ron".into(),
            line: 2,
            col: 5,
            message: "boom".into(),
            hint: Some("fix it".into()),
            source_line: Some("  x".into()),
            caret_at: 2,
        };
        assert_eq!(
            err.to_string(),
            "a.ron:2:5: error: boom\n  |   x\n  |   ^\n  = hint: fix it"
        );
    }
}
