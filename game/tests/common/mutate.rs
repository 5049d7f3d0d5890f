//! Byte-level mutations of a valid file, for fuzzing a reader with proptest: flip a bit, delete
//! or insert a run of bytes (mostly from an alphabet the format cares about), duplicate a line,
//! truncate.

use proptest::prelude::*;

/// One change to a file's bytes.
#[derive(Clone, Debug)]
pub enum Mutation {
    Flip { at: usize, bit: u8 },
    Delete { at: usize, len: usize },
    Insert { at: usize, bytes: Vec<u8> },
    DuplicateLine { line: usize },
    Truncate { at: usize },
}

/// Mutations inserting bytes mostly from `alphabet`, deleting runs shorter than `max_delete`.
pub fn mutation(alphabet: &'static [u8], max_delete: usize) -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        (at, 0..8u8).prop_map(|(at, bit)| Mutation::Flip { at, bit }),
        (at, 1..max_delete).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (at, prop::collection::vec(insertable(alphabet), 1..12))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        any::<usize>().prop_map(|line| Mutation::DuplicateLine { line }),
        at.prop_map(|at| Mutation::Truncate { at }),
    ]
}

/// Bytes of `alphabet`, plus anything at all now and then.
fn insertable(alphabet: &'static [u8]) -> impl Strategy<Value = u8> {
    prop_oneof![
        4 => prop::sample::select(alphabet.to_vec()),
        1 => any::<u8>(),
    ]
}

/// `text` with `mutation` applied.
pub fn apply(text: &[u8], mutation: &Mutation) -> Vec<u8> {
    let mut out = text.to_vec();
    let len = out.len().max(1);
    match mutation {
        Mutation::Flip { at, bit } => {
            if !out.is_empty() {
                out[at % len] ^= 1 << bit;
            }
        }
        Mutation::Delete { at, len: n } => {
            let from = at % len;
            let to = (from + n).min(out.len());
            if from < to {
                out.drain(from..to);
            }
        }
        Mutation::Insert { at, bytes } => {
            let at = at % (out.len() + 1);
            out.splice(at..at, bytes.iter().copied());
        }
        Mutation::DuplicateLine { line } => {
            let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
            if !lines.is_empty() {
                let i = line % lines.len();
                let mut joined = Vec::with_capacity(text.len() + lines[i].len());
                for (j, l) in lines.iter().enumerate() {
                    joined.extend_from_slice(l);
                    if j == i {
                        joined.extend_from_slice(l);
                    }
                }
                out = joined;
            }
        }
        Mutation::Truncate { at } => out.truncate(at % len),
    }
    out
}
