//! The translation of ron's errors into [`LevelError`]s a level author can act on: the
//! position moved to the mistake, the message reworded, and a hint.

use ron::error::Error as E;

use super::error::LevelError;
use super::escape::quoted_char;
use super::excerpt::{excerpt, excerpt_of};
use super::format::RepeatedOverride;
use super::reporter::Reporter;
use super::spans::{Spans, Step};
use super::spelling::suggest;

/// Longest message of ron's own quoted whole (it can embed a value from the file), in characters.
const MAX_RON_MESSAGE_CHARS: usize = 120;

/// Hint for a file that holds no level at all (empty, or only comments).
pub(crate) const LEVEL_SHAPE_HINT: &str =
    "a level looks like `(name: \"...\", map: [\"#####\", \"#@.c#\", \"#####\"])`";
/// Message for a file that stops before its level does.
const END_OF_FILE: &str = "unexpected end of file";
/// Hint that goes with [`END_OF_FILE`].
const TRUNCATED_HINT: &str = "the file looks truncated: check for a missing `)`, `]` or `}`";

/// ron's default, which [`parse`](super::parse) keeps on explicitly. ron spends about two units
/// per bracket, so this stops at roughly 64 nested brackets, far beyond any real level.
pub(crate) const RECURSION_LIMIT: usize = 128;

/// Where in the text ron's error lies, as byte offsets.
#[derive(Clone, Copy, Debug)]
struct RonSpan {
    /// The first token of the problem (ron's span start, past the whitespace before it);
    /// `None` when only whitespace follows it.
    start: Option<usize>,
    /// Where the parser stopped.
    end: usize,
}

impl RonSpan {
    /// ron's span of `err` in `spans`' text.
    fn of(err: &ron::error::SpannedError, spans: &Spans<'_>) -> Self {
        // ron's span runs from the token before the problem to where the parser stopped; for
        // identifiers (unknown/duplicate fields, variants) the start is the identifier itself.
        // ron counts lines at `\n` only; offsets let ours count `\r` too.
        let end = spans.ron_offset(err.span.end.line, err.span.end.col);
        // ron's span starts before the whitespace that precedes the offending token.
        let start =
            spans.skip_whitespace(spans.ron_offset(err.span.start.line, err.span.start.col));
        Self { start, end }
    }

    /// The start, or the end when only whitespace follows the start.
    fn start_or_end(self) -> usize {
        self.start.unwrap_or(self.end)
    }
}

/// Which end of [`RonSpan`] an error is reported at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    /// The offending token.
    Start,
    /// Where the parser stopped (a missing field is missed at the closing bracket).
    End,
}

/// A ron error as told to a level author: where, what, and how to fix it.
#[derive(Clone, Debug)]
struct Translation {
    anchor: Anchor,
    message: String,
    hint: Option<String>,
}

impl Translation {
    fn at_start(message: impl Into<String>, hint: Option<&str>) -> Self {
        Self {
            anchor: Anchor::Start,
            message: message.into(),
            hint: hint.map(str::to_owned),
        }
    }
}

impl Reporter<'_> {
    /// Translate ron's error into ours, keeping its position.
    pub fn ron(&self, err: &ron::error::SpannedError) -> LevelError {
        let span = RonSpan::of(err, self.spans);
        if let E::Message(message) = &err.code
            && let Some(repeat) = RepeatedOverride::from_message(message)
        {
            return self.repeated_override(repeat);
        }
        if is_syntax(&err.code)
            && let Some(error) = self
                .runaway_string(span)
                .or_else(|| self.unusual_space(span))
        {
            return error;
        }
        let at_end = span.start.is_none() || self.spans.skip_whitespace(span.end).is_none();
        let start = match span.start {
            Some(start) if !(expects_more(&err.code) && at_end) => start,
            // Nothing but whitespace follows: whatever ron expected, the file ended first.
            _ => return self.file_ended(&err.code),
        };
        let translation = translate(&err.code);
        let at = match translation.anchor {
            Anchor::Start => start,
            Anchor::End => span.end,
        };
        let mut error = self.at(at, translation.message);
        error.hint = translation.hint;
        error
    }

    /// A string missing its closing quote swallows what follows up to the next quote, and ron
    /// stumbles somewhere after it: the mistake is where the string starts.
    fn runaway_string(&self, span: RonSpan) -> Option<LevelError> {
        let runaway = self.spans.runaway_string(span.start_or_end())?;
        let hint = match runaway.closes {
            Some(close) => format!(
                "add the closing `\"`; as written, this string runs on to line {}",
                self.spans.pos(close).line
            ),
            None => "add the closing `\"`".to_owned(),
        };
        Some(
            self.at(runaway.start, "string is never closed")
                .with_hint(hint),
        )
    }

    /// A no-break or ideographic space looks like a space but is not one to RON.
    fn unusual_space(&self, span: RonSpan) -> Option<LevelError> {
        let c = self.spans.text_at(span.start?).chars().next()?;
        c.is_whitespace().then(|| {
            self.at(
                span.start_or_end(),
                format!(
                    "unexpected character U+{:04X}, a space that RON does not accept",
                    u32::from(c)
                ),
            )
            .with_hint("replace it with an ordinary space")
        })
    }

    /// The file ends where ron expected more: told as the file stopping (or holding no level).
    fn file_ended(&self, code: &E) -> LevelError {
        let (message, hint) = match code {
            E::ExpectedNamedStructLike(_) => (
                "the file holds no level, only comments and blank lines",
                LEVEL_SHAPE_HINT,
            ),
            _ => (END_OF_FILE, TRUNCATED_HINT),
        };
        self.at(self.spans.end(), message).with_hint(hint)
    }

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

/// Whether `code` is about the text's syntax rather than the level's shape or values.
fn is_syntax(code: &E) -> bool {
    !matches!(
        code,
        E::NoSuchStructField { .. }
            | E::MissingStructField { .. }
            | E::DuplicateStructField { .. }
            | E::NoSuchEnumVariant { .. }
            | E::InvalidValueForType { .. }
            | E::IntegerOutOfBounds
            | E::ExceededRecursionLimit
            | E::Message(_)
    )
}

/// Whether `code` says ron expected more text: where the file simply stops, that is better
/// told as the file stopping.
fn expects_more(code: &E) -> bool {
    matches!(
        code,
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
    )
}

/// How `code` is told, where the file goes on past it.
fn translate(code: &E) -> Translation {
    shape_error(code)
        .or_else(|| syntax_error(code))
        .unwrap_or_else(|| value_error(code))
}

/// Errors in the level's shape: unknown, missing or repeated fields, unknown legend kinds.
fn shape_error(code: &E) -> Option<Translation> {
    Some(match code {
        E::NoSuchStructField {
            expected, found, ..
        } => Translation {
            anchor: Anchor::Start,
            message: format!("unknown field `{}`", excerpt(found)),
            hint: Some(suggest(found, expected.iter().copied()).map_or_else(
                || format!("expected one of {}", list(expected)),
                |near| format!("did you mean `{near}`?"),
            )),
        },
        E::MissingStructField { field, outer } => Translation {
            anchor: Anchor::End,
            message: format!("missing field `{field}`{}", in_what(outer.as_deref())),
            hint: Some(missing_field_hint(field)),
        },
        E::DuplicateStructField { field, outer } => Translation::at_start(
            format!(
                "field `{field}` is given twice{}",
                in_what(outer.as_deref())
            ),
            Some("remove one of them"),
        ),
        E::NoSuchEnumVariant {
            expected, found, ..
        } => Translation {
            anchor: Anchor::Start,
            message: format!("unknown legend kind `{}`", excerpt(found)),
            hint: Some(suggest(found, expected.iter().copied()).map_or_else(
                || {
                    "expected one of `Wall`, `Floor`, `Void`, `Coin`, `Crate(health: N, \
                     skin: \"...\", coin: true)`"
                        .to_owned()
                },
                |near| format!("did you mean `{near}`?"),
            )),
        },
        _ => return None,
    })
}

/// How to add the missing field `field`.
fn missing_field_hint(field: &str) -> String {
    match field {
        "name" => "every level needs `name: \"...\"` and `map: [...]`".to_owned(),
        "map" => "every level needs `map: [...]`, one string per row".to_owned(),
        "at" => "a crate override needs `at: (column, row)`".to_owned(),
        "gold" | "silver" | "bronze" => "par times give all three medals, e.g. \
             `par: (gold: 30, silver: 45, bronze: 70)`"
            .to_owned(),
        other => format!("add `{other}: ...`"),
    }
}

/// Errors in the text's syntax: brackets, strings, comments, commas, stray characters.
fn syntax_error(code: &E) -> Option<Translation> {
    Some(match code {
        E::ExceededRecursionLimit => Translation::at_start(
            "brackets are nested too deeply",
            Some("a level nests brackets at most four deep; check for unclosed `(` or `[`"),
        ),
        E::Eof => Translation {
            anchor: Anchor::End,
            message: END_OF_FILE.to_owned(),
            hint: Some(TRUNCATED_HINT.to_owned()),
        },
        E::ExpectedStringEnd => {
            Translation::at_start("string is never closed", Some("add the closing `\"`"))
        }
        E::UnclosedBlockComment => Translation::at_start(
            "block comment is never closed",
            Some("add the closing `*/`"),
        ),
        E::TrailingCharacters => Translation::at_start(
            "unexpected text after the end of the level",
            Some("a level file holds one `( ... )`; remove what follows it"),
        ),
        E::ExpectedComma => Translation::at_start(
            "expected `,` before this",
            Some("separate fields and list items with `,`"),
        ),
        E::UnexpectedChar(c) => {
            Translation::at_start(format!("unexpected character {}", quoted_char(*c)), None)
        }
        E::ExpectedNamedStructLike("Level") => Translation::at_start(
            "expected `(` to start the level",
            Some(
                "a level file holds one `( ... )` with at least `name` and `map`; see \
                 levels/README.md",
            ),
        ),
        _ => return None,
    })
}

/// Errors in a value: the wrong type, out of range; anything else in ron's own words.
fn value_error(code: &E) -> Translation {
    let message = match code {
        E::ExpectedString => "expected a string in double quotes".to_owned(),
        E::ExpectedInteger => "expected a whole number".to_owned(),
        E::ExpectedFloat => "expected a number of seconds, like `30` or `42.5`".to_owned(),
        E::IntegerOutOfBounds => "number is out of range".to_owned(),
        E::ExpectedBoolean => "expected `true` or `false`".to_owned(),
        E::ExpectedArray => "expected a list `[ ... ]`".to_owned(),
        E::ExpectedMap => "expected a map `{ ... }`".to_owned(),
        E::InvalidValueForType { expected, found } => {
            format!("expected {expected}, found {}", excerpt(found))
        }
        other => excerpt_of(&lowercase_first(&other.to_string()), MAX_RON_MESSAGE_CHARS),
    };
    Translation::at_start(message, None)
}

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
