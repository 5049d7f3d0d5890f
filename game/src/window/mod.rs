//! The window layer: the only code that uses macroquad, miniquad or egui. It opens the window,
//! reads the keyboard, mouse and gamepads into the headless core's input types, and draws what
//! the core holds.

pub(crate) mod app;
pub mod debug;
pub(crate) mod display;
pub(crate) mod editor;
pub mod egui_bridge;
pub mod launch;
pub mod platform;
pub mod play_args;
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;
