//! The names of the clips the game plays: the contract between the art generator, the
//! simulation (which resolves them when a level starts) and the renderer.
//!
//! Every clip name is built here and nowhere else, so renaming a clip is one edit, and a
//! misspelt name cannot reach one side only: the generator draws what these functions name, and
//! the simulation refuses to start, naming the clip, if the atlas lacks one it needs.

/// One of four facings. Clips that come in four directions are listed in this order, and the
/// simulation indexes its per-facing clip arrays with `facing as usize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Facing {
    /// Towards the bottom of the screen.
    #[default]
    Down,
    /// Towards the top of the screen.
    Up,
    /// Towards the left.
    Left,
    /// Towards the right.
    Right,
}

impl Facing {
    /// Every facing, in clip-array order.
    pub const ALL: [Facing; 4] = [Facing::Down, Facing::Up, Facing::Left, Facing::Right];

    /// Name used in clip names (`player_walk_down`).
    pub fn name(self) -> &'static str {
        match self {
            Facing::Down => "down",
            Facing::Up => "up",
            Facing::Left => "left",
            Facing::Right => "right",
        }
    }

    /// Unit vector in world pixels (y grows downwards).
    pub fn vector(self) -> (f32, f32) {
        match self {
            Facing::Down => (0.0, 1.0),
            Facing::Up => (0.0, -1.0),
            Facing::Left => (-1.0, 0.0),
            Facing::Right => (1.0, 0.0),
        }
    }
}

/// The three states of a crate skin. Idle and hit come in every crack stage, 0 (whole) to
/// [`CRACK_STAGES`]; the explosion has one clip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrateState {
    /// Standing.
    Idle,
    /// Just hit.
    Hit,
    /// Breaking apart.
    Explode,
}

impl CrateState {
    /// The states drawn at every crack stage.
    pub const CRACKED: [CrateState; 2] = [CrateState::Idle, CrateState::Hit];

    fn name(self) -> &'static str {
        match self {
            CrateState::Idle => "idle",
            CrateState::Hit => "hit",
            CrateState::Explode => "explode",
        }
    }
}

/// The plain crate skin (level character `c`).
pub const PLAIN_CRATE: &str = "crate";
/// The strong crate skin (level character `C`).
pub const STRONG_CRATE: &str = "crate_strong";
/// The powder keg's skin (level character `k`): a crate with this skin is a keg, which a hit
/// lights instead of damaging.
pub const KEG: &str = "keg";
/// The crate skins the generator draws.
pub const CRATE_SKINS: [&str; 3] = [PLAIN_CRATE, STRONG_CRATE, KEG];
/// Crack stages a damaged crate shows, light to heavy; stage 0 is the whole crate.
pub const CRACK_STAGES: u8 = 3;

/// A flying splinter of a broken crate.
pub const DEBRIS: &str = "debris";
/// A keg whose fuse burns: a flickering spark on its lid.
pub const KEG_LIT: &str = "keg_lit";
/// A spinning coin.
pub const COIN: &str = "coin";
/// The shadow drawn under bodies.
pub const SHADOW: &str = "shadow";

/// Floor tile variants the generator draws.
pub const FLOOR_VARIANTS: u32 = 4;
/// Wall tile variants the generator draws.
pub const WALL_VARIANTS: u32 = 4;

/// The player standing.
pub fn player_idle(facing: Facing) -> String {
    format!("player_idle_{}", facing.name())
}

/// The player walking.
pub fn player_walk(facing: Facing) -> String {
    format!("player_walk_{}", facing.name())
}

/// The player swinging the hammer.
pub fn player_attack(facing: Facing) -> String {
    format!("player_attack_{}", facing.name())
}

/// The player stunned by a blast: stars round its head.
pub fn player_stunned(facing: Facing) -> String {
    format!("player_stunned_{}", facing.name())
}

/// The arc of a swing.
pub fn slash(facing: Facing) -> String {
    format!("slash_{}", facing.name())
}

/// One state of a whole crate skin (`crate_strong_hit`): crack stage 0.
pub fn crate_clip(skin: &str, state: CrateState) -> String {
    format!("{skin}_{}", state.name())
}

/// One state of a crate skin at crack stage `stage` (`crate_idle_cracks2`); stage 0 is
/// [`crate_clip`]. Only the [`CrateState::CRACKED`] states have stages above 0.
pub fn cracked_crate_clip(skin: &str, state: CrateState, stage: u8) -> String {
    if stage == 0 {
        crate_clip(skin, state)
    } else {
        // `cracks` and not a bare number: `crate_hit_1` is already the name of a hit frame.
        format!("{skin}_{}_cracks{stage}", state.name())
    }
}

/// Every clip a crate skin needs: idle and hit at every crack stage, and the explosion.
pub fn crate_skin_clips(skin: &str) -> Vec<String> {
    let mut clips: Vec<String> = CrateState::CRACKED
        .iter()
        .flat_map(|&state| {
            (0..=CRACK_STAGES).map(move |stage| cracked_crate_clip(skin, state, stage))
        })
        .collect();
    clips.push(crate_clip(skin, CrateState::Explode));
    clips
}

/// The skin whose idle clip is `clip`, if `clip` names one (`crate_idle` -> `crate`).
pub fn crate_skin_of_idle(clip: &str) -> Option<&str> {
    clip.strip_suffix(CrateState::Idle.name())?
        .strip_suffix('_')
}

/// Floor tile variant `variant`, counted from 0.
pub fn floor(variant: u32) -> String {
    format!("floor_{variant}")
}

/// Wall tile variant `variant`, counted from 0.
pub fn wall(variant: u32) -> String {
    format!("wall_{variant}")
}

/// Every clip the game plays, with the generator's skins and tile variants (for the test that
/// the shipped atlas has them all).
#[cfg(test)]
pub fn all() -> Vec<String> {
    let mut clips = Vec::new();
    for facing in Facing::ALL {
        clips.extend([
            player_idle(facing),
            player_walk(facing),
            player_attack(facing),
            player_stunned(facing),
            slash(facing),
        ]);
    }
    for skin in CRATE_SKINS {
        clips.extend(crate_skin_clips(skin));
    }
    clips.extend([KEG_LIT, DEBRIS, COIN, SHADOW].map(str::to_owned));
    clips.extend((0..FLOOR_VARIANTS).map(floor));
    clips.extend((0..WALL_VARIANTS).map(wall));
    clips
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_names_are_distinct() {
        let mut names = all();
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count);
    }

    #[test]
    fn a_skin_is_recovered_from_its_idle_clip_only() {
        assert_eq!(
            crate_skin_of_idle(&crate_clip(STRONG_CRATE, CrateState::Idle)),
            Some(STRONG_CRATE)
        );
        assert_eq!(
            crate_skin_of_idle(&crate_clip(PLAIN_CRATE, CrateState::Hit)),
            None
        );
        assert_eq!(crate_skin_of_idle("idle"), None);
        assert_eq!(
            crate_skin_of_idle(&cracked_crate_clip(PLAIN_CRATE, CrateState::Idle, 2)),
            None,
            "a cracked idle clip names no skin of its own"
        );
    }

    #[test]
    fn a_skin_needs_idle_and_hit_at_every_stage_and_one_explosion() {
        let clips = crate_skin_clips(PLAIN_CRATE);
        assert_eq!(clips.len(), 2 * (usize::from(CRACK_STAGES) + 1) + 1);
        assert!(clips.contains(&"crate_idle".to_owned()));
        assert!(clips.contains(&"crate_hit_cracks3".to_owned()));
        assert!(clips.contains(&"crate_explode".to_owned()));
    }
}
