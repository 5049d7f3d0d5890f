//! Key colours of the generated art, light coming from the top-left.
//!
//! Each material has a base colour plus a light and a dark ramp step; outlines share one
//! near-black purple so every sprite sits in the same palette. The `*_BASE` constants are what
//! screenshot tests look for, so each is used by exactly one kind of sprite.

/// RGB colour.
pub type Rgb = [u8; 3];

/// Outline of every sprite.
pub const OUTLINE: Rgb = [34, 28, 42];

pub const FLOOR_BASE: Rgb = [88, 82, 96];
pub const FLOOR_LIGHT: Rgb = [108, 102, 116];
pub const FLOOR_DARK: Rgb = [68, 62, 78];
pub const FLOOR_SEAM: Rgb = [52, 46, 62];
pub const MOSS: Rgb = [86, 122, 66];
pub const MOSS_LIGHT: Rgb = [122, 156, 82];

pub const WALL_BASE: Rgb = [146, 78, 64];
pub const WALL_LIGHT: Rgb = [184, 108, 84];
pub const WALL_DARK: Rgb = [104, 52, 50];
pub const WALL_TOP: Rgb = [206, 148, 112];
pub const MORTAR: Rgb = [64, 50, 60];

pub const CRATE_BASE: Rgb = [196, 124, 58];
pub const CRATE_LIGHT: Rgb = [230, 166, 92];
pub const CRATE_DARK: Rgb = [142, 82, 40];
pub const CRATE_EDGE: Rgb = [96, 54, 34];
pub const NAIL: Rgb = [208, 204, 190];

pub const IRON_BASE: Rgb = [102, 110, 128];
pub const IRON_LIGHT: Rgb = [162, 172, 188];
pub const IRON_DARK: Rgb = [60, 64, 82];

/// The player's tunic: the only saturated blue in the atlas.
pub const PLAYER_BASE: Rgb = [40, 96, 222];
pub const PLAYER_LIGHT: Rgb = [92, 150, 250];
pub const PLAYER_DARK: Rgb = [26, 56, 150];
pub const SKIN: Rgb = [242, 190, 144];
pub const SKIN_DARK: Rgb = [204, 138, 104];
pub const HAIR: Rgb = [112, 64, 44];
pub const HAIR_LIGHT: Rgb = [150, 92, 56];
pub const LEATHER: Rgb = [84, 56, 46];
pub const HANDLE: Rgb = [160, 104, 56];

pub const COIN_BASE: Rgb = [248, 196, 48];
pub const COIN_LIGHT: Rgb = [255, 240, 150];
pub const COIN_DARK: Rgb = [198, 128, 28];

pub const SLASH_WHITE: Rgb = [255, 255, 240];
pub const SLASH_YELLOW: Rgb = [255, 224, 110];

pub const DUST: Rgb = [214, 202, 184];
pub const DUST_DARK: Rgb = [166, 150, 136];

/// Shadow colour; its alpha comes from the shadow sprite itself.
pub const SHADOW: Rgb = [20, 14, 28];

pub const KEG_RED: Rgb = [178, 40, 36];
pub const KEG_RED_LIGHT: Rgb = [222, 74, 52];
pub const FUSE: Rgb = [46, 40, 38];

pub const FIRE_WHITE: Rgb = [255, 250, 226];
pub const FIRE_YELLOW: Rgb = [255, 214, 90];
pub const FIRE_ORANGE: Rgb = [244, 128, 40];
pub const FIRE_RED: Rgb = [190, 52, 30];
pub const SMOKE: Rgb = [86, 80, 92];
pub const SMOKE_LIGHT: Rgb = [128, 120, 130];
