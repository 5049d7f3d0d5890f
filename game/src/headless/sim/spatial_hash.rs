//! A uniform grid of axis-aligned boxes: the broad phase for collision, attacks and culling.
//!
//! ```text
//!   cell = 32 px        an entry is listed in every cell its box touches;
//!  +----+----+----+     queries visit only the cells the query box touches,
//!  |  a | a  |    |     so cost follows the query's size, not the world's.
//!  +----+----+----+
//!  |    | b  |    |     entries are keyed by entity slot index, so a newer
//!  +----+----+----+     entity in a reused slot replaces the stale one.
//! ```

use std::num::NonZeroU32;

use ecs::Entity;

/// Axis-aligned box in world pixels, min inclusive, max exclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Left edge.
    pub min_x: f32,
    /// Top edge.
    pub min_y: f32,
    /// Right edge.
    pub max_x: f32,
    /// Bottom edge.
    pub max_y: f32,
}

impl Aabb {
    /// Box centred on `(x, y)` with the given half extents.
    pub fn centered(x: f32, y: f32, half_w: f32, half_h: f32) -> Self {
        Self {
            min_x: x - half_w,
            min_y: y - half_h,
            max_x: x + half_w,
            max_y: y + half_h,
        }
    }

    /// Whether the boxes share interior area (touching edges do not overlap).
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min_x < other.max_x
            && other.min_x < self.max_x
            && self.min_y < other.max_y
            && other.min_y < self.max_y
    }

    /// Whether the box shares interior area with the disc of `radius` about `(x, y)` (touching
    /// does not count): the point of the box nearest the centre lies strictly inside the disc.
    ///
    /// ```
    /// use game::sim::Aabb;
    ///
    /// let tile = Aabb::centered(24.0, 8.0, 8.0, 8.0); // x 16..32
    /// assert!(tile.overlaps_disc(9.0, 8.0, 8.0)); // reaches x = 17
    /// assert!(!tile.overlaps_disc(8.0, 8.0, 8.0)); // reaches x = 16: touching
    /// // The box's corner is inside the disc's bounding square but outside the disc.
    /// assert!(!tile.overlaps_disc(10.0, -6.0, 8.0));
    /// ```
    #[inline]
    pub fn overlaps_disc(&self, x: f32, y: f32, radius: f32) -> bool {
        let dx = (self.min_x - x).max(x - self.max_x).max(0.0);
        let dy = (self.min_y - y).max(y - self.max_y).max(0.0);
        dx * dx + dy * dy < radius * radius
    }
}

/// What the grid keeps per entity slot: 24 bytes, and `Option<Entry>` no more (the
/// generation is never zero). The cells it is listed in are not kept: they follow from `aabb`
/// ([`SpatialHash::range`]), the same on removal as on insertion.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The entity's generation; its index is the slot's.
    generation: NonZeroU32,
    /// The next link of the list of the entry's first cell (see [`SpatialHash`]), with
    /// [`SOLID`] set if the entry blocks movement (a link never has that bit).
    next_solid: u32,
    aabb: Aabb,
}

/// Set in [`Entry::next_solid`] for a solid entry.
const SOLID: u32 = 1 << 31;

impl Entry {
    fn next(&self) -> u32 {
        self.next_solid & !SOLID
    }

    fn solid(&self) -> bool {
        self.next_solid & SOLID != 0
    }

    fn entity(&self, slot: u32) -> Entity {
        Entity::from_bits(u64::from(self.generation.get()) << 32 | u64::from(slot))
            .expect("the generation half is not zero")
    }

    fn hit(&self, slot: u32) -> Hit {
        Hit {
            entity: self.entity(slot),
            aabb: self.aabb,
            solid: self.solid(),
        }
    }
}

/// A listing of an entry in a cell other than its first: the entry's slot and the next link.
#[derive(Clone, Copy, Debug)]
struct Node {
    slot: u32,
    next: u32,
}

/// The end of a cell's list: a value no link takes (slots and node indices stay below
/// `NODE - 1`), without the [`SOLID`] bit.
const NIL: u32 = SOLID - 1;
/// Set on a link that names a [`Node`] (the bits below are its index); a link without it
/// names an entry's slot, listed in that entry's first cell. Slots and nodes are below it.
const NODE: u32 = 1 << 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CellRange {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

/// The cell a coordinate in cells falls in, of `count` in a row: `v.floor()` clamped to `0 ..
/// count`, without the call into `libm` that `floor` costs on the baseline x86-64 target (no
/// SSE4.1). Below 0 every value clamps to 0 (NaN too), and for the others the truncating cast
/// is the floor. The same for every `f32`.
#[inline]
fn clamped_cell(v: f32, count: i32) -> i32 {
    (v.max(0.0) as i32).min(count - 1)
}

/// One entry as seen by a query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// The entity.
    pub entity: Entity,
    /// Its box.
    pub aabb: Aabb,
    /// Whether it blocks movement.
    pub solid: bool,
}

/// Uniform grid over a bounded area; boxes outside the area are clamped into its edge cells.
///
/// Each cell's entries are a singly linked list threaded through the entries themselves, so
/// the grid makes no allocation per cell and an entry in one cell (a crate in its tile) costs
/// its slot's 24 bytes and nothing more:
///
/// ```text
///  heads[cell] --> slot 7 --(entries[7] next)--> slot 3 --> NODE|0 --(nodes[0].next)--> NIL
///                                                           nodes[0] = { slot 9, .. }
/// ```
///
/// A link without the [`NODE`] bit names a slot listed in its first cell (the top-left one
/// its box touches); an entry whose box spans more cells is listed in each of the others
/// through a [`Node`], whose storage is reused after removal.
#[derive(Clone, Debug)]
pub struct SpatialHash {
    cell: f32,
    cols: i32,
    rows: i32,
    /// Per cell, the first link of its list (or [`NIL`]).
    heads: Vec<u32>,
    entries: Vec<Option<Entry>>,
    nodes: Vec<Node>,
    /// The first free node (or [`NIL`]), the free ones chained through `next`.
    free: u32,
    len: usize,
}

impl SpatialHash {
    /// Grid of `cell`-pixel cells covering `width` x `height` pixels.
    pub fn new(width: f32, height: f32, cell: f32) -> Self {
        let cols = ((width / cell).ceil() as i32).max(1);
        let rows = ((height / cell).ceil() as i32).max(1);
        Self {
            cell,
            cols,
            rows,
            heads: vec![NIL; (cols * rows) as usize],
            entries: Vec::new(),
            nodes: Vec::new(),
            free: NIL,
            len: 0,
        }
    }

    /// Bytes allocated on the heap (by capacity): the cells' list heads, the entries, the
    /// nodes of entries listed in more than one cell.
    pub fn heap_bytes(&self) -> usize {
        self.heads.capacity() * size_of::<u32>()
            + self.entries.capacity() * size_of::<Option<Entry>>()
            + self.nodes.capacity() * size_of::<Node>()
    }

    /// Cell size in pixels.
    pub fn cell_size(&self) -> f32 {
        self.cell
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the grid is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn range(&self, aabb: &Aabb) -> CellRange {
        let cx = |v: f32| clamped_cell(v / self.cell, self.cols);
        let cy = |v: f32| clamped_cell(v / self.cell, self.rows);
        // max is exclusive: a box ending exactly on a cell edge does not enter the next cell.
        CellRange {
            x0: cx(aabb.min_x),
            y0: cy(aabb.min_y),
            x1: cx(aabb.max_x - f32::EPSILON * aabb.max_x.abs().max(1.0)).max(cx(aabb.min_x)),
            y1: cy(aabb.max_y - f32::EPSILON * aabb.max_y.abs().max(1.0)).max(cy(aabb.min_y)),
        }
    }

    fn cell_index(&self, x: i32, y: i32) -> usize {
        (y * self.cols + x) as usize
    }

    /// The slot a link names and the link after it.
    #[inline]
    fn follow(&self, link: u32) -> (u32, u32) {
        if link & NODE != 0 {
            let node = self.nodes[(link & !NODE) as usize];
            (node.slot, node.next)
        } else {
            let entry = self.entries[link as usize].expect("cells list only live slots");
            (link, entry.next())
        }
    }

    /// Point `link`'s successor at `next`.
    fn set_next(&mut self, link: u32, next: u32) {
        if link & NODE != 0 {
            self.nodes[(link & !NODE) as usize].next = next;
        } else if let Some(entry) = &mut self.entries[link as usize] {
            entry.next_solid = next | (entry.next_solid & SOLID);
        }
    }

    /// The slots listed in cell `(x, y)`.
    fn cell_slots(&self, x: i32, y: i32) -> impl Iterator<Item = u32> + '_ {
        let mut link = self.heads[self.cell_index(x, y)];
        std::iter::from_fn(move || {
            (link != NIL).then(|| {
                let (slot, next) = self.follow(link);
                link = next;
                slot
            })
        })
    }

    /// Make room for entries of every slot below `slots` in one allocation of exactly that
    /// size: a burst that inserts every entity of a large world (its first step) then costs
    /// 24 bytes per slot, not the up to twice that of growing by doubling.
    pub fn reserve_slots(&mut self, slots: usize) {
        if slots > self.entries.capacity() {
            self.entries.reserve_exact(slots - self.entries.len());
        }
    }

    /// Insert `entity` with box `aabb`, replacing whatever its slot held.
    ///
    /// # Panics
    /// If the entity's index is 2^30 or more (a world of that many slots would need 24 GiB
    /// for this grid alone).
    pub fn insert(&mut self, entity: Entity, aabb: Aabb, solid: bool) {
        assert!(
            entity.index() < NODE,
            "entity slot {} out of range",
            entity.index()
        );
        let slot = entity.index() as usize;
        let cells = self.range(&aabb);
        let generation = NonZeroU32::new(entity.generation()).expect("generations start at 1");
        if let Some(old) = self.entries.get(slot).copied().flatten() {
            if self.range(&old.aabb) == cells {
                self.entries[slot] = Some(Entry {
                    generation,
                    next_solid: old.next() | if solid { SOLID } else { 0 },
                    aabb,
                });
                return;
            }
            self.remove_slot(entity.index());
        }
        if slot >= self.entries.len() {
            if slot >= self.entries.capacity() {
                // Grow by an eighth: still amortised O(1) per slot, and a world of millions
                // that spawns a few more entities does not double the table.
                let more = (slot + 1 - self.entries.len()).max(self.entries.capacity() / 8);
                self.entries.reserve_exact(more);
            }
            self.entries.resize(slot + 1, None);
        }
        let first = self.cell_index(cells.x0, cells.y0);
        self.entries[slot] = Some(Entry {
            generation,
            next_solid: self.heads[first] | if solid { SOLID } else { 0 },
            aabb,
        });
        self.heads[first] = slot as u32;
        self.len += 1;
        for y in cells.y0..=cells.y1 {
            for x in cells.x0..=cells.x1 {
                if (x, y) != (cells.x0, cells.y0) {
                    let c = self.cell_index(x, y);
                    let node = Node {
                        slot: slot as u32,
                        next: self.heads[c],
                    };
                    self.heads[c] = self.alloc_node(node);
                }
            }
        }
    }

    /// Store `node`, reusing a free one; returns its link.
    fn alloc_node(&mut self, node: Node) -> u32 {
        if self.free != NIL {
            let i = self.free;
            self.free = self.nodes[i as usize].next;
            self.nodes[i as usize] = node;
            i | NODE
        } else {
            assert!(
                self.nodes.len() < (NODE - 1) as usize,
                "too many grid nodes"
            );
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32 | NODE
        }
    }

    /// Take `slot`'s link out of cell `(x, y)`'s list (freeing it if it is a node).
    fn unlink(&mut self, x: i32, y: i32, slot: u32) {
        let c = self.cell_index(x, y);
        let mut prev = NIL;
        let mut link = self.heads[c];
        while link != NIL {
            let (at, next) = self.follow(link);
            if at == slot {
                if prev == NIL {
                    self.heads[c] = next;
                } else {
                    self.set_next(prev, next);
                }
                if link & NODE != 0 {
                    self.nodes[(link & !NODE) as usize].next = self.free;
                    self.free = link & !NODE;
                }
                return;
            }
            prev = link;
            link = next;
        }
    }

    /// Remove whatever entity occupies slot `index`; returns whether there was one.
    pub fn remove_slot(&mut self, index: u32) -> bool {
        let Some(entry) = self.entries.get(index as usize).copied().flatten() else {
            return false;
        };
        let c = self.range(&entry.aabb);
        // The entry's own link is unlinked while the entry is still there to be followed.
        for y in c.y0..=c.y1 {
            for x in c.x0..=c.x1 {
                self.unlink(x, y, index);
            }
        }
        self.entries[index as usize] = None;
        self.len -= 1;
        true
    }

    /// Every entry, in entity-index order (deterministic whatever the insertion history).
    pub fn entries(&self) -> impl Iterator<Item = Hit> + '_ {
        (0..)
            .zip(&self.entries)
            .filter_map(|(slot, e)| e.map(|e| e.hit(slot)))
    }

    /// Columns and rows of cells.
    pub fn dimensions(&self) -> (i32, i32) {
        (self.cols, self.rows)
    }

    /// Whether `entity` (this generation) is in the grid.
    pub fn contains(&self, entity: Entity) -> bool {
        self.entries
            .get(entity.index() as usize)
            .copied()
            .flatten()
            .is_some_and(|e| e.entity(entity.index()) == entity)
    }

    /// Every entry overlapping `aabb`, each once, in entity-index order (deterministic whatever
    /// the insertion history).
    pub fn query(&self, aabb: &Aabb, out: &mut Vec<Hit>) {
        out.clear();
        let c = self.range(aabb);
        for y in c.y0..=c.y1 {
            for x in c.x0..=c.x1 {
                for slot in self.cell_slots(x, y) {
                    let e = self.entries[slot as usize].expect("cells list only live slots");
                    if e.aabb.overlaps(aabb) {
                        out.push(e.hit(slot));
                    }
                }
            }
        }
        out.sort_unstable_by_key(|h| h.entity.index());
        out.dedup_by_key(|h| h.entity.index());
    }

    /// Occupied cells overlapping `aabb`: `(cell box, number of entries)`, for the debug view.
    pub fn occupied_cells(&self, aabb: &Aabb) -> impl Iterator<Item = (Aabb, usize)> + '_ {
        let c = self.range(aabb);
        (c.y0..=c.y1).flat_map(move |y| {
            (c.x0..=c.x1).filter_map(move |x| {
                let n = self.cell_slots(x, y).count();
                (n > 0).then(|| {
                    let (px, py) = (x as f32 * self.cell, y as f32 * self.cell);
                    (
                        Aabb {
                            min_x: px,
                            min_y: py,
                            max_x: px + self.cell,
                            max_y: py + self.cell,
                        },
                        n,
                    )
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ecs::World;

    #[test]
    fn an_entry_slot_costs_24_bytes() {
        assert_eq!(size_of::<Option<Entry>>(), 24);
    }

    fn entities(n: usize) -> Vec<Entity> {
        let mut world = World::new();
        (0..n).map(|_| world.spawn(())).collect()
    }

    fn found(grid: &SpatialHash, aabb: Aabb) -> Vec<Entity> {
        let mut out = Vec::new();
        grid.query(&aabb, &mut out);
        out.into_iter().map(|h| h.entity).collect()
    }

    #[test]
    fn shape_spanning_several_cells_is_found_once_from_each_cell() {
        let e = entities(1);
        let mut grid = SpatialHash::new(128.0, 128.0, 32.0);
        grid.insert(e[0], Aabb::centered(64.0, 64.0, 40.0, 40.0), true);
        assert_eq!(
            grid.occupied_cells(&Aabb::centered(64.0, 64.0, 64.0, 64.0))
                .count(),
            16
        );
        assert_eq!(found(&grid, Aabb::centered(64.0, 64.0, 64.0, 64.0)), [e[0]]);
        assert_eq!(found(&grid, Aabb::centered(30.0, 30.0, 2.0, 2.0)), [e[0]]);
        assert_eq!(found(&grid, Aabb::centered(2.0, 2.0, 1.0, 1.0)), []);
    }

    #[test]
    fn removed_shape_leaves_every_cell() {
        let e = entities(2);
        let mut grid = SpatialHash::new(128.0, 128.0, 32.0);
        grid.insert(e[0], Aabb::centered(32.0, 32.0, 20.0, 20.0), true);
        grid.insert(e[1], Aabb::centered(40.0, 40.0, 4.0, 4.0), false);
        assert!(grid.remove_slot(e[0].index()));
        assert!(!grid.remove_slot(e[0].index()));
        assert_eq!(grid.len(), 1);
        assert_eq!(found(&grid, Aabb::centered(32.0, 32.0, 64.0, 64.0)), [e[1]]);
        let counts: usize = grid
            .occupied_cells(&Aabb::centered(64.0, 64.0, 64.0, 64.0))
            .map(|(_, n)| n)
            .sum();
        assert_eq!(counts, 1);
    }

    #[test]
    fn moving_shape_is_rehashed() {
        let e = entities(1);
        let mut grid = SpatialHash::new(256.0, 256.0, 32.0);
        grid.insert(e[0], Aabb::centered(16.0, 16.0, 4.0, 4.0), true);
        grid.insert(e[0], Aabb::centered(200.0, 200.0, 4.0, 4.0), true);
        assert_eq!(grid.len(), 1);
        assert_eq!(found(&grid, Aabb::centered(16.0, 16.0, 8.0, 8.0)), []);
        assert_eq!(found(&grid, Aabb::centered(200.0, 200.0, 8.0, 8.0)), [e[0]]);
    }

    #[test]
    fn touching_edges_do_not_overlap_and_box_on_cell_edge_stays_in_its_cell() {
        let e = entities(2);
        let mut grid = SpatialHash::new(128.0, 128.0, 16.0);
        grid.insert(e[0], Aabb::centered(8.0, 8.0, 8.0, 8.0), true);
        assert_eq!(
            grid.occupied_cells(&Aabb::centered(64.0, 64.0, 64.0, 64.0))
                .count(),
            1
        );
        assert_eq!(found(&grid, Aabb::centered(24.0, 8.0, 8.0, 8.0)), []);
    }

    #[test]
    fn shapes_outside_the_bounds_clamp_to_edge_cells() {
        let e = entities(1);
        let mut grid = SpatialHash::new(64.0, 64.0, 32.0);
        grid.insert(e[0], Aabb::centered(-50.0, 500.0, 4.0, 4.0), true);
        assert_eq!(found(&grid, Aabb::centered(-50.0, 500.0, 8.0, 8.0)), [e[0]]);
    }

    #[test]
    fn queries_match_a_brute_force_scan_through_moves_and_removals() {
        // Boxes of up to three cells a side, solid or not, moving, resizing and leaving at
        // random: every query finds exactly the live boxes that overlap it, as they were last
        // inserted, and the grid's count stays right.
        let e = entities(40);
        let mut grid = SpatialHash::new(256.0, 256.0, 16.0);
        let mut live: Vec<Option<Hit>> = vec![None; e.len()];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as f32
        };
        for round in 0..2000 {
            let i = next(e.len() as u32) as usize;
            if next(4) == 0.0 {
                assert_eq!(grid.remove_slot(e[i].index()), live[i].is_some());
                live[i] = None;
            } else {
                let (x, y) = (next(300) - 20.0, next(300) - 20.0);
                let aabb = Aabb::centered(x, y, next(24) + 1.0, next(24) + 1.0);
                let solid = next(2) == 0.0;
                grid.insert(e[i], aabb, solid);
                live[i] = Some(Hit {
                    entity: e[i],
                    aabb,
                    solid,
                });
            }
            assert_eq!(grid.len(), live.iter().flatten().count(), "round {round}");
            let view = Aabb::centered(next(256), next(256), next(64) + 1.0, next(64) + 1.0);
            let expected: Vec<Hit> = live
                .iter()
                .flatten()
                .filter(|h| h.aabb.overlaps(&view))
                .copied()
                .collect();
            let mut hits = Vec::new();
            grid.query(&view, &mut hits);
            assert_eq!(hits, expected, "round {round}");
        }
        for (k, hit) in live.iter().enumerate() {
            assert_eq!(grid.contains(e[k]), hit.is_some());
        }
        let all: Vec<Hit> = live.iter().flatten().copied().collect();
        assert_eq!(grid.entries().collect::<Vec<_>>(), all);
    }

    #[test]
    fn clamped_cell_is_floor_then_the_clamp() {
        let cases = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            31.999,
            -31.999,
            1e9,
            -1e9,
            3e9,
            -3e9,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::EPSILON,
            -f32::EPSILON,
            2_147_483_520.0,
            -2_147_483_648.0,
            -2_147_483_904.0,
        ];
        let check = |v: f32| {
            for count in [1, 2, 3, 1608, i32::MAX] {
                let want = (v.floor() as i32).clamp(0, count - 1);
                assert_eq!(clamped_cell(v, count), want, "{v} of {count}");
            }
        };
        cases.into_iter().for_each(check);
        for k in -100_000..100_000 {
            check(k as f32 * 0.37);
        }
        // Every f32, both signs, a stride apart.
        (0..u32::MAX)
            .step_by(997)
            .for_each(|bits| check(f32::from_bits(bits)));
    }
}
