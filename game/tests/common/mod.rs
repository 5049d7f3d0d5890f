//! Shared helpers for the simulation tests: build a `Sim` from inline level text with the
//! repository's atlas.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use game::atlas::AtlasData;
use game::level;
use game::sim::Sim;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn atlas() -> AtlasData {
    AtlasData::load(&repo().join("assets")).expect("repository atlas loads")
}

/// A simulation of the level whose map rows are `rows`.
pub fn sim_from_rows(rows: &[&str]) -> Sim {
    sim_from_rows_and(rows, "")
}

/// A simulation of the level whose map rows are `rows`, with more fields of the level file
/// (`legend: {...}, crates: [...]`) after the map.
pub fn sim_from_rows_and(rows: &[&str], fields: &str) -> Sim {
    let map: String = rows.iter().map(|r| format!("        \"{r}\",\n")).collect();
    let text = format!("(\n    name: \"test\",\n    map: [\n{map}    ],\n{fields}\n)\n");
    let atlas = atlas();
    let level = level::parse(Path::new("test.ron"), &text, &atlas.crate_skins())
        .unwrap_or_else(|e| panic!("test level is valid: {e}"));
    Sim::new(&level, &atlas, 7).unwrap()
}

/// Name of the clip entity `e` shows.
pub fn clip_name(sim: &Sim, e: ecs::Entity) -> String {
    let anim = sim
        .world()
        .get::<game::sim::components::Animation>(e)
        .expect("an animated entity");
    sim.world()
        .resource::<game::sim::Clips>()
        .get(anim.clip)
        .name
        .clone()
}

/// A simulation of a shipped level file.
pub fn sim_from_file(name: &str, seed: u64) -> Sim {
    let path = repo().join("levels").join(name);
    let (_, sim) = Sim::load(&path, &atlas(), seed).unwrap_or_else(|e| panic!("{e}"));
    sim
}
