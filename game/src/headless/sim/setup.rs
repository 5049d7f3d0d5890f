//! Building a world from a level: resources first, then one entity per wall, crate and coin
//! (and the coin a breaking crate drops).

use ecs::World;

use super::components::{
    CRACK_STAGES, CameraTarget, ClipFrame, ClipId, Coin, Collider, Crate, DrawData, FrameTimer,
    Friction, Keg, Looks, Player, Position, Sprite, Swing, Velocity, layer,
};
use super::resources::{
    BotPlan, Camera, Clips, CollisionGrid, DrawDirtyLog, DrawGrid, GameState, Input, RoleClips,
    SimRng, TileMap,
};
use super::spatial_hash::SpatialHash;
use super::systems::choose_clip::{ClipState, pick_clip};
use super::systems::draw_data::draw_data;
use super::tuning::{self, FRICTION, TILE};
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
    world.insert_resource(BotPlan::default());
    world.insert_resource(Camera::default());
    world.insert_resource(DrawDirtyLog::default());
    world.insert_resource(CollisionGrid(SpatialHash::new(
        w,
        h,
        tuning::COLLISION_CELL,
    )));
    world.insert_resource(DrawGrid(SpatialHash::new(w, h, tuning::DRAW_CELL)));
}

/// Spawn the level's walls, crates, coins and player (in that order: entity ids, and so the
/// state hash, depend on it).
pub(super) fn spawn_level(world: &mut World, level: &Level) {
    let role = world.resource::<RoleClips>().clone();
    // One reservation for every entity the level spawns, made with a crate's components: a
    // wall has them all but `Crate` (walls are few beside the crates of a large level), so the
    // entity slots, the columns and the systems' sets are allocated once, at their size.
    let walls = level.tiles.iter().filter(|&&t| t == Tile::Wall).count();
    world.reserve::<CrateBundle>(walls + level.crates.len() + level.coins.len() + 1);
    // A copy (the atlas's clips, a few kilobytes) to read while the world spawns.
    let clips = world.resource::<Clips>().clone();
    spawn_walls(world, level, &clips, &role);
    spawn_crates(world, level, &clips, &role);
    for coin in &level.coins {
        spawn_coin(world, cell_center(coin.x, coin.y), Velocity::default());
    }
    world.spawn((
        cell_center(level.player_start.x, level.player_start.y),
        Velocity::default(),
        Collider::sensor(tuning::PLAYER_HALF, tuning::PLAYER_HALF),
        Player::default(),
        Swing::default(),
        CameraTarget,
        Sprite {
            looks: Looks::Player,
            layer: layer::BODIES,
        },
        ClipFrame::default(),
    ));
}

/// The [`ClipFrame`] and [`DrawData`] an entity spawned with `sprite` at `at` has after its
/// first step, and whether its clip animates: level setup gives walls and crates these at
/// spawn, so the first step of a large level recomputes them unchanged instead of writing
/// each entity's clip and inserting its draw data. The same rules decide
/// ([`pick_clip`], [`draw_data`]); `Crate` is the state a crate starts in.
fn first_look(
    clips: &Clips,
    role: &RoleClips,
    at: &Position,
    sprite: &Sprite,
    crate_: Option<&Crate>,
) -> (ClipFrame, DrawData, bool) {
    let state = ClipState {
        crate_,
        ..ClipState::default()
    };
    let animation = ClipFrame {
        clip: pick_clip(sprite, &state, role),
        ..ClipFrame::default()
    };
    // Walls' and crates' clips are ids resolved against the atlas (`RoleClips`,
    // `crate_looks`), never `ClipId::NONE`, so they always have draw data.
    let data = draw_data(at, &animation, sprite, clips).expect("a resolved clip");
    (animation, data, clips.get(animation.clip).animates())
}

/// What a crate spawns with (and a keg's `Keg`, inserted after).
type CrateBundle = (Position, Collider, Crate, Sprite, ClipFrame, DrawData);

/// Spawn a wall on every wall tile, row by row, in one batch.
fn spawn_walls(world: &mut World, level: &Level, clips: &Clips, role: &RoleClips) {
    let half = TILE / 2.0;
    let mut animated = Vec::new();
    let cells = (0..level.height)
        .flat_map(|y| (0..level.width).map(move |x| (x, y)))
        .filter(|&(x, y)| level.tile(x, y) == Tile::Wall);
    let walls = world.spawn_batch(cells.enumerate().map(|(k, (x, y))| {
        // A cheap hash of the cell picks a variant, so walls look varied but stable.
        let variant =
            (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) as usize % role.walls.len();
        let at = cell_center(x, y);
        let sprite = Sprite {
            looks: Looks::Fixed(role.walls[variant]),
            layer: layer::WALLS,
        };
        let (animation, data, animates) = first_look(clips, role, &at, &sprite, None);
        if animates {
            animated.push(k);
        }
        (at, Collider::solid(half, half), sprite, animation, data)
    }));
    for k in animated {
        let _ = world.insert(walls[k], FrameTimer::default());
    }
}

/// Spawn the level's crates in one batch, mark the kegs, and note each crate on the tile map.
fn spawn_crates(world: &mut World, level: &Level, clips: &Clips, role: &RoleClips) {
    let half = TILE / 2.0;
    // Levels use a handful of skins; resolve each once, not once per crate.
    let mut looks_by_skin: std::collections::HashMap<&str, Looks> =
        std::collections::HashMap::new();
    // Crates of one skin share its name's allocation, so a run of them is recognised by
    // address, without hashing or comparing the name for each crate.
    let mut last: Option<(&str, Looks, bool)> = None;
    let (mut animated, mut kegs) = (Vec::new(), Vec::new());
    let crates = world.spawn_batch(level.crates.iter().enumerate().map(|(k, spawn)| {
        let skin = spawn.skin.as_str();
        let (looks, keg) = match last {
            Some((name, looks, keg)) if std::ptr::eq(name, skin) => (looks, keg),
            _ => {
                let looks = *looks_by_skin
                    .entry(skin)
                    .or_insert_with(|| crate_looks(clips, skin, role));
                let keg = skin == clip_names::KEG;
                last = Some((skin, looks, keg));
                (looks, keg)
            }
        };
        let at = cell_center(spawn.at.x, spawn.at.y);
        let state = Crate {
            health: spawn.health,
            max_health: spawn.health,
            coin: spawn.coin,
        };
        let sprite = Sprite {
            looks,
            layer: layer::BODIES,
        };
        let (animation, data, animates) = first_look(clips, role, &at, &sprite, Some(&state));
        if animates {
            animated.push(k);
        }
        if keg {
            kegs.push(k);
        }
        (
            at,
            Collider::solid(half, half),
            state,
            sprite,
            animation,
            data,
        )
    }));
    for k in animated {
        let _ = world.insert(crates[k], FrameTimer::default());
    }
    for k in kegs {
        let _ = world.insert(crates[k], Keg);
    }
    let map = world.resource_mut::<TileMap>();
    for (spawn, &entity) in level.crates.iter().zip(&crates) {
        if let Some(i) = map.index(spawn.at.x as i32, spawn.at.y as i32) {
            map.set_crate(i, Some(entity));
        }
    }
}

/// The looks of a crate of `skin`: its idle and hit clips at each crack stage, and its
/// explosion.
fn crate_looks(clips: &Clips, skin: &str, role: &RoleClips) -> Looks {
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
}

/// Centre of map cell `(x, y)` in world pixels.
pub(super) fn cell_center(x: u32, y: u32) -> Position {
    Position {
        x: (x as f32 + 0.5) * TILE,
        y: (y as f32 + 0.5) * TILE,
    }
}

/// Spawn a coin at `at` sliding with `velocity`.
pub(super) fn spawn_coin(world: &mut World, at: Position, velocity: Velocity) {
    let clip = world.resource::<RoleClips>().coin;
    world.spawn((
        at,
        velocity,
        Friction(FRICTION),
        Collider::sensor(4.0, 4.0),
        Coin,
        Sprite {
            looks: Looks::Fixed(clip),
            layer: layer::PICKUPS,
        },
        ClipFrame::default(),
    ));
}
