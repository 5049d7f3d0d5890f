//! Sound: the effects in `assets/sfx/`, played for what the simulation did, and mute.
//!
//! Sound is optional. With no audio device, or a missing or unreadable file, the game plays on
//! silently after one `sound: off (...)` line on stderr, and it never waits on the device.
//!
//! Why a panic hook and a grace period: with its `audio` feature, macroquad starts quad-snd's
//! mixer thread when the window opens, and on Linux that thread panics when ALSA cannot open a
//! playback device (`Can't open PCM device.`, quad-snd's `alsa_snd.rs`). The panic stays in
//! that thread, so the game would run on, but the default hook prints it (with a backtrace
//! under `RUST_BACKTRACE`), and every later message to the dead thread (load, play, even
//! dropping a sound) prints `Audio thread died` on *stdout*, where scripted runs print their
//! JSON. So [`AudioThread::watch`] records the panic instead, and [`Sounds`] sends the thread
//! nothing when the machine shows no playback device at all (no ALSA PCM node, no sound
//! server socket, no ALSA configuration), nothing until [`DEVICE_GRACE`] has passed, and
//! nothing after it died. (ALSA's own C library
//! may still print its diagnostics to stderr; safe Rust cannot silence it.)

use std::future::Future;
use std::panic::PanicHookInfo;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use crate::window::platform::Instant;

use ecs::EventReader;
use macroquad::audio::{
    PlaySoundParams, Sound, load_sound_from_bytes, play_sound, set_sound_volume,
};

pub use crate::sfx::Sfx;
use crate::sfx::{MUSIC_FILE, SFX_DIR, WavError, parse_wav, with_speed};
use crate::sim::Sim;
use crate::sim::components::Fuse;
use crate::sim::game_events::{CoinCollected, CrateBroken, CrateHit, KegExploded, SwingStarted};

/// How long after the audio thread starts the game waits for its verdict before sending it
/// anything. Without a device ALSA gives up fast (55-90 ms measured under Xvfb); with one the
/// thread never reports success, so this is a wait, not a handshake: the first 1.5 s of a
/// run are silent.
pub const DEVICE_GRACE: Duration = Duration::from_millis(1500);

/// What became of macroquad's audio thread, as told by its panic.
#[derive(Clone, Debug)]
pub struct AudioThread {
    /// About when the thread started (the watch is set up just before).
    started: Instant,
    /// The panic message, once the thread has died.
    failure: Arc<OnceLock<String>>,
}

impl AudioThread {
    /// Install a panic hook that records a panic of the audio thread here instead of printing
    /// it; every other panic still goes to the previous hook.
    ///
    /// # Warning
    /// Call it just before the window opens: macroquad starts the thread with the window, and
    /// the thread can fail before the game's first frame.
    pub fn watch() -> Self {
        let watch = Self {
            started: Instant::now(),
            failure: Arc::default(),
        };
        let failure = Arc::clone(&watch.failure);
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if is_audio_thread_panic(info) {
                let why = info.payload_as_str().unwrap_or("the audio thread panicked");
                let _ = failure.set(why.to_owned());
            } else {
                previous(info);
            }
        }));
        watch
    }

    /// Why the audio thread died, if it has.
    fn failure(&self) -> Option<&str> {
        self.failure.get().map(String::as_str)
    }
}

/// A panic in quad-snd's code on an unnamed thread: its mixer thread (the game's own threads
/// are named, the main one "main").
fn is_audio_thread_panic(info: &PanicHookInfo<'_>) -> bool {
    std::thread::current().name().is_none()
        && info
            .location()
            .is_some_and(|at| at.file().contains("quad-snd"))
}

/// Why a sound file was not loaded.
#[derive(Debug, thiserror::Error)]
enum LoadError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Format { path: PathBuf, source: WavError },
}

/// Where the effects are in their life. Each list holds every effect at each of
/// [`SPEEDS`] ([`Sfx::ALL`] order, then speed), then the music loop if it was read.
#[derive(Debug)]
enum Clips {
    /// Checked file contents, waiting out [`DEVICE_GRACE`].
    Pending(Vec<Vec<u8>>),
    /// Being loaded into macroquad: natively each is done at its first poll; in a browser,
    /// once the page has decoded it, a few frames later.
    Loading(Vec<Loading>),
    /// Loaded into macroquad.
    Loaded(Vec<Sound>),
    /// Off for the rest of the run (and said so).
    Off,
}

/// The speeds each effect is loaded at: a play picks one, so a hammer heard twenty times is
/// never twenty copies of one sound (a 6 % step is about a semitone).
pub const SPEEDS: [f64; 3] = [0.94, 1.0, 1.06];

/// How much quieter a play may be than the volume set, at most: 15 %.
const VOLUME_SPREAD: f32 = 0.15;

/// Whether `sfx` varies in pitch: the musical ones (the clear's chord, the sting, the menu's
/// tick) keep theirs, so they stay in tune.
fn varies(sfx: Sfx) -> bool {
    !matches!(sfx, Sfx::Clear | Sfx::Sting | Sfx::Menu)
}

/// A well-mixed 64-bit hash (splitmix64's finaliser): the variation of the `n`th play.
fn mix(mut n: u64) -> u64 {
    n = n.wrapping_add(0x9e37_79b9_7f4a_7c15);
    n = (n ^ (n >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    n = (n ^ (n >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    n ^ (n >> 31)
}

/// The speed index and loudness (of the volume set) of the `n`th play of `sfx`: seeded by the
/// count of plays alone, so a run sounds the same each time, and nothing the simulation sees.
pub fn variation(sfx: Sfx, n: u64) -> (usize, f32) {
    let index = Sfx::ALL.iter().position(|&s| s == sfx).unwrap_or(0) as u64;
    let h = mix(n ^ (index << 48));
    let speed = if varies(sfx) {
        (h % SPEEDS.len() as u64) as usize
    } else {
        1
    };
    let loudness = 1.0 - VOLUME_SPREAD * ((h >> 16) % 1001) as f32 / 1000.0;
    (speed, loudness)
}

/// One effect on its way into macroquad, polled once a frame until it is done.
enum Loading {
    Waiting(std::pin::Pin<Box<dyn Future<Output = Option<Sound>>>>),
    Done(Sound),
}

impl std::fmt::Debug for Loading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Loading")
    }
}

/// The game's sound effects, and whether they are heard.
///
/// Off for good when the device or a file failed; muted is the player's choice and can be
/// undone.
#[derive(Debug)]
pub struct Sounds {
    clips: Clips,
    muted: bool,
    /// 0.0 to 1.0.
    volume: f32,
    /// The music's volume, 0.0 to 1.0.
    music_volume: f32,
    /// Whether the music loop was read (it is the last clip).
    has_music: bool,
    /// Whether the music loop is playing.
    music_on: bool,
    /// Effects played so far: what seeds each play's [`variation`].
    plays: u64,
    thread: AudioThread,
}

impl Sounds {
    /// Read and check every effect in `assets_dir/sfx/`; they reach macroquad once
    /// [`DEVICE_GRACE`] has passed. Never fails: if a file is missing or unreadable (or, later,
    /// the audio thread dies), sound is off for the rest of the run, said in one line on
    /// stderr.
    pub fn load(assets_dir: &Path, muted: bool, thread: AudioThread) -> Sounds {
        let files: Result<Vec<_>, _> = Sfx::ALL
            .iter()
            .map(|sfx| read_checked(assets_dir.join(SFX_DIR).join(sfx.file_name())))
            .collect();
        // The music is optional: without its file the game plays on with the effects alone.
        let music = read_checked(assets_dir.join(MUSIC_FILE));
        if let Err(e) = &music {
            crate::window::platform::say(&format!("music: off ({e})"));
        }
        let mut sounds = Sounds {
            clips: Clips::Off,
            muted,
            volume: 1.0,
            music_volume: 0.5,
            has_music: music.is_ok(),
            music_on: false,
            plays: 0,
            thread,
        };
        let files = files.map(|files| {
            let mut clips: Vec<Vec<u8>> = files
                .iter()
                .flat_map(|bytes| {
                    SPEEDS.map(|speed| with_speed(bytes, speed).unwrap_or_else(|| bytes.clone()))
                })
                .collect();
            clips.extend(music.ok());
            clips
        });
        match (files, playback_device_hint()) {
            (Ok(files), Ok(())) => sounds.clips = Clips::Pending(files),
            (Err(e), _) => sound_off(&e.to_string()),
            (_, Err(why)) => sound_off(&why),
        }
        sounds
    }

    /// Play `sfx` once, unless muted or off, a little higher or lower and quieter each time
    /// ([`variation`]).
    pub fn play(&mut self, sfx: Sfx) {
        // Settle first, so a dead device is reported even while muted.
        if !self.settle() || self.muted {
            return;
        }
        self.plays += 1;
        let (speed, loudness) = variation(sfx, self.plays);
        if let Clips::Loaded(clips) = &self.clips
            && let Some(index) = Sfx::ALL.iter().position(|&s| s == sfx)
            && let Some(clip) = clips.get(index * SPEEDS.len() + speed)
        {
            play_sound(
                clip,
                PlaySoundParams {
                    looped: false,
                    volume: self.volume * loudness,
                },
            );
        }
    }

    /// Mute or unmute (the music too).
    pub fn set_muted(&mut self, muted: bool) {
        self.muted = muted;
        self.update_music();
    }

    /// Set the music's volume, 0.0 (none) to 1.0.
    pub fn set_music_volume(&mut self, volume: f32) {
        self.music_volume = volume.clamp(0.0, 1.0);
        self.update_music();
    }

    /// Start the music loop, or change its volume, as the settings say: once it is loaded,
    /// unless muted or at volume 0.
    fn update_music(&mut self) {
        let Clips::Loaded(clips) = &self.clips else {
            return;
        };
        let Some(music) = clips
            .get(Sfx::ALL.len() * SPEEDS.len())
            .filter(|_| self.has_music)
        else {
            return;
        };
        let volume = if self.muted { 0.0 } else { self.music_volume };
        if self.music_on {
            set_sound_volume(music, volume);
        } else if volume > 0.0 {
            play_sound(
                music,
                PlaySoundParams {
                    looped: true,
                    volume,
                },
            );
            self.music_on = true;
        }
    }

    /// Set the volume, 0.0 (silent) to 1.0 (as recorded).
    pub fn set_volume(&mut self, volume: f32) {
        self.volume = volume.clamp(0.0, 1.0);
    }

    /// Whether the player muted the sound.
    pub fn is_muted(&self) -> bool {
        self.muted
    }

    /// Bring the state up to date (off if the audio thread died, loaded once the grace is
    /// over); true if sounds can play now.
    fn settle(&mut self) -> bool {
        if let Some(why) = self.thread.failure() {
            let why = format!("no usable audio device: {why}");
            self.switch_off(&why);
            return false;
        }
        match &mut self.clips {
            Clips::Loaded(_) => true,
            Clips::Off => false,
            Clips::Pending(_) if self.thread.started.elapsed() < DEVICE_GRACE => false,
            Clips::Pending(files) => {
                let loading = std::mem::take(files)
                    .into_iter()
                    .map(|bytes| {
                        Loading::Waiting(Box::pin(async move {
                            load_sound_from_bytes(&bytes).await.ok()
                        }))
                    })
                    .collect();
                self.clips = Clips::Loading(loading);
                self.settle()
            }
            Clips::Loading(loading) => {
                let mut context = Context::from_waker(Waker::noop());
                let mut waiting = false;
                for (i, clip) in loading.iter_mut().enumerate() {
                    let Loading::Waiting(load) = clip else {
                        continue;
                    };
                    match load.as_mut().poll(&mut context) {
                        Poll::Ready(Some(sound)) => *clip = Loading::Done(sound),
                        Poll::Ready(None) => {
                            let file = Sfx::ALL
                                .get(i / SPEEDS.len())
                                .map_or(MUSIC_FILE, |sfx| sfx.file_name());
                            let why = format!("the audio library did not load {file}");
                            self.switch_off(&why);
                            return false;
                        }
                        // A browser decodes sound off the page's thread: polled again next frame.
                        Poll::Pending => waiting = true,
                    }
                }
                if waiting {
                    return false;
                }
                let loaded = std::mem::take(loading)
                    .into_iter()
                    .filter_map(|clip| match clip {
                        Loading::Done(sound) => Some(sound),
                        Loading::Waiting(_) => None,
                    })
                    .collect();
                self.clips = Clips::Loaded(loaded);
                self.update_music();
                true
            }
        }
    }

    /// Say why sound is off (once) and let go of what was loaded.
    fn switch_off(&mut self, why: &str) {
        if !matches!(self.clips, Clips::Off) {
            sound_off(why);
            self.release();
        }
    }

    /// Switch off silently. Loaded sounds are dropped, or forgotten if the audio thread is
    /// dead: a dropped sound messages the thread, and a dead thread answers on stdout.
    fn release(&mut self) {
        let clips = std::mem::replace(&mut self.clips, Clips::Off);
        if self.thread.failure().is_some() {
            std::mem::forget(clips);
        }
    }
}

impl Drop for Sounds {
    fn drop(&mut self) {
        self.release();
    }
}

/// Whether this machine may have somewhere to play sound, judged without opening anything:
/// an ALSA PCM device node, a PulseAudio or PipeWire socket, or an ALSA configuration that may
/// name another output. When there is none the game never sends the audio thread anything, so
/// a machine without sound (CI, Xvfb) is silent however slowly the thread gets to failing.
fn playback_device_hint() -> Result<(), String> {
    let has_pcm = std::fs::read_dir("/dev/snd").is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("pcm"))
    });
    let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from);
    let has_server = runtime
        .is_some_and(|dir| dir.join("pulse/native").exists() || dir.join("pipewire-0").exists());
    let home_config = std::env::var_os("HOME")
        .map(PathBuf::from)
        .is_some_and(|home| home.join(".asoundrc").exists());
    let has_config = home_config || Path::new("/etc/asound.conf").exists();
    if cfg!(not(target_os = "linux")) || has_pcm || has_server || has_config {
        Ok(())
    } else {
        Err("no audio device: no /dev/snd/pcm*, no PulseAudio or PipeWire socket".into())
    }
}

fn sound_off(why: &str) {
    crate::window::platform::say(&format!("sound: off ({why})"));
}

/// Largest sound file read: the generated effects are under 40 KB.
const MAX_SOUND_BYTES: u64 = 16 * 1024 * 1024;

/// Read one WAV file and check it: macroquad's decoder panics on what it cannot read.
fn read_checked(path: PathBuf) -> Result<Vec<u8>, LoadError> {
    // A FIFO or device in `assets/sfx/` is refused without blocking on it.
    let bytes = match crate::fsutil::read_bounded(&path, MAX_SOUND_BYTES) {
        Ok(bytes) => bytes,
        Err(crate::fsutil::BoundedReadError::Io(source)) => {
            return Err(LoadError::Read { path, source });
        }
        Err(too_large) => {
            let source = std::io::Error::other(too_large.to_string());
            return Err(LoadError::Read { path, source });
        }
    };
    match parse_wav(&bytes) {
        Ok(_) => Ok(bytes),
        Err(source) => Err(LoadError::Format { path, source }),
    }
}

/// Turns each simulation step's news into effects: swings, hits, breaks (keg blasts sound as
/// breaks) and pickups.
#[derive(Debug, Default)]
pub struct Cues {
    swings: EventReader<SwingStarted>,
    hits: EventReader<CrateHit>,
    breaks: EventReader<CrateBroken>,
    blasts: EventReader<KegExploded>,
    coins: EventReader<CoinCollected>,
    /// The step last read: a lower or equal one means a new simulation (level loaded or
    /// restarted), whose event numbering starts again.
    last_step: u64,
    /// While a fuse burns, the step its hiss is played again at.
    hiss_until: u64,
}

impl Cues {
    /// Play the effects of the step `sim` just ran. Call after every step (events live for two
    /// steps). Each effect plays at most once a step; a crate's last hit plays the break
    /// rather than the hit.
    pub fn play_step(&mut self, sim: &Sim, sounds: &mut Sounds) {
        // Every step, so the device's fate is acted on even in a quiet stretch.
        sounds.settle();
        let step = sim.state().step;
        if step <= self.last_step {
            *self = Self::default();
        }
        self.last_step = step;
        let world = sim.world();
        let swung = self.swings.read(world).count() > 0;
        let hit = self.hits.read(world).count() > 0;
        let blasted = self.blasts.read(world).count() > 0;
        let broke = self.breaks.read(world).count() > 0;
        let collected = self.coins.read(world).count() > 0;
        if swung {
            sounds.play(Sfx::Swing);
        }
        if blasted {
            sounds.play(Sfx::Blast);
        } else if broke {
            sounds.play(Sfx::Break);
        } else if hit {
            sounds.play(Sfx::Hit);
        }
        if collected {
            sounds.play(Sfx::Coin);
        }
        // A burning fuse hisses, the hiss played again as it ends, until no fuse burns.
        if world.column::<Fuse>().entities().is_empty() {
            self.hiss_until = 0;
        } else if step >= self.hiss_until {
            sounds.play(Sfx::Fuse);
            self.hiss_until = step + HISS_STEPS;
        }
    }
}

/// Steps between two plays of the fuse's hiss: its 0.3 s.
const HISS_STEPS: u64 = 18;

#[cfg(test)]
mod tests {
    use super::{SPEEDS, Sfx, variation};

    #[test]
    fn plays_vary_in_speed_and_loudness_but_music_stays_in_tune() {
        let hits: Vec<(usize, f32)> = (1..=60).map(|n| variation(Sfx::Hit, n)).collect();
        for speed in 0..SPEEDS.len() {
            assert!(
                hits.iter().any(|&(s, _)| s == speed),
                "speed {speed} is used"
            );
        }
        assert!(hits.iter().all(|&(_, l)| (0.85..=1.0).contains(&l)));
        assert!(hits.windows(2).any(|w| w[0].1 != w[1].1), "loudness varies");
        assert_eq!(variation(Sfx::Hit, 7), variation(Sfx::Hit, 7), "seeded");
        assert!((1..=60).all(|n| variation(Sfx::Sting, n).0 == 1));
    }
}
