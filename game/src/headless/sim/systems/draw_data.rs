//! `draw_data`: recomputes the [`DrawData`] of entities whose position or animation frame
//! changed, and keeps the [`DrawGrid`] (the renderer's culling index) in step. An idle
//! crate is never visited.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{Animation, ClipId, DrawData, Position, Sprite};
use crate::sim::grid::Aabb;
use crate::sim::resources::{Clips, DrawDirtyLog, DrawGrid};

/// Scratch buffer kept between runs: at most [`CHUNK`] entries, so a run that recomputes every
/// sprite (the first, or tracking off) costs no memory per entity.
#[derive(Debug, Default)]
pub struct DrawDataSystem {
    /// Each entity's draw data (`None`: no clip yet) and whether it differs from the stored
    /// one (by `PartialEq`, as `Mut::set_if_neq` compares).
    computed: Vec<(Entity, Option<DrawData>, bool)>,
}

/// Dirty entities computed before their results are written.
const CHUNK: usize = 4096;

impl ecs::System for DrawDataSystem {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("draw_data");
        let all =
            !entities.dirty().is_empty() && entities.dirty().len() == entities.tracked().len();
        let log = world.resource_mut::<DrawDirtyLog>();
        log.all = all;
        let log = &mut log.entities;
        log.clear();
        // A burst's worth of capacity is given back once the burst is over.
        if log.capacity() > 4 * entities.dirty().len().max(CHUNK) {
            log.shrink_to(entities.dirty().len());
        }
        let grid = &mut world.resource_mut::<DrawGrid>().0;
        for &e in entities.removed() {
            grid.remove_slot(e.index());
        }
        grid.reserve_slots(super::spatial_hash::slots_below(entities.dirty()));
        for chunk in entities.dirty().chunks(CHUNK) {
            self.compute(world, chunk);
            if !all {
                let log = &mut world.resource_mut::<DrawDirtyLog>().entities;
                log.extend(self.computed.iter().map(|&(e, _, _)| e));
            }
            let grid = &mut world.resource_mut::<DrawGrid>().0;
            for &(e, data, _) in &self.computed {
                match data {
                    Some(d) => grid.insert(
                        e,
                        Aabb {
                            min_x: d.x,
                            min_y: d.y,
                            max_x: d.x + f32::from(d.src.w),
                            max_y: d.y + f32::from(d.src.h),
                        },
                        false,
                    ),
                    None => {
                        grid.remove_slot(e.index());
                    }
                }
            }
            // Only entities whose stored draw data differs are written: the others (every
            // entity of a level's first step, which spawned with its draw data) would be
            // compared again and left as they are.
            for (e, data, _) in self.computed.drain(..).filter(|&(_, _, differs)| differs) {
                match data {
                    Some(d) => match world.get_mut::<DrawData>(e) {
                        Some(mut old) => {
                            old.set_if_neq(d);
                        }
                        None => {
                            let _ = world.insert(e, d);
                        }
                    },
                    None => {
                        world.remove::<DrawData>(e);
                    }
                }
            }
        }
    }
}

/// The draw data of an entity at `p` showing `anim` with `sprite` (`None`: no clip yet): what
/// this system keeps, and what level setup gives an entity it spawns with its clip chosen.
pub(crate) fn draw_data(
    p: &Position,
    anim: &Animation,
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

impl DrawDataSystem {
    /// The draw data of each entity of `chunk` that has a position, an animation and a sprite
    /// (`None`: no clip yet), and whether it differs from the stored one, into `computed`.
    fn compute(&mut self, world: &World, chunk: &[Entity]) {
        let clips = world.resource::<Clips>();
        let stored = world.try_column::<DrawData>();
        // Each column looked up by type once per chunk, not once per entity.
        let (Some(positions), Some(animations), Some(sprites)) = (
            world.try_column::<Position>(),
            world.try_column::<Animation>(),
            world.try_column::<Sprite>(),
        ) else {
            return;
        };
        for &e in chunk {
            let (Some(p), Some(anim), Some(sprite)) =
                (positions.get(e), animations.get(e), sprites.get(e))
            else {
                continue;
            };
            let data = draw_data(p, anim, sprite, clips);
            let differs = data.as_ref() != stored.and_then(|c| c.get(e));
            self.computed.push((e, data, differs));
        }
    }
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
