//! The scatter brush's choice of cells: a cell is painted when a hash of the seed and its
//! position falls under the density, so the same seed over the same cells always paints the
//! same ones (a scatter is reproducible, and its undo step records exactly what it changed).

/// Density steps: tenths, 1 (10 %) to 10 (every cell).
pub const SCATTER_STEPS: std::ops::RangeInclusive<u8> = 1..=10;

/// Whether the scatter with `seed` and density `tenths` / 10 paints cell `(x, y)`.
pub fn scatter_hits(seed: u64, x: u32, y: u32, tenths: u8) -> bool {
    // SplitMix64's finalizer over seed and cell: every output bit depends on every input bit.
    let mut z = seed ^ (u64::from(x) << 32 | u64::from(y)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    // Uniform in 0..10.
    (z % 10) < u64::from(tenths.min(10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_of_cells_painted_is_the_density() {
        for tenths in SCATTER_STEPS {
            let hits = (0..200u32)
                .flat_map(|x| (0..200u32).map(move |y| (x, y)))
                .filter(|&(x, y)| scatter_hits(7, x, y, tenths))
                .count();
            let share = hits as f64 / 40_000.0;
            let want = f64::from(tenths) / 10.0;
            assert!((share - want).abs() < 0.01, "{tenths}: {share}");
        }
    }

    #[test]
    fn another_seed_paints_other_cells() {
        let cells = |seed| {
            (0..64u32)
                .filter(|&x| scatter_hits(seed, x, 3, 5))
                .collect::<Vec<_>>()
        };
        assert_eq!(cells(1), cells(1));
        assert_ne!(cells(1), cells(2));
    }
}
