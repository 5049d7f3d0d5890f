//! Crate Room: a top-down crate-smashing game on the `ecs` crate.
//!
//! The simulation ([`sim`]), the level format ([`level`]) and the atlas's frame table
//! ([`atlas`]) never touch macroquad, nor do best times ([`records`]) or hit-stop and shake
//! ([`feel`]); only the window side ([`app`], [`debug`], [`ui`], [`egui_bridge`]) does.

pub mod app;
pub mod atlas;
pub mod debug;
pub mod egui_bridge;
pub mod feel;
pub mod headless;
pub mod input;
pub mod level;
pub mod paths;
pub mod records;
pub mod sim;
pub mod ui;
