//! Flood fill's region: the cells connected to a start cell through its four neighbours that
//! hold the same character.
//!
//! Iterative (an explicit stack of cells and a visited bit per cell), so a region as large as
//! the largest map (4096 x 4096) costs no recursion depth and one pass over it.

use super::map::Grid;

/// Every cell 4-connected to `(x, y)` holding the same character as it, in the order found
/// (`(x, y)` first); empty if `(x, y)` is outside the grid.
pub(crate) fn region(grid: &Grid, x: u32, y: u32) -> Vec<(u32, u32)> {
    let Some(target) = grid.get(x, y) else {
        return Vec::new();
    };
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let mut seen = vec![false; w * h];
    let mut stack = vec![(x, y)];
    seen[y as usize * w + x as usize] = true;
    let mut out = Vec::new();
    while let Some((cx, cy)) = stack.pop() {
        out.push((cx, cy));
        let neighbours = [
            (cx.checked_sub(1), Some(cy)),
            (Some(cx + 1), Some(cy)),
            (Some(cx), cy.checked_sub(1)),
            (Some(cx), Some(cy + 1)),
        ];
        for (nx, ny) in neighbours {
            let (Some(nx), Some(ny)) = (nx, ny) else {
                continue;
            };
            if nx as usize >= w || ny as usize >= h {
                continue;
            }
            let i = ny as usize * w + nx as usize;
            if !seen[i] && grid.get(nx, ny) == Some(target) {
                seen[i] = true;
                stack.push((nx, ny));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let rows: Vec<String> = rows.iter().map(|r| (*r).to_owned()).collect();
        Grid::from_rows(&rows, rows[0].chars().count() as u32)
    }

    #[test]
    fn the_region_follows_four_neighbours_and_stops_at_other_characters() {
        let g = grid(&["..#..", ".##..", "#.#..", "...#."]);
        let mut cells = region(&g, 0, 0);
        cells.sort();
        // (0, 0), (1, 0), (0, 1): the diagonal (1, 2) is not a neighbour of (0, 1).
        assert_eq!(cells, [(0, 0), (0, 1), (1, 0)]);
        let mut right = region(&g, 4, 0);
        right.sort();
        assert_eq!(
            right,
            [(3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (4, 3)]
        );
        assert!(region(&g, 5, 0).is_empty());
    }

    #[test]
    fn a_region_the_size_of_the_largest_map_needs_no_recursion() {
        let row = ".".repeat(1024);
        let rows: Vec<&str> = (0..1024).map(|_| row.as_str()).collect();
        assert_eq!(region(&grid(&rows), 512, 512).len(), 1024 * 1024);
    }
}
