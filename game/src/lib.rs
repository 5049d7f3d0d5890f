//! Crate Room: a top-down crate-smashing game on the `ecs` crate.
//!
//! The simulation ([`sim`]), the level format ([`level`]) and the atlas's frame table
//! ([`atlas`]) never touch macroquad; only the window side ([`app`], [`debug`]) does.

pub mod app;
pub mod atlas;
pub mod debug;
pub mod headless;
pub mod input;
pub mod level;
pub mod paths;
pub mod sim;
