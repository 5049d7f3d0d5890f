//! SIGTERM and SIGINT end the windowed game at once (under Xvfb). The game installs no handler
//! for them, so the kernel ends it (its exit status is the signal); this guards against one
//! that would wait for the frame loop.
//!
//! The test sets the dispositions it relies on: a suite started from a background job or
//! `nohup` inherits SIGINT ignored, and a game started from there (correctly, by POSIX) keeps
//! ignoring it. `env --default-signal` resets both signals for the game; where `env` cannot,
//! the signal the game still ignores is skipped with a message.

use crate::common;

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::display::{self, Xvfb};
use common::process::{Running, WINDOW_LIMIT, ended, signal, signal_mask};
use common::{TempDir, have, repo, skip_window_test};

/// The bit of signal `number` in a `/proc/PID/status` signal mask.
fn bit(number: u32) -> u64 {
    1 << (number - 1)
}

#[test]
fn sigterm_and_sigint_end_the_game_without_a_handler() {
    if !have("Xvfb") {
        skip_window_test("no Xvfb: install xvfb and libgl1-mesa-dri to run this test");
        return;
    }
    let resets = Command::new("env")
        .args(["--default-signal=INT,TERM", "true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    for (signal_name, number) in [("TERM", 15), ("INT", 2)] {
        let data = TempDir::new(&format!("signals-{signal_name}"));
        let xvfb = Xvfb::start(640, 360);
        // `env` becomes the game (exec): the child's pid is the game's.
        let mut cmd = Command::new(if resets {
            "env"
        } else {
            env!("CARGO_BIN_EXE_crate-room")
        });
        if resets {
            cmd.arg("--default-signal=INT,TERM")
                .arg(env!("CARGO_BIN_EXE_crate-room"));
        }
        cmd.args([
            "--level",
            "levels/crate_room.ron",
            "--mute",
            "--input",
            "bot",
        ])
        .current_dir(repo())
        .env("DISPLAY", &xvfb.display)
        .envs(display::GAME_ENV)
        .env("CRATE_ROOM_DATA_DIR", &data.0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        let mut game = Running::start(&mut cmd, WINDOW_LIMIT);
        let pid = game.pid();
        // The disposition is the exec'd game's own: wait until the shell has become it.
        let started = Instant::now();
        while common::process::comm(pid) != "crate-room" {
            assert!(
                !ended(pid) && started.elapsed() < WINDOW_LIMIT,
                "SIG{signal_name}: the game did not start"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let ignored = signal_mask(pid, "SigIgn").expect("the game's SigIgn");
        if ignored & bit(number) != 0 {
            eprintln!(
                "skipping SIG{signal_name}: this test runs with it ignored, the game inherits \
                 that, and `env --default-signal` cannot reset it here"
            );
            continue;
        }
        let caught = signal_mask(pid, "SigCgt").expect("the game's SigCgt");
        assert_eq!(
            caught & bit(number),
            0,
            "SIG{signal_name}: the game installs a handler for it"
        );
        signal(&[pid], signal_name);
        // Waited for with the window tests' deadline (a hang fails there). How it ended says
        // whether the signal ended it: a handler, or a frame loop that looked and quit, would
        // end it with an exit code instead.
        let status = game.wait();
        assert_eq!(
            status.signal(),
            Some(number as i32),
            "SIG{signal_name}: the game ended with {status:?}, not by the signal"
        );
    }
}
