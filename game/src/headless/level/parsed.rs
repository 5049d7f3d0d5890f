//! A validated level, as the simulation and the editor use it: its tiles, crates and overrides.

/// Skins of the built-in crate characters `c`, `C` and `k`, which every atlas should provide:
/// the skins the atlas generator draws.
pub const DEFAULT_SKINS: [&str; 3] = crate::atlas::clip_names::CRATE_SKINS;

/// Position of one map cell: column `x`, row `y`, with (0, 0) at the top-left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: u32,
    pub y: u32,
}

/// What the ground of a cell is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tile {
    /// Outside the room: not drawn, not walkable.
    #[default]
    Void,
    Floor,
    Wall,
}

/// A crate placed by the level, standing on a floor cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrateSpawn {
    pub at: Cell,
    /// Hits it takes to smash, in `HEALTH_RANGE`.
    pub health: u32,
    /// Whether smashing it drops a coin.
    pub coin: bool,
    /// Name of its sprite in the art atlas; checked to exist when the level was parsed.
    pub skin: Skin,
}

/// A crate skin's name, shared: the crates of one skin hold one string between them, so a
/// level of ten million crates keeps a handful of names, not ten million. One pointer wide
/// (`Arc<String>`, not the two words of `Arc<str>`): a [`CrateSpawn`] is 24 bytes.
///
/// ```
/// use game::level::Skin;
///
/// let skin = Skin::new("crate");
/// assert_eq!(skin, "crate");
/// assert_eq!(skin.clone().as_str(), "crate");
/// assert_eq!(size_of::<game::level::CrateSpawn>(), 24);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Skin(std::sync::Arc<String>);

impl Skin {
    /// The skin called `name`.
    pub fn new(name: &str) -> Self {
        Self(std::sync::Arc::new(name.to_owned()))
    }

    /// Its name.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl std::ops::Deref for Skin {
    type Target = str;

    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl PartialEq<str> for Skin {
    fn eq(&self, other: &str) -> bool {
        self.0.as_str() == other
    }
}

impl PartialEq<&str> for Skin {
    fn eq(&self, other: &&str) -> bool {
        self.0.as_str() == *other
    }
}

/// A validated level, ready for the simulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// Row-major, `width * height` tiles.
    pub tiles: Vec<Tile>,
    /// A floor cell.
    pub player_start: Cell,
    /// In row-major order of their cells.
    pub crates: Vec<CrateSpawn>,
    /// Loose coins lying on floor cells, row-major.
    pub coins: Vec<Cell>,
    /// Par times for the medals, if the level sets them.
    pub par: Option<crate::campaign::medals::Par>,
    /// One line that tells a player what the level teaches, shown as it starts.
    pub hint: Option<String>,
}

impl Level {
    /// The tile at column `x`, row `y`; [`Tile::Void`] outside the map.
    pub fn tile(&self, x: u32, y: u32) -> Tile {
        if x >= self.width || y >= self.height {
            return Tile::Void;
        }
        self.tiles[y as usize * self.width as usize + x as usize]
    }
}
