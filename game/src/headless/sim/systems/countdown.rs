//! The countdowns: one system per timer component, all the same loop. Each step takes one off
//! every tracked timer, and a timer that reaches zero runs its component's [`OnExpire`]:
//!
//! | system      | timer        | on expire                                    |
//! |-------------|--------------|----------------------------------------------|
//! | `hit_flash` | [`HitFlash`] | remove it (the crate goes back to idle)      |
//! | `explosion` | [`Exploding`]| despawn (a broken crate's burst has ended)   |
//! | `lifetime`  | [`Lifetime`] | despawn (debris, swing effects)              |
//! | `stun`      | [`Stunned`]  | remove it (the keys work again)              |
//!
//! `fuse` counts down with [`tick_down`] too, but a keg that blows is a rule of its own
//! (`fuse.rs`). The break itself, and the clear, are counted in `sim/wreck.rs`.

use ecs::{Component, Entity, SystemEntities, World};

use crate::sim::components::{Exploding, HitFlash, Lifetime, Stunned};

/// What happens to an entity whose timer reached zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnExpire {
    /// The timer component goes; the entity stays.
    Remove,
    /// The entity goes (through [`super::despawn`], so the checkpoint sees it).
    Despawn,
}

/// A per-entity timer component counted down by its own countdown system.
pub trait Timer: Component {
    /// What an expired timer does to its entity.
    const ON_EXPIRE: OnExpire;
    /// The steps left.
    fn steps(&mut self) -> &mut u32;
}

impl Timer for HitFlash {
    const ON_EXPIRE: OnExpire = OnExpire::Remove;
    fn steps(&mut self) -> &mut u32 {
        &mut self.steps
    }
}

impl Timer for Exploding {
    const ON_EXPIRE: OnExpire = OnExpire::Despawn;
    fn steps(&mut self) -> &mut u32 {
        &mut self.steps
    }
}

impl Timer for Lifetime {
    const ON_EXPIRE: OnExpire = OnExpire::Despawn;
    fn steps(&mut self) -> &mut u32 {
        &mut self.steps
    }
}

impl Timer for Stunned {
    const ON_EXPIRE: OnExpire = OnExpire::Remove;
    fn steps(&mut self) -> &mut u32 {
        &mut self.steps
    }
}

/// Run the countdown of `T` (tracks `T`): one step off every timer, then each expired one's
/// [`Timer::ON_EXPIRE`].
pub fn count_down<T: Timer>(world: &mut World, entities: &SystemEntities<'_>) {
    let expired = tick_down::<T>(world, entities, T::steps);
    for e in expired {
        match T::ON_EXPIRE {
            OnExpire::Remove => {
                world.remove::<T>(e);
            }
            OnExpire::Despawn => {
                super::despawn(world, e);
            }
        }
    }
}

/// Run `hit_flash`: the countdown of [`HitFlash`].
pub fn hit_flash(world: &mut World, entities: &SystemEntities<'_>) {
    // One scope per system: a `profile_scope!` inside the generic function would be one scope
    // for all four.
    puffin::profile_scope!("hit_flash");
    count_down::<HitFlash>(world, entities);
}

/// Run `explosion`: the countdown of [`Exploding`].
pub fn explosion(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("explosion");
    count_down::<Exploding>(world, entities);
}

/// Run `lifetime`: the countdown of [`Lifetime`].
pub fn lifetime(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("lifetime");
    count_down::<Lifetime>(world, entities);
}

/// Run `stun`: the countdown of [`Stunned`].
pub fn stun(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("stun");
    count_down::<Stunned>(world, entities);
}

/// Count down a per-entity timer component of every tracked entity by one step; returns the
/// entities whose timer reached zero.
pub(crate) fn tick_down<T: Component>(
    world: &mut World,
    entities: &SystemEntities<'_>,
    steps: impl Fn(&mut T) -> &mut u32,
) -> Vec<Entity> {
    let mut timers = entities.query::<&mut T>(world);
    let mut expired = Vec::new();
    while let Some((e, mut timer)) = timers.next() {
        let left = steps(&mut timer);
        *left = left.saturating_sub(1);
        if *left == 0 {
            expired.push(e);
        }
    }
    expired
}
