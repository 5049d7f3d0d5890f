//! Writing a [`Replay`] as the text of a replay file, and saving it.

use std::fmt::Write as _;
use std::path::Path;

use super::limits::{MAGIC, VERSION};
use super::model::Replay;
use crate::input::key_line::KeyWord;

impl Replay {
    /// The replay as the text of a replay file.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(s, "{MAGIC} {VERSION}");
        let _ = writeln!(s, "level {}", self.level_file);
        let _ = writeln!(s, "level-fnv1a64 {:016x}", self.level_hash);
        let _ = writeln!(s, "seed {}", self.seed);
        let _ = writeln!(s, "steps {}", self.steps());
        s.push_str("inputs\n");
        for &(count, input) in self.runs() {
            let _ = write!(s, "{count}");
            for key in KeyWord::held(input).map(KeyWord::name) {
                s.push(' ');
                s.push_str(key);
            }
            s.push('\n');
        }
        s.push_str("checkpoints\n");
        for &(step, hash) in self.checkpoints() {
            let _ = writeln!(s, "{step} {hash:016x}");
        }
        s.push_str("end\n");
        s
    }

    /// Write the replay to `path` through the game's output gate ([`crate::output::write`]:
    /// atomic, never onto a FIFO, device or directory, never into a missing directory, never
    /// onto one of the game's own files).
    ///
    /// # Errors
    /// If the file cannot be written; the message names `path` and says why.
    pub fn save(&self, path: &Path) -> Result<(), crate::fsutil::WriteError> {
        crate::output::write(
            path,
            crate::output::Output::Other,
            self.to_text().as_bytes(),
        )
    }
}
