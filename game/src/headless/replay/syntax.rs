//! [`SyntaxError`]: where a replay file is malformed (line and column) and what is wrong there.

use std::fmt;

use super::limits::{CHECKPOINT_EVERY, MAGIC, MAX_FILE_BYTES, MAX_LEVEL_PATH_CHARS, VERSION};

/// The first problem in a replay's text: its 1-based line and column (in characters) and
/// what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: SyntaxErrorKind,
}

impl SyntaxError {
    /// The error of `kind` at `line`, `column`.
    pub(super) fn at(line: usize, column: usize, kind: SyntaxErrorKind) -> Self {
        Self { line, column, kind }
    }

    /// The message, without the position.
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.kind)
    }
}

impl std::error::Error for SyntaxError {}

/// What the file was cut short before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// The first line, `crate-room replay VERSION`.
    Header,
    /// The line that starts with (or is) this word.
    Line(&'static str),
}

/// What is wrong at a [`SyntaxError`]'s position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// The text is over [`MAX_FILE_BYTES`].
    TooLarge,
    /// The file ends before a line it must have.
    Truncated(Wanted),
    /// The first line is not the replay header.
    NotAReplay,
    /// The format version is older than this build reads.
    OlderVersion(u32),
    /// The format version is newer than this build reads.
    NewerVersion(u32),
    /// No version number after the magic words.
    MissingVersion,
    /// The level path is empty or too long.
    LevelPathLength,
    /// The level path holds a control character.
    LevelPathControl,
    /// The level path names no `.ron` file.
    LevelNotRon,
    /// A line other than the keyword line expected.
    ExpectedKeyword(&'static str),
    /// A line other than the `NAME VALUE` line expected.
    ExpectedField(&'static str),
    /// A header hash that is not 16 hexadecimal digits.
    ExpectedHash,
    /// A malformed count or key (the shared key-line reader's message).
    KeyLine(String),
    /// An empty line among the inputs.
    EmptyInputLine,
    /// A run of no steps.
    EmptyRun,
    /// The runs go past the header's step count.
    InputsPastEnd {
        /// Steps in the header.
        steps: u64,
    },
    /// The runs cover fewer steps than the header says.
    StepsMismatch {
        /// Steps in the header.
        steps: u64,
        /// Steps the runs cover.
        covered: u64,
    },
    /// A checkpoint line that is not `STEP HASH`.
    ExpectedCheckpoint,
    /// A checkpoint at or before the one before it.
    CheckpointOrder,
    /// A checkpoint at another step than the format puts the next one.
    CheckpointMisplaced {
        /// The step of the checkpoint that belongs here.
        expected: u64,
        /// Steps in the header.
        steps: u64,
    },
    /// A checkpoint hash that is not 16 hexadecimal digits.
    ExpectedStateHash,
    /// A non-blank line after `end`.
    TextAfterEnd,
    /// No checkpoint at the last step.
    NoFinalCheckpoint {
        /// Steps in the header.
        steps: u64,
    },
}

impl fmt::Display for Wanted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Wanted::Header => f.write_str("the replay header"),
            Wanted::Line(word) => write!(f, "the `{word}` line"),
        }
    }
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SyntaxErrorKind as K;
        match self {
            K::TooLarge => write!(
                f,
                "the text is over the {MAX_FILE_BYTES} bytes a replay may have"
            ),
            K::Truncated(wanted) => write!(f, "the file ends before {wanted}: truncated?"),
            K::NotAReplay => write!(f, "not a replay file (expected `{MAGIC} {VERSION}`)"),
            K::OlderVersion(other) => write!(
                f,
                "made by an older version of Crate Room (replay format version {other}; \
                 this build reads version {VERSION}, whose checkpoints hash the game \
                 differently): it cannot be played back or verified; record the run again"
            ),
            K::NewerVersion(other) => write!(
                f,
                "made by a newer version of Crate Room (replay format version {other}; \
                 this build reads version {VERSION})"
            ),
            K::MissingVersion => write!(f, "expected the format version after `{MAGIC}`"),
            K::LevelPathLength => write!(
                f,
                "the level path must have 1 to {MAX_LEVEL_PATH_CHARS} characters"
            ),
            K::LevelPathControl => f.write_str("a control character in the level path"),
            K::LevelNotRon => f.write_str("the level must be a `.ron` file"),
            K::ExpectedKeyword(word) => write!(f, "expected `{word}`"),
            K::ExpectedField(name) => write!(f, "expected `{name} ...`"),
            K::ExpectedHash => f.write_str("expected a 16-digit hexadecimal hash"),
            K::KeyLine(message) => f.write_str(message),
            K::EmptyInputLine => f.write_str("an empty line among the inputs"),
            K::EmptyRun => f.write_str("a run of 0 steps"),
            K::InputsPastEnd { steps } => {
                write!(f, "the inputs run past the {steps} steps the header says")
            }
            K::StepsMismatch { steps, covered } => write!(
                f,
                "the header says {steps} steps, the inputs cover {covered}"
            ),
            K::ExpectedCheckpoint => f.write_str("expected a checkpoint, `STEP HASH`"),
            K::CheckpointOrder => f.write_str("checkpoints must be in increasing step order"),
            K::CheckpointMisplaced { expected, steps } => write!(
                f,
                "expected the checkpoint of step {expected} here (one every \
                 {CHECKPOINT_EVERY} steps and one at the last step, {steps}); \
                 a checkpoint is missing or out of place"
            ),
            K::ExpectedStateHash => f.write_str("expected a 16-digit hexadecimal state hash"),
            K::TextAfterEnd => f.write_str("text after `end`"),
            K::NoFinalCheckpoint { steps } => {
                write!(f, "the last checkpoint must be at the last step, {steps}")
            }
        }
    }
}
