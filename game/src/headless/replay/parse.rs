//! Reading a replay file: [`Replay::load`] and [`Replay::parse`], which checks sizes before
//! allocating, never panics and reports the line and column of the first problem.

use std::path::Path;

use super::limits::{
    CHECKPOINT_EVERY, MAGIC, MAX_FILE_BYTES, MAX_LEVEL_PATH_CHARS, MAX_STEPS, VERSION,
};
use super::lines::{Lines, parse_count, parse_hex, value_column};
use super::model::Replay;
use super::replay_error::ReplayError;
use super::syntax::{SyntaxError, SyntaxErrorKind as Kind, Wanted};
use crate::fsutil::{BoundedReadError, read_bounded};
use crate::input::{TextFileError, key_line};

/// The header lines after the version: what to load and how long the run is.
struct Header<'a> {
    level_file: &'a str,
    level_hash: u64,
    seed: u64,
    steps: u64,
    /// The line of `steps`, where a count the inputs do not match is reported.
    steps_line: usize,
}

impl Replay {
    /// Read and parse the replay file at `path`.
    ///
    /// # Errors
    /// [`TextFileError::Read`] (in [`ReplayError::File`]) if it is not a readable regular file
    /// of at most [`MAX_FILE_BYTES`] of UTF-8, [`TextFileError::Syntax`] at its first malformed
    /// line.
    pub fn load(path: &Path) -> Result<Self, ReplayError> {
        let shown = crate::level::escape_for_display(&path.display().to_string()).into_owned();
        let read_error = |message: String| {
            ReplayError::File(TextFileError::Read {
                path: shown.clone(),
                what: "replay",
                message,
            })
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
        Self::parse(text).map_err(|e| {
            ReplayError::File(TextFileError::Syntax {
                path: shown,
                line: e.line,
                column: e.column,
                message: e.message(),
            })
        })
    }

    /// Parse the text of a replay file.
    ///
    /// # Errors
    /// At the first malformed line, or a count over the limits, or a missing `end`.
    pub fn parse(text: &str) -> Result<Self, SyntaxError> {
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(SyntaxError::at(1, 1, Kind::TooLarge));
        }
        let mut lines = Lines::new(text);
        version_line(&mut lines)?;
        let header = header_fields(&mut lines)?;
        lines.keyword("inputs")?;
        let mut replay =
            Replay::empty(header.level_file.to_owned(), header.level_hash, header.seed);
        input_runs(&mut lines, &mut replay, header.steps)?;
        if replay.steps() != header.steps {
            return Err(SyntaxError::at(
                header.steps_line,
                value_column("steps"),
                Kind::StepsMismatch {
                    steps: header.steps,
                    covered: replay.steps(),
                },
            ));
        }
        checkpoints(&mut lines, &mut replay, header.steps)?;
        the_end(&mut lines, &replay, header.steps)?;
        Ok(replay)
    }
}

/// The first line: the magic words and this build's format version.
fn version_line(lines: &mut Lines<'_>) -> Result<(), SyntaxError> {
    let (n, first) = lines.next_line(Wanted::Header)?;
    let Some(version) = first.strip_prefix(MAGIC).map(str::trim) else {
        return Err(SyntaxError::at(n, 1, Kind::NotAReplay));
    };
    let kind = match version.parse::<u32>() {
        Ok(VERSION) => return Ok(()),
        Ok(other) if other < VERSION => Kind::OlderVersion(other),
        Ok(other) => Kind::NewerVersion(other),
        Err(_) => Kind::MissingVersion,
    };
    Err(SyntaxError::at(n, MAGIC.len() + 2, kind))
}

/// The `level`, `level-fnv1a64`, `seed` and `steps` lines.
fn header_fields<'a>(lines: &mut Lines<'a>) -> Result<Header<'a>, SyntaxError> {
    let level_file = level_path(lines)?;
    let level_hash = lines.hex_field("level-fnv1a64")?;
    let seed = lines.number_field("seed", u64::MAX)?;
    let steps_line = lines.peek_number();
    let steps = lines.number_field("steps", MAX_STEPS)?;
    Ok(Header {
        level_file,
        level_hash,
        seed,
        steps,
        steps_line,
    })
}

/// The `level PATH` line: a path of one line of text, naming a `.ron` file.
fn level_path<'a>(lines: &mut Lines<'a>) -> Result<&'a str, SyntaxError> {
    let (n, path) = lines.field("level")?;
    let column = value_column("level");
    if path.is_empty() || path.chars().count() > MAX_LEVEL_PATH_CHARS {
        return Err(SyntaxError::at(n, column, Kind::LevelPathLength));
    }
    if let Some((i, _)) = path.char_indices().find(|(_, c)| c.is_control()) {
        return Err(SyntaxError::at(
            n,
            column + path[..i].chars().count(),
            Kind::LevelPathControl,
        ));
    }
    // A replay is untrusted: it may name only a level file, never any file to read.
    if !path.ends_with(".ron") {
        return Err(SyntaxError::at(n, column, Kind::LevelNotRon));
    }
    Ok(path)
}

/// The `STEPS [KEY ...]` runs, up to the `checkpoints` line, covering at most `steps`.
fn input_runs(lines: &mut Lines<'_>, replay: &mut Replay, steps: u64) -> Result<(), SyntaxError> {
    loop {
        let (n, line) = lines.next_line(Wanted::Line("checkpoints"))?;
        if line == "checkpoints" {
            return Ok(());
        }
        let mut words = key_line::words(line);
        let Some((col, count)) = words.next() else {
            return Err(SyntaxError::at(n, 1, Kind::EmptyInputLine));
        };
        let count = parse_count(count, col, n, MAX_STEPS, key_line::STEPS)?;
        if count == 0 {
            return Err(SyntaxError::at(n, col, Kind::EmptyRun));
        }
        let input = key_line::parse_keys(words)
            .map_err(|(col, message)| SyntaxError::at(n, col, Kind::KeyLine(message)))?;
        if replay.steps() + count > steps {
            return Err(SyntaxError::at(n, col, Kind::InputsPastEnd { steps }));
        }
        replay.push_run(count, input);
    }
}

/// The `STEP HASH` checkpoints, up to the `end` line: one every [`CHECKPOINT_EVERY`] steps
/// and one at the last step.
fn checkpoints(lines: &mut Lines<'_>, replay: &mut Replay, steps: u64) -> Result<(), SyntaxError> {
    loop {
        let (n, line) = lines.next_line(Wanted::Line("end"))?;
        if line == "end" {
            return Ok(());
        }
        let mut words = key_line::words(line);
        let (Some((col, step)), Some((hash_col, hash)), None) =
            (words.next(), words.next(), words.next())
        else {
            return Err(SyntaxError::at(n, 1, Kind::ExpectedCheckpoint));
        };
        let step = parse_count(step, col, n, steps, key_line::STEPS)?;
        let last = replay.checkpoints().last().map(|&(last, _)| last);
        check_checkpoint_step(step, last, steps).map_err(|kind| SyntaxError::at(n, col, kind))?;
        let hash =
            parse_hex(hash).ok_or_else(|| SyntaxError::at(n, hash_col, Kind::ExpectedStateHash))?;
        replay.push_checkpoint(step, hash);
    }
}

/// Whether a checkpoint at `step` may follow one at `last` in a run of `steps`.
fn check_checkpoint_step(step: u64, last: Option<u64>, steps: u64) -> Result<(), Kind> {
    if last.is_some_and(|last| last >= step) {
        return Err(Kind::CheckpointOrder);
    }
    // The checkpoints' steps are part of the format: one every CHECKPOINT_EVERY steps
    // and one at the last step, so a deleted one is an error, not a looser check.
    let expected = last
        .map_or(CHECKPOINT_EVERY, |last| {
            last.saturating_add(CHECKPOINT_EVERY)
        })
        .min(steps);
    if step != expected {
        return Err(Kind::CheckpointMisplaced { expected, steps });
    }
    Ok(())
}

/// After `end`: nothing but blank lines, and a checkpoint at the last step.
fn the_end(lines: &mut Lines<'_>, replay: &Replay, steps: u64) -> Result<(), SyntaxError> {
    if let Some((n, _)) = lines.next_nonblank() {
        return Err(SyntaxError::at(n, 1, Kind::TextAfterEnd));
    }
    // Without a checkpoint at the end, `--verify` would pass a run it never compared.
    if replay
        .checkpoints()
        .last()
        .is_none_or(|&(last, _)| last != steps)
    {
        return Err(SyntaxError::at(
            lines.last(),
            1,
            Kind::NoFinalCheckpoint { steps },
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::held;
    use crate::sim::Input;

    fn sample() -> Replay {
        let mut r = super::super::model::sample_inputs();
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
    fn errors_say_line_and_column() {
        let text = sample().to_text();
        let cut = &text[..text.len() - 4];
        let err = Replay::parse(cut).unwrap_err();
        let (line, msg) = (err.line, err.message());
        assert_eq!(line, 13);
        assert!(msg.contains("truncated"), "{msg}");
        let bad = text.replace("3 attack", "3 atack");
        assert_eq!(Replay::parse(&bad).unwrap_err().line, 8);
        assert_eq!(Replay::parse(&bad).unwrap_err().column, 3);
        let long = text.replace("steps 19", "steps 999999999999");
        let err = Replay::parse(&long).unwrap_err();
        let (line, col, msg) = (err.line, err.column, err.message());
        assert_eq!((line, col), (5, 7));
        assert!(msg.contains(&MAX_STEPS.to_string()), "{msg}");
        let short = text.replace("steps 19", "steps 20");
        assert!(
            Replay::parse(&short)
                .unwrap_err()
                .message()
                .contains("cover 19")
        );
        let current = format!("replay {VERSION}");
        let old = text.replace(&current, &format!("replay {}", VERSION - 1));
        let msg = Replay::parse(&old).unwrap_err().message();
        assert!(
            msg.contains("made by an older version")
                && msg.contains(&format!("version {}", VERSION - 1)),
            "{msg}"
        );
        let newer = text.replace(&current, &format!("replay {}", VERSION + 1));
        let msg = Replay::parse(&newer).unwrap_err().message();
        assert!(
            msg.contains("made by a newer version")
                && msg.contains(&format!("version {}", VERSION + 1)),
            "{msg}"
        );
    }
}
