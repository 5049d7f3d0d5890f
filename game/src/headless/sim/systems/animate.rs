//! `animate`: advances the frame of every entity that is animating. Entities showing a
//! single-frame clip or a finished once-clip have no [`Animating`] and cost nothing here.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{Animating, Animation};
use crate::sim::resources::Clips;

/// Scratch buffers kept between runs.
#[derive(Debug, Default)]
pub struct Animate {
    steps: Vec<(Entity, Animating, Animation)>,
}

impl ecs::System for Animate {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("animate");
        self.steps.clear();
        if entities.tracked().is_empty() {
            return;
        }
        let clips = world.resource::<Clips>();
        // Each column looked up by type once per run, not once per entity.
        let (Some(timers), Some(anims)) = (
            world.try_column::<Animating>(),
            world.try_column::<Animation>(),
        ) else {
            return;
        };
        for &e in entities.tracked() {
            let (Some(&timer), Some(&anim)) = (timers.get(e), anims.get(e)) else {
                continue;
            };
            let clip = clips.get(anim.clip);
            let mut next = anim;
            // `ticks` counts the steps the current frame has been on screen, including this one.
            // A clip that started this step has 0 and its first frame shows now, so every frame,
            // the first included, is on screen for `steps_per_frame` steps.
            let timer = if timer.ticks < clip.steps_per_frame {
                Animating {
                    ticks: timer.ticks + 1,
                }
            } else {
                let last = clip.frames.len() as u16 - 1;
                if next.frame < last {
                    next.frame += 1;
                } else if clip.looping {
                    next.frame = 0;
                }
                next.finished = !clip.looping && next.frame == last;
                Animating { ticks: 1 }
            };
            self.steps.push((e, timer, next));
        }
        let (timers, anims) = world.columns_mut::<Animating, Animation>();
        for &(e, timer, next) in &self.steps {
            if let Some(mut t) = timers.get_mut(e) {
                *t = timer;
            }
            if let Some(mut anim) = anims.get_mut(e) {
                anim.set_if_neq(next);
            }
        }
        for &(e, _, next) in &self.steps {
            if next.finished {
                world.remove::<Animating>(e);
            }
        }
    }
}
