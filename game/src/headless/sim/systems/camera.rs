//! `camera`: eases the [`Camera`] towards its target and keeps the view inside the level.

use ecs::{SystemEntities, World};

use crate::sim::components::Position;
use crate::sim::resources::{Camera, TileMap};
use crate::sim::tuning::CAMERA_LERP;

/// Run `camera` (tracks CameraTarget + Position).
pub fn run(world: &mut World, entities: &SystemEntities<'_>) {
    puffin::profile_scope!("camera");
    let Some((_, &target)) = entities.query::<&Position>(world).next() else {
        return;
    };
    let (w, h) = world.resource::<TileMap>().size_px();
    let cam = world.resource_mut::<Camera>();
    let snap = std::mem::take(&mut cam.snap);
    let ease = |from: f32, to: f32| {
        let next = from + (to - from) * CAMERA_LERP;
        // Snap the last sub-pixel so the camera comes to rest exactly.
        if snap || (to - next).abs() < 0.01 {
            to
        } else {
            next
        }
    };
    cam.x = clamp_axis(ease(cam.x, target.x), cam.view_w, w);
    cam.y = clamp_axis(ease(cam.y, target.y), cam.view_h, h);
}

/// Keep a view of size `view` inside `0..size`; centre it when the level is smaller.
fn clamp_axis(center: f32, view: f32, size: f32) -> f32 {
    if view >= size {
        size / 2.0
    } else {
        center.clamp(view / 2.0, size - view / 2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::clamp_axis;

    #[test]
    fn view_stays_inside_level_and_centres_small_levels() {
        assert_eq!(clamp_axis(10.0, 100.0, 1000.0), 50.0);
        assert_eq!(clamp_axis(990.0, 100.0, 1000.0), 950.0);
        assert_eq!(clamp_axis(500.0, 100.0, 1000.0), 500.0);
        assert_eq!(clamp_axis(10.0, 400.0, 300.0), 150.0);
    }
}
