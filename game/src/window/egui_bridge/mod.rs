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
//! # Files
//!
//! `raw_input` turns macroquad's input into egui's (`key_map` for the keys); `blend_material`
//! is the premultiplied-alpha material; `egui_textures` keeps egui's textures on the GPU;
//! `scissor` turns clip rectangles into cameras; `mesh_chunks` splits and paints the meshes.
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

mod blend_material;
mod egui_textures;
mod key_map;
mod mesh_chunks;
mod raw_input;
mod scissor;

use std::collections::HashMap;

use egui::epaint::ClippedShape;
use egui::{OutputCommand, TextureId};
use macroquad::camera::set_default_camera;
use macroquad::material::{Material, gl_use_default_material, gl_use_material};
use macroquad::miniquad;
use macroquad::texture::Texture2D;
use macroquad::window::screen_dpi_scale;

use egui_textures::set_texture;
use mesh_chunks::paint_primitives;
use raw_input::gather_input;

/// egui context plus the GPU textures backing its texture ids, driven by macroquad.
///
/// Call [`run`](Self::run) once per frame after the game has read its input, and
/// [`draw`](Self::draw) after the game has drawn, before `next_frame().await`.
pub struct EguiBridge {
    ctx: egui::Context,
    material: Material,
    textures: HashMap<TextureId, Texture2D>,
    shapes: Vec<ClippedShape>,
    /// The meshes [`draw`](Self::draw) painted last, for [`repaint`](Self::repaint).
    primitives: Vec<egui::ClippedPrimitive>,
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
        Self {
            ctx: egui::Context::default(),
            material: blend_material::load(),
            textures: HashMap::new(),
            shapes: Vec::new(),
            primitives: Vec::new(),
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
        let raw_input = gather_input(&self.ctx, &mut self.last_pointer);
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
            set_texture(&mut self.textures, *id, image_delta);
        }

        let pixels_per_point = self.pixels_per_point;
        self.primitives = {
            puffin::profile_scope!("tessellate");
            self.ctx
                .tessellate(std::mem::take(&mut self.shapes), pixels_per_point)
        };
        self.repaint();
        for id in &delta.free {
            self.textures.remove(id);
        }
    }

    /// Paint the meshes of the last [`draw`](Self::draw) again, without running egui: for a
    /// frame where nothing it shows has changed and no input came.
    ///
    /// Leaves macroquad with the default camera and default material.
    pub fn repaint(&mut self) {
        puffin::profile_scope!("paint", format!("{} primitives", self.primitives.len()));
        gl_use_material(&self.material);
        paint_primitives(&self.primitives, &self.textures, self.pixels_per_point);
        gl_use_default_material();
        puffin::profile_scope!("flush");
        // Also flushes the queued egui draw calls, so freeing textures after is safe.
        set_default_camera();
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
}
