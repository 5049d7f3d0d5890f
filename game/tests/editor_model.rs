//! The editor's model without a window: commands, undo, what a save writes and how it writes.

use crate::common;

use std::path::Path;

use common::{TempDir, atlas, copy_level, editor_map, repo};
use game::editor::{CellRect, DroppedOverride, EditError, Editor, SaveError, Side};
use game::level::{self, DEFAULT_SKINS, MAX_SIDE};

fn open(path: &Path) -> Editor {
    let atlas = atlas();
    Editor::open(path, &atlas.crate_skins()).unwrap_or_else(|e| panic!("{e}"))
}

/// `level::check` on one file: its exit code and output.
fn check(path: &Path) -> (i32, String) {
    let mut out = Vec::new();
    let atlas = atlas();
    let code = level::check(&[path.to_owned()], &atlas.crate_skins(), &mut out);
    (code, String::from_utf8(out).expect("UTF-8"))
}

/// A line diff (longest common subsequence): the lines of `before` that are not in `after`, and
/// the lines of `after` that are not in `before`, in order.
fn changed_lines(before: &str, after: &str) -> (Vec<String>, Vec<String>) {
    let b: Vec<&str> = before.split_inclusive('\n').collect();
    let a: Vec<&str> = after.split_inclusive('\n').collect();
    // common[i][j]: length of the longest common subsequence of b[i..] and a[j..].
    let mut common = vec![vec![0usize; a.len() + 1]; b.len() + 1];
    for i in (0..b.len()).rev() {
        for j in (0..a.len()).rev() {
            common[i][j] = if b[i] == a[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < b.len() || j < a.len() {
        if i < b.len() && j < a.len() && b[i] == a[j] {
            i += 1;
            j += 1;
        } else if j < a.len() && (i == b.len() || common[i][j + 1] >= common[i + 1][j]) {
            added.push(a[j].to_owned());
            j += 1;
        } else {
            removed.push(b[i].to_owned());
            i += 1;
        }
    }
    (removed, added)
}

#[test]
fn placing_the_player_start_moves_it_in_one_undo_step() {
    let dir = TempDir::new("editor-player");
    let mut editor = open(&copy_level(&dir, "crate_room.ron"));
    assert_eq!(editor.cell(13, 7), Some('@'));
    assert_eq!(editor.paint(2, 1, '@'), Ok(true));
    assert_eq!(
        (editor.cell(13, 7), editor.cell(2, 1)),
        (Some('.'), Some('@'))
    );
    let players: usize = editor_map(&editor)
        .iter()
        .map(|r| r.matches('@').count())
        .sum();
    assert_eq!(players, 1);
    assert_eq!(editor.paint(2, 1, '@'), Ok(false), "already there");
    assert!(editor.undo());
    assert_eq!(
        (editor.cell(13, 7), editor.cell(2, 1)),
        (Some('@'), Some('.'))
    );
    assert!(!editor.is_modified());
    assert!(editor.redo());
    assert_eq!(editor.cell(2, 1), Some('@'));
}

#[test]
fn a_stroke_is_one_undo_step_and_a_new_edit_clears_redo() {
    let dir = TempDir::new("editor-stroke");
    let mut editor = open(&copy_level(&dir, "corridors.ron"));
    let before = editor_map(&editor);
    editor.begin_stroke();
    for x in 3..7 {
        editor.paint(x, 2, 'c').unwrap();
    }
    editor.paint(3, 2, 'C').unwrap();
    editor.end_stroke();
    let stroked = editor_map(&editor);
    assert_eq!(&stroked[2][3..7], "Cccc");
    assert!(editor.undo());
    assert_eq!(editor_map(&editor), before);
    assert!(editor.redo());
    assert_eq!(editor_map(&editor), stroked);
    assert!(editor.undo());
    editor.paint(4, 4, 'o').unwrap();
    assert!(!editor.redo(), "a new edit clears the redo stack");
    assert!(editor.undo());
    assert!(!editor.undo());
    assert_eq!(editor_map(&editor), before);
}

#[test]
fn fill_paints_a_rectangle_as_one_step() {
    let dir = TempDir::new("editor-fill");
    let mut editor = open(&copy_level(&dir, "corridors.ron"));
    let rect = CellRect::spanning((5, 8), (2, 6));
    assert_eq!(
        rect,
        CellRect {
            x: 2,
            y: 6,
            width: 4,
            height: 3
        }
    );
    assert_eq!(editor.fill(rect, '#'), Ok(true));
    for y in 6..9 {
        assert_eq!(&editor_map(&editor)[y as usize][2..6], "####");
    }
    assert_eq!(editor.fill(rect, '@'), Err(EditError::FillWithPlayer));
    assert!(editor.undo());
    assert!(!editor.is_modified());
}

#[test]
fn edits_that_cannot_apply_are_refused_and_change_nothing() {
    let dir = TempDir::new("editor-refused");
    let mut editor = open(&copy_level(&dir, "vault.ron"));
    let (w, h) = (editor.width(), editor.height());
    let text = editor.text().to_owned();
    assert!(matches!(
        editor.paint(w, 0, '#'),
        Err(EditError::OutOfBounds { .. })
    ));
    assert!(matches!(
        editor.paint(0, u32::MAX, '#'),
        Err(EditError::OutOfBounds { .. })
    ));
    assert_eq!(editor.paint(0, 0, 'Z'), Err(EditError::NotInPalette('Z')));
    assert_eq!(
        editor.paint(0, 0, 'Z').unwrap_err().to_string(),
        "'Z' is not a map character of this level"
    );
    assert!(editor.paint(0, 0, 'v').is_ok(), "the vault's own legend");
    assert!(editor.undo());
    let huge = CellRect {
        x: u32::MAX,
        y: u32::MAX,
        width: u32::MAX,
        height: 2,
    };
    assert!(editor.fill(huge, '#').is_err());
    let past = CellRect {
        x: 1,
        y: 1,
        width: w,
        height: 1,
    };
    assert!(editor.fill(past, '#').is_err());
    assert_eq!(
        editor.resize(Side::Top, -(h as i32)),
        Err(EditError::Size {
            width: i64::from(w),
            height: 0
        })
    );
    assert!(editor.resize(Side::Left, i32::MIN).is_err());
    assert!(
        editor
            .resize(Side::Right, (MAX_SIDE - w + 1) as i32)
            .is_err()
    );
    assert!(editor.resize(Side::Right, (MAX_SIDE - w) as i32).is_ok());
    assert_eq!(editor.width(), MAX_SIDE);
    assert!(editor.undo());
    assert_eq!(editor.text(), text);
    assert!(!editor.can_undo());
}

#[test]
fn an_override_whose_crate_is_gone_is_reported_then_removed_and_its_comment_kept() {
    let dir = TempDir::new("editor-override-gone");
    let path = copy_level(&dir, "crate_room.ron");
    let original = std::fs::read_to_string(&path).unwrap();
    let mut editor = open(&path);
    assert_eq!(editor.cell(19, 8), Some('c'));
    editor.paint(19, 8, 'C').unwrap();
    assert!(editor.overrides_to_remove().is_empty(), "still a crate");
    editor.paint(19, 8, '.').unwrap();
    let gone = DroppedOverride {
        at: (19, 8),
        line: 30,
        now: Some((19, 8)),
    };
    assert_eq!(editor.overrides_to_remove(), std::slice::from_ref(&gone));
    assert_eq!(editor.problem(), None);
    let report = editor.save().unwrap();
    assert_eq!(report.dropped_overrides, [gone]);
    let saved = std::fs::read_to_string(&path).unwrap();
    let (removed, added) = changed_lines(&original, &saved);
    assert_eq!(
        removed,
        [
            "        \"#........#.......#.c.#...#\",\n",
            "        (at: (19, 8), health: 5),\n",
        ]
    );
    assert_eq!(added, ["        \"#........#.......#...#...#\",\n"]);
    assert_eq!(check(&path).0, 0);
    // Undo brings the crate back, and with it the override.
    assert!(editor.undo());
    assert!(editor.overrides_to_remove().is_empty());
    assert!(editor.is_modified(), "differs from the file as saved");
    assert!(editor.undo());
    assert_eq!(editor.text(), original);
}

#[test]
fn overrides_move_with_their_crates_when_rows_or_columns_change_at_the_top_or_left() {
    let dir = TempDir::new("editor-override-move");
    let path = copy_level(&dir, "vault.ron");
    let original = std::fs::read_to_string(&path).unwrap();
    let mut editor = open(&path);
    editor.resize(Side::Top, 2).unwrap();
    editor.resize(Side::Left, 3).unwrap();
    editor.resize(Side::Right, 1).unwrap();
    editor.resize(Side::Bottom, -1).unwrap();
    let report = editor.save().unwrap();
    assert_eq!(report.moved_overrides, 2);
    assert!(report.dropped_overrides.is_empty());
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(
        saved.contains("        (at: (12, 4), health: 12),\n"),
        "{saved}"
    );
    assert!(
        saved.contains("        (at: (12, 8), health: 12),\n"),
        "{saved}"
    );
    let level = level::load(&path, &atlas().crate_skins()).unwrap();
    let strong = |x, y| {
        level
            .crates
            .iter()
            .find(|c| (c.at.x, c.at.y) == (x, y))
            .map(|c| c.health)
    };
    assert_eq!((strong(12, 4), strong(12, 8)), (Some(12), Some(12)));
    // Only map rows and the numbers of `at` changed.
    let others = |text: &str| {
        text.lines()
            .filter(|l| !l.trim_start().starts_with('"') && !l.contains("(at: "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(others(&saved), others(&original));
    assert_eq!(
        saved.lines().filter(|l| l.contains("(at: ")).count(),
        original.lines().filter(|l| l.contains("(at: ")).count()
    );

    // Removing the columns that hold an override's crate drops it.
    editor.resize(Side::Left, -13).unwrap();
    let dropped = editor.overrides_to_remove();
    assert_eq!(dropped.len(), 2);
    assert_eq!(
        dropped[0],
        DroppedOverride {
            at: (9, 2),
            line: 22,
            now: None
        }
    );
}

#[test]
fn rows_added_copy_the_indentation_and_line_ends_of_their_neighbours() {
    let dir = TempDir::new("editor-rows-added");
    let text = std::fs::read_to_string(repo().join("levels/corridors.ron"))
        .unwrap()
        .replace('\n', "\r\n");
    let path = dir.0.join("corridors.ron");
    std::fs::write(&path, &text).unwrap();
    let mut editor = open(&path);
    let blank = format!("\"{}\"", " ".repeat(26));
    editor.resize(Side::Top, 1).unwrap();
    editor.resize(Side::Bottom, 2).unwrap();
    editor.paint(0, 11, '#').unwrap();
    let expected = text
        .replacen(
            &format!("    map: [\r\n        {blank},"),
            &format!("    map: [\r\n        {blank},\r\n        {blank},"),
            1,
        )
        .replacen(
            "\" ######################## \",\r\n    ],",
            &format!(
                "\" ######################## \",\r\n        \"#{}\",\r\n        {blank},\r\n    ],",
                " ".repeat(25)
            ),
            1,
        );
    assert_eq!(editor.text(), expected);
    editor.resize(Side::Top, -2).unwrap();
    assert!(!editor.text().contains(&format!("[\r\n        {blank}")));
    assert!(!editor.text().replace("\r\n", "").contains('\n'));
}

#[test]
fn map_rows_with_escapes_keep_them_until_changed_and_are_written_escaped() {
    let dir = TempDir::new("editor-escapes");
    let text = r#####"( name: "Esc", map: ["###\u{23}", r"#@\#", "#\"x#", "####"],
  legend: { '\\': Coin, '"': Wall, 'x': Crate(health: 2) }, crates: [(at: (2, 2), health: 3)] )"#####;
    let path = dir.0.join("esc.ron");
    std::fs::write(&path, text).unwrap();
    let mut editor = open(&path);
    assert_eq!(editor_map(&editor), ["####", "#@\\#", "#\"x#", "####"]);
    editor.paint(2, 1, '"').unwrap();
    editor.paint(1, 2, '\\').unwrap();
    editor.resize(Side::Bottom, 1).unwrap();
    editor
        .fill(CellRect::spanning((0, 4), (3, 4)), '"')
        .unwrap();
    let saved = editor.text().to_owned();
    assert_eq!(
        saved,
        r#####"( name: "Esc", map: ["###\u{23}", "#@\"#", "#\\x#", "####", "\"\"\"\""],
  legend: { '\\': Coin, '"': Wall, 'x': Crate(health: 2) }, crates: [(at: (2, 2), health: 3)] )"#####
    );
    editor.save().unwrap();
    assert_eq!(editor_map(&open(&path)), editor_map(&editor));
    // Removing the one-line map's last rows takes their commas but nothing else.
    editor.resize(Side::Bottom, -2).unwrap();
    assert!(
        editor
            .text()
            .starts_with(r#####"( name: "Esc", map: ["###\u{23}", "#@\"#", "#\\x#",],"#####),
        "{}",
        editor.text()
    );
}

#[test]
fn an_invalid_level_is_never_saved_and_the_edits_stay() {
    let dir = TempDir::new("editor-invalid");
    let path = copy_level(&dir, "crate_room.ron");
    let original = std::fs::read(&path).unwrap();
    let mut editor = open(&path);
    editor.paint(13, 7, '.').unwrap();
    let problem = editor.problem().expect("no player start").clone();
    assert_eq!(problem.message, "the map has no player start `@`");
    assert_eq!(problem.path, path);
    match editor.save() {
        Err(SaveError::Invalid(err)) => assert_eq!(err, problem),
        other => panic!("saved an invalid level: {other:?}"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), original);
    assert!(editor.is_modified());
    assert_eq!(editor.level(), Err(problem));
    editor.paint(1, 1, '@').unwrap();
    assert_eq!(editor.problem(), None);
    assert_eq!(editor.level().unwrap().player_start.x, 1);
    editor.save().unwrap();
    assert_eq!(check(&path).0, 0);
}

#[test]
fn save_is_atomic_leaves_no_temporary_file_and_follows_a_symlink() {
    let dir = TempDir::new("editor-atomic");
    let real = dir.0.join("real");
    std::fs::create_dir(&real).unwrap();
    let target = real.join("room.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &target).unwrap();
    let link = dir.0.join("room.ron");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut editor = open(&link);
    editor.paint(1, 1, 'c').unwrap();
    let report = editor.save().unwrap();
    assert_eq!(report.bytes, editor.text().len());
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), editor.text());
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(&real), ["room.ron"]);
    assert_eq!(names(&dir.0), ["real", "room.ron"]);
    assert!(!editor.is_modified());
    assert_eq!(editor.last_saved(), Some(editor.text().as_bytes()));
}

#[test]
fn a_save_outside_levels_removes_the_temporary_files_of_games_killed_mid_save() {
    let dir = TempDir::new("editor-stale-temporaries");
    let path = dir.0.join("room.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &path).unwrap();
    // A process that has ended: its id is gone.
    let mut ended = std::process::Command::new("true")
        .spawn()
        .expect("run true");
    let gone = ended.id();
    ended.wait().unwrap();
    let stale = dir.0.join(format!(".other_room.ron.{gone}.tmp"));
    std::fs::write(&stale, "half a save of another level").unwrap();
    // This test's own process is running: its file may be a save under way.
    let live = dir.0.join(format!(".third.ron.{}.tmp", std::process::id()));
    std::fs::write(&live, "a save under way").unwrap();
    let mut editor = open(&path);
    editor.paint(1, 1, 'c').unwrap();
    editor.save().unwrap();
    assert!(!stale.exists(), "the dead game's temporary file is removed");
    assert!(live.exists(), "a live process's file is left alone");
}

#[cfg(unix)]
#[test]
fn a_failed_save_reports_the_error_and_keeps_the_edits() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("editor-save-fails");
    let sub = dir.0.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let path = sub.join("room.ron");
    std::fs::copy(repo().join("levels/vault.ron"), &path).unwrap();
    let original = std::fs::read(&path).unwrap();
    let mut editor = open(&path);
    editor.paint(1, 1, 'c').unwrap();
    let edited = editor.text().to_owned();

    // A read-only file.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let err = editor.save().unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("cannot save {}: the file is read-only", path.display())
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();

    // A read-only directory (which root may write anyway: then only the other cases count).
    std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o555)).unwrap();
    let probe = sub.join("probe");
    if std::fs::write(&probe, "x").is_ok() {
        let _ = std::fs::remove_file(&probe);
    } else {
        let err = editor.save().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot save {}: cannot create a file in {}: permission denied",
                path.display(),
                sub.display()
            )
        );
    }
    std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), original);
    assert_eq!(
        std::fs::read_dir(&sub).unwrap().count(),
        1,
        "no temporary file"
    );

    // The directory gone.
    std::fs::remove_dir_all(&sub).unwrap();
    let err = editor.save().unwrap_err();
    assert!(
        matches!(&err, SaveError::Write(e) if e.message == "the directory does not exist"),
        "{err}"
    );
    assert_eq!(editor.text(), edited);
    assert!(editor.is_modified());

    // Back again: the edits in memory are saved.
    std::fs::create_dir(&sub).unwrap();
    editor.save().unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o644
    );
}

#[test]
fn a_directory_no_one_can_write_refuses_the_save() {
    // Even root cannot create files in /proc.
    let path = Path::new("/proc/crate-room-editor-test.ron");
    let mut editor = Editor::new_level(path, 5, 5, &DEFAULT_SKINS).unwrap();
    let err = editor.save().unwrap_err();
    assert!(
        err.to_string().starts_with(
            "cannot save /proc/crate-room-editor-test.ron: cannot create a file in /proc: "
        ),
        "{err}"
    );
    assert!(editor.is_modified());
    assert_eq!(editor.last_saved(), None);
}

#[test]
fn a_new_level_looks_like_a_shipped_one_and_passes_check() {
    let dir = TempDir::new("editor-new");
    let path = dir.0.join("my room.ron");
    let mut editor = Editor::new_level(&path, 7, 4, &atlas().crate_skins()).unwrap();
    assert!(editor.is_modified());
    assert_eq!(
        editor.text(),
        concat!(
            "// A new level, made in the Crate Room editor.\n(\n    name: \"my room\",\n",
            "    map: [\n",
            "        \"",
            "#######",
            "\",\n",
            "        \"#.....#\",\n",
            "        \"#..@..#\",\n",
            "        \"",
            "#######",
            "\",\n",
            "    ],\n)\n"
        )
    );
    editor.save().unwrap();
    assert_eq!(check(&path), (0, "ok: 1 file valid\n".to_owned()));
    assert!(!editor.is_modified());
    for (w, h) in [(1, 1), (2, 2), (3, 1), (MAX_SIDE, 1), (1, MAX_SIDE)] {
        let path = dir.0.join(format!("{w}x{h}.ron"));
        let mut editor = Editor::new_level(&path, w, h, &DEFAULT_SKINS).unwrap();
        assert_eq!((editor.width(), editor.height()), (w, h));
        editor.save().unwrap();
        assert_eq!(check(&path).0, 0, "{w} x {h}: {}", check(&path).1);
    }
    for (w, h) in [(0, 5), (5, 0), (MAX_SIDE + 1, 5)] {
        assert!(Editor::new_level(&path, w, h, &DEFAULT_SKINS).is_err());
    }
    // A name the format cannot hold is made one it can.
    let odd = dir.0.join(format!("{}\u{202e}.ron", "n".repeat(100)));
    let editor = Editor::new_level(&odd, 3, 3, &DEFAULT_SKINS).unwrap();
    assert_eq!(editor.problem(), None);
    assert_eq!(editor.level().unwrap().name, "n".repeat(64));
}

#[test]
fn opening_a_file_that_is_not_a_valid_level_names_the_place() {
    let dir = TempDir::new("editor-open-bad");
    let path = dir.0.join("bad.ron");
    std::fs::write(&path, "(\n    name: \"x\",\n    mapp: [],\n)").unwrap();
    let err = Editor::open(&path, &DEFAULT_SKINS).unwrap_err();
    assert_eq!(
        err.headline(),
        format!("{}:3:5: error: unknown field `mapp`", path.display())
    );
    let missing = Editor::open(&dir.0.join("none.ron"), &DEFAULT_SKINS).unwrap_err();
    assert_eq!(missing.message, "cannot read level file: no such file");
}

#[test]
fn the_palette_lists_the_built_ins_then_the_legend() {
    let dir = TempDir::new("editor-palette");
    let editor = open(&copy_level(&dir, "vault.ron"));
    let palette = editor.palette();
    let chars: String = palette.iter().map(|b| b.ch).collect();
    assert_eq!(chars, "#. cC$o@kv");
    assert_eq!(palette[9].label, "'v': crate_strong, 20 hp, coin");
    assert_eq!(
        palette[9].kind,
        game::editor::BrushKind::Crate {
            skin: "crate_strong".to_owned(),
            health: 20,
            coin: true
        }
    );
}

#[test]
fn a_file_changed_on_disk_is_not_saved_over_unless_asked() {
    let dir = TempDir::new("editor-changed-on-disk");
    let path = copy_level(&dir, "corridors.ron");
    let mut editor = open(&path);
    editor.paint(3, 2, 'c').unwrap();
    let theirs = std::fs::read_to_string(&path)
        .unwrap()
        .replace("Corridors\"", "Corridors, edited elsewhere\"");
    std::fs::write(&path, &theirs).unwrap();
    let err = editor.save().unwrap_err();
    assert!(
        matches!(err, SaveError::ChangedOnDisk(ref p) if *p == path),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
    assert!(editor.is_modified());
    editor.save_overwriting().unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), editor.text());
    // From now on the editor's own save is what it compares with.
    editor.paint(4, 2, 'c').unwrap();
    editor.save().unwrap();
    // A deleted file is simply written again.
    std::fs::remove_file(&path).unwrap();
    editor.paint(5, 2, 'c').unwrap();
    editor.save().unwrap();
    assert_eq!(check(&path).0, 0);

    // A new level does not replace a file that appeared at its path.
    let new = dir.0.join("new.ron");
    let mut editor = Editor::new_level(&new, 5, 5, &DEFAULT_SKINS).unwrap();
    std::fs::write(&new, "someone else's").unwrap();
    assert!(matches!(editor.save(), Err(SaveError::ChangedOnDisk(_))));
    assert_eq!(std::fs::read_to_string(&new).unwrap(), "someone else's");
}
