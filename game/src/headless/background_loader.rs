//! Loading a saved level off the frame thread: the file made ready to play ([`prepare`]), by a
//! thread of its own on the desktop ([`BackgroundLoader`]), which also drops the game the new
//! level replaces.
//!
//! Making a level ready is more than parsing it. Building its world costs about as much again
//! as the parse, per entity, and the world's first step finds every entity new to every system
//! that watches it: on a 6.7M-crate level the build takes seconds and the first step seconds
//! more, against microseconds for each step after it. Dropping a world that size takes a
//! large part of a second too. All of it happens here, so the frame thread only swaps:
//!
//! ```text
//! frame thread:  request ... poll: None ... poll: None ... poll: Some -> swap, discard(old)
//! loader:              [read, parse, build, first step][drop old]
//! ```
//!
//! The first step runs as the window would run it: with the game's seed, the bot on or off, and
//! the first step's input (the script's, or none at the keyboard). So the game after it is
//! the game `crate-room sim` plays from the same file: the same state and checkpoint hashes.

use std::path::Path;

use crate::atlas::AtlasData;
use crate::level::{self, Level};
use crate::replay::{Recorder, ReplayError};
use crate::sim::{Input, LoadError, Sim};

/// How the game asking for a level plays it: what its first step needs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Start {
    /// The seed of the simulation's randomness.
    pub seed: u64,
    /// Whether the scripted bot plays.
    pub bot: bool,
    /// Whether the dirty-component optimization is on (results are the same either way).
    pub dirty: bool,
    /// The first step's input (the bot ignores it).
    pub input: Input,
}

/// A level file made ready to play.
#[derive(Debug)]
pub struct Prepared {
    /// The level.
    pub level: Level,
    /// Its simulation, one step in: the step that finds every entity new.
    pub sim: Sim,
    /// The run's recording, holding that step, or why the run cannot be recorded. It hashes
    /// the bytes the level was parsed from, so it names the level played even when the file
    /// has changed again since.
    pub recorder: Result<Recorder, ReplayError>,
}

/// Read the level file at `path` once, parse and validate it against `atlas`'s skins, build its
/// simulation and run its first step as `start` says.
///
/// # Errors
/// A [`LoadError`] saying what to fix: the level file, or the atlas's clips.
pub fn prepare(path: &Path, atlas: &AtlasData, start: Start) -> Result<Prepared, LoadError> {
    puffin::profile_scope!("prepare_level");
    let bytes = level::read_level_file(path)?;
    let level = level::parse_bytes(path, &bytes, &atlas.crate_skins())?;
    let mut sim = Sim::new(&level, atlas, start.seed)?;
    sim.set_dirty_optimization(start.dirty);
    sim.set_bot(start.bot);
    sim.step(start.input);
    let recorder = Recorder::for_bytes(path, &bytes, start.seed).map(|mut recorder| {
        recorder.record(&sim);
        recorder
    });
    Ok(Prepared {
        level,
        sim,
        recorder,
    })
}

/// The environment variable that makes the loader thread hold each load until a file is
/// opened: before it starts on a level, the loader says on standard output `level loader:
/// holding FILE (requested at frame N) until GATE is opened` and opens `GATE` (the variable's
/// value) for reading, which for a FIFO waits until something opens it for writing. A scripted
/// run whose last frame comes while a load is under way then says `frame N: the last frame
/// waits for the level being prepared`. What a test uses to keep a load pending for as long as
/// it needs to see the frames go on.
pub const HOLD_LOADS: &str = "CRATE_ROOM_HOLD_LOADS";

// A browser has no threads: its window layer prepares a level in the frame that asks for it
// (`window::platform`).
#[cfg(not(target_arch = "wasm32"))]
pub use background::{BackgroundLoader, Loaded};

#[cfg(not(target_arch = "wasm32"))]
mod background {
    use std::path::{Path, PathBuf};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::mpsc::{self, Receiver, Sender};

    use super::{HOLD_LOADS, Prepared, Start, prepare};
    use crate::atlas::AtlasData;
    use crate::level::escape_for_display;
    use crate::sim::LoadError;

    /// Waits, if it must, before each load begins; given the file and the request's frame.
    type Gate = Box<dyn FnMut(&Path, u64) + Send>;

    /// Prepares saved level files on a worker thread ([`prepare`]), so that a large save never
    /// stalls the frame loop: the game keeps running and drawing the last good level until
    /// [`poll`](Self::poll) hands over the new one. Games handed to [`discard`](Self::discard)
    /// are dropped there too.
    ///
    /// Each [`request`](Self::request) gets a generation; only the newest generation's result
    /// is ever handed over. A request still queued when a newer one arrives is skipped unread,
    /// and the result of one that was already being prepared is dropped on the worker:
    ///
    /// ```text
    /// request:  1 ---- 2 -- 3 ------------------
    /// worker:   [prepare 1 ][prepare 3    ]         (2 skipped: 3 was requested before it started)
    /// poll():   None ...    None (1 dropped) ... Some(3)
    /// ```
    pub struct BackgroundLoader {
        /// `None` only while dropping: closing the channel ends the worker.
        jobs: Option<Sender<Job>>,
        results: Receiver<Loaded>,
        /// The newest generation requested; the worker skips queued jobs older than it.
        latest: Arc<AtomicU64>,
        /// Whether a result of the latest generation is still to come.
        pending: bool,
        /// The atlas, for preparing here should the worker be gone.
        atlas: Arc<AtlasData>,
        /// A result prepared here, not by the worker.
        ready: Option<Loaded>,
    }

    impl std::fmt::Debug for BackgroundLoader {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("BackgroundLoader")
                .field("latest", &self.latest)
                .field("pending", &self.pending)
                .finish_non_exhaustive()
        }
    }

    /// Work for the worker, in the order given.
    enum Job {
        Prepare {
            generation: u64,
            path: PathBuf,
            start: Start,
            frame: u64,
        },
        /// Something large to drop off the frame thread: a replaced game.
        Drop(Box<dyn Send>),
    }

    /// A finished background load.
    #[derive(Debug)]
    pub struct Loaded {
        /// The request's generation, as [`BackgroundLoader::request`] returned it.
        pub generation: u64,
        /// The file read.
        pub path: PathBuf,
        /// The level ready to play, or why it is not one.
        pub prepared: Result<Prepared, LoadError>,
    }

    impl BackgroundLoader {
        /// Start the worker thread, which prepares levels against `atlas`. With
        /// [`HOLD_LOADS`] set, it holds each load as that says.
        ///
        /// # Errors
        /// If the thread cannot be started.
        pub fn new(atlas: AtlasData) -> std::io::Result<Self> {
            match std::env::var_os(HOLD_LOADS) {
                Some(gate) => Self::with_gate(atlas, move |path: &Path, frame: u64| {
                    let gate = Path::new(&gate);
                    // A reader gone is the test's business; the load goes on.
                    let _ = crate::tool_io::print_out(&format!(
                        "level loader: holding {} (requested at frame {frame}) until {} is opened\n",
                        escape_for_display(&path.display().to_string()),
                        escape_for_display(&gate.display().to_string()),
                    ));
                    // Whatever the open gives, the load goes on: the gate only delays it.
                    let _ = std::fs::File::open(gate);
                }),
                None => Self::with_gate(atlas, |_: &Path, _: u64| {}),
            }
        }

        /// [`new`](Self::new), calling `gate` on the worker before each load begins, with the
        /// level file and the frame it was requested at; the load waits for it to return.
        ///
        /// # Errors
        /// If the thread cannot be started.
        pub fn with_gate(
            atlas: AtlasData,
            gate: impl FnMut(&Path, u64) + Send + 'static,
        ) -> std::io::Result<Self> {
            let atlas = Arc::new(atlas);
            let (jobs, queue) = mpsc::channel::<Job>();
            let (done, results) = mpsc::channel();
            let latest = Arc::new(AtomicU64::new(0));
            let newest = Arc::clone(&latest);
            let worker_atlas = Arc::clone(&atlas);
            let mut gate: Gate = Box::new(gate);
            // Detached, never joined: a load in progress must not hold up quitting.
            std::thread::Builder::new()
                .name("level-loader".into())
                .spawn(move || {
                    let stale = |generation: u64| generation < newest.load(Ordering::Acquire);
                    // Ends when the loader is dropped (the queue closes) or nobody takes
                    // results.
                    while let Ok(job) = queue.recv() {
                        let (generation, path, start, frame) = match job {
                            Job::Prepare {
                                generation,
                                path,
                                start,
                                frame,
                            } => (generation, path, start, frame),
                            Job::Drop(garbage) => {
                                drop(garbage);
                                continue;
                            }
                        };
                        if stale(generation) {
                            continue;
                        }
                        gate(&path, frame);
                        if stale(generation) {
                            continue;
                        }
                        let prepared = prepare(&path, &worker_atlas, start);
                        if stale(generation) {
                            // Superseded while it was prepared: dropped here, not by `poll`.
                            continue;
                        }
                        let loaded = Loaded {
                            generation,
                            path,
                            prepared,
                        };
                        if done.send(loaded).is_err() {
                            break;
                        }
                    }
                })?;
            Ok(Self {
                jobs: Some(jobs),
                results,
                latest,
                pending: false,
                atlas,
                ready: None,
            })
        }

        /// Prepare `path` in the background, as `start` says, superseding every earlier
        /// request; `frame` is the frame asking, for [`HOLD_LOADS`]'s line. Never blocks;
        /// returns the request's generation.
        pub fn request(&mut self, path: &Path, start: Start, frame: u64) -> u64 {
            let generation = self.latest.fetch_add(1, Ordering::AcqRel) + 1;
            let job = Job::Prepare {
                generation,
                path: path.to_path_buf(),
                start,
                frame,
            };
            self.pending = true;
            // The worker stops only when the loader is dropped, or if preparing panicked (a
            // bug: loading never panics on any input); then this one request is prepared here.
            if let Some(Err(mpsc::SendError(job))) = self.jobs.as_ref().map(|jobs| jobs.send(job))
                && let Job::Prepare { path, .. } = job
            {
                self.ready = Some(Loaded {
                    generation,
                    prepared: prepare(&path, &self.atlas, start),
                    path,
                });
            }
            generation
        }

        /// Drop `garbage` (a replaced game) on the worker, after the loads asked for before.
        pub fn discard(&mut self, garbage: impl Send + 'static) {
            if let Some(jobs) = &self.jobs {
                // A worker gone hands the job back; it is dropped here then.
                let _ = jobs.send(Job::Drop(Box::new(garbage)));
            }
        }

        /// Drop the result of every request made so far (a level was loaded another way since).
        pub fn cancel(&mut self) {
            self.latest.fetch_add(1, Ordering::AcqRel);
            self.pending = false;
            if let Some(ready) = self.ready.take() {
                self.discard(ready);
            }
        }

        /// Whether the newest request's result is still to come.
        pub fn is_loading(&self) -> bool {
            self.pending
        }

        /// The newest request's result, once, if it is ready; results of older requests are
        /// sent back to the worker to drop. Never blocks.
        pub fn poll(&mut self) -> Option<Loaded> {
            let latest = self.latest.load(Ordering::Acquire);
            let mut newest = None;
            let arrived: Vec<Loaded> = self
                .ready
                .take()
                .into_iter()
                .chain(self.results.try_iter())
                .collect();
            for loaded in arrived {
                if loaded.generation == latest {
                    newest = Some(loaded);
                } else {
                    self.discard(loaded);
                }
            }
            if newest.is_some() {
                self.pending = false;
            }
            newest
        }
    }

    impl Drop for BackgroundLoader {
        fn drop(&mut self) {
            // Closing the queue ends the worker after the job in progress, if any.
            self.jobs = None;
        }
    }
}
