//! The map being edited: a rectangle of map characters, and where it sits on the map of the file
//! as opened (so rows and columns added or removed at the top and left can be told apart from
//! cells that merely changed).

use crate::level::MAX_SIDE;

use super::{EditError, Side};

/// Character of the cells a resize adds: void, the "nothing here" of the format.
pub const NEW_CELL: char = ' ';

/// A rectangle of map characters, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    width: u32,
    height: u32,
    cells: Vec<char>,
    /// Cell (0, 0) of this grid is cell `origin` of the map as opened: (-2, 0) after two
    /// columns were added on the left.
    origin: (i64, i64),
}

impl Grid {
    /// The rows as given, which must all be `width` characters long (a validated map).
    pub fn from_rows(rows: &[String], width: u32) -> Self {
        let cells: Vec<char> = rows.iter().flat_map(|row| row.chars()).collect();
        Grid {
            width,
            height: rows.len() as u32,
            cells,
            origin: (0, 0),
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn origin(&self) -> (i64, i64) {
        self.origin
    }

    fn index(&self, x: u32, y: u32) -> Option<usize> {
        (x < self.width && y < self.height).then(|| y as usize * self.width as usize + x as usize)
    }

    pub fn get(&self, x: u32, y: u32) -> Option<char> {
        self.index(x, y).map(|i| self.cells[i])
    }

    /// Set a cell; its previous character, or `None` outside the grid.
    pub fn set(&mut self, x: u32, y: u32, c: char) -> Option<char> {
        let i = self.index(x, y)?;
        Some(std::mem::replace(&mut self.cells[i], c))
    }

    /// Row `y` as a string.
    pub fn row(&self, y: u32) -> String {
        let start = y as usize * self.width as usize;
        self.cells[start..start + self.width as usize]
            .iter()
            .collect()
    }

    /// Every cell holding `c`, row-major.
    pub fn find_all(&self, c: char) -> Vec<(u32, u32)> {
        let width = self.width as usize;
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &cell)| cell == c)
            .map(|(i, _)| ((i % width) as u32, (i / width) as u32))
            .collect()
    }

    /// The size a resize by `delta` on `side` gives, if it is within the limits.
    pub fn resized_size(&self, side: Side, delta: i32) -> Result<(u32, u32), EditError> {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        let (w, h) = match side {
            Side::Top | Side::Bottom => (w, h + i64::from(delta)),
            Side::Left | Side::Right => (w + i64::from(delta), h),
        };
        let max = i64::from(MAX_SIDE);
        if !(1..=max).contains(&w) || !(1..=max).contains(&h) {
            return Err(EditError::Size {
                width: w,
                height: h,
            });
        }
        Ok((w as u32, h as u32))
    }

    /// Add (`delta > 0`) or remove (`delta < 0`) rows or columns on `side`.
    ///
    /// The cells added take their characters from `fill` in row-major order (void when it runs
    /// out); the cells removed are returned in row-major order, so resizing back by `-delta`
    /// with them as `fill` restores the grid exactly.
    pub fn resize(
        &mut self,
        side: Side,
        delta: i32,
        fill: &[char],
    ) -> Result<Vec<char>, EditError> {
        let (width, height) = self.resized_size(side, delta)?;
        let delta = i64::from(delta);
        // Old coordinates of new cell (x, y) are (x + dx, y + dy).
        let (dx, dy) = match side {
            Side::Left => (-delta, 0),
            Side::Top => (0, -delta),
            Side::Right | Side::Bottom => (0, 0),
        };
        let (old_w, old_h) = (i64::from(self.width), i64::from(self.height));
        let inside_old = |x: i64, y: i64| (0..old_w).contains(&x) && (0..old_h).contains(&y);
        let mut fill = fill.iter().copied();
        let mut cells = Vec::with_capacity(width as usize * height as usize);
        for y in 0..i64::from(height) {
            for x in 0..i64::from(width) {
                let (ox, oy) = (x + dx, y + dy);
                cells.push(if inside_old(ox, oy) {
                    self.cells[(oy * old_w + ox) as usize]
                } else {
                    fill.next().unwrap_or(NEW_CELL)
                });
            }
        }
        let (new_w, new_h) = (i64::from(width), i64::from(height));
        let inside_new =
            |x: i64, y: i64| (0..new_w).contains(&(x - dx)) && (0..new_h).contains(&(y - dy));
        let mut removed = Vec::new();
        if delta < 0 {
            for y in 0..old_h {
                for x in 0..old_w {
                    if !inside_new(x, y) {
                        removed.push(self.cells[(y * old_w + x) as usize]);
                    }
                }
            }
        }
        self.cells = cells;
        self.width = width;
        self.height = height;
        self.origin = (self.origin.0 + dx, self.origin.1 + dy);
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let rows: Vec<String> = rows.iter().map(|r| (*r).to_owned()).collect();
        Grid::from_rows(&rows, rows[0].chars().count() as u32)
    }

    fn rows(g: &Grid) -> Vec<String> {
        (0..g.height()).map(|y| g.row(y)).collect()
    }

    #[test]
    fn resizing_on_each_side_moves_the_origin_only_for_top_and_left() {
        let mut g = grid(&["ab", "cd"]);
        g.resize(Side::Left, 1, &[]).unwrap();
        assert_eq!(rows(&g), [" ab", " cd"]);
        assert_eq!(g.origin(), (-1, 0));
        g.resize(Side::Top, -1, &[]).unwrap();
        assert_eq!(rows(&g), [" cd"]);
        assert_eq!(g.origin(), (-1, 1));
        g.resize(Side::Right, 2, &['x', 'y']).unwrap();
        assert_eq!(rows(&g), [" cdxy"]);
        g.resize(Side::Bottom, 1, &[]).unwrap();
        assert_eq!(rows(&g), [" cdxy", "     "]);
        assert_eq!(g.origin(), (-1, 1));
    }

    #[test]
    fn a_shrink_undone_with_its_removed_cells_restores_the_grid() {
        for side in [Side::Top, Side::Bottom, Side::Left, Side::Right] {
            let before = grid(&["abc", "def", "ghi"]);
            let mut g = before.clone();
            let removed = g.resize(side, -2, &[]).unwrap();
            assert_eq!(removed.len(), 6, "{side:?}");
            g.resize(side, 2, &removed).unwrap();
            assert_eq!(g, before, "{side:?}");
        }
    }

    #[test]
    fn sizes_outside_one_to_the_limit_are_refused_and_change_nothing() {
        let mut g = grid(&["ab"]);
        assert!(g.resize(Side::Top, -1, &[]).is_err());
        assert!(g.resize(Side::Left, -2, &[]).is_err());
        assert!(g.resize(Side::Right, MAX_SIDE as i32, &[]).is_err());
        assert!(g.resize(Side::Right, i32::MIN, &[]).is_err());
        assert_eq!(rows(&g), ["ab"]);
    }
}
