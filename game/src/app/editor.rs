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

use super::edit_view::{CellPos, EditView, line_cells};
use super::render::Renderer;
use super::screens::{HUD_BAR, shorten};
use crate::atlas::clip_names::{self, CrateState, Facing};
use crate::atlas::{AtlasData, FrameRect};
use crate::editor::{
    Brush, BrushKind, CellRect, DroppedOverride, EditError, Editor, SaveError, Side,
};
use crate::level::{Level, LevelError, Tile};
use crate::sim::TILE;
use crate::ui::{Hud, ink};

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
pub const HELP: [(&str, &str); 12] = [
    ("E", "play the edited level / back to the editor"),
    ("left / right drag", "paint with the brush / erase to floor"),
    ("Shift + left drag", "fill a rectangle"),
    ("1-9, 0, click", "pick a brush from the palette ([ ] step)"),
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
        repeat: bool,
    },
    /// A key went up.
    KeyUp(KeyCode),
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
            repeat,
        });
    }
    fn key_up_event(&mut self, key: KeyCode, _mods: KeyMods) {
        self.events.push(EditEvent::KeyUp(key));
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
    /// Moving the view with the middle button, last at screen point `last`.
    Pan { last: (f32, f32) },
}

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
        Ok(Self::with_model(model, atlas))
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
        let mut outcome = Outcome::Stay;
        for &event in events {
            match self.event(event, w, h, game_scale) {
                Outcome::Stay => {}
                other => outcome = other,
            }
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
                self.view.zoom_at(if dy > 0.0 { 1 } else { -1 }, x, y);
            }
            EditEvent::Wheel(_) => {}
            EditEvent::KeyUp(key) => {
                self.modifier(key, false);
                self.panning.retain(|&k| k != key);
            }
            EditEvent::Key {
                key,
                ctrl,
                shift,
                repeat,
            } => {
                self.modifier(key, true);
                let ctrl = ctrl || self.ctrl;
                if !ctrl && PAN_KEYS.contains(&key) && !self.panning.contains(&key) {
                    self.panning.push(key);
                }
                let shift = shift || self.shift;
                return self.key(key, ctrl, shift, repeat, (w, h, game_scale));
            }
        }
        Outcome::Stay
    }

    /// Track Ctrl and Shift from the event stream itself: a click right after Shift went down
    /// is a Shift-click even if both arrived in one frame.
    fn modifier(&mut self, key: KeyCode, down: bool) {
        match key {
            KeyCode::LeftShift | KeyCode::RightShift => self.shift = down,
            KeyCode::LeftControl | KeyCode::RightControl => self.ctrl = down,
            _ => {}
        }
    }

    fn press(&mut self, button: MouseButton, p: (f32, f32)) {
        if button == MouseButton::Middle {
            self.drag = Some(Drag::Pan { last: p });
            return;
        }
        if p.0 < PALETTE_W && p.1 >= HUD_BAR {
            if button == MouseButton::Left
                && let Some(i) = self.palette_entry_at(p)
            {
                self.pick(i);
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
        let cell = (i64::from(cell.0), i64::from(cell.1));
        let shift =
            self.shift || is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        let Some(brush) = self.palette.get(self.brush) else {
            return;
        };
        match button {
            MouseButton::Left if shift => {
                self.drag = Some(Drag::Fill {
                    ch: brush.ch,
                    from: cell,
                    to: cell,
                });
            }
            MouseButton::Left | MouseButton::Right => {
                let ch = if button == MouseButton::Left {
                    brush.ch
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
            Some(Drag::Pan { last }) => {
                self.view.pan(last.0 - p.0, last.1 - p.1);
                self.drag = Some(Drag::Pan { last: p });
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
            Some(Drag::Fill { ch, from, .. }) => {
                let to = self.clamp_cell(self.view.cell_at(p.0, p.1));
                self.drag = Some(Drag::Fill { ch, from, to });
            }
            None => {}
        }
    }

    fn end_drag(&mut self) {
        match self.drag.take() {
            Some(Drag::Paint { .. }) => self.model.end_stroke(),
            Some(Drag::Fill { ch, from, to }) => {
                self.edited();
                let rect =
                    CellRect::spanning((from.0 as u32, from.1 as u32), (to.0 as u32, to.1 as u32));
                if let Err(e) = self.model.fill(rect, ch) {
                    self.say(format!("not filled: {e}"), ink::ERROR);
                }
            }
            Some(Drag::Pan { .. }) | None => {}
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

    fn pick(&mut self, i: usize) {
        if let Some(b) = self.palette.get(i) {
            self.brush = i;
            let text = format!("brush: {} '{}'", b.label, b.ch);
            self.say(text, ink::TEXT);
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
        if repeat && !(ctrl && matches!(key, KeyCode::Z | KeyCode::Y)) {
            self.confirm = asked;
            return Outcome::Stay;
        }
        if ctrl {
            match key {
                KeyCode::S => self.save(asked == Some(Confirm::Save)),
                KeyCode::Z if shift => self.redo(),
                KeyCode::Z => self.undo(),
                KeyCode::Y => self.redo(),
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
            KeyCode::Home => self.fit(w, h, game_scale),
            KeyCode::LeftBracket => {
                let n = self.palette.len().max(1);
                self.pick((self.brush + n - 1) % n);
            }
            KeyCode::RightBracket => self.pick((self.brush + 1) % self.palette.len().max(1)),
            KeyCode::LeftShift
            | KeyCode::RightShift
            | KeyCode::LeftControl
            | KeyCode::RightControl => self.confirm = asked,
            _ => {
                if let Some(i) = number_key(key) {
                    self.pick(i);
                }
            }
        }
        Outcome::Stay
    }

    fn undo(&mut self) {
        self.edited();
        if !self.model.undo() {
            self.say("nothing to undo", ink::DIM);
        }
    }

    fn redo(&mut self) {
        self.edited();
        if !self.model.redo() {
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
        let row = palette_row(self.palette.len(), screen_height());
        if !(0.0..PALETTE_W).contains(&x) || y < HUD_BAR + 4.0 {
            return None;
        }
        let i = ((y - HUD_BAR - 4.0) / row).floor() as usize;
        (i < self.palette.len()).then_some(i)
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
        if let Some(Drag::Fill { from, to, .. }) = self.drag {
            let a = self.view.cell_rect((from.0.min(to.0), from.1.min(to.1)));
            let b = self.view.cell_rect((from.0.max(to.0), from.1.max(to.1)));
            let (rw, rh) = (b[0] + b[2] - a[0], b[1] + b[3] - a[1]);
            draw_rectangle(a[0], a[1], rw, rh, Color::new(1.0, 0.82, 0.3, 0.25));
            draw_rectangle_lines(a[0], a[1], rw, rh, 2.0, ink::GOLD);
        } else if let Some((x, y)) = self.map_cell(self.mouse) {
            let [cx, cy, cw, ch] = self.view.cell_rect((i64::from(x), i64::from(y)));
            draw_rectangle_lines(cx, cy, cw, ch, 2.0, WHITE);
        }
    }

    fn draw_palette(&self, renderer: &Renderer, hud: &mut Hud, h: f32) {
        draw_rectangle(0.0, HUD_BAR, PALETTE_W, h - HUD_BAR, ink::OPAQUE);
        let row = palette_row(self.palette.len(), h);
        let icon = (row - 8.0).clamp(8.0, 36.0);
        for (i, brush) in self.palette.iter().enumerate() {
            let y = HUD_BAR + 4.0 + row * i as f32;
            if i == self.brush {
                draw_rectangle(2.0, y, PALETTE_W - 4.0, row - 2.0, ink::HIGHLIGHT);
                draw_rectangle_lines(2.0, y, PALETTE_W - 4.0, row - 2.0, 2.0, ink::GOLD);
            }
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
            let size = (row * 0.42).clamp(10.0, 18.0);
            let color = if i == self.brush {
                ink::GOLD
            } else {
                ink::TEXT
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
        let status = format!(
            "cell {cursor}     brush {brush}     map {} x {}     zoom {}x",
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

/// Height of one palette row for `entries` entries in a window `h` pixels tall.
fn palette_row(entries: usize, h: f32) -> f32 {
    let room = h - HUD_BAR - STATUS_H - 8.0;
    (room / entries.max(1) as f32).clamp(12.0, 52.0)
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
