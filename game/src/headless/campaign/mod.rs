//! The campaign: the shipped levels in the order they teach, read from `levels/campaign.txt`,
//! and which of them are open.
//!
//! The file lists level file names of the levels folder, one per line (`#` starts a comment).
//! The first [`OPEN_AT_START`] are open from the start; each later one opens when the one
//! before it has been cleared. A level file that is not listed comes after the campaign, in
//! name order, and is always open (a player's own levels). `--level PATH` and the editor do
//! not ask: locks are the title screen's and N / B's.
//!
//! ```
//! use game::campaign::Campaign;
//!
//! let campaign = Campaign::parse("# order\none.ron\ntwo.ron\nthree.ron\nfour.ron\n").unwrap();
//! let cleared = |file: &str| file == "one.ron";
//! let none_missing = |_: &str| false;
//! assert!(campaign.is_open("three.ron", cleared, none_missing));
//! assert!(!campaign.is_open("four.ron", cleared, none_missing));
//! assert!(campaign.is_open("four.ron", |f: &str| f == "three.ron", none_missing));
//! assert!(campaign.is_open("my_own_level.ron", cleared, none_missing));
//! // A missing level locks nothing after it.
//! assert!(campaign.is_open("four.ron", cleared, |f: &str| f == "three.ron"));
//! ```

pub mod medals;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::fsutil::BoundedReadError;

/// Name of the campaign file in the levels folder.
pub const FILE_NAME: &str = "campaign.txt";

/// How many campaign levels are open before any is cleared.
pub const OPEN_AT_START: usize = 3;

/// Largest campaign file read.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;

/// A problem with the campaign file: shown once; the levels are then listed by name.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The file exists but cannot be read, or is too large.
    #[error("cannot read the campaign {}: {error}; levels are listed by name, all open", .path.display())]
    Read {
        /// The campaign file.
        path: PathBuf,
        /// Why.
        error: String,
    },
    /// A line is not a level file name.
    #[error("{}:{line}: {message}; levels are listed by name, all open", .path.display())]
    Line {
        /// The campaign file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

/// The campaign's level file names, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Campaign {
    levels: Vec<String>,
}

impl Campaign {
    /// Read `levels_dir/campaign.txt`. Never fails: without the file every level is open, in
    /// name order (an empty campaign), and a bad file gives that too, with the error to show.
    pub fn load(levels_dir: &Path) -> (Self, Option<CampaignError>) {
        let path = levels_dir.join(FILE_NAME);
        let bytes = match crate::fsutil::read_bounded(&path, MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(BoundedReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                return (Self::default(), None);
            }
            Err(e) => {
                let error = e.to_string();
                return (Self::default(), Some(CampaignError::Read { path, error }));
            }
        };
        let Ok(text) = String::from_utf8(bytes) else {
            let error = "it is not UTF-8 text".to_owned();
            return (Self::default(), Some(CampaignError::Read { path, error }));
        };
        match Self::parse(&text) {
            Ok(campaign) => (campaign, None),
            Err((line, message)) => (
                Self::default(),
                Some(CampaignError::Line {
                    path,
                    line,
                    message,
                }),
            ),
        }
    }

    /// The campaign in `text`, or the first bad line (1-based) and what is wrong with it.
    ///
    /// # Errors
    /// A line that is not a plain `.ron` file name (a path, another extension, control
    /// characters), or a level listed twice.
    pub fn parse(text: &str) -> Result<Self, (usize, String)> {
        let mut levels = Vec::new();
        let mut seen = HashSet::new();
        // A byte-order mark some editors write is not part of the first name.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, line) in text.lines().enumerate() {
            let name = line.split_once('#').map_or(line, |(l, _)| l).trim();
            if name.is_empty() {
                continue;
            }
            let problem = if name.contains(['/', '\\']) {
                Some("a level is named by its file name in this folder, not a path".to_owned())
            } else if !name.ends_with(".ron") || name == ".ron" {
                Some(format!(
                    "`{}` is not a level file name (`name.ron`)",
                    name.escape_debug()
                ))
            } else if name.chars().any(char::is_control) {
                Some("the name holds a control character".to_owned())
            } else if !seen.insert(name.to_owned()) {
                Some(format!("`{name}` is listed twice"))
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err((i + 1, problem));
            }
            levels.push(name.to_owned());
        }
        Ok(Self { levels })
    }

    /// The campaign's level file names, in order.
    pub fn levels(&self) -> &[String] {
        &self.levels
    }

    /// Where `file` (a file name) is in the campaign.
    pub fn position(&self, file: &str) -> Option<usize> {
        self.levels.iter().position(|l| l == file)
    }

    /// `files` (the levels folder's `.ron` files) in play order: the campaign's that exist, in
    /// its order, then the others by name.
    pub fn order(&self, files: &[PathBuf]) -> Vec<PathBuf> {
        let name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned());
        let mut listed: Vec<(usize, PathBuf)> = Vec::new();
        let mut others = Vec::new();
        for path in files {
            match name(path).and_then(|n| self.position(&n)) {
                Some(i) => listed.push((i, path.clone())),
                None => others.push(path.clone()),
            }
        }
        listed.sort();
        others.sort();
        listed.into_iter().map(|(_, p)| p).chain(others).collect()
    }

    /// The title screen's list: [`order`](Self::order), with each listed level that `files`
    /// lacks at its place in the campaign, as `dir`/name, so the title shows it as missing.
    pub fn listing(&self, dir: &Path, files: &[PathBuf]) -> Vec<PathBuf> {
        let missing = self.missing(files);
        let mut listing = self.order(files);
        for name in missing {
            let at = self.position(name).unwrap_or(0);
            listing.insert(at.min(listing.len()), dir.join(name));
        }
        listing
    }

    /// Whether `file` may be played from the title screen: a level outside the campaign, one
    /// of its first [`OPEN_AT_START`], or one whose predecessor is `cleared`. A predecessor
    /// that is `missing` (listed, but not in the folder) never locks the rest: once it is open
    /// itself it counts as cleared.
    pub fn is_open(
        &self,
        file: &str,
        cleared: impl Fn(&str) -> bool,
        missing: impl Fn(&str) -> bool,
    ) -> bool {
        let Some(mut i) = self.position(file) else {
            return true;
        };
        // Back over missing levels until one that decides.
        while i >= OPEN_AT_START {
            let before = &self.levels[i - 1];
            if cleared(before) {
                return true;
            }
            if !missing(before) {
                return false;
            }
            i -= 1;
        }
        true
    }

    /// The campaign's levels that `present` (file names) does not hold, in order.
    pub fn missing<'a>(&'a self, present: &[PathBuf]) -> Vec<&'a str> {
        let names: HashSet<String> = present
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        self.levels
            .iter()
            .filter(|l| !names.contains(l.as_str()))
            .map(String::as_str)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_name_their_line_and_problem() {
        for (text, line, why) in [
            ("a.ron\nlevels/b.ron\n", 2, "not a path"),
            ("a.ron\n\nb.txt\n", 3, "not a level file name"),
            ("a.ron # first\na.ron\n", 2, "listed twice"),
            (".ron\n", 1, "not a level file name"),
        ] {
            let (at, message) = Campaign::parse(text).unwrap_err();
            assert_eq!(at, line, "{text:?}");
            assert!(message.contains(why), "{text:?}: {message}");
        }
    }

    #[test]
    fn order_puts_the_campaign_first_and_the_rest_by_name() {
        let campaign = Campaign::parse("c.ron\na.ron\nmissing.ron\n").unwrap();
        let files: Vec<PathBuf> = ["z.ron", "a.ron", "b.ron", "c.ron"]
            .iter()
            .map(|f| Path::new("levels").join(f))
            .collect();
        let names: Vec<String> = campaign
            .order(&files)
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["c.ron", "a.ron", "b.ron", "z.ron"]);
    }

    #[test]
    fn each_level_after_the_third_waits_for_the_one_before() {
        let campaign = Campaign::parse("1.ron\n2.ron\n3.ron\n4.ron\n5.ron\n").unwrap();
        let none = |_: &str| false;
        let open: Vec<bool> = campaign
            .levels()
            .iter()
            .map(|l| campaign.is_open(l, none, none))
            .collect();
        assert_eq!(open, [true, true, true, false, false]);
        // Clearing the fourth opens the fifth, whatever else is cleared.
        assert!(campaign.is_open("5.ron", |f: &str| f == "4.ron", none));
        assert!(!campaign.is_open("5.ron", |f: &str| f != "4.ron", none));
    }

    #[test]
    fn the_listing_keeps_a_missing_level_at_its_place() {
        let campaign = Campaign::parse("1.ron\n2.ron\n3.ron\n4.ron\n").unwrap();
        let dir = Path::new("levels");
        let files: Vec<PathBuf> = ["4.ron", "1.ron", "own.ron", "3.ron"]
            .iter()
            .map(|f| dir.join(f))
            .collect();
        let names: Vec<PathBuf> = ["1.ron", "2.ron", "3.ron", "4.ron", "own.ron"]
            .iter()
            .map(|f| dir.join(f))
            .collect();
        assert_eq!(campaign.listing(dir, &files), names);
    }

    #[test]
    fn a_missing_level_never_locks_the_rest() {
        let campaign = Campaign::parse(
            "1.ron
2.ron
3.ron
4.ron
5.ron
6.ron
",
        )
        .unwrap();
        let files: Vec<PathBuf> = ["1.ron", "2.ron", "3.ron", "5.ron", "6.ron"]
            .iter()
            .map(|f| Path::new("levels").join(f))
            .collect();
        assert_eq!(campaign.missing(&files), ["4.ron"]);
        let missing = |f: &str| f == "4.ron";
        // The fourth is open once the third is cleared; missing, it opens the fifth with it.
        assert!(!campaign.is_open("5.ron", |_: &str| false, missing));
        assert!(campaign.is_open("5.ron", |f: &str| f == "3.ron", missing));
        assert!(!campaign.is_open("6.ron", |f: &str| f == "3.ron", missing));
        // Missing among the first three, it locks nothing either.
        let missing = |f: &str| f == "3.ron";
        assert!(campaign.is_open("4.ron", |_: &str| false, missing));
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_name() {
        let campaign = Campaign::parse("\u{feff}first_swing.ron\niron_bands.ron\n").unwrap();
        assert_eq!(campaign.levels(), ["first_swing.ron", "iron_bands.ron"]);
    }
}
