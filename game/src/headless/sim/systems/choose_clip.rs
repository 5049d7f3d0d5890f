//! `choose_clip`: picks each entity's clip from its state (facing, walking, swinging, stunned, hit,
//! a keg's burning fuse, exploding, and a crate's crack stage from its health). Runs only for entities whose state
//! changed (the schedule has it watch every component read here, [`Crate`] included, so a hit
//! that only lowers health still reaches it); the choice is a pure function of the state, so
//! running it for unchanged entities changes nothing.

use ecs::{Entity, SystemEntities, World};

use crate::sim::components::{
    ClipFrame, ClipId, Crate, Exploding, FrameTimer, Fuse, HitFlash, Looks, Player, Sprite, Stunned,
};
use crate::sim::resources::{Clips, RoleClips};

/// Scratch buffer kept between runs: the entities whose clip changed, each with whether the
/// new clip animates, for adding or removing [`FrameTimer`] once the query is done.
#[derive(Debug, Default)]
pub struct ChooseClip {
    changes: Vec<(Entity, bool)>,
}

/// The components an entity's clip follows from, the clip last.
type Looked<'a> = (
    &'a Sprite,
    &'a mut ClipFrame,
    Option<&'a Player>,
    Option<&'a Crate>,
    Option<&'a Stunned>,
    Option<&'a Exploding>,
    Option<&'a Fuse>,
    Option<&'a HitFlash>,
);

impl ecs::System for ChooseClip {
    fn update(&mut self, world: &mut World, entities: &SystemEntities<'_>) {
        puffin::profile_scope!("choose_clip");
        self.changes.clear();
        let (mut looked, resources) = entities.changed::<Looked<'_>>(world).with_resources();
        let (role, clips) = (
            resources.resource::<RoleClips>(),
            resources.resource::<Clips>(),
        );
        while let Some((e, item)) = looked.next() {
            let (sprite, mut anim, player, crate_, stunned, exploding, fuse, flash) = item;
            let state = ClipState {
                player,
                crate_,
                stunned: stunned.is_some(),
                exploding: exploding.is_some(),
                fuse: fuse.is_some(),
                flash: flash.is_some(),
            };
            let clip = pick_clip(sprite, &state, role);
            if clip != anim.clip {
                *anim = ClipFrame {
                    clip,
                    frame: 0,
                    finished: false,
                };
                self.changes.push((e, clips.get(clip).animates()));
            }
        }
        for &(e, animates) in &self.changes {
            if animates {
                // Replacing restarts the frame timer for the new clip.
                let _ = world.insert(e, FrameTimer::default());
            } else {
                world.remove::<FrameTimer>(e);
            }
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
