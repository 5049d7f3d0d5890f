//! What a scripted run's report says about the editor: the file, the map, the view and the
//! cursor (tests map cells to pixels with them), the tool, the palette and what was said.

use macroquad::prelude::*;

use super::edit_layout::palette_layout;
use super::edit_session::{Session, Tool, headline};
use crate::window::app::screens::HUD_BAR;

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
}
