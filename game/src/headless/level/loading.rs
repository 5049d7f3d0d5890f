//! Reading a level: the file read with its size limit, RON parsed with the game's options, and
//! the result validated into a [`Level`] or a positioned [`LevelError`]; `check` for many files.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::bounds::MAX_FILE_BYTES;
use super::error::LevelError;
use super::format::RawLevel;
use super::parsed::Level;
use super::reporter::Reporter;
use super::ron_errors::{LEVEL_SHAPE_HINT, RECURSION_LIMIT};
use super::spans::Spans;
use super::validate;

/// Parse and validate the text of a level file.
///
/// `path` is only used in error messages. `skins` lists the crate skins of the art atlas
/// ([`AtlasData::crate_skins`](crate::atlas::AtlasData::crate_skins)); a level naming another
/// is an error, with a suggestion from the list when one is a likely typo.
pub fn parse(path: &Path, text: &str, skins: &[&str]) -> Result<Level, LevelError> {
    // A byte-order mark is one char, like the space that replaces it, so columns stay true.
    let without_bom;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            without_bom = format!(" {rest}");
            without_bom.as_str()
        }
        None => text,
    };
    // ron ends lines (and so line comments) at `\n` only; a lone `\r` becomes one, byte for
    // byte, so offsets and the lines `Spans` counts stay the same.
    let text = &*lone_cr_to_lf(text);
    let spans = Spans::new(text);
    let rep = Reporter {
        path,
        spans: &spans,
    };
    if text.trim().is_empty() {
        return Err(rep.at(0, "the file is empty").with_hint(LEVEL_SHAPE_HINT));
    }
    match ron_options().from_str::<RawLevel>(text) {
        Ok(raw) => validate::build(raw, &rep, skins),
        Err(err) => Err(rep.ron(&err)),
    }
}

/// `text` with every `\r` that is not followed by `\n` replaced by `\n`.
pub(crate) fn lone_cr_to_lf(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(cr) = rest.find('\r') {
        out.push_str(&rest[..cr]);
        out.push(if rest[cr + 1..].starts_with('\n') {
            '\r'
        } else {
            '\n'
        });
        rest = &rest[cr + 1..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// How level files are read: `health: 5` may stand for `Some(5)`, and the recursion limit stays
/// on so that no input can overflow the stack.
fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_recursion_limit(RECURSION_LIMIT)
}

/// The level as written, before validation: what the editor reads the legend and the crate
/// overrides from. `text` is a file [`parse`] accepted, without its byte-order mark and with
/// lone `\r` already made `\n` ([`lone_cr_to_lf`]).
pub(crate) fn parse_raw(text: &str) -> Result<RawLevel, ron::error::SpannedError> {
    ron_options().from_str::<RawLevel>(text)
}

/// Parse and validate the raw bytes of a level file, which must be UTF-8.
pub fn parse_bytes(path: &Path, bytes: &[u8], skins: &[&str]) -> Result<Level, LevelError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(path, text, skins),
        Err(err) => {
            let valid = &bytes[..err.valid_up_to()];
            // Everything before `valid_up_to` is UTF-8 by definition.
            let valid = std::str::from_utf8(valid).unwrap_or_default();
            let spans = Spans::new(valid);
            let bad = bytes.get(err.valid_up_to()).copied().unwrap_or_default();
            Err(Reporter {
                path,
                spans: &spans,
            }
            .at(
                valid.len(),
                format!("the file is not UTF-8 text (byte 0x{bad:02X})"),
            )
            .with_hint("save the file as UTF-8"))
        }
    }
}

/// Read, parse and validate the level file at `path`.
///
/// Refuses files over [`MAX_FILE_BYTES`] before reading them, and anything but a regular file (a
/// FIFO, a device) without blocking on it.
pub fn load(path: &Path, skins: &[&str]) -> Result<Level, LevelError> {
    parse_bytes(path, &read_level_file(path)?, skins)
}

/// The bytes of the level file at `path`, read the way [`load`] reads them: at most
/// [`MAX_FILE_BYTES`], never blocking on a FIFO or device.
pub(crate) fn read_level_file(path: &Path) -> Result<Vec<u8>, LevelError> {
    let io_error = |err: std::io::Error| {
        let what = match err.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_owned(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
            _ => err.to_string(),
        };
        LevelError::whole_file(path, format!("cannot read level file: {what}"))
    };
    if crate::fsutil::is_dir(path) {
        return Err(
            LevelError::whole_file(path, "is a directory, not a level file")
                .with_hint("pass the `.ron` files inside it, e.g. `levels/*.ron`"),
        );
    }
    let too_big = |size: u64| {
        LevelError::whole_file(
            path,
            format!(
                "the file is {size} bytes; level files are limited to {MAX_FILE_BYTES} bytes ({} MiB)",
                MAX_FILE_BYTES >> 20
            ),
        )
    };
    // The size is checked before reading, and the read is capped too (the file can grow).
    crate::fsutil::read_bounded(path, MAX_FILE_BYTES).map_err(|e| match e {
        crate::fsutil::BoundedReadError::Io(e) => io_error(e),
        crate::fsutil::BoundedReadError::TooLarge { size, .. } => {
            too_big(size.unwrap_or(MAX_FILE_BYTES + 1))
        }
    })
}

/// Check level files, printing each invalid file's error to `out` as [`LevelError`] displays
/// it (`path:line:col: error: message`, the offending line with a caret under the column, and a
/// hint where there is one), or `ok: N files valid` when every file is a valid level.
///
/// Returns the exit code: 0 if every file is a valid level, 1 otherwise.
pub fn check(paths: &[PathBuf], skins: &[&str], out: &mut dyn Write) -> i32 {
    check_with(paths, skins, out, false)
}

/// [`check`] as `crate-room check` runs it: a valid level with no crates is refused too, since
/// it can never be cleared. (The editor saves one while a room is being built, and is held to
/// [`check`].)
pub fn check_playable(paths: &[PathBuf], skins: &[&str], out: &mut dyn Write) -> i32 {
    check_with(paths, skins, out, true)
}

fn check_with(paths: &[PathBuf], skins: &[&str], out: &mut dyn Write, playable: bool) -> i32 {
    let mut all_valid = true;
    for path in paths {
        // A closed pipe (`check | head`) must not turn invalid levels into a panic.
        match load(path, skins) {
            Err(err) => {
                all_valid = false;
                let _ = writeln!(out, "{err}");
            }
            Ok(level) if playable && level.crates.is_empty() => {
                all_valid = false;
                let _ = writeln!(
                    out,
                    "{}: error: the room has no crates, so it can never be cleared\n  \
                     = hint: put at least one crate `c` (or keg `k`) on the map",
                    super::escape_for_display(&path.display().to_string())
                );
            }
            Ok(_) => {}
        }
    }
    if !all_valid {
        return 1;
    }
    let files = if paths.len() == 1 { "file" } else { "files" };
    let _ = writeln!(out, "ok: {} {files} valid", paths.len());
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nesting_hits_the_recursion_limit_not_the_stack() {
        // The level schema itself is shallow, so ron rejects deep nesting in a level long before
        // the limit; parse an untyped value to show the limit is on and what it reports.
        let depth = 100_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let err = ron_options()
            .from_str::<ron::Value>(&text)
            .expect_err("too deep");
        assert_eq!(err.code, ron::Error::ExceededRecursionLimit);
        let spans = Spans::new(&text);
        let err = Reporter {
            path: Path::new("deep.ron"),
            spans: &spans,
        }
        .ron(&err);
        assert_eq!(
            err.headline(),
            "deep.ron:1:65: error: brackets are nested too deeply"
        );
    }
}
