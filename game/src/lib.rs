//! Crate Room: a top-down crate-smashing game on the `ecs` crate.
//!
//! The simulation ([`sim`]), the level format ([`level`]), the atlas's frame table ([`atlas`])
//! and the sound effects ([`sfx`]) never touch macroquad; only the window side ([`app`],
//! [`debug`]) does.

pub mod app;
pub mod atlas;
pub mod debug;
pub mod headless;
pub mod level;
pub mod paths;
pub mod sfx;
pub mod sim;
