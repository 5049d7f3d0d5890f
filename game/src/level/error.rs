//! `LevelError`, the one error type of level loading, and the translation of ron's errors into it.

use std::fmt;
use std::path::{Path, PathBuf};

use super::spans::{Pos, Spans};

/// A problem with a level file, located the way a compiler locates one.
///
/// Displayed as `path:line:col: error: message`, followed by the offending source line and a
/// hint when there are any:
///
/// ```text
/// levels/vault.ron:3:9: error: unknown field `lgend`
///   |     lgend: { 'x': Wall },
///   = hint: did you mean `legend`?
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    /// The file, as given to [`load`](super::load) or [`parse`](super::parse).
    pub path: PathBuf,
    /// 1-based line, or 0 when the problem is the file as a whole (missing, a directory, ...).
    pub line: usize,
    /// 1-based column in characters, or 0 together with `line`.
    pub col: usize,
    /// What is wrong, in words a level author can act on.
    pub message: String,
    /// How to fix it, when there is something more useful to say than the message.
    pub hint: Option<String>,
    /// The text of line `line`, without its line break (shortened if very long).
    pub source_line: Option<String>,
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
        }
    }

    /// The first line of the display form: `path:line:col: error: message`.
    pub fn headline(&self) -> String {
        if self.line == 0 {
            format!("{}: error: {}", self.path.display(), self.message)
        } else {
            format!(
                "{}:{}:{}: error: {}",
                self.path.display(),
                self.line,
                self.col,
                self.message
            )
        }
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
            write!(f, "\n  | {line}")?;
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n  = hint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LevelError {}

/// Hint for a file that holds no level at all (empty, or only comments).
pub(crate) const LEVEL_SHAPE_HINT: &str =
    "a level looks like `(name: \"...\", map: [\"#####\", \"#@.c#\", \"#####\"])`";
/// Message for a file that stops before its level does.
const END_OF_FILE: &str = "unexpected end of file";
/// Hint that goes with [`END_OF_FILE`].
const TRUNCATED_HINT: &str = "the file looks truncated: check for a missing `)`, `]` or `}`";

/// Longest source line quoted in an error; map rows can be 1024 characters wide.
const MAX_QUOTED_CHARS: usize = 120;

/// Builds positioned errors for one file.
pub(crate) struct Reporter<'a> {
    pub path: &'a Path,
    pub spans: &'a Spans<'a>,
}

impl Reporter<'_> {
    /// An error at byte offset `offset` of the text.
    pub fn at(&self, offset: usize, message: impl Into<String>) -> LevelError {
        self.at_pos(self.spans.pos(offset), message)
    }

    /// An error at a line and column.
    pub fn at_pos(&self, pos: Pos, message: impl Into<String>) -> LevelError {
        LevelError {
            path: self.path.to_owned(),
            line: pos.line,
            col: pos.col,
            message: message.into(),
            hint: None,
            source_line: self
                .spans
                .line_text(pos.line)
                .map(|line| quote(line, pos.col)),
        }
    }

    /// Translate ron's error into ours, keeping its position.
    pub fn ron(&self, err: &ron::error::SpannedError) -> LevelError {
        use ron::error::Error as E;
        // ron's span runs from the token before the problem to where the parser stopped; for
        // identifiers (unknown/duplicate fields, variants) the start is the identifier itself.
        let end = Pos {
            line: err.span.end.line.max(1),
            col: err.span.end.col.max(1),
        };
        // ron's span starts before the whitespace that precedes the offending token.
        let start = self.spans.skip_whitespace(Pos {
            line: err.span.start.line.max(1),
            col: err.span.start.col.max(1),
        });
        // "Expected X" where the file simply stops is better told as the file stopping.
        let expected_more = matches!(
            err.code,
            E::Eof
                | E::ExpectedComma
                | E::ExpectedArrayEnd
                | E::ExpectedMapEnd
                | E::ExpectedStructLikeEnd
                | E::ExpectedOptionEnd
                | E::ExpectedMapColon
                | E::ExpectedString
                | E::ExpectedArray
                | E::ExpectedMap
                | E::ExpectedStructLike
                | E::ExpectedNamedStructLike(_)
                | E::ExpectedIdentifier
                | E::ExpectedInteger
                | E::ExpectedBoolean
                | E::ExpectedChar
        );
        let at_end = start.is_none() || self.spans.skip_whitespace(end).is_none();
        let start = match start {
            Some(start) if !(expected_more && at_end) => start,
            _ => {
                // Nothing but whitespace follows: whatever ron expected, the file ended first.
                let (message, hint) = match err.code {
                    E::ExpectedNamedStructLike(_) => (
                        "the file holds no level, only comments and blank lines",
                        LEVEL_SHAPE_HINT,
                    ),
                    _ => (END_OF_FILE, TRUNCATED_HINT),
                };
                return self.at_pos(self.spans.end(), message).with_hint(hint);
            }
        };
        let (pos, message, hint) = match &err.code {
            E::NoSuchStructField {
                expected, found, ..
            } => (
                start,
                format!("unknown field `{found}`"),
                Some(suggest(found, expected.iter().copied()).map_or_else(
                    || format!("expected one of {}", list(expected)),
                    |near| format!("did you mean `{near}`?"),
                )),
            ),
            E::MissingStructField { field, outer } => (
                end,
                format!("missing field `{field}`{}", in_what(outer.as_deref())),
                Some(match *field {
                    "name" => "every level needs `name: \"...\"` and `map: [...]`".to_owned(),
                    "map" => "every level needs `map: [...]`, one string per row".to_owned(),
                    "at" => "a crate override needs `at: (column, row)`".to_owned(),
                    other => format!("add `{other}: ...`"),
                }),
            ),
            E::DuplicateStructField { field, outer } => (
                start,
                format!(
                    "field `{field}` is given twice{}",
                    in_what(outer.as_deref())
                ),
                Some("remove one of them".to_owned()),
            ),
            E::NoSuchEnumVariant {
                expected, found, ..
            } => (
                start,
                format!("unknown legend kind `{found}`"),
                Some(suggest(found, expected.iter().copied()).map_or_else(
                    || {
                        "expected one of `Wall`, `Floor`, `Void`, `Coin`, `Crate(health: N, \
                         skin: \"...\", coin: true)`"
                            .to_owned()
                    },
                    |near| format!("did you mean `{near}`?"),
                )),
            ),
            E::ExceededRecursionLimit => (
                start,
                "brackets are nested too deeply".to_owned(),
                Some(
                    "a level nests brackets at most four deep; check for unclosed `(` or `[`"
                        .to_owned(),
                ),
            ),
            E::Eof => (end, END_OF_FILE.to_owned(), Some(TRUNCATED_HINT.to_owned())),
            E::ExpectedStringEnd => (
                start,
                "string is never closed".to_owned(),
                Some("add the closing `\"`".to_owned()),
            ),
            E::UnclosedBlockComment => (
                start,
                "block comment is never closed".to_owned(),
                Some("add the closing `*/`".to_owned()),
            ),
            E::TrailingCharacters => (
                start,
                "unexpected text after the end of the level".to_owned(),
                Some("a level file holds one `( ... )`; remove what follows it".to_owned()),
            ),
            E::ExpectedComma => (
                start,
                "expected `,` before this".to_owned(),
                Some("separate fields and list items with `,`".to_owned()),
            ),
            E::UnexpectedChar(c) => (start, format!("unexpected character {c:?}"), None),
            E::ExpectedString => (start, "expected a string in double quotes".to_owned(), None),
            E::ExpectedInteger => (start, "expected a whole number".to_owned(), None),
            E::IntegerOutOfBounds => (start, "number is out of range".to_owned(), None),
            E::ExpectedBoolean => (start, "expected `true` or `false`".to_owned(), None),
            E::ExpectedArray => (start, "expected a list `[ ... ]`".to_owned(), None),
            E::ExpectedMap => (start, "expected a map `{ ... }`".to_owned(), None),
            E::ExpectedNamedStructLike("Level") => (
                start,
                "expected `(` to start the level".to_owned(),
                Some(
                    "a level file holds one `( ... )` with at least `name` and `map`; see \
                     levels/README.md"
                        .to_owned(),
                ),
            ),
            E::InvalidValueForType { expected, found } => {
                (start, format!("expected {expected}, found {found}"), None)
            }
            other => (start, lowercase_first(&other.to_string()), None),
        };
        let mut error = self.at_pos(pos, message);
        error.hint = hint;
        error
    }
}

/// ron's default, which [`parse`](super::parse) keeps on explicitly. ron spends about two units
/// per bracket, so this stops at roughly 64 nested brackets, far beyond any real level.
pub(crate) const RECURSION_LIMIT: usize = 128;

fn in_what(outer: Option<&str>) -> String {
    match outer {
        Some("Level") | None => String::new(),
        Some("CrateOverride") => " in crate override".to_owned(),
        Some(other) => format!(" in `{other}`"),
    }
}

fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A window of `line` around column `col`, so a 1000-character map row stays readable.
fn quote(line: &str, col: usize) -> String {
    let len = line.chars().count();
    if len <= MAX_QUOTED_CHARS {
        return line.to_owned();
    }
    let from = col
        .saturating_sub(MAX_QUOTED_CHARS / 2)
        .min(len - MAX_QUOTED_CHARS);
    let window: String = line.chars().skip(from).take(MAX_QUOTED_CHARS).collect();
    let before = if from > 0 { "..." } else { "" };
    let after = if from + MAX_QUOTED_CHARS < len {
        "..."
    } else {
        ""
    };
    format!("{before}{window}{after}")
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
pub(crate) fn suggest<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let limit = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Levenshtein distance counting a swap of two neighbours as one edit.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the dynamic-programming table: two back, one back, current.
    let mut two_back = vec![0; b.len() + 1];
    let mut one_back: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (one_back[j] + 1)
                .min(current[j - 1] + 1)
                .min(one_back[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(two_back[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut two_back, &mut one_back);
        std::mem::swap(&mut one_back, &mut current);
    }
    one_back[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_typos() {
        assert_eq!(edit_distance("lgend", "legend"), 1);
        assert_eq!(edit_distance("helath", "health"), 1);
        assert_eq!(edit_distance("crate", "crate"), 0);
        assert_eq!(edit_distance("", "map"), 3);
    }

    #[test]
    fn suggestions_ignore_distant_words() {
        assert_eq!(suggest("lgend", ["name", "map", "legend"]), Some("legend"));
        assert_eq!(suggest("zzzzzz", ["name", "map", "legend"]), None);
    }

    #[test]
    fn display_is_compiler_style() {
        let err = LevelError {
            path: "a.ron".into(),
            line: 2,
            col: 5,
            message: "boom".into(),
            hint: Some("fix it".into()),
            source_line: Some("  x".into()),
        };
        assert_eq!(
            err.to_string(),
            "a.ron:2:5: error: boom\n  |   x\n  = hint: fix it"
        );
    }
}
