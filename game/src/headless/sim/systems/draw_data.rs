//! `draw_data`: recomputes the [`DrawData`] of entities whose position or animation frame
//! changed, and keeps the [`DrawGrid`] (the renderer's culling index) in step. An idle
//! crate is never visited.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{ClipFrame, ClipId, DrawData, Position, Sprite};
use crate::sim::resources::{Clips, DrawDirtyLog, DrawGrid};
use crate::sim::spatial_hash::Aabb;

/// Scratch buffers kept between runs: the draw data to add and to remove once the query is
/// done (adding or removing a component needs the whole world).
#[derive(Debug, Default)]
pub struct DrawDataSystem {
    added: Vec<(Entity, DrawData)>,
    removed: Vec<Entity>,
}

/// Changed entities above which the log's capacity is given back after a burst.
const CHUNK: usize = 4096;

impl ecs::System for DrawDataSystem {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("draw_data");
        let changed = entities.dirty().len();
        let all = changed != 0 && changed == entities.tracked().len();
        let log = world.resource_mut::<DrawDirtyLog>();
        log.all = all;
        // Taken out while the query holds the world.
        let mut log = std::mem::take(&mut log.entities);
        log.clear();
        // A burst's worth of capacity is given back once the burst is over.
        if log.capacity() > 4 * changed.max(CHUNK) {
            log.shrink_to(changed);
        }
        let (mut sprites, resources) = entities
            .changed::<(&Position, &ClipFrame, &Sprite, Option<&mut DrawData>)>(world)
            .with_resources();
        let (grid, clips) = resources.pair_mut::<DrawGrid, Clips>();
        let grid = &mut grid.0;
        for &e in entities.removed() {
            grid.remove_slot(e.index());
        }
        grid.reserve_slots(super::collision_grid::slots_below(entities.dirty()));
        while let Some((e, (p, anim, sprite, stored))) = sprites.next() {
            let data = draw_data(p, anim, sprite, clips);
            if !all {
                log.push(e);
            }
            match (data, stored) {
                (Some(d), stored) => {
                    let aabb = Aabb {
                        min_x: d.x,
                        min_y: d.y,
                        max_x: d.x + f32::from(d.src.w),
                        max_y: d.y + f32::from(d.src.h),
                    };
                    grid.insert(e, aabb, false);
                    // Written only where it differs (`set_if_neq`): every entity of a level's
                    // first step spawned with its draw data.
                    match stored {
                        Some(mut old) => {
                            old.set_if_neq(d);
                        }
                        None => self.added.push((e, d)),
                    }
                }
                (None, stored) => {
                    grid.remove_slot(e.index());
                    if stored.is_some() {
                        self.removed.push(e);
                    }
                }
            }
        }
        world.resource_mut::<DrawDirtyLog>().entities = log;
        for (e, d) in self.added.drain(..) {
            let _ = world.insert(e, d);
        }
        for e in self.removed.drain(..) {
            world.remove::<DrawData>(e);
        }
    }
}

/// The draw data of an entity at `p` showing `anim` with `sprite` (`None`: no clip yet): what
/// this system keeps, and what level setup gives an entity it spawns with its clip chosen.
pub(crate) fn draw_data(
    p: &Position,
    anim: &ClipFrame,
    sprite: &Sprite,
    clips: &Clips,
) -> Option<DrawData> {
    (anim.clip != ClipId::NONE).then(|| {
        let clip = clips.get(anim.clip);
        let src = clip.frames[(anim.frame as usize).min(clip.frames.len() - 1)];
        let (w, h) = (f32::from(src.w), f32::from(src.h));
        DrawData {
            src,
            x: round(p.x - w / 2.0),
            y: round(p.y - h / 2.0),
            layer: sprite.layer,
            sort_y: p.y,
        }
    })
}

/// `v.round()` (halves away from zero, the sign kept: -0.3 gives -0.0), without the call into
/// `libm` that `round` costs on the baseline x86-64 target (no SSE4.1). An `f32` of magnitude
/// 2^23 or more (or NaN, or infinite) is already whole; below that the truncating cast is
/// exact and so is the fraction `v - t`.
#[inline]
fn round(v: f32) -> f32 {
    const WHOLE: f32 = 8_388_608.0; // 2^23: from here on every f32 is an integer
    if v.is_nan() || v.abs() >= WHOLE {
        return v;
    }
    let t = v as i32 as f32;
    let fraction = v - t;
    let r = if fraction >= 0.5 {
        t + 1.0
    } else if fraction <= -0.5 {
        t - 1.0
    } else {
        t
    };
    r.copysign(v)
}

#[cfg(test)]
mod tests {
    use super::round;

    #[test]
    fn round_is_std_round_bit_for_bit() {
        let specials = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.499_999_97,
            -0.499_999_97,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            16_777_215.0,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
        ];
        for v in specials {
            assert_eq!(round(v).to_bits(), v.round().to_bits(), "{v}");
        }
        assert!(round(f32::NAN).is_nan());
        // Every f32 with a fractional part from 2^-3 to 2^23, both signs, a stride apart.
        let mut bits = 0x3e00_0000_u32;
        while bits < 0x4b00_0000 {
            for v in [f32::from_bits(bits), -f32::from_bits(bits)] {
                assert_eq!(round(v).to_bits(), v.round().to_bits(), "{v}");
            }
            bits += 97;
        }
    }
}
