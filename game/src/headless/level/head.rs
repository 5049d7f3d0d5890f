//! A level's name from the head of its file, without reading the rest: what the title screen
//! lists a big sandbox level by (a level of millions of crates is megabytes of map, and parsing
//! thirty of them would hold the title for seconds). The level format puts `name` first, as
//! `gen-level` and the editor write it; a file that does not is listed by its file name.

use std::io::Read as _;
use std::path::Path;

/// Bytes read from the head of a file: far more than a comment and a name.
const HEAD_BYTES: u64 = 16 * 1024;

/// Files of at least this size are listed by [`head_name`] rather than loaded (a 100,000-crate
/// level is about 200 KiB).
pub const WHOLE_READ_MAX_BYTES: u64 = 1024 * 1024;

/// The `name` of the level at `path`, if it is the first field of its file and within the
/// file's first [`HEAD_BYTES`]. Never reads more, and never blocks on a FIFO.
pub fn head_name(path: &Path) -> Option<String> {
    let file = crate::fsutil::open_regular(path).ok()?;
    let mut head = Vec::new();
    file.take(HEAD_BYTES).read_to_end(&mut head).ok()?;
    let text = String::from_utf8_lossy(&head);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let rest = skip_blanks(text).strip_prefix('(')?;
    let rest = skip_blanks(rest).strip_prefix("name")?;
    let rest = skip_blanks(rest).strip_prefix(':')?;
    let rest = skip_blanks(rest);
    let literal = string_literal(rest)?;
    let name: String = ron::from_str(literal).ok()?;
    (!name.trim().is_empty()).then_some(name)
}

/// `text` past whitespace and `//` or `/* */` comments.
fn skip_blanks(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(rest) = text.strip_prefix("//") {
            text = rest.find(['\n', '\r']).map_or("", |i| &rest[i..]);
        } else if let Some(rest) = text.strip_prefix("/*") {
            text = rest.find("*/").map_or("", |i| &rest[i + 2..]);
        } else {
            return text;
        }
    }
}

/// The double-quoted string at the start of `text`, quotes and escapes included.
fn string_literal(text: &str) -> Option<&str> {
    let body = text.strip_prefix('"')?;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => return Some(&text[..i + 2]),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_read_from_the_head_as_written_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("level-head-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cases = [
            (
                "// Generated.\n(\n    name: \"Big \\\"one\\\"\",\n    map: [",
                Some("Big \"one\""),
            ),
            ("\u{feff}/* c */ ( name : \"Ünï\" , map: [", Some("Ünï")),
            ("(\n    map: [\"#@c#\"],\n    name: \"Late\",\n)", None),
            ("(name: \"unterminated", None),
            ("(name: \"  \", map: [", None),
        ];
        for (i, (text, want)) in cases.into_iter().enumerate() {
            let path = dir.join(format!("{i}.ron"));
            std::fs::write(&path, text).unwrap();
            assert_eq!(head_name(&path).as_deref(), want, "{text:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
