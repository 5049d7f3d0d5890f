//! What the game writes never destroys a file: no output onto an input of the same run (however
//! the path is spelled), every output written atomically (a full disk leaves the old file
//! whole), nothing but a regular file or a new path replaced (a FIFO is refused at once, not
//! waited on), and a windowed `--record` that cannot be written refused before the window.
//! (A failed write to standard output is `cli.rs`'s.)

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::process::{TOOL_LIMIT, output_within};
use common::{TempDir, crate_room, crate_room_without_display, repo, stderr};

fn mkfifo(path: &Path) -> bool {
    let made = Command::new("mkfifo").arg(path).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return false;
    }
    true
}

#[test]
fn sim_never_records_onto_its_level_or_script_however_the_path_is_spelled() {
    let dir = TempDir::new("record-onto-input");
    let level = dir.path("x.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &level).unwrap();
    let script = dir.path("walk.txt");
    std::fs::write(&script, "20 up\n20 right\n").unwrap();
    let level_bytes = std::fs::read(&level).unwrap();
    let script_bytes = std::fs::read(&script).unwrap();
    let dir_name = dir.0.file_name().unwrap().to_str().unwrap();
    let respelled = format!("{}/../{dir_name}/./x.ron", dir.0.display());
    std::os::unix::fs::symlink(&level, dir.0.join("link.ron")).unwrap();
    let input = format!("script:{script}");
    for record in [level.as_str(), &respelled, &dir.path("link.ron"), &script] {
        let out = crate_room(&[
            "sim", "--level", &level, "--input", &input, "--frames", "5", "--record", record,
        ]);
        assert_eq!(out.status.code(), Some(1), "--record {record}");
        assert!(
            stderr(&out).contains("an input of this run"),
            "--record {record}: {}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read(&level).unwrap(), level_bytes);
    assert_eq!(std::fs::read(&script).unwrap(), script_bytes);
}

#[test]
fn a_full_disk_leaves_the_old_level_whole_and_no_temporary_file() {
    if !common::have("prlimit") {
        eprintln!("skipped: prlimit (util-linux) is not available");
        return;
    }
    let dir = TempDir::new("full-disk");
    let out_path = dir.path("level.ron");
    std::fs::copy(repo().join("levels/crate_room.ron"), &out_path).unwrap();
    let before = std::fs::read(&out_path).unwrap();
    // A file-size limit of 4 KiB stands in for a full disk: the write past it fails (EFBIG)
    // once SIGXFSZ is ignored. 20,000 crates are far more than 4 KiB of level.
    let out = output_within(
        Command::new("sh")
            .arg("-c")
            .arg("trap '' XFSZ; exec prlimit --fsize=4096 \"$@\"")
            .arg("sh")
            .arg(env!("CARGO_BIN_EXE_crate-room"))
            .args([
                "gen-level",
                "--crates",
                "20000",
                "--force",
                "--out",
                &out_path,
            ])
            .current_dir(repo()),
        TOOL_LIMIT,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with(&format!("error: cannot write {out_path}: ")),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(&out_path).unwrap(),
        before,
        "the old level is whole"
    );
    let check = crate_room(&["check", &out_path]);
    assert_eq!(check.status.code(), Some(0));
    let left: Vec<_> = std::fs::read_dir(&dir.0).unwrap().collect();
    assert_eq!(left.len(), 1, "no temporary file is left: {left:?}");
}

#[test]
fn a_fifo_as_an_output_is_refused_at_once() {
    let dir = TempDir::new("fifo-out");
    let fifo = dir.0.join("out");
    if !mkfifo(&fifo) {
        return;
    }
    let fifo = fifo.to_str().unwrap();
    let shot = dir.0.join("shot.png");
    if !mkfifo(&shot) {
        return;
    }
    let shot = shot.to_str().unwrap();
    // A FIFO opened for writing waits for a reader: a run that opened it would never end.
    let gen_level = output_within(
        Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(repo())
            .args(["gen-level", "--crates", "5", "--out", fifo]),
        Duration::from_secs(60),
    );
    assert_eq!(gen_level.status.code(), Some(1));
    assert_eq!(
        stderr(&gen_level),
        format!("error: cannot write {fifo}: it is a named pipe (FIFO), not a regular file\n")
    );
    let screenshot = crate_room_without_display(&["--frames", "3", "--screenshot", shot]);
    assert_eq!(screenshot.status.code(), Some(1));
    assert!(
        stderr(&screenshot).contains("named pipe (FIFO)"),
        "{}",
        stderr(&screenshot)
    );
}

#[test]
fn a_windowed_record_that_cannot_be_written_is_refused_before_the_window() {
    let dir = TempDir::new("window-record");
    let fifo = dir.0.join("fifo.replay");
    let have_fifo = mkfifo(&fifo);
    let mut cases = vec![
        ("/dev/full".to_owned(), "a character device"),
        (dir.path(""), "a directory"),
        (
            dir.path("no/such/folder/run.replay"),
            "the directory does not exist",
        ),
        ("levels/crate_room.ron".to_owned(), "an input of this run"),
    ];
    if have_fifo {
        cases.push((fifo.to_str().unwrap().to_owned(), "named pipe"));
    }
    for (record, why) in cases {
        let out = crate_room_without_display(&[
            "--level",
            "levels/crate_room.ron",
            "--frames",
            "3",
            "--record",
            &record,
        ]);
        assert_eq!(out.status.code(), Some(1), "--record {record}");
        let err = stderr(&out);
        assert!(
            err.starts_with("error: --record: ") && err.contains(why),
            "--record {record}: {err}"
        );
        assert!(!err.contains("display"), "refused before the window: {err}");
    }
    assert!(!dir.0.join("no").exists(), "no folder is made");
}

#[test]
fn sim_refuses_to_record_a_level_path_a_replay_cannot_store() {
    let dir = TempDir::new("unstorable");
    for name in ["new\nline.ron", "esc\u{1b}[2J.ron"] {
        let level = dir.0.join(name);
        std::fs::copy(repo().join("levels/crate_room.ron"), &level).unwrap();
        let record = dir.path("run.replay");
        let out = crate_room(&[
            "sim",
            "--level",
            level.to_str().unwrap(),
            "--frames",
            "3",
            "--record",
            &record,
        ]);
        assert_eq!(out.status.code(), Some(1), "{name:?}");
        let err = stderr(&out);
        assert!(err.contains("cannot record a replay of"), "{err}");
        assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
        assert_eq!(err.lines().count(), 1, "{err:?}");
        assert!(!Path::new(&record).exists(), "{name:?}: no replay written");
    }
}

/// A copy of the game's install (its atlas, two levels, the campaign list) and a data folder
/// holding each data file, in a scratch folder.
fn install_copy(test: &str) -> TempDir {
    let dir = TempDir::new(test);
    for sub in ["assets", "levels", "data"] {
        std::fs::create_dir_all(dir.0.join(sub)).unwrap();
    }
    for file in [
        "assets/atlas.ron",
        "assets/atlas.png",
        "levels/campaign.txt",
        "levels/crate_room.ron",
        "levels/vault.ron",
    ] {
        std::fs::copy(repo().join(file), dir.0.join(file)).unwrap();
    }
    for (file, text) in [
        ("best_times.txt", "\"vault.ron\" = 713\n"),
        ("progress.txt", "\"vault.ron\"\n"),
        ("settings.txt", "sound = off\n"),
    ] {
        std::fs::write(dir.0.join("data").join(file), text).unwrap();
    }
    dir
}

/// `crate-room ARGS` in `root`, its data folder `root/data`, with no display.
fn in_install(root: &Path, args: &[&str]) -> std::process::Output {
    output_within(
        Command::new(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(root)
            .env("CRATE_ROOM_DATA_DIR", root.join("data"))
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .args(args),
        TOOL_LIMIT,
    )
}

#[test]
fn no_output_replaces_the_games_own_files() {
    let root = install_copy("own-files");
    let own = [
        "assets/atlas.png",
        "assets/atlas.ron",
        "levels/campaign.txt",
        "levels/vault.ron",
        "data/best_times.txt",
        "data/progress.txt",
        "data/settings.txt",
    ];
    let before: Vec<Vec<u8>> = own
        .iter()
        .map(|f| std::fs::read(root.0.join(f)).unwrap())
        .collect();
    // A screenshot is named `*.png` and a profile `*.puffin`: links of those names lead to
    // the other files.
    for (n, target) in own.iter().enumerate() {
        for ext in ["png", "puffin"] {
            let link = root.0.join(format!("link{n}.{ext}"));
            std::os::unix::fs::symlink(root.0.join(target), link).unwrap();
        }
    }
    for (n, target) in own.iter().enumerate() {
        let (png, puffin) = (format!("link{n}.png"), format!("link{n}.puffin"));
        let play = ["--level", "levels/crate_room.ron", "--frames", "3"];
        let runs: [(&str, Vec<&str>); 6] = [
            (
                "gen-level",
                vec!["gen-level", "--crates", "3", "--out", target],
            ),
            (
                "sim --record",
                vec![
                    "sim",
                    "--level",
                    "levels/crate_room.ron",
                    "--frames",
                    "10",
                    "--record",
                    target,
                ],
            ),
            ("--record", [&play[..], &["--record", target]].concat()),
            (
                "--screenshot",
                [&play[..], &["--screenshot", &png]].concat(),
            ),
            (
                "--save-profile",
                [&play[..], &["--save-profile", &puffin]].concat(),
            ),
            (
                "--screenshot (direct)",
                [&play[..], &["--screenshot", "assets/atlas.png"]].concat(),
            ),
        ];
        for (what, args) in runs {
            let out = in_install(&root.0, &args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(1), "{what} onto {target}: {err}");
            assert!(
                err.starts_with("error: ") && err.contains("choose") && !err.contains("display"),
                "{what} onto {target}: {err}"
            );
        }
    }
    for (file, bytes) in own.iter().zip(&before) {
        assert_eq!(
            &std::fs::read(root.0.join(file)).unwrap(),
            bytes,
            "{file} unchanged"
        );
    }
}

#[test]
fn gen_level_replaces_a_level_only_with_force_and_writes_new_ones_in_levels() {
    let root = install_copy("gen-force");
    let vault = std::fs::read(root.0.join("levels/vault.ron")).unwrap();
    let refused = in_install(
        &root.0,
        &["gen-level", "--crates", "3", "--out", "levels/vault.ron"],
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(stderr(&refused).contains("--force"), "{}", stderr(&refused));
    assert_eq!(
        std::fs::read(root.0.join("levels/vault.ron")).unwrap(),
        vault
    );

    let new = in_install(
        &root.0,
        &["gen-level", "--crates", "3", "--out", "levels/new.ron"],
    );
    assert_eq!(new.status.code(), Some(0), "{}", stderr(&new));
    let forced = in_install(
        &root.0,
        &[
            "gen-level",
            "--crates",
            "3",
            "--force",
            "--out",
            "levels/vault.ron",
        ],
    );
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    assert_eq!(
        std::fs::read(root.0.join("levels/vault.ron")).unwrap(),
        std::fs::read(root.0.join("levels/new.ron")).unwrap()
    );
    // --force replaces a level, never the campaign list or the atlas.
    for target in ["levels/campaign.txt", "assets/atlas.ron"] {
        let out = in_install(
            &root.0,
            &["gen-level", "--crates", "3", "--force", "--out", target],
        );
        assert_eq!(out.status.code(), Some(1), "{target}: {}", stderr(&out));
    }
}

#[test]
fn save_profile_is_checked_before_the_run() {
    let out = crate_room_without_display(&[
        "--frames",
        "3",
        "--save-profile",
        "/nonexistent/dir/p.puffin",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: --save-profile: ") && err.contains("the directory does not exist"),
        "{err}"
    );
}
