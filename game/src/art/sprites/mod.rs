//! The sprites themselves. Every function returns 16x16 canvases; light comes from the top-left.
//!
//! Characters are painted from small character templates (one letter per palette entry) and
//! outlined automatically, so silhouettes stay closed however parts are combined.

mod basics;
mod crates;
mod effects;
mod keg;
mod pickups;
mod player;
mod tiles;

use super::sheet::SheetBuilder;
use crate::atlas::clip_names::{self, Facing};
use crates::{Skin, crate_clips};
use effects::debris;
use keg::keg_lit;
use pickups::coin;
use player::{player, shadow, slash};
use tiles::{floor, wall};

/// Draw every clip the game uses, in atlas order.
pub(super) fn draw_all(sheet: &mut SheetBuilder) {
    for facing in Facing::ALL {
        sheet.new_row();
        player(sheet, facing);
        // Two frames of 2 steps: on screen for exactly the swing's 4 live steps.
        sheet.clip(&clip_names::slash(facing), slash(facing), 2.0 / 60.0, false);
    }
    for skin in [Skin::Plain, Skin::Strong, Skin::Keg] {
        sheet.new_row();
        crate_clips(sheet, skin);
    }
    sheet.clip(clip_names::KEG_LIT, keg_lit(), 0.05, true);
    sheet.clip(clip_names::DEBRIS, debris(), 0.08, true);
    sheet.clip(clip_names::SHADOW, vec![shadow()], 1.0, true);
    sheet.new_row();
    sheet.clip(clip_names::COIN, coin(), 0.1, true);
    for variant in 0..clip_names::FLOOR_VARIANTS {
        sheet.clip(&clip_names::floor(variant), vec![floor(variant)], 1.0, true);
    }
    for variant in 0..clip_names::WALL_VARIANTS {
        sheet.clip(&clip_names::wall(variant), vec![wall(variant)], 1.0, true);
    }
}
