//! The browser's [`Instant`]: a reading of the page's clock (macroquad's `now`, the page's
//! `performance.now()` in seconds since the epoch) kept as a whole number of nanoseconds.
//!
//! Whole numbers, so that differences add up: the window subtracts the time of a frame's steps
//! from the time of its whole update, and a part must never come out longer than the whole.
//! Differences of the page's `f64` seconds, each rounded to nanoseconds on its own, do not add
//! up: two steps' rounded times could exceed their update's by a nanosecond, and the
//! subtraction panicked ("overflow when subtracting durations").

use std::time::Duration;

/// A point on the page's clock, with the part of `std::time::Instant`'s interface the window
/// uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Instant(Duration);

impl Instant {
    /// Now.
    #[cfg_attr(
        not(target_arch = "wasm32"),
        allow(dead_code, reason = "the browser's; compiled natively for the tests")
    )]
    pub fn now() -> Self {
        Self::at(macroquad::miniquad::date::now())
    }

    /// The point `seconds` on the page's clock (a reading it cannot hold, negative or not a
    /// number, is its start).
    pub fn at(seconds: f64) -> Self {
        Self(Duration::try_from_secs_f64(seconds).unwrap_or_default())
    }

    /// Time since `self`.
    #[cfg_attr(
        not(target_arch = "wasm32"),
        allow(dead_code, reason = "the browser's; compiled natively for the tests")
    )]
    pub fn elapsed(&self) -> Duration {
        Self::now().duration_since(*self)
    }

    /// Time from `earlier` to `self` (zero if `earlier` is later).
    pub fn duration_since(&self, earlier: Self) -> Duration {
        self.0.saturating_sub(earlier.0)
    }

    /// The time since the clock's start.
    pub fn since_start(&self) -> Duration {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Readings as the page gives them: seconds since the epoch, from milliseconds that a
    /// browser rounds to 0.1 ms when the page is not cross-origin isolated.
    fn reading(tick: u64) -> Instant {
        let origin_ms = 1_764_140_000_000.123_f64;
        let ms = origin_ms + tick as f64 * 0.1;
        Instant::at(ms / 1e3)
    }

    #[test]
    fn the_times_of_the_parts_add_up_to_the_time_of_the_whole() {
        for i in 0..20_000_u64 {
            let (a, b, c) = (i * 7, i * 7 + 1 + i % 3, i * 7 + 2 + i % 3 + i % 5);
            let (start, middle, end) = (reading(a), reading(b), reading(c));
            let parts = middle.duration_since(start) + end.duration_since(middle);
            assert_eq!(
                parts,
                end.duration_since(start),
                "ticks {a}, {b}, {c}: the parts' times do not add up to the whole's"
            );
        }
    }

    #[test]
    fn a_reading_it_cannot_hold_is_the_start_and_time_never_runs_backwards() {
        assert_eq!(Instant::at(f64::NAN).since_start(), Duration::ZERO);
        assert_eq!(Instant::at(-1.0).since_start(), Duration::ZERO);
        assert_eq!(reading(1).duration_since(reading(5)), Duration::ZERO);
        assert!(reading(5).duration_since(reading(1)) > Duration::from_micros(399));
    }
}
