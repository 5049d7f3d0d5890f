//! Hot reload's loader: a saved level is read, built and run through its first step on the
//! loader's thread, newest save first, while the caller goes on; the game it replaces is
//! dropped there too; and a level prepared this way plays exactly as `crate-room sim` plays it.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use common::{TempDir, atlas, repo};
use game::background_loader::{BackgroundLoader, Loaded, Prepared, Start, prepare};
use game::level;
use game::replay::{self, VerifyOutcome};
use game::sim::{Input, LoadError, Sim};

const GOOD: &str = "(name: \"Good\", map: [\"#@c#\"])";
const BROKEN: &str = "(name: \"Broken\", map: [\"#@c#\"";

/// Only a deadline for a test that would otherwise wait for ever, never a measure of anything.
const DEADLINE: Duration = Duration::from_secs(120);

fn loader() -> BackgroundLoader {
    BackgroundLoader::new(atlas()).expect("loader thread starts")
}

fn start() -> Start {
    Start {
        seed: 1,
        dirty: true,
        ..Start::default()
    }
}

/// Poll until the loader hands over a result; fails after [`DEADLINE`].
fn wait_for_load(loader: &mut BackgroundLoader) -> Loaded {
    let started = Instant::now();
    loop {
        if let Some(loaded) = loader.poll() {
            return loaded;
        }
        assert!(
            started.elapsed() < DEADLINE,
            "nothing loaded within {DEADLINE:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn write(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.0.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// A level large enough that preparing it takes a while (about 1.5 MB of map).
fn big_level(dir: &TempDir) -> PathBuf {
    write(
        dir,
        "big.ron",
        &level::generate(200_000, 1).expect("within the limit"),
    )
}

fn prepared(loaded: Loaded) -> Prepared {
    loaded.prepared.unwrap_or_else(|e| panic!("prepared: {e}"))
}

#[test]
fn a_save_is_handed_over_once_one_step_in_and_recorded() {
    let dir = TempDir::new("reload-once");
    let big = big_level(&dir);
    let mut loader = loader();
    let generation = loader.request(&big, start(), 7);
    assert!(loader.is_loading());
    let loaded = wait_for_load(&mut loader);
    assert_eq!((loaded.generation, &loaded.path), (generation, &big));
    let ready = prepared(loaded);
    assert_eq!(ready.level.crates.len(), 200_000);
    assert_eq!(
        ready.sim.state().step,
        1,
        "the first step ran on the loader"
    );
    let recorder = ready.recorder.expect("recorded");
    assert_eq!(recorder.steps(), 1, "and is in the recording");
    assert!(!loader.is_loading());
    assert!(loader.poll().is_none(), "handed over once");
}

#[test]
fn a_broken_save_hands_over_its_error() {
    let dir = TempDir::new("reload-broken");
    let path = write(&dir, "level.ron", BROKEN);
    let mut loader = loader();
    loader.request(&path, start(), 1);
    match wait_for_load(&mut loader).prepared {
        Err(LoadError::Level(e)) => assert_eq!(e.message, "unexpected end of file"),
        other => panic!("expected the level's error, got {other:?}"),
    }
}

#[test]
fn a_newer_save_supersedes_an_older_one_still_being_prepared() {
    let dir = TempDir::new("reload-supersede");
    let big = big_level(&dir);
    let small = write(&dir, "small.ron", GOOD);
    let mut loader = loader();
    // Whether the worker has started on the first big file or not, only the newest request
    // is handed over.
    loader.request(&big, start(), 1);
    loader.request(&big, start(), 2);
    let newest = loader.request(&small, start(), 3);
    let loaded = wait_for_load(&mut loader);
    assert_eq!((loaded.generation, &loaded.path), (newest, &small));
    assert_eq!(prepared(loaded).level.name, "Good");
    // The worker takes requests in order, so every older result came before the newest one:
    // none can turn up later.
    assert!(loader.poll().is_none());
    assert!(!loader.is_loading());
}

#[test]
fn cancel_drops_the_result_of_a_load_under_way() {
    let dir = TempDir::new("reload-cancel");
    let path = write(&dir, "level.ron", GOOD);
    let big = big_level(&dir);
    let mut loader = loader();
    loader.request(&big, start(), 1);
    loader.cancel();
    assert!(!loader.is_loading());
    assert!(loader.poll().is_none());
    // A later request's result comes after the cancelled one's: only it is handed over.
    let later = loader.request(&path, start(), 2);
    let loaded = wait_for_load(&mut loader);
    assert_eq!((loaded.generation, &loaded.path), (later, &path));
    assert!(loader.poll().is_none());
}

#[test]
fn the_level_is_prepared_on_the_loaders_thread_while_the_caller_goes_on() {
    let dir = TempDir::new("reload-thread");
    let path = write(&dir, "level.ron", GOOD);
    let (entered, gate_threads) = mpsc::channel::<(ThreadId, PathBuf, u64)>();
    let (release, released) = mpsc::channel::<()>();
    let mut loader = BackgroundLoader::with_gate(atlas(), move |path: &Path, frame: u64| {
        let _ = entered.send((std::thread::current().id(), path.to_path_buf(), frame));
        // Held until the test lets go (or is gone).
        let _ = released.recv();
    })
    .expect("loader thread starts");
    loader.request(&path, start(), 42);
    let (thread, held, frame) = gate_threads
        .recv_timeout(DEADLINE)
        .expect("the loader starts on the request");
    assert_ne!(thread, std::thread::current().id(), "prepared elsewhere");
    assert_eq!((held, frame), (path.clone(), 42));
    // The load is held: the caller is not, and is told it is still under way.
    for _ in 0..100 {
        assert!(loader.poll().is_none());
        assert!(loader.is_loading());
    }
    release.send(()).expect("the loader waits");
    let ready = prepared(wait_for_load(&mut loader));
    assert_eq!(
        (ready.level.name.as_str(), ready.sim.state().step),
        ("Good", 1)
    );
}

/// Says on which thread it was dropped.
struct DropProbe(mpsc::Sender<ThreadId>);

impl Drop for DropProbe {
    fn drop(&mut self) {
        let _ = self.0.send(std::thread::current().id());
    }
}

#[test]
fn a_replaced_game_is_dropped_on_the_loaders_thread() {
    let mut loader = loader();
    let (dropped, on) = mpsc::channel();
    loader.discard(DropProbe(dropped));
    let thread = on.recv_timeout(DEADLINE).expect("dropped");
    assert_ne!(thread, std::thread::current().id());
}

/// Step `sim` `steps` times with `input` (the bot's, if it plays), recording each step.
fn play(sim: &mut Sim, recorder: Option<&mut replay::Recorder>, steps: u64, input: Input) {
    let mut recorder = recorder;
    for _ in 0..steps {
        sim.step(input);
        if let Some(r) = recorder.as_deref_mut() {
            r.record(sim);
        }
    }
}

#[test]
fn a_prepared_level_plays_as_sim_plays_it() {
    let atlas = atlas();
    let path = repo().join("levels").join("crate_room.ron");
    let walk = Input {
        move_x: 1,
        move_y: -1,
        attack: true,
    };
    for (bot, dirty, input) in [
        (false, true, Input::default()),
        (true, true, Input::default()),
        (false, true, walk),
        (false, false, walk),
    ] {
        let how = Start {
            seed: 3,
            bot,
            dirty,
            input,
        };
        let Prepared {
            mut sim, recorder, ..
        } = prepare(&path, &atlas, how).expect("the level prepares");
        let mut recorder = recorder.expect("recorded");
        // `crate-room sim`: load, then every step from the first.
        let (_, mut plain) = Sim::load(&path, &atlas, 3).expect("the level loads");
        plain.set_bot(bot);
        plain.step(input);
        assert_eq!(sim.state_hash(), plain.state_hash(), "{how:?}: first step");
        for step in 2..=1_300 {
            play(&mut sim, Some(&mut recorder), 1, walk);
            play(&mut plain, None, 1, walk);
            assert_eq!(
                (sim.state_hash(), sim.checkpoint_hash()),
                (plain.state_hash(), plain.checkpoint_hash()),
                "{how:?}: step {step}"
            );
        }
        // The recording a hot-reloaded run starts with verifies against a headless run.
        match replay::verify(&recorder.finish(&sim), &atlas, None).expect("verifies") {
            VerifyOutcome::Matched { steps, checkpoints } => {
                assert_eq!(steps, 1_300);
                assert!(checkpoints >= 3, "{checkpoints} checkpoints");
            }
            other => panic!("{how:?}: {other:?}"),
        }
    }
}
