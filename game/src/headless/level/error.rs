//! `LevelError`, the one error type of level loading; the translation of ron's errors into it;
//! and [`escape_for_display`], through which every piece of file text passes before it is shown.

use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use super::format::RepeatedOverride;
use super::spans::{Spans, Step};

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

/// Text from a level file, made safe to print on a terminal or on the in-game overlay.
///
/// Characters that would break a line, drive the terminal or hide and reorder text are written
/// as escapes: `\n`, `\r`, `\t`, `\0`, and `\u{1b}` style for ESC and every other control
/// character, the bidirectional overrides and isolates (`\u{202e}`), zero-width characters, the
/// line and paragraph separators and the byte-order mark. Everything else, a backslash included,
/// is kept as it is, so escaping twice changes nothing.
///
/// ```
/// use game::level::escape_for_display;
///
/// assert_eq!(escape_for_display("Crate Room"), "Crate Room");
/// assert_eq!(
///     escape_for_display("a\nb.ron:1:1: error: \u{1b}[31mforged\0"),
///     "a\\nb.ron:1:1: error: \\u{1b}[31mforged\\0"
/// );
/// assert_eq!(escape_for_display("\u{202e}gnp.exe"), "\\u{202e}gnp.exe");
/// ```
pub fn escape_for_display(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Whether `c` is shown as an escape rather than as itself.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'  // soft hyphen
            | '\u{061C}' // Arabic letter mark
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
            | '\u{180E}' // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}' // zero-width space, joiners, LRM, RLM
            | '\u{2028}'..='\u{202E}' // line and paragraph separators, bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates
            | '\u{FEFF}' // byte-order mark
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
            | '\u{E0000}'..='\u{E007F}' // tag characters
        )
}

fn push_escaped(out: &mut String, c: char) {
    use fmt::Write as _;
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\0' => out.push_str("\\0"),
        c if needs_escape(c) => {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
}

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

/// A character from the file as quoted in a message, written the way RON writes it: `'x'`,
/// `'\''`, `'\u{1b}'`.
pub(crate) fn quoted_char(c: char) -> String {
    let mut out = String::from("'");
    match c {
        '\'' => out.push_str("\\'"),
        '\\' => out.push_str("\\\\"),
        c => push_escaped(&mut out, c),
    }
    out.push('\'');
    out
}

/// Columns a character of a source line takes when shown, and what stands under it in the
/// caret line.
fn shown_width(c: char) -> usize {
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
fn is_wide(c: char) -> bool {
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
fn source_excerpt(line: &str, col: usize) -> (String, usize) {
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

/// Longest message of ron's own quoted whole (it can embed a value from the file), in characters.
const MAX_RON_MESSAGE_CHARS: usize = 120;

/// Hint for a file that holds no level at all (empty, or only comments).
pub(crate) const LEVEL_SHAPE_HINT: &str =
    "a level looks like `(name: \"...\", map: [\"#####\", \"#@.c#\", \"#####\"])`";
/// Message for a file that stops before its level does.
const END_OF_FILE: &str = "unexpected end of file";
/// Hint that goes with [`END_OF_FILE`].
const TRUNCATED_HINT: &str = "the file looks truncated: check for a missing `)`, `]` or `}`";

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

    /// Translate ron's error into ours, keeping its position.
    pub fn ron(&self, err: &ron::error::SpannedError) -> LevelError {
        use ron::error::Error as E;
        let spans = self.spans;
        // ron's span runs from the token before the problem to where the parser stopped; for
        // identifiers (unknown/duplicate fields, variants) the start is the identifier itself.
        // ron counts lines at `\n` only; offsets let ours count `\r` too.
        let end = spans.ron_offset(err.span.end.line, err.span.end.col);
        // ron's span starts before the whitespace that precedes the offending token.
        let start =
            spans.skip_whitespace(spans.ron_offset(err.span.start.line, err.span.start.col));
        if let E::Message(message) = &err.code
            && let Some(repeat) = RepeatedOverride::from_message(message)
        {
            return self.repeated_override(repeat);
        }
        let syntax = !matches!(
            err.code,
            E::NoSuchStructField { .. }
                | E::MissingStructField { .. }
                | E::DuplicateStructField { .. }
                | E::NoSuchEnumVariant { .. }
                | E::InvalidValueForType { .. }
                | E::IntegerOutOfBounds
                | E::ExceededRecursionLimit
                | E::Message(_)
        );
        // A string missing its closing quote swallows what follows up to the next quote, and
        // ron stumbles somewhere after it: the mistake is where the string starts.
        if syntax && let Some(runaway) = spans.runaway_string(start.unwrap_or(end)) {
            let hint = match runaway.closes {
                Some(close) => format!(
                    "add the closing `\"`; as written, this string runs on to line {}",
                    spans.pos(close).line
                ),
                None => "add the closing `\"`".to_owned(),
            };
            return self
                .at(runaway.start, "string is never closed")
                .with_hint(hint);
        }
        // A no-break or ideographic space looks like a space but is not one to RON.
        if syntax
            && let Some(c) = start.and_then(|at| spans.text_at(at).chars().next())
            && c.is_whitespace()
        {
            return self
                .at(
                    start.unwrap_or(end),
                    format!(
                        "unexpected character U+{:04X}, a space that RON does not accept",
                        u32::from(c)
                    ),
                )
                .with_hint("replace it with an ordinary space");
        }
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
                | E::ExpectedFloat
                | E::ExpectedBoolean
                | E::ExpectedChar
        );
        let at_end = start.is_none() || spans.skip_whitespace(end).is_none();
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
                return self.at(spans.end(), message).with_hint(hint);
            }
        };
        let (at, message, hint) = match &err.code {
            E::NoSuchStructField {
                expected, found, ..
            } => (
                start,
                format!("unknown field `{}`", excerpt(found)),
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
                    "gold" | "silver" | "bronze" => "par times give all three medals, e.g. \
                         `par: (gold: 30, silver: 45, bronze: 70)`"
                        .to_owned(),
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
                format!("unknown legend kind `{}`", excerpt(found)),
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
            E::UnexpectedChar(c) => (
                start,
                format!("unexpected character {}", quoted_char(*c)),
                None,
            ),
            E::ExpectedString => (start, "expected a string in double quotes".to_owned(), None),
            E::ExpectedInteger => (start, "expected a whole number".to_owned(), None),
            E::ExpectedFloat => (
                start,
                "expected a number of seconds, like `30` or `42.5`".to_owned(),
                None,
            ),
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
            E::InvalidValueForType { expected, found } => (
                start,
                format!("expected {expected}, found {}", excerpt(found)),
                None,
            ),
            other => (
                start,
                excerpt_of(&lowercase_first(&other.to_string()), MAX_RON_MESSAGE_CHARS),
                None,
            ),
        };
        let mut error = self.at(at, message);
        error.hint = hint;
        error
    }
}

impl Reporter<'_> {
    /// The second of two crate overrides of one cell, where reading the file stopped.
    fn repeated_override(&self, repeat: RepeatedOverride) -> LevelError {
        let at = |index| {
            self.spans
                .nearest(&[Step::Field("crates"), Step::Item(index), Step::Field("at")])
        };
        let line = self.spans.pos(at(repeat.first)).line;
        let (x, y) = repeat.at;
        self.at(
            at(repeat.second),
            format!("second crate override for ({x}, {y})"),
        )
        .with_hint(format!("the first is on line {line}; merge them into one"))
    }
}

/// ron's default, which [`parse`](super::parse) keeps on explicitly. ron spends about two units
/// per bracket, so this stops at roughly 64 nested brackets, far beyond any real level.
pub(crate) const RECURSION_LIMIT: usize = 128;

fn in_what(outer: Option<&str>) -> String {
    match outer {
        Some("Level") | None => String::new(),
        Some("CrateOverride") => " in crate override".to_owned(),
        Some("Par") => " in par times".to_owned(),
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

/// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
pub(crate) fn suggest<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let len = word.chars().count();
    let limit = (len / 3).clamp(1, 3);
    candidates
        .into_iter()
        // Lengths further apart than the limit cannot be close; skipping them keeps a
        // megabyte-long word from costing a megabyte-sized table.
        .filter(|c| c.chars().count().abs_diff(len) <= limit)
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
            caret_at: 2,
        };
        assert_eq!(
            err.to_string(),
            "a.ron:2:5: error: boom\n  |   x\n  |   ^\n  = hint: fix it"
        );
    }

    #[test]
    fn escaping_leaves_no_control_character_and_is_idempotent() {
        let nasty = "a\nb\r\tc\0\u{1b}[2J\u{7f}\u{85}\u{202e}\u{2066}\u{200b}\u{feff}\u{e0041}\\n";
        let once = escape_for_display(nasty);
        assert_eq!(
            once,
            "a\\nb\\r\\tc\\0\\u{1b}[2J\\u{7f}\\u{85}\\u{202e}\\u{2066}\\u{200b}\\u{feff}\\u{e0041}\\n"
        );
        assert!(!once.chars().any(needs_escape));
        assert_eq!(escape_for_display(&once), once);
        assert!(matches!(escape_for_display("plain é 漢"), Cow::Borrowed(_)));
        for c in [
            '\n',
            '\0',
            '\u{1}',
            '\u{1b}',
            '\u{7f}',
            '\u{202e}',
            '\u{e0041}',
        ] {
            assert_eq!(
                shown_width(c),
                escape_for_display(&c.to_string()).len(),
                "{c:?}"
            );
        }
    }

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
