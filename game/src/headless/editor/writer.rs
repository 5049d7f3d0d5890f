//! The span-preserving writer: the text of the file as opened, with only what the edits changed
//! rewritten.
//!
//! The file as opened ([`Base`]) is never modified. Its map rows and crate overrides are found
//! once with the level module's span scanner ([`Spans::list`]); writing the edited level is a
//! list of byte-range replacements on that text, applied in order:
//!
//! ```text
//! base text:   ...map: [\n    "####",\n    "#@.#",\n    "####",\n  ],\n  crates: [ (at: (1, 1)...
//!                             ^^^^^^      ^^^^^^ changed row: literal replaced
//!                             kept byte-for-byte  rows added after the last kept row copy the
//!                                                 separator (`,` + line end + indentation)
//! ```
//!
//! - A row whose characters did not change keeps its literal exactly (escapes, raw strings).
//! - A removed row (or override) loses its literal (or entry), its comma, and the line if
//!   nothing else is on it; a comment on its line or next to it stays.
//! - Rows added at the top go before the first row that is kept, rows added at the bottom after
//!   the last, each as the file's own separator plus a new literal.
//! - An override keeps its entry; only the numbers of its `at` change when rows or columns were
//!   added or removed at the top or left.
//!
//! Because the base never changes, undoing every edit gives back the opened text exactly.

use std::ops::Range;
use std::path::Path;

use crate::level::spans::{Spans, Step};
use crate::level::validate::{Glyph, built_in, legend_glyph};
use crate::level::{self, Level, LevelError};

use super::map::Grid;
use super::meta::{CrateOverride, Meta, override_entry};
use super::quote::quote;
use super::save::DroppedOverride;

/// One crate override of the file as opened.
#[derive(Clone, Debug)]
pub(crate) struct BaseOverride {
    /// Its `at`, as written.
    pub at: (u32, u32),
    /// 1-based line of the entry in the file.
    pub line: usize,
    /// The whole `( ... )` entry.
    item: Range<usize>,
    /// The two numbers of its `at`.
    x: Range<usize>,
    y: Range<usize>,
    /// Its `health`, `skin` and `coin` as written.
    pub fields: CrateOverride,
}

/// The file as opened: its text, and where its map rows and overrides are in it.
#[derive(Clone, Debug)]
pub(crate) struct Base {
    /// Whether the file starts with a byte-order mark (kept on save; not part of `text`).
    bom: bool,
    /// The text after the byte-order mark, as in the file.
    text: String,
    /// The decoded map rows.
    pub rows: Vec<String>,
    pub width: u32,
    /// The literal of each map row.
    row_spans: Vec<Range<usize>>,
    pub overrides: Vec<BaseOverride>,
    /// Legend characters in file order, with what they place.
    pub legend: Vec<(char, Glyph)>,
    /// What goes between two rows added to the map: `,` then a line end and the rows'
    /// indentation, or `, ` for a map written on one line.
    row_separator: String,
    /// The level's name, and its string literal.
    pub name: String,
    name_span: Range<usize>,
    /// Where a new crate override goes: see [`NewOverrides`].
    new_overrides: NewOverrides,
}

/// Where the editor inserts crate overrides the file does not have yet, and how.
#[derive(Clone, Debug)]
struct NewOverrides {
    /// Offset to insert at.
    at: usize,
    /// Text before the first new entry, between two, and after the last.
    before: String,
    between: String,
    after: String,
}

impl Base {
    /// Read the text of a level file; it must pass [`level::parse`], whose error is returned
    /// otherwise.
    pub fn new(path: &Path, file_text: &str, skins: &[&str]) -> Result<(Base, Level), LevelError> {
        let level = level::parse(path, file_text, skins)?;
        let (bom, text) = match file_text.strip_prefix('\u{feff}') {
            Some(rest) => (true, rest),
            None => (false, file_text),
        };
        // Offsets in the normalized text are offsets in `text`: a lone `\r` becomes one `\n`.
        let norm = level::lone_cr_to_lf(text);
        let unreadable = |what: &str| {
            LevelError::whole_file(path, format!("the editor cannot find {what} in this file"))
        };
        let raw = level::parse_raw(&norm).map_err(|_| unreadable("the level"))?;
        let spans = Spans::new(&norm);
        let map = spans
            .list(&[Step::Field("map")])
            .filter(|list| list.items.len() == raw.map.rows.len())
            .ok_or_else(|| unreadable("the map rows"))?;
        let mut overrides = Vec::with_capacity(raw.crates.0.len());
        if !raw.crates.0.is_empty() {
            let list = spans
                .list(&[Step::Field("crates")])
                .filter(|list| list.items.len() == raw.crates.0.len())
                .ok_or_else(|| unreadable("the crate overrides"))?;
            // Each lookup starts at its own item, and lines are counted on from the item
            // before: opening costs what the file holds, not its size once per override.
            let (mut counted_to, mut line) = (0, 1);
            for (over, item) in raw.crates.0.iter().zip(list.items) {
                let number = |n| {
                    let start = spans.find_from(item.start, &[Step::Field("at"), Step::Item(n)])?;
                    Some(start..spans.value_end(start)?)
                };
                let (Some(x), Some(y)) = (number(0), number(1)) else {
                    return Err(unreadable("a crate override's `at`"));
                };
                line += spans.lines_ending_in(counted_to..item.start);
                counted_to = item.start;
                overrides.push(BaseOverride {
                    // Validation put every `at` inside the map.
                    at: (over.at.0 as u32, over.at.1 as u32),
                    line,
                    item,
                    x,
                    y,
                    fields: CrateOverride {
                        health: over.health,
                        skin: over.skin.clone(),
                        coin: over.coin,
                    },
                });
            }
        }
        let legend = raw
            .legend
            .0
            .iter()
            .filter_map(|(key, entry)| Some((key.0.chars().next()?, legend_glyph(entry))))
            .collect();
        let row_separator = row_separator(text, &map.items);
        let name_span = spans
            .find(&[Step::Field("name")])
            .and_then(|start| Some(start..spans.value_end(start)?))
            .ok_or_else(|| unreadable("the name"))?;
        let new_overrides =
            new_overrides(text, &spans, &map.items).ok_or_else(|| unreadable("the level's end"))?;
        let base = Base {
            name: raw.name.clone(),
            name_span,
            new_overrides,
            bom,
            text: text.to_owned(),
            width: level.width,
            rows: raw.map.rows,
            row_spans: map.items,
            overrides,
            legend,
            row_separator,
        };
        Ok((base, level))
    }

    /// What map character `c` places, if it is one this level knows.
    pub fn glyph(&self, c: char) -> Option<Glyph> {
        match self.legend.iter().find(|(k, _)| *k == c) {
            Some((_, glyph)) => Some(glyph.clone()),
            None => built_in(c),
        }
    }

    /// The file's text with `grid` as its map and `meta`'s name and overrides.
    pub fn render(&self, grid: &Grid, meta: &Meta) -> Rendered {
        // The order edits are pushed in breaks ties between edits at one offset.
        let mut edits: Vec<Edit> = Vec::new();
        self.row_edits(grid, &mut edits);
        if let Some(name) = &meta.name
            && *name != self.name
        {
            edits.push((self.name_span.clone(), quote(name)));
        }
        self.new_override_edits(grid, meta, &mut edits);
        let (dropped, moved) = self.base_override_edits(grid, meta, &mut edits);
        Rendered {
            text: self.apply(edits),
            dropped,
            moved,
        }
    }

    /// The edits that turn the base's map rows into `grid`'s: rows added above and below the
    /// kept run, changed rows rewritten, removed rows deleted.
    fn row_edits(&self, grid: &Grid, edits: &mut Vec<Edit>) {
        let literal = |y: u32| quote(&grid.row(y));
        let (_, oy) = grid.origin();
        let base_h = self.rows.len() as i64;
        // Base row r is grid row r - oy. Kept rows are one run; if none is left, the first base
        // row carries the grid's first row.
        let first = oy.max(0);
        let last = (oy + i64::from(grid.height())).min(base_h) - 1;
        let (first, last, shift) = if first <= last {
            (first as usize, last as usize, oy)
        } else {
            (0, 0, 0)
        };
        let grid_row = |r: usize| (r as i64 - shift) as u32;
        let top = grid_row(first);
        let bottom = grid_row(last);
        let mut inserted = String::new();
        for y in 0..top {
            inserted.push_str(&literal(y));
            inserted.push_str(&self.row_separator);
        }
        if !inserted.is_empty() {
            let at = self.row_spans[first].start;
            edits.push((at..at, inserted));
        }
        for (r, span) in self.row_spans.iter().enumerate() {
            if (first..=last).contains(&r) {
                let y = grid_row(r);
                if grid.row(y) != self.rows[r] {
                    edits.push((span.clone(), literal(y)));
                }
            } else {
                edits.push((removal(&self.text, span.clone()), String::new()));
            }
        }
        let mut appended = String::new();
        for y in bottom + 1..grid.height() {
            appended.push_str(&self.row_separator);
            appended.push_str(&literal(y));
        }
        if !appended.is_empty() {
            let at = self.row_spans[last].end;
            edits.push((at..at, appended));
        }
    }

    /// Whether grid cell (`x`, `y`) holds a crate (never for a cell off the top or left).
    fn holds_crate(&self, grid: &Grid, x: i64, y: i64) -> bool {
        u32::try_from(x)
            .ok()
            .zip(u32::try_from(y).ok())
            .and_then(|(x, y)| grid.get(x, y))
            .and_then(|c| self.glyph(c))
            .is_some_and(|g| matches!(g, Glyph::Crate { .. }))
    }

    /// The edit that adds the overrides made in the editor on cells the base has none for.
    fn new_override_edits(&self, grid: &Grid, meta: &Meta, edits: &mut Vec<Edit>) {
        let (ox, oy) = grid.origin();
        let mut added = Vec::new();
        for edit in &meta.overrides {
            let in_base = self
                .overrides
                .iter()
                .any(|o| (i64::from(o.at.0), i64::from(o.at.1)) == edit.at);
            let (x, y) = (edit.at.0 - ox, edit.at.1 - oy);
            if !in_base && !edit.fields.is_empty() && self.holds_crate(grid, x, y) {
                added.push(override_entry((x, y), &edit.fields));
            }
        }
        if !added.is_empty() {
            let n = &self.new_overrides;
            let text = format!("{}{}{}", n.before, added.join(&n.between), n.after);
            edits.push((n.at..n.at, text));
        }
    }

    /// The edits to the base's overrides: dropped where no crate stands any more, rewritten
    /// where edited, their `at` renumbered where rows or columns moved. Gives the dropped ones
    /// and how many moved.
    fn base_override_edits(
        &self,
        grid: &Grid,
        meta: &Meta,
        edits: &mut Vec<Edit>,
    ) -> (Vec<DroppedOverride>, usize) {
        let (ox, oy) = grid.origin();
        let mut dropped = Vec::new();
        let mut moved = 0;
        for over in &self.overrides {
            let was = (i64::from(over.at.0), i64::from(over.at.1));
            let (x, y) = (was.0 - ox, was.1 - oy);
            if !self.holds_crate(grid, x, y) {
                let now = u32::try_from(x).ok().zip(u32::try_from(y).ok());
                dropped.push(DroppedOverride {
                    at: over.at,
                    line: over.line,
                    now: now.filter(|&(x, y)| x < grid.width() && y < grid.height()),
                });
                edits.push((removal(&self.text, over.item.clone()), String::new()));
                continue;
            }
            if let Some(fields) = meta.override_at(was)
                && *fields != over.fields
            {
                // Edited in the editor: the entry is written anew (or goes, if it is empty).
                if fields.is_empty() {
                    edits.push((removal(&self.text, over.item.clone()), String::new()));
                } else {
                    edits.push((over.item.clone(), override_entry((x, y), fields)));
                }
                continue;
            }
            if (x, y) != was {
                moved += 1;
            }
            if x != was.0 {
                edits.push((over.x.clone(), x.to_string()));
            }
            if y != was.1 {
                edits.push((over.y.clone(), y.to_string()));
            }
        }
        (dropped, moved)
    }

    /// The base text with `edits` applied.
    fn apply(&self, mut edits: Vec<Edit>) -> String {
        // An insertion at an offset goes before a replacement starting there.
        edits.sort_by_key(|(range, _)| (range.start, range.end));
        let mut text = String::with_capacity(self.text.len() + 3 + 64);
        if self.bom {
            text.push('\u{feff}');
        }
        let mut at = 0;
        for (mut range, with) in edits {
            // Two neighbouring removals may both claim the blanks between them.
            if range.start < at && with.is_empty() {
                range.start = at.min(range.end);
            }
            // Nothing else overlaps (rows, overrides and their separators are disjoint); a
            // broken invariant keeps the text rather than corrupting it, and `save` validates.
            debug_assert!(range.start >= at, "overlapping edits at {}", range.start);
            if range.start < at {
                continue;
            }
            let range = range.start..range.end.max(at);
            text.push_str(&self.text[at..range.start]);
            text.push_str(&with);
            at = range.end;
        }
        text.push_str(&self.text[at..]);
        text
    }
}

/// One edit of the base text: the byte range replaced and what replaces it.
type Edit = (Range<usize>, String);

/// A rendered level file and what rendering it did to the crate overrides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rendered {
    pub text: String,
    pub dropped: Vec<DroppedOverride>,
    /// Overrides whose `at` was rewritten.
    pub moved: usize,
}

/// The byte range to delete to remove the list item at `item`: the item and its comma; the
/// whole line if nothing else is on it; and, when nothing follows on its line, the blanks
/// before it. A comment is never inside the range unless it is inside the item.
fn removal(text: &str, item: Range<usize>) -> Range<usize> {
    let bytes = text.as_bytes();
    let blanks_from = |mut i: usize| {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let line_start = text[..item.start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let alone_before = text[line_start..item.start]
        .bytes()
        .all(|b| b == b' ' || b == b'\t');
    let after_item = blanks_from(item.end);
    let comma = bytes.get(after_item) == Some(&b',');
    let after = if comma {
        blanks_from(after_item + 1)
    } else {
        item.end
    };
    let rest_empty_to = match bytes.get(blanks_from(after)) {
        None => Some(bytes.len()),
        Some(b'\n') => Some(blanks_from(after) + 1),
        Some(b'\r') if bytes.get(blanks_from(after) + 1) == Some(&b'\n') => {
            Some(blanks_from(after) + 2)
        }
        Some(b'\r') => Some(blanks_from(after) + 1),
        _ => None,
    };
    let mut blanks_before = item.start;
    while blanks_before > line_start && matches!(bytes[blanks_before - 1], b' ' | b'\t') {
        blanks_before -= 1;
    }
    match (alone_before, rest_empty_to) {
        (true, Some(line_end)) => line_start..line_end,
        (false, Some(_)) => blanks_before..after,
        (_, None) if comma => item.start..after,
        // The list's last item, without a comma, with something after it on its line.
        (_, None) => blanks_before..item.end,
    }
}

/// The separator for rows added to the map: the one between its first two rows with any
/// comment left out (`,` + line end + the rows' indentation), or `, `.
fn row_separator(text: &str, rows: &[Range<usize>]) -> String {
    let Some(first) = rows.first() else {
        return ", ".to_owned();
    };
    let line_start = text[..first.start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let indent = &text[line_start..first.start];
    let own_line = indent.bytes().all(|b| b == b' ' || b == b'\t');
    let next_on_same_line = rows
        .get(1)
        .is_some_and(|second| !text[first.end..second.start].contains(['\n', '\r']));
    if own_line && !next_on_same_line {
        format!(",{}{indent}", line_end(text))
    } else {
        ", ".to_owned()
    }
}

/// Where new crate overrides go: first in `crates: [...]`, or, for a file without `crates`, a
/// new field after the last one.
fn new_overrides(text: &str, spans: &Spans<'_>, rows: &[Range<usize>]) -> Option<NewOverrides> {
    let end = line_end(text);
    let indent_of = |start: usize| {
        let line_start = text[..start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let before = &text[line_start..start];
        before
            .bytes()
            .all(|b| b == b' ' || b == b'\t')
            .then(|| before.to_owned())
    };
    if let Some(list) = spans.list(&[Step::Field("crates")]) {
        // Right after the `[`: before every entry of the file, so never inside the removal of
        // one (the last entry's comma may be removed with it).
        let own_lines = list.items.first().and_then(|first| indent_of(first.start));
        return Some(match own_lines {
            Some(indent) => NewOverrides {
                at: list.open + 1,
                before: format!("{end}{indent}"),
                between: format!(",{end}{indent}"),
                after: ",".to_owned(),
            },
            None => NewOverrides {
                at: list.open + 1,
                before: String::new(),
                between: ", ".to_owned(),
                after: if list.items.is_empty() { "" } else { ", " }.to_owned(),
            },
        });
    }
    // No `crates` yet: a new field after the last field's value.
    let last_value_end = ["name", "map", "legend"]
        .iter()
        .filter_map(|f| {
            let start = spans.find(&[Step::Field(f)])?;
            spans.value_end(start)
        })
        .max()?;
    let field_indent = spans
        .find(&[Step::Field("map")])
        .map(|start| {
            // The indentation of the line `map:` is on.
            let line_start = text[..start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
            let line = &text[line_start..start];
            let blanks = line.len() - line.trim_start().len();
            line[..blanks].to_owned()
        })
        .unwrap_or_default();
    let item_indent = rows
        .first()
        .and_then(|r| indent_of(r.start))
        .unwrap_or_else(|| format!("{field_indent}    "));
    let after_value = text[last_value_end..].trim_start_matches([' ', '\t']);
    let comma = after_value.starts_with(',');
    let at = if comma {
        text.len() - after_value.len() + 1
    } else {
        last_value_end
    };
    let lead = if comma { "" } else { "," };
    Some(NewOverrides {
        at,
        before: format!("{lead}{end}{field_indent}crates: [{end}{item_indent}"),
        between: format!(",{end}{item_indent}"),
        after: format!(",{end}{field_indent}]{}", if comma { "," } else { "" }),
    })
}

/// The file's line end: that of its first line.
fn line_end(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(i) if text[i..].starts_with("\r\n") => "\r\n",
        Some(i) if text[i..].starts_with('\r') => "\r",
        _ => "\n",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removal_takes_the_line_or_the_item_and_never_a_comment() {
        let cut = |text: &str, item: &str| {
            let start = text.find(item).unwrap();
            let r = removal(text, start..start + item.len());
            format!("{}{}", &text[..r.start], &text[r.end..])
        };
        assert_eq!(cut("[\n  \"a\",\n  \"b\",\n]", "\"a\""), "[\n  \"b\",\n]");
        assert_eq!(
            cut("[\r\n  \"a\",\r\n  \"b\"\r\n]", "\"b\""),
            "[\r\n  \"a\",\r\n]"
        );
        assert_eq!(cut("[\"a\", \"b\", \"c\"]", "\"b\""), "[\"a\", \"c\"]");
        assert_eq!(cut("[\"a\", \"b\"]", "\"b\""), "[\"a\",]");
        assert_eq!(
            cut("[\n  \"a\", // the top\n  \"b\",\n]", "\"a\""),
            "[\n  // the top\n  \"b\",\n]"
        );
        assert_eq!(cut("[\n  \"a\", \"b\",\n]", "\"b\""), "[\n  \"a\",\n]");
    }
}
