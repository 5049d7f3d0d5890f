//! Crate Room placeholder.

pub mod atlas;
