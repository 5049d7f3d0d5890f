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
    computed: Vec<(Entity, Option<DrawData>)>,
}

/// Dirty entities computed before their results are written.
const CHUNK: usize = 4096;

impl ecs::System for DrawDataSystem {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("draw_data");
        let log = &mut world.resource_mut::<DrawDirtyLog>().0;
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
            let log = &mut world.resource_mut::<DrawDirtyLog>().0;
            log.extend(self.computed.iter().map(|&(e, _)| e));
            let grid = &mut world.resource_mut::<DrawGrid>().0;
            for &(e, data) in &self.computed {
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
            for (e, data) in self.computed.drain(..) {
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
            x: (p.x - w / 2.0).round(),
            y: (p.y - h / 2.0).round(),
            layer: sprite.layer,
            sort_y: p.y,
        }
    })
}

impl DrawDataSystem {
    /// The draw data of each entity of `chunk` that has a position, an animation and a sprite
    /// (`None`: no clip yet), into `computed`.
    fn compute(&mut self, world: &World, chunk: &[Entity]) {
        let clips = world.resource::<Clips>();
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
            self.computed.push((e, data));
        }
    }
}
