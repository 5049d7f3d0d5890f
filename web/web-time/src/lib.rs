//! The part of the `web-time` crate's interface that `puffin_egui` uses (`Instant`,
//! `Duration`), for Crate Room's browser build.
//!
//! The real crate reads the browser's clock through `wasm-bindgen`, whose JavaScript glue
//! macroquad's own loader cannot host: a build that links it does not start. This stand-in
//! reads macroquad's clock instead in a browser, and is `std::time` everywhere else. The root
//! `Cargo.toml` puts it in place of the real crate with `[patch.crates-io]`.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::{Duration, Instant};

#[cfg(target_arch = "wasm32")]
pub use std::time::Duration;

/// A point on macroquad's clock, in a browser.
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Instant(f64);

#[cfg(target_arch = "wasm32")]
impl Instant {
    /// Now.
    pub fn now() -> Self {
        Self(macroquad::miniquad::date::now())
    }

    /// Time since `self` (zero if the clock went back).
    pub fn elapsed(&self) -> Duration {
        Duration::from_secs_f64((Self::now().0 - self.0).max(0.0))
    }
}
