//! How strong a crate is, shown before the first hit: a row of pips along its bottom edge, one
//! per hit it still takes, each gold pip worth five; a crate of ten or more hits is also tinted
//! like iron. The game draws them over its crates, the editor over its crate cells (overrides
//! included), so an author sees what a player will.
//!
//! ```text
//!  hits   3      6       12        20
//!  pips   o o o  G o     G G o o   G G G G      (o one hit, G five)
//! ```
//!
//! Pips are queued into the [`Hud`] in screen space (its panels are one batch), so the world
//! pass keeps its draw calls.

use macroquad::prelude::{Color, Rect};

use crate::window::ui::Hud;

/// Hits a gold pip stands for.
pub const GOLD_PIP: u32 = 5;

/// The most pips in a row: a crate of more hits (over [`GOLD_PIP`] x 5 with the rest) shows
/// its number instead.
const MOST_PIPS: usize = 5;

/// Crates of at least this many hits are tinted ([`IRON`]).
pub const IRON_HITS: u32 = 10;

/// The tint of an iron-strong crate's sprite: colder and darker than wood.
pub const IRON: Color = Color::new(0.78, 0.84, 1.0, 1.0);

/// What a crate of `hits` hits left shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Marks {
    /// A row of pips, left to right: `true` a gold pip (five hits), `false` one hit.
    Pips(Vec<bool>),
    /// Too many for a row: the number.
    Number(u32),
}

/// The marks of a crate with `hits` hits left.
pub fn marks(hits: u32) -> Marks {
    let gold = (hits / GOLD_PIP) as usize;
    let ones = (hits % GOLD_PIP) as usize;
    if gold + ones > MOST_PIPS {
        return Marks::Number(hits);
    }
    let mut pips = vec![true; gold];
    pips.extend(std::iter::repeat_n(false, ones));
    Marks::Pips(pips)
}

/// The colour a pip of five hits is filled with: a gold of its own, apart from the HUD's
/// text and the medals.
pub const FIVE: Color = Color::new(0.98, 0.74, 0.18, 1.0);

/// The colour a pip of one hit is filled with.
const ONE: Color = Color::new(0.97, 0.94, 0.84, 1.0);
/// The outline round every pip, so it reads on wood and on iron.
const RIM: Color = Color::new(0.12, 0.08, 0.06, 1.0);

/// Queue the marks of a crate with `hits` hits left whose sprite covers `sprite` on the screen
/// (`scale` screen pixels per art pixel).
pub fn queue(hud: &mut Hud, sprite: Rect, hits: u32, scale: f32) {
    let pip = (2.0 * scale).round().max(3.0);
    let gap = scale.round().max(1.0);
    let bottom = sprite.y + sprite.h - 2.0 * scale;
    match marks(hits) {
        Marks::Pips(pips) => {
            let n = pips.len() as f32;
            let width = n * pip + (n - 1.0) * gap;
            let left = (sprite.x + (sprite.w - width) / 2.0).round();
            let top = (bottom - pip).round();
            for (i, gold) in pips.into_iter().enumerate() {
                let x = left + i as f32 * (pip + gap);
                hud.panel(Rect::new(x - 1.0, top - 1.0, pip + 2.0, pip + 2.0), RIM);
                let fill = if gold { FIVE } else { ONE };
                hud.panel(Rect::new(x, top, pip, pip), fill);
            }
        }
        Marks::Number(n) => {
            let size = (5.0 * scale).max(10.0);
            let text = n.to_string();
            let w = macroquad::prelude::measure_text(&text, None, size as u16, 1.0).width;
            let x = (sprite.x + (sprite.w - w) / 2.0).round();
            hud.panel(
                Rect::new(x - 2.0, bottom - size * 0.8, w + 4.0, size * 0.9),
                RIM,
            );
            hud.text(text, x, bottom - size * 0.05, size, FIVE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Marks, marks};

    #[test]
    fn pips_count_hits_in_ones_and_fives_and_a_number_past_a_row() {
        assert_eq!(marks(3), Marks::Pips(vec![false, false, false]));
        assert_eq!(marks(6), Marks::Pips(vec![true, false]));
        assert_eq!(marks(12), Marks::Pips(vec![true, true, false, false]));
        assert_eq!(marks(20), Marks::Pips(vec![true, true, true, true]));
        assert_eq!(marks(24), Marks::Number(24));
        assert_ne!(
            marks(20),
            marks(6),
            "the Vault's door reads apart from its ring"
        );
    }
}
