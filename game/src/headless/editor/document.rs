//! [`Editor`], the document being edited: the file as opened, the map as edited, the undo
//! history, the verdict on what a save would write, and saving it.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use super::edit_error::EditError;
use super::geometry::CellRect;
use super::history::{CellChange, History, Step};
use super::map::Grid;
use super::meta::Meta;
use super::palette::{self, Brush};
use super::quote::quote;
use super::save::{self, DroppedOverride, SaveError, SaveReport};
use super::writer::{Base, Rendered};
use crate::level::{self, Level, LevelError, MAX_SIDE};

/// A level being edited: the file as opened, the map as edited, and the undo history.
#[derive(Debug)]
pub struct Editor {
    pub(super) path: PathBuf,
    pub(super) skins: Vec<String>,
    pub(super) base: Base,
    pub(super) grid: Grid,
    /// The name and crate overrides edited in the editor.
    pub(super) meta: Meta,
    pub(super) history: History,
    /// The cells changed by the stroke in progress, if one is.
    pub(super) stroke: Option<Vec<CellChange>>,
    /// What a save would write now, and the validator's verdict on it: computed when first
    /// asked for after an edit (one render and one parse however many edits came between).
    pub(super) rendered: OnceCell<Rendered>,
    pub(super) problem: OnceCell<Option<LevelError>>,
    /// The level a save would write, parsed with `problem` (`None` while it is invalid): what
    /// the editor's view reads each crate's strength from.
    pub(super) parsed: OnceCell<Option<Level>>,
    /// What the file held when this editor last read or wrote it; `None` for a new level not
    /// saved yet.
    pub(super) last_saved: Option<Vec<u8>>,
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

    pub(super) fn from_text(path: &Path, text: &str, skins: &[&str]) -> Result<Editor, LevelError> {
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
            parsed: OnceCell::new(),
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

    pub(super) fn skin_refs(&self) -> Vec<&str> {
        self.skins.iter().map(String::as_str).collect()
    }

    pub(super) fn check_char(&self, ch: char) -> Result<(), EditError> {
        match self.base.glyph(ch) {
            Some(_) => Ok(()),
            None => Err(EditError::NotInPalette(ch)),
        }
    }

    pub(super) fn check_rect(&self, rect: CellRect) -> Result<(), EditError> {
        self.check_cell(u64::from(rect.x), u64::from(rect.y))?;
        self.check_cell(
            u64::from(rect.x) + u64::from(rect.width.max(1)) - 1,
            u64::from(rect.y) + u64::from(rect.height.max(1)) - 1,
        )
    }

    /// Set the cells of `rows` with their top-left at (`x`, `y`), leaving out those off the map.
    pub(super) fn put(
        &mut self,
        x: i64,
        y: i64,
        rows: &[Vec<char>],
        changes: &mut Vec<CellChange>,
    ) {
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

    pub(super) fn check_cell(&self, x: u64, y: u64) -> Result<(), EditError> {
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
    pub(super) fn set(&mut self, x: u32, y: u32, ch: char, changes: &mut Vec<CellChange>) {
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
    pub(super) fn record(&mut self, changes: Vec<CellChange>) -> bool {
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
    pub(super) fn rendered(&self) -> &Rendered {
        self.rendered
            .get_or_init(|| self.base.render(&self.grid, &self.meta))
    }

    /// Forget the text and verdict of the map before an edit.
    pub(super) fn forget_verdict(&mut self) {
        self.rendered = OnceCell::new();
        self.problem = OnceCell::new();
        self.parsed = OnceCell::new();
    }

    /// The hits the crate on cell `(x, y)` takes, its override included, while the map is a
    /// valid level; `None` for a keg (a hit lights it) and a cell without a crate. One parse
    /// after an edit, shared with [`problem`](Self::problem).
    pub fn crate_strength(&self, x: u32, y: u32) -> Option<u32> {
        let level = self
            .parsed
            .get_or_init(|| {
                let parsed = level::parse(&self.path, &self.rendered().text, &self.skin_refs());
                let _ = self.problem.set(parsed.as_ref().err().cloned());
                parsed.ok()
            })
            .as_ref()?;
        // The crates are in row-major order of their cells.
        let i = level
            .crates
            .binary_search_by_key(&(y, x), |c| (c.at.y, c.at.x))
            .ok()?;
        let spawn = &level.crates[i];
        (spawn.skin != crate::atlas::clip_names::KEG).then_some(spawn.health)
    }
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
    text.push_str(&format!("    name: {},\n    map: [\n", quote(&name)));
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
        text.push_str(&format!("        {},\n", quote(&row)));
    }
    text.push_str("    ],\n)\n");
    text
}
