//! Which debug views are on, and the one table of their names, keys and help lines. Parsed from
//! `--debug LIST` and toggled by the keys listed here.

use std::fmt;
use std::str::FromStr;

use macroquad::input::KeyCode;

/// One debug view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// F1: the key help.
    Help,
    /// F2: the profiler window: each system's time per step, and puffin's flamegraph.
    Profiler,
    /// F3: collision boxes (solid, sensor and disabled in different colours).
    Boxes,
    /// F4: the collision grid's occupied cells with their counts.
    Grid,
    /// F5: entities the draw-data system recomputed this frame.
    Dirty,
    /// F6: frame timings in µs with a graph, entity and per-system counts, draw calls.
    Stats,
    Compare,
}

/// One row of the view table: a view, its `--debug` name, its key and its help line.
#[derive(Clone, Copy, Debug)]
pub struct ViewEntry {
    /// The view.
    pub view: View,
    /// Its `--debug` name.
    pub name: &'static str,
    /// The key that toggles it.
    pub key: KeyCode,
    /// The help overlay's line for it.
    pub help: &'static str,
}

impl View {
    /// Every view: the one table of names, keys and help lines.
    pub const ALL: [ViewEntry; 7] = [
        ViewEntry {
            view: View::Help,
            name: "help",
            key: KeyCode::F1,
            help: "F1       this help",
        },
        ViewEntry {
            view: View::Profiler,
            name: "profiler",
            key: KeyCode::F2,
            help: "F2       profiler: system times, flamegraph",
        },
        ViewEntry {
            view: View::Boxes,
            name: "boxes",
            key: KeyCode::F3,
            help: "F3       collision boxes",
        },
        ViewEntry {
            view: View::Grid,
            name: "grid",
            key: KeyCode::F4,
            help: "F4       spatial-hash grid",
        },
        ViewEntry {
            view: View::Dirty,
            name: "dirty",
            key: KeyCode::F5,
            help: "F5       dirty view",
        },
        ViewEntry {
            view: View::Stats,
            name: "stats",
            key: KeyCode::F6,
            help: "F6       stats panel and frame-time graph",
        },
        ViewEntry {
            view: View::Compare,
            name: "compare",
            key: KeyCode::F8,
            help: "F8       compare: the same steps with tracking on and off",
        },
    ];

    /// The `--debug` name.
    pub fn name(self) -> &'static str {
        View::ALL
            .iter()
            .find(|e| e.view == self)
            .map_or("?", |e| e.name)
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
        let names: Vec<_> = View::ALL.iter().map(|e| e.name).collect();
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
                for e in View::ALL {
                    views.set(e.view, true);
                }
                continue;
            }
            let entry = View::ALL
                .iter()
                .find(|e| e.name == name)
                .ok_or_else(|| UnknownView(name.to_owned()))?;
            views.set(entry.view, true);
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
        assert!(View::ALL.iter().all(|e| all.is_on(e.view)));
        assert_eq!("".parse::<Views>().unwrap(), Views::default());
    }

    #[test]
    fn every_view_has_its_own_key_and_a_help_line_naming_it() {
        for (i, e) in View::ALL.iter().enumerate() {
            assert_eq!(e.view as usize, i, "table in enum order");
            assert!(e.help.starts_with(&format!("{:?}", e.key)), "{}", e.help);
            assert!(View::ALL[..i].iter().all(|o| o.key != e.key));
        }
    }

    #[test]
    fn unknown_view_names_the_valid_ones() {
        let err = "boxes,grdi".parse::<Views>().unwrap_err().to_string();
        assert!(err.contains("`grdi`") && err.contains("grid"), "{err}");
    }
}
