//! Crate Room: a top-down crate-smashing game.

pub mod level;
