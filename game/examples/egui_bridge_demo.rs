//! Demo of the egui bridge: a stand-in game scene with an egui window and puffin's profiler on top.
//!
//! ```text
//! cargo run -p game --example egui_bridge_demo
//! cargo run -p game --example egui_bridge_demo -- --screenshot shot.png --frames 60
//! ```
//!
//! With `--screenshot` the demo saves the screen after `--frames` frames (default 30) and exits.

use anyhow::Context as _;
use game::window::egui_bridge::EguiBridge;
use macroquad::prelude::*;

const DEFAULT_SCREENSHOT_FRAMES: u32 = 30;

/// Command line options of the demo.
#[derive(Debug)]
struct Args {
    screenshot: Option<String>,
    frames: u32,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        screenshot: None,
        frames: DEFAULT_SCREENSHOT_FRAMES,
    };
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        match word.as_str() {
            "--screenshot" => {
                args.screenshot = Some(words.next().ok_or("--screenshot needs a file path")?);
            }
            "--frames" => {
                let count = words.next().ok_or("--frames needs a number")?;
                args.frames = count
                    .parse()
                    .map_err(|_| format!("--frames needs a number, got {count:?}"))?;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(args)
}

fn conf() -> Conf {
    Conf {
        window_title: "Crate Room: egui bridge demo".to_owned(),
        window_width: 1280,
        window_height: 720,
        ..Default::default()
    }
}

fn main() {
    // Parsed before the window opens, so a typo fails fast even without a display.
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("egui_bridge_demo: {message}");
            std::process::exit(2);
        }
    };
    macroquad::Window::from_config(conf(), run(args));
}

async fn run(args: Args) {
    puffin::set_scopes_on(true);
    let mut bridge = EguiBridge::new();
    let mut clicks = 0u32;
    let mut game_clicks = 0u32;
    let mut frame = 0u32;

    loop {
        puffin::GlobalProfiler::lock().new_frame();

        {
            puffin::profile_scope!("game_update");
            simulate_work();
        }
        {
            puffin::profile_scope!("game_draw");
            draw_game(get_time() as f32);
        }
        {
            puffin::profile_scope!("egui_run");
            bridge.run(|ctx| {
                // Frameless text straight over the game: dark fringes would show here first.
                egui::Area::new(egui::Id::new("caption"))
                    .fixed_pos([52.0, 60.0])
                    .show(ctx, |ui| {
                        ui.label(
                            egui::RichText::new("egui text over the game")
                                .size(22.0)
                                .color(egui::Color32::BLACK),
                        );
                        ui.label(
                            egui::RichText::new("half-transparent white")
                                .size(22.0)
                                .color(egui::Color32::from_white_alpha(128)),
                        );
                    });
                egui::Window::new("Crate Room debug")
                    .default_pos([420.0, 40.0])
                    .default_size([820.0, 560.0])
                    .show(ctx, |ui| {
                        ui.label(format!(
                            "Frame {frame}, {} fps, {game_clicks} clicks on the game",
                            get_fps()
                        ));
                        if ui.button(format!("Clicked {clicks} times")).clicked() {
                            clicks += 1;
                        }
                        ui.separator();
                        puffin_egui::profiler_ui(ui);
                    });
            });
        }
        // The game only reacts to clicks egui did not take.
        if is_mouse_button_pressed(MouseButton::Left) && !bridge.wants_pointer_input() {
            game_clicks += 1;
        }
        {
            puffin::profile_scope!("egui_draw");
            bridge.draw();
        }

        frame += 1;
        if let Some(path) = &args.screenshot
            && frame >= args.frames
        {
            match save_screenshot(path) {
                Ok(()) => println!("saved {path}"),
                Err(error) => {
                    eprintln!("egui_bridge_demo: {error:#}");
                    std::process::exit(1);
                }
            }
            break;
        }
        next_frame().await;
    }
}

/// Stand-in for game logic: nested scopes with a little real work, so the flamegraph has depth.
fn simulate_work() {
    for system in ["movement", "collision", "collision_grid"] {
        puffin::profile_scope!("system", system);
        let mut accumulator = 0u64;
        for i in 0..200_000u64 {
            accumulator = accumulator.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(accumulator);
    }
}

/// Draw the stand-in game: a few bright shapes so blending and clipping are easy to judge.
fn draw_game(time: f32) {
    clear_background(Color::from_rgba(38, 70, 83, 255));
    draw_rectangle(
        40.0,
        40.0,
        300.0,
        200.0,
        Color::from_rgba(233, 196, 106, 255),
    );
    draw_circle(200.0, 420.0, 120.0, Color::from_rgba(231, 111, 81, 255));
    draw_triangle(
        vec2(900.0, 560.0),
        vec2(1240.0, 700.0),
        vec2(760.0, 700.0),
        Color::from_rgba(42, 157, 143, 255),
    );
    draw_rectangle(1000.0, 20.0, 260.0, 300.0, WHITE);
    let crate_x = 60.0 + (time * 2.0).sin() * 20.0;
    draw_rectangle_lines(crate_x, 600.0, 80.0, 80.0, 6.0, BROWN);
    draw_text("the game", 40.0, 290.0, 40.0, BLACK);
}

/// Save the current screen as an RGBA PNG, top row first.
fn save_screenshot(path: &str) -> anyhow::Result<()> {
    let image = get_screen_data();
    // get_screen_data reads the framebuffer, which stores the bottom row first.
    let row_len = usize::from(image.width) * 4;
    let top_down: Vec<u8> = image
        .bytes
        .chunks_exact(row_len)
        .rev()
        .flatten()
        .copied()
        .collect();

    let file = std::fs::File::create(path).with_context(|| format!("creating {path}"))?;
    let mut encoder = png::Encoder::new(
        std::io::BufWriter::new(file),
        u32::from(image.width),
        u32::from(image.height),
    );
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .with_context(|| format!("writing {path}"))?;
    writer
        .write_image_data(&top_down)
        .with_context(|| format!("writing {path}"))?;
    writer.finish().with_context(|| format!("writing {path}"))?;
    Ok(())
}
