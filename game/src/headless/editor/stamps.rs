//! Stamps: pieces of map saved from the editor's selection, kept for every level of a folder in
//! its stamp file, `stamps.txt`, and placed from the editor's stamp palette.
//!
//! ```ron
//! // Stamps for the levels in this folder.
//! (
//!     stamps: [
//!         (
//!             name: "pillar",
//!             rows: [
//!                 "#.#",
//!                 ".C.",
//!             ],
//!         ),
//!     ],
//! )
//! ```
//!
//! Adding a stamp inserts its entry after the last one and leaves every other byte of the file
//! as it was (comments, names the author changed by hand). Errors are located like a level's:
//! `path:line:col: error: message` with the line and a caret.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::quote::quote;
use super::save::{WriteError, write_atomically};
use crate::level::Reporter;
use crate::level::spans::{Spans, Step};
use crate::level::{LevelError, MAX_NAME_CHARS, MAX_SIDE, escape_for_display};

/// Name of the stamp file, in the folder of the level being edited. RON, but not `.ron`: every
/// `.ron` file in `levels/` is a level.
pub const STAMP_FILE: &str = "stamps.txt";

/// Most stamps one file holds.
pub const MAX_STAMPS: usize = 1000;

/// One saved piece of map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// Its name in the palette (1 to 64 characters).
    pub name: String,
    /// Its map rows, top row first, all equally wide.
    pub rows: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    stamps: Vec<RawStamp>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStamp {
    name: String,
    rows: Vec<String>,
}

/// The stamp file beside the level at `level`.
pub fn stamp_path(level: &Path) -> PathBuf {
    match level.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(STAMP_FILE),
        _ => PathBuf::from(STAMP_FILE),
    }
}

/// Why a stamp was not added.
#[derive(Debug, thiserror::Error)]
pub enum StampError {
    /// The stamp file is not valid; fix it by hand first.
    #[error("{0}")]
    File(LevelError),
    /// The piece itself cannot be a stamp.
    #[error("{0}")]
    Piece(String),
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Read the stamps of the file at `path`; no file is no stamps.
///
/// # Errors
/// A [`LevelError`] with the position of the first problem: not RON of the shape above, an
/// empty or overlong name, no rows, rows of different widths, too many stamps.
pub fn load_stamps(path: &Path) -> Result<Vec<Stamp>, LevelError> {
    if !crate::fsutil::exists(path) {
        return Ok(Vec::new());
    }
    let bytes = crate::level::read_level_file(path)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| LevelError::whole_file(path, "the stamp file is not UTF-8 text"))?;
    parse_stamps(path, text)
}

/// Parse the text of a stamp file (see [`load_stamps`]).
///
/// # Errors
/// As [`load_stamps`].
pub fn parse_stamps(path: &Path, text: &str) -> Result<Vec<Stamp>, LevelError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let norm = crate::level::lone_cr_to_lf(text);
    let spans = Spans::new(&norm);
    let rep = Reporter {
        path,
        spans: &spans,
    };
    let raw: RawFile = ron::Options::default()
        .with_recursion_limit(16)
        .from_str(&norm)
        .map_err(|e| {
            let mut error = rep.ron(&e);
            error.hint = Some(
                "a stamp file looks like `(stamps: [(name: \"pillar\", rows: [\"#.#\"])])`"
                    .to_owned(),
            );
            error
        })?;
    let at = |path: &[Step<'_>]| spans.nearest(path);
    if raw.stamps.len() > MAX_STAMPS {
        return Err(rep.at(
            at(&[Step::Field("stamps"), Step::Item(MAX_STAMPS)]),
            format!(
                "the file has {} stamps; the limit is {MAX_STAMPS}",
                raw.stamps.len()
            ),
        ));
    }
    let mut stamps = Vec::with_capacity(raw.stamps.len());
    for (i, stamp) in raw.stamps.into_iter().enumerate() {
        let field = |f| [Step::Field("stamps"), Step::Item(i), Step::Field(f)];
        let name_len = stamp.name.chars().count();
        if name_len == 0 || name_len > MAX_NAME_CHARS {
            return Err(rep.at(
                at(&field("name")),
                format!("a stamp name is 1 to {MAX_NAME_CHARS} characters; this one is {name_len}"),
            ));
        }
        let shown = escape_for_display(&stamp.name).into_owned();
        let Some(first) = stamp.rows.first() else {
            return Err(rep.at(at(&field("rows")), format!("stamp \"{shown}\" has no rows")));
        };
        let width = first.chars().count();
        let max = MAX_SIDE as usize;
        if width == 0 || width > max || stamp.rows.len() > max {
            return Err(rep.at(
                at(&field("rows")),
                format!(
                    "stamp \"{shown}\" is {width} x {}; a stamp is 1 to {max} cells each way",
                    stamp.rows.len()
                ),
            ));
        }
        for (y, row) in stamp.rows.iter().enumerate() {
            let len = row.chars().count();
            if len != width {
                let row_at = [
                    Step::Field("stamps"),
                    Step::Item(i),
                    Step::Field("rows"),
                    Step::Item(y),
                ];
                return Err(rep.at(
                    at(&row_at),
                    format!("stamp \"{shown}\" row {y} is {len} cells wide, but row 0 is {width}"),
                ));
            }
        }
        stamps.push(Stamp {
            name: stamp.name,
            rows: stamp.rows,
        });
    }
    Ok(stamps)
}

/// Add `stamp` to the stamp file at `path` (creating it if there is none), after its last
/// stamp, writing it atomically. Returns the file's stamps afterwards.
///
/// # Errors
/// [`StampError::File`] if the file is there and not a valid stamp file (nothing is written),
/// [`StampError::Piece`] for a piece that cannot be a stamp, [`StampError::Write`].
pub fn add_stamp(path: &Path, stamp: &Stamp) -> Result<Vec<Stamp>, StampError> {
    let existing = if crate::fsutil::exists(path) {
        let bytes = crate::level::read_level_file(path).map_err(StampError::File)?;
        let text = String::from_utf8(bytes).map_err(|_| {
            StampError::File(LevelError::whole_file(
                path,
                "the stamp file is not UTF-8 text",
            ))
        })?;
        Some(text)
    } else {
        None
    };
    let text = match existing {
        None => format!(
            "// Stamps for the levels in this folder: pieces of map saved in the level editor\n\
             // (Ctrl+B saves the selection), placed from its stamp palette. Rename them here.\n\
             (\n    stamps: [\n{}    ],\n)\n",
            entry(stamp, "        ")
        ),
        Some(text) => {
            parse_stamps(path, &text).map_err(StampError::File)?;
            insert_entry(path, &text, stamp)?
        }
    };
    let stamps = parse_stamps(path, &text).map_err(|e| StampError::Piece(e.message))?;
    write_atomically(path, text.as_bytes())?;
    Ok(stamps)
}

/// `text` with `stamp`'s entry after the last stamp (or as the first).
fn insert_entry(path: &Path, text: &str, stamp: &Stamp) -> Result<String, StampError> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    // The editor writes `\n`; a file with lone `\r` line ends is read with them as `\n`.
    let norm = crate::level::lone_cr_to_lf(body).into_owned();
    let spans = Spans::new(&norm);
    let unreadable = || {
        StampError::File(LevelError::whole_file(
            path,
            "the editor cannot find the `stamps: [...]` list in this file",
        ))
    };
    let list = spans
        .list(&[Step::Field("stamps")])
        .ok_or_else(unreadable)?;
    let line_end = if norm.contains("\r\n") { "\r\n" } else { "\n" };
    let (at, insert) = match list.items.last() {
        Some(last) => {
            let after = norm[last.end..].trim_start_matches([' ', '\t']);
            if after.starts_with(',') {
                let comma = norm.len() - after.len();
                let indent = indent_of(&norm, last.start);
                (
                    comma + 1,
                    format!("{line_end}{}", entry(stamp, &indent).trim_end_matches('\n')),
                )
            } else {
                let indent = indent_of(&norm, last.start);
                (
                    last.end,
                    format!(
                        ",{line_end}{}",
                        entry(stamp, &indent).trim_end_matches(",\n")
                    ),
                )
            }
        }
        None => (
            list.open + 1,
            format!("{line_end}{}", entry(stamp, "        ")),
        ),
    };
    let entry_text = insert.replace('\n', line_end).replace("\r\r\n", "\r\n");
    Ok(format!("{bom}{}{entry_text}{}", &norm[..at], &norm[at..]))
}

/// The blanks before the value starting at `start`, if it starts its line; else eight spaces.
fn indent_of(text: &str, start: usize) -> String {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    if before.chars().all(|c| c == ' ' || c == '\t') {
        before.to_owned()
    } else {
        "        ".to_owned()
    }
}

/// A stamp's entry, indented by `indent`, ending `),\n`.
fn entry(stamp: &Stamp, indent: &str) -> String {
    let mut out = format!(
        "{indent}(\n{indent}    name: {},\n{indent}    rows: [\n",
        quote(&stamp.name)
    );
    for row in &stamp.rows {
        out.push_str(&format!("{indent}        {},\n", quote(row)));
    }
    out.push_str(&format!("{indent}    ],\n{indent}),\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(name: &str, rows: &[&str]) -> Stamp {
        Stamp {
            name: name.to_owned(),
            rows: rows.iter().map(|r| (*r).to_owned()).collect(),
        }
    }

    #[test]
    fn a_new_file_then_a_second_stamp_keep_what_the_author_wrote() {
        let dir = std::env::temp_dir().join(format!("crate-room-stamps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(STAMP_FILE);
        let first = add_stamp(&path, &stamp("stamp 1", &["#.#", ".C."])).unwrap();
        assert_eq!(first, [stamp("stamp 1", &["#.#", ".C."])]);
        // The author renames it and adds a comment.
        let text = std::fs::read_to_string(&path).unwrap();
        let edited = text.replace("\"stamp 1\"", "\"pillar\" /* mine */");
        std::fs::write(&path, &edited).unwrap();
        let both = add_stamp(&path, &stamp("stamp 2", &["c"])).unwrap();
        assert_eq!(
            both,
            [stamp("pillar", &["#.#", ".C."]), stamp("stamp 2", &["c"])]
        );
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(after.starts_with(&edited[..edited.find("    ],\n)").unwrap()]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_list_without_a_trailing_comma_or_on_one_line_takes_a_stamp() {
        let path = Path::new("stamps.txt");
        for text in [
            "(stamps: [(name: \"a\", rows: [\"#\"])])",
            "(stamps: [])",
            "(\n  stamps: [\n    (name: \"a\", rows: [\"#\"]),\n  ],\n)\n",
        ] {
            let out = insert_entry(path, text, &stamp("b", &["c.", ".c"])).unwrap();
            let stamps = parse_stamps(path, &out).unwrap_or_else(|e| panic!("{e}\n{out}"));
            assert_eq!(stamps.last(), Some(&stamp("b", &["c.", ".c"])), "{out}");
        }
    }

    #[test]
    fn bad_stamp_files_say_where_and_what() {
        let path = Path::new("stamps.txt");
        let error = |text: &str| parse_stamps(path, text).unwrap_err().to_string();
        let ragged = error("(stamps: [\n  (name: \"a\", rows: [\"##\", \"#\"]),\n])");
        assert!(
            ragged.starts_with(
                "stamps.txt:2:28: error: stamp \"a\" row 1 is 1 cells wide, but row 0 is 2"
            ),
            "{ragged}"
        );
        let empty = error("(stamps: [(name: \"\", rows: [\"#\"])])");
        assert!(
            empty.contains("1:18: error: a stamp name is 1 to 64"),
            "{empty}"
        );
        let unknown = error("(stamps: [(name: \"a\", rowz: [\"#\"])])");
        assert!(unknown.contains("unknown field `rowz`"), "{unknown}");
        assert!(error("(stamps: [(name: \"a\", rows: [])])").contains("has no rows"));
    }
}
