//! The window layer: the only code that uses macroquad, miniquad or egui. It opens the window,
//! reads the keyboard, mouse and gamepads into the headless core's input types, and draws what
//! the core holds. The window's configuration ([`window_conf`]) is here, shared by the command
//! line's start (`launch`) and the browser's (`web`).

pub(crate) mod app;
pub mod debug;
pub(crate) mod editor;
pub mod egui_bridge;
pub mod platform;
pub mod ui;
#[cfg(target_arch = "wasm32")]
pub mod web;

// The command line (clap's) and its checks before a window opens: a page has none, URL
// parameters stand in (`web`); `platform` lists what else the browser leaves out.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod display;
#[cfg(not(target_arch = "wasm32"))]
pub mod launch;
#[cfg(not(target_arch = "wasm32"))]
pub mod play_args;

/// The window as the options ask for it (in a browser the size is the page's).
pub(crate) fn window_conf(width: i32, height: i32, vsync: bool) -> macroquad::conf::Conf {
    macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: "Crate Room".to_owned(),
            window_width: width,
            window_height: height,
            window_resizable: true,
            platform: macroquad::miniquad::conf::Platform {
                swap_interval: Some(i32::from(vsync)),
                ..Default::default()
            },
            ..Default::default()
        },
        // Room for a whole screen of sprites in one batch: 10,000 quads (u16 indices cap a
        // batch at 65,536 vertices).
        draw_call_vertex_capacity: 40_000,
        draw_call_index_capacity: 60_000,
        ..Default::default()
    }
}
