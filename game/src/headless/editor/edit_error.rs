//! [`EditError`]: an edit the editor refuses, leaving the map unchanged.

use crate::level::{self, MAX_SIDE};

/// An edit that cannot be applied; the map is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("({x}, {y}) is outside the {width} x {height} map")]
    OutOfBounds {
        x: u64,
        y: u64,
        width: u32,
        height: u32,
    },
    #[error("{} is not a map character of this level", shown_char(*.0))]
    NotInPalette(char),
    #[error("a level has one player start: place it with a click, not a fill")]
    FillWithPlayer,
    #[error("the piece has {0} player starts; a level has one")]
    PieceWithPlayers(usize),
    #[error("the map would be {width} x {height}; each side must be 1 to {MAX_SIDE} cells")]
    Size { width: i64, height: i64 },
}

/// `c` in quotes, escaped for display.
fn shown_char(c: char) -> String {
    level::escape_for_display(&format!("'{c}'")).into_owned()
}
