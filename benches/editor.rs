//! Criterion benches of the level editor's model on levels from one screen to the largest map:
//! a paint followed by the validator's verdict (a render of the text a save would write and a
//! parse of it), a paint alone, opening a level with many crate overrides beside what `check`
//! does with the same file (opening must cost about what checking costs), and on the largest
//! map (1024 x 1024) a flood fill and a paste of clipboard text, each with the undo that puts
//! the map back for the next iteration.
//!
//! `cargo bench -p benches --bench editor`

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use game::editor::{CellRect, Editor, rows_to_text, text_to_rows};
use game::level;

fn editor_for(crates: usize, dir: &Path) -> Editor {
    let text = level::generate(crates, 1).unwrap();
    let path = dir.join(format!("generated-{crates}.ron"));
    std::fs::write(&path, text).unwrap();
    Editor::open(&path, &level::DEFAULT_SKINS).unwrap()
}

fn paint(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("crate-room-editor-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 50 crates: about one screen; 2,000: Cratetopia; the largest generated room fills the
    // 1024 x 1024 map.
    let editors: Vec<(String, Editor)> = [50, 2_000, level::MAX_GENERATED_CRATES]
        .into_iter()
        .map(|crates| {
            let editor = editor_for(crates, &dir);
            (format!("{}x{}", editor.width(), editor.height()), editor)
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let mut editors = editors;
    // A paint and then the verdict the window shows: one render of the text and one parse.
    let mut group = c.benchmark_group("editor_paint_then_problem");
    group.sample_size(20);
    for (label, editor) in &mut editors {
        let mut ch = ['c', '.'].into_iter().cycle();
        group.bench_function(BenchmarkId::from_parameter(&label), |b| {
            b.iter(|| {
                editor.paint(1, 1, ch.next().unwrap()).unwrap();
                black_box(editor.problem().is_none())
            });
        });
    }
    group.finish();
    // A paint alone, as inside a stroke when the window does not ask for the verdict.
    let mut group = c.benchmark_group("editor_paint");
    for (label, editor) in &mut editors {
        let mut ch = ['c', '.'].into_iter().cycle();
        editor.begin_stroke();
        group.bench_function(BenchmarkId::from_parameter(&label), |b| {
            b.iter(|| black_box(editor.paint(1, 1, ch.next().unwrap()).unwrap()));
        });
        editor.end_stroke();
    }
    group.finish();
}

/// Flood fill and paste on the largest map, each followed by its undo (so every iteration starts
/// from the same map). Two maps: a new 1024 x 1024 level (walls round one room: the flood covers
/// 1022 x 1022 cells), and the largest generated level (crates in clusters, the flood follows its
/// lanes from the player's start).
fn flood_and_paste(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("crate-room-editor-flood-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut open_room =
        Editor::new_level(&dir.join("room.ron"), 1024, 1024, &level::DEFAULT_SKINS).unwrap();
    let mut generated = editor_for(level::MAX_GENERATED_CRATES, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let mut group = c.benchmark_group("editor_flood_then_undo");
    group.sample_size(10);
    for (label, editor) in [
        ("room/1024x1024", &mut open_room),
        ("generated/1024x1024", &mut generated),
    ] {
        // A floor cell next to the player's start.
        let start = (0..editor.height())
            .flat_map(|y| (0..editor.width()).map(move |x| (x, y)))
            .find(|&(x, y)| editor.cell(x, y) == Some('@'))
            .unwrap();
        let from = [
            (start.0 + 1, start.1),
            (start.0 - 1, start.1),
            (start.0, start.1 + 1),
        ]
        .into_iter()
        .find(|&(x, y)| editor.cell(x, y) == Some('.'))
        .unwrap();
        editor.flood(from.0, from.1, 'o').unwrap();
        eprintln!(
            "{label}: the flood from {from:?} covers {} cells",
            (0..editor.height())
                .flat_map(|y| (0..editor.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| editor.cell(x, y) == Some('o'))
                .count()
        );
        editor.undo();
        group.bench_function(label, |b| {
            b.iter(|| {
                black_box(editor.flood(from.0, from.1, 'o').unwrap());
                editor.undo();
            });
        });
    }
    group.finish();
    // The whole generated map as clipboard text (about 1.1 MB), read back and pasted over the
    // room; and a 256 x 256 piece of it.
    let whole = CellRect {
        x: 0,
        y: 0,
        width: generated.width(),
        height: generated.height(),
    };
    let text = rows_to_text(&generated.rows(whole).unwrap());
    let piece = rows_to_text(
        &generated
            .rows(CellRect {
                x: 384,
                y: 384,
                width: 256,
                height: 256,
            })
            .unwrap(),
    );
    let mut group = c.benchmark_group("editor_paste_then_undo");
    group.sample_size(10);
    for (label, text) in [
        ("1024x1024/on_1024x1024", &text),
        ("256x256/on_1024x1024", &piece),
    ] {
        group.bench_function(label, |b| {
            b.iter(|| {
                let rows = text_to_rows(text).unwrap();
                black_box(open_room.place(0, 0, &rows).unwrap());
                open_room.undo();
            });
        });
    }
    group.finish();
}

/// A dense level of `crates` crates with an override entry on each of the first `overrides`.
fn level_with_overrides(crates: usize, overrides: usize) -> String {
    let text = level::generate_level(level::Layout::Dense, crates, 0, 1).unwrap();
    let level = level::parse(Path::new("dense.ron"), &text, &level::DEFAULT_SKINS).unwrap();
    let mut entries = String::new();
    for game::level::Cell { x, y } in level.crates.iter().map(|c| c.at).take(overrides) {
        entries.push_str(&format!("        (at: ({x}, {y}), health: 5),\n"));
    }
    let body = text.trim_end().strip_suffix(')').unwrap().trim_end();
    let body = body.strip_suffix(',').unwrap_or(body);
    format!("{body},\n    crates: [\n{entries}    ],\n)\n")
}

fn open(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("crate-room-editor-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut group = c.benchmark_group("editor_open_vs_check");
    group.sample_size(10);
    for overrides in [1_000, 20_000, 300_000] {
        let path = dir.join(format!("overrides-{overrides}.ron"));
        std::fs::write(&path, level_with_overrides(1_000_000, overrides)).unwrap();
        let label = format!("1M_crates/{overrides}_overrides");
        group.bench_function(BenchmarkId::new("check", &label), |b| {
            b.iter(|| black_box(level::load(&path, &level::DEFAULT_SKINS).unwrap()));
        });
        group.bench_function(BenchmarkId::new("editor_open", &label), |b| {
            b.iter(|| black_box(Editor::open(&path, &level::DEFAULT_SKINS).unwrap()));
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, paint, open, flood_and_paste);
criterion_main!(benches);
