//! Criterion benches of the level editor's model on levels from one screen to the largest map:
//! a paint followed by the validator's verdict (a render of the text a save would write and a
//! parse of it), and a paint alone.
//!
//! `cargo bench -p game --bench editor`

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use game::editor::Editor;
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

criterion_group!(benches, paint);
criterion_main!(benches);
