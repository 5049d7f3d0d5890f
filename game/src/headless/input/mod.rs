//! Where the player's input comes from: the keyboard, nothing, the built-in bot, or an input
//! script, a text file of held keys per stretch of steps that makes a run repeatable.
//!
//! ```text
//! # Walk up for half a second, then right, then swing twice.
//! 30 up
//! 30 right
//! 10 attack
//! 10
//! 10 attack
//! ```
//!
//! Each line is `STEPS [KEY ...]`: hold those keys (`up`, `down`, `left`, `right`, `attack`)
//! for that many simulation steps (60 per second), then go on with the next line. A line with
//! no keys holds nothing; `#` starts a comment. After the last line nothing is held.

pub(crate) mod key_line;
pub mod menu;
pub mod pad;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::fsutil::{BoundedReadError, read_bounded};
use crate::sim::Input;

/// The largest input script read, in bytes: a script is typed by a person or written by a tool,
/// and a megabyte is tens of thousands of lines.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// Who plays, as named on the command line (`keyboard`, `idle`, `bot` or `script:FILE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputSpec {
    /// The keyboard (only in a window).
    Keyboard,
    /// No input at all: everything idles.
    Idle,
    /// The simulation's built-in bot walks to crates and smashes them.
    Bot,
    /// An input script file.
    Script(PathBuf),
}

impl InputSpec {
    /// The name used on the command line and in reports (`script` for any script).
    pub fn name(&self) -> &'static str {
        match self {
            InputSpec::Keyboard => "keyboard",
            InputSpec::Idle => "idle",
            InputSpec::Bot => "bot",
            InputSpec::Script(_) => "script",
        }
    }

    /// Read the script, if this names one, and give the input source.
    ///
    /// # Errors
    /// An [`InputScriptError`] naming the file, line and column to fix.
    pub fn load(&self) -> Result<InputSource, InputScriptError> {
        Ok(match self {
            InputSpec::Keyboard => InputSource::Keyboard,
            InputSpec::Idle => InputSource::Idle,
            InputSpec::Bot => InputSource::Bot,
            InputSpec::Script(path) => InputSource::Script(InputScript::load(path)?),
        })
    }
}

/// `--input` named no known source.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown input `{}` (expected keyboard, idle, bot or script:FILE)", crate::level::escape_for_display(.0))]
pub struct UnknownInput(pub String);

impl FromStr for InputSpec {
    type Err = UnknownInput;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "keyboard" => Ok(InputSpec::Keyboard),
            "idle" => Ok(InputSpec::Idle),
            "bot" => Ok(InputSpec::Bot),
            _ => match s.strip_prefix("script:") {
                Some(path) if !path.is_empty() => Ok(InputSpec::Script(PathBuf::from(path))),
                _ => Err(UnknownInput(s.to_owned())),
            },
        }
    }
}

impl InputSpec {
    /// Parse a command-line value that need not be UTF-8: `script:` followed by any file name
    /// the platform allows (as `--level` takes one), or one of the named sources.
    ///
    /// # Errors
    /// [`UnknownInput`], showing the value with its bytes that are not UTF-8 replaced.
    pub fn from_os(value: std::ffi::OsString) -> Result<Self, UnknownInput> {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::{OsStrExt, OsStringExt};
            if let Some(path) = value.as_bytes().strip_prefix(b"script:")
                && !path.is_empty()
            {
                let path = std::ffi::OsString::from_vec(path.to_vec());
                return Ok(InputSpec::Script(PathBuf::from(path)));
            }
        }
        match value.to_str() {
            Some(text) => text.parse(),
            None => Err(UnknownInput(value.to_string_lossy().into_owned())),
        }
    }
}

impl fmt::Display for InputSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputSpec::Script(path) => write!(f, "script:{}", path.display()),
            other => f.write_str(other.name()),
        }
    }
}

/// A loaded input source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputSource {
    /// The keyboard (read by the window each frame).
    Keyboard,
    /// No input.
    Idle,
    /// The simulation's bot.
    Bot,
    /// A script.
    Script(InputScript),
    /// A replay's recorded inputs (`crate-room replay FILE`).
    Replay(std::sync::Arc<crate::replay::Replay>),
}

impl InputSource {
    /// Whether the simulation's bot system should produce the input.
    pub fn is_bot(&self) -> bool {
        matches!(self, InputSource::Bot)
    }

    /// The input for simulation step `step` (counted from 0) from a source that needs no
    /// device: the script's line or the replay's input for that step, or nothing. The keyboard and the bot give
    /// nothing here; the window reads the one and the simulation runs the other.
    pub fn scripted_input(&self, step: u64) -> Input {
        match self {
            InputSource::Script(script) => script.input_at(step),
            InputSource::Replay(replay) => replay.input_at(step),
            _ => Input::default(),
        }
    }
}

/// A parsed input script: stretches of held keys, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputScript {
    /// `(first step after this stretch, input held)`, ends strictly increasing.
    stretches: Vec<(u64, Input)>,
}

/// Why a text file of lines the game reads (an input script, a replay) could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TextFileError {
    /// The file could not be read (missing, not a regular file, too large, not UTF-8).
    #[error("{path}: cannot read the {what}: {message}")]
    Read {
        /// The file.
        path: String,
        /// What kind of file it should be (`input script`, `replay`).
        what: &'static str,
        /// Why.
        message: String,
    },
    /// A line is malformed (in an input script, not `STEPS [KEY ...]`).
    #[error("{path}:{line}:{column}: error: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// What is wrong and what would be right.
        message: String,
    },
}

/// Why an input script could not be used.
pub type InputScriptError = TextFileError;

impl InputScript {
    /// Read and parse the script at `path`.
    ///
    /// # Errors
    /// If the file is not a readable regular file of at most [`MAX_SCRIPT_BYTES`], or a line is
    /// malformed.
    pub fn load(path: &Path) -> Result<Self, InputScriptError> {
        let shown = crate::level::escape_for_display(&path.display().to_string()).into_owned();
        let read_error = |message: String| InputScriptError::Read {
            path: shown.clone(),
            what: "input script",
            message,
        };
        let bytes = read_bounded(path, MAX_SCRIPT_BYTES).map_err(|e| match e {
            BoundedReadError::TooLarge { .. } => read_error(format!(
                "the file is more than the {MAX_SCRIPT_BYTES} bytes an input script may have"
            )),
            BoundedReadError::Io(e) => read_error(e.to_string()),
        })?;
        let text = String::from_utf8(bytes).map_err(|_| read_error("not UTF-8 text".into()))?;
        Self::parse(&text).map_err(|(line, column, message)| InputScriptError::Syntax {
            path: shown,
            line,
            column,
            message,
        })
    }

    /// Parse script text. On error gives `(line, column, message)`, 1-based.
    ///
    /// # Errors
    /// At the first malformed line.
    pub fn parse(text: &str) -> Result<Self, (usize, usize, String)> {
        let mut stretches = Vec::new();
        let mut end = 0u64;
        for (i, raw) in crate::text_lines::lines(text).enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let mut words = key_line::words(line);
            let Some((col, count)) = words.next() else {
                continue;
            };
            let steps = key_line::parse_number(count, u64::MAX, key_line::STEPS)
                .map_err(|m| (i + 1, col, m))?;
            let input = key_line::parse_keys(words).map_err(|(col, m)| (i + 1, col, m))?;
            if steps == 0 {
                continue;
            }
            end = end.checked_add(steps).ok_or_else(|| {
                (
                    i + 1,
                    col,
                    "the script is longer than 2^64 steps".to_string(),
                )
            })?;
            stretches.push((end, input));
        }
        Ok(Self { stretches })
    }

    /// The input held at `step` (counted from 0); nothing after the script's end.
    pub fn input_at(&self, step: u64) -> Input {
        let i = self.stretches.partition_point(|&(end, _)| end <= step);
        self.stretches
            .get(i)
            .map_or_else(Input::default, |&(_, input)| input)
    }

    /// Steps the script covers.
    pub fn len(&self) -> u64 {
        self.stretches.last().map_or(0, |&(end, _)| end)
    }

    /// Whether the script holds nothing at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An input holding direction (`move_x`, `move_y`) and, if `attack`, the attack key: the
/// tests' shorthand.
#[cfg(test)]
pub(crate) fn held(move_x: i8, move_y: i8, attack: bool) -> Input {
    Input {
        move_x,
        move_y,
        attack,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretches_follow_each_other_and_nothing_is_held_after_the_end() {
        let s = InputScript::parse("# walk\n3 up\n\n2 right attack  # swing\n1\n2 left down\n")
            .unwrap();
        assert_eq!(s.len(), 8);
        let inputs: Vec<Input> = (0..10).map(|step| s.input_at(step)).collect();
        assert_eq!(
            inputs,
            [
                held(0, -1, false),
                held(0, -1, false),
                held(0, -1, false),
                held(1, 0, true),
                held(1, 0, true),
                held(0, 0, false),
                held(-1, 1, false),
                held(-1, 1, false),
                held(0, 0, false),
                held(0, 0, false),
            ]
        );
    }

    #[test]
    fn zero_steps_are_skipped_and_keys_follow_the_replays_rule() {
        let s = InputScript::parse("0 up\n1 left up\n").unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s.input_at(0), held(-1, -1, false));
        // One rule with replays: each key once, one key per axis.
        for (line, col) in [("20 up up", 7), ("20 up down", 7), ("1 left right", 8)] {
            let (at_line, at_col, message) = InputScript::parse(line).unwrap_err();
            assert_eq!((at_line, at_col), (1, col), "{line}: {message}");
        }
    }

    #[test]
    fn errors_point_at_the_word_to_fix() {
        assert_eq!(
            InputScript::parse("2 up\n  5 rigth\n").unwrap_err(),
            (
                2,
                5,
                "unknown key `rigth` (expected up, down, left, right or attack)".into()
            )
        );
        let (line, col, msg) = InputScript::parse("up 5").unwrap_err();
        assert_eq!((line, col), (1, 1));
        assert!(msg.contains("number of steps"), "{msg}");
        assert!(InputScript::parse("18446744073709551615 up\n1 up").is_err());
    }

    #[test]
    fn input_specs_parse_and_print() {
        for text in ["keyboard", "idle", "bot", "script:runs/a.txt"] {
            let spec: InputSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert!("script:".parse::<InputSpec>().is_err());
        let err = "bto".parse::<InputSpec>().unwrap_err().to_string();
        assert!(
            err.contains("`bto`") && err.contains("script:FILE"),
            "{err}"
        );
    }

    #[test]
    fn a_directory_is_not_a_script() {
        let err = InputScript::load(Path::new(".")).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }
}
