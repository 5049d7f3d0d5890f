//! Regenerate `assets/atlas.png` and `assets/atlas.ron` from the pixel-art generator, and
//! `assets/sfx/*.wav` from the sound synthesiser.
//!
//! Usage: `cargo run -p game --bin gen-assets [ASSETS_DIR] [--preview FILE.png]`
//! (default directory: the workspace `assets/`). `--preview` also writes the atlas scaled 4x over
//! a checkerboard, for judging the art.

// A page has no command line: built for the browser, this tool is empty (the game there is
// `crate-room`'s page, `game/src/window/web.rs`) and needs no clap.
#![cfg_attr(all(target_arch = "wasm32", target_os = "unknown"), no_main)]
#![cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::Parser;
use game::art;
use game::art::canvas::Canvas;

/// Integer scale of the preview image.
const PREVIEW_SCALE: usize = 4;

/// Regenerate the sprite atlas (`atlas.png`, `atlas.ron`) and the sound effects (`sfx/*.wav`).
#[derive(Parser, Debug)]
#[command(name = "gen-assets")]
struct Args {
    /// Folder to write into (default: the workspace's `assets/`).
    #[arg(value_name = "ASSETS_DIR")]
    dir: Option<PathBuf>,
    /// Also write the atlas scaled 4x over a checkerboard to FILE.png, for judging the art.
    #[arg(long, value_name = "FILE.png")]
    preview: Option<PathBuf>,
}

fn main() -> anyhow::Result<()> {
    let Args { dir, preview } = Args::parse();
    let dir = dir.unwrap_or_else(default_assets_dir);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let atlas = art::write_to(&dir)?;
    println!(
        "wrote {} frames, {} clips to {}",
        atlas.data.frames.len(),
        atlas.data.clips.len(),
        dir.display()
    );
    let sounds = art::synth::write_to(&dir)?;
    println!(
        "wrote {} sounds to {}",
        sounds.len(),
        dir.join(game::sfx::SFX_DIR).display()
    );
    if let Some(path) = preview {
        let image = art::draw_atlas();
        let bytes = art::encode_png(&upscaled_on_checkerboard(&image))?;
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote preview {}", path.display());
    }
    Ok(())
}

/// The workspace `assets/` directory, next to the `game` package.
fn default_assets_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).join("assets")
}

fn upscaled_on_checkerboard(image: &Canvas) -> Canvas {
    let s = PREVIEW_SCALE;
    let mut out = Canvas::new(image.width() * s, image.height() * s);
    for y in 0..out.height() as i32 {
        for x in 0..out.width() as i32 {
            // 16-pixel tile grid in two greys so frame borders stay visible.
            let tile = (x / (16 * s as i32) + y / (16 * s as i32)) % 2;
            let bg = if tile == 0 { 48 } else { 64 };
            out.set(x, y, [bg, bg, bg + 8, 255]);
            out.blend(x, y, image.get(x / s as i32, y / s as i32));
        }
    }
    out
}
