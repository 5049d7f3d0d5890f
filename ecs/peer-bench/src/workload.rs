//! The k-of-N workload every library runs: what is stored, what is written, what is read.

/// Where an entity is; the only component written and watched.
#[derive(
    Clone, Copy, Debug, PartialEq, bevy_ecs::component::Component, flecs_ecs::macros::Component,
)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

/// Stored beside [`Position`] on every entity, as in a game, but never written or read.
#[derive(
    Clone, Copy, Debug, PartialEq, bevy_ecs::component::Component, flecs_ecs::macros::Component,
)]
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

/// The marker of group `G`: with the entities spread over several groups, each group is an
/// archetype of its own (`Position`, `Velocity`, `Group<G>`) in the libraries that store by
/// archetype. Never read.
#[derive(Clone, Copy, Debug, Default, bevy_ecs::component::Component)]
pub struct Group<const G: usize>;

/// The most groups [`spawn_in_group`] knows.
pub const MAX_GROUPS: usize = 100;

/// The group of entity `i` of `n` spread over `groups`: consecutive blocks of about
/// `n / groups` entities, so a spread of k writes touches every group once k reaches `groups`.
pub fn group_of(i: usize, n: usize, groups: usize) -> usize {
    i * groups / n
}

/// A library's spawn of one entity with the marker of a group chosen at run time.
pub trait SpawnInGroup {
    /// Spawn entity `i` with [`Group<G>`] beside its position and velocity.
    fn spawn<const G: usize>(&mut self, i: usize);
}

/// Call `spawner.spawn::<group>(i)`: the one place a group number becomes a type.
///
/// # Panics
/// If `group` is [`MAX_GROUPS`] or more.
pub fn spawn_in_group(spawner: &mut impl SpawnInGroup, i: usize, group: usize) {
    macro_rules! tens {
        ($($t:literal)*) => { $( units!($t; 0 1 2 3 4 5 6 7 8 9); )* };
    }
    macro_rules! units {
        ($t:literal; $($u:literal)*) => {
            $( if group == $t * 10 + $u { return spawner.spawn::<{ $t * 10 + $u }>(i); } )*
        };
    }
    tens!(0 1 2 3 4 5 6 7 8 9);
    panic!("group {group} is not below {MAX_GROUPS}");
}

/// One library running the workload: N entities spawned in index order, a writer that bumps the
/// [`Position`] of a chosen set of them, and a reader that visits the changed ones.
pub trait Peer {
    /// The column heading.
    fn name(&self) -> &'static str;

    /// Choose the entities the writer bumps each frame, as spawn-order indices, in the order
    /// it bumps them.
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

/// The order in which the writer visits its k entities each frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Ascending spawn order: memory order in every library.
    Ascending,
    /// Ascending from the middle of the set, wrapping to its start once: one entry out of
    /// order per frame.
    Wrap,
    /// Descending spawn order.
    Descending,
    /// One seeded random order (the same every frame and for every library).
    Random,
}

impl Order {
    pub const ALL: [Order; 4] = [
        Order::Ascending,
        Order::Wrap,
        Order::Descending,
        Order::Random,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Order::Ascending => "ascending",
            Order::Wrap => "wrap",
            Order::Descending => "descending",
            Order::Random => "random",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.name() == name)
    }

    /// `targets` (ascending, as [`spread`] makes them) put in this order.
    pub fn arrange(self, targets: &mut [usize], seed: u64) {
        match self {
            Order::Ascending => {}
            Order::Wrap => targets.rotate_left(targets.len() / 2),
            Order::Descending => targets.reverse(),
            Order::Random => shuffle(targets, seed),
        }
    }
}

/// Sum of coordinates, so a reader cannot skip reading what it visits.
#[inline]
pub fn weight(p: &Position) -> f32 {
    p.x + p.y
}

/// `indices` in a seeded pseudo-random order (Fisher-Yates driven by SplitMix64), the same
/// for every run and every library.
pub fn shuffle(indices: &mut [usize], seed: u64) {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..indices.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        indices.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_GROUPS, Order, SpawnInGroup, group_of, shuffle, spawn_in_group, spread};

    /// Records the group type each spawn was called with.
    struct Groups(Vec<usize>);

    impl SpawnInGroup for Groups {
        fn spawn<const G: usize>(&mut self, _: usize) {
            self.0.push(G);
        }
    }

    #[test]
    fn every_group_number_becomes_its_own_marker_type() {
        let mut groups = Groups(Vec::new());
        for g in 0..MAX_GROUPS {
            spawn_in_group(&mut groups, 0, g);
        }
        assert_eq!(groups.0, (0..MAX_GROUPS).collect::<Vec<_>>());
    }

    #[test]
    #[should_panic(expected = "group 100 is not below 100")]
    fn a_group_past_the_last_marker_is_refused() {
        spawn_in_group(&mut Groups(Vec::new()), 0, MAX_GROUPS);
    }

    #[test]
    fn groups_are_consecutive_blocks_covering_every_group() {
        let of: Vec<usize> = (0..10).map(|i| group_of(i, 10, 5)).collect();
        assert_eq!(of, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
        assert_eq!(group_of(999_999, 1_000_000, 100), 99);
    }

    #[test]
    fn orders_permute_the_same_entities() {
        let base = spread(1_000, 10);
        let arranged = |o: Order| {
            let mut t = base.clone();
            o.arrange(&mut t, 3);
            t
        };
        assert_eq!(arranged(Order::Ascending), base);
        assert_eq!(
            arranged(Order::Wrap),
            [500, 600, 700, 800, 900, 0, 100, 200, 300, 400]
        );
        assert_eq!(
            arranged(Order::Descending),
            [900, 800, 700, 600, 500, 400, 300, 200, 100, 0]
        );
        let mut random = arranged(Order::Random);
        assert_ne!(random, base);
        random.sort_unstable();
        assert_eq!(random, base);
        for o in Order::ALL {
            assert_eq!(Order::parse(o.name()), Some(o));
        }
    }

    #[test]
    fn shuffle_is_a_fixed_permutation() {
        let mut a = spread(1_000, 100);
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b, "same seed, same order");
        assert_ne!(a, spread(1_000, 100), "the order changed");
        a.sort_unstable();
        assert_eq!(a, spread(1_000, 100), "the same entities");
    }

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
