//! The material egui's meshes are drawn with: a shader that passes egui's premultiplied sRGB
//! colours through, blended `(One, OneMinusSrcAlpha)`.

use macroquad::material::{Material, MaterialParams, load_material};
use macroquad::miniquad::{
    BlendFactor, BlendState, BlendValue, Equation, PipelineParams, ShaderSource,
};

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

/// Compile the material.
///
/// # Panics
/// If the built-in shader fails to compile (a bug in this module, not a user error).
pub(super) fn load() -> Material {
    load_material(
        ShaderSource::Glsl {
            vertex: VERTEX_SHADER,
            fragment: FRAGMENT_SHADER,
        },
        MaterialParams {
            pipeline_params: premultiplied_alpha_pipeline(),
            ..Default::default()
        },
    )
    .expect("egui bridge shader must compile")
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
