//! `animate`: advances the frame of every entity that is animating. Entities showing a
//! single-frame clip or a finished once-clip have no [`FrameTimer`] and cost nothing here.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{ClipFrame, FrameTimer};
use crate::sim::resources::Clips;

/// Scratch buffer kept between runs: the entities whose once-clip finished, whose
/// [`FrameTimer`] goes once the query is done.
#[derive(Debug, Default)]
pub struct Animate {
    finished: Vec<Entity>,
}

impl ecs::System for Animate {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("animate");
        self.finished.clear();
        if entities.tracked().is_empty() {
            return;
        }
        let (mut animating, resources) = entities
            .query::<(&mut FrameTimer, &mut ClipFrame)>(world)
            .with_resources();
        let clips = resources.resource::<Clips>();
        while let Some((e, (mut timer, mut anim))) = animating.next() {
            let clip = clips.get(anim.clip);
            let mut next = *anim;
            // `ticks` counts the steps the current frame has been on screen, including this one.
            // A clip that started this step has 0 and its first frame shows now, so every frame,
            // the first included, is on screen for `steps_per_frame` steps.
            *timer = if timer.ticks < clip.steps_per_frame {
                FrameTimer {
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
                FrameTimer { ticks: 1 }
            };
            anim.set_if_neq(next);
            if next.finished {
                self.finished.push(e);
            }
        }
        for &e in &self.finished {
            world.remove::<FrameTimer>(e);
        }
    }
}
