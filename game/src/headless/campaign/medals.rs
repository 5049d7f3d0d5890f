//! Par times and medals: a level's author, gold, silver and bronze times, and what a clear
//! earned.
//!
//! Par times are set in the level file (`par: (author: 24.5, gold: 30, silver: 45, bronze:
//! 70)`, in seconds, the author time optional; `level/validate.rs` checks them) and kept here in
//! simulation steps, the unit best times and replays count, so a medal depends only on the run,
//! never on the frame rate. The author time is the best route known (its replay is in
//! `levels/gold/`); matching or beating it earns the **author** medal, above gold.
//!
//! ```
//! use game::campaign::medals::{Medal, Par};
//!
//! let par = Par { author: Some(1500), gold: 1800, silver: 2700, bronze: 4200 };
//! assert_eq!(par.medal(1500), Some(Medal::Author));
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
    /// The author time matched or beaten: the best route known.
    Author,
    Gold,
    Silver,
    Bronze,
}

impl Medal {
    /// Every medal, best first.
    pub const ALL: [Medal; 4] = [Medal::Author, Medal::Gold, Medal::Silver, Medal::Bronze];

    /// The medals every par sets, best first (the author time is optional).
    pub const PAR: [Medal; 3] = [Medal::Gold, Medal::Silver, Medal::Bronze];

    /// The medal's name, as shown.
    pub fn name(self) -> &'static str {
        match self {
            Medal::Author => "author",
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
/// gold, and so on. Validation makes `0 < author < gold < silver < bronze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Par {
    /// The best route known, if the level says.
    pub author: Option<u64>,
    pub gold: u64,
    pub silver: u64,
    pub bronze: u64,
}

impl Par {
    /// The par time of `medal`, in steps (0, which no clear beats, for a missing author time).
    pub fn time(&self, medal: Medal) -> u64 {
        match medal {
            Medal::Author => self.author.unwrap_or(0),
            Medal::Gold => self.gold,
            Medal::Silver => self.silver,
            Medal::Bronze => self.bronze,
        }
    }

    /// The medals this par offers, best first, with their times in steps.
    pub fn medals(&self) -> impl Iterator<Item = (Medal, u64)> + '_ {
        Medal::ALL
            .into_iter()
            .filter(|&m| m != Medal::Author || self.author.is_some())
            .map(|m| (m, self.time(m)))
    }

    /// The best medal a clear in `steps` earns, if any.
    pub fn medal(&self, steps: u64) -> Option<Medal> {
        self.medals().find(|&(_, t)| steps <= t).map(|(m, _)| m)
    }

    /// The next better medal than the one `steps` earns, and how many steps faster it needs;
    /// `None` for the best one offered.
    pub fn next(&self, steps: u64) -> Option<(Medal, u64)> {
        let medals: Vec<_> = self.medals().collect();
        medals
            .into_iter()
            .rev()
            .find(|&(_, t)| steps > t)
            .map(|(m, t)| (m, steps - t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAR: Par = Par {
        author: None,
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

    #[test]
    fn the_author_time_is_a_medal_above_gold_only_where_the_par_sets_one() {
        let par = Par {
            author: Some(80),
            ..PAR
        };
        assert_eq!(par.medal(80), Some(Medal::Author));
        assert_eq!(par.medal(81), Some(Medal::Gold));
        assert_eq!(par.next(81), Some((Medal::Author, 1)));
        assert_eq!(par.next(80), None);
        assert_eq!(PAR.next(100), None, "no author time, nothing above gold");
    }
}
