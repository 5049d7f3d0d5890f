//! [`Reporter`]: builds the positioned errors of one level file, quoting its line with a caret.

use std::path::Path;

use super::error::LevelError;
use super::excerpt::source_excerpt;
use super::spans::Spans;

/// Builds positioned errors for one file.
pub(crate) struct Reporter<'a> {
    pub path: &'a Path,
    pub spans: &'a Spans<'a>,
}

impl Reporter<'_> {
    /// An error at byte offset `offset` of the text, quoting its line (unless blank) with a
    /// caret.
    pub fn at(&self, offset: usize, message: impl Into<String>) -> LevelError {
        let pos = self.spans.pos(offset);
        let (source_line, caret_at) = self
            .spans
            .line_text(pos.line)
            .filter(|line| !line.trim().is_empty())
            .map(|line| source_excerpt(line, pos.col))
            .unzip();
        LevelError {
            path: self.path.to_owned(),
            line: pos.line,
            col: pos.col,
            message: message.into(),
            hint: None,
            source_line,
            caret_at: caret_at.unwrap_or(0),
        }
    }
}
