//! The world pass: floor tiles, shadows and sprites, all from one atlas texture so macroquad
//! batches them into one draw call (two if a huge window overflows a batch). Only what the
//! camera sees is drawn: sprites come from a query of the render grid, floor from the visible
//! cells of the tile map.

use ecs::Entity;
use macroquad::prelude::*;

use super::ghost::Ghost;
use super::strength;
use crate::atlas::clip_names::{self, CrateState};
use crate::atlas::{AtlasData, FrameRect, RgbaImage};
use crate::level::Tile;
use crate::sim::components::{Crate, DrawData, Exploding, Fuse, Keg, Position, layer};
use crate::sim::resources::{DrawGrid, TileMap};
use crate::sim::spatial_hash::{Aabb, Hit};
use crate::sim::tuning::KEG_RADIUS;
use crate::sim::{Camera, Sim, TILE};
use crate::window::ui::Hud;

/// The atlas image cannot become a texture.
#[derive(Debug, thiserror::Error)]
#[error("{image}: {width} x {height} is larger than a texture may be")]
pub struct TextureError {
    /// The image file, as `atlas.ron` names it.
    pub image: String,
    pub width: u32,
    pub height: u32,
}

/// The camera that shows `view` (world pixels, y down) on the whole screen, y down: the view's
/// top-left corner at the screen's top-left.
///
/// Not `Camera2D::from_display_rect`: in macroquad 0.4 that camera is meant for render targets.
/// Drawing to the screen, `Camera2D::matrix` flips y once more (`invert_y` in macroquad's
/// `camera.rs`), so it would show the level upside down.
pub fn world_camera(view: &Aabb) -> Camera2D {
    let (w, h) = (view.max_x - view.min_x, view.max_y - view.min_y);
    Camera2D {
        target: vec2(view.min_x + w / 2.0, view.min_y + h / 2.0),
        // Positive y zoom: macroquad negates it for the screen, which puts world y down.
        zoom: vec2(2.0 / w, 2.0 / h),
        ..Default::default()
    }
}

/// Frames a blast's ring of reach shows: half a second at 60 frames a second.
pub const RING_FRAMES: u64 = 30;

/// The ghost's tint: its player drawn pale blue and half see-through.
pub const GHOST: Color = Color::new(0.55, 0.85, 1.0, 0.5);
/// The colour of the ghost's name over its head.
pub const GHOST_LABEL: Color = Color::new(0.6, 0.88, 1.0, 0.9);

/// HUD icons cut from the atlas (none if the atlas lacks the clip: the HUD shows text only).
#[derive(Clone, Copy, Debug, Default)]
pub struct Icons {
    /// A crate.
    pub crate_icon: Option<FrameRect>,
    /// A coin.
    pub coin: Option<FrameRect>,
}

/// The atlas frame an icon is cut from: the first frame of `clip`.
fn first_frame(atlas: &AtlasData, clip: &str) -> Option<FrameRect> {
    atlas
        .clip(clip)
        .and_then(|c| c.frames.first())
        .and_then(|f| atlas.frame(f))
}

/// Draws the world; owns the atlas texture.
#[derive(Debug)]
pub struct Renderer {
    atlas: Texture2D,
    floors: Vec<FrameRect>,
    shadow: Option<FrameRect>,
    hits: Vec<Hit>,
    sprites: Vec<(u8, f32, Entity, DrawData)>,
    icons: Icons,
    /// Screen pixels per art pixel.
    pub scale: f32,
    /// Screen pixels at the top kept for the HUD bar: the camera keeps the level below it.
    pub top_inset: f32,
    /// Camera shake this frame, in world pixels (added to the view, never to the simulation).
    pub shake: (f32, f32),
    /// Quads submitted by the last world pass.
    pub last_quads: usize,
}

impl Renderer {
    /// Make the atlas texture from its decoded image
    /// ([`AtlasData::load_with_image`] reads both).
    ///
    /// # Errors
    /// If the image is too large for a texture.
    pub fn new(image: &RgbaImage, atlas: &AtlasData) -> Result<Self, TextureError> {
        let too_big = |_| TextureError {
            image: atlas.image.clone(),
            width: image.width,
            height: image.height,
        };
        let texture = Texture2D::from_rgba8(
            u16::try_from(image.width).map_err(too_big)?,
            u16::try_from(image.height).map_err(too_big)?,
            &image.pixels,
        );
        texture.set_filter(FilterMode::Nearest);
        let floors = (0..)
            .map_while(|i| atlas.frame(&crate::atlas::clip_names::floor(i)))
            .collect();
        Ok(Self {
            atlas: texture,
            floors,
            shadow: first_frame(atlas, clip_names::SHADOW),
            hits: Vec::new(),
            sprites: Vec::new(),
            icons: Icons {
                crate_icon: first_frame(
                    atlas,
                    &clip_names::crate_clip(clip_names::PLAIN_CRATE, CrateState::Idle),
                ),
                coin: first_frame(atlas, clip_names::COIN),
            },
            scale: 3.0,
            top_inset: 0.0,
            shake: (0.0, 0.0),
            last_quads: 0,
        })
    }

    /// Pick the integer zoom for the window and tell the simulation's camera the size of the
    /// playfield: the screen below the HUD bar.
    pub fn fit_camera(&mut self, sim: &mut Sim) {
        let map = sim.world().resource::<TileMap>();
        let room = (map.width as f32 * TILE, map.height as f32 * TILE);
        let playfield = (screen_width(), screen_height() - self.top_inset);
        self.scale = zoom_for(room, playfield, screen_height());
        let cam = sim.world_mut().resource_mut::<Camera>();
        cam.view_w = screen_width() / self.scale;
        cam.view_h = (screen_height() - self.top_inset).max(TILE) / self.scale;
    }

    /// What the whole screen shows, in world pixels: the camera's playfield plus the strip under
    /// the HUD bar above it, moved by the shake and snapped to whole screen pixels so sprites
    /// never shimmer.
    pub fn view(&self, sim: &Sim) -> Aabb {
        let cam = sim.world().resource::<Camera>();
        let snap = |v: f32| (v * self.scale).round() / self.scale;
        let (x0, y0) = (
            snap(cam.x + self.shake.0 - cam.view_w / 2.0),
            snap(cam.y + self.shake.1 - cam.view_h / 2.0 - self.top_inset / self.scale),
        );
        Aabb {
            min_x: x0,
            min_y: y0,
            max_x: x0 + screen_width() / self.scale,
            max_y: y0 + screen_height() / self.scale,
        }
    }

    /// Where the room's top and bottom edges are on the screen, in screen pixels from the top
    /// (off the screen where the camera scrolls).
    pub fn room_edges(&self, sim: &Sim) -> (f32, f32) {
        let rows = sim.world().resource::<TileMap>().height as f32;
        let top = self.view(sim).min_y;
        (-top * self.scale, (rows * TILE - top) * self.scale)
    }

    /// The HUD's icons.
    pub fn icons(&self) -> Icons {
        self.icons
    }

    /// Draw atlas frame `src` in screen space (default camera set), `size` pixels tall.
    pub fn draw_icon(&self, src: FrameRect, x: f32, y: f32, size: f32) {
        let k = size / f32::from(src.h);
        draw_frame(&self.atlas, src, x, y, f32::from(src.w) * k, size, WHITE);
    }
}

/// The whole number of screen pixels per art pixel for a room of `room` world pixels on a
/// `playfield` (the screen under the HUD bar) of a screen `screen_h` pixels tall: about 15
/// tiles tall (720 px -> 3x, 1080 px -> 4x), or larger where the whole room still fits (a
/// 16 x 10 room at 640 x 360 is drawn at 2x, not 1x); never below 1x.
pub fn zoom_for(room: (f32, f32), playfield: (f32, f32), screen_h: f32) -> f32 {
    let tall = (screen_h / (15.0 * TILE)).floor();
    let whole_room = (playfield.0 / room.0).min(playfield.1 / room.1).floor();
    tall.max(whole_room).max(1.0)
}

/// Draw atlas frame `src` of `atlas` as a `w` x `h` rectangle at `(x, y)` in camera space.
fn draw_frame(atlas: &Texture2D, src: FrameRect, x: f32, y: f32, w: f32, h: f32, color: Color) {
    draw_texture_ex(
        atlas,
        x,
        y,
        color,
        DrawTextureParams {
            dest_size: Some(vec2(w, h)),
            source: Some(Rect::new(
                f32::from(src.x),
                f32::from(src.y),
                f32::from(src.w),
                f32::from(src.h),
            )),
            ..Default::default()
        },
    );
}

impl Renderer {
    /// Set a macroquad camera that maps the world view to the screen.
    pub fn set_world_camera(&self, view: &Aabb) {
        set_camera(&world_camera(view));
    }

    /// Draw atlas frame `src` at its own size at world point `(x, y)` (world camera set): how
    /// the editor draws its cells.
    pub fn draw_frame_world(&self, src: FrameRect, x: f32, y: f32, color: Color) {
        draw_frame(
            &self.atlas,
            src,
            x,
            y,
            f32::from(src.w),
            f32::from(src.h),
            color,
        );
    }

    fn quad(&mut self, src: FrameRect, x: f32, y: f32, color: Color) {
        let (w, h) = (f32::from(src.w), f32::from(src.h));
        draw_frame(&self.atlas, src, x, y, w, h, color);
        self.last_quads += 1;
    }

    /// Mark the floor a lit keg's blast will reach: each floor cell whose centre is within
    /// [`KEG_RADIUS`] of the keg's (what the blast catches), drawn again in red. The floor's
    /// own tile, so the world pass stays one texture.
    fn draw_blast_reach(&mut self, sim: &Sim) {
        const REACH: Color = Color::new(1.0, 0.3, 0.15, 0.75);
        let world = sim.world();
        let map = world.resource::<TileMap>();
        let reach = (KEG_RADIUS / TILE).ceil() as i32;
        for &keg in world.column::<Fuse>().entities() {
            let Some(&at) = world.get::<Position>(keg) else {
                continue;
            };
            let (kx, ky) = ((at.x / TILE).floor() as i32, (at.y / TILE).floor() as i32);
            for y in ky - reach..=ky + reach {
                for x in kx - reach..=kx + reach {
                    let (cx, cy) = ((x as f32 + 0.5) * TILE, (y as f32 + 0.5) * TILE);
                    let caught = (cx - at.x).hypot(cy - at.y) <= KEG_RADIUS;
                    if caught && map.tile(x, y) == Tile::Floor {
                        self.quad(self.floors[0], x as f32 * TILE, y as f32 * TILE, REACH);
                    }
                }
            }
        }
    }

    /// Draw floor, shadows and sprites visible in `view` (world camera must be set).
    pub fn draw_world(&mut self, sim: &Sim, view: &Aabb) {
        puffin::profile_scope!("world_pass");
        self.last_quads = 0;
        let world = sim.world();
        let map = world.resource::<TileMap>();
        if !self.floors.is_empty() {
            let x0 = (view.min_x / TILE).floor().max(0.0) as i32;
            let y0 = (view.min_y / TILE).floor().max(0.0) as i32;
            let x1 = (view.max_x / TILE).ceil() as i32;
            let y1 = (view.max_y / TILE).ceil() as i32;
            for y in y0..y1.min(map.height as i32) {
                for x in x0..x1.min(map.width as i32) {
                    if map.tile(x, y) == Tile::Floor {
                        let v = (x as u32).wrapping_mul(2_654_435_761)
                            ^ (y as u32).wrapping_mul(40_503);
                        // Mostly the plain tile, now and then a variant.
                        let i = if v % 7 < 4 {
                            0
                        } else {
                            (v as usize / 7) % self.floors.len()
                        };
                        self.quad(self.floors[i], x as f32 * TILE, y as f32 * TILE, WHITE);
                    }
                }
            }
            self.draw_blast_reach(sim);
        }
        world.resource::<DrawGrid>().0.query(view, &mut self.hits);
        self.sprites.clear();
        for hit in &self.hits {
            if let Some(d) = world.get::<DrawData>(hit.entity) {
                self.sprites.push((d.layer, d.sort_y, hit.entity, *d));
            }
        }
        // Layer, then feet position, then entity: a total order, so overlaps never flicker.
        self.sprites.sort_unstable_by(|a, b| {
            (a.0, a.1, a.2.index())
                .partial_cmp(&(b.0, b.1, b.2.index()))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        if let Some(shadow) = self.shadow {
            for i in 0..self.sprites.len() {
                let (l, _, _, d) = self.sprites[i];
                // The shadow sprite sits in the bottom rows of its own tile, so it is drawn at
                // the body's position, centred under the body.
                if l == layer::BODIES {
                    let x = d.x + (f32::from(d.src.w) - f32::from(shadow.w)) / 2.0;
                    let y = d.y + f32::from(d.src.h) - f32::from(shadow.h);
                    self.quad(shadow, x, y, WHITE);
                }
            }
        }
        for i in 0..self.sprites.len() {
            let (_, _, entity, d) = self.sprites[i];
            let iron = world
                .get::<Crate>(entity)
                .is_some_and(|c| c.max_health >= strength::IRON_HITS)
                && world.get::<Keg>(entity).is_none();
            self.quad(d.src, d.x, d.y, if iron { strength::IRON } else { WHITE });
        }
    }

    /// Draw the ghost's player over the world (world camera set), translucent and cold, in the
    /// same batch as the world; queue its name over its head.
    pub fn draw_ghost(&mut self, ghost: &Ghost, view: &Aabb, hud: &mut Hud) {
        let Some(d) = ghost.player() else {
            return;
        };
        self.quad(d.src, d.x, d.y, GHOST);
        let label = ghost.run.word().to_uppercase();
        let size = (4.0 * self.scale).clamp(12.0, 22.0);
        let w = measure_text(&label, None, size as u16, 1.0).width;
        let x = (d.x + f32::from(d.src.w) / 2.0 - view.min_x) * self.scale - w / 2.0;
        let y = (d.y - view.min_y) * self.scale - 2.0;
        hud.text(label, x.round(), y.round(), size, GHOST_LABEL);
    }

    /// Draw each blast's ring of reach (world camera set): a ring spreading out to
    /// [`KEG_RADIUS`], what the blast catches, fading over [`RING_FRAMES`] frames from the
    /// frame it went off; `frame` is now.
    pub fn draw_rings(&self, rings: &[(f32, f32, u64)], frame: u64) {
        for &(x, y, at) in rings {
            let t = frame.saturating_sub(at) as f32 / RING_FRAMES as f32;
            if t >= 1.0 {
                continue;
            }
            // Out fast, then slowing at the edge of the reach, where it stays as it fades.
            let spread = 1.0 - (1.0 - (2.0 * t).min(1.0)).powi(2);
            let r = KEG_RADIUS * (0.3 + 0.7 * spread);
            let fade = 1.0 - t;
            draw_circle(x, y, r, Color::new(1.0, 0.55, 0.2, 0.18 * fade));
            draw_circle_lines(x, y, r, 2.5, Color::new(1.0, 0.85, 0.45, 0.9 * fade));
        }
    }

    /// Queue the strength marks ([`strength`]) of the crates the last world pass drew in `view`
    /// (kegs, whose hit lights a fuse, and crates breaking apart have none).
    pub fn queue_strength(&self, sim: &Sim, view: &Aabb, hud: &mut Hud) {
        let world = sim.world();
        for &(_, _, entity, d) in &self.sprites {
            let Some(c) = world.get::<Crate>(entity) else {
                continue;
            };
            if world.get::<Keg>(entity).is_some() || world.get::<Exploding>(entity).is_some() {
                continue;
            }
            let sprite = Rect::new(
                (d.x - view.min_x) * self.scale,
                (d.y - view.min_y) * self.scale,
                f32::from(d.src.w) * self.scale,
                f32::from(d.src.h) * self.scale,
            );
            strength::queue(hud, sprite, c.health, self.scale);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use macroquad::camera::Camera as _;

    /// Clip-space position of a world point under `camera` (OpenGL: y = +1 is the screen's top).
    fn clip(camera: &Camera2D, x: f32, y: f32) -> Vec2 {
        let p = camera.matrix() * vec4(x, y, 0.0, 1.0);
        vec2(p.x / p.w, p.y / p.w)
    }

    #[test]
    fn a_small_room_is_drawn_at_the_largest_whole_scale_that_fits() {
        let room = (16.0 * TILE, 10.0 * TILE);
        // 640 x 360 under a 40 px bar: 640 / 256 = 2.5 and 320 / 160 = 2.
        assert_eq!(zoom_for(room, (640.0, 320.0), 360.0), 2.0);
        // 1280 x 720: 15 tiles tall gives 3, the room fits at 4.
        assert_eq!(zoom_for(room, (1280.0, 680.0), 720.0), 4.0);
        // A room larger than the screen: the 15-tile rule.
        let big = (80.0 * TILE, 68.0 * TILE);
        assert_eq!(zoom_for(big, (1280.0, 680.0), 720.0), 3.0);
        assert_eq!(zoom_for(big, (200.0, 60.0), 100.0), 1.0);
    }

    #[test]
    fn world_camera_puts_the_views_top_left_at_the_screens_top_left() {
        let view = Aabb {
            min_x: 32.0,
            min_y: 16.0,
            max_x: 32.0 + 400.0,
            max_y: 16.0 + 240.0,
        };
        let camera = world_camera(&view);
        let top_left = clip(&camera, view.min_x, view.min_y);
        let bottom_right = clip(&camera, view.max_x, view.max_y);
        assert!((top_left - vec2(-1.0, 1.0)).length() < 1e-5, "{top_left}");
        assert!(
            (bottom_right - vec2(1.0, -1.0)).length() < 1e-5,
            "{bottom_right}"
        );
        // Larger world y is further down the screen: W (move_y = -1) walks up.
        assert!(clip(&camera, 100.0, 200.0).y < clip(&camera, 100.0, 100.0).y);
    }
}
