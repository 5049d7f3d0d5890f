//! The schedule: every system, its priority band, what it tracks and what it watches, in one
//! table. Bands follow the seed article: input 0s, control 10s, actions 20s, movement and
//! spatial hash 40s, collision 50s, resolution and damage 60s, timers and lifetimes 70s,
//! camera 80s, animation state 90s; last, `checkpoint` at 200 (the replay checkpoint hash).

use ecs::{SystemDesc, SystemId, World};

use super::components::{
    CameraTarget, ClipFrame, Collider, Crate, Exploding, FrameTimer, Fuse, HitFlash, Lifetime,
    Player, Position, Sprite, Stunned, Velocity,
};
use super::game_events::CrateHit;
use super::state_hash::{self, CheckpointSum};
use super::systems::{
    animate::Animate, attack::Attack, bot::Bot, camera, checkpoint::Checkpoint,
    choose_clip::ChooseClip, collision::Collision, collision_grid, countdown, damage::Damage,
    debug_stats, draw_data::DrawDataSystem, fuse::FuseSystem, movement::Movement, player_control,
};

/// Handles the simulation needs to switch systems on and off.
pub(super) struct ScheduleIds {
    pub(super) bot: SystemId,
    pub(super) debug_stats: SystemId,
}

/// Add every system to `world`.
pub(super) fn add_systems(world: &mut World) -> ScheduleIds {
    let bot = world.add_system(
        SystemDesc::new("bot")
            .priority(0)
            .requires::<Player>()
            .requires::<Position>(),
        Bot::default(),
    );
    world.add_system(
        SystemDesc::new("player_control")
            .priority(10)
            .requires::<Player>()
            .requires::<Velocity>(),
        player_control::run,
    );
    world.add_system(
        SystemDesc::new("attack")
            .priority(20)
            .requires::<Player>()
            .requires::<Position>(),
        Attack::default(),
    );
    world.add_system(
        SystemDesc::new("movement")
            .priority(40)
            .requires::<Position>()
            .requires::<Velocity>(),
        Movement::default(),
    );
    world.add_system(
        SystemDesc::new("collision_grid")
            .priority(45)
            .requires::<Position>()
            .requires::<Collider>()
            .watches::<Position>()
            .watches::<Collider>(),
        collision_grid::run,
    );
    world.add_system(
        SystemDesc::new("collision")
            .priority(50)
            .requires::<Position>()
            .requires::<Collider>()
            .requires::<Velocity>()
            .watches::<Position>()
            .watches::<Collider>(),
        Collision::default(),
    );
    world.add_system(
        // It reads the step's `CrateHit` events and needs no entity list; requiring the player
        // keeps its tracked set at one entity instead of every crate of the level.
        SystemDesc::new("damage")
            .priority(61)
            .requires::<Player>()
            .on_event::<CrateHit>(),
        Damage::default(),
    );
    // The timers (`fuse` to `stun`) count down every timer they track on every update; with
    // none to track a run costs a call.
    world.add_system(
        SystemDesc::new("fuse")
            .priority(62)
            .requires::<Fuse>()
            .every_update(),
        FuseSystem::default(),
    );
    world.add_system(
        SystemDesc::new("hit_flash")
            .priority(70)
            .requires::<HitFlash>()
            .every_update(),
        countdown::hit_flash,
    );
    world.add_system(
        SystemDesc::new("explosion")
            .priority(71)
            .requires::<Exploding>()
            .every_update(),
        countdown::explosion,
    );
    world.add_system(
        SystemDesc::new("lifetime")
            .priority(72)
            .requires::<Lifetime>()
            .every_update(),
        countdown::lifetime,
    );
    world.add_system(
        SystemDesc::new("stun")
            .priority(73)
            .requires::<Stunned>()
            .every_update(),
        countdown::stun,
    );
    world.add_system(
        SystemDesc::new("camera")
            .priority(80)
            .requires::<CameraTarget>()
            .requires::<Position>(),
        camera::run,
    );
    world.add_system(
        SystemDesc::new("choose_clip")
            .priority(90)
            .requires::<ClipFrame>()
            .requires::<Sprite>()
            .watches::<Sprite>()
            .watches::<Player>()
            .watches::<Crate>()
            .watches::<HitFlash>()
            .watches::<Fuse>()
            .watches::<Exploding>()
            .watches::<Stunned>(),
        ChooseClip::default(),
    );
    world.add_system(
        SystemDesc::new("animate")
            .priority(91)
            .requires::<ClipFrame>()
            .requires::<FrameTimer>(),
        Animate::default(),
    );
    world.add_system(
        SystemDesc::new("draw_data")
            .priority(95)
            .requires::<Position>()
            .requires::<ClipFrame>()
            .requires::<Sprite>()
            .watches::<Position>()
            .watches::<ClipFrame>()
            // It empties the per-update `DrawDirtyLog` even when nothing changed.
            .every_update(),
        DrawDataSystem::default(),
    );
    let debug_stats = world.add_system(
        // It reads column lengths and needs no entity list; requiring the camera target keeps
        // its tracked set at one entity instead of every entity in the world.
        SystemDesc::new("debug_stats")
            .priority(100)
            .debug()
            .requires::<CameraTarget>(),
        debug_stats::run,
    );
    // The replay checkpoint's entity sum: after every other system, so it sees the step's
    // last writes. It requires nothing (every entity is tracked, and a despawned one is
    // removed) and watches every component the state hash covers, from the hash's own table.
    // It runs on every update: the entities despawned in an update must be hashed in it, and
    // its fold steps come whether anything changed or not.
    world.insert_resource(CheckpointSum::new(world));
    world.add_system(
        state_hash::watching_hashed_components(SystemDesc::new("checkpoint").priority(200))
            .every_update(),
        Checkpoint::default(),
    );
    ScheduleIds { bot, debug_stats }
}
