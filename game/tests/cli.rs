//! The `crate-room` binary's tools: `sim` (a smoke run of every shipped level), `gen-level`,
//! `check`, and its exit codes.

mod common;

use common::repo;
use std::path::PathBuf;
use std::process::{Command, Output};

fn crate_room(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crate-room"))
        .current_dir(repo())
        .args(args)
        .output()
        .expect("run crate-room")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn sim_runs_every_shipped_level_and_reports_json() {
    let levels: Vec<PathBuf> = std::fs::read_dir(repo().join("levels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    assert!(levels.len() >= 2);
    for level in levels {
        let level = level.to_str().unwrap();
        let out = crate_room(&[
            "sim", "--level", level, "--frames", "30", "--input", "bot", "--json",
        ]);
        assert!(
            out.status.success(),
            "{level}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        for field in [
            "level",
            "frames",
            "entities",
            "crates_total",
            "crates_left",
            "score",
            "state_hash",
            "load_ms",
            "update_us_mean",
            "update_us_p99",
        ] {
            assert!(report.get(field).is_some(), "{level}: no `{field}`");
        }
        assert_eq!(report["frames"], 30);
        let systems = report["systems"].as_array().unwrap();
        assert!(systems.iter().any(|s| s["name"] == "draw_data"));
        for s in systems {
            for field in ["name", "mean_us", "tracked", "dirty_mean"] {
                assert!(s.get(field).is_some(), "{level}: system without `{field}`");
            }
        }
    }
}

#[test]
fn sim_no_dirty_gives_the_same_state_hash() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "sim",
            "--level",
            "levels/crate_room.ron",
            "--frames",
            "400",
            "--input",
            "bot",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = crate_room(&args);
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        (
            v["state_hash"].as_str().unwrap().to_owned(),
            v["dirty"].as_bool().unwrap(),
        )
    };
    let (on, dirty_on) = run(&[]);
    let (off, dirty_off) = run(&["--no-dirty"]);
    assert!(dirty_on && !dirty_off);
    assert_eq!(on, off);
}

#[test]
fn gen_level_kegs_alone_writes_a_room_of_exactly_k_kegs() {
    let out = crate_room(&["gen-level", "--kegs", "40", "--seed", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let map_chars: usize = text
        .lines()
        .filter(|l| l.trim_start().starts_with("\"#"))
        .map(|l| l.matches('k').count())
        .sum();
    assert_eq!(map_chars, 40, "{text}");
}

#[test]
fn gen_level_writes_exactly_n_crates_identically_for_the_same_arguments() {
    let a = crate_room(&["gen-level", "--crates", "123", "--seed", "4"]);
    let b = crate_room(&["gen-level", "--crates", "123", "--seed", "4"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let out = std::env::temp_dir().join(format!("gen-{}.ron", std::process::id()));
    let w = crate_room(&[
        "gen-level",
        "--crates",
        "123",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(w.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), a.stdout);
    let sim = crate_room(&[
        "sim",
        "--level",
        out.to_str().unwrap(),
        "--frames",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&sim)).unwrap();
    assert_eq!(v["crates_total"], 123);
    let _ = std::fs::remove_file(out);
}

#[test]
fn check_exits_0_for_valid_levels_1_for_invalid_ones_and_2_for_usage_errors() {
    let ok = crate_room(&["check", "levels/crate_room.ron", "levels/cratetopia.ron"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));
    assert_eq!(stdout(&ok), "ok: 2 files valid\n");

    let bad = crate_room(&[
        "check",
        "levels/crate_room.ron",
        "game/tests/bad_levels/unknown_field.ron",
        "levels/nope.ron",
        "levels",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let text = stdout(&bad);
    assert!(
        text.contains("unknown_field.ron:8:5: error: unknown field `lgend`\n  |     lgend: { 'x': Wall },\n  |     ^\n  = hint: did you mean `legend`?\n"),
        "the error, its line with a caret, and the hint: {text}"
    );
    assert!(!text.contains("ok:"), "{text}");
    assert!(text.contains("nope.ron"), "a missing path is named: {text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("levels:") || l.starts_with("levels ")),
        "a directory is named: {text}"
    );

    let usage = crate_room(&["check"]);
    assert_eq!(usage.status.code(), Some(2));
    let usage = crate_room(&["sim", "--frames", "x"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn bad_level_in_sim_is_reported_with_file_line_and_column_not_a_panic() {
    let out = crate_room(&["sim", "--level", "game/tests/bad_levels/unknown_field.ron"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown_field.ron:") && !err.contains("panicked"),
        "{err}"
    );
}
