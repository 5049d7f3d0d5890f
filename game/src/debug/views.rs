//! Which debug views are on. Parsed from `--debug LIST` and toggled by keys.

use std::fmt;
use std::str::FromStr;

/// One debug view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// F1: the key help.
    Help,
    /// F2: puffin's profiler window.
    Profiler,
    /// F3: collision boxes (solid, sensor and disabled in different colours).
    Boxes,
    /// F4: the collision grid's occupied cells with their counts.
    Grid,
    /// F5: entities the draw-data system recomputed this frame.
    Dirty,
    /// F6: timings, entity and per-system counts, draw calls.
    Stats,
}

impl View {
    /// Every view with its `--debug` name.
    pub const ALL: [(View, &'static str); 6] = [
        (View::Help, "help"),
        (View::Profiler, "profiler"),
        (View::Boxes, "boxes"),
        (View::Grid, "grid"),
        (View::Dirty, "dirty"),
        (View::Stats, "stats"),
    ];

    /// The `--debug` name.
    pub fn name(self) -> &'static str {
        View::ALL
            .iter()
            .find(|(v, _)| *v == self)
            .map_or("?", |(_, n)| n)
    }
}

/// The set of views that are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Views(u8);

impl Views {
    /// Whether `view` is on.
    pub fn is_on(self, view: View) -> bool {
        self.0 & (1 << view as u8) != 0
    }

    /// Turn `view` on or off.
    pub fn set(&mut self, view: View, on: bool) {
        if on {
            self.0 |= 1 << view as u8;
        } else {
            self.0 &= !(1 << view as u8);
        }
    }

    /// Flip `view`.
    pub fn toggle(&mut self, view: View) {
        self.set(view, !self.is_on(view));
    }
}

/// A `--debug` list named a view that does not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownView(pub String);

impl fmt::Display for UnknownView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = View::ALL.iter().map(|(_, n)| *n).collect();
        write!(
            f,
            "unknown debug view `{}` (expected a comma-separated list of: {}, or all)",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownView {}

impl FromStr for Views {
    type Err = UnknownView;

    /// Parse `profiler,boxes,grid` (or `all`, or an empty string for none).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut views = Views::default();
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name == "all" {
                for (v, _) in View::ALL {
                    views.set(v, true);
                }
                continue;
            }
            let (view, _) = View::ALL
                .iter()
                .find(|(_, n)| *n == name)
                .ok_or_else(|| UnknownView(name.to_owned()))?;
            views.set(*view, true);
        }
        Ok(views)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_list_parses_names_and_all() {
        let v: Views = "profiler, boxes".parse().unwrap();
        assert!(v.is_on(View::Profiler) && v.is_on(View::Boxes) && !v.is_on(View::Grid));
        let all: Views = "all".parse().unwrap();
        assert!(View::ALL.iter().all(|(view, _)| all.is_on(*view)));
        assert_eq!("".parse::<Views>().unwrap(), Views::default());
    }

    #[test]
    fn unknown_view_names_the_valid_ones() {
        let err = "boxes,grdi".parse::<Views>().unwrap_err().to_string();
        assert!(err.contains("`grdi`") && err.contains("grid"), "{err}");
    }
}
