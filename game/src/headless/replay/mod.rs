//! Replays: a run's level, seed and every step's input, with checkpoint hashes of its state, so a
//! run can be watched again (`crate-room replay FILE`) or re-simulated and checked
//! (`crate-room replay FILE --verify`).
//!
//! A replay is a text file. Inputs are run-length encoded in the input script's
//! `STEPS [KEY ...]` form, so an hour of bot play (216,000 steps) is a few KB of inputs and two
//! replays diff line by line:
//!
//! ```text
//! crate-room replay 2
//! level levels/crate_room.ron
//! level-fnv1a64 5c1e0f6a2b7d9e43
//! seed 1
//! steps 1250
//! inputs
//! 14 right
//! 3 attack
//! 1233
//! checkpoints
//! 600 0b3f4c2a19d87e65
//! 1200 7a1d0e9c33b2f418
//! 1250 e4c2b1a0f9d83765
//! end
//! ```
//!
//! `level` is the level file as it was opened; `level-fnv1a64` the FNV-1a 64 hash of its
//! bytes, so a level edited since the recording is reported rather than replayed into a
//! different game. A checkpoint `N H` is the [`Sim::checkpoint_hash`] after step N (the game's
//! state without the camera, which follows the window's size, with its entities summed as they
//! change, so a checkpoint costs what changed rather than a walk over every entity): one every
//! [`CHECKPOINT_EVERY`] steps and one at the end. `end` closes the file, so a truncated copy is
//! told apart from a short run.
//!
//! A replay file is untrusted input, like a level: [`Replay::parse`] checks sizes before
//! allocating, never panics, and reports the line and column of the first problem.

pub mod verify_command;

use std::fmt::{self, Write as _};
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::atlas::AtlasData;
use crate::fsutil::{BoundedReadError, read_bounded};
use crate::input::key_line::{self, KeyWord};
use crate::sim::{Input, Sim};

/// The format version this build writes and reads. Version 2 checkpoints
/// [`Sim::checkpoint_hash`]; version 1 checkpointed the whole state hash (without the camera),
/// so its checkpoints cannot be compared and its files are refused as made by an older version.
pub const VERSION: u32 = 2;

/// Steps between two checkpoints: ten seconds of play.
pub const CHECKPOINT_EVERY: u64 = 600;

/// The largest replay file read: at one line of about 10 bytes per input change, 4 MiB is far
/// more than a day of play.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The longest run a replay may hold: a day at 60 steps per second (60 * 60 * 60 * 24).
/// Verifying it re-simulates every step, so the limit bounds the work a file can ask for.
pub const MAX_STEPS: u64 = 60 * 60 * 60 * 24;

/// The longest level path stored, in characters.
pub const MAX_LEVEL_PATH_CHARS: usize = 4096;

/// The first line of every replay file, before the version.
const MAGIC: &str = "crate-room replay";

/// A recorded run: what to load, and the input of every step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The level file as it was opened (a path, shown and looked up on playback).
    pub level_file: String,
    /// FNV-1a 64 of the level file's bytes.
    pub level_hash: u64,
    /// Seed of the simulation's randomness.
    pub seed: u64,
    /// `(steps, input)` runs, in order; no run is empty (the recorder also merges equal
    /// neighbours, which a file may split).
    inputs: Vec<(u64, Input)>,
    /// The first step after each run (cumulative counts), for [`Replay::input_at`].
    ends: Vec<u64>,
    /// `(step, checkpoint hash after that step)`, steps strictly increasing.
    checkpoints: Vec<(u64, u64)>,
}

/// FNV-1a 64 of `bytes`: how a replay names the exact level file it was recorded on.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Why a replay could not be read, written or verified.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The replay file could not be read (missing, not a regular file, too large, not UTF-8).
    #[error("{path}: cannot read the replay: {message}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// The replay file is malformed.
    #[error("{path}:{line}:{column}: error: {message}")]
    Syntax {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The replay's level file cannot be found or read.
    #[error("the replay's level {level}: {message}")]
    Level {
        /// The level as the replay names it.
        level: String,
        /// Why it cannot be used.
        message: String,
    },
    /// The level file's bytes are not those recorded.
    #[error(
        "the level {path} changed since the replay was recorded (its bytes hash to {found:016x}, the replay was recorded on {recorded:016x}); replaying it would be a different game"
    )]
    LevelChanged {
        /// The level file found.
        path: String,
        /// Hash in the replay.
        recorded: u64,
        /// Hash of the file now.
        found: u64,
    },
    /// The level loads no more (invalid, or the atlas lacks a clip).
    #[error(transparent)]
    Load(#[from] crate::sim::LoadError),
    /// The level's path cannot be written into a replay as it is, so the replay could never
    /// find its level again.
    #[error(
        "cannot record a replay of {path}: {reason}, which a replay cannot store; rename the level file or give it by another path"
    )]
    UnstorablePath {
        /// The path, escaped for display.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// A syntax error's position and message, before the file's path is attached.
type Positioned = (usize, usize, String);

impl Replay {
    /// An empty recording of `level_file` (its bytes `level_bytes`) with `seed`.
    pub fn new(level_file: &Path, level_bytes: &[u8], seed: u64) -> Self {
        Self {
            level_file: stored_path(level_file),
            level_hash: fnv1a64(level_bytes),
            seed,
            inputs: Vec::new(),
            ends: Vec::new(),
            checkpoints: Vec::new(),
        }
    }

    /// Steps the replay covers.
    pub fn steps(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// The input of step `step` (counted from 0); nothing after the end.
    pub fn input_at(&self, step: u64) -> Input {
        let i = self.ends.partition_point(|&end| end <= step);
        self.inputs
            .get(i)
            .map_or_else(Input::default, |&(_, input)| input)
    }

    /// The `(steps, input)` runs.
    pub fn runs(&self) -> &[(u64, Input)] {
        &self.inputs
    }

    /// The `(step, checkpoint hash)` checkpoints ([`Sim::checkpoint_hash`]).
    pub fn checkpoints(&self) -> &[(u64, u64)] {
        &self.checkpoints
    }

    /// Append one step's input.
    pub fn push_input(&mut self, input: Input) {
        let input = normalized(input);
        let end = self.steps() + 1;
        match self.inputs.last_mut() {
            Some((count, last)) if *last == input => {
                *count += 1;
                if let Some(e) = self.ends.last_mut() {
                    *e = end;
                }
            }
            _ => {
                self.inputs.push((1, input));
                self.ends.push(end);
            }
        }
    }

    /// Note the checkpoint hash after step `step` (ignored unless after the last checkpoint).
    pub fn push_checkpoint(&mut self, step: u64, hash: u64) {
        if self.checkpoints.last().is_none_or(|&(last, _)| last < step) {
            self.checkpoints.push((step, hash));
        }
    }

    /// Replace the input of step `step` (tests: a tampered replay). Does nothing past the end.
    pub fn set_input(&mut self, step: u64, input: Input) {
        if step >= self.steps() {
            return;
        }
        let all: Vec<Input> = (0..self.steps()).map(|s| self.input_at(s)).collect();
        let mut rebuilt = Replay {
            inputs: Vec::new(),
            ends: Vec::new(),
            checkpoints: self.checkpoints.clone(),
            level_file: self.level_file.clone(),
            ..*self
        };
        for (s, held) in all.into_iter().enumerate() {
            rebuilt.push_input(if s as u64 == step { input } else { held });
        }
        *self = rebuilt;
    }

    /// The replay as the text of a replay file.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(s, "{MAGIC} {VERSION}");
        let _ = writeln!(s, "level {}", self.level_file);
        let _ = writeln!(s, "level-fnv1a64 {:016x}", self.level_hash);
        let _ = writeln!(s, "seed {}", self.seed);
        let _ = writeln!(s, "steps {}", self.steps());
        s.push_str("inputs\n");
        for &(count, input) in &self.inputs {
            let _ = write!(s, "{count}");
            for key in KeyWord::held(input).map(KeyWord::name) {
                s.push(' ');
                s.push_str(key);
            }
            s.push('\n');
        }
        s.push_str("checkpoints\n");
        for &(step, hash) in &self.checkpoints {
            let _ = writeln!(s, "{step} {hash:016x}");
        }
        s.push_str("end\n");
        s
    }

    /// Write the replay to `path` through the game's output gate
    /// ([`crate::fsutil::write_atomic`]: atomic, never onto a FIFO, device or directory, never
    /// into a missing directory).
    ///
    /// # Errors
    /// If the file cannot be written; the message names `path` and says why.
    pub fn save(&self, path: &Path) -> Result<(), crate::fsutil::WriteError> {
        crate::fsutil::write_atomic(path, self.to_text().as_bytes())
    }

    /// Read and parse the replay file at `path`.
    ///
    /// # Errors
    /// [`ReplayError::Read`] if it is not a readable regular file of at most
    /// [`MAX_FILE_BYTES`] of UTF-8, [`ReplayError::Syntax`] at its first malformed line.
    pub fn load(path: &Path) -> Result<Self, ReplayError> {
        let shown = path.display().to_string();
        let read_error = |message: String| ReplayError::Read {
            path: shown.clone(),
            message,
        };
        let bytes = read_bounded(path, MAX_FILE_BYTES).map_err(|e| match e {
            BoundedReadError::TooLarge { size, .. } => read_error(match size {
                Some(size) => format!(
                    "the file is {size} bytes; replays are limited to {MAX_FILE_BYTES} bytes (4 MiB)"
                ),
                None => format!("the file is over the {MAX_FILE_BYTES}-byte (4 MiB) replay limit"),
            }),
            BoundedReadError::Io(e) => read_error(e.to_string()),
        })?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            read_error(format!(
                "not UTF-8 text (at byte {}); is this a replay file?",
                e.valid_up_to()
            ))
        })?;
        Self::parse(text).map_err(|(line, column, message)| ReplayError::Syntax {
            path: shown,
            line,
            column,
            message,
        })
    }

    /// Parse the text of a replay file. On error gives `(line, column, message)`, 1-based.
    ///
    /// # Errors
    /// At the first malformed line, or a count over the limits, or a missing `end`.
    pub fn parse(text: &str) -> Result<Self, Positioned> {
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err((
                1,
                1,
                format!("the text is over the {MAX_FILE_BYTES} bytes a replay may have"),
            ));
        }
        let mut lines = Lines::new(text);
        let (n, first) = lines.next_line("the replay header")?;
        let Some(version) = first.strip_prefix(MAGIC).map(str::trim) else {
            return Err((
                n,
                1,
                format!("not a replay file (expected `{MAGIC} {VERSION}`)"),
            ));
        };
        match version.parse::<u32>() {
            Ok(VERSION) => {}
            Ok(other) if other < VERSION => {
                return Err((
                    n,
                    MAGIC.len() + 2,
                    format!(
                        "made by an older version of Crate Room (replay format version {other}; \
                         this build reads version {VERSION}, whose checkpoints hash the game \
                         differently): it cannot be played back or verified; record the run again"
                    ),
                ));
            }
            Ok(other) => {
                return Err((
                    n,
                    MAGIC.len() + 2,
                    format!(
                        "made by a newer version of Crate Room (replay format version {other}; \
                         this build reads version {VERSION})"
                    ),
                ));
            }
            Err(_) => {
                return Err((
                    n,
                    MAGIC.len() + 2,
                    format!("expected the format version after `{MAGIC}`"),
                ));
            }
        }
        let level_file = lines.field("level")?;
        let (n, level_path) = level_file;
        if level_path.is_empty() || level_path.chars().count() > MAX_LEVEL_PATH_CHARS {
            return Err((
                n,
                7,
                format!("the level path must have 1 to {MAX_LEVEL_PATH_CHARS} characters"),
            ));
        }
        if let Some((i, _)) = level_path.char_indices().find(|(_, c)| c.is_control()) {
            return Err((
                n,
                7 + level_path[..i].chars().count(),
                "a control character in the level path".into(),
            ));
        }
        // A replay is untrusted: it may name only a level file, never any file to read.
        if !level_path.ends_with(".ron") {
            return Err((n, 7, "the level must be a `.ron` file".into()));
        }
        let level_hash = lines.hex_field("level-fnv1a64")?;
        let seed = lines.number_field("seed", u64::MAX)?;
        let (steps_line, _) = lines.peek_position();
        let steps = lines.number_field("steps", MAX_STEPS)?;
        lines.keyword("inputs")?;
        let mut replay = Replay {
            level_file: level_path.to_owned(),
            level_hash,
            seed,
            inputs: Vec::new(),
            ends: Vec::new(),
            checkpoints: Vec::new(),
        };
        // Runs, up to `checkpoints`.
        loop {
            let (n, line) = lines.next_line("the `checkpoints` line")?;
            if line == "checkpoints" {
                break;
            }
            let mut words = key_line::words(line);
            let Some((col, count)) = words.next() else {
                return Err((n, 1, "an empty line among the inputs".into()));
            };
            let count = parse_count(count, col, n, MAX_STEPS, key_line::STEPS)?;
            if count == 0 {
                return Err((n, col, "a run of 0 steps".into()));
            }
            let input = key_line::parse_keys(words).map_err(|(col, m)| (n, col, m))?;
            let end = replay.steps() + count;
            if end > steps {
                return Err((
                    n,
                    col,
                    format!("the inputs run past the {steps} steps the header says"),
                ));
            }
            replay.inputs.push((count, input));
            replay.ends.push(end);
        }
        if replay.steps() != steps {
            return Err((
                steps_line,
                7,
                format!(
                    "the header says {steps} steps, the inputs cover {}",
                    replay.steps()
                ),
            ));
        }
        loop {
            let (n, line) = lines.next_line("the `end` line")?;
            if line == "end" {
                break;
            }
            let mut words = key_line::words(line);
            let (Some((col, step)), Some((hcol, hash)), None) =
                (words.next(), words.next(), words.next())
            else {
                return Err((n, 1, "expected a checkpoint, `STEP HASH`".into()));
            };
            let step = parse_count(step, col, n, steps, key_line::STEPS)?;
            let last = replay.checkpoints.last().map(|&(last, _)| last);
            if last.is_some_and(|last| last >= step) {
                return Err((
                    n,
                    col,
                    "checkpoints must be in increasing step order".into(),
                ));
            }
            // The checkpoints' steps are part of the format: one every CHECKPOINT_EVERY steps
            // and one at the last step, so a deleted one is an error, not a looser check.
            let expected = last
                .map_or(CHECKPOINT_EVERY, |last| {
                    last.saturating_add(CHECKPOINT_EVERY)
                })
                .min(steps);
            if step != expected {
                return Err((
                    n,
                    col,
                    format!(
                        "expected the checkpoint of step {expected} here (one every \
                         {CHECKPOINT_EVERY} steps and one at the last step, {steps}); \
                         a checkpoint is missing or out of place"
                    ),
                ));
            }
            let hash = parse_hex(hash).ok_or_else(|| {
                (
                    n,
                    hcol,
                    "expected a 16-digit hexadecimal state hash".to_string(),
                )
            })?;
            replay.checkpoints.push((step, hash));
        }
        if let Some((n, _)) = lines.next_nonblank() {
            return Err((n, 1, "text after `end`".into()));
        }
        // Without a checkpoint at the end, `--verify` would pass a run it never compared.
        if replay
            .checkpoints
            .last()
            .is_none_or(|&(last, _)| last != steps)
        {
            return Err((
                lines.last,
                1,
                format!("the last checkpoint must be at the last step, {steps}"),
            ));
        }
        Ok(replay)
    }
}

/// Refuse a level path a replay cannot store as it is: not UTF-8, with a control character
/// (a newline would end the line), or too long.
fn check_storable(path: &Path) -> Result<(), ReplayError> {
    let unstorable = |reason| ReplayError::UnstorablePath {
        path: crate::level::escape_for_display(&path.to_string_lossy()).into_owned(),
        reason,
    };
    let Some(text) = path.to_str() else {
        return Err(unstorable("its path is not UTF-8"));
    };
    if text.chars().any(crate::level::needs_escape) {
        return Err(unstorable(
            "its path holds a control or invisible character",
        ));
    }
    if text.is_empty() || text.chars().count() > MAX_LEVEL_PATH_CHARS {
        return Err(unstorable(
            "its path is empty or longer than 4096 characters",
        ));
    }
    Ok(())
}

/// A level path as a replay stores it: one line of text (control characters replaced).
fn stored_path(path: &Path) -> String {
    let text: String = path
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(MAX_LEVEL_PATH_CHARS)
        .collect();
    if text.is_empty() { "?".into() } else { text }
}

/// The input the format can say: each axis -1, 0 or +1.
fn normalized(input: Input) -> Input {
    Input {
        move_x: input.move_x.signum(),
        move_y: input.move_y.signum(),
        attack: input.attack,
    }
}

/// A number at `col` of line `line`, as [`key_line::parse_number`] reads it.
fn parse_count(
    word: &str,
    col: usize,
    line: usize,
    max: u64,
    what: &str,
) -> Result<u64, Positioned> {
    key_line::parse_number(word, max, what).map_err(|message| (line, col, message))
}

fn parse_hex(word: &str) -> Option<u64> {
    (word.len() == 16 && word.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(word, 16).ok())
        .flatten()
}

/// The replay's lines with 1-based numbers, trailing whitespace and `\r` trimmed.
struct Lines<'a> {
    inner: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
    last: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            inner: text.lines().enumerate().peekable(),
            last: 0,
        }
    }

    fn peek_position(&mut self) -> (usize, usize) {
        (self.inner.peek().map_or(self.last + 1, |&(i, _)| i + 1), 1)
    }

    /// The next line; at the end, an error saying the file is truncated before `wanted`.
    fn next_line(&mut self, wanted: &str) -> Result<(usize, &'a str), Positioned> {
        match self.inner.next() {
            Some((i, line)) => {
                self.last = i + 1;
                Ok((i + 1, line.trim_end()))
            }
            None => Err((
                self.last + 1,
                1,
                format!("the file ends before {wanted}: truncated?"),
            )),
        }
    }

    fn next_nonblank(&mut self) -> Option<(usize, &'a str)> {
        self.inner
            .by_ref()
            .map(|(i, l)| (i + 1, l.trim_end()))
            .find(|(_, l)| !l.is_empty())
    }

    fn keyword(&mut self, word: &str) -> Result<usize, Positioned> {
        let (n, line) = self.next_line(&format!("the `{word}` line"))?;
        if line == word {
            Ok(n)
        } else {
            Err((n, 1, format!("expected `{word}`")))
        }
    }

    /// A `NAME VALUE` line: the value (the rest of the line after one space).
    fn field(&mut self, name: &str) -> Result<(usize, &'a str), Positioned> {
        let (n, line) = self.next_line(&format!("the `{name}` line"))?;
        match line
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(' '))
        {
            Some(value) => Ok((n, value)),
            None => Err((n, 1, format!("expected `{name} ...`"))),
        }
    }

    fn number_field(&mut self, name: &str, max: u64) -> Result<u64, Positioned> {
        let (n, value) = self.field(name)?;
        parse_count(value, name.len() + 2, n, max, "a whole number")
    }

    fn hex_field(&mut self, name: &str) -> Result<u64, Positioned> {
        let (n, value) = self.field(name)?;
        parse_hex(value).ok_or_else(|| {
            (
                n,
                name.len() + 2,
                "expected a 16-digit hexadecimal hash".to_string(),
            )
        })
    }
}

/// Where the room-cleared screen saves a run's replay:
/// `DATA_DIR/replays/<level file name without .ron>-<steps>.replay`.
pub fn saved_path(data_dir: &Path, level_file: &Path, steps: u64) -> PathBuf {
    let stem = level_file
        .file_stem()
        .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned());
    data_dir
        .join("replays")
        .join(format!("{stem}-{steps}.replay"))
}

/// Records a run as it is played: after each step, the input that step used.
#[derive(Clone, Debug)]
pub struct Recorder {
    replay: Replay,
}

impl Recorder {
    /// Start recording a run of the level at `level_file` (its bytes `level_bytes`).
    pub fn new(level_file: &Path, level_bytes: &[u8], seed: u64) -> Self {
        Self {
            replay: Replay::new(level_file, level_bytes, seed),
        }
    }

    /// Start recording a run of the level at `level_file`, reading its bytes for the hash.
    ///
    /// # Errors
    /// If the level file cannot be read.
    pub fn for_level(level_file: &Path, seed: u64) -> Result<Self, ReplayError> {
        check_storable(level_file)?;
        let bytes = read_level(level_file, &level_file.display().to_string())?;
        Ok(Self::new(level_file, &bytes, seed))
    }

    /// Note the step `sim` just ran: the input it used (the bot's too, read from the world)
    /// and, every [`CHECKPOINT_EVERY`] steps, the checkpoint hash (O(1): see
    /// [`Sim::checkpoint_hash`]).
    pub fn record(&mut self, sim: &Sim) {
        // A replay holds at most a day; a longer session keeps its first day.
        if self.replay.steps() >= MAX_STEPS {
            return;
        }
        self.replay.push_input(*sim.world().resource::<Input>());
        let step = self.replay.steps();
        if step.is_multiple_of(CHECKPOINT_EVERY) {
            self.replay.push_checkpoint(step, sim.checkpoint_hash());
        }
    }

    /// Steps recorded.
    pub fn steps(&self) -> u64 {
        self.replay.steps()
    }

    /// The replay so far, with a final checkpoint for `sim`'s current state (`sim` is the
    /// simulation recorded from its first step; past [`MAX_STEPS`] the last checkpoint stands).
    pub fn finish(&self, sim: &Sim) -> Replay {
        let mut replay = self.replay.clone();
        if sim.state().step == replay.steps() {
            replay.push_checkpoint(replay.steps(), sim.checkpoint_hash());
        }
        replay
    }
}

/// What re-simulating a replay found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyOutcome {
    /// Every checkpoint matched.
    Matched {
        /// Steps simulated.
        steps: u64,
        /// Checkpoints compared.
        checkpoints: usize,
    },
    /// A checkpoint differs.
    Diverged {
        /// The first checkpoint whose hash differs: the run diverged by this step.
        step: u64,
        /// The last checkpoint that matched (0: none, the run diverged from the start).
        last_match: u64,
        /// The recorded hash.
        expected: u64,
        /// The hash the re-simulation gives.
        found: u64,
    },
}

impl fmt::Display for VerifyOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            VerifyOutcome::Matched { steps, checkpoints } => {
                write!(f, "ok: {steps} steps, all {checkpoints} checkpoints match")
            }
            VerifyOutcome::Diverged {
                step: 0,
                expected,
                found,
                ..
            } => write!(
                f,
                "diverged at step 0: the state before any step differs (recorded {expected:016x}, re-simulated {found:016x}); the level or the game's rules are not those recorded"
            ),
            VerifyOutcome::Diverged {
                step,
                last_match,
                expected,
                found,
            } => write!(
                f,
                "diverged by step {step}: the first checkpoint that differs (recorded {expected:016x}, re-simulated {found:016x}); the run matched up to step {last_match}, so the first different step is in {}..={step}",
                last_match + 1
            ),
        }
    }
}

/// The level file a replay names: the stored path if it is a file, otherwise the file of that
/// name in `levels_dir`.
///
/// # Errors
/// [`ReplayError::Level`] when neither exists.
pub fn find_level(replay: &Replay, levels_dir: Option<&Path>) -> Result<PathBuf, ReplayError> {
    let stored = PathBuf::from(&replay.level_file);
    if stored.is_file() {
        return Ok(stored);
    }
    if let (Some(dir), Some(name)) = (levels_dir, stored.file_name()) {
        let candidate = dir.join(name);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    // Say what the stored path is when it exists but is no level file (a FIFO, a directory).
    let what = match crate::fsutil::regular_file_metadata(&stored) {
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => e.to_string(),
        _ => "no such file".to_owned(),
    };
    Err(ReplayError::Level {
        level: replay.level_file.clone(),
        message: match levels_dir {
            Some(dir) => format!(
                "{what}, and there is no file of that name in {}",
                dir.display()
            ),
            None => what,
        },
    })
}

/// Read a level file's bytes as the level loader does: a regular file, capped in size.
fn read_level(path: &Path, shown: &str) -> Result<Vec<u8>, ReplayError> {
    let level_error = |message: String| ReplayError::Level {
        level: shown.to_owned(),
        message,
    };
    let max = crate::level::MAX_FILE_BYTES;
    let file = crate::fsutil::open_regular(path).map_err(|e| level_error(e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| level_error(e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err(level_error(format!(
            "over the {max} bytes a level may have"
        )));
    }
    Ok(bytes)
}

/// Load the replay's level (found by [`find_level`]) checking its hash, and build its
/// simulation with the recorded seed, the bot off.
///
/// # Errors
/// The level is missing, changed since the recording, or no longer loads.
pub fn load_sim(
    replay: &Replay,
    atlas: &AtlasData,
    levels_dir: Option<&Path>,
) -> Result<(PathBuf, crate::level::Level, Sim), ReplayError> {
    let path = find_level(replay, levels_dir)?;
    let shown = path.display().to_string();
    let bytes = read_level(&path, &shown)?;
    let found = fnv1a64(&bytes);
    if found != replay.level_hash {
        return Err(ReplayError::LevelChanged {
            path: shown,
            recorded: replay.level_hash,
            found,
        });
    }
    let level = crate::level::parse_bytes(&path, &bytes, &atlas.crate_skins())
        .map_err(|e| ReplayError::Load(e.into()))?;
    let sim = Sim::new(&level, atlas, replay.seed)
        .map_err(|e| ReplayError::Load(crate::sim::LoadError::Clips(e)))?;
    Ok((path, level, sim))
}

/// Re-simulate `replay` without a window and compare every checkpoint.
///
/// # Errors
/// When the replay cannot be re-simulated at all (see [`load_sim`]); a divergence is an
/// [`VerifyOutcome::Diverged`], not an error.
pub fn verify(
    replay: &Replay,
    atlas: &AtlasData,
    levels_dir: Option<&Path>,
) -> Result<VerifyOutcome, ReplayError> {
    let (_, _, mut sim) = load_sim(replay, atlas, levels_dir)?;
    let mut step = 0u64;
    let mut last_match = 0u64;
    for &(checkpoint, expected) in &replay.checkpoints {
        while step < checkpoint {
            sim.step(replay.input_at(step));
            step += 1;
        }
        let found = sim.checkpoint_hash();
        if found != expected {
            return Ok(VerifyOutcome::Diverged {
                step: checkpoint,
                last_match,
                expected,
                found,
            });
        }
        last_match = checkpoint;
    }
    Ok(VerifyOutcome::Matched {
        steps: replay.steps(),
        checkpoints: replay.checkpoints.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::held;

    fn sample() -> Replay {
        let mut r = Replay::new(Path::new("levels/a.ron"), b"level bytes", 3);
        for _ in 0..14 {
            r.push_input(held(1, 0, false));
        }
        for _ in 0..3 {
            r.push_input(held(0, 0, true));
        }
        r.push_input(held(-1, 1, true));
        r.push_input(Input::default());
        // A run of under 600 steps has one checkpoint, at its last step.
        r.push_checkpoint(19, 0xdef);
        r
    }

    #[test]
    fn text_round_trips_and_runs_are_merged() {
        let r = sample();
        assert_eq!(r.runs().len(), 4);
        assert_eq!(r.steps(), 19);
        let text = r.to_text();
        assert!(
            text.contains("\n14 right\n3 attack\n1 down left attack\n1\n"),
            "{text}"
        );
        assert_eq!(Replay::parse(&text), Ok(r.clone()));
        assert_eq!(r.input_at(13), held(1, 0, false));
        assert_eq!(r.input_at(14), held(0, 0, true));
        assert_eq!(r.input_at(19), Input::default());
    }

    #[test]
    fn set_input_changes_exactly_one_step() {
        let mut r = sample();
        r.set_input(5, held(0, -1, false));
        assert_eq!(r.steps(), 19);
        assert_eq!(r.input_at(4), held(1, 0, false));
        assert_eq!(r.input_at(5), held(0, -1, false));
        assert_eq!(r.input_at(6), held(1, 0, false));
        assert_eq!(r.runs().len(), 6);
    }

    #[test]
    fn errors_say_line_and_column() {
        let text = sample().to_text();
        let cut = &text[..text.len() - 4];
        let (line, _, msg) = Replay::parse(cut).unwrap_err();
        assert_eq!(line, 13);
        assert!(msg.contains("truncated"), "{msg}");
        let bad = text.replace("3 attack", "3 atack");
        assert_eq!(Replay::parse(&bad).unwrap_err().0, 8);
        assert_eq!(Replay::parse(&bad).unwrap_err().1, 3);
        let long = text.replace("steps 19", "steps 999999999999");
        let (line, col, msg) = Replay::parse(&long).unwrap_err();
        assert_eq!((line, col), (5, 7));
        assert!(msg.contains(&MAX_STEPS.to_string()), "{msg}");
        let short = text.replace("steps 19", "steps 20");
        assert!(Replay::parse(&short).unwrap_err().2.contains("cover 19"));
        let old = text.replace("replay 2", "replay 1");
        let msg = Replay::parse(&old).unwrap_err().2;
        assert!(
            msg.contains("made by an older version") && msg.contains("version 1"),
            "{msg}"
        );
        let newer = text.replace("replay 2", "replay 3");
        let msg = Replay::parse(&newer).unwrap_err().2;
        assert!(
            msg.contains("made by a newer version") && msg.contains("version 3"),
            "{msg}"
        );
    }

    #[test]
    fn cleared_runs_are_saved_by_level_and_steps() {
        assert_eq!(
            saved_path(Path::new("/data"), Path::new("levels/vault.ron"), 1234),
            Path::new("/data/replays/vault-1234.replay")
        );
    }

    #[test]
    fn fnv1a64_matches_the_reference_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
