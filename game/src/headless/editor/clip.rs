//! The clipboard's text: map rows as a level file writes them, one quoted row a line with a
//! trailing comma, so a copied piece pastes between levels, into a text editor's `map: [...]`
//! and back.
//!
//! ```text
//! "#..c",
//! "#.C.",
//! ```
//!
//! Reading it back takes each non-blank line: a line starting with `"` or `r"` is a RON string
//! literal (its escapes decoded, a trailing comma allowed); any other line is the row itself,
//! as typed. Every row must be as wide as the first.

use super::quote::quote;

/// Why clipboard text is not map rows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClipError {
    #[error("the clipboard holds no map rows")]
    Empty,
    #[error("clipboard line {line}: {message}")]
    Literal { line: usize, message: String },
    #[error("clipboard line {line} is {found} characters wide; the first row is {width}")]
    Ragged {
        line: usize,
        found: usize,
        width: usize,
    },
    #[error(
        "the clipboard's rows are {width} x {height}; a piece is at most {max} x {max}",
        max = crate::level::MAX_SIDE
    )]
    TooLarge { width: usize, height: usize },
}

/// The clipboard text of `rows`.
pub fn rows_to_text(rows: &[String]) -> String {
    rows.iter().map(|r| format!("{},\n", quote(r))).collect()
}

/// Map rows from clipboard text.
///
/// # Errors
/// [`ClipError`] for text with no rows, a bad string literal, rows of different widths, or a
/// piece larger than the largest map.
pub fn text_to_rows(text: &str) -> Result<Vec<Vec<char>>, ClipError> {
    let mut rows: Vec<Vec<char>> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let row: Vec<char> = if trimmed.starts_with('"')
            || trimmed.starts_with("r\"")
            || trimmed.starts_with("r#")
        {
            let literal = trimmed.strip_suffix(',').unwrap_or(trimmed).trim_end();
            let decoded: String = ron::from_str(literal).map_err(|e| ClipError::Literal {
                line: line_no,
                message: format!("not a map row string: {}", e.code),
            })?;
            decoded.chars().collect()
        } else {
            line.trim_end_matches(['\r', '\n']).chars().collect()
        };
        if let Some(first) = rows.first()
            && first.len() != row.len()
        {
            return Err(ClipError::Ragged {
                line: line_no,
                found: row.len(),
                width: first.len(),
            });
        }
        rows.push(row);
    }
    let (height, width) = (rows.len(), rows.first().map_or(0, Vec::len));
    if height == 0 || width == 0 {
        return Err(ClipError::Empty);
    }
    let max = crate::level::MAX_SIDE as usize;
    if width > max || height > max {
        return Err(ClipError::TooLarge { width, height });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_go_to_text_and_back() {
        let rows = vec!["#..c".to_owned(), "\"\\ @".to_owned()];
        let text = rows_to_text(&rows);
        assert_eq!(text, "\"#..c\",\n\"\\\"\\\\ @\",\n");
        let back: Vec<String> = text_to_rows(&text)
            .unwrap()
            .into_iter()
            .map(|r| r.into_iter().collect())
            .collect();
        assert_eq!(back, rows);
    }

    #[test]
    fn rows_from_a_level_file_or_typed_bare_paste_too() {
        let from_file = "        \"#.c\",\n        r\"#$#\" \n";
        assert_eq!(
            text_to_rows(from_file).unwrap(),
            [vec!['#', '.', 'c'], vec!['#', '$', '#']]
        );
        assert_eq!(text_to_rows("c.c\n.c.\n").unwrap()[1], ['.', 'c', '.']);
    }

    #[test]
    fn bad_clipboard_text_says_what_is_wrong() {
        assert_eq!(text_to_rows("\n  \n"), Err(ClipError::Empty));
        assert_eq!(
            text_to_rows("\"ab\",\n\"abc\",\n").unwrap_err().to_string(),
            "clipboard line 2 is 3 characters wide; the first row is 2"
        );
        assert!(
            text_to_rows("\"ab")
                .unwrap_err()
                .to_string()
                .starts_with("clipboard line 1: not a map row string")
        );
    }
}
