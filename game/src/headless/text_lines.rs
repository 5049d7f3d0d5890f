//! Lines of a text file as players' editors write them: a byte-order mark at the start is not
//! part of the first line, and a line ends at `\n`, `\r\n` or a lone `\r` (old Mac editors).
//! Every line-based file the game reads (best times, progress, settings, input scripts,
//! replays) is split here, so that a line number in a message is the one an editor shows.
//! (Levels, which `ron` parses, do the same in `level::loading`.)

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// The lines of `text`, without their line ends. A last line without an end is a line; an
/// empty text has none.
///
/// ```
/// use game::text_lines::lines;
/// let text = "\u{feff}one\r\ntwo\rthree\nfour";
/// assert_eq!(lines(text).collect::<Vec<_>>(), ["one", "two", "three", "four"]);
/// ```
pub fn lines(text: &str) -> Lines<'_> {
    Lines(byte_lines(text.as_bytes()))
}

/// [`lines`] of text not yet known to be UTF-8: each line is checked on its own, so one bad
/// line does not cost the others.
pub fn byte_lines(bytes: &[u8]) -> ByteLines<'_> {
    ByteLines(bytes.strip_prefix(BOM).unwrap_or(bytes))
}

/// The iterator of [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a>(ByteLines<'a>);

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        // Split at ASCII bytes of UTF-8 text, so every piece is UTF-8 too.
        self.0
            .next()
            .map(|line| std::str::from_utf8(line).unwrap_or_default())
    }
}

/// The iterator of [`byte_lines`]: what is left to split.
#[derive(Clone, Debug)]
pub struct ByteLines<'a>(&'a [u8]);

impl<'a> Iterator for ByteLines<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let rest = self.0;
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .unwrap_or(rest.len());
        let skip = match rest.get(end..end + 2) {
            Some(b"\r\n") => 2,
            _ => usize::from(end < rest.len()),
        };
        self.0 = &rest[end + skip..];
        Some(&rest[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_end_and_a_bom_are_understood() {
        fn split(t: &str) -> Vec<&str> {
            lines(t).collect()
        }
        assert_eq!(split(""), Vec::<&str>::new());
        assert_eq!(split("a\n"), ["a"]);
        assert_eq!(split("a\n\nb"), ["a", "", "b"]);
        assert_eq!(split("a\r\rb\r\n"), ["a", "", "b"]);
        assert_eq!(
            split("\u{feff}\u{feff}x"),
            ["\u{feff}x"],
            "only the first is a mark"
        );
        assert_eq!(split("é\rü"), ["é", "ü"]);
        let bytes: Vec<&[u8]> = byte_lines(b"\xef\xbb\xbf\xff\r\nok").collect();
        assert_eq!(bytes, [&b"\xff"[..], b"ok"]);
    }
}
