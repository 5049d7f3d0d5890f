//! The editor's camera, as plain arithmetic: where the level is on screen at any pan and zoom,
//! which map cell is under a screen point, and the zoom steps. No window needed, so the
//! mouse-to-cell mapping is tested here; the window test checks it against real clicks.

use crate::sim::{Aabb, TILE};

/// Zoom steps, in screen pixels per world pixel (a cell is 16 world pixels: 4 to 128 screen
/// pixels). The wheel moves one step.
pub const ZOOMS: [f32; 12] = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0];

/// Where the world is on screen: world point `origin` (world pixels, y down) at the screen's
/// top-left corner, `ZOOMS[zoom]` screen pixels per world pixel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EditView {
    pub origin: (f32, f32),
    pub zoom: usize,
}

/// A map cell: column, row. Signed, because a point off the map's top or left is a cell too
/// (one the map does not have).
pub type CellPos = (i64, i64);

impl EditView {
    /// The view that shows a `cells_w` x `cells_h` map centred in `area` (screen pixels:
    /// `[x, y, w, h]`), at the largest zoom step that fits it and is at most `max_scale`
    /// (the game's own zoom, so the editor starts looking like the game), and at least the
    /// smallest step.
    pub fn fit(cells_w: u32, cells_h: u32, area: [f32; 4], max_scale: f32) -> Self {
        let (world_w, world_h) = (cells_w as f32 * TILE, cells_h as f32 * TILE);
        let zoom = ZOOMS
            .iter()
            .rposition(|&s| s <= max_scale && world_w * s <= area[2] && world_h * s <= area[3])
            .unwrap_or(0);
        let scale = ZOOMS[zoom];
        // The map's centre at the area's centre.
        let centre_screen = (area[0] + area[2] / 2.0, area[1] + area[3] / 2.0);
        let mut view = Self {
            origin: (
                world_w / 2.0 - centre_screen.0 / scale,
                world_h / 2.0 - centre_screen.1 / scale,
            ),
            zoom,
        };
        view.snap();
        view
    }

    /// Screen pixels per world pixel.
    pub fn scale(&self) -> f32 {
        ZOOMS[self.zoom]
    }

    /// The world point (world pixels) at screen point `(sx, sy)`.
    pub fn to_world(self, sx: f32, sy: f32) -> (f32, f32) {
        let s = self.scale();
        (self.origin.0 + sx / s, self.origin.1 + sy / s)
    }

    /// The screen point of world point `(wx, wy)`.
    pub fn to_screen(self, wx: f32, wy: f32) -> (f32, f32) {
        let s = self.scale();
        ((wx - self.origin.0) * s, (wy - self.origin.1) * s)
    }

    /// The cell under screen point `(sx, sy)`: cell `(x, y)` covers world pixels
    /// `[16x, 16x + 16) x [16y, 16y + 16)`, row 0 at the top.
    pub fn cell_at(&self, sx: f32, sy: f32) -> CellPos {
        let (wx, wy) = self.to_world(sx, sy);
        ((wx / TILE).floor() as i64, (wy / TILE).floor() as i64)
    }

    /// Screen rectangle `[x, y, w, h]` of cell `(x, y)`.
    pub fn cell_rect(&self, (x, y): CellPos) -> [f32; 4] {
        let (sx, sy) = self.to_screen(x as f32 * TILE, y as f32 * TILE);
        let side = TILE * self.scale();
        [sx, sy, side, side]
    }

    /// Move the view by `(dx, dy)` screen pixels (the level moves the other way).
    pub fn pan(&mut self, dx: f32, dy: f32) {
        let s = self.scale();
        self.origin.0 += dx / s;
        self.origin.1 += dy / s;
        self.snap();
    }

    /// Zoom `steps` steps in (negative: out), keeping the world point under screen point
    /// `(sx, sy)` where it is.
    pub fn zoom_at(&mut self, steps: i32, sx: f32, sy: f32) {
        let zoom = (self.zoom as i64 + i64::from(steps)).clamp(0, ZOOMS.len() as i64 - 1) as usize;
        let (wx, wy) = self.to_world(sx, sy);
        self.zoom = zoom;
        let s = self.scale();
        self.origin = (wx - sx / s, wy - sy / s);
        self.snap();
    }

    /// Everything the screen (`w` x `h` pixels) shows, in world pixels.
    pub fn aabb(&self, w: f32, h: f32) -> Aabb {
        let s = self.scale();
        Aabb {
            min_x: self.origin.0,
            min_y: self.origin.1,
            max_x: self.origin.0 + w / s,
            max_y: self.origin.1 + h / s,
        }
    }

    /// Put the origin on a whole screen pixel, so cell edges and sprites never shimmer.
    fn snap(&mut self) {
        let s = self.scale();
        self.origin = (
            (self.origin.0 * s).round() / s,
            (self.origin.1 * s).round() / s,
        );
    }
}

/// The cells of the straight line from `a` to `b`, both included, each a step from the one
/// before (horizontal, vertical or diagonal): a fast mouse drag paints a line without gaps.
pub fn line_cells(a: CellPos, b: CellPos) -> Vec<CellPos> {
    crate::raster::line(a, b).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_maps_to_the_cell_it_is_drawn_in_at_every_zoom_and_pan() {
        for zoom in 0..ZOOMS.len() {
            for origin in [(0.0, 0.0), (-37.0, 12.5), (100.25, -64.0)] {
                let mut view = EditView { origin, zoom };
                view.snap();
                for cell in [(0, 0), (3, 7), (25, 14), (-1, -1)] {
                    let [x, y, w, h] = view.cell_rect(cell);
                    // Just inside each corner, and the centre.
                    let inset = 0.25;
                    for (px, py) in [
                        (x + inset, y + inset),
                        (x + w - inset, y + inset),
                        (x + inset, y + h - inset),
                        (x + w - inset, y + h - inset),
                        (x + w / 2.0, y + h / 2.0),
                    ] {
                        assert_eq!(view.cell_at(px, py), cell, "zoom {zoom} origin {origin:?}");
                    }
                    // Just outside the top-left corner is the cell up and to the left.
                    assert_eq!(view.cell_at(x - inset, y - inset), (cell.0 - 1, cell.1 - 1));
                }
            }
        }
    }

    #[test]
    fn the_top_row_is_at_the_top_of_the_screen() {
        let view = EditView::fit(26, 15, [76.0, 40.0, 1204.0, 652.0], 3.0);
        let top = view.cell_rect((0, 0));
        let bottom = view.cell_rect((0, 14));
        assert!(top[1] < bottom[1]);
        assert!(top[1] >= 40.0, "below the HUD bar: {top:?}");
        assert!(top[0] >= 76.0, "right of the palette: {top:?}");
    }

    #[test]
    fn fit_shows_the_whole_map_at_the_largest_step_that_fits() {
        let area = [76.0, 40.0, 1204.0, 652.0];
        let view = EditView::fit(26, 15, area, 3.0);
        // 26 cells at 3x would be 1248 px, wider than the area: 2.5x is 1040 x 600.
        assert_eq!(view.scale(), 2.5);
        let [x0, y0, ..] = view.cell_rect((0, 0));
        let [x1, y1, w, h] = view.cell_rect((25, 14));
        assert!(x0 >= area[0] && y0 >= area[1], "{x0} {y0}");
        assert!(x1 + w <= area[0] + area[2] && y1 + h <= area[1] + area[3]);
        // A huge map gets the smallest step; a tiny one stops at the game's zoom.
        assert_eq!(EditView::fit(1024, 1024, area, 3.0).zoom, 0);
        assert_eq!(EditView::fit(3, 3, area, 3.0).scale(), 3.0);
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor() {
        let mut view = EditView::fit(26, 15, [76.0, 40.0, 1204.0, 652.0], 3.0);
        let (sx, sy) = (500.0, 300.0);
        let before = view.to_world(sx, sy);
        view.zoom_at(2, sx, sy);
        let after = view.to_world(sx, sy);
        // Snapping moves it by less than a screen pixel.
        assert!((before.0 - after.0).abs() * view.scale() < 1.0);
        assert!((before.1 - after.1).abs() * view.scale() < 1.0);
        view.zoom_at(-100, sx, sy);
        assert_eq!(view.zoom, 0);
        view.zoom_at(100, sx, sy);
        assert_eq!(view.zoom, ZOOMS.len() - 1);
    }

    #[test]
    fn panning_moves_the_level_the_other_way() {
        let mut view = EditView {
            origin: (0.0, 0.0),
            zoom: 7,
        };
        let cell = view.cell_at(100.0, 100.0);
        view.pan(48.0, 0.0);
        assert_eq!(view.cell_at(100.0, 100.0), (cell.0 + 1, cell.1));
    }

    #[test]
    fn a_line_of_cells_has_no_gaps() {
        assert_eq!(line_cells((2, 2), (2, 2)), vec![(2, 2)]);
        assert_eq!(
            line_cells((0, 0), (3, 0)),
            vec![(0, 0), (1, 0), (2, 0), (3, 0)]
        );
        let diagonal = line_cells((5, 1), (0, 3));
        assert_eq!(diagonal.first(), Some(&(5, 1)));
        assert_eq!(diagonal.last(), Some(&(0, 3)));
        for pair in diagonal.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(
                (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1,
                "{a:?} {b:?}"
            );
        }
    }
}
