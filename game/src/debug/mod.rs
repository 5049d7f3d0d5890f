//! Developer overlays drawn on top of the game: the egui bridge and what runs inside it.

pub mod egui_bridge;
