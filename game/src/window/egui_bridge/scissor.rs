//! Clipping without `unsafe`: an egui clip rectangle becomes a camera whose viewport is the
//! scissor rectangle and whose projection maps exactly that rectangle to clip space.

use macroquad::camera::Camera;
use macroquad::math::Mat4;
use macroquad::texture::RenderPass;

/// Camera that turns one clip rectangle into the whole render target, so GL's clip-volume
/// clipping acts as a scissor.
pub(super) struct ClipCamera {
    pub(super) viewport: (i32, i32, i32, i32),
    pub(super) projection: Mat4,
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
pub(super) struct PixelRect {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

/// Physical-pixel scissor rectangle for an egui clip rectangle in points: rounded outward so
/// anti-aliased edges on the boundary survive, clamped to the screen, `None` when empty.
pub(super) fn scissor_rect(
    clip: egui::Rect,
    pixels_per_point: f32,
    screen_px: [u32; 2],
) -> Option<PixelRect> {
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
pub(super) fn gl_viewport(rect: PixelRect, screen_height_px: u32) -> (i32, i32, i32, i32) {
    let bottom = screen_height_px.saturating_sub(rect.y + rect.height);
    (
        rect.x as i32,
        bottom as i32,
        rect.width as i32,
        rect.height as i32,
    )
}

/// Projection mapping the points covered by `rect` onto the whole clip volume, y down.
pub(super) fn clip_projection(rect: PixelRect, pixels_per_point: f32) -> Mat4 {
    let left = rect.x as f32 / pixels_per_point;
    let top = rect.y as f32 / pixels_per_point;
    let right = (rect.x + rect.width) as f32 / pixels_per_point;
    let bottom = (rect.y + rect.height) as f32 / pixels_per_point;
    Mat4::orthographic_rh_gl(left, right, bottom, top, -1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use macroquad::math::{Vec2, Vec4, Vec4Swizzles};

    fn pixel_rect(x: u32, y: u32, width: u32, height: u32) -> PixelRect {
        PixelRect {
            x,
            y,
            width,
            height,
        }
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
}
