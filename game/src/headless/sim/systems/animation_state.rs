//! `animation_state`: picks each entity's clip from its state (facing, walking, swinging, stunned, hit,
//! a keg's burning fuse, exploding, and a crate's crack stage from its health). Runs only for entities whose state
//! changed (the schedule has it watch every component read here, [`Crate`] included, so a hit
//! that only lowers health still reaches it); the choice is a pure function of the state, so
//! running it for unchanged entities changes nothing.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{
    Animating, Animation, ClipId, Crate, Exploding, Fuse, HitFlash, Looks, Player, Sprite, Stunned,
};
use crate::sim::resources::{Clips, RoleClips};

/// Scratch buffer kept between runs: at most [`CHUNK`] entries, so a run that picks every
/// entity's clip (the first) costs no memory per entity.
#[derive(Debug, Default)]
pub struct AnimationState {
    changes: Vec<(Entity, ClipId, bool)>,
}

/// Dirty entities looked at before their clip changes are written.
const CHUNK: usize = 4096;

impl ecs::System for AnimationState {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("animation_state");
        for chunk in entities.dirty().chunks(CHUNK) {
            self.changes.clear();
            self.pick(world, chunk);
            self.apply(world);
        }
    }
}

/// What an entity's clip follows from besides its [`Sprite`]: the components it has.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClipState<'a> {
    /// Its player state, if it is the player.
    pub(crate) player: Option<&'a Player>,
    /// Its crate state, if it is a crate.
    pub(crate) crate_: Option<&'a Crate>,
    /// Whether it is [`Stunned`].
    pub(crate) stunned: bool,
    /// Whether it is [`Exploding`].
    pub(crate) exploding: bool,
    /// Whether it has a lit [`Fuse`].
    pub(crate) fuse: bool,
    /// Whether it has a [`HitFlash`].
    pub(crate) flash: bool,
}

/// The clip an entity with `sprite` and `state` plays: the rule this system applies, which
/// level setup applies too when it spawns an entity with its clip already chosen.
pub(crate) fn pick_clip(sprite: &Sprite, state: &ClipState<'_>, role: &RoleClips) -> ClipId {
    match sprite.looks {
        Looks::Player => match state.player {
            Some(p) => {
                let f = p.facing as usize;
                if state.stunned {
                    role.player_stunned[f]
                } else if p.swing > 0 {
                    role.player_attack[f]
                } else if p.walking {
                    role.player_walk[f]
                } else {
                    role.player_idle[f]
                }
            }
            None => role.player_idle[0],
        },
        Looks::Crate { idle, hit, explode } => {
            let stage = state.crate_.map_or(0, Crate::crack_stage);
            if state.exploding {
                explode
            } else if state.fuse {
                role.keg_lit
            } else if state.flash {
                hit[stage]
            } else {
                idle[stage]
            }
        }
        Looks::Fixed(clip) => clip,
    }
}

impl AnimationState {
    /// The clip changes of the entities of `chunk`, into `changes`.
    fn pick(&mut self, world: &World, chunk: &[Entity]) {
        {
            let role = world.resource::<RoleClips>();
            let clips = world.resource::<Clips>();
            // Each column looked up by type once per chunk, not once per entity.
            let (Some(sprites), Some(animations)) = (
                world.try_column::<Sprite>(),
                world.try_column::<Animation>(),
            ) else {
                return;
            };
            let (players, crates) = (world.try_column::<Player>(), world.try_column::<Crate>());
            let (stunned, exploding) = (
                world.try_column::<Stunned>(),
                world.try_column::<Exploding>(),
            );
            let (fuses, flashes) = (world.try_column::<Fuse>(), world.try_column::<HitFlash>());
            for &e in chunk {
                let (Some(sprite), Some(anim)) = (sprites.get(e), animations.get(e)) else {
                    continue;
                };
                let state = ClipState {
                    player: players.and_then(|c| c.get(e)),
                    crate_: crates.and_then(|c| c.get(e)),
                    stunned: stunned.is_some_and(|c| c.contains(e)),
                    exploding: exploding.is_some_and(|c| c.contains(e)),
                    fuse: fuses.is_some_and(|c| c.contains(e)),
                    flash: flashes.is_some_and(|c| c.contains(e)),
                };
                let clip = pick_clip(sprite, &state, role);
                if clip != anim.clip {
                    self.changes.push((e, clip, clips.get(clip).animates()));
                }
            }
        }
    }

    /// Write the clip changes in `changes`.
    fn apply(&self, world: &mut World) {
        for &(e, clip, animates) in &self.changes {
            if let Some(mut anim) = world.get_mut::<Animation>(e) {
                *anim = Animation {
                    clip,
                    frame: 0,
                    finished: false,
                };
            }
            if animates {
                // Replacing restarts the frame timer for the new clip.
                let _ = world.insert(e, Animating::default());
            } else {
                world.remove::<Animating>(e);
            }
        }
    }
}
