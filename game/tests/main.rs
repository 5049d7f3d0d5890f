//! The game's integration tests, in one test program: each file of `game/tests/` is a module
//! of it (its name starts each test's path, `window::...`), and `common/` holds what they
//! share. One program links the game once, where a program per file linked it forty-five
//! times; and its tests share the machine's cores instead of one file's tests waiting for
//! the previous file's to end. `cargo test -p game --test integration window::` runs one
//! file's tests.

mod common;

mod architecture;
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
mod window;
mod window_campaign;
mod window_data_files;
mod window_editor;
mod window_hot_reload;
mod window_overlay;
mod window_profiler;
mod window_replay;
mod window_signals;
