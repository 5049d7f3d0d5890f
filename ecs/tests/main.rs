//! The ECS's integration tests, in one test program: each file of `ecs/tests/` is a module of
//! it (its name starts each test's path, `tracking::...`), and `common/` holds what they
//! share. `cargo test -p ecs --test integration tracking::` runs one file's tests.

mod common;

mod calls_from_systems;
mod entities;
mod health_logger;
mod late_slots;
mod lifecycle;
mod model;
mod query;
mod removed;
mod resources_events;
mod schedule;
mod send;
mod tracking;
mod type_lists;
mod unwind;
