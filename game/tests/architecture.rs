//! Architecture invariants that a grep can check, checked.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn offenders(paths: &[PathBuf], words: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            rust_files(p, &mut files);
        } else {
            files.push(p.clone());
        }
    }
    let mut bad = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            for w in words {
                if line.contains(w) {
                    bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
                }
            }
        }
    }
    bad
}

/// The window layer, `game/src/window`: the only code that may use macroquad (and miniquad
/// under it). Every other file of `game/src`, `main.rs` included, is the headless core, the
/// asset generator or the command line.
const WINDOW_LAYER: &str = "window";

#[test]
fn nothing_outside_the_window_layer_touches_macroquad() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let core: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| {
            let top = f.strip_prefix(&src).unwrap().components().next().unwrap();
            top.as_os_str() != WINDOW_LAYER
        })
        .collect();
    // Every other file is checked: a new file is in the core unless it is under the window layer.
    assert!(core.len() > 20, "{} core files", core.len());
    // Paths, not prose: a doc comment may name macroquad.
    let bad = offenders(&core, &["macroquad::", "miniquad::", "macroquad as"]);
    assert!(
        bad.is_empty(),
        "nothing outside src/{WINDOW_LAYER} may use macroquad:\n{}",
        bad.join("\n")
    );
}

#[test]
fn ecs_depends_on_nothing_game_specific() {
    let ecs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ecs");
    let bad = offenders(
        &[ecs.join("src")],
        &["macroquad", "puffin", "ron::", "game::"],
    );
    assert!(
        bad.is_empty(),
        "ecs must not know the game:\n{}",
        bad.join("\n")
    );
    let manifest = std::fs::read_to_string(ecs.join("Cargo.toml")).unwrap();
    let deps = manifest
        .split("[dependencies]")
        .nth(1)
        .and_then(|s| s.split('[').next())
        .unwrap_or("");
    assert!(
        deps.trim().is_empty(),
        "ecs has no runtime dependencies: {deps}"
    );
}

#[test]
fn no_global_mutable_state_or_shared_ownership_of_entities() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = offenders(
        &[src],
        &[
            "static mut",
            "Rc<RefCell",
            "macroquad::experimental::collections::storage",
        ],
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn window_side_dependencies_flow_one_way_app_then_debug_then_ui() {
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // `app` uses `debug`, `ui` and `egui_bridge`; `debug` uses `ui` and `egui_bridge`; the
    // shared drawing helpers use neither.
    let debug = offenders(
        &[game.join("window/debug")],
        &["crate::window::app", "super::super::app"],
    );
    assert!(
        debug.is_empty(),
        "debug/ must not import app/:\n{}",
        debug.join("\n")
    );
    let shared = offenders(
        &[game.join("window/ui.rs"), game.join("window/egui_bridge")],
        &["crate::window::app", "crate::window::debug", "crate::sim"],
    );
    assert!(
        shared.is_empty(),
        "ui.rs and egui_bridge/ are neutral helpers:\n{}",
        shared.join("\n")
    );
}

#[test]
fn every_despawn_of_the_game_goes_through_the_one_that_tells_the_checkpoint_sum() {
    // The replay checkpoint sum hashes a changed entity only at its next fold; one being
    // despawned must be folded in the update that despawns it, while its components are still
    // there, so `sim::systems::despawn` notes it first. A `World::despawn` or `World::clear`
    // anywhere else would let it go unhashed.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let helper = src.join("headless/sim/systems/mod.rs");
    let bad: Vec<String> = offenders(&[src], &[".despawn(", "world.clear(", "world_mut().clear("])
        .into_iter()
        .filter(|line| !line.starts_with(&format!("{}:", helper.display())))
        .filter(|line| !line.contains(": //"))
        .collect();
    assert!(
        bad.is_empty(),
        "despawn through sim::systems::despawn:\n{}",
        bad.join("\n")
    );
}

/// The float methods whose result comes from the platform's math library (or its compiler's
/// intrinsics), so that the same input may give other bits on another platform: the
/// transcendental functions, and `mul_add`, which rounds once where `a * b + c` rounds twice.
/// `sqrt`, `abs`, `floor` and the arithmetic operators are exact in IEEE 754 and stay.
const PLATFORM_MATH: [&str; 26] = [
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sin_cos", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "exp", "exp2", "exp_m1", "ln", "log", "log2", "log10", "ln_1p",
    "powf", "powi", "hypot", "cbrt",
];

/// The simulation's arithmetic is the same on every platform: no file of `headless/sim` calls
/// a float method of the platform's math library, as a method (`x.sin()`) or by path
/// (`f32::sin`); it calls `libm` instead (pure Rust, the same bits everywhere).
#[test]
fn the_simulation_calls_no_platform_math() {
    let sim = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/headless/sim");
    let mut words: Vec<String> = Vec::new();
    for f in PLATFORM_MATH.iter().chain(&["mul_add"]) {
        words.push(format!(".{f}("));
        words.push(format!("f32::{f}"));
        words.push(format!("f64::{f}"));
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let bad: Vec<String> = offenders(&[sim], &words)
        .into_iter()
        .filter(|line| {
            !line
                .split_once(": ")
                .is_some_and(|(_, code)| code.starts_with("//"))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "the simulation must not call the platform's math library (use libm::sinf and the like):\n{}",
        bad.join("\n")
    );
}

/// ARCHITECTURE.md maps folders, not files: each module says what it is in its own `//!`
/// summary, so a file without one would be missing from the map.
#[test]
fn every_source_file_opens_with_a_module_doc_comment() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    for dir in ["ecs/src", "game/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "{} source files", files.len());
    let bad: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            !text.trim_start_matches('\u{feff}').starts_with("//!")
        })
        .map(|f| f.strip_prefix(root).unwrap().display().to_string())
        .collect();
    assert!(
        bad.is_empty(),
        "these files do not open with a `//!` doc comment saying what the module is:\n{}",
        bad.join("\n")
    );
}
