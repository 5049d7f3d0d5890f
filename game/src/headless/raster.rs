//! Integer raster geometry shared by the art generator (lines drawn into sprites) and the level
//! editor (a fast mouse drag paints every cell between two samples).

/// The points of the straight line from `a` to `b`, both included, in order from `a`: each a
/// step from the one before (horizontal, vertical or diagonal). Bresenham's algorithm, so the
/// same two ends always give the same points.
pub fn line(a: (i64, i64), b: (i64, i64)) -> impl Iterator<Item = (i64, i64)> {
    let (dx, dy) = ((b.0 - a.0).abs(), -(b.1 - a.1).abs());
    let (sx, sy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
    let mut err = dx + dy;
    let mut next = Some(a);
    std::iter::from_fn(move || {
        let (x, y) = next?;
        next = ((x, y) != b).then(|| {
            let (mut x, mut y) = (x, y);
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
            (x, y)
        });
        Some((x, y))
    })
}

#[cfg(test)]
mod tests {
    use super::line;

    #[test]
    fn a_line_runs_from_end_to_end_in_single_steps() {
        assert_eq!(line((2, 2), (2, 2)).collect::<Vec<_>>(), [(2, 2)]);
        assert_eq!(
            line((0, 0), (3, 0)).collect::<Vec<_>>(),
            [(0, 0), (1, 0), (2, 0), (3, 0)]
        );
        let steep: Vec<_> = line((5, 1), (0, 3)).collect();
        assert_eq!((steep[0], *steep.last().unwrap()), ((5, 1), (0, 3)));
        for w in steep.windows(2) {
            assert!((w[1].0 - w[0].0).abs() <= 1 && (w[1].1 - w[0].1).abs() <= 1);
        }
    }
}
