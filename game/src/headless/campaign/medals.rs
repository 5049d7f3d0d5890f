//! Par times and medals: a level's gold, silver and bronze times, and what a clear earned.
//!
//! Par times are set in the level file (`par: (gold: 30, silver: 45, bronze: 70)`, in seconds;
//! `level/validate.rs` checks them) and kept here in simulation steps, the unit best times and
//! replays count, so a medal depends only on the run, never on the frame rate.
//!
//! ```
//! use game::campaign::medals::{Medal, Par};
//!
//! let par = Par { gold: 1800, silver: 2700, bronze: 4200 };
//! assert_eq!(par.medal(1800), Some(Medal::Gold));
//! assert_eq!(par.medal(2000), Some(Medal::Silver));
//! assert_eq!(par.medal(5000), None);
//! // 2000 steps earn silver; gold needed 200 steps less.
//! assert_eq!(par.next(2000), Some((Medal::Gold, 200)));
//! assert_eq!(par.next(1000), None);
//! ```

use std::fmt;

/// A medal, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Medal {
    Gold,
    Silver,
    Bronze,
}

impl Medal {
    /// Every medal, best first.
    pub const ALL: [Medal; 3] = [Medal::Gold, Medal::Silver, Medal::Bronze];

    /// The medal's name, as shown.
    pub fn name(self) -> &'static str {
        match self {
            Medal::Gold => "gold",
            Medal::Silver => "silver",
            Medal::Bronze => "bronze",
        }
    }
}

impl fmt::Display for Medal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level's par times in simulation steps: clearing the room in at most `gold` steps earns
/// gold, and so on. Validation makes `0 < gold < silver < bronze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Par {
    pub gold: u64,
    pub silver: u64,
    pub bronze: u64,
}

impl Par {
    /// The par time of `medal`, in steps.
    pub fn time(&self, medal: Medal) -> u64 {
        match medal {
            Medal::Gold => self.gold,
            Medal::Silver => self.silver,
            Medal::Bronze => self.bronze,
        }
    }

    /// The best medal a clear in `steps` earns, if any.
    pub fn medal(&self, steps: u64) -> Option<Medal> {
        Medal::ALL.into_iter().find(|&m| steps <= self.time(m))
    }

    /// The next better medal than the one `steps` earns, and how many steps faster it needs;
    /// `None` for gold.
    pub fn next(&self, steps: u64) -> Option<(Medal, u64)> {
        Medal::ALL
            .into_iter()
            .rev()
            .find(|&m| steps > self.time(m))
            .map(|m| (m, steps - self.time(m)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAR: Par = Par {
        gold: 100,
        silver: 200,
        bronze: 300,
    };

    #[test]
    fn a_par_time_itself_earns_its_medal() {
        assert_eq!(PAR.medal(1), Some(Medal::Gold));
        assert_eq!(PAR.medal(100), Some(Medal::Gold));
        assert_eq!(PAR.medal(101), Some(Medal::Silver));
        assert_eq!(PAR.medal(200), Some(Medal::Silver));
        assert_eq!(PAR.medal(300), Some(Medal::Bronze));
        assert_eq!(PAR.medal(301), None);
    }

    #[test]
    fn next_is_the_medal_one_better_and_the_steps_it_needs() {
        assert_eq!(PAR.next(100), None);
        assert_eq!(PAR.next(101), Some((Medal::Gold, 1)));
        assert_eq!(PAR.next(250), Some((Medal::Silver, 50)));
        assert_eq!(PAR.next(400), Some((Medal::Bronze, 100)));
    }
}
