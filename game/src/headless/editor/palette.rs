//! The brushes an author paints with: the built-in map characters, then the level's own legend.

use crate::level::Tile;
use crate::level::validate::{Glyph, built_in};

/// The built-in characters in palette order, with their labels.
const BUILT_IN: [(char, &str); 9] = [
    ('#', "wall"),
    ('.', "floor"),
    (' ', "void"),
    ('c', "crate"),
    ('C', "strong crate"),
    ('$', "coin crate"),
    ('o', "loose coin"),
    ('@', "player start"),
    ('k', "powder keg"),
];

/// What a brush places, so the window can draw it with its sprite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrushKind {
    /// Ground only: wall, floor or void.
    Tile(Tile),
    /// A crate on floor: its skin (a sprite name of the atlas), health and whether it drops a
    /// coin. A crate with the `keg` skin is a powder keg.
    Crate {
        skin: String,
        health: u32,
        coin: bool,
    },
    /// A loose coin on floor.
    Coin,
    /// The player start, on floor. A level has exactly one.
    Player,
}

impl From<Glyph> for BrushKind {
    fn from(glyph: Glyph) -> Self {
        match glyph {
            Glyph::Tile(tile) => BrushKind::Tile(tile),
            Glyph::Player => BrushKind::Player,
            Glyph::Coin => BrushKind::Coin,
            Glyph::Crate { health, skin, coin } => BrushKind::Crate { skin, health, coin },
        }
    }
}

/// One entry of the palette.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Brush {
    /// The map character it paints.
    pub ch: char,
    /// A short name for the palette: `wall`, `strong crate`, or for a legend character
    /// `'v': crate_strong, 20 hp, coin`.
    pub label: String,
    pub kind: BrushKind,
}

/// The built-in brushes, then one per legend entry in file order.
pub(crate) fn palette(legend: &[(char, Glyph)]) -> Vec<Brush> {
    let mut brushes: Vec<Brush> = BUILT_IN
        .iter()
        .filter_map(|&(ch, label)| {
            Some(Brush {
                ch,
                label: label.to_owned(),
                kind: built_in(ch)?.into(),
            })
        })
        .collect();
    for (ch, glyph) in legend {
        let what = match glyph {
            Glyph::Tile(Tile::Wall) => "wall".to_owned(),
            Glyph::Tile(Tile::Floor) => "floor".to_owned(),
            Glyph::Tile(Tile::Void) => "void".to_owned(),
            Glyph::Coin => "loose coin".to_owned(),
            Glyph::Player => "player start".to_owned(),
            Glyph::Crate { health, skin, coin } => {
                let coin = if *coin { ", coin" } else { "" };
                format!("{skin}, {health} hp{coin}")
            }
        };
        brushes.push(Brush {
            ch: *ch,
            label: format!(
                "{}: {what}",
                crate::level::escape_for_display(&format!("'{ch}'"))
            ),
            kind: glyph.clone().into(),
        });
    }
    brushes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_character_has_a_brush_in_palette_order() {
        let brushes = palette(&[]);
        let chars: String = brushes.iter().map(|b| b.ch).collect();
        assert_eq!(chars, "#. cC$o@k");
        assert_eq!(brushes[7].kind, BrushKind::Player);
        assert_eq!(
            brushes[8].kind,
            BrushKind::Crate {
                skin: "keg".to_owned(),
                health: 1,
                coin: false
            }
        );
    }
}
