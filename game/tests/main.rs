//! The game's headless integration tests, in one test program: each file of `game/tests/`
//! but the `window*.rs` ones is a module of it (its name starts each test's path,
//! `replay::...`), and `common/` holds what they share. The tests that open a real window are
//! the other program, `window` (`tests/windowed.rs`). `cargo test -p game --test integration
//! replay::` runs one file's tests.

mod common;

mod architecture;
mod assets_shipped;
mod cli;
mod cli_outputs;
mod data_files_damaged;
mod data_files_shared;
mod editor_fuzz;
mod editor_model;
mod editor_proptest;
mod editor_roundtrip;
mod gold_replays;
mod level_bad_levels;
mod level_escaping;
mod level_fuzz;
mod level_generate;
mod level_lessons;
mod level_limits;
mod level_memory;
mod level_positions;
mod level_shipped;
mod level_watch;
mod progress;
mod records;
mod reload;
mod replay;
mod replay_deep;
mod settings_file;
mod sim_checkpoint;
mod sim_dirty;
mod sim_rng;
mod sim_rules;
mod sim_state_hash;
mod sim_trig;
mod text_files;
