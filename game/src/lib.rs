//! Crate Room: a top-down crate-smashing game on the `ecs` crate.
//!
//! The simulation ([`sim`]), the level format ([`level`]), the level editor's model
//! ([`editor`]), the atlas's frame table ([`atlas`]), the sound effects ([`sfx`]), best times
//! ([`records`]), replays ([`replay`]) hit-stop and shake ([`feel`]) and line rasterising ([`raster`]) never touch macroquad; only the window side ([`app`], [`debug`], [`ui`], [`egui_bridge`]) does.

pub mod app;
pub mod atlas;
pub mod campaign;
pub mod datafile;
pub mod debug;
pub mod display;
pub mod editor;
pub mod egui_bridge;
pub mod feel;
pub mod fsutil;
pub mod headless;
pub mod input;
mod input_line;
pub mod level;
pub mod medals;
pub mod menu;
pub mod pad;
pub mod paths;
pub mod progress;
pub mod raster;
pub mod records;
pub mod replay;
pub mod settings;
pub mod sfx;
pub mod sim;
pub mod ui;
