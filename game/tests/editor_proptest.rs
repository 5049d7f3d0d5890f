//! Random edit sequences on real levels: whatever the edits, a save writes a file `check`
//! accepts whose map is the editor's map, keeps every comment of the original, and undoing
//! every edit gives back the original bytes.

use crate::common;

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use common::{TempDir, atlas, editor_map, shipped_levels};
use game::editor::{CellRect, Editor, SaveError, Side, rows_to_text, text_to_rows};
use game::level;

/// Levels that exercise the writer beyond the shipped ones: escapes and raw strings in map rows,
/// comments everywhere, a one-line map, overrides over several lines, CRLF.
const AWKWARD: &str = r#######"// Everything the writer must keep.
(
    /* before the name */ name: "Awk\"ward",
    map: [ // the map
        "#####\u{23}",   // an escaped `#`
        r"#.c$x#",
        // between rows
        "#\x2e@C\"#",
        "#\\..o#",
        "######" /* the last row, no comma */
    ],
    legend: { 'x': Crate(health: 2), '"': Wall, '\\': Coin },
    crates: [(at: (2, 1), health: 4), /* inline */ (at: (3,1),
        coin: false), // trailing
        (at: (4, 1), skin: "crate_strong"),
    ],
    // after the last field
)
"#######;

const ONE_LINE: &str = r#######"(name: "Inline", map: ["######", "#@c.C#", "#.$c.#", "######"], crates: [(at: (2, 1), health: 2), (at: (3, 2), coin: true)])"#######;

#[derive(Clone, Debug)]
enum Op {
    Paint {
        x: u16,
        y: u16,
        brush: u8,
    },
    Stroke {
        cells: Vec<(u16, u16)>,
        brush: u8,
    },
    Fill {
        a: (u16, u16),
        b: (u16, u16),
        brush: u8,
    },
    Resize {
        side: u8,
        delta: i8,
    },
    Flood {
        x: u16,
        y: u16,
        brush: u8,
    },
    /// Copy a rectangle to clipboard text and paste it back at another cell.
    CopyPaste {
        a: (u16, u16),
        b: (u16, u16),
        to: (i16, i16),
    },
    Move {
        a: (u16, u16),
        b: (u16, u16),
        by: (i8, i8),
    },
    Scatter {
        a: (u16, u16),
        b: (u16, u16),
        brush: u8,
        tenths: u8,
        seed: u64,
    },
    Rename {
        name: String,
    },
    /// Set the override of the cell (a crate or not; the validator decides).
    Override {
        x: u16,
        y: u16,
        health: Option<i16>,
        skin: u8,
    },
    Undo,
    Redo,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (any::<u16>(), any::<u16>(), any::<u8>()).prop_map(|(x, y, brush)| Op::Paint { x, y, brush }),
        2 => (proptest::collection::vec((any::<u16>(), any::<u16>()), 1..6), any::<u8>())
            .prop_map(|(cells, brush)| Op::Stroke { cells, brush }),
        2 => ((any::<u16>(), any::<u16>()), (any::<u16>(), any::<u16>()), any::<u8>())
            .prop_map(|(a, b, brush)| Op::Fill { a, b, brush }),
        3 => (0u8..4, -3i8..=3).prop_map(|(side, delta)| Op::Resize { side, delta }),
        2 => (any::<u16>(), any::<u16>(), any::<u8>()).prop_map(|(x, y, brush)| Op::Flood { x, y, brush }),
        2 => ((any::<u16>(), any::<u16>()), (any::<u16>(), any::<u16>()), (-8i16..40, -8i16..40))
            .prop_map(|(a, b, to)| Op::CopyPaste { a, b, to }),
        2 => ((any::<u16>(), any::<u16>()), (any::<u16>(), any::<u16>()), (-4i8..=4, -4i8..=4))
            .prop_map(|(a, b, by)| Op::Move { a, b, by }),
        1 => ((any::<u16>(), any::<u16>()), (any::<u16>(), any::<u16>()), any::<u8>(), 1u8..=10, any::<u64>())
            .prop_map(|(a, b, brush, tenths, seed)| Op::Scatter { a, b, brush, tenths, seed }),
        1 => "[a-zA-Z \"\\\\]{0,70}".prop_map(|name| Op::Rename { name }),
        2 => (any::<u16>(), any::<u16>(), proptest::option::of(-2i16..1100), 0u8..5)
            .prop_map(|(x, y, health, skin)| Op::Override { x, y, health, skin }),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
    ]
}

/// The texts under test: the shipped levels, their copies with CRLF or CR line ends or a
/// byte-order mark, and the awkward ones.
fn texts() -> Vec<(String, String)> {
    let mut texts = Vec::new();
    for path in shipped_levels() {
        let text = std::fs::read_to_string(&path).expect("level");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        texts.push((format!("crlf-{name}"), text.replace('\n', "\r\n")));
        texts.push((format!("cr-{name}"), text.replace('\n', "\r")));
        texts.push((format!("bom-{name}"), format!("\u{feff}{text}")));
        texts.push((name, text));
    }
    texts.push(("awkward.ron".to_owned(), AWKWARD.to_owned()));
    texts.push(("one_line.ron".to_owned(), ONE_LINE.to_owned()));
    texts
}

/// Every comment of `text` in order: `//` to the line end, `/* ... */`. The texts under test
/// hold no `//` or `/*` inside strings.
fn comments(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['/']) {
        let tail = &rest[at..];
        if tail.starts_with("//") {
            let end = tail.find(['\r', '\n']).unwrap_or(tail.len());
            out.push(&tail[..end]);
            rest = &tail[end..];
        } else if tail.starts_with("/*") {
            let end = tail.find("*/").map_or(tail.len(), |e| e + 2);
            out.push(&tail[..end]);
            rest = &tail[end..];
        } else {
            rest = &tail[1..];
        }
    }
    out
}

fn apply(editor: &mut Editor, op: &Op) {
    let palette: Vec<char> = editor.palette().iter().map(|b| b.ch).collect();
    let brush = |b: u8| palette[usize::from(b) % palette.len()];
    let (w, h) = (editor.width(), editor.height());
    // Mostly inside the map; now and then just outside, which must be refused.
    let at = |x: u16, y: u16| (u32::from(x) % (w + 1), u32::from(y) % (h + 1));
    let inside = |(x, y): (u32, u32)| x < w && y < h;
    match op {
        Op::Paint { x, y, brush: b } => {
            let cell = at(*x, *y);
            let result = editor.paint(cell.0, cell.1, brush(*b));
            assert_eq!(result.is_ok(), inside(cell), "{op:?}: {result:?}");
        }
        Op::Stroke { cells, brush: b } => {
            editor.begin_stroke();
            for &(x, y) in cells {
                let cell = at(x, y);
                assert_eq!(
                    editor.paint(cell.0, cell.1, brush(*b)).is_ok(),
                    inside(cell)
                );
            }
            editor.end_stroke();
        }
        Op::Fill { a, b, brush: c } => {
            let (a, b) = (at(a.0, a.1), at(b.0, b.1));
            let ch = brush(*c);
            let result = editor.fill(CellRect::spanning(a, b), ch);
            assert_eq!(
                result.is_ok(),
                inside(a) && inside(b) && ch != '@',
                "{op:?}: {result:?}"
            );
        }
        Op::Resize { side, delta } => {
            let side = [Side::Top, Side::Bottom, Side::Left, Side::Right][usize::from(*side)];
            let delta = i32::from(*delta);
            let (w, h) = (i64::from(w), i64::from(h));
            let fits = match side {
                Side::Top | Side::Bottom => h + i64::from(delta) >= 1,
                Side::Left | Side::Right => w + i64::from(delta) >= 1,
            };
            assert_eq!(editor.resize(side, delta).is_ok(), fits, "{op:?}");
        }
        Op::Flood { x, y, brush: b } => {
            let cell = at(*x, *y);
            let ch = brush(*b);
            let before = editor.cell(cell.0, cell.1);
            let result = editor.flood(cell.0, cell.1, ch);
            assert_eq!(
                result.is_ok(),
                inside(cell) && ch != '@',
                "{op:?}: {result:?}"
            );
            if result.is_ok() && before != Some(ch) {
                assert_eq!(editor.cell(cell.0, cell.1), Some(ch));
                // One undo step takes the whole flood back.
                let after = editor_map(editor);
                assert!(editor.undo());
                assert_eq!(editor.cell(cell.0, cell.1), before);
                assert!(editor.redo());
                assert_eq!(editor_map(editor), after);
            }
        }
        Op::CopyPaste { a, b, to } => {
            let (a, b) = (at(a.0, a.1), at(b.0, b.1));
            let rect = CellRect::spanning(a, b);
            match editor.rows(rect) {
                Ok(rows) => {
                    assert!(inside(a) && inside(b), "{op:?}");
                    let text = rows_to_text(&rows);
                    let back = text_to_rows(&text).expect("clipboard text reads back");
                    let back: Vec<String> = back.iter().map(|r| r.iter().collect()).collect();
                    assert_eq!(back, rows, "{text:?}");
                    let players = rows.iter().map(|r| r.matches('@').count()).sum::<usize>();
                    let chars: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
                    let result = editor.place(i64::from(to.0), i64::from(to.1), &chars);
                    assert_eq!(result.is_ok(), players <= 1, "{op:?}: {result:?}");
                }
                Err(_) => assert!(!(inside(a) && inside(b)), "{op:?}"),
            }
        }
        Op::Move { a, b, by } => {
            let (a, b) = (at(a.0, a.1), at(b.0, b.1));
            let result =
                editor.move_rect(CellRect::spanning(a, b), i64::from(by.0), i64::from(by.1));
            assert_eq!(result.is_ok(), inside(a) && inside(b), "{op:?}: {result:?}");
        }
        Op::Scatter {
            a,
            b,
            brush: c,
            tenths,
            seed,
        } => {
            let (a, b) = (at(a.0, a.1), at(b.0, b.1));
            let ch = brush(*c);
            let rect = CellRect::spanning(a, b);
            let result = editor.scatter(rect, ch, *tenths, *seed);
            assert_eq!(result.is_ok(), ch != '@', "{op:?}: {result:?}");
            if result.is_ok() {
                // Every cell the seed picks (on the map) holds the brush now.
                for y in rect.y..(rect.y + rect.height).min(h) {
                    for x in rect.x..(rect.x + rect.width).min(w) {
                        if game::editor::scatter_hits(*seed, x, y, *tenths) {
                            assert_eq!(editor.cell(x, y), Some(ch), "{op:?} at ({x}, {y})");
                        }
                    }
                }
            }
        }
        Op::Rename { name } => {
            let before = editor.text().to_owned();
            match editor.set_name(name) {
                Ok(_) => assert_eq!(editor.name(), name),
                Err(e) => {
                    assert!(e.message.starts_with("the level name is"), "{op:?}: {e}");
                    assert_eq!(editor.text(), before, "a refused name changes nothing");
                }
            }
        }
        Op::Override { x, y, health, skin } => {
            let cell = at(*x, *y);
            if !inside(cell) {
                return;
            }
            let skin = ["crate", "crate_strong", "keg", "no_such_skin", ""][usize::from(*skin)];
            let fields = game::editor::CrateOverride {
                health: health.map(i64::from),
                skin: Some(skin.to_owned()).filter(|s| !s.is_empty()),
                coin: editor.crate_override(cell.0, cell.1).coin,
            };
            let before = editor.text().to_owned();
            match editor.set_crate_override(cell.0, cell.1, fields.clone()) {
                Ok(_) => assert_eq!(editor.crate_override(cell.0, cell.1), fields),
                Err(e) => {
                    assert!(
                        e.message.starts_with("crate health must be")
                            || e.message.contains("skin")
                            || e.message.contains("no crate to override"),
                        "{op:?}: {e}"
                    );
                    assert_eq!(editor.text(), before, "a refused override changes nothing");
                }
            }
        }
        Op::Undo => {
            editor.undo();
        }
        Op::Redo => {
            editor.redo();
        }
    }
}

fn check_edited(dir: &Path, name: &str, original: &str, ops: &[Op]) -> Result<(), TestCaseError> {
    let atlas = atlas();
    let skins = atlas.crate_skins();
    let path = dir.join(name);
    std::fs::write(&path, original).expect("write level");
    let mut editor = Editor::open(&path, &skins).expect("opens");
    for op in ops {
        apply(&mut editor, op);
    }
    let map = editor_map(&editor);
    let players: usize = map.iter().map(|r| r.matches('@').count()).sum();
    prop_assert!(players <= 1, "one player start at most: {map:?}");
    match (players, editor.problem()) {
        (1, None) => {}
        (0, Some(problem)) => {
            prop_assert_eq!(&problem.message, "the map has no player start `@`")
        }
        (_, problem) => prop_assert!(false, "{players} player starts: {problem:?}"),
    }
    let text = editor.text().to_owned();
    // Every comment survives, in order.
    let mut rest = text.as_str();
    for comment in comments(original) {
        let found = rest.find(comment);
        prop_assert!(found.is_some(), "lost {comment:?} in:\n{text}");
        rest = &rest[found.unwrap_or(0) + comment.len()..];
    }
    // Line ends stay what they were, and so does a byte-order mark.
    if original.contains("\r\n") {
        prop_assert!(!text.replace("\r\n", "").contains(['\n', '\r']), "{text:?}");
    } else if original.contains('\r') {
        prop_assert!(!text.contains('\n'), "{text:?}");
    } else {
        prop_assert!(!text.contains('\r'), "{text:?}");
    }
    prop_assert_eq!(
        text.starts_with('\u{feff}'),
        original.starts_with('\u{feff}')
    );
    match editor.save() {
        Ok(_) => {
            let mut out = Vec::new();
            let code = level::check(std::slice::from_ref(&path), &skins, &mut out);
            prop_assert_eq!(code, 0, "{}", String::from_utf8_lossy(&out));
            prop_assert_eq!(std::fs::read_to_string(&path).expect("saved"), text.clone());
            let reopened = Editor::open(&path, &skins).expect("reopens");
            prop_assert_eq!(editor_map(&reopened), map.clone());
            prop_assert_eq!(
                level::load(&path, &skins).expect("loads"),
                editor.level().expect("valid")
            );
        }
        Err(SaveError::Invalid(_)) => {
            prop_assert!(editor.problem().is_some());
            prop_assert_eq!(std::fs::read_to_string(&path).expect("unchanged"), original);
        }
        Err(e) => prop_assert!(false, "{e}"),
    }
    while editor.undo() {}
    prop_assert_eq!(editor.text(), original);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        // A fixed seed: the same cases on every run.
        rng_seed: RngSeed::Fixed(22),
        ..ProptestConfig::with_cases(256)
    })]

    #[test]
    fn random_edits_save_a_valid_level_keep_comments_and_undo_to_the_original(
        which in any::<prop::sample::Index>(),
        ops in proptest::collection::vec(op(), 1..24),
    ) {
        let texts = texts();
        let (name, original) = &texts[which.index(texts.len())];
        let dir = TempDir::new("editor-proptest");
        check_edited(&dir.0, name, original, &ops)?;
    }
}

#[test]
fn the_awkward_levels_are_valid_and_round_trip() {
    let dir = TempDir::new("editor-awkward");
    for (name, text) in [("awkward.ron", AWKWARD), ("one_line.ron", ONE_LINE)] {
        check_edited(&dir.0, name, text, &[]).unwrap();
        let path = dir.0.join(name);
        let editor = Editor::open(&path, &atlas().crate_skins()).unwrap();
        assert!(!editor.is_modified(), "{name}");
    }
    let editor = Editor::open(&dir.0.join("awkward.ron"), &atlas().crate_skins()).unwrap();
    assert_eq!(
        editor_map(&editor),
        ["######", "#.c$x#", "#.@C\"#", "#\\..o#", "######"]
    );
}
