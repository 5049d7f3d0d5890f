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

/// The Rust files of one crate's module tree, by module path (`sim::systems::collision`):
/// `lib.rs` is the root (the empty path) and `mod.rs` its folder's module. Binaries' roots
/// (`main.rs`, `bin/`) are other crates and left out.
fn module_files(src: &Path) -> Vec<(Vec<String>, PathBuf)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut modules = Vec::new();
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let mut path: Vec<String> = rel
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if path == ["main"] || path.first().is_some_and(|p| p == "bin") {
            continue;
        }
        if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
            path.pop();
        }
        modules.push((path, f));
    }
    modules
}

/// The `use` paths of a Rust file outside its `#[cfg(test)]` part, each as segments with the
/// braces expanded: `use crate::sim::{grid::Aabb, Hit};` gives `crate sim grid Aabb` and
/// `crate sim Hit`.
fn use_paths(text: &str) -> Vec<Vec<String>> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = rest.find(';') else { break };
        expand(&rest[..end], &mut Vec::new(), &mut paths);
        rest = &rest[end..];
    }
    // Paths written out in the code: `super::despawn(world, e)`.
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let tail = &code[at..];
            let len = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            paths.push(
                tail[..len]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
            );
        }
    }
    paths
}

/// Expand one use tree (`a::{b, c::{d, e}}`) under `prefix` into `out`.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    match tree.find('{') {
        None => {
            let mut path = prefix.clone();
            let head = tree.split(" as ").next().unwrap();
            path.extend(
                head.split("::")
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty()),
            );
            out.push(path);
        }
        Some(open) => {
            let depth = prefix.len();
            prefix.extend(
                tree[..open]
                    .split("::")
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty()),
            );
            let inner = &tree[open + 1..tree.rfind('}').unwrap()];
            let (mut level, mut start) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => level += 1,
                    '}' => level -= 1,
                    ',' if level == 0 => {
                        expand(&inner[start..i], prefix, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&inner[start..], prefix, out);
            prefix.truncate(depth);
        }
    }
}

/// Pairs of files of one crate that each `use` the other. A module and its own submodules do not
/// count (a `mod.rs` re-exports its children, and they name their parent's items).
fn files_importing_each_other(src: &Path) -> Vec<String> {
    let modules = module_files(src);
    let find = |path: &[String]| modules.iter().position(|(m, _)| m.as_slice() == path);
    // What the crate root re-exports, by the name it is reached by (`crate::World` is
    // `crate::world::World`, `crate::sim` is `crate::headless::sim`).
    let root = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let aliases: Vec<(String, Vec<String>)> = use_paths(&root)
        .into_iter()
        .filter(|p| p.len() > 1 && find(&p[..1]).is_some())
        .map(|p| (p.last().unwrap().clone(), p))
        .collect();
    let mut edges = std::collections::BTreeSet::new();
    for (from, (module, file)) in modules.iter().enumerate() {
        for path in use_paths(&std::fs::read_to_string(file).unwrap()) {
            // The module `self` names: a `mod.rs` is its folder, another file is itself.
            let mut base: Vec<String> = module.clone();
            let mut segs = path.as_slice();
            match segs.first().map(String::as_str) {
                Some("crate") => {
                    base.clear();
                    segs = &segs[1..];
                }
                Some("super") => {
                    while segs.first().is_some_and(|s| s == "super") {
                        base.pop();
                        segs = &segs[1..];
                    }
                }
                Some("self") => segs = &segs[1..],
                Some(first)
                    if find(&[module.as_slice(), &[first.to_owned()]].concat()).is_some() => {}
                _ => continue,
            }
            let mut full: Vec<String> = base.into_iter().chain(segs.iter().cloned()).collect();
            if let Some((_, target)) = aliases.iter().find(|(a, _)| full.first() == Some(a)) {
                full.splice(..1, target.iter().cloned());
            }
            // The longest prefix of the path that is a file's module.
            let to = (0..=full.len()).rev().find_map(|k| find(&full[..k]));
            if let Some(to) = to {
                let (a, b) = (&modules[from].0, &modules[to].0);
                let related = a.starts_with(b) || b.starts_with(a);
                if !related {
                    edges.insert((from, to));
                }
            }
        }
    }
    edges
        .iter()
        .filter(|&&(a, b)| a < b && edges.contains(&(b, a)))
        .map(|&(a, b)| format!("{} <-> {}", modules[a].1.display(), modules[b].1.display()))
        .collect()
}

#[test]
fn no_two_source_files_import_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut pairs = files_importing_each_other(&root.join("ecs/src"));
    pairs.extend(files_importing_each_other(&root.join("game/src")));
    assert!(
        pairs.is_empty(),
        "files that import each other:\n{}",
        pairs.join("\n")
    );
}

/// The most lines a source file of `ecs/src` or `game/src` may have: past it, a file holds more
/// than one concept (split along them, not at a line count).
const MAX_FILE_LINES: usize = 900;

#[test]
fn no_source_file_is_over_900_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    rust_files(&root.join("ecs/src"), &mut files);
    rust_files(&root.join("game/src"), &mut files);
    let long: Vec<String> = files
        .iter()
        .map(|f| (f, std::fs::read_to_string(f).unwrap().lines().count()))
        .filter(|&(_, lines)| lines > MAX_FILE_LINES)
        .map(|(f, lines)| format!("{}: {lines} lines", f.display()))
        .collect();
    assert!(files.len() > 100, "{} files", files.len());
    assert!(
        long.is_empty(),
        "over {MAX_FILE_LINES} lines:\n{}",
        long.join("\n")
    );
}
