//! The recorded run itself: [`Replay`], its level, seed, run-length encoded inputs and
//! checkpoints, and the operations that build and query it.

use std::path::Path;

use super::limits::MAX_LEVEL_PATH_CHARS;
use crate::sim::Input;

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

impl Replay {
    /// An empty recording of `level_file` (its bytes `level_bytes`) with `seed`.
    pub fn new(level_file: &Path, level_bytes: &[u8], seed: u64) -> Self {
        Self::empty(stored_path(level_file), fnv1a64(level_bytes), seed)
    }

    /// An empty replay of the level stored as `level_file`, hashing to `level_hash`.
    pub(super) fn empty(level_file: String, level_hash: u64, seed: u64) -> Self {
        Self {
            level_file,
            level_hash,
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

    /// The `(step, checkpoint hash)` checkpoints ([`crate::sim::Sim::checkpoint_hash`]).
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

    /// Append a run of `count` steps of `input` as read from a file (not merged with the run
    /// before: a file may split a run).
    pub(super) fn push_run(&mut self, count: u64, input: Input) {
        let end = self.steps() + count;
        self.inputs.push((count, input));
        self.ends.push(end);
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

/// The unit tests' sample: a replay of `levels/a.ron` with 19 steps of input in four runs
/// (14 right, 3 attack, 1 down left attack, 1 idle) and no checkpoint.
#[cfg(test)]
pub(super) fn sample_inputs() -> Replay {
    use crate::input::held;
    let mut r = Replay::new(Path::new("levels/a.ron"), b"level bytes", 3);
    for _ in 0..14 {
        r.push_input(held(1, 0, false));
    }
    for _ in 0..3 {
        r.push_input(held(0, 0, true));
    }
    r.push_input(held(-1, 1, true));
    r.push_input(Input::default());
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::held;

    #[test]
    fn set_input_changes_exactly_one_step() {
        let mut r = sample_inputs();
        r.set_input(5, held(0, -1, false));
        assert_eq!(r.steps(), 19);
        assert_eq!(r.input_at(4), held(1, 0, false));
        assert_eq!(r.input_at(5), held(0, -1, false));
        assert_eq!(r.input_at(6), held(1, 0, false));
        assert_eq!(r.runs().len(), 6);
    }

    #[test]
    fn fnv1a64_matches_the_reference_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
