//! The command-line tools' edge to the outside: standard output, where a reader that closes
//! the pipe early is [`ClosedPipe`] (quiet, not an error message), and the output files a tool
//! is asked to write, checked before the run.

use std::io::Write;
use std::path::Path;

use anyhow::anyhow;

/// Standard output was closed by its reader before everything was written.
#[derive(Debug, thiserror::Error)]
#[error("standard output was closed")]
pub struct ClosedPipe;

/// Write `text` to standard output; a closed pipe is [`ClosedPipe`], a full disk an error.
///
/// # Errors
/// [`ClosedPipe`], or the write error.
pub fn print_out(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// A failed write to standard output: [`ClosedPipe`] for a closed pipe, else an error.
pub fn stdout_error(e: std::io::Error) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        ClosedPipe.into()
    } else {
        anyhow!("cannot write to standard output: {e}")
    }
}

/// Standard output for a writer that goes on after an error (`check` reports every file):
/// the first error is kept, and nothing more is written after it.
#[derive(Debug, Default)]
pub struct CheckedStdout {
    /// The first write error, if any.
    pub failed: Option<std::io::Error>,
}

impl Write for CheckedStdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.failed.is_none() {
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(buf).and_then(|()| out.flush()) {
                self.failed = Some(e);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Refuse an output (`--record`, `--screenshot`, `--save-profile`) before the run: one that
/// cannot be written, is one of the run's inputs or one of the game's own files
/// ([`crate::output::check`]). It would fail at the run's end, or destroy what it replaces.
///
/// # Errors
/// Why `path` cannot be the output, prefixed with `flag`.
pub fn check_output_arg(flag: &str, path: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    crate::output::check(path, crate::output::Output::Other, inputs)
        .map_err(|e| anyhow!("{flag}: {e}"))
}
