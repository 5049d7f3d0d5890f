//! Reading a level costs memory in proportion to the level it describes, never much more than
//! the file: long lists that can only be errors (repeated overrides, repeated legend keys,
//! millions of rows) are rejected or counted as they stream in, not kept.
//!
//! Measured as the process's peak resident memory, which Linux lets a process reset
//! (`/proc/self/clear_refs`). Other tests of the program, running in parallel, would count in
//! it, so the test measures in a child process of its own: the program run again with only
//! this test and `MEASURE` set. Elsewhere the test only checks that every case is rejected.

use std::path::Path;

use game::level::{self, DEFAULT_SKINS};

use crate::common::process::{TOOL_LIMIT, output_within};

/// Set in the child process that measures.
const MEASURE: &str = "CRATE_ROOM_TEST_MEASURE_MEMORY";

/// The peak resident memory of this process, in bytes, if the system tells.
fn peak_resident() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// How far parsing `text` raised the peak resident memory above what was resident before, if
/// the system can tell.
fn peak_parsing(text: &str) -> Option<usize> {
    // Writing 5 resets the peak to the current resident size (Linux 4.0 and later).
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = peak_resident();
    let result = level::parse(Path::new("memory.ron"), text, &DEFAULT_SKINS);
    assert!(result.is_err(), "every case here is invalid");
    drop(result);
    let after = peak_resident();
    (reset).then_some(after?.saturating_sub(before?))
}

const MIB: usize = 1024 * 1024;

/// `count` copies of `item` between `head` and `tail`.
fn repeated(head: &str, item: &str, count: usize, tail: &str) -> String {
    let mut text = String::with_capacity(head.len() + item.len() * count + tail.len());
    text.push_str(head);
    for _ in 0..count {
        text.push_str(item);
    }
    text.push_str(tail);
    text
}

#[test]
#[ignore = "heavy: .ci/run runs it"]
fn memory_follows_the_level_not_the_file() {
    if std::env::var_os(MEASURE).is_none() {
        let child = output_within(
            std::process::Command::new(std::env::current_exe().expect("this test program"))
                .args([
                    "--exact",
                    "level_memory::memory_follows_the_level_not_the_file",
                    "--ignored",
                    "--test-threads",
                    "1",
                ])
                .env(MEASURE, "1"),
            TOOL_LIMIT,
        );
        let out = String::from_utf8_lossy(&child.stdout);
        assert!(
            child.status.success() && out.contains("1 passed"),
            "the measuring child: {:?}\n{out}\n{}",
            child.status,
            String::from_utf8_lossy(&child.stderr)
        );
        return;
    }
    let head = "(name: \"M\", map: [\"#@c#\"], ";
    // Files of about 16 MiB, the largest `load` reads, that can only be errors.
    let rejected_early = [
        (
            "a million repeats of one crate override",
            repeated(head, "crates: [", 0, "") + &repeated("", "(at: (2, 0)),", 1_200_000, "])"),
        ),
        (
            "a million repeats of one legend key",
            repeated(head, "legend: {", 0, "") + &repeated("", "'x': Wall,", 1_600_000, "})"),
        ),
        (
            "four million map rows",
            repeated("(name: \"M\", map: [", "\"#\",", 4_000_000, "])"),
        ),
    ];
    for (what, text) in &rejected_early {
        assert!(text.len() > 12 * MIB, "{what}: {} bytes", text.len());
        // What is kept is bounded by the limits (1025 rows of one character at most); the
        // rest is the error and ron's working memory.
        if let Some(peak) = peak_parsing(text) {
            assert!(peak < 2 * MIB, "{what}: {peak} bytes at peak");
        }
    }

    // A million different overrides must all be read before the map can reject them; they cost
    // memory per override (about 8 bytes per byte of file), but a small multiple of the file,
    // not the 50 times it once was.
    let mut text = String::from(head);
    text.push_str("crates: [");
    for i in 0..1_000_000 {
        text.push_str(&format!("(at:({},{})),", i % 1000, i / 1000));
    }
    text.push_str("])");
    if let Some(peak) = peak_parsing(&text) {
        assert!(
            peak < 10 * text.len(),
            "{peak} bytes at peak for a file of {}",
            text.len()
        );
    }
}
