//! Building a world from a level: resources first, then one entity per wall, crate and coin.

use ecs::World;

use super::components::{
    Animation, CRACK_STAGES, CameraTarget, ClipId, Collider, Crate, Keg, Looks, Player, Sprite,
    Velocity, layer,
};
use super::grid::SpatialHash;
use super::resources::{
    Camera, Clips, CollisionGrid, DrawDirtyLog, DrawGrid, GameState, Input, RoleClips, SimRng,
    TileMap,
};
use super::spawn::{cell_center, spawn_coin};
use super::tuning::{self, TILE};
use crate::atlas::clip_names::{self, CrateState};
use crate::level::{Level, Tile};

/// Insert every resource the systems use.
pub(super) fn insert_resources(
    world: &mut World,
    level: &Level,
    clips: Clips,
    role: RoleClips,
    seed: u64,
) {
    let map = TileMap::new(level);
    let (w, h) = map.size_px();
    world.insert_resource(Input::default());
    world.insert_resource(GameState {
        crates_total: level.crates.len() as u32,
        crates_left: level.crates.len() as u32,
        ..GameState::default()
    });
    world.insert_resource(map);
    world.insert_resource(clips);
    world.insert_resource(role);
    world.insert_resource(SimRng::new(seed));
    world.insert_resource(Camera::default());
    world.insert_resource(DrawDirtyLog::default());
    world.insert_resource(CollisionGrid(SpatialHash::new(
        w,
        h,
        tuning::COLLISION_CELL,
    )));
    world.insert_resource(DrawGrid(SpatialHash::new(w, h, tuning::DRAW_CELL)));
}

/// Spawn the level's walls, crates, coins and player.
pub(super) fn spawn_level(world: &mut World, level: &Level) {
    let role = world.resource::<RoleClips>().clone();
    let clips_for_skin = |world: &World, skin: &str| {
        let clips = world.resource::<Clips>();
        let staged = |state| -> Option<[ClipId; CRACK_STAGES + 1]> {
            let mut ids = [ClipId::NONE; CRACK_STAGES + 1];
            for (stage, id) in (0..).zip(&mut ids) {
                *id = clips.id(&clip_names::cracked_crate_clip(skin, state, stage))?;
            }
            Some(ids)
        };
        match (
            staged(CrateState::Idle),
            staged(CrateState::Hit),
            clips.id(&clip_names::crate_clip(skin, CrateState::Explode)),
        ) {
            (Some(idle), Some(hit), Some(explode)) => Looks::Crate { idle, hit, explode },
            // Levels are validated against the atlas, so this only guards hand-built worlds.
            _ => Looks::Fixed(role.walls[0]),
        }
    };
    let half = TILE / 2.0;
    for y in 0..level.height {
        for x in 0..level.width {
            if level.tile(x, y) == Tile::Wall {
                // A cheap hash of the cell picks a variant, so walls look varied but stable.
                let variant = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) as usize
                    % role.walls.len();
                let clip = role.walls[variant];
                world.spawn((
                    cell_center(x, y),
                    Collider::solid(half, half),
                    Sprite {
                        looks: Looks::Fixed(clip),
                        layer: layer::WALLS,
                    },
                    Animation::default(),
                ));
            }
        }
    }
    // Levels use a handful of skins; resolve each once, not once per crate.
    let mut looks_by_skin: std::collections::HashMap<&str, Looks> =
        std::collections::HashMap::new();
    for spawn in &level.crates {
        let looks = *looks_by_skin
            .entry(spawn.skin.as_str())
            .or_insert_with(|| clips_for_skin(world, spawn.skin.as_str()));
        let crate_entity = world.spawn((
            cell_center(spawn.at.x, spawn.at.y),
            Collider::solid(half, half),
            Crate {
                health: spawn.health,
                max_health: spawn.health,
                coin: spawn.coin,
            },
            Sprite {
                looks,
                layer: layer::BODIES,
            },
            Animation::default(),
        ));
        if spawn.skin == clip_names::KEG {
            let _ = world.insert(crate_entity, Keg);
        }
        let map = world.resource_mut::<TileMap>();
        if let Some(i) = map.index(spawn.at.x as i32, spawn.at.y as i32) {
            map.set_crate(i, Some(crate_entity));
        }
    }
    for coin in &level.coins {
        spawn_coin(world, cell_center(coin.x, coin.y), Velocity::default());
    }
    world.spawn((
        cell_center(level.player_start.x, level.player_start.y),
        Velocity::default(),
        Collider::sensor(tuning::PLAYER_HALF, tuning::PLAYER_HALF),
        Player::default(),
        CameraTarget,
        Sprite {
            looks: Looks::Player,
            layer: layer::BODIES,
        },
        Animation::default(),
    ));
}
