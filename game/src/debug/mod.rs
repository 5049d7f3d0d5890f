//! Developer overlays drawn on top of the game: which views are on, the overlay that draws
//! them, and the egui bridge the profiler window runs in.

pub mod egui_bridge;
pub mod overlay;
pub mod views;
