//! The k-of-N workload every library runs: what is stored, what is written, what is read.

/// Where an entity is; the only component written and watched.
#[derive(Clone, Copy, Debug, PartialEq, bevy_ecs::component::Component)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

/// Stored beside [`Position`] on every entity, as in a game, but never written or read.
#[derive(Clone, Copy, Debug, PartialEq, bevy_ecs::component::Component)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

impl Position {
    /// The position entity `i` spawns with. `x` stays below 1,024 so that the `+ 1.0` of every
    /// frame keeps changing it (an `f32` counts exactly up to 2^24) over any run of the bench.
    pub fn initial(i: usize) -> Self {
        Self {
            x: (i % 1024) as f32,
            y: (i / 1024) as f32,
        }
    }

    /// The writer's change: the same for every library.
    #[inline]
    pub fn bump(&mut self) {
        self.x += 1.0;
    }
}

impl Velocity {
    /// The velocity entity `i` spawns with.
    pub fn initial(i: usize) -> Self {
        Self {
            x: (i % 7) as f32 * 0.5,
            y: (i % 3) as f32 * -0.25,
        }
    }
}

/// One library running the workload: N entities spawned in index order, a writer that bumps the
/// [`Position`] of a chosen set of them, and a reader that visits the changed ones.
pub trait Peer {
    /// The column heading.
    fn name(&self) -> &'static str;

    /// Choose the entities the writer bumps each frame, as spawn-order indices (ascending).
    fn select(&mut self, targets: &[usize]);

    /// Bump the [`Position`] of every selected entity once.
    fn write(&mut self);

    /// Visit every entity whose [`Position`] changed since the last read, reading its position.
    /// Returns how many it visited.
    fn read(&mut self) -> usize;
}

/// `k` of the indices `0..n`, spread evenly and ascending (a stride of `n / k` on this grid).
pub fn spread(n: usize, k: usize) -> Vec<usize> {
    (0..k).map(|i| i * n / k).collect()
}

/// Sum of coordinates, so a reader cannot skip reading what it visits.
#[inline]
pub fn weight(p: &Position) -> f32 {
    p.x + p.y
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn spread_is_k_distinct_ascending_indices_below_n() {
        for (n, k) in [
            (1_000, 0),
            (1_000, 1),
            (1_000, 10),
            (1_000, 1_000),
            (100_000, 1_000),
        ] {
            let s = spread(n, k);
            assert_eq!(s.len(), k);
            assert!(s.windows(2).all(|w| w[0] < w[1]));
            assert!(s.iter().all(|&i| i < n));
        }
        assert_eq!(spread(1_000, 1_000), (0..1_000).collect::<Vec<_>>());
        assert_eq!(spread(1_000, 10)[..3], [0, 100, 200]);
    }
}
