//! A real profiler client: the windowed game started with `--puffin-server` on a free loopback
//! port (under Xvfb) serves frames to `puffin_http::Client`, the client `puffin_viewer` uses,
//! and inside each frame's `update` scope there is a scope named after every system in the
//! schedule. The test stops the game once it has seen them all (or enough frames to know one
//! is missing). Skipped with a message when there is neither a display nor `Xvfb`, unless
//! `CRATE_ROOM_REQUIRE_WINDOW=1` (set by `.ci/run`) demands it.

use crate::common;

use std::collections::BTreeSet;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::process::{Running, WINDOW_LIMIT};
use common::{TempDir, repo, sim_from_file, windowed};

/// Frames after which the game would end by itself (ten minutes at 60 per second): a cap, in
/// case the test cannot stop it. The test stops it as soon as the client has seen every system.
const FRAMES: &str = "36000";
/// How long the test waits for every system's scope before it fails.
const DEADLINE: Duration = Duration::from_secs(300);
/// The level the bot plays: it lights kegs, and a blast stuns it, so every system of the
/// schedule runs (the timer systems run only while some entity has their timer).
const LEVEL: &str = "first_fuse.ron";
/// Frames beyond the step by which every system has run (headless, below) after which a
/// system whose scope has not shown up has none: a scripted run steps once per frame, and
/// hit-stop holds a few steps back.
const MARGIN_FRAMES: u64 = 180;
/// Frames the client keeps (puffin's default is 1,000): every frame of the run ([`FRAMES`]), so
/// none drops out before the test has looked at it, however fast the game runs.
const RECENT_FRAMES: usize = 40_000;

/// Every system of the schedule (`sim/schedule.rs`), as a simulation of [`LEVEL`] holds it:
/// the names the profiler must show; and the step by which the bot's run (seed 1, as the
/// window's default) has run each of them at least once.
fn schedule_systems() -> (BTreeSet<String>, u64) {
    let mut sim = sim_from_file(LEVEL, 1);
    let names: BTreeSet<String> = sim.world().systems().map(|s| s.name.to_owned()).collect();
    assert!(names.len() >= 10, "a schedule of {} systems", names.len());
    sim.set_bot(true);
    for step in 1..=5_000 {
        sim.step(game::sim::Input::default());
        if sim.world().systems().all(|s| s.runs > 0) {
            return (names, step);
        }
    }
    let idle: Vec<_> = sim
        .world()
        .systems()
        .filter(|s| s.runs == 0)
        .map(|s| s.name)
        .collect();
    panic!("the bot's run of {LEVEL} never ran {idle:?} in 5,000 steps");
}

/// A loopback port nothing listens on right now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    listener.local_addr().expect("its address").port()
}

/// Names of the scopes at `offset` in `stream` (siblings, then their children), for those inside
/// an `update` scope (`inside`), added to `found`.
fn collect_update_scopes(
    stream: &puffin::Stream,
    offset: u64,
    names: &puffin::ScopeCollection,
    inside: bool,
    found: &mut BTreeSet<String>,
) {
    let scopes = puffin::Reader::with_offset(stream, offset)
        .and_then(puffin::Reader::read_top_scopes)
        .expect("a well-formed puffin stream");
    for scope in scopes {
        let name = names
            .fetch_by_id(&scope.id)
            .map(|d| d.name().to_string())
            .unwrap_or_default();
        if inside {
            found.insert(name.clone());
        }
        collect_update_scopes(
            stream,
            scope.child_begin_position,
            names,
            inside || name == "update",
            found,
        );
    }
}

/// The scope names inside `update` scopes in the frames the client has received after frame
/// `after`, and the index of the latest frame (`after` for none). The client's view is locked
/// only to take the new frames: while it is locked the client cannot take in frames, and the
/// server drops those a client is slow to take.
fn scopes_received(client: &puffin_http::Client, after: u64) -> (BTreeSet<String>, u64) {
    let (frames, names) = {
        let mut view = client.frame_view();
        // Keep every frame until this test has read it, however fast the game runs.
        view.set_max_recent(RECENT_FRAMES);
        let frames: Vec<_> = view
            .recent_frames()
            .filter(|f| f.frame_index() > after)
            .cloned()
            .collect();
        (frames, view.scope_collection().clone())
    };
    let mut found = BTreeSet::new();
    let mut latest = after;
    for frame in frames {
        let frame = frame.unpacked().expect("an unpackable frame");
        latest = latest.max(frame.frame_index());
        for stream in frame.thread_streams.values() {
            collect_update_scopes(&stream.stream, 0, &names, false, &mut found);
        }
    }
    (found, latest)
}

#[test]
fn a_puffin_http_client_receives_frames_naming_every_system_of_the_schedule() {
    let Some(mut cmd) = windowed() else { return };
    let (systems, all_ran_by) = schedule_systems();
    let dir = TempDir::new("profiler");
    let addr = format!("127.0.0.1:{}", free_port());
    let stderr_path = dir.0.join("stderr.txt");
    let stderr_file = std::fs::File::create(&stderr_path).expect("create a stderr file");
    let mut game = Running::start(
        cmd.current_dir(repo())
            .env("CRATE_ROOM_DATA_DIR", &dir.0)
            .args(["--puffin-server", &addr, "--mute", "--vsync", "off"])
            // The bot plays, so `bot` is enabled and runs too.
            .args(["--level", &format!("levels/{LEVEL}"), "--input", "bot"])
            .args(["--frames", FRAMES, "--screenshot", &dir.path("shot.png")])
            .stdout(Stdio::null())
            .stderr(stderr_file)
            .stdin(Stdio::null()),
        WINDOW_LIMIT,
    );
    let client = puffin_http::Client::new(addr.clone());
    let started = Instant::now();
    let (mut seen, mut received) = (BTreeSet::new(), 0);
    let ended = loop {
        // Frames beyond the view's recent window drop out, so gather as they come.
        let (names, latest) = scopes_received(&client, received);
        seen.extend(names);
        received = latest;
        if systems.is_subset(&seen) || received >= all_ran_by + MARGIN_FRAMES {
            break None;
        }
        if let Some(status) = game.try_wait() {
            break Some(status);
        }
        if started.elapsed() > DEADLINE {
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    game.stop();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    if let Some(status) = ended {
        assert!(status.success(), "crate-room failed: {status}\n{stderr}");
    }
    assert!(
        received > 0,
        "no frames reached the client on {addr} in {:?}:\n{stderr}",
        started.elapsed()
    );
    let missing: Vec<&String> = systems.difference(&seen).collect();
    assert!(
        missing.is_empty(),
        "systems with no scope inside `update` in the frames received: {missing:?}\n\
         schedule: {systems:?}\nscopes seen inside `update`: {seen:?}"
    );
}

#[test]
fn a_busy_or_invalid_profiler_address_gives_the_reason() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    let addr = busy.local_addr().unwrap().to_string();
    for (addr, reason) in [
        (addr.as_str(), "Address already in use"),
        ("not an address", "invalid"),
    ] {
        let err = game::window::debug::overlay::Overlay::new(Default::default(), Some(addr), None)
            .err()
            .unwrap_or_else(|| panic!("{addr}: served"));
        assert!(err.contains(reason), "{addr}: {err}");
    }
}
