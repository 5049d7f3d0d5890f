//! Where edits apply: a [`Side`] of the map and a [`CellRect`] of its cells.

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
