//! Every shipped level opens in the editor and, unedited, saves byte for byte as it was; also
//! with CRLF line ends and a byte-order mark.

use crate::common;

use std::path::{Path, PathBuf};

use common::{TempDir, atlas};
use game::editor::Editor;

fn shipped_levels() -> Vec<PathBuf> {
    let paths = common::shipped_levels();
    assert!(paths.len() >= 5, "the shipped levels: {paths:?}");
    paths
}

/// Open `path`, save it unedited, and return what is on disk afterwards.
fn open_and_save(path: &Path) -> Vec<u8> {
    let atlas = atlas();
    let mut editor =
        Editor::open(path, &atlas.crate_skins()).unwrap_or_else(|e| panic!("opens: {e}"));
    assert!(!editor.is_modified(), "{}", path.display());
    assert_eq!(editor.problem(), None);
    assert!(editor.overrides_to_remove().is_empty());
    editor
        .save()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    std::fs::read(path).expect("saved file")
}

#[test]
fn every_shipped_level_saves_unedited_byte_for_byte() {
    let dir = TempDir::new("editor-roundtrip");
    for level in shipped_levels() {
        let original = std::fs::read(&level).expect("level");
        let copy = dir.0.join(level.file_name().expect("name"));
        std::fs::write(&copy, &original).expect("copy");
        assert_eq!(open_and_save(&copy), original, "{}", level.display());
    }
}

#[test]
fn crlf_and_bom_copies_save_unedited_byte_for_byte() {
    let dir = TempDir::new("editor-roundtrip-crlf");
    for level in shipped_levels() {
        let text = std::fs::read_to_string(&level).expect("level");
        let crlf = text.replace('\n', "\r\n");
        for (variant, bytes) in [
            ("crlf", crlf.clone().into_bytes()),
            ("bom", format!("\u{feff}{crlf}").into_bytes()),
            ("cr", text.replace('\n', "\r").into_bytes()),
        ] {
            let copy = dir.0.join(format!(
                "{variant}-{}",
                level.file_name().unwrap().to_string_lossy()
            ));
            std::fs::write(&copy, &bytes).expect("copy");
            assert_eq!(open_and_save(&copy), bytes, "{variant} {}", level.display());
        }
    }
}
