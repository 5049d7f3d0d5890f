//! The level editor's model: the document being edited, its commands and undo history, and the
//! writer that saves it back to its RON file without losing anything the author wrote.
//!
//! Plain Rust, no window: the window side maps mouse and keys to these calls and draws
//! [`Editor::cell`] and [`Editor::palette`].
//!
//! # API in brief
//! - [`Editor::open`] reads a level file (it must pass `check`); [`Editor::new_level`] starts a
//!   walled room for a file that does not exist yet.
//! - Reading: [`width`](Editor::width), [`height`](Editor::height), [`cell`](Editor::cell),
//!   [`palette`](Editor::palette) (built-ins, then the level's legend, each a [`Brush`] with
//!   what it places), [`path`](Editor::path).
//! - Editing (each is one undo step, refused with an [`EditError`] rather than panicking):
//!   [`paint`](Editor::paint) (`'@'` moves the one player start) between
//!   [`begin_stroke`](Editor::begin_stroke) and [`end_stroke`](Editor::end_stroke) for a
//!   drag, [`fill`](Editor::fill) a [`CellRect`], [`flood`](Editor::flood) a connected
//!   region, [`place`](Editor::place) a piece (a paste, a stamp), [`move_rect`](Editor::move_rect),
//!   [`scatter`](Editor::scatter), [`resize`](Editor::resize) on a [`Side`] or
//!   [`set_size`](Editor::set_size), [`set_name`](Editor::set_name),
//!   [`set_crate_override`](Editor::set_crate_override) (both checked by the validator);
//!   [`undo`](Editor::undo), [`redo`](Editor::redo). [`rows`](Editor::rows) reads a
//!   rectangle; [`rows_to_text`] and [`text_to_rows`] are the clipboard's text; stamps are
//!   [`load_stamps`] and [`add_stamp`].
//!   [`can_undo`](Editor::can_undo) and [`can_redo`](Editor::can_redo) say whether they would
//!   do anything.
//! - Verdict: [`problem`](Editor::problem) is what `check` would say of the file a save writes
//!   (computed once after an edit, when first asked for), [`level`](Editor::level) the playable
//!   level, [`overrides_to_remove`](Editor::overrides_to_remove) the `crates` entries a save
//!   drops (show them before saving).
//! - Saving: [`text`](Editor::text) is exactly what [`save`](Editor::save) writes. `save`
//!   refuses an invalid level ([`SaveError::Invalid`]), a file changed on disk since the editor
//!   read it ([`SaveError::ChangedOnDisk`]; [`save_overwriting`](Editor::save_overwriting)
//!   replaces it on purpose) and reports a failed write ([`SaveError::Write`]); the edits stay
//!   in memory. [`is_modified`](Editor::is_modified); [`last_saved`](Editor::last_saved) is
//!   what the file held when the editor last read or wrote it: a hot-reload event whose file
//!   holds exactly those bytes is the editor's own save.
//!
//! # What a save changes
//! Only the map rows that changed (their string literals), rows added or removed, the crate
//! overrides whose cell no longer holds a crate (their whole entry), and the numbers of an
//! override's `at` when rows or columns were added or removed at the top or left. Everything
//! else (comments anywhere, field order, `name`, `legend`, indentation, trailing commas, line
//! ends, a byte-order mark) is kept byte for byte: `writer.rs` has the rules. Comments are
//! never removed, not even one above a removed override: only what is inside the removed
//! entry's brackets goes. Rows added copy the separator and indentation of the file's rows;
//! their cells are void. The undo history works on the file as opened, so undoing past a save
//! brings back what that save removed (an override whose crate returns is written again).
//!
//! ```
//! use std::path::Path;
//! use game::editor::{Editor, Side};
//! use game::level::DEFAULT_SKINS;
//!
//! let path = Path::new("new_room.ron");
//! let mut editor = Editor::new_level(path, 7, 5, &DEFAULT_SKINS).unwrap();
//! assert!(editor.problem().is_none());
//! assert_eq!(editor.cell(3, 2), Some('@'));
//! editor.paint(1, 1, 'c').unwrap();
//! editor.paint(5, 3, '@').unwrap(); // the player start moves
//! assert_eq!((editor.cell(3, 2), editor.cell(5, 3)), (Some('.'), Some('@')));
//! assert!(editor.text().contains("\"#c....#\",\n        \"#.....#\",\n        \"#....@#\""));
//! editor.resize(Side::Left, -1).unwrap();
//! assert!(editor.text().contains("\"c....#\""));
//! assert!(editor.undo() && editor.undo() && editor.undo());
//! let fresh = Editor::new_level(path, 7, 5, &DEFAULT_SKINS).unwrap();
//! assert_eq!(editor.text(), fresh.text());
//!
//! editor.paint(3, 2, ' ').unwrap(); // no player start left: a save is refused
//! assert_eq!(editor.problem().unwrap().message, "the map has no player start `@`");
//! ```

mod clip;
mod flood;
mod history;
mod map;
mod meta;
mod palette;
mod save;
mod scatter;
mod stamps;
mod writer;

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use crate::level::{self, Level, LevelError, MAX_SIDE};

pub use clip::{ClipError, rows_to_text, text_to_rows};
pub use history::HISTORY_CELLS;
pub use map::NEW_CELL;
pub use meta::CrateOverride;
pub use palette::{Brush, BrushKind};
pub use save::WriteError;
pub use scatter::{SCATTER_STEPS, scatter_hits};
pub use stamps::{
    MAX_STAMPS, STAMP_FILE, Stamp, StampError, add_stamp, load_stamps, parse_stamps, stamp_path,
};

use history::{CellChange, History, Step};
use map::Grid;
use meta::Meta;
use writer::{Base, Rendered};

/// A side of the map, for [`Editor::resize`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

/// A rectangle of cells: `width` x `height` cells from column `x`, row `y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellRect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl CellRect {
    /// The rectangle with corners `a` and `b` (both included), in either order: what a drag
    /// from `a` to `b` covers.
    pub fn spanning(a: (u32, u32), b: (u32, u32)) -> Self {
        CellRect {
            x: a.0.min(b.0),
            y: a.1.min(b.1),
            width: a.0.abs_diff(b.0) + 1,
            height: a.1.abs_diff(b.1) + 1,
        }
    }
}

/// An edit that cannot be applied; the map is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("({x}, {y}) is outside the {width} x {height} map")]
    OutOfBounds {
        x: u64,
        y: u64,
        width: u32,
        height: u32,
    },
    #[error("{} is not a map character of this level", shown_char(*.0))]
    NotInPalette(char),
    #[error("a level has one player start: place it with a click, not a fill")]
    FillWithPlayer,
    #[error("the piece has {0} player starts; a level has one")]
    PieceWithPlayers(usize),
    #[error("the map would be {width} x {height}; each side must be 1 to {MAX_SIDE} cells")]
    Size { width: i64, height: i64 },
}

/// Why a save did not happen; the edits are still in memory.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The level a save would write does not pass `check`; its error.
    #[error("not saved: {0}")]
    Invalid(LevelError),
    /// The file on disk is not what this editor last read or wrote: someone else changed (or
    /// created) it since. Saving would replace their edit; [`Editor::save_overwriting`] does
    /// that on purpose.
    #[error(
        "not saved: {} changed on disk since the editor read it; reopen it, or save over it",
        .0.display()
    )]
    ChangedOnDisk(PathBuf),
    /// Writing failed (read-only file or directory, missing directory, full disk, ...).
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// A crate override (`crates: [ (at: ...) ]`) that a save removes because its cell no longer
/// holds a crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedOverride {
    /// Its `at`, as written in the file.
    pub at: (u32, u32),
    /// Its line in the file as opened (1-based).
    pub line: usize,
    /// Where its cell is on the map being edited; `None` if a resize removed the cell.
    pub now: Option<(u32, u32)>,
}

/// What a successful save wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveReport {
    pub path: PathBuf,
    pub bytes: usize,
    /// The overrides the save left out (shown before saving by
    /// [`Editor::overrides_to_remove`]).
    pub dropped_overrides: Vec<DroppedOverride>,
    /// How many overrides had their `at` rewritten because rows or columns were added or
    /// removed at the top or left.
    pub moved_overrides: usize,
}

/// A level being edited: the file as opened, the map as edited, and the undo history.
#[derive(Debug)]
pub struct Editor {
    path: PathBuf,
    skins: Vec<String>,
    base: Base,
    grid: Grid,
    /// The name and crate overrides edited in the editor.
    meta: Meta,
    history: History,
    /// The cells changed by the stroke in progress, if one is.
    stroke: Option<Vec<CellChange>>,
    /// What a save would write now, and the validator's verdict on it: computed when first
    /// asked for after an edit (one render and one parse however many edits came between).
    rendered: OnceCell<Rendered>,
    problem: OnceCell<Option<LevelError>>,
    /// What the file held when this editor last read or wrote it; `None` for a new level not
    /// saved yet.
    last_saved: Option<Vec<u8>>,
}

impl Editor {
    /// Open the level file at `path` (read like `check` reads it: bounded, never blocking on a
    /// FIFO), which must be a valid level.
    ///
    /// # Errors
    /// The file's [`LevelError`] (path:line:col and message) if it cannot be read or is not a
    /// valid level.
    pub fn open(path: &Path, skins: &[&str]) -> Result<Editor, LevelError> {
        let bytes = level::read_level_file(path)?;
        // Validation reports a file that is not UTF-8 with its position.
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text,
            Err(_) => {
                return Err(level::parse_bytes(path, &bytes, skins)
                    .err()
                    .unwrap_or_else(|| {
                        LevelError::whole_file(path, "the file is not UTF-8 text")
                    }));
            }
        };
        let mut editor = Editor::from_text(path, text, skins)?;
        editor.last_saved = Some(bytes);
        Ok(editor)
    }

    /// A new level for a file that does not exist yet: `width` x `height` cells, walls round the
    /// edge, floor inside, the player start in the middle, named after the file. Nothing is
    /// written until [`save`](Self::save).
    ///
    /// # Errors
    /// [`EditError::Size`] unless both sides are 1 to [`MAX_SIDE`].
    pub fn new_level(
        path: &Path,
        width: u32,
        height: u32,
        skins: &[&str],
    ) -> Result<Editor, EditError> {
        let size_error = EditError::Size {
            width: i64::from(width),
            height: i64::from(height),
        };
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(size_error);
        }
        let text = new_level_text(path, width, height);
        // The text is a valid level by construction; a failure here is a bug, reported as the
        // size it was asked for rather than a panic.
        Editor::from_text(path, &text, skins).map_err(|_| size_error)
    }

    fn from_text(path: &Path, text: &str, skins: &[&str]) -> Result<Editor, LevelError> {
        let (base, _) = Base::new(path, text, skins)?;
        let grid = Grid::from_rows(&base.rows, base.width);
        let editor = Editor {
            path: path.to_owned(),
            skins: skins.iter().map(|s| (*s).to_owned()).collect(),
            base,
            grid,
            meta: Meta::default(),
            history: History::default(),
            stroke: None,
            rendered: OnceCell::new(),
            problem: OnceCell::new(),
            last_saved: None,
        };
        Ok(editor)
    }

    /// The level file's path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Columns of the map.
    pub fn width(&self) -> u32 {
        self.grid.width()
    }

    /// Rows of the map.
    pub fn height(&self) -> u32 {
        self.grid.height()
    }

    /// The map character at column `x`, row `y`; `None` outside the map.
    pub fn cell(&self, x: u32, y: u32) -> Option<char> {
        self.grid.get(x, y)
    }

    /// What the map character `c` places, if this level knows it.
    pub fn brush(&self, c: char) -> Option<Brush> {
        self.palette().into_iter().find(|b| b.ch == c)
    }

    /// The brushes: wall, floor, void, crate, strong crate, coin crate, loose coin, player start,
    /// keg, then each character of the level's `legend` in file order.
    pub fn palette(&self) -> Vec<Brush> {
        palette::palette(&self.base.legend)
    }

    /// Start a stroke: the paints until [`end_stroke`](Self::end_stroke) are one undo step.
    /// Starting a stroke while one is open ends that one first.
    pub fn begin_stroke(&mut self) {
        self.end_stroke();
        self.stroke = Some(Vec::new());
    }

    /// End the stroke in progress (if any) and record it as one undo step (if it changed
    /// anything).
    pub fn end_stroke(&mut self) {
        if let Some(changes) = self.stroke.take()
            && !changes.is_empty()
        {
            self.history.push(Step::Cells(changes));
        }
    }

    /// Paint cell (`x`, `y`) with map character `ch`; whether anything changed. Painting `'@'`
    /// moves the player start: the cell that held it becomes floor. Outside a stroke, a paint
    /// is an undo step of its own.
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`], or [`EditError::NotInPalette`] for a character the level
    /// does not define.
    pub fn paint(&mut self, x: u32, y: u32, ch: char) -> Result<bool, EditError> {
        self.check_char(ch)?;
        self.check_cell(u64::from(x), u64::from(y))?;
        let mut changes = Vec::new();
        if ch == '@' {
            for (px, py) in self.grid.find_all('@') {
                if (px, py) != (x, y) {
                    self.set(px, py, '.', &mut changes);
                }
            }
        }
        self.set(x, y, ch, &mut changes);
        Ok(self.record(changes))
    }

    /// Fill `rect` with `ch`, as one undo step; whether anything changed.
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`] if any of it is outside the map, [`EditError::NotInPalette`],
    /// or [`EditError::FillWithPlayer`] for `'@'`.
    pub fn fill(&mut self, rect: CellRect, ch: char) -> Result<bool, EditError> {
        self.check_char(ch)?;
        if ch == '@' {
            return Err(EditError::FillWithPlayer);
        }
        if rect.width == 0 || rect.height == 0 {
            return Ok(false);
        }
        self.check_cell(u64::from(rect.x), u64::from(rect.y))?;
        self.check_cell(
            u64::from(rect.x) + u64::from(rect.width) - 1,
            u64::from(rect.y) + u64::from(rect.height) - 1,
        )?;
        self.end_stroke();
        let mut changes = Vec::new();
        for y in rect.y..rect.y + rect.height {
            for x in rect.x..rect.x + rect.width {
                self.set(x, y, ch, &mut changes);
            }
        }
        Ok(self.record(changes))
    }

    /// Flood fill: the cells connected to (`x`, `y`) through their four neighbours that hold
    /// its character become `ch`, as one undo step; whether anything changed.
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`], [`EditError::NotInPalette`], or
    /// [`EditError::FillWithPlayer`] for `'@'`.
    pub fn flood(&mut self, x: u32, y: u32, ch: char) -> Result<bool, EditError> {
        self.check_char(ch)?;
        if ch == '@' {
            return Err(EditError::FillWithPlayer);
        }
        self.check_cell(u64::from(x), u64::from(y))?;
        self.end_stroke();
        let cells = flood::region(&self.grid, x, y);
        let mut changes = Vec::with_capacity(cells.len());
        for (x, y) in cells {
            self.set(x, y, ch, &mut changes);
        }
        Ok(self.record(changes))
    }

    /// The map rows inside `rect` (what a copy takes).
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`] if any of it is outside the map.
    pub fn rows(&self, rect: CellRect) -> Result<Vec<String>, EditError> {
        self.check_rect(rect)?;
        Ok((rect.y..rect.y + rect.height)
            .map(|y| {
                (rect.x..rect.x + rect.width)
                    .filter_map(|x| self.grid.get(x, y))
                    .collect()
            })
            .collect())
    }

    /// Place a piece (`rows`, each as wide as the first) with its top-left cell at column `x`,
    /// row `y`, as one undo step (a paste, a stamp); cells that fall off the map are left out.
    /// A player start in the piece moves the level's one. Whether anything changed.
    ///
    /// # Errors
    /// [`EditError::NotInPalette`] for a character this level does not define,
    /// [`EditError::PieceWithPlayers`] for a piece with more than one player start.
    pub fn place(&mut self, x: i64, y: i64, rows: &[Vec<char>]) -> Result<bool, EditError> {
        let mut players = 0;
        for &c in rows.iter().flatten() {
            self.check_char(c)?;
            players += usize::from(c == '@');
        }
        if players > 1 {
            return Err(EditError::PieceWithPlayers(players));
        }
        self.end_stroke();
        let mut changes = Vec::new();
        let on_map = |gx: i64, gy: i64| {
            (0..i64::from(self.width())).contains(&gx)
                && (0..i64::from(self.height())).contains(&gy)
        };
        let player_lands = rows.iter().enumerate().any(|(dy, row)| {
            row.iter()
                .enumerate()
                .any(|(dx, &c)| c == '@' && on_map(x + dx as i64, y + dy as i64))
        });
        if player_lands {
            for (px, py) in self.grid.find_all('@') {
                self.set(px, py, '.', &mut changes);
            }
        }
        self.put(x, y, rows, &mut changes);
        Ok(self.record(changes))
    }

    /// Move the cells of `rect` by (`dx`, `dy`), as one undo step: the cells it leaves become
    /// floor, and cells moved off the map are gone. Whether anything changed.
    ///
    /// # Errors
    /// [`EditError::OutOfBounds`] if any of `rect` is outside the map.
    pub fn move_rect(&mut self, rect: CellRect, dx: i64, dy: i64) -> Result<bool, EditError> {
        let rows: Vec<Vec<char>> = self
            .rows(rect)?
            .into_iter()
            .map(|r| r.chars().collect())
            .collect();
        self.end_stroke();
        let mut changes = Vec::new();
        for y in rect.y..rect.y + rect.height {
            for x in rect.x..rect.x + rect.width {
                self.set(x, y, '.', &mut changes);
            }
        }
        self.put(
            i64::from(rect.x) + dx,
            i64::from(rect.y) + dy,
            &rows,
            &mut changes,
        );
        Ok(self.record(changes))
    }

    /// The scatter brush over `rect` (clipped to the map): each cell for which
    /// [`scatter_hits`]`(seed, x, y, tenths)` becomes `ch`. Inside a stroke it joins the
    /// stroke's undo step; otherwise it is one of its own. Whether anything changed.
    ///
    /// # Errors
    /// [`EditError::NotInPalette`], or [`EditError::FillWithPlayer`] for `'@'`.
    pub fn scatter(
        &mut self,
        rect: CellRect,
        ch: char,
        tenths: u8,
        seed: u64,
    ) -> Result<bool, EditError> {
        self.check_char(ch)?;
        if ch == '@' {
            return Err(EditError::FillWithPlayer);
        }
        let mut changes = Vec::new();
        let (x1, y1) = (
            (rect.x.saturating_add(rect.width)).min(self.width()),
            (rect.y.saturating_add(rect.height)).min(self.height()),
        );
        for y in rect.y..y1 {
            for x in rect.x..x1 {
                if scatter_hits(seed, x, y, tenths) {
                    self.set(x, y, ch, &mut changes);
                }
            }
        }
        Ok(self.record(changes))
    }

    /// The level's name, as it would be saved.
    pub fn name(&self) -> &str {
        self.meta.name.as_deref().unwrap_or(&self.base.name)
    }

    /// Rename the level, as one undo step; whether anything changed.
    ///
    /// # Errors
    /// What `check` would say of the file with this name (an empty name, one over 64
    /// characters), with the same message; the level is unchanged.
    pub fn set_name(&mut self, name: &str) -> Result<bool, LevelError> {
        if name == self.name() {
            return Ok(false);
        }
        let mut meta = self.meta.clone();
        meta.name = Some(name.to_owned());
        let probe = format!("(name: {}, map: [\"@\"])", writer::quote(name));
        self.change_meta(meta, &probe)
    }

    /// The override of the crate at (`x`, `y`) as a save would write it (`health`, `skin`,
    /// `coin`; all `None` when it has none).
    pub fn crate_override(&self, x: u32, y: u32) -> CrateOverride {
        let at = self.opened_cell(x, y);
        if let Some(fields) = self.meta.override_at(at) {
            return fields.clone();
        }
        self.base
            .overrides
            .iter()
            .find(|o| (i64::from(o.at.0), i64::from(o.at.1)) == at)
            .map(|o| o.fields.clone())
            .unwrap_or_default()
    }

    /// Set the override of the crate at (`x`, `y`), as one undo step: its entry in `crates` is
    /// written (added, rewritten as one line, or removed when every field is `None`). Whether
    /// anything changed.
    ///
    /// # Errors
    /// What `check` would say of the file with this override (a health out of 1 to 1000, a
    /// skin the atlas does not have, a cell that holds no crate), with the same message; the
    /// level is unchanged.
    pub fn set_crate_override(
        &mut self,
        x: u32,
        y: u32,
        fields: CrateOverride,
    ) -> Result<bool, LevelError> {
        if fields == self.crate_override(x, y) {
            return Ok(false);
        }
        let holds_crate = self
            .cell(x, y)
            .and_then(|c| self.base.glyph(c))
            .is_some_and(|g| matches!(g, level::validate::Glyph::Crate { .. }));
        if !holds_crate {
            return Err(LevelError::whole_file(
                &self.path,
                format!("({x}, {y}) holds no crate to override"),
            ));
        }
        let probe = format!(
            "(name: \"x\", map: [\"@c\"], crates: [{}])",
            meta::override_entry((1, 0), &fields)
        );
        let mut meta = self.meta.clone();
        meta.set_override(self.opened_cell(x, y), fields);
        self.change_meta(meta, &probe)
    }

    /// Resize the map to `width` x `height` by adding or removing columns on the right and rows
    /// at the bottom (two undo steps at most).
    ///
    /// # Errors
    /// For a side over the limit, what `check` says of such a map (`the map is 5000 cells
    /// wide; the limit is 4096`); for a side of 0, [`EditError::Size`]'s message.
    pub fn set_size(&mut self, width: u32, height: u32) -> Result<bool, String> {
        if let Some(message) = level::validate::map_width_message(width as usize)
            .or_else(|| level::validate::map_rows_message(height as usize))
        {
            return Err(message);
        }
        let (dw, dh) = (
            i64::from(width) - i64::from(self.width()),
            i64::from(height) - i64::from(self.height()),
        );
        // Check both before changing either.
        if width == 0 || height == 0 {
            return Err(EditError::Size {
                width: i64::from(width),
                height: i64::from(height),
            }
            .to_string());
        }
        // Both sides are at most MAX_SIDE here, so the deltas fit an i32.
        self.resize(Side::Right, dw as i32)
            .map_err(|e| e.to_string())?;
        self.resize(Side::Bottom, dh as i32)
            .map_err(|e| e.to_string())?;
        Ok(dw != 0 || dh != 0)
    }

    /// Cell (`x`, `y`) of the map being edited, in the coordinates of the map as opened.
    fn opened_cell(&self, x: u32, y: u32) -> (i64, i64) {
        let (ox, oy) = self.grid.origin();
        (i64::from(x) + ox, i64::from(y) + oy)
    }

    /// Make `meta` the overlay as one undo step, unless the validator refuses the text it
    /// gives (then its error is returned and nothing changes). While the level has a problem
    /// of its own (say, no player start), the validator would report that first: then the
    /// change is checked alone, as `probe`, a one-line level holding only it (the message is
    /// `check`'s; its position is the probe's).
    fn change_meta(&mut self, meta: Meta, probe: &str) -> Result<bool, LevelError> {
        self.end_stroke();
        let text = self.base.render(&self.grid, &meta).text;
        if let Err(e) = level::parse(&self.path, &text, &self.skin_refs()) {
            if self.problem().is_none() {
                return Err(e);
            }
            level::parse(&self.path, probe, &self.skin_refs())?;
        }
        let before = std::mem::replace(&mut self.meta, meta.clone());
        self.history.push(Step::Meta {
            before,
            after: meta,
        });
        self.forget_verdict();
        Ok(true)
    }

    /// Add (`delta > 0`) or remove (`delta < 0`) rows or columns on `side`, as one undo step.
    /// Added cells are void ([`NEW_CELL`]). Crate overrides move with their crates.
    ///
    /// # Errors
    /// [`EditError::Size`] if a side would leave 1 to [`MAX_SIDE`].
    pub fn resize(&mut self, side: Side, delta: i32) -> Result<(), EditError> {
        self.grid.resized_size(side, delta)?;
        if delta == 0 {
            return Ok(());
        }
        self.end_stroke();
        let removed = self.grid.resize(side, delta, &[])?;
        self.history.push(Step::Resize {
            side,
            delta,
            removed,
        });
        self.forget_verdict();
        Ok(())
    }

    /// Take back the last step (ending a stroke in progress first); whether there was one.
    pub fn undo(&mut self) -> bool {
        self.end_stroke();
        let Some(step) = self.history.undo() else {
            return false;
        };
        step.undo(&mut self.grid, &mut self.meta);
        self.forget_verdict();
        true
    }

    /// Apply again the last step undone; whether there was one.
    pub fn redo(&mut self) -> bool {
        self.end_stroke();
        let Some(step) = self.history.redo() else {
            return false;
        };
        step.redo(&mut self.grid, &mut self.meta);
        self.forget_verdict();
        true
    }

    /// Whether [`undo`](Self::undo) would do something.
    pub fn can_undo(&self) -> bool {
        self.history.can_undo() || self.stroke.as_ref().is_some_and(|s| !s.is_empty())
    }

    /// Whether [`redo`](Self::redo) would do something.
    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// What `check` would say of the file a save would write, or `None` if it is a valid
    /// level. Computed once after an edit, when first asked for; reading it again costs nothing.
    /// (On a 1024 x 1024 map, computing it takes tens of milliseconds: see
    /// BENCHMARKS.md.)
    pub fn problem(&self) -> Option<&LevelError> {
        self.problem
            .get_or_init(|| {
                level::parse(&self.path, &self.rendered().text, &self.skin_refs()).err()
            })
            .as_ref()
    }

    /// The edited level, to play it.
    ///
    /// # Errors
    /// The same error as [`problem`](Self::problem).
    pub fn level(&self) -> Result<Level, LevelError> {
        if let Some(problem) = self.problem() {
            return Err(problem.clone());
        }
        level::parse(&self.path, &self.rendered().text, &self.skin_refs())
    }

    /// Exactly the text a save would write.
    pub fn text(&self) -> &str {
        &self.rendered().text
    }

    /// Whether the text differs from the file as this editor last read or wrote it (always
    /// true for a new level not saved yet).
    pub fn is_modified(&self) -> bool {
        self.last_saved.as_deref() != Some(self.text().as_bytes())
    }

    /// The crate overrides a save would remove: their cell no longer holds a crate (or was
    /// removed by a resize). Show these before saving.
    pub fn overrides_to_remove(&self) -> &[DroppedOverride] {
        &self.rendered().dropped
    }

    /// Save the level to its file, atomically (a temporary file in the same directory, synced,
    /// then renamed over the file).
    ///
    /// # Errors
    /// [`SaveError::Invalid`] with the validator's error if the text is not a valid level;
    /// [`SaveError::ChangedOnDisk`] if the file is no longer what this editor last read or
    /// wrote (or, for a new level, if a file appeared at its path); [`SaveError::Write`] if
    /// writing fails. In every case the file is unchanged and the edits stay in memory.
    pub fn save(&mut self) -> Result<SaveReport, SaveError> {
        let on_disk = match crate::fsutil::read_bounded(&self.path, level::MAX_FILE_BYTES) {
            Ok(bytes) => Some(Some(bytes)),
            Err(crate::fsutil::BoundedReadError::Io(e))
                if e.kind() == std::io::ErrorKind::NotFound =>
            {
                // Gone: saving puts it back, which loses nothing.
                None
            }
            // Unreadable: writing will report what is wrong, if anything is.
            Err(crate::fsutil::BoundedReadError::Io(_)) => None,
            Err(crate::fsutil::BoundedReadError::TooLarge { .. }) => Some(None),
        };
        if let Some(bytes) = on_disk
            && bytes.as_deref() != self.last_saved.as_deref()
        {
            return Err(SaveError::ChangedOnDisk(self.path.clone()));
        }
        self.save_overwriting()
    }

    /// [`save`](Self::save), replacing the file even if it changed on disk since this editor
    /// read it.
    ///
    /// # Errors
    /// [`SaveError::Invalid`] or [`SaveError::Write`], as for [`save`](Self::save).
    pub fn save_overwriting(&mut self) -> Result<SaveReport, SaveError> {
        self.end_stroke();
        if let Some(problem) = self.problem() {
            return Err(SaveError::Invalid(problem.clone()));
        }
        let rendered = self.rendered();
        save::write_atomically(&self.path, rendered.text.as_bytes())?;
        let report = SaveReport {
            path: self.path.clone(),
            bytes: rendered.text.len(),
            dropped_overrides: rendered.dropped.clone(),
            moved_overrides: rendered.moved,
        };
        self.last_saved = Some(rendered.text.as_bytes().to_vec());
        Ok(report)
    }

    /// The bytes this editor last read from or wrote to the file; `None` for a new level not
    /// saved yet. When the hot-reload watcher reports a change and the file holds exactly these
    /// bytes, the change is the editor's own save.
    pub fn last_saved(&self) -> Option<&[u8]> {
        self.last_saved.as_deref()
    }

    fn skin_refs(&self) -> Vec<&str> {
        self.skins.iter().map(String::as_str).collect()
    }

    fn check_char(&self, ch: char) -> Result<(), EditError> {
        match self.base.glyph(ch) {
            Some(_) => Ok(()),
            None => Err(EditError::NotInPalette(ch)),
        }
    }

    fn check_rect(&self, rect: CellRect) -> Result<(), EditError> {
        self.check_cell(u64::from(rect.x), u64::from(rect.y))?;
        self.check_cell(
            u64::from(rect.x) + u64::from(rect.width.max(1)) - 1,
            u64::from(rect.y) + u64::from(rect.height.max(1)) - 1,
        )
    }

    /// Set the cells of `rows` with their top-left at (`x`, `y`), leaving out those off the map.
    fn put(&mut self, x: i64, y: i64, rows: &[Vec<char>], changes: &mut Vec<CellChange>) {
        for (dy, row) in rows.iter().enumerate() {
            for (dx, &c) in row.iter().enumerate() {
                let (gx, gy) = (x + dx as i64, y + dy as i64);
                if let (Ok(gx), Ok(gy)) = (u32::try_from(gx), u32::try_from(gy))
                    && gx < self.width()
                    && gy < self.height()
                {
                    self.set(gx, gy, c, changes);
                }
            }
        }
    }

    fn check_cell(&self, x: u64, y: u64) -> Result<(), EditError> {
        if x < u64::from(self.width()) && y < u64::from(self.height()) {
            return Ok(());
        }
        Err(EditError::OutOfBounds {
            x,
            y,
            width: self.width(),
            height: self.height(),
        })
    }

    /// Set a cell (inside the map) and note the change.
    fn set(&mut self, x: u32, y: u32, ch: char, changes: &mut Vec<CellChange>) {
        if let Some(old) = self.grid.set(x, y, ch)
            && old != ch
        {
            // Both sides are at most MAX_SIDE = 4096, so they fit.
            changes.push(CellChange {
                x: x as u16,
                y: y as u16,
                old,
                new: ch,
            });
        }
    }

    /// Record changes just made: into the open stroke, or as a step of their own.
    fn record(&mut self, changes: Vec<CellChange>) -> bool {
        if changes.is_empty() {
            return false;
        }
        match &mut self.stroke {
            Some(stroke) => stroke.extend(changes),
            None => self.history.push(Step::Cells(changes)),
        }
        self.forget_verdict();
        true
    }

    /// The text a save would write, rendered when first asked for after an edit.
    fn rendered(&self) -> &Rendered {
        self.rendered
            .get_or_init(|| self.base.render(&self.grid, &self.meta))
    }

    /// Forget the text and verdict of the map before an edit.
    fn forget_verdict(&mut self) {
        self.rendered = OnceCell::new();
        self.problem = OnceCell::new();
    }
}

/// `c` in quotes, escaped for display.
fn shown_char(c: char) -> String {
    level::escape_for_display(&format!("'{c}'")).into_owned()
}

/// The text of a new level: a comment, the name (the file's stem), and a walled room with the
/// player start in the middle.
fn new_level_text(path: &Path, width: u32, height: u32) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = stem
        .chars()
        .filter(|&c| !level::needs_escape(c))
        .take(level::MAX_NAME_CHARS)
        .collect();
    let name = if name.trim().is_empty() {
        "Untitled".to_owned()
    } else {
        name
    };
    let (w, h) = (width as usize, height as usize);
    let mut text = String::with_capacity((w + 12) * h + 128);
    text.push_str("// A new level, made in the Crate Room editor.\n(\n");
    text.push_str(&format!(
        "    name: {},\n    map: [\n",
        writer::quote(&name)
    ));
    for y in 0..h {
        let row: String = (0..w)
            .map(|x| {
                if (x, y) == (w / 2, h / 2) {
                    '@'
                } else if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                    '#'
                } else {
                    '.'
                }
            })
            .collect();
        text.push_str(&format!("        {},\n", writer::quote(&row)));
    }
    text.push_str("    ],\n)\n");
    text
}
