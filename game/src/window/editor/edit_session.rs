//! One level being edited: the model, the view, the brush, what the mouse is doing, and what
//! the editor has said. The commands that change it live in the files beside this one.

use std::path::{Path, PathBuf};

use macroquad::prelude::*;

use super::cell_art::Art;
use super::edit_form::Form;
use super::edit_layout::{PALETTE_W, STATUS_H};
use super::edit_view::{CellPos, EditView};
use crate::atlas::AtlasData;
use crate::editor::{Brush, BrushKind, CellRect, EditError, Editor, Stamp};
use crate::level::{Level, LevelError};
use crate::sim::TILE;
use crate::window::app::screens::HUD_BAR;
use crate::window::ui::ink;

/// Messages the scripted report lists.
const SAID_KEPT: usize = 8;
/// The character the right button paints: floor.
pub(super) const ERASE: char = '.';

/// What a mouse drag is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Drag {
    /// Painting `ch` (a stroke: one undo step), last at `last`.
    Paint { ch: char, last: CellPos },
    /// Filling the rectangle from `from` to `to` with `ch` when the button is let go.
    Fill {
        ch: char,
        from: CellPos,
        to: CellPos,
    },
    /// Moving the view with the middle button, last at screen point `last`; pressed at
    /// `from`. A press that never moves is the eyedropper.
    Pan { last: (f32, f32), from: (f32, f32) },
    /// Selecting the rectangle from `from` to `to` (Ctrl + left drag).
    Select { from: CellPos, to: CellPos },
    /// Moving the selection: grabbed at cell `grab`, now over `to`.
    Move { grab: CellPos, to: CellPos },
    /// The scatter brush, last centred on `last` (a stroke: one undo step).
    Scatter { ch: char, last: CellPos },
}

/// What a left click on the map does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tool {
    /// Paint the brush.
    Pen,
    /// Paint the brush into a share of the cells under a square (its side is
    /// `mouse_tools::SCATTER_SIDE`).
    Scatter,
    /// Place stamp `i` (top-left at the click).
    Stamp(usize),
}

/// A question the editor asked: the same key again answers yes; anything else, no.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Confirm {
    /// Saving removes these `crates` overrides, or overwrites a file changed on disk.
    Save,
    /// Quitting loses unsaved edits.
    Quit,
}

/// What the game should do after the editor handled its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Stay in the editor.
    Stay,
    /// Leave edit mode and play the edited level (E).
    Play,
    /// Close the game (Esc, answered).
    Quit,
}

/// One level being edited: the model, the view, the brush, and the editor's messages.
pub struct Session {
    pub(super) model: Editor,
    pub(super) palette: Vec<Brush>,
    pub(super) art: Art,
    pub(super) view: EditView,
    /// Index into `palette`.
    pub(super) brush: usize,
    pub(super) drag: Option<Drag>,
    /// Last known mouse position, screen pixels.
    pub(super) mouse: (f32, f32),
    pub(super) shift: bool,
    pub(super) ctrl: bool,
    /// The last [`SAID_KEPT`] messages, oldest first, for the scripted report.
    pub(super) said: Vec<String>,
    /// Pan keys held down (pressed without Ctrl, not released yet).
    pub(super) panning: Vec<KeyCode>,
    /// What the editor last said, until the next edit or command.
    pub(super) message: Option<(String, Color)>,
    pub(super) confirm: Option<Confirm>,
    /// The file changed on disk (not by this editor) while it had unsaved edits.
    pub(super) disk_changed: bool,
    /// Whether the view was placed for the window yet (it needs the screen size).
    pub(super) placed: bool,
    /// The validator's verdict as it stood when the paint drag in progress began. The panel
    /// shows it until the drag ends: asking the model after every painted cell would parse the
    /// whole level once per frame, which on a 1024 x 1024 map is tens of milliseconds.
    pub(super) problem_before_drag: Option<String>,
    pub(super) alt: bool,
    pub(super) tool: Tool,
    /// The selected rectangle of cells, if any.
    pub(super) selection: Option<CellRect>,
    /// What this editor last copied, for when the system clipboard has nothing.
    pub(super) clipboard: Option<String>,
    /// Set the system clipboard to `clipboard` again once C and X are up: macroquad's own UI
    /// sets it to its (empty) selection on every frame that sees Ctrl and C or X held.
    pub(super) clipboard_again: bool,
    /// The scatter brush's density in tenths, and the seed of its next stroke.
    pub(super) density: u8,
    pub(super) scatter_seed: u64,
    /// The stamps of the level's folder, and why they could not be read, if they could not.
    pub(super) stamps: Vec<Stamp>,
    pub(super) stamps_problem: Option<String>,
    /// The first palette row shown (the palette scrolls when it is longer than the window).
    pub(super) palette_top: usize,
    /// Say every message on stderr too (`editor: ...`), for scripted runs: tests wait for them.
    pub(super) echo: bool,
    /// Whether the first frame's input was handled yet (said on stderr as `editor: ready`).
    pub(super) ready: bool,
    /// The form being filled in (P, O), if one is open: it takes the keys.
    pub(super) form: Option<Form>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("path", &self.model.path())
            .field("view", &self.view)
            .field("brush", &self.brush)
            .finish_non_exhaustive()
    }
}

/// Why the editor cannot open a level.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file exists and is not a valid level (or cannot be read).
    #[error(transparent)]
    Level(#[from] LevelError),
    /// A new level of that size cannot be made.
    #[error(transparent)]
    Size(#[from] EditError),
}

/// What `crate-room --edit` starts with.
#[derive(Clone, Debug)]
pub struct EditStart {
    /// The level file (need not exist yet).
    pub path: PathBuf,
    /// Size of a new level when the file does not exist, in cells.
    pub new_size: (u32, u32),
}

impl Session {
    /// Edit the level at `path`: open it, or start a new level of `new_size` if there is no
    /// file there.
    ///
    /// # Errors
    /// The level's error, if the file exists and is not a valid level; a size error for a new
    /// level whose sides are not 1 to `MAX_SIDE`.
    pub fn open(path: &Path, new_size: (u32, u32), atlas: &AtlasData) -> Result<Self, OpenError> {
        let skins = atlas.crate_skins();
        let model = if crate::fsutil::exists(path) {
            Editor::open(path, &skins)?
        } else {
            Editor::new_level(path, new_size.0, new_size.1, &skins)?
        };
        let mut session = Self::with_model(model, atlas);
        session.load_stamps();
        Ok(session)
    }

    /// Name the level (a new level from the title screen is named by its author).
    ///
    /// # Errors
    /// `check`'s message for the name (empty, over 64 characters).
    pub fn set_name(&mut self, name: &str) -> Result<(), String> {
        self.model.set_name(name).map(|_| ()).map_err(|e| e.message)
    }

    /// Say every message on stderr too, as `editor: MESSAGE` (and `editor: ready` once the
    /// editor takes input): scripted runs do, so tests wait for what the editor says.
    pub fn set_echo(&mut self, on: bool) {
        self.echo = on;
    }

    fn with_model(model: Editor, atlas: &AtlasData) -> Self {
        let palette = model.palette();
        let art = Art::new(atlas, &palette);
        let brush = palette
            .iter()
            .position(|b| matches!(b.kind, BrushKind::Crate { .. }))
            .unwrap_or(0);
        Self {
            model,
            palette,
            art,
            view: EditView {
                origin: (0.0, 0.0),
                zoom: 0,
            },
            brush,
            drag: None,
            mouse: (0.0, 0.0),
            shift: false,
            ctrl: false,
            panning: Vec::new(),
            said: Vec::new(),
            message: None,
            problem_before_drag: None,
            alt: false,
            tool: Tool::Pen,
            selection: None,
            clipboard: None,
            clipboard_again: false,
            density: 3,
            scatter_seed: 1,
            stamps: Vec::new(),
            stamps_problem: None,
            palette_top: 0,
            echo: false,
            ready: false,
            form: None,
            confirm: None,
            disk_changed: false,
            placed: false,
        }
    }

    /// Take the file's current contents as the document (after it changed on disk with no
    /// unsaved edits here), keeping the view and brush.
    ///
    /// # Errors
    /// The level's error if the file is not a valid level now; the document is kept.
    pub fn reopen(&mut self, atlas: &AtlasData) -> Result<(), LevelError> {
        let model = Editor::open(self.model.path(), &atlas.crate_skins())?;
        let fresh = Self::with_model(model, atlas);
        self.model = fresh.model;
        self.palette = fresh.palette;
        self.art = fresh.art;
        self.brush = self.brush.min(self.palette.len().saturating_sub(1));
        self.drag = None;
        self.confirm = None;
        self.disk_changed = false;
        Ok(())
    }

    /// Coming back to the editor: keys and buttons held when it was left were let go
    /// meanwhile, unseen.
    pub fn resume(&mut self) {
        self.panning.clear();
        (self.ctrl, self.shift) = (false, false);
        self.drag = None;
        self.confirm = None;
    }

    /// The file being edited.
    pub fn path(&self) -> &Path {
        self.model.path()
    }

    /// Whether there are unsaved edits.
    pub fn is_modified(&self) -> bool {
        self.model.is_modified()
    }

    /// The edited level, as it would be played, or why it cannot be.
    pub fn level(&self) -> Result<Level, LevelError> {
        self.model.level()
    }

    /// Say `text` in the editor (until the next edit).
    pub fn say(&mut self, text: impl Into<String>, color: Color) {
        let text = text.into();
        if self.said.len() == SAID_KEPT {
            self.said.remove(0);
        }
        self.said.push(text.clone());
        if self.echo {
            eprintln!("editor: {text}");
        }
        self.message = Some((text, color));
    }

    /// Whether the file's bytes on disk are what this editor last saved (or opened): a change
    /// the watcher reports is then the editor's own save, not someone else's edit.
    pub fn disk_matches_last_save(&self) -> bool {
        let path = self.model.path();
        match crate::fsutil::read_bounded(path, crate::level::MAX_FILE_BYTES) {
            Ok(bytes) => self.model.last_saved() == Some(bytes.as_slice()),
            // Gone or unreadable: not what was saved (a new level never saved has no file).
            Err(_) => false,
        }
    }

    /// The file changed on disk while this editor has unsaved edits: keep them, and say so.
    pub fn note_disk_change(&mut self) {
        self.disk_changed = true;
        self.say(
            "the file changed on disk: your edits are kept; Ctrl+S asks before overwriting it",
            ink::ERROR,
        );
    }

    /// Place the view for a `w` x `h` window the first time (the whole map in sight).
    pub(super) fn place(&mut self, w: f32, h: f32, game_scale: f32) {
        if !self.placed {
            self.fit(w, h, game_scale);
            self.placed = true;
        }
    }

    pub(super) fn fit(&mut self, w: f32, h: f32, game_scale: f32) {
        let area = [
            PALETTE_W,
            HUD_BAR,
            (w - PALETTE_W).max(TILE),
            (h - HUD_BAR - STATUS_H).max(TILE),
        ];
        self.view = EditView::fit(self.model.width(), self.model.height(), area, game_scale);
    }

    /// The map cell under screen point `p`, if the map has it and the point is not over the
    /// palette, the HUD bar or the status line.
    pub(super) fn map_cell(&self, (sx, sy): (f32, f32)) -> Option<(u32, u32)> {
        let h = screen_height();
        if sx < PALETTE_W || sy < HUD_BAR || sy >= h - STATUS_H {
            return None;
        }
        let (x, y) = self.view.cell_at(sx, sy);
        let inside = (0..i64::from(self.model.width())).contains(&x)
            && (0..i64::from(self.model.height())).contains(&y);
        inside.then_some((x as u32, y as u32))
    }

    /// Cell `(x, y)` moved onto the map (the nearest cell the map has).
    pub(super) fn clamp_cell(&self, (x, y): CellPos) -> CellPos {
        (
            x.clamp(0, i64::from(self.model.width()) - 1),
            y.clamp(0, i64::from(self.model.height()) - 1),
        )
    }

    /// An edit is about to happen: questions and old messages no longer apply.
    pub(super) fn edited(&mut self) {
        self.confirm = None;
        self.message = None;
    }
}

/// The first line of an error: a level error's `path:line:col: error: message`, without the
/// quoted source line and hint under it (what fits a one-line notice).
pub fn headline(error: &impl std::fmt::Display) -> String {
    error
        .to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}
