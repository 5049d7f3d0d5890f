//! Child processes with deadlines. Every process a test starts goes through [`output_within`]
//! or [`Running`]: past its deadline the whole process tree it started (the game, or a tool
//! and what it started) is killed and the test fails with a message saying what was running
//! and for how long. A failed test never leaves a process behind: dropping a
//! [`Running`] kills what is left of its tree.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long a command-line tool may run: far beyond what any takes on a loaded 2-core machine,
/// so only a hang reaches it.
pub const TOOL_LIMIT: Duration = Duration::from_secs(240);
/// How long a windowed run (Xvfb and Mesa's software renderer) may take.
pub const WINDOW_LIMIT: Duration = Duration::from_secs(400);
/// How long [`Running::stop`] waits after SIGTERM before SIGKILL.
const GRACE: Duration = Duration::from_secs(10);
/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(10);

/// Run `cmd` (standard input closed, output captured) and wait for it, for at most `limit`.
///
/// # Panics
/// If it cannot be started, or is still running after `limit`: its process tree is killed
/// first, and the message quotes what it had written to standard error.
pub fn output_within(cmd: &mut Command, limit: Duration) -> Output {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Running::start(cmd, limit).wait_with_output()
}

/// A started child process with a deadline; its process tree is killed when dropped.
#[derive(Debug)]
pub struct Running {
    child: Child,
    what: String,
    started: Instant,
    limit: Duration,
    stdout: Option<Receiver<Vec<u8>>>,
    stderr: Option<Receiver<Vec<u8>>>,
}

impl Running {
    /// Start `cmd`. A piped standard error is read as it runs, so a full pipe never stalls the
    /// child; a piped standard output is read by [`read_line`](Self::read_line), or from the
    /// first wait on.
    ///
    /// # Panics
    /// If it cannot be started.
    pub fn start(cmd: &mut Command, limit: Duration) -> Running {
        let what = format!("{cmd:?}");
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
        // Read at once, so that a chatty child never fills the pipe and stalls.
        let stderr = child.stderr.take().map(reader);
        Running {
            child,
            what,
            started: Instant::now(),
            limit,
            stdout: None,
            stderr,
        }
    }

    /// The child's (piped) standard input, to write to; closing it is the child's end of input.
    pub fn take_stdin(&mut self) -> Option<std::process::ChildStdin> {
        self.child.stdin.take()
    }

    /// The child's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The next line the child writes to its (piped) standard output, without the newline.
    ///
    /// # Panics
    /// At the deadline, after stopping the child.
    pub fn read_line(&mut self) -> String {
        let mut stdout = self.child.stdout.take().expect("stdout piped");
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = Vec::new();
            let mut byte = [0u8];
            // One byte at a time: what follows the line stays in the pipe for later reads.
            while stdout.read(&mut byte).is_ok_and(|n| n == 1) && byte[0] != b'\n' {
                line.push(byte[0]);
            }
            let _ = send.send((line, stdout));
        });
        match receive.recv_timeout(self.remaining()) {
            Ok((line, stdout)) => {
                self.child.stdout = Some(stdout);
                String::from_utf8_lossy(&line).into_owned()
            }
            Err(_) => {
                self.stop();
                panic!("no line on stdout within {:?}: {}", self.limit, self.what);
            }
        }
    }

    /// Time left before the deadline.
    pub fn remaining(&self) -> Duration {
        self.limit.saturating_sub(self.started.elapsed())
    }

    /// The exit status if it has ended, without waiting.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().expect("poll the child")
    }

    /// Wait for the child to end.
    ///
    /// # Panics
    /// At the deadline, after killing its process tree.
    pub fn wait(&mut self) -> ExitStatus {
        self.collect_output();
        loop {
            if let Some(status) = self.try_wait() {
                return status;
            }
            if self.started.elapsed() > self.limit {
                self.stop();
                let stderr = self.stderr.take().map(|r| received(&r)).unwrap_or_default();
                panic!(
                    "still running after {:?}, killed: {}\nits stderr so far:\n{}",
                    self.limit,
                    self.what,
                    String::from_utf8_lossy(&stderr)
                );
            }
            std::thread::sleep(POLL);
        }
    }

    /// Wait for the child to end and return what it wrote.
    ///
    /// # Panics
    /// At the deadline, after killing its process tree.
    pub fn wait_with_output(mut self) -> Output {
        let status = self.wait();
        Output {
            status,
            stdout: self.stdout.take().map(|r| received(&r)).unwrap_or_default(),
            stderr: self.stderr.take().map(|r| received(&r)).unwrap_or_default(),
        }
    }

    /// End the tree now, as politely as works: SIGTERM to its leaves (so that a parent sees
    /// them end and cleans up after them), then after [`GRACE`] SIGKILL to whatever is left. Returns the child's status.
    pub fn stop(&mut self) -> ExitStatus {
        if let Some(status) = self.try_wait() {
            return status;
        }
        signal(&leaves(&tree(self.pid())), "TERM");
        let asked = Instant::now();
        while asked.elapsed() < GRACE {
            if let Some(status) = self.try_wait() {
                return status;
            }
            std::thread::sleep(POLL);
        }
        signal(&tree(self.pid()), "KILL");
        self.child.wait().expect("reap the child")
    }

    /// Read the piped outputs in threads, once.
    fn collect_output(&mut self) {
        if self.stdout.is_none() {
            self.stdout = self.child.stdout.take().map(reader);
        }
        if self.stderr.is_none() {
            self.stderr = self.child.stderr.take().map(reader);
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A thread that reads `pipe` to its end and sends the bytes.
fn reader(mut pipe: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = send.send(bytes);
    });
    receive
}

/// What a reader thread read, waiting a little for the pipe to close (a grandchild that
/// outlived the child may hold it open: then nothing).
fn received(receiver: &Receiver<Vec<u8>>) -> Vec<u8> {
    receiver
        .recv_timeout(Duration::from_secs(10))
        .unwrap_or_default()
}

/// `pid` and every process descended from it, parents first.
pub fn tree(pid: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|p| Some((p, parent(p)?)))
        .collect();
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let of = found[i];
        found.extend(parents.iter().filter(|&&(_, pp)| pp == of).map(|&(p, _)| p));
        i += 1;
    }
    found
}

/// The processes of `tree` (as [`tree`] gives it) that have no children in it.
fn leaves(tree: &[u32]) -> Vec<u32> {
    tree.iter()
        .copied()
        .filter(|&pid| !tree.iter().any(|&other| parent(other) == Some(pid)))
        .collect()
}

/// The fields of `/proc/PID/stat` after the command (which may hold spaces and parentheses).
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

/// The parent of process `pid`.
fn parent(pid: u32) -> Option<u32> {
    stat_fields(pid)?.get(1)?.parse().ok()
}

/// Whether process `pid` has ended: gone, or a zombie waiting to be reaped.
pub fn ended(pid: u32) -> bool {
    stat_fields(pid).is_none_or(|f| f.first().is_some_and(|state| state == "Z"))
}

/// The command name of process `pid` (empty if it is gone).
pub fn comm(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// The signal mask line `field` (`SigIgn`, `SigCgt`, ...) of process `pid`'s status.
pub fn signal_mask(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?;
    u64::from_str_radix(line.trim(), 16).ok()
}

/// Send `SIG{name}` to `pids` with `kill(1)` (the workspace forbids `unsafe`, and so `libc`).
pub fn signal(pids: &[u32], name: &str) {
    if pids.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .arg(format!("-{name}"))
        .args(pids.iter().map(u32::to_string))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}
