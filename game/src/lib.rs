//! Crate Room placeholder.
