//! egui's meshes as macroquad draw calls: each clipped primitive under its scissor camera, split
//! into chunks that fit macroquad's per-draw-call capacity.

use std::collections::HashMap;

use egui::TextureId;
use egui::epaint::{ClippedPrimitive, Primitive};
use macroquad::camera::set_camera;
use macroquad::math::{Vec2, Vec3, Vec4};
use macroquad::miniquad;
use macroquad::models::{Mesh, Vertex, draw_mesh};
use macroquad::texture::Texture2D;

use super::scissor::{ClipCamera, clip_projection, gl_viewport, scissor_rect};

/// Largest index count per `draw_mesh`: macroquad's default `Conf` allows 5000 indices per draw
/// call (10000 vertices), rounded down to whole triangles. A chunk never has more distinct
/// vertices than indices, so the vertex capacity cannot be exceeded either.
const MAX_CHUNK_INDICES: usize = 5000 / 3 * 3;

/// One `draw_mesh` worth of an egui mesh: `vertices` index the source mesh's vertex list,
/// `indices` index `vertices`.
#[derive(Debug, Default)]
struct MeshChunk {
    vertices: Vec<u32>,
    indices: Vec<u16>,
}

/// Draw `primitives` (positions in points, `pixels_per_point` physical pixels each) with the
/// textures they name; the material is already in use. Paint callbacks and meshes whose
/// texture is missing or whose clip rectangle is empty are skipped.
pub(super) fn paint_primitives(
    primitives: &[ClippedPrimitive],
    textures: &HashMap<TextureId, Texture2D>,
    pixels_per_point: f32,
) {
    let (width_px, height_px) = miniquad::window::screen_size();
    let screen_px = [width_px as u32, height_px as u32];
    for ClippedPrimitive {
        clip_rect,
        primitive,
    } in primitives
    {
        // Paint callbacks need raw GL access, which this bridge does not offer.
        let Primitive::Mesh(mesh) = primitive else {
            continue;
        };
        let Some(texture) = textures.get(&mesh.texture_id) else {
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
}

fn to_macroquad_vertex(vertex: &egui::epaint::Vertex) -> Vertex {
    Vertex {
        position: Vec3::new(vertex.pos.x, vertex.pos.y, 0.0),
        uv: Vec2::new(vertex.uv.x, vertex.uv.y),
        color: vertex.color.to_array(),
        normal: Vec4::ZERO,
    }
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
