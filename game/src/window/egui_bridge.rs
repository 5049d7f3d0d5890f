//! Bridge that runs egui 0.33 inside a macroquad 0.4 frame and paints its output on top of the
//! game.
//!
//! This is the one piece of hand-written glue in the game that no published crate provides: the
//! `egui-macroquad` crates on crates.io target older egui and macroquad releases, and none builds
//! against egui 0.33 with macroquad 0.4.16 (the versions in the workspace `Cargo.toml`). It is
//! kept general (nothing in it knows the game) so it can be lifted out as it is. Its surface is
//! [`EguiBridge::new`], [`EguiBridge::run`], [`EguiBridge::draw`], [`EguiBridge::context`],
//! [`EguiBridge::wants_pointer_input`] and [`EguiBridge::wants_keyboard_input`]; the rest is
//! private.
//!
//! # Data flow of one frame
//!
//! ```text
//!  run(ui)   macroquad input ─────────> egui::RawInput ──ctx.run(ui)──> FullOutput
//!            (mouse, wheel, keys, chars,                                 ├─ textures_delta (kept)
//!             screen size in points)                                     └─ shapes         (kept)
//!
//!  draw()    1. textures_delta.set  ──> create / patch Texture2D   (before any mesh is queued)
//!            2. ctx.tessellate(shapes) ──> ClippedPrimitive meshes  (positions in points)
//!            3. per primitive: clip camera + draw_mesh chunks       (premultiplied blending)
//!            4. set_default_camera() flushes the batch, then textures_delta.free drops textures
//! ```
//!
//! # Rules this module keeps
//!
//! - **Premultiplied alpha.** egui's vertex colours and texels are premultiplied sRGB bytes, so the
//!   material blends with `(One, OneMinusSrcAlpha)`. macroquad's default `(SrcAlpha, ...)`
//!   would multiply by alpha a second time and leave dark fringes around every glyph. Colours
//!   stay in gamma space end to end because macroquad's framebuffer is not sRGB.
//! - **Texture deltas.** `set` is applied before painting because this frame's meshes may already
//!   sample new glyphs; a delta with `pos` patches a sub-rectangle of an existing texture, one
//!   without replaces the whole texture. `free` is applied after painting because this frame's
//!   meshes may still sample a texture that egui has just released.
//! - **Clipping without `unsafe`.** The workspace forbids `unsafe`, which rules out
//!   `get_internal_gl().quad_gl.scissor(..)`. Each clip rectangle instead becomes a camera whose
//!   viewport *is* the scissor rectangle and whose projection maps exactly that rectangle to clip
//!   space. GL clips triangles to the clip volume, i.e. to the viewport, which is a scissor for
//!   the triangle meshes egui emits.
//! - **Batch capacity.** macroquad truncates any `draw_mesh` larger than its per-draw-call
//!   capacity (5000 indices with the default `Conf`), so meshes are split into smaller chunks.
//!   A game that lowers `draw_call_index_capacity` below 5000 will see truncated egui meshes.
//!
//! Units: macroquad's logical pixels times `screen_dpi_scale()` are physical pixels; egui points
//! times `pixels_per_point` (dpi scale times egui's zoom factor) are physical pixels.
//!
//! # Example
//!
//! ```no_run
//! use game::window::egui_bridge::EguiBridge;
//! use macroquad::prelude::*;
//!
//! # async fn game_loop() {
//! let mut egui = EguiBridge::new(); // after the window exists, i.e. inside the macroquad main
//! loop {
//!     egui.run(|ctx| {
//!         egui::Window::new("Debug").show(ctx, |ui| ui.label("hello"));
//!     });
//!     if is_mouse_button_pressed(MouseButton::Left) && !egui.wants_pointer_input() {
//!         // the click is the game's
//!     }
//!     clear_background(DARKGRAY); // ... the game's own drawing ...
//!     egui.draw(); // last, on top of everything
//!     next_frame().await;
//! }
//! # }
//! ```

use std::collections::HashMap;

use egui::epaint::{ClippedPrimitive, ClippedShape, ImageData, ImageDelta, Primitive};
use egui::{OutputCommand, TextureFilter, TextureId};
use macroquad::camera::{Camera, set_camera, set_default_camera};
use macroquad::input::{
    KeyCode, MouseButton, get_char_pressed, get_keys_pressed, get_keys_released, is_key_down,
    is_mouse_button_pressed, is_mouse_button_released, mouse_position, mouse_wheel,
};
use macroquad::material::{
    Material, MaterialParams, gl_use_default_material, gl_use_material, load_material,
};
use macroquad::math::{Mat4, Vec2, Vec3, Vec4};
use macroquad::miniquad::{
    self, BlendFactor, BlendState, BlendValue, Equation, PipelineParams, ShaderSource,
};
use macroquad::models::{Mesh, Vertex, draw_mesh};
use macroquad::texture::{FilterMode, Image, RenderPass, Texture2D};
use macroquad::time::{get_frame_time, get_time};
use macroquad::window::screen_dpi_scale;

/// Largest index count per `draw_mesh`: macroquad's default `Conf` allows 5000 indices per draw
/// call (10000 vertices), rounded down to whole triangles. A chunk never has more distinct
/// vertices than indices, so the vertex capacity cannot be exceeded either.
const MAX_CHUNK_INDICES: usize = 5000 / 3 * 3;

/// Raw wheel units per line of scrolling: Windows reports `WHEEL_DELTA` (120) per notch, X11,
/// Wayland and the web report one unit per notch.
const WHEEL_UNITS_PER_LINE: f32 = if cfg!(windows) { 120.0 } else { 1.0 };

const VERTEX_SHADER: &str = r#"#version 100
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;

varying lowp vec4 v_color;
varying mediump vec2 v_uv;

uniform mat4 Model;
uniform mat4 Projection;

void main() {
    gl_Position = Projection * Model * vec4(position, 1.0);
    v_color = color0 / 255.0;
    v_uv = texcoord;
}
"#;

const FRAGMENT_SHADER: &str = r#"#version 100
varying lowp vec4 v_color;
varying mediump vec2 v_uv;

uniform sampler2D Texture;

void main() {
    gl_FragColor = v_color * texture2D(Texture, v_uv);
}
"#;

/// egui context plus the GPU textures backing its texture ids, driven by macroquad.
///
/// Call [`run`](Self::run) once per frame after the game has read its input, and
/// [`draw`](Self::draw) after the game has drawn, before `next_frame().await`.
pub struct EguiBridge {
    ctx: egui::Context,
    material: Material,
    textures: HashMap<TextureId, Texture2D>,
    shapes: Vec<ClippedShape>,
    textures_delta: egui::TexturesDelta,
    pixels_per_point: f32,
    last_pointer: Option<egui::Pos2>,
}

impl std::fmt::Debug for EguiBridge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EguiBridge")
            .field("textures", &self.textures.len())
            .field("pending_shapes", &self.shapes.len())
            .field("pixels_per_point", &self.pixels_per_point)
            .finish_non_exhaustive()
    }
}

impl Default for EguiBridge {
    fn default() -> Self {
        Self::new()
    }
}

impl EguiBridge {
    /// Create a bridge with a fresh egui context.
    ///
    /// # Panics
    /// When called outside a running macroquad window, or if the built-in shader fails to
    /// compile (a bug in this module, not a user error).
    pub fn new() -> Self {
        let material = load_material(
            ShaderSource::Glsl {
                vertex: VERTEX_SHADER,
                fragment: FRAGMENT_SHADER,
            },
            MaterialParams {
                pipeline_params: premultiplied_alpha_pipeline(),
                ..Default::default()
            },
        )
        .expect("egui bridge shader must compile");
        Self {
            ctx: egui::Context::default(),
            material,
            textures: HashMap::new(),
            shapes: Vec::new(),
            textures_delta: egui::TexturesDelta::default(),
            pixels_per_point: screen_dpi_scale(),
            last_pointer: None,
        }
    }

    /// The egui context, for styling or memory access outside [`run`](Self::run).
    pub fn context(&self) -> &egui::Context {
        &self.ctx
    }

    /// Feed this frame's macroquad input to egui, run `ui`, and keep the output for
    /// [`draw`](Self::draw).
    ///
    /// Typed characters are drained from macroquad's `get_char_pressed` queue, so the game
    /// should not read that queue itself while the bridge runs.
    pub fn run(&mut self, ui: impl FnMut(&egui::Context)) {
        puffin::profile_function!();
        let raw_input = self.gather_input();
        let output = self.ctx.run(raw_input, ui);
        for command in output.platform_output.commands {
            if let OutputCommand::CopyText(text) = command {
                miniquad::window::clipboard_set(&text);
            }
        }
        self.shapes = output.shapes;
        self.pixels_per_point = output.pixels_per_point;
        // Appended rather than replaced: if `draw` was skipped, older deltas still matter.
        self.textures_delta.append(output.textures_delta);
    }

    /// Paint the output of the last [`run`](Self::run) over whatever the game drew.
    ///
    /// Leaves macroquad with the default camera and default material.
    pub fn draw(&mut self) {
        puffin::profile_function!();
        let delta = std::mem::take(&mut self.textures_delta);
        for (id, image_delta) in &delta.set {
            self.set_texture(*id, image_delta);
        }

        let pixels_per_point = self.pixels_per_point;
        let primitives = {
            puffin::profile_scope!("tessellate");
            self.ctx
                .tessellate(std::mem::take(&mut self.shapes), pixels_per_point)
        };
        let (width_px, height_px) = miniquad::window::screen_size();
        let screen_px = [width_px as u32, height_px as u32];

        puffin::profile_scope!("paint", format!("{} primitives", primitives.len()));
        gl_use_material(&self.material);
        for ClippedPrimitive {
            clip_rect,
            primitive,
        } in &primitives
        {
            // Paint callbacks need raw GL access, which this bridge does not offer.
            let Primitive::Mesh(mesh) = primitive else {
                continue;
            };
            let Some(texture) = self.textures.get(&mesh.texture_id) else {
                continue;
            };
            let Some(scissor) = scissor_rect(*clip_rect, pixels_per_point, screen_px) else {
                continue;
            };
            set_camera(&ClipCamera {
                viewport: gl_viewport(scissor, screen_px[1]),
                projection: clip_projection(scissor, pixels_per_point),
            });
            for chunk in split_mesh(&mesh.indices, mesh.vertices.len(), MAX_CHUNK_INDICES) {
                let vertices = chunk
                    .vertices
                    .iter()
                    .map(|&index| to_macroquad_vertex(&mesh.vertices[index as usize]))
                    .collect();
                draw_mesh(&Mesh {
                    vertices,
                    indices: chunk.indices,
                    texture: Some(texture.clone()),
                });
            }
        }
        gl_use_default_material();
        {
            puffin::profile_scope!("flush");
            // Also flushes the queued egui draw calls, so freeing textures below is safe.
            set_default_camera();
        }

        for id in &delta.free {
            self.textures.remove(id);
        }
    }

    /// Whether egui is using the pointer (hovering a window, dragging), so the game should
    /// ignore this frame's mouse input. Reflects the last [`run`](Self::run).
    pub fn wants_pointer_input(&self) -> bool {
        self.ctx.wants_pointer_input()
    }

    /// Whether an egui widget has keyboard focus, so the game should ignore key presses.
    /// Reflects the last [`run`](Self::run).
    pub fn wants_keyboard_input(&self) -> bool {
        self.ctx.wants_keyboard_input()
    }

    fn gather_input(&mut self) -> egui::RawInput {
        let dpi_scale = screen_dpi_scale();
        let pixels_per_point = dpi_scale * self.ctx.zoom_factor();
        let points_per_logical_pixel = dpi_scale / pixels_per_point;
        let modifiers = current_modifiers();
        let mut events = Vec::new();

        let (mouse_x, mouse_y) = mouse_position();
        let pointer = egui::pos2(mouse_x, mouse_y) * points_per_logical_pixel;
        if self.last_pointer != Some(pointer) {
            events.push(egui::Event::PointerMoved(pointer));
            self.last_pointer = Some(pointer);
        }
        for button in [MouseButton::Left, MouseButton::Right, MouseButton::Middle] {
            let Some(egui_button) = pointer_button(button) else {
                continue;
            };
            for (happened, pressed) in [
                (is_mouse_button_pressed(button), true),
                (is_mouse_button_released(button), false),
            ] {
                if happened {
                    events.push(egui::Event::PointerButton {
                        pos: pointer,
                        button: egui_button,
                        pressed,
                        modifiers,
                    });
                }
            }
        }
        if let Some(delta) = wheel_lines(mouse_wheel()) {
            events.push(egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Line,
                delta,
                modifiers,
            });
        }

        for (keys, pressed) in [(get_keys_pressed(), true), (get_keys_released(), false)] {
            for key in keys.into_iter().filter_map(egui_key) {
                if pressed && modifiers.command {
                    match key {
                        egui::Key::C => events.push(egui::Event::Copy),
                        egui::Key::X => events.push(egui::Event::Cut),
                        egui::Key::V => {
                            if let Some(text) = miniquad::window::clipboard_get() {
                                events.push(egui::Event::Paste(text));
                            }
                        }
                        _ => {}
                    }
                }
                events.push(egui::Event::Key {
                    key,
                    physical_key: None,
                    pressed,
                    repeat: false,
                    modifiers,
                });
            }
        }

        let mut text = String::new();
        while let Some(character) = get_char_pressed() {
            // Ctrl+letter is a shortcut, not typing; AltGr arrives as Ctrl+Alt and is typing.
            if is_typed_text(character) && (!modifiers.command || modifiers.alt) {
                text.push(character);
            }
        }
        if !text.is_empty() {
            events.push(egui::Event::Text(text));
        }

        let (width_px, height_px) = miniquad::window::screen_size();
        let mut raw_input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(width_px, height_px) / pixels_per_point,
            )),
            time: Some(get_time()),
            predicted_dt: get_frame_time(),
            modifiers,
            events,
            ..Default::default()
        };
        raw_input
            .viewports
            .entry(raw_input.viewport_id)
            .or_default()
            .native_pixels_per_point = Some(dpi_scale);
        raw_input
    }

    fn set_texture(&mut self, id: TextureId, delta: &ImageDelta) {
        let ImageData::Color(image) = &delta.image;
        let [width, height] = image.size;
        let (Ok(width), Ok(height)) = (u16::try_from(width), u16::try_from(height)) else {
            macroquad::logging::warn!("egui texture {id:?} is too large: {width}x{height}");
            return;
        };
        let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
        match delta.pos {
            None => {
                let texture = Texture2D::from_rgba8(width, height, &bytes);
                texture.set_filter(filter_mode(delta.options.magnification));
                self.textures.insert(id, texture);
            }
            Some([x, y]) => {
                // egui only patches textures it created earlier; a missing one means a delta
                // was lost, and drawing without it is the best we can do.
                let Some(texture) = self.textures.get(&id) else {
                    return;
                };
                let patch = Image {
                    bytes,
                    width,
                    height,
                };
                texture.update_part(
                    &patch,
                    x as i32,
                    y as i32,
                    i32::from(width),
                    i32::from(height),
                );
            }
        }
    }
}

/// Camera that turns one clip rectangle into the whole render target, so GL's clip-volume
/// clipping acts as a scissor.
struct ClipCamera {
    viewport: (i32, i32, i32, i32),
    projection: Mat4,
}

impl Camera for ClipCamera {
    fn matrix(&self) -> Mat4 {
        self.projection
    }

    fn depth_enabled(&self) -> bool {
        false
    }

    fn render_pass(&self) -> Option<RenderPass> {
        None
    }

    fn viewport(&self) -> Option<(i32, i32, i32, i32)> {
        Some(self.viewport)
    }
}

/// Rectangle in physical pixels with the origin at the top-left corner, y down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PixelRect {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

/// One `draw_mesh` worth of an egui mesh: `vertices` index the source mesh's vertex list,
/// `indices` index `vertices`.
#[derive(Debug, Default)]
struct MeshChunk {
    vertices: Vec<u32>,
    indices: Vec<u16>,
}

fn premultiplied_alpha_pipeline() -> PipelineParams {
    let one_minus_src_alpha = BlendFactor::OneMinusValue(BlendValue::SourceAlpha);
    PipelineParams {
        color_blend: Some(BlendState::new(
            Equation::Add,
            BlendFactor::One,
            one_minus_src_alpha,
        )),
        // Destination alpha accumulates coverage the same way, so screenshots stay opaque.
        alpha_blend: Some(BlendState::new(
            Equation::Add,
            BlendFactor::One,
            one_minus_src_alpha,
        )),
        ..Default::default()
    }
}

fn current_modifiers() -> egui::Modifiers {
    let either = |left, right| is_key_down(left) || is_key_down(right);
    let ctrl = either(KeyCode::LeftControl, KeyCode::RightControl);
    let mac_cmd = cfg!(target_os = "macos") && either(KeyCode::LeftSuper, KeyCode::RightSuper);
    egui::Modifiers {
        alt: either(KeyCode::LeftAlt, KeyCode::RightAlt),
        ctrl,
        shift: either(KeyCode::LeftShift, KeyCode::RightShift),
        mac_cmd,
        command: if cfg!(target_os = "macos") {
            mac_cmd
        } else {
            ctrl
        },
    }
}

fn to_macroquad_vertex(vertex: &egui::epaint::Vertex) -> Vertex {
    Vertex {
        position: Vec3::new(vertex.pos.x, vertex.pos.y, 0.0),
        uv: Vec2::new(vertex.uv.x, vertex.uv.y),
        color: vertex.color.to_array(),
        normal: Vec4::ZERO,
    }
}

fn filter_mode(filter: TextureFilter) -> FilterMode {
    match filter {
        TextureFilter::Nearest => FilterMode::Nearest,
        TextureFilter::Linear => FilterMode::Linear,
    }
}

/// Map a macroquad key to the egui key it means, if egui has one.
fn egui_key(key: KeyCode) -> Option<egui::Key> {
    use egui::Key as E;
    Some(match key {
        KeyCode::Up => E::ArrowUp,
        KeyCode::Down => E::ArrowDown,
        KeyCode::Left => E::ArrowLeft,
        KeyCode::Right => E::ArrowRight,
        KeyCode::Escape => E::Escape,
        KeyCode::Tab => E::Tab,
        KeyCode::Backspace => E::Backspace,
        KeyCode::Enter | KeyCode::KpEnter => E::Enter,
        KeyCode::Space => E::Space,
        KeyCode::Insert => E::Insert,
        KeyCode::Delete => E::Delete,
        KeyCode::Home => E::Home,
        KeyCode::End => E::End,
        KeyCode::PageUp => E::PageUp,
        KeyCode::PageDown => E::PageDown,
        KeyCode::Apostrophe => E::Quote,
        KeyCode::Comma => E::Comma,
        KeyCode::Minus | KeyCode::KpSubtract => E::Minus,
        KeyCode::Period | KeyCode::KpDecimal => E::Period,
        KeyCode::Slash | KeyCode::KpDivide => E::Slash,
        KeyCode::Semicolon => E::Semicolon,
        KeyCode::Equal | KeyCode::KpEqual => E::Equals,
        KeyCode::KpAdd => E::Plus,
        KeyCode::LeftBracket => E::OpenBracket,
        KeyCode::RightBracket => E::CloseBracket,
        KeyCode::Backslash => E::Backslash,
        KeyCode::GraveAccent => E::Backtick,
        KeyCode::Key0 | KeyCode::Kp0 => E::Num0,
        KeyCode::Key1 | KeyCode::Kp1 => E::Num1,
        KeyCode::Key2 | KeyCode::Kp2 => E::Num2,
        KeyCode::Key3 | KeyCode::Kp3 => E::Num3,
        KeyCode::Key4 | KeyCode::Kp4 => E::Num4,
        KeyCode::Key5 | KeyCode::Kp5 => E::Num5,
        KeyCode::Key6 | KeyCode::Kp6 => E::Num6,
        KeyCode::Key7 | KeyCode::Kp7 => E::Num7,
        KeyCode::Key8 | KeyCode::Kp8 => E::Num8,
        KeyCode::Key9 | KeyCode::Kp9 => E::Num9,
        KeyCode::A => E::A,
        KeyCode::B => E::B,
        KeyCode::C => E::C,
        KeyCode::D => E::D,
        KeyCode::E => E::E,
        KeyCode::F => E::F,
        KeyCode::G => E::G,
        KeyCode::H => E::H,
        KeyCode::I => E::I,
        KeyCode::J => E::J,
        KeyCode::K => E::K,
        KeyCode::L => E::L,
        KeyCode::M => E::M,
        KeyCode::N => E::N,
        KeyCode::O => E::O,
        KeyCode::P => E::P,
        KeyCode::Q => E::Q,
        KeyCode::R => E::R,
        KeyCode::S => E::S,
        KeyCode::T => E::T,
        KeyCode::U => E::U,
        KeyCode::V => E::V,
        KeyCode::W => E::W,
        KeyCode::X => E::X,
        KeyCode::Y => E::Y,
        KeyCode::Z => E::Z,
        KeyCode::F1 => E::F1,
        KeyCode::F2 => E::F2,
        KeyCode::F3 => E::F3,
        KeyCode::F4 => E::F4,
        KeyCode::F5 => E::F5,
        KeyCode::F6 => E::F6,
        KeyCode::F7 => E::F7,
        KeyCode::F8 => E::F8,
        KeyCode::F9 => E::F9,
        KeyCode::F10 => E::F10,
        KeyCode::F11 => E::F11,
        KeyCode::F12 => E::F12,
        _ => return None,
    })
}

/// Map a macroquad mouse button to egui's pointer button.
fn pointer_button(button: MouseButton) -> Option<egui::PointerButton> {
    match button {
        MouseButton::Left => Some(egui::PointerButton::Primary),
        MouseButton::Right => Some(egui::PointerButton::Secondary),
        MouseButton::Middle => Some(egui::PointerButton::Middle),
        MouseButton::Unknown => None,
    }
}

/// Convert macroquad's wheel reading into egui lines; `None` when the wheel did not move.
/// Both use "positive y = wheel away from the user = content moves down".
fn wheel_lines((x, y): (f32, f32)) -> Option<egui::Vec2> {
    let delta = egui::vec2(x, y) / WHEEL_UNITS_PER_LINE;
    (delta != egui::Vec2::ZERO).then_some(delta)
}

/// Whether a character from macroquad's char queue is text, rather than a control code or a
/// private-use code point (which some platforms send for function and arrow keys).
fn is_typed_text(character: char) -> bool {
    !character.is_control() && !('\u{e000}'..='\u{f8ff}').contains(&character)
}

/// Physical-pixel scissor rectangle for an egui clip rectangle in points: rounded outward so
/// anti-aliased edges on the boundary survive, clamped to the screen, `None` when empty.
fn scissor_rect(clip: egui::Rect, pixels_per_point: f32, screen_px: [u32; 2]) -> Option<PixelRect> {
    // `as u32` saturates, and NaN becomes 0, so an infinite or garbage rect stays in range.
    let to_px = |points: f32, round: fn(f32) -> f32, limit: u32| {
        (round(points * pixels_per_point) as u32).min(limit)
    };
    let min_x = to_px(clip.min.x, f32::floor, screen_px[0]);
    let min_y = to_px(clip.min.y, f32::floor, screen_px[1]);
    let max_x = to_px(clip.max.x, f32::ceil, screen_px[0]);
    let max_y = to_px(clip.max.y, f32::ceil, screen_px[1]);
    if max_x <= min_x || max_y <= min_y {
        return None;
    }
    Some(PixelRect {
        x: min_x,
        y: min_y,
        width: max_x - min_x,
        height: max_y - min_y,
    })
}

/// GL viewport `(x, y, width, height)` for a scissor rectangle: GL's origin is bottom-left.
fn gl_viewport(rect: PixelRect, screen_height_px: u32) -> (i32, i32, i32, i32) {
    let bottom = screen_height_px.saturating_sub(rect.y + rect.height);
    (
        rect.x as i32,
        bottom as i32,
        rect.width as i32,
        rect.height as i32,
    )
}

/// Projection mapping the points covered by `rect` onto the whole clip volume, y down.
fn clip_projection(rect: PixelRect, pixels_per_point: f32) -> Mat4 {
    let left = rect.x as f32 / pixels_per_point;
    let top = rect.y as f32 / pixels_per_point;
    let right = (rect.x + rect.width) as f32 / pixels_per_point;
    let bottom = (rect.y + rect.height) as f32 / pixels_per_point;
    Mat4::orthographic_rh_gl(left, right, bottom, top, -1.0, 1.0)
}

/// Split a triangle list over `vertex_count` vertices into chunks of at most `max_indices`
/// indices with local `u16` indices.
///
/// # Panics
/// If `max_indices` exceeds `u16::MAX` (local indices must fit in `u16`), or if an index is not
/// below `vertex_count`.
fn split_mesh(indices: &[u32], vertex_count: usize, max_indices: usize) -> Vec<MeshChunk> {
    const UNMAPPED: u16 = u16::MAX;
    assert!(
        max_indices < usize::from(UNMAPPED),
        "chunk indices must fit in u16"
    );
    // Source vertex -> index within the current chunk. Reset per chunk by walking only the
    // vertices the chunk used, so splitting stays linear in the number of indices.
    let mut local_index = vec![UNMAPPED; vertex_count];
    let mut chunks = Vec::new();
    let mut chunk = MeshChunk::default();
    for triangle in indices.chunks_exact(3) {
        if chunk.indices.len() + triangle.len() > max_indices {
            for &vertex in &chunk.vertices {
                local_index[vertex as usize] = UNMAPPED;
            }
            chunks.push(std::mem::take(&mut chunk));
        }
        for &vertex in triangle {
            let local = &mut local_index[vertex as usize];
            if *local == UNMAPPED {
                // Below UNMAPPED: a chunk has at most `max_indices` distinct vertices.
                *local = chunk.vertices.len() as u16;
                chunk.vertices.push(vertex);
            }
            chunk.indices.push(*local);
        }
    }
    if !chunk.indices.is_empty() {
        chunks.push(chunk);
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;
    use macroquad::math::Vec4Swizzles;

    fn pixel_rect(x: u32, y: u32, width: u32, height: u32) -> PixelRect {
        PixelRect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn navigation_and_editing_keys_map_to_their_egui_keys() {
        let expected = [
            (KeyCode::Up, egui::Key::ArrowUp),
            (KeyCode::Down, egui::Key::ArrowDown),
            (KeyCode::Left, egui::Key::ArrowLeft),
            (KeyCode::Right, egui::Key::ArrowRight),
            (KeyCode::Enter, egui::Key::Enter),
            (KeyCode::KpEnter, egui::Key::Enter),
            (KeyCode::Backspace, egui::Key::Backspace),
            (KeyCode::Tab, egui::Key::Tab),
            (KeyCode::Escape, egui::Key::Escape),
            (KeyCode::Delete, egui::Key::Delete),
        ];
        for (key, egui_key_expected) in expected {
            assert_eq!(egui_key(key), Some(egui_key_expected), "{key:?}");
        }
    }

    #[test]
    fn every_letter_maps_to_the_same_egui_letter() {
        use KeyCode::*;
        #[rustfmt::skip]
        let letters = [
            A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z,
        ];
        for (offset, key) in letters.into_iter().enumerate() {
            let name = char::from(b'A' + offset as u8).to_string();
            let mapped = egui_key(key).map(|k| k.name());
            assert_eq!(mapped, Some(name.as_str()), "{key:?}");
        }
    }

    #[test]
    fn top_row_and_keypad_digits_map_to_the_same_egui_digit() {
        let pairs = [
            (KeyCode::Key0, KeyCode::Kp0, egui::Key::Num0),
            (KeyCode::Key5, KeyCode::Kp5, egui::Key::Num5),
            (KeyCode::Key9, KeyCode::Kp9, egui::Key::Num9),
        ];
        for (top_row, keypad, digit) in pairs {
            assert_eq!(egui_key(top_row), Some(digit));
            assert_eq!(egui_key(keypad), Some(digit));
        }
    }

    #[test]
    fn modifier_keys_are_not_egui_keys() {
        for key in [KeyCode::LeftShift, KeyCode::RightControl, KeyCode::LeftAlt] {
            assert_eq!(egui_key(key), None, "{key:?}");
        }
    }

    #[test]
    fn left_right_middle_mouse_buttons_become_primary_secondary_middle() {
        assert_eq!(
            pointer_button(MouseButton::Left),
            Some(egui::PointerButton::Primary)
        );
        assert_eq!(
            pointer_button(MouseButton::Right),
            Some(egui::PointerButton::Secondary)
        );
        assert_eq!(
            pointer_button(MouseButton::Middle),
            Some(egui::PointerButton::Middle)
        );
        assert_eq!(pointer_button(MouseButton::Unknown), None);
    }

    #[test]
    fn resting_wheel_produces_no_scroll() {
        assert_eq!(wheel_lines((0.0, 0.0)), None);
    }

    #[test]
    fn one_wheel_notch_scrolls_one_line_in_the_same_direction() {
        let notch = WHEEL_UNITS_PER_LINE;
        assert_eq!(wheel_lines((0.0, notch)), Some(egui::vec2(0.0, 1.0)));
        assert_eq!(wheel_lines((0.0, -notch)), Some(egui::vec2(0.0, -1.0)));
        assert_eq!(wheel_lines((-notch, 0.0)), Some(egui::vec2(-1.0, 0.0)));
    }

    #[test]
    fn control_and_private_use_characters_are_not_typed_text() {
        assert!(is_typed_text('a'));
        assert!(is_typed_text('é'));
        assert!(!is_typed_text('\u{8}'));
        assert!(!is_typed_text('\r'));
        assert!(!is_typed_text('\u{f700}'));
    }

    #[test]
    fn clip_rect_scales_points_to_pixels() {
        let clip = egui::Rect::from_min_max(egui::pos2(10.0, 20.0), egui::pos2(110.0, 70.0));
        let expected = pixel_rect(20, 40, 200, 100);
        assert_eq!(scissor_rect(clip, 2.0, [1280, 720]), Some(expected));
    }

    #[test]
    fn fractional_clip_rect_rounds_outward() {
        let clip = egui::Rect::from_min_max(egui::pos2(10.4, 20.6), egui::pos2(30.2, 40.5));
        let expected = pixel_rect(10, 20, 21, 21);
        assert_eq!(scissor_rect(clip, 1.0, [1280, 720]), Some(expected));
    }

    #[test]
    fn clip_rect_beyond_the_screen_is_clamped_to_it() {
        let everything = egui::Rect::EVERYTHING;
        let expected = pixel_rect(0, 0, 1280, 720);
        assert_eq!(scissor_rect(everything, 1.0, [1280, 720]), Some(expected));
    }

    #[test]
    fn empty_or_offscreen_clip_rect_is_skipped() {
        let empty = egui::Rect::from_min_max(egui::pos2(50.0, 50.0), egui::pos2(50.0, 80.0));
        let offscreen =
            egui::Rect::from_min_max(egui::pos2(2000.0, 10.0), egui::pos2(2100.0, 20.0));
        assert_eq!(scissor_rect(empty, 1.0, [1280, 720]), None);
        assert_eq!(scissor_rect(offscreen, 1.0, [1280, 720]), None);
        assert_eq!(scissor_rect(egui::Rect::NOTHING, 1.0, [1280, 720]), None);
    }

    #[test]
    fn gl_viewport_measures_y_from_the_bottom_of_the_screen() {
        let top_strip = pixel_rect(5, 0, 100, 20);
        assert_eq!(gl_viewport(top_strip, 720), (5, 700, 100, 20));
    }

    #[test]
    fn clip_projection_maps_the_clip_rect_corners_to_clip_space_corners() {
        let rect = pixel_rect(20, 40, 200, 100);
        let projection = clip_projection(rect, 2.0);
        let top_left = projection * Vec4::new(10.0, 20.0, 0.0, 1.0);
        let bottom_right = projection * Vec4::new(110.0, 70.0, 0.0, 1.0);
        assert!(top_left.xy().abs_diff_eq(Vec2::new(-1.0, 1.0), 1e-5));
        assert!(bottom_right.xy().abs_diff_eq(Vec2::new(1.0, -1.0), 1e-5));
    }

    #[test]
    fn small_mesh_stays_in_one_chunk_with_the_same_triangles() {
        let chunks = split_mesh(&[0, 1, 2, 2, 1, 3], 4, 4998);
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].vertices, [0, 1, 2, 3]);
        assert_eq!(chunks[0].indices, [0, 1, 2, 2, 1, 3]);
    }

    #[test]
    fn large_mesh_splits_into_chunks_within_capacity_keeping_every_triangle() {
        // A strip of quads: vertices shared between neighbouring triangles.
        let quads = 5000u32;
        let indices: Vec<u32> = (0..quads)
            .flat_map(|q| {
                let v = q * 2;
                [v, v + 1, v + 2, v + 2, v + 1, v + 3]
            })
            .collect();
        let chunks = split_mesh(&indices, quads as usize * 2 + 2, 600);
        assert!(chunks.len() > 1);
        let mut rebuilt = Vec::new();
        for chunk in &chunks {
            assert!(chunk.indices.len() <= 600);
            assert_eq!(chunk.indices.len() % 3, 0);
            rebuilt.extend(
                chunk
                    .indices
                    .iter()
                    .map(|&i| chunk.vertices[usize::from(i)]),
            );
        }
        assert_eq!(rebuilt, indices);
    }
}
