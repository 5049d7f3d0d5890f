//! Edit mode, the level editor's window side: mouse and keys become the model's commands
//! ([`crate::editor`]: the document, undo, saving), and the document is drawn with the grid,
//! the palette and what the editor has to say. The model decides everything else.
//!
//! Input comes as macroquad's ordered event stream (an input subscriber), not as per-frame
//! key states: a click, a move and another click, or Ctrl down, S, Ctrl up, can all arrive
//! between two frames (a fast hand, or `xdotool` in the window test), and each must land on
//! the cell it happened on.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use macroquad::miniquad::{self, KeyMods};
use macroquad::prelude::*;

use super::edit_form::{Form, FormKey, FormKind};
use super::edit_view::{CellPos, EditView, line_cells};
use super::render::Renderer;
use super::screens::{HUD_BAR, shorten};
use crate::atlas::clip_names::{self, CrateState, Facing};
use crate::atlas::{AtlasData, FrameRect};
use crate::editor::{
    Brush, BrushKind, CellRect, CrateOverride, DroppedOverride, EditError, Editor, SCATTER_STEPS,
    SaveError, Side, Stamp, add_stamp, load_stamps, rows_to_text, stamp_path, text_to_rows,
};
use crate::level::{Level, LevelError, Tile};
use crate::sim::TILE;
use crate::window::ui::{Hud, ink};

/// Size of a new level `--edit` makes without `--size`: one screen at the default window
/// (1280 x 720 at 48 screen pixels a cell, below the HUD bar).
pub const NEW_LEVEL_SIZE: (u32, u32) = (26, 15);

/// Width of the palette strip along the left edge, in screen pixels.
pub const PALETTE_W: f32 = 76.0;
/// Side of the map's resize buttons, in screen pixels.
const RESIZE_BUTTON: f32 = 22.0;
/// Height of the status line along the bottom, in screen pixels.
pub const STATUS_H: f32 = 28.0;
/// Panning speed of WASD / arrows, in screen pixels per second.
const PAN_SPEED: f32 = 700.0;
/// Messages the scripted report lists.
const SAID_KEPT: usize = 8;
/// The keys that pan the view while held.
const PAN_KEYS: [KeyCode; 8] = [
    KeyCode::W,
    KeyCode::A,
    KeyCode::S,
    KeyCode::D,
    KeyCode::Up,
    KeyCode::Left,
    KeyCode::Down,
    KeyCode::Right,
];
/// The character the right button paints: floor.
const ERASE: char = '.';

/// The editor's keys and what they do (F1 shows them; the README's table says the same).
pub const HELP: [(&str, &str); 19] = [
    ("E", "play the edited level / back to the editor"),
    ("left / right drag", "paint with the brush / erase to floor"),
    ("Shift + click", "flood fill (right button: with floor)"),
    (
        "Shift + drag",
        "fill a rectangle (right button: with floor)",
    ),
    ("Alt + click, middle click", "pick the brush from the map"),
    ("Ctrl + drag", "select; drag inside it or arrows move it"),
    (
        "Ctrl+C / X / V, Delete",
        "copy / cut / paste at the mouse, erase",
    ),
    ("R, - / =", "scatter brush on/off, its density"),
    ("Ctrl+B", "save the selection as a stamp"),
    ("P / O", "level properties / the crate under the mouse"),
    (
        "1-9, 0, click",
        "pick a brush or stamp ([ ] step, wheel scrolls)",
    ),
    ("WASD / arrows", "pan (or drag with the middle button)"),
    ("wheel / Home", "zoom about the mouse / the whole level"),
    ("Ctrl+Z / Ctrl+Y", "undo / redo (Ctrl+Shift+Z redoes too)"),
    ("Ctrl+S", "save (again, to confirm, when it asks)"),
    (
        "Ctrl+arrow",
        "add a row / column on that side (or + beside the map)",
    ),
    (
        "Ctrl+Shift+arrow",
        "remove the row / column on that side (or -)",
    ),
    ("Esc", "quit (asks first with unsaved edits)"),
    ("F1", "this help"),
];

/// Queue the editor's key help: keys in one column, what they do in the next, on an opaque
/// panel over the map.
pub fn help(hud: &mut Hud) {
    let size = 20.0;
    let line = size * 1.2;
    let key_w = HELP
        .iter()
        .map(|(k, _)| measure_text(k, None, size as u16, 1.0).width)
        .fold(0.0, f32::max);
    let text_w = HELP
        .iter()
        .map(|(_, t)| measure_text(t, None, size as u16, 1.0).width)
        .fold(0.0, f32::max);
    let (x, y) = (PALETTE_W + 12.0, HUD_BAR + 12.0);
    let (w, h) = (
        key_w + text_w + 3.0 * size,
        line * (HELP.len() + 1) as f32 + size,
    );
    hud.panel(Rect::new(x, y, w, h), ink::OPAQUE);
    hud.text(
        "Editor keys",
        x + size / 2.0,
        y + size * 1.2,
        size,
        ink::GOLD,
    );
    for (i, (key, what)) in HELP.iter().enumerate() {
        let base = y + size * 1.2 + line * (i + 1) as f32;
        hud.text(*key, x + size / 2.0, base, size, ink::GOLD);
        hud.text(*what, x + key_w + size * 1.5, base, size, ink::TEXT);
    }
}

/// One input event, in the order the window received them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EditEvent {
    Down(MouseButton, f32, f32),
    Up(MouseButton, f32, f32),
    Move(f32, f32),
    /// Wheel notches, positive away from the user (zoom in).
    Wheel(f32),
    /// A key went down (repeats included, marked).
    Key {
        key: KeyCode,
        ctrl: bool,
        shift: bool,
        alt: bool,
        repeat: bool,
    },
    /// A key went up.
    KeyUp(KeyCode),
    /// A character typed (for the editor's text fields).
    Char(char),
}

/// Collects the window's input events for the editor, in order.
#[derive(Debug)]
pub struct EventFeed {
    subscriber: usize,
    events: Vec<EditEvent>,
}

impl EventFeed {
    /// Subscribe to the window's events (call once the window is open).
    pub fn subscribe() -> Self {
        Self {
            subscriber: macroquad::input::utils::register_input_subscriber(),
            events: Vec::new(),
        }
    }

    /// Every event since the last call. Call every frame, editing or not, so that events
    /// never pile up.
    pub fn take(&mut self) -> Vec<EditEvent> {
        let subscriber = self.subscriber;
        macroquad::input::utils::repeat_all_miniquad_input(self, subscriber);
        std::mem::take(&mut self.events)
    }
}

impl miniquad::EventHandler for EventFeed {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn mouse_motion_event(&mut self, x: f32, y: f32) {
        self.events.push(EditEvent::Move(x, y));
    }
    fn mouse_wheel_event(&mut self, _x: f32, y: f32) {
        self.events.push(EditEvent::Wheel(y));
    }
    fn mouse_button_down_event(&mut self, button: MouseButton, x: f32, y: f32) {
        self.events.push(EditEvent::Down(button, x, y));
    }
    fn mouse_button_up_event(&mut self, button: MouseButton, x: f32, y: f32) {
        self.events.push(EditEvent::Up(button, x, y));
    }
    fn key_down_event(&mut self, key: KeyCode, mods: KeyMods, repeat: bool) {
        self.events.push(EditEvent::Key {
            key,
            ctrl: mods.ctrl,
            shift: mods.shift,
            alt: mods.alt,
            repeat,
        });
    }
    fn key_up_event(&mut self, key: KeyCode, _mods: KeyMods) {
        self.events.push(EditEvent::KeyUp(key));
    }
    fn char_event(&mut self, character: char, _mods: KeyMods, _repeat: bool) {
        self.events.push(EditEvent::Char(character));
    }
}

/// What a mouse drag is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Drag {
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
enum Tool {
    /// Paint the brush.
    Pen,
    /// Paint the brush into a share of the cells under a square (see [`SCATTER_SIDE`]).
    Scatter,
    /// Place stamp `i` (top-left at the click).
    Stamp(usize),
}

/// The selection's outline.
const SELECTION: Color = Color::new(0.4, 0.8, 1.0, 1.0);
/// Side of the scatter brush's square, in cells.
const SCATTER_SIDE: u32 = 5;
/// A middle press that moves less than this (screen pixels) is a click: the eyedropper.
const CLICK_SLOP: f32 = 4.0;

/// A question the editor asked: the same key again answers yes; anything else, no.
#[derive(Clone, Debug, PartialEq)]
enum Confirm {
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

/// How an atlas frame is drawn for one kind of cell.
#[derive(Clone, Copy, Debug, Default)]
struct Looks {
    /// Ground under it: floor or wall (walls come in variants: the first is kept here, and
    /// the cell picks one like the game does).
    ground: Ground,
    /// Something standing on the ground: a crate, a coin, the player.
    sprite: Option<FrameRect>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Ground {
    #[default]
    Void,
    Floor,
    Wall,
}

/// Frames the editor draws cells with.
#[derive(Debug, Default)]
struct Art {
    floors: Vec<FrameRect>,
    walls: Vec<FrameRect>,
    /// By map character.
    looks: HashMap<char, Looks>,
}

/// The first frame of `clip`, if the atlas has it.
fn first_frame(atlas: &AtlasData, clip: &str) -> Option<FrameRect> {
    atlas
        .clip(clip)
        .and_then(|c| c.frames.first())
        .and_then(|f| atlas.frame(f))
}

impl Art {
    fn new(atlas: &AtlasData, palette: &[Brush]) -> Self {
        let frames = |name: fn(u32) -> String| {
            (0..)
                .map_while(|i| first_frame(atlas, &name(i)))
                .collect::<Vec<_>>()
        };
        let looks = palette
            .iter()
            .map(|b| (b.ch, looks_of(atlas, &b.kind)))
            .collect();
        Self {
            floors: frames(clip_names::floor),
            walls: frames(clip_names::wall),
            looks,
        }
    }

    /// The ground frame of cell `(x, y)`: the variant the game shows there.
    fn ground(&self, ground: Ground, x: u32, y: u32) -> Option<FrameRect> {
        match ground {
            Ground::Void => None,
            // The same cell hashes as `render.rs` (floor) and `sim/setup.rs` (walls).
            Ground::Floor => {
                let v = x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503);
                let i = if v % 7 < 4 {
                    0
                } else {
                    (v as usize / 7) % self.floors.len().max(1)
                };
                self.floors.get(i).copied()
            }
            Ground::Wall => {
                let v = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) as usize;
                self.walls.get(v % self.walls.len().max(1)).copied()
            }
        }
    }
}

/// How a brush's kind looks.
fn looks_of(atlas: &AtlasData, kind: &BrushKind) -> Looks {
    let on_floor = |clip: &str| Looks {
        ground: Ground::Floor,
        sprite: first_frame(atlas, clip),
    };
    match kind {
        BrushKind::Tile(Tile::Wall) => Looks {
            ground: Ground::Wall,
            sprite: None,
        },
        BrushKind::Tile(Tile::Floor) => Looks {
            ground: Ground::Floor,
            sprite: None,
        },
        BrushKind::Tile(Tile::Void) => Looks::default(),
        BrushKind::Coin => on_floor(clip_names::COIN),
        BrushKind::Player => on_floor(&clip_names::player_idle(Facing::Down)),
        BrushKind::Crate { skin, .. } => on_floor(&clip_names::crate_clip(skin, CrateState::Idle)),
    }
}

/// One level being edited: the model, the view, the brush, and the editor's messages.
pub struct Session {
    model: Editor,
    palette: Vec<Brush>,
    art: Art,
    view: EditView,
    /// Index into `palette`.
    brush: usize,
    drag: Option<Drag>,
    /// Last known mouse position, screen pixels.
    mouse: (f32, f32),
    shift: bool,
    ctrl: bool,
    /// The last [`SAID_KEPT`] messages, oldest first, for the scripted report.
    said: Vec<String>,
    /// Pan keys held down (pressed without Ctrl, not released yet).
    panning: Vec<KeyCode>,
    /// What the editor last said, until the next edit or command.
    message: Option<(String, Color)>,
    confirm: Option<Confirm>,
    /// The file changed on disk (not by this editor) while it had unsaved edits.
    disk_changed: bool,
    /// Whether the view was placed for the window yet (it needs the screen size).
    placed: bool,
    /// The validator's verdict as it stood when the paint drag in progress began. The panel
    /// shows it until the drag ends: asking the model after every painted cell would parse the
    /// whole level once per frame, which on a 1024 x 1024 map is tens of milliseconds.
    problem_before_drag: Option<String>,
    alt: bool,
    tool: Tool,
    /// The selected rectangle of cells, if any.
    selection: Option<CellRect>,
    /// What this editor last copied, for when the system clipboard has nothing.
    clipboard: Option<String>,
    /// Set the system clipboard to `clipboard` again once C and X are up: macroquad's own UI
    /// sets it to its (empty) selection on every frame that sees Ctrl and C or X held.
    clipboard_again: bool,
    /// The scatter brush's density in tenths, and the seed of its next stroke.
    density: u8,
    scatter_seed: u64,
    /// The stamps of the level's folder, and why they could not be read, if they could not.
    stamps: Vec<Stamp>,
    stamps_problem: Option<String>,
    /// The first palette row shown (the palette scrolls when it is longer than the window).
    palette_top: usize,
    /// Say every message on stderr too (`editor: ...`), for scripted runs: tests wait for them.
    echo: bool,
    /// Whether the first frame's input was handled yet (said on stderr as `editor: ready`).
    ready: bool,
    /// The form being filled in (P, O), if one is open: it takes the keys.
    form: Option<Form>,
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

/// Facts about the editor for a scripted run's report: tests map cells to pixels with `view`
/// and `scale`, like the game's own view.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct EditorReport {
    /// The file being edited.
    pub path: String,
    /// Map size in cells.
    pub width: u32,
    pub height: u32,
    /// Unsaved edits.
    pub modified: bool,
    /// Why the level cannot be saved or played now, if it cannot (first line).
    pub problem: Option<String>,
    /// The map character the brush paints.
    pub brush: String,
    /// The cell under the mouse, if it is on the map.
    pub cursor: Option<[u32; 2]>,
    /// What the screen shows, in world pixels: `[min_x, min_y, max_x, max_y]`; cell `(x, y)`
    /// is world pixels `16x..16x+16`, `16y..16y+16`.
    pub view: [f32; 4],
    /// Screen pixels per world pixel.
    pub scale: f32,
    /// The file changed on disk while there were unsaved edits.
    pub disk_changed: bool,
    /// The selected cells, `[x, y, width, height]`, if any.
    pub selection: Option<[u32; 4]>,
    /// What a left click does: `pen`, `scatter` or `stamp`.
    pub tool: String,
    /// The stamps of the level's folder, by name.
    pub stamps: Vec<String>,
    /// The palette's rows on screen: the top of the first one shown, their height, and which
    /// entry is first (brushes, then stamps; the palette scrolls when it is long).
    pub palette_y: f32,
    pub palette_row: f32,
    pub palette_top: usize,
    /// What the editor last said (a save, a refusal, a question), if it still shows.
    pub message: Option<String>,
    /// What it said last, oldest first (at most eight).
    pub said: Vec<String>,
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
        let model = if path.exists() {
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
    fn place(&mut self, w: f32, h: f32, game_scale: f32) {
        if !self.placed {
            self.fit(w, h, game_scale);
            self.placed = true;
        }
    }

    fn fit(&mut self, w: f32, h: f32, game_scale: f32) {
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
    fn map_cell(&self, (sx, sy): (f32, f32)) -> Option<(u32, u32)> {
        let h = screen_height();
        if sx < PALETTE_W || sy < HUD_BAR || sy >= h - STATUS_H {
            return None;
        }
        let (x, y) = self.view.cell_at(sx, sy);
        let inside = (0..i64::from(self.model.width())).contains(&x)
            && (0..i64::from(self.model.height())).contains(&y);
        inside.then_some((x as u32, y as u32))
    }

    /// Handle one frame's input: `events` in order, then the held pan keys. `game_scale` is
    /// the game's zoom (the view starts at it when the map fits).
    pub fn handle(&mut self, events: &[EditEvent], dt: f32, game_scale: f32) -> Outcome {
        let (w, h) = (screen_width(), screen_height());
        self.place(w, h, game_scale);
        if !self.ready {
            // From here on every input event reaches the editor: a test may start clicking.
            self.ready = true;
            if self.echo {
                eprintln!("editor: ready");
            }
        }
        let mut outcome = Outcome::Stay;
        for &event in events {
            match self.event(event, w, h, game_scale) {
                Outcome::Stay => {}
                other => outcome = other,
            }
        }
        if self.clipboard_again && !is_key_down(KeyCode::C) && !is_key_down(KeyCode::X) {
            if let Some(text) = &self.clipboard {
                miniquad::window::clipboard_set(text);
            }
            self.clipboard_again = false;
        }
        // A button let go outside the window never sends its release: end the drag.
        let buttons = [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
        // (`xdotool click` can press and release within one frame: the events above handled
        // both, so this only ends drags whose release was lost.)
        if self.drag.is_some() && !buttons.iter().any(|&b| is_mouse_button_down(b)) {
            self.end_drag();
        }
        if !self.ctrl {
            // Only keys that went down without Ctrl pan: the S of a Ctrl+S never does, however
            // its events fall between frames.
            let down = |keys: &[KeyCode]| keys.iter().any(|k| self.panning.contains(k));
            let axis = |neg: &[KeyCode], pos: &[KeyCode]| {
                f32::from(i8::from(down(pos)) - i8::from(down(neg)))
            };
            let dx = axis(&[KeyCode::A, KeyCode::Left], &[KeyCode::D, KeyCode::Right]);
            let dy = axis(&[KeyCode::W, KeyCode::Up], &[KeyCode::S, KeyCode::Down]);
            if dx != 0.0 || dy != 0.0 {
                let step = PAN_SPEED * dt.min(0.1);
                self.view.pan(dx * step, dy * step);
            }
        }
        outcome
    }

    fn event(&mut self, event: EditEvent, w: f32, h: f32, game_scale: f32) -> Outcome {
        if self.form.is_some() {
            self.form_event(event);
            return Outcome::Stay;
        }
        match event {
            EditEvent::Move(x, y) => {
                self.mouse = (x, y);
                self.drag_to((x, y));
            }
            EditEvent::Down(button, x, y) => {
                self.mouse = (x, y);
                self.press(button, (x, y));
            }
            EditEvent::Up(_, x, y) => {
                self.mouse = (x, y);
                self.drag_to((x, y));
                self.end_drag();
            }
            EditEvent::Wheel(dy) if dy != 0.0 => {
                let (x, y) = self.mouse;
                if x < PALETTE_W && y >= HUD_BAR {
                    self.scroll_palette(if dy > 0.0 { -1 } else { 1 });
                } else {
                    self.view.zoom_at(if dy > 0.0 { 1 } else { -1 }, x, y);
                }
            }
            EditEvent::Wheel(_) | EditEvent::Char(_) => {}
            EditEvent::KeyUp(key) => {
                self.modifier(key, false);
                self.panning.retain(|&k| k != key);
            }
            EditEvent::Key {
                key,
                ctrl,
                shift,
                alt: _,
                repeat,
            } => {
                self.modifier(key, true);
                let ctrl = ctrl || self.ctrl;
                // With a selection the arrows move it; WASD still pan.
                let moves_selection = self.selection.is_some() && is_arrow(key);
                if !ctrl
                    && !moves_selection
                    && PAN_KEYS.contains(&key)
                    && !self.panning.contains(&key)
                {
                    self.panning.push(key);
                }
                let shift = shift || self.shift;
                return self.key(key, ctrl, shift, repeat, (w, h, game_scale));
            }
        }
        Outcome::Stay
    }

    /// An event while a form is open: keys and characters go to it, the mouse only moves.
    fn form_event(&mut self, event: EditEvent) {
        match event {
            EditEvent::Char(c) => {
                if let Some(form) = &mut self.form {
                    form.char(c);
                }
            }
            EditEvent::Key { key, shift, .. } => {
                self.modifier(key, true);
                let shift = shift || self.shift;
                let Some(form) = &mut self.form else { return };
                match form.key(key, shift) {
                    FormKey::Stay => {}
                    FormKey::Cancel => {
                        self.form = None;
                        self.say("closed without changes", ink::DIM);
                    }
                    FormKey::Apply => self.apply_form(),
                }
            }
            EditEvent::KeyUp(key) => self.modifier(key, false),
            EditEvent::Move(x, y) | EditEvent::Down(_, x, y) | EditEvent::Up(_, x, y) => {
                self.mouse = (x, y);
            }
            EditEvent::Wheel(_) => {}
        }
    }

    /// P: the level's name and size.
    fn open_level_form(&mut self) {
        self.form = Some(Form::new(
            FormKind::Level,
            vec![
                ("name", self.model.name().to_owned()),
                ("width", self.model.width().to_string()),
                ("height", self.model.height().to_string()),
            ],
        ));
        if let Some(form) = &mut self.form {
            form.skip = Some('p');
        }
        self.say(
            "level properties: Tab next field, Enter apply, Esc cancel",
            ink::TEXT,
        );
    }

    /// O: the skin and health of the crate under the mouse.
    fn open_crate_form(&mut self) {
        let Some((x, y)) = self.map_cell(self.mouse) else {
            self.say("O edits the crate under the mouse: point at one", ink::DIM);
            return;
        };
        let ch = self.model.cell(x, y).unwrap_or(' ');
        let is_crate = self
            .palette
            .iter()
            .any(|b| b.ch == ch && matches!(b.kind, BrushKind::Crate { .. }));
        if !is_crate {
            self.say(
                format!("O edits the crate under the mouse: ({x}, {y}) holds '{ch}'"),
                ink::DIM,
            );
            return;
        }
        let now = self.model.crate_override(x, y);
        self.form = Some(Form::new(
            FormKind::Crate { x, y },
            vec![
                ("skin", now.skin.unwrap_or_default()),
                (
                    "health",
                    now.health.map(|h| h.to_string()).unwrap_or_default(),
                ),
            ],
        ));
        if let Some(form) = &mut self.form {
            form.skip = Some('o');
        }
        self.say(
            format!("crate at ({x}, {y}): skin and health (empty: as its map character says)"),
            ink::TEXT,
        );
    }

    /// Enter in a form: hand its fields to the model, which checks them as `check` does; a
    /// refusal keeps the form open with the message.
    fn apply_form(&mut self) {
        let Some(form) = self.form.clone() else {
            return;
        };
        self.edited();
        let result = match form.kind {
            FormKind::Level => self.apply_level_form(&form),
            FormKind::Crate { x, y } => self.apply_crate_form(&form, x, y),
            FormKind::NewLevel => Ok(String::new()),
        };
        match result {
            Ok(said) => {
                self.form = None;
                self.say(said, ink::GOOD);
            }
            Err(message) => {
                self.say(format!("not applied: {message}"), ink::ERROR);
                if let Some(open) = &mut self.form {
                    open.error = Some(message);
                }
            }
        }
    }

    fn apply_level_form(&mut self, form: &Form) -> Result<String, String> {
        let number = |label: &str| {
            let text = form.value(label).trim();
            text.parse::<u32>()
                .map_err(|_| format!("{label}: `{text}` is not a whole number"))
        };
        let (width, height) = (number("width")?, number("height")?);
        let name = form.value("name");
        // The name first: a refused size then leaves the name changed, which undo takes back.
        self.model.set_name(name).map_err(|e| e.message)?;
        self.model.set_size(width, height)?;
        Ok(format!(
            "level \"{}\", {} x {}",
            self.model.name(),
            self.model.width(),
            self.model.height()
        ))
    }

    fn apply_crate_form(&mut self, form: &Form, x: u32, y: u32) -> Result<String, String> {
        let health = match form.value("health").trim() {
            "" => None,
            text => Some(
                text.parse::<i64>()
                    .map_err(|_| format!("health: `{text}` is not a whole number"))?,
            ),
        };
        let skin = Some(form.value("skin").trim().to_owned()).filter(|s| !s.is_empty());
        let coin = self.model.crate_override(x, y).coin;
        let fields = CrateOverride { health, skin, coin };
        self.model
            .set_crate_override(x, y, fields.clone())
            .map_err(|e| e.message)?;
        let shown = |v: Option<String>| v.unwrap_or_else(|| "-".to_owned());
        Ok(format!(
            "crate at ({x}, {y}): skin {}, health {}",
            shown(fields.skin),
            shown(fields.health.map(|h| h.to_string()))
        ))
    }

    /// Track Ctrl, Shift and Alt from the event stream itself: a click right after Shift went
    /// down is a Shift-click even if both arrived in one frame.
    fn modifier(&mut self, key: KeyCode, down: bool) {
        match key {
            KeyCode::LeftShift | KeyCode::RightShift => self.shift = down,
            KeyCode::LeftControl | KeyCode::RightControl => self.ctrl = down,
            KeyCode::LeftAlt | KeyCode::RightAlt => self.alt = down,
            _ => {}
        }
    }

    fn press(&mut self, button: MouseButton, p: (f32, f32)) {
        if button == MouseButton::Middle {
            self.drag = Some(Drag::Pan { last: p, from: p });
            return;
        }
        if p.0 < PALETTE_W && p.1 >= HUD_BAR {
            if button == MouseButton::Left
                && let Some(i) = self.palette_entry_at(p)
            {
                self.pick_entry(i);
            }
            return;
        }
        if button == MouseButton::Left
            && let Some((side, delta)) = self.resize_button_at(p)
        {
            self.resize(side, delta);
            return;
        }
        let Some(cell) = self.map_cell(p) else { return };
        if button == MouseButton::Left && (self.alt || is_key_down(KeyCode::LeftAlt)) {
            self.eyedropper(cell);
            return;
        }
        let cell = (i64::from(cell.0), i64::from(cell.1));
        let shift =
            self.shift || is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        let ctrl = self.ctrl || is_key_down(KeyCode::LeftControl);
        let Some(brush) = self.palette.get(self.brush) else {
            return;
        };
        let brush = brush.ch;
        if button == MouseButton::Left && ctrl {
            self.selection = None;
            self.drag = Some(Drag::Select {
                from: cell,
                to: cell,
            });
            return;
        }
        if button == MouseButton::Left
            && !shift
            && self.selection.is_some_and(|r| rect_contains(r, cell))
        {
            self.drag = Some(Drag::Move {
                grab: cell,
                to: cell,
            });
            return;
        }
        if button == MouseButton::Left || button == MouseButton::Right {
            self.selection = None;
        }
        match button {
            MouseButton::Left | MouseButton::Right if shift => {
                let ch = if button == MouseButton::Left {
                    brush
                } else {
                    ERASE
                };
                self.drag = Some(Drag::Fill {
                    ch,
                    from: cell,
                    to: cell,
                });
            }
            MouseButton::Left if matches!(self.tool, Tool::Stamp(_)) => {
                if let Tool::Stamp(i) = self.tool {
                    self.place_stamp(i, cell);
                }
            }
            MouseButton::Left if self.tool == Tool::Scatter => {
                self.edited();
                self.problem_before_drag = self.model.problem().map(ToString::to_string);
                self.model.begin_stroke();
                self.scatter_at(cell, brush);
                self.drag = Some(Drag::Scatter {
                    ch: brush,
                    last: cell,
                });
            }
            MouseButton::Left | MouseButton::Right => {
                let ch = if button == MouseButton::Left {
                    brush
                } else {
                    ERASE
                };
                self.edited();
                self.problem_before_drag = self.model.problem().map(ToString::to_string);
                self.model.begin_stroke();
                self.paint(cell, ch);
                self.drag = Some(Drag::Paint { ch, last: cell });
            }
            _ => {}
        }
    }

    fn drag_to(&mut self, p: (f32, f32)) {
        match self.drag {
            Some(Drag::Pan { last, from }) => {
                self.view.pan(last.0 - p.0, last.1 - p.1);
                self.drag = Some(Drag::Pan { last: p, from });
            }
            Some(Drag::Paint { ch, last }) => {
                let cell = self.view.cell_at(p.0, p.1);
                if cell != last {
                    for c in line_cells(last, cell).into_iter().skip(1) {
                        self.paint(c, ch);
                    }
                    self.drag = Some(Drag::Paint { ch, last: cell });
                }
            }
            Some(Drag::Scatter { ch, last }) => {
                let cell = self.view.cell_at(p.0, p.1);
                if cell != last {
                    for c in line_cells(last, cell).into_iter().skip(1) {
                        self.scatter_at(c, ch);
                    }
                    self.drag = Some(Drag::Scatter { ch, last: cell });
                }
            }
            Some(Drag::Fill { ch, from, .. }) => {
                let to = self.clamp_cell(self.view.cell_at(p.0, p.1));
                self.drag = Some(Drag::Fill { ch, from, to });
            }
            Some(Drag::Select { from, .. }) => {
                let to = self.clamp_cell(self.view.cell_at(p.0, p.1));
                self.drag = Some(Drag::Select { from, to });
            }
            Some(Drag::Move { grab, .. }) => {
                let to = self.view.cell_at(p.0, p.1);
                self.drag = Some(Drag::Move { grab, to });
            }
            None => {}
        }
    }

    fn end_drag(&mut self) {
        match self.drag.take() {
            Some(Drag::Paint { .. }) => self.model.end_stroke(),
            Some(Drag::Scatter { .. }) => {
                self.model.end_stroke();
                self.say(
                    format!(
                        "scattered at {}% with seed {}",
                        u32::from(self.density) * 10,
                        self.scatter_seed
                    ),
                    ink::TEXT,
                );
                // The next stroke paints other cells; the same seed always paints the same.
                self.scatter_seed += 1;
            }
            Some(Drag::Fill { ch, from, to }) if from == to => {
                self.edited();
                match self.model.flood(from.0 as u32, from.1 as u32, ch) {
                    Ok(_) => self.say(
                        format!("flooded from ({}, {}) with '{ch}'", from.0, from.1),
                        ink::TEXT,
                    ),
                    Err(e) => self.say(format!("not filled: {e}"), ink::ERROR),
                }
            }
            Some(Drag::Fill { ch, from, to }) => {
                self.edited();
                let rect =
                    CellRect::spanning((from.0 as u32, from.1 as u32), (to.0 as u32, to.1 as u32));
                if let Err(e) = self.model.fill(rect, ch) {
                    self.say(format!("not filled: {e}"), ink::ERROR);
                }
            }
            Some(Drag::Select { from, to }) => {
                let rect =
                    CellRect::spanning((from.0 as u32, from.1 as u32), (to.0 as u32, to.1 as u32));
                self.selection = Some(rect);
                self.say(
                    format!(
                        "selected {} x {} at ({}, {})",
                        rect.width, rect.height, rect.x, rect.y
                    ),
                    ink::TEXT,
                );
            }
            Some(Drag::Move { grab, to }) => {
                self.move_selection(to.0 - grab.0, to.1 - grab.1);
            }
            Some(Drag::Pan { last, from }) => {
                let moved = (last.0 - from.0).abs().max((last.1 - from.1).abs());
                if moved < CLICK_SLOP
                    && let Some(cell) = self.map_cell(from)
                {
                    self.eyedropper(cell);
                }
            }
            None => {}
        }
    }

    /// Alt+click or a middle click: the brush becomes the cell's character.
    fn eyedropper(&mut self, (x, y): (u32, u32)) {
        let Some(ch) = self.model.cell(x, y) else {
            return;
        };
        match self.palette.iter().position(|b| b.ch == ch) {
            Some(i) => self.pick(i),
            None => self.say(format!("'{ch}' is not in the palette"), ink::ERROR),
        }
    }

    /// Paint one cell if the map has it (a stroke may leave the map and come back).
    fn paint(&mut self, (x, y): CellPos, ch: char) {
        if let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y))
            && x < self.model.width()
            && y < self.model.height()
            && let Err(e) = self.model.paint(x, y, ch)
        {
            self.say(format!("not painted: {e}"), ink::ERROR);
        }
    }

    /// The scatter brush's square centred on `cell`, clipped to the map.
    fn scatter_rect(&self, (x, y): CellPos) -> Option<CellRect> {
        let half = i64::from(SCATTER_SIDE / 2);
        let (w, h) = (
            i64::from(self.model.width()),
            i64::from(self.model.height()),
        );
        let (x0, y0) = ((x - half).max(0), (y - half).max(0));
        let (x1, y1) = ((x + half).min(w - 1), (y + half).min(h - 1));
        (x0 <= x1 && y0 <= y1).then(|| CellRect {
            x: x0 as u32,
            y: y0 as u32,
            width: (x1 - x0 + 1) as u32,
            height: (y1 - y0 + 1) as u32,
        })
    }

    fn scatter_at(&mut self, cell: CellPos, ch: char) {
        if let Some(rect) = self.scatter_rect(cell)
            && let Err(e) = self
                .model
                .scatter(rect, ch, self.density, self.scatter_seed)
        {
            self.say(format!("not scattered: {e}"), ink::ERROR);
        }
    }

    fn clamp_cell(&self, (x, y): CellPos) -> CellPos {
        (
            x.clamp(0, i64::from(self.model.width()) - 1),
            y.clamp(0, i64::from(self.model.height()) - 1),
        )
    }

    /// An edit is about to happen: questions and old messages no longer apply.
    fn edited(&mut self) {
        self.confirm = None;
        self.message = None;
    }

    /// Palette entry `i`: a brush, or (past the brushes) a stamp.
    fn pick_entry(&mut self, i: usize) {
        if i < self.palette.len() {
            self.pick(i);
        } else if let Some(stamp) = self.stamps.get(i - self.palette.len()) {
            let text = format!(
                "stamp \"{}\" ({} x {}): click to place it",
                stamp.name,
                stamp.rows.first().map_or(0, |r| r.chars().count()),
                stamp.rows.len()
            );
            self.tool = Tool::Stamp(i - self.palette.len());
            self.say(text, ink::TEXT);
        }
    }

    fn pick(&mut self, i: usize) {
        if let Some(b) = self.palette.get(i) {
            self.brush = i;
            if matches!(self.tool, Tool::Stamp(_)) {
                self.tool = Tool::Pen;
            }
            let text = format!("brush: {} '{}'", b.label, b.ch);
            self.say(text, ink::TEXT);
            self.show_entry(i);
        }
    }

    fn key(
        &mut self,
        key: KeyCode,
        ctrl: bool,
        shift: bool,
        repeat: bool,
        (w, h, game_scale): (f32, f32, f32),
    ) -> Outcome {
        let asked = self.confirm.take();
        let repeats = (ctrl && matches!(key, KeyCode::Z | KeyCode::Y))
            || (!ctrl && self.selection.is_some() && is_arrow(key));
        if repeat && !repeats {
            self.confirm = asked;
            return Outcome::Stay;
        }
        if ctrl {
            match key {
                KeyCode::S => self.save(asked == Some(Confirm::Save)),
                KeyCode::Z if shift => self.redo(),
                KeyCode::Z => self.undo(),
                KeyCode::Y => self.redo(),
                KeyCode::C => self.copy(false),
                KeyCode::X => self.copy(true),
                KeyCode::V => self.paste(),
                KeyCode::B => self.save_stamp(),
                KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => {
                    self.resize_key(key, if shift { -1 } else { 1 });
                }
                // Ctrl itself (the first half of every shortcut) keeps the question open.
                KeyCode::LeftControl | KeyCode::RightControl => self.confirm = asked,
                _ => {}
            }
            return Outcome::Stay;
        }
        match key {
            KeyCode::E => return Outcome::Play,
            KeyCode::Escape if self.selection.is_some() => {
                self.selection = None;
                self.say("selection cleared", ink::DIM);
            }
            KeyCode::Escape => {
                if !self.model.is_modified() || asked == Some(Confirm::Quit) {
                    return Outcome::Quit;
                }
                self.confirm = Some(Confirm::Quit);
                self.say(
                    "unsaved edits: Esc again quits without saving them (Ctrl+S saves)",
                    ink::GOLD,
                );
            }
            KeyCode::Delete | KeyCode::Backspace => self.erase_selection(),
            KeyCode::P => self.open_level_form(),
            KeyCode::O => self.open_crate_form(),
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
                if self.selection.is_some() =>
            {
                let (dx, dy) = match key {
                    KeyCode::Up => (0, -1),
                    KeyCode::Down => (0, 1),
                    KeyCode::Left => (-1, 0),
                    _ => (1, 0),
                };
                self.move_selection(dx, dy);
            }
            KeyCode::R => {
                self.tool = if self.tool == Tool::Scatter {
                    Tool::Pen
                } else {
                    Tool::Scatter
                };
                let text = match self.tool {
                    Tool::Scatter => format!(
                        "scatter brush: {}% of a {SCATTER_SIDE} x {SCATTER_SIDE} square \
                         (- / = change it)",
                        u32::from(self.density) * 10
                    ),
                    _ => "pen".to_owned(),
                };
                self.say(text, ink::TEXT);
            }
            KeyCode::Minus | KeyCode::Equal | KeyCode::KpSubtract | KeyCode::KpAdd => {
                let up = matches!(key, KeyCode::Equal | KeyCode::KpAdd);
                let steps = SCATTER_STEPS;
                self.density = if up {
                    (self.density + 1).min(*steps.end())
                } else {
                    self.density.saturating_sub(1).max(*steps.start())
                };
                self.say(
                    format!("scatter density {}%", u32::from(self.density) * 10),
                    ink::TEXT,
                );
            }
            KeyCode::Home => self.fit(w, h, game_scale),
            KeyCode::LeftBracket => {
                let n = self.palette.len().max(1);
                self.pick((self.brush + n - 1) % n);
            }
            KeyCode::RightBracket => self.pick((self.brush + 1) % self.palette.len().max(1)),
            KeyCode::LeftShift
            | KeyCode::RightShift
            | KeyCode::LeftControl
            | KeyCode::RightControl
            | KeyCode::LeftAlt
            | KeyCode::RightAlt => self.confirm = asked,
            _ => {
                if let Some(i) = number_key(key) {
                    self.pick(i);
                }
            }
        }
        Outcome::Stay
    }

    /// Ctrl+C (Ctrl+X with `cut`): the selection's rows to the clipboard, as map rows.
    fn copy(&mut self, cut: bool) {
        let Some(rect) = self.selection else {
            self.say("nothing selected: Ctrl + drag selects", ink::DIM);
            return;
        };
        let rows = match self.model.rows(rect) {
            Ok(rows) => rows,
            Err(e) => {
                self.say(format!("not copied: {e}"), ink::ERROR);
                return;
            }
        };
        let text = rows_to_text(&rows);
        miniquad::window::clipboard_set(&text);
        self.clipboard = Some(text);
        self.clipboard_again = true;
        if cut {
            self.edited();
            if let Err(e) = self.model.fill(rect, ERASE) {
                self.say(format!("not cut: {e}"), ink::ERROR);
                return;
            }
        }
        let did = if cut { "cut" } else { "copied" };
        self.say(
            format!(
                "{did} {} x {} at ({}, {})",
                rect.width, rect.height, rect.x, rect.y
            ),
            ink::TEXT,
        );
    }

    /// Ctrl+V: the clipboard's rows with their top-left at the cell under the mouse (or the
    /// selection's corner), selected afterwards.
    fn paste(&mut self) {
        let system = miniquad::window::clipboard_get().filter(|text| !text.trim().is_empty());
        let text = system.or_else(|| self.clipboard.clone());
        let Some(text) = text else {
            self.say("the clipboard is empty", ink::DIM);
            return;
        };
        let rows = match text_to_rows(&text) {
            Ok(rows) => rows,
            Err(e) => {
                self.say(format!("not pasted: {e}"), ink::ERROR);
                return;
            }
        };
        let at = self
            .map_cell(self.mouse)
            .or(self.selection.map(|r| (r.x, r.y)))
            .unwrap_or((0, 0));
        self.edited();
        match self.model.place(i64::from(at.0), i64::from(at.1), &rows) {
            Ok(_) => {
                let (w, h) = (rows[0].len() as u32, rows.len() as u32);
                self.selection = self.clip_rect(at, w, h);
                self.say(
                    format!("pasted {w} x {h} at ({}, {})", at.0, at.1),
                    ink::TEXT,
                );
            }
            Err(e) => self.say(format!("not pasted: {e}"), ink::ERROR),
        }
    }

    /// Delete: the selection becomes floor.
    fn erase_selection(&mut self) {
        let Some(rect) = self.selection else {
            return;
        };
        self.edited();
        match self.model.fill(rect, ERASE) {
            Ok(_) => self.say(
                format!(
                    "erased {} x {} at ({}, {})",
                    rect.width, rect.height, rect.x, rect.y
                ),
                ink::TEXT,
            ),
            Err(e) => self.say(format!("not erased: {e}"), ink::ERROR),
        }
    }

    /// Move the selection's cells by (`dx`, `dy`); the selection follows (clipped to the map).
    fn move_selection(&mut self, dx: i64, dy: i64) {
        let Some(rect) = self.selection else { return };
        if (dx, dy) == (0, 0) {
            return;
        }
        self.edited();
        match self.model.move_rect(rect, dx, dy) {
            Ok(_) => {
                let (x, y) = (i64::from(rect.x) + dx, i64::from(rect.y) + dy);
                self.selection = self.clip_rect_signed((x, y), rect.width, rect.height);
                self.say(
                    format!("moved {} x {} to ({x}, {y})", rect.width, rect.height),
                    ink::TEXT,
                );
            }
            Err(e) => self.say(format!("not moved: {e}"), ink::ERROR),
        }
    }

    /// The part of the `w` x `h` rectangle at `at` that is on the map.
    fn clip_rect(&self, at: (u32, u32), w: u32, h: u32) -> Option<CellRect> {
        self.clip_rect_signed((i64::from(at.0), i64::from(at.1)), w, h)
    }

    fn clip_rect_signed(&self, (x, y): (i64, i64), w: u32, h: u32) -> Option<CellRect> {
        let (mw, mh) = (
            i64::from(self.model.width()),
            i64::from(self.model.height()),
        );
        let (x0, y0) = (x.max(0), y.max(0));
        let (x1, y1) = ((x + i64::from(w)).min(mw), (y + i64::from(h)).min(mh));
        (x0 < x1 && y0 < y1).then(|| CellRect {
            x: x0 as u32,
            y: y0 as u32,
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
        })
    }

    /// Ctrl+B: the selection becomes a stamp in the folder's stamp file.
    fn save_stamp(&mut self) {
        let Some(rect) = self.selection else {
            self.say("nothing selected: Ctrl + drag selects", ink::DIM);
            return;
        };
        let rows = match self.model.rows(rect) {
            Ok(rows) => rows,
            Err(e) => {
                self.say(format!("no stamp saved: {e}"), ink::ERROR);
                return;
            }
        };
        let path = stamp_path(self.model.path());
        let name = format!("stamp {}", self.stamps.len() + 1);
        match add_stamp(
            &path,
            &Stamp {
                name: name.clone(),
                rows,
            },
        ) {
            Ok(stamps) => {
                self.stamps = stamps;
                self.stamps_problem = None;
                self.say(
                    format!(
                        "saved \"{name}\" ({} x {}) in {}",
                        rect.width,
                        rect.height,
                        path.display()
                    ),
                    ink::GOOD,
                );
            }
            Err(e) => self.say(format!("no stamp saved: {}", headline(&e)), ink::ERROR),
        }
    }

    /// Place stamp `i` with its top-left at `cell`, as one undo step.
    fn place_stamp(&mut self, i: usize, cell: CellPos) {
        let Some(stamp) = self.stamps.get(i) else {
            return;
        };
        let rows: Vec<Vec<char>> = stamp.rows.iter().map(|r| r.chars().collect()).collect();
        let name = stamp.name.clone();
        self.edited();
        match self.model.place(cell.0, cell.1, &rows) {
            Ok(_) => self.say(
                format!("placed \"{name}\" at ({}, {})", cell.0, cell.1),
                ink::TEXT,
            ),
            Err(e) => self.say(format!("stamp \"{name}\" not placed: {e}"), ink::ERROR),
        }
    }

    /// Read the stamps of the level's folder (again).
    pub fn load_stamps(&mut self) {
        match load_stamps(&stamp_path(self.model.path())) {
            Ok(stamps) => {
                self.stamps = stamps;
                self.stamps_problem = None;
            }
            Err(e) => {
                self.stamps = Vec::new();
                self.stamps_problem = Some(headline(&e));
                self.say(format!("stamps: {}", headline(&e)), ink::ERROR);
            }
        }
    }

    /// Palette rows: the brushes, then the stamps.
    fn entries(&self) -> usize {
        self.palette.len() + self.stamps.len()
    }

    /// Scroll the palette by `rows` (clamped so it never scrolls past its end).
    fn scroll_palette(&mut self, rows: i64) {
        let visible = palette_fits(screen_height());
        let max = self.entries().saturating_sub(visible);
        self.palette_top = (self.palette_top as i64 + rows).clamp(0, max as i64) as usize;
    }

    /// Scroll the palette so that entry `i` shows.
    fn show_entry(&mut self, i: usize) {
        let visible = palette_fits(screen_height()).max(1);
        if i < self.palette_top {
            self.palette_top = i;
        } else if i >= self.palette_top + visible {
            self.palette_top = i + 1 - visible;
        }
    }

    fn undo(&mut self) {
        self.edited();
        if self.model.undo() {
            self.say("undone", ink::DIM);
        } else {
            self.say("nothing to undo", ink::DIM);
        }
    }

    fn redo(&mut self) {
        self.edited();
        if self.model.redo() {
            self.say("redone", ink::DIM);
        } else {
            self.say("nothing to redo", ink::DIM);
        }
    }

    fn resize_key(&mut self, key: KeyCode, delta: i32) {
        let side = match key {
            KeyCode::Up => Side::Top,
            KeyCode::Down => Side::Bottom,
            KeyCode::Left => Side::Left,
            _ => Side::Right,
        };
        self.resize(side, delta);
    }

    /// The `+` and `-` buttons beside the middle of each map edge (screen rectangles
    /// `[x, y, w, h]`), each with the side and rows or columns it adds (`+1`) or removes
    /// (`-1`); only those clear of the palette and the bars.
    fn resize_buttons(&self) -> Vec<(Side, i32, [f32; 4])> {
        const B: f32 = RESIZE_BUTTON;
        let (w, h) = (screen_width(), screen_height());
        let (mw, mh) = (
            i64::from(self.model.width()),
            i64::from(self.model.height()),
        );
        let [left, top, ..] = self.view.cell_rect((0, 0));
        let [right, bottom, ..] = self.view.cell_rect((mw, mh));
        let (mid_x, mid_y) = ((left + right) / 2.0, (top + bottom) / 2.0);
        let gap = 6.0;
        let across = |y: f32| [(1, [mid_x - B - 2.0, y]), (-1, [mid_x + 2.0, y])];
        let down = |x: f32| [(1, [x, mid_y - B - 2.0]), (-1, [x, mid_y + 2.0])];
        let placed = [
            (Side::Top, across(top - gap - B)),
            (Side::Bottom, across(bottom + gap)),
            (Side::Left, down(left - gap - B)),
            (Side::Right, down(right + gap)),
        ];
        placed
            .into_iter()
            .flat_map(|(side, buttons)| buttons.map(|(delta, [x, y])| (side, delta, [x, y, B, B])))
            .filter(|(_, _, [x, y, ..])| {
                *x >= PALETTE_W && *y >= HUD_BAR && x + B <= w && y + B <= h - STATUS_H
            })
            .collect()
    }

    fn resize_button_at(&self, (px, py): (f32, f32)) -> Option<(Side, i32)> {
        self.resize_buttons()
            .into_iter()
            .find(|(_, _, [x, y, w, h])| (*x..x + w).contains(&px) && (*y..y + h).contains(&py))
            .map(|(side, delta, _)| (side, delta))
    }

    fn resize(&mut self, side: Side, delta: i32) {
        self.edited();
        match self.model.resize(side, delta) {
            Ok(()) => {
                // Rows or columns added (removed) at the top or left move the map's content
                // down or right (up or left): move the view with it, so nothing jumps.
                let shift = delta as f32 * TILE;
                match side {
                    Side::Top => self.view.origin.1 += shift,
                    Side::Left => self.view.origin.0 += shift,
                    Side::Bottom | Side::Right => {}
                }
                self.say(
                    format!("map {} x {}", self.model.width(), self.model.height()),
                    ink::TEXT,
                );
            }
            Err(e) => self.say(format!("cannot resize: {e}"), ink::ERROR),
        }
    }

    /// Ctrl+S: refuse an invalid level with its message; ask first when the save would remove
    /// `crates` overrides or overwrite someone else's change on disk; else save.
    fn save(&mut self, confirmed: bool) {
        if let Some(problem) = self.model.problem() {
            let first = headline(problem);
            self.say(format!("not saved: {first}"), ink::ERROR);
            return;
        }
        let removed = self.model.overrides_to_remove().to_vec();
        if !confirmed && (!removed.is_empty() || self.disk_changed) {
            let mut why = Vec::new();
            if !removed.is_empty() {
                why.push(format!(
                    "saving removes the crates overrides {} (no crate there now)",
                    list_cells(&removed)
                ));
            }
            if self.disk_changed {
                why.push("the file changed on disk since: saving overwrites that".into());
            }
            self.confirm = Some(Confirm::Save);
            self.say(
                format!("{}; Ctrl+S again to save", why.join("; ")),
                ink::GOLD,
            );
            return;
        }
        // Overwrite a change made on disk only when asked to, after saying so.
        let saved = if confirmed && self.disk_changed {
            self.model.save_overwriting()
        } else {
            self.model.save()
        };
        match saved {
            Err(SaveError::ChangedOnDisk(_)) => {
                // Changed since it was read, and the watcher has not said so yet (or is off).
                self.disk_changed = true;
                self.confirm = Some(Confirm::Save);
                self.say(
                    "not saved: the file changed on disk since the editor read it; \
                     Ctrl+S again overwrites that change (your edits are kept)",
                    ink::GOLD,
                );
            }
            Ok(_) => {
                self.disk_changed = false;
                let mut text = format!("saved {}", self.model.path().display());
                if !removed.is_empty() {
                    text += &format!(", removed the crates overrides {}", list_cells(&removed));
                }
                self.say(text, ink::GOOD);
            }
            Err(e) => self.say(format!("not saved (your edits are kept): {e}"), ink::ERROR),
        }
    }

    /// Which palette entry is at screen point `p`, if any.
    fn palette_entry_at(&self, (x, y): (f32, f32)) -> Option<usize> {
        let (row, visible) = palette_layout(self.entries(), screen_height());
        if !(0.0..PALETTE_W).contains(&x) || y < HUD_BAR + 4.0 {
            return None;
        }
        let shown = ((y - HUD_BAR - 4.0) / row).floor() as usize;
        let i = self.palette_top + shown;
        (shown < visible && i < self.entries()).then_some(i)
    }

    /// Facts for a scripted run's report.
    pub fn report(&self) -> EditorReport {
        let (w, h) = (screen_width(), screen_height());
        let view = self.view.aabb(w, h);
        EditorReport {
            path: self.model.path().display().to_string(),
            width: self.model.width(),
            height: self.model.height(),
            modified: self.model.is_modified(),
            problem: self.model.problem().map(headline),
            brush: self
                .palette
                .get(self.brush)
                .map(|b| b.ch.to_string())
                .unwrap_or_default(),
            cursor: self.map_cell(self.mouse).map(|(x, y)| [x, y]),
            view: [view.min_x, view.min_y, view.max_x, view.max_y],
            scale: self.view.scale(),
            disk_changed: self.disk_changed,
            selection: self.selection.map(|r| [r.x, r.y, r.width, r.height]),
            tool: match self.tool {
                Tool::Pen => "pen",
                Tool::Scatter => "scatter",
                Tool::Stamp(_) => "stamp",
            }
            .to_owned(),
            stamps: self.stamps.iter().map(|s| s.name.clone()).collect(),
            palette_y: HUD_BAR + 4.0,
            palette_row: palette_layout(self.entries(), h).0,
            palette_top: self.palette_top,
            message: self.message.as_ref().map(|(text, _)| text.clone()),
            said: self.said.clone(),
        }
    }

    /// Draw the document, grid, palette, status line and messages (the screen is cleared).
    pub fn draw(&mut self, renderer: &Renderer, hud: &mut Hud, game_scale: f32) {
        let (w, h) = (screen_width(), screen_height());
        self.place(w, h, game_scale);
        let aabb = self.view.aabb(w, h);
        renderer.set_world_camera(&aabb);
        self.draw_cells(renderer, &aabb);
        set_default_camera();
        self.draw_grid(w, h);
        self.draw_palette(renderer, hud, h);
        self.draw_bars(hud, w, h);
        if let Some(form) = &self.form {
            form.draw(hud, PALETTE_W + 12.0);
        }
    }

    fn visible_cells(&self, aabb: &crate::sim::Aabb) -> (u32, u32, u32, u32) {
        let clamp = |v: f32, max: u32| (v / TILE).floor().clamp(0.0, max as f32) as u32;
        (
            clamp(aabb.min_x, self.model.width()),
            clamp(aabb.min_y, self.model.height()),
            clamp(aabb.max_x + TILE, self.model.width()),
            clamp(aabb.max_y + TILE, self.model.height()),
        )
    }

    fn draw_cells(&self, renderer: &Renderer, aabb: &crate::sim::Aabb) {
        let (x0, y0, x1, y1) = self.visible_cells(aabb);
        // Ground first, then what stands on it, so a tall sprite overlaps the row above.
        for pass in 0..2 {
            for y in y0..y1 {
                for x in x0..x1 {
                    let ch = self.model.cell(x, y).unwrap_or(' ');
                    let looks = self.art.looks.get(&ch).copied().unwrap_or_default();
                    let (wx, wy) = (x as f32 * TILE, y as f32 * TILE);
                    if pass == 0 {
                        if let Some(frame) = self.art.ground(looks.ground, x, y) {
                            renderer.draw_frame_world(frame, wx, wy, WHITE);
                        }
                    } else if let Some(frame) = looks.sprite {
                        // Centred on the cell, feet on its bottom edge.
                        let sx = wx + (TILE - f32::from(frame.w)) / 2.0;
                        let sy = wy + TILE - f32::from(frame.h);
                        renderer.draw_frame_world(frame, sx, sy, WHITE);
                    }
                }
            }
        }
    }

    fn draw_grid(&self, w: f32, h: f32) {
        let (mw, mh) = (self.model.width() as i64, self.model.height() as i64);
        let [left, top, ..] = self.view.cell_rect((0, 0));
        let [right, bottom, ..] = self.view.cell_rect((mw, mh));
        let side = TILE * self.view.scale();
        let line = Color::new(1.0, 1.0, 1.0, 0.12);
        // A grid finer than 6 screen pixels is a grey wash: leave it out when zoomed far out.
        if side >= 6.0 {
            let first_x = ((0.0 - left) / side).floor().max(0.0) as i64;
            let last_x = (((w - left) / side).ceil() as i64).min(mw);
            for i in first_x..=last_x {
                let x = left + i as f32 * side;
                draw_line(x, top.max(0.0), x, bottom.min(h), 1.0, line);
            }
            let first_y = ((0.0 - top) / side).floor().max(0.0) as i64;
            let last_y = (((h - top) / side).ceil() as i64).min(mh);
            for i in first_y..=last_y {
                let y = top + i as f32 * side;
                draw_line(left.max(0.0), y, right.min(w), y, 1.0, line);
            }
        }
        // The map's edge.
        draw_rectangle_lines(
            left - 1.0,
            top - 1.0,
            right - left + 2.0,
            bottom - top + 2.0,
            2.0,
            ink::GOLD,
        );
        for (_, delta, [x, y, bw, bh]) in self.resize_buttons() {
            draw_rectangle(x, y, bw, bh, ink::OPAQUE);
            draw_rectangle_lines(x, y, bw, bh, 1.0, ink::GOLD);
            let (cx, cy) = (x + bw / 2.0, y + bh / 2.0);
            draw_line(cx - 6.0, cy, cx + 6.0, cy, 2.0, ink::GOLD);
            if delta > 0 {
                draw_line(cx, cy - 6.0, cx, cy + 6.0, 2.0, ink::GOLD);
            }
        }
        let selection = match self.drag {
            Some(Drag::Select { from, to }) => Some((from, to)),
            Some(Drag::Move { grab, to }) => self.selection.map(|r| {
                let (dx, dy) = (to.0 - grab.0, to.1 - grab.1);
                let (x, y) = (i64::from(r.x) + dx, i64::from(r.y) + dy);
                (
                    (x, y),
                    (x + i64::from(r.width) - 1, y + i64::from(r.height) - 1),
                )
            }),
            _ => self.selection.map(|r| {
                let (x, y) = (i64::from(r.x), i64::from(r.y));
                (
                    (x, y),
                    (x + i64::from(r.width) - 1, y + i64::from(r.height) - 1),
                )
            }),
        };
        if let Some((from, to)) = selection {
            self.outline_cells(from, to, Color::new(0.4, 0.8, 1.0, 0.18), SELECTION);
        }
        if let Some(Drag::Fill { from, to, .. }) = self.drag {
            self.outline_cells(from, to, Color::new(1.0, 0.82, 0.3, 0.25), ink::GOLD);
        } else if let Some((x, y)) = self.map_cell(self.mouse) {
            let cell = (i64::from(x), i64::from(y));
            match self.tool {
                Tool::Scatter => {
                    if let Some(r) = self.scatter_rect(cell) {
                        let (x, y) = (i64::from(r.x), i64::from(r.y));
                        let to = (x + i64::from(r.width) - 1, y + i64::from(r.height) - 1);
                        self.outline_cells((x, y), to, Color::new(1.0, 1.0, 1.0, 0.08), WHITE);
                    }
                }
                Tool::Stamp(i) => {
                    if let Some(stamp) = self.stamps.get(i) {
                        let w = stamp.rows.first().map_or(1, |r| r.chars().count()) as i64;
                        let h = stamp.rows.len() as i64;
                        let to = (cell.0 + w - 1, cell.1 + h - 1);
                        self.outline_cells(cell, to, Color::new(1.0, 1.0, 1.0, 0.08), WHITE);
                    }
                }
                Tool::Pen => {
                    let [cx, cy, cw, ch] = self.view.cell_rect(cell);
                    draw_rectangle_lines(cx, cy, cw, ch, 2.0, WHITE);
                }
            }
        }
    }

    /// Shade and outline the cells from `from` to `to` (corners, either order).
    fn outline_cells(&self, from: CellPos, to: CellPos, fill: Color, line: Color) {
        let a = self.view.cell_rect((from.0.min(to.0), from.1.min(to.1)));
        let b = self.view.cell_rect((from.0.max(to.0), from.1.max(to.1)));
        let (rw, rh) = (b[0] + b[2] - a[0], b[1] + b[3] - a[1]);
        draw_rectangle(a[0], a[1], rw, rh, fill);
        draw_rectangle_lines(a[0], a[1], rw, rh, 2.0, line);
    }

    fn draw_palette(&self, renderer: &Renderer, hud: &mut Hud, h: f32) {
        draw_rectangle(0.0, HUD_BAR, PALETTE_W, h - HUD_BAR, ink::OPAQUE);
        let (row, visible) = palette_layout(self.entries(), h);
        let icon = (row - 8.0).clamp(8.0, 36.0);
        let size = (row * 0.42).clamp(10.0, 18.0);
        for shown in 0..visible {
            let i = self.palette_top + shown;
            let y = HUD_BAR + 4.0 + row * shown as f32;
            let chosen = match self.tool {
                Tool::Stamp(s) => i == self.palette.len() + s,
                _ => i == self.brush,
            };
            if chosen {
                draw_rectangle(2.0, y, PALETTE_W - 4.0, row - 2.0, ink::HIGHLIGHT);
                draw_rectangle_lines(2.0, y, PALETTE_W - 4.0, row - 2.0, 2.0, ink::GOLD);
            }
            let color = if chosen { ink::GOLD } else { ink::TEXT };
            let Some(brush) = self.palette.get(i) else {
                // A stamp: its number and a miniature of its rows.
                let s = i - self.palette.len();
                if let Some(stamp) = self.stamps.get(s) {
                    hud.text(format!("S{}", s + 1), 6.0, y + row * 0.45, size, color);
                    self.draw_miniature(stamp, PALETTE_W - icon - 6.0, y + 2.0, icon);
                }
                continue;
            };
            let looks = self.art.looks.get(&brush.ch).copied().unwrap_or_default();
            let (ix, iy) = (PALETTE_W - icon - 6.0, y + (row - 2.0 - icon) / 2.0);
            if let Some(ground) = self.art.ground(looks.ground, 0, 0) {
                renderer.draw_icon(ground, ix, iy, icon);
            } else {
                // Void: the background, with an outline to show the cell.
                draw_rectangle_lines(ix, iy, icon, icon, 1.0, ink::DIM);
            }
            if let Some(sprite) = looks.sprite {
                let k = icon / TILE;
                let (sw, sh) = (f32::from(sprite.w) * k, f32::from(sprite.h) * k);
                renderer.draw_icon(sprite, ix + (icon - sw) / 2.0, iy + icon - sh, sh);
            }
            let key = match i {
                0..=8 => format!("{}", i + 1),
                9 => "0".into(),
                _ => String::new(),
            };
            hud.text(key, 6.0, y + row * 0.45, size, color);
            hud.text(
                format!("'{}'", brush.ch),
                6.0,
                y + row * 0.85,
                size,
                ink::DIM,
            );
        }
        // More entries above or below: a gold bar at that end (the wheel scrolls).
        if self.palette_top > 0 {
            draw_rectangle(4.0, HUD_BAR + 1.0, PALETTE_W - 8.0, 3.0, ink::GOLD);
        }
        if self.palette_top + visible < self.entries() {
            let y = HUD_BAR + 4.0 + row * visible as f32;
            draw_rectangle(4.0, y, PALETTE_W - 8.0, 3.0, ink::GOLD);
        }
    }

    /// A stamp drawn as coloured squares (wall, floor, crate, ...) in an `side`-pixel square.
    fn draw_miniature(&self, stamp: &Stamp, x: f32, y: f32, side: f32) {
        let (w, h) = (
            stamp.rows.first().map_or(1, |r| r.chars().count()).max(1),
            stamp.rows.len().max(1),
        );
        let cell = side / w.max(h) as f32;
        for (ry, row) in stamp.rows.iter().enumerate().take(64) {
            for (rx, c) in row.chars().enumerate().take(64) {
                let color = match self.palette.iter().find(|b| b.ch == c).map(|b| &b.kind) {
                    Some(BrushKind::Tile(Tile::Wall)) => Color::new(0.55, 0.5, 0.45, 1.0),
                    Some(BrushKind::Tile(Tile::Floor)) => Color::new(0.3, 0.27, 0.24, 1.0),
                    Some(BrushKind::Crate { .. }) => Color::new(0.8, 0.55, 0.25, 1.0),
                    Some(BrushKind::Coin) => ink::GOLD,
                    Some(BrushKind::Player) => ink::GOOD,
                    Some(BrushKind::Tile(Tile::Void)) => continue,
                    None => ink::ERROR,
                };
                draw_rectangle(
                    x + rx as f32 * cell,
                    y + ry as f32 * cell,
                    cell.max(1.0),
                    cell.max(1.0),
                    color,
                );
            }
        }
    }

    fn draw_bars(&self, hud: &mut Hud, w: f32, h: f32) {
        // The bar along the top: what is being edited.
        draw_rectangle(0.0, 0.0, w, HUD_BAR, ink::OPAQUE);
        draw_rectangle(0.0, HUD_BAR - 2.0, w, 2.0, ink::EDGE);
        let base = HUD_BAR / 2.0 + 8.0;
        let name = self.model.path().file_name().map_or_else(
            || self.model.path().display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let modified = if self.model.is_modified() {
            "  (unsaved)"
        } else {
            ""
        };
        hud.text("EDIT", 14.0, base, 24.0, ink::ERROR);
        hud.text(
            format!("{}{modified}", shorten(&name, 48)),
            80.0,
            base,
            24.0,
            ink::GOLD,
        );
        let keys = "Ctrl+S save   E play   F1 keys";
        let kw = measure_text(keys, None, 20, 1.0).width;
        hud.text(keys, w - kw - 14.0, base, 20.0, ink::DIM);

        // The status line along the bottom: cursor, brush, size, zoom.
        draw_rectangle(0.0, h - STATUS_H, w, STATUS_H, ink::OPAQUE);
        let cursor = match self.map_cell(self.mouse) {
            Some((x, y)) => format!("({x}, {y}) '{}'", self.model.cell(x, y).unwrap_or(' ')),
            None => "-".into(),
        };
        let brush = self
            .palette
            .get(self.brush)
            .map_or(String::new(), |b| format!("{} '{}'", b.label, b.ch));
        let tool = match self.tool {
            Tool::Pen => String::new(),
            Tool::Scatter => format!(
                "     scatter {}% (seed {})",
                u32::from(self.density) * 10,
                self.scatter_seed
            ),
            Tool::Stamp(i) => self.stamps.get(i).map_or(String::new(), |s| {
                format!("     stamp \"{}\"", shorten(&s.name, 24))
            }),
        };
        let selection = self.selection.map_or(String::new(), |r| {
            format!(
                "     selection {} x {} at ({}, {})",
                r.width, r.height, r.x, r.y
            )
        });
        let status = format!(
            "cell {cursor}     brush {brush}{tool}{selection}     map {} x {}     zoom {}x",
            self.model.width(),
            self.model.height(),
            self.view.scale()
        );
        hud.text(status, PALETTE_W + 10.0, h - 8.0, 20.0, ink::TEXT);

        // Above it: the level's problem (live validation) and the editor's last message.
        let mut lines: Vec<(String, Color)> = Vec::new();
        if let Some((text, color)) = &self.message {
            lines.push((shorten(text, 150), *color));
        }
        let problem = if matches!(self.drag, Some(Drag::Paint { .. })) {
            self.problem_before_drag.clone()
        } else {
            self.model.problem().map(ToString::to_string)
        };
        if let Some(problem) = problem {
            lines.push(("cannot save or play:".into(), ink::GOLD));
            lines.extend(
                problem
                    .lines()
                    .take(4)
                    .map(|l| (shorten(l, 150), ink::ERROR)),
            );
        }
        if !lines.is_empty() {
            let (bw, bh) = Hud::box_size(&lines, 20.0);
            let (bx, by) = (PALETTE_W + 8.0, h - STATUS_H - bh - 6.0);
            // Opaque under the (translucent) text box: readable over any map.
            hud.panel(Rect::new(bx, by, bw, bh), ink::OPAQUE);
            hud.text_box(&lines, bx, by, 20.0);
        }
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

/// Shortest palette row, in screen pixels: shorter would make the sprites too small to tell
/// apart, so a longer palette scrolls instead.
const PALETTE_MIN_ROW: f32 = 36.0;

/// The height of one palette row for `entries` entries in a window `h` pixels tall, and how
/// many rows show at once.
fn palette_layout(entries: usize, h: f32) -> (f32, usize) {
    let room = (h - HUD_BAR - STATUS_H - 8.0).max(PALETTE_MIN_ROW);
    let row = (room / entries.max(1) as f32).clamp(PALETTE_MIN_ROW, 52.0);
    (row, ((room / row).floor() as usize).min(entries))
}

/// How many palette rows a window `h` pixels tall shows when the palette scrolls.
fn palette_fits(h: f32) -> usize {
    palette_layout(usize::MAX, h).1
}

fn is_arrow(key: KeyCode) -> bool {
    matches!(
        key,
        KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right
    )
}

/// Whether `rect` holds cell `(x, y)`.
fn rect_contains(rect: CellRect, (x, y): CellPos) -> bool {
    (i64::from(rect.x)..i64::from(rect.x) + i64::from(rect.width)).contains(&x)
        && (i64::from(rect.y)..i64::from(rect.y) + i64::from(rect.height)).contains(&y)
}

/// The palette entry a number key picks: 1-9 the first nine, 0 the tenth.
fn number_key(key: KeyCode) -> Option<usize> {
    const KEYS: [KeyCode; 10] = [
        KeyCode::Key1,
        KeyCode::Key2,
        KeyCode::Key3,
        KeyCode::Key4,
        KeyCode::Key5,
        KeyCode::Key6,
        KeyCode::Key7,
        KeyCode::Key8,
        KeyCode::Key9,
        KeyCode::Key0,
    ];
    KEYS.iter().position(|&k| k == key)
}

/// `(at: (3, 2)) on line 24, ...`: overrides as the file writes them, at most eight, then how
/// many more.
fn list_cells(cells: &[DroppedOverride]) -> String {
    let mut shown: Vec<String> = cells
        .iter()
        .take(8)
        .map(|o| format!("(at: ({}, {})) on line {}", o.at.0, o.at.1, o.line))
        .collect();
    if cells.len() > 8 {
        shown.push(format!("and {} more", cells.len() - 8));
    }
    shown.join(", ")
}
