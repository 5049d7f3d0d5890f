//! SIGTERM and SIGINT end the windowed game at once (under Xvfb). The game installs no handler
//! for them, so the kernel ends it; this guards against one that would wait for the frame loop.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::repo;

fn have_xvfb() -> bool {
    let found = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let why = "no xvfb-run: install xvfb and libgl1-mesa-dri to run this test";
        assert!(
            std::env::var("CRATE_ROOM_REQUIRE_WINDOW").as_deref() != Ok("1"),
            "{why}"
        );
        eprintln!("skipping the real-window test: {why}");
    }
    found
}

/// Whether process `pid` has ended (gone, or a zombie waiting to be reaped).
fn ended(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z'))
    })
}

#[test]
fn sigterm_and_sigint_end_the_game_within_a_second() {
    if !have_xvfb() {
        return;
    }
    for signal in ["TERM", "INT"] {
        let data = std::env::temp_dir().join(format!("crate-room-signals-{}", std::process::id()));
        // The shell prints its pid, then becomes the game: the pid is the game's. It runs in
        // xvfb-run's foreground, so SIGINT is not ignored as in a background job.
        let mut child = Command::new("xvfb-run")
            .args(["-a", "-s", "-screen 0 640x360x24", "sh", "-c"])
            .arg("echo $$; exec \"$0\" --level levels/crate_room.ron --mute --input bot")
            .arg(env!("CARGO_BIN_EXE_crate-room"))
            .current_dir(repo())
            .env("CRATE_ROOM_DATA_DIR", &data)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start xvfb-run");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the game's pid");
        let pid = line.trim().to_owned();
        // Let the window open and the game run.
        std::thread::sleep(Duration::from_secs(2));
        assert!(
            !ended(&pid),
            "SIG{signal}: the game ended before the signal"
        );
        let sent = Instant::now();
        let kill = Command::new("kill").args(["-s", signal, &pid]).status();
        assert!(kill.is_ok_and(|s| s.success()), "kill -s {signal} {pid}");
        while !ended(&pid) && sent.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let took = sent.elapsed();
        let _ = child.wait();
        let _ = std::fs::remove_dir_all(&data);
        eprintln!("SIG{signal}: the game ended {took:?} after the signal");
        assert!(took < Duration::from_secs(1), "SIG{signal}: {took:?}");
    }
}
