//! The sounds in `assets/` are what `gen-assets` makes: the browser build synthesises the music
//! loop at first use instead of shipping the file, so the two must be the same bytes.

use std::path::Path;

use game::art::synth;
use game::sfx::{MUSIC_FILE, SFX_DIR, Sfx};

fn shipped(relative: &Path) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../assets")
        .join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_shipped_music_loop_is_what_the_synthesiser_makes() {
    assert!(
        shipped(Path::new(MUSIC_FILE)) == synth::generate_music(),
        "assets/{MUSIC_FILE} differs from synth::generate_music(): run gen-assets"
    );
}

#[test]
fn every_shipped_effect_is_what_the_synthesiser_makes() {
    for sfx in Sfx::ALL {
        let file = Path::new(SFX_DIR).join(sfx.file_name());
        assert!(
            shipped(&file) == synth::generate(sfx),
            "assets/{} differs from synth::generate: run gen-assets",
            file.display()
        );
    }
}
