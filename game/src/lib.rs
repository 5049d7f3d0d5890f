//! Crate Room placeholder.

pub mod debug;
