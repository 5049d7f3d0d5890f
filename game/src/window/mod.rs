//! The window layer: the only code that uses macroquad, miniquad or egui. It opens the window,
//! reads the keyboard, mouse and gamepads into the headless core's input types, and draws what
//! the core holds.

pub mod app;
pub mod debug;
pub mod display;
pub mod editor;
pub mod egui_bridge;
pub mod ui;
