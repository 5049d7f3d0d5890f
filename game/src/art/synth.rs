//! The deterministic synthesiser behind `gen-assets`: it writes the game's sound effects
//! ([`Sfx`]) to `assets/sfx/` as 16-bit mono WAV files.
//!
//! Same code, same bytes: the noise is a fixed-seed xorshift and the synthesis uses only
//! `+ - * /`, `floor` and `round` (no `sin` or `exp` from the platform's maths library), so the
//! committed files can be checked against a fresh run on any machine.

use std::path::{Path, PathBuf};

use crate::sfx::{MUSIC_FILE, SAMPLE_RATE, SFX_DIR, Sfx};

/// Failure to write a generated sound.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {source}")]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// Synthesise `sfx` as a complete 16-bit mono WAV file. Pure: the bytes depend on nothing but
/// this code.
pub fn generate(sfx: Sfx) -> Vec<u8> {
    let (samples, peak) = match sfx {
        Sfx::Swing => (swing(), 0.30),
        Sfx::Hit => (hit(), 0.55),
        Sfx::Break => (smash(), 0.50),
        Sfx::Coin => (coin(), 0.28),
        Sfx::Blast => (blast(), 0.55),
        Sfx::Fuse => (fuse(), 0.22),
        Sfx::Clear => (clear(), 0.32),
        Sfx::Sting => (sting(), 0.34),
        Sfx::Menu => (menu(), 0.20),
    };
    encode_wav(&finish(samples, peak))
}

/// The music loop as a complete WAV file ([`crate::sfx::MUSIC_FILE`]).
pub fn generate_music() -> Vec<u8> {
    encode_wav(&finish_loop(music(), 0.5))
}

/// Generate every effect and write it to `assets_dir/sfx/`; returns the paths written.
pub fn write_to(assets_dir: &Path) -> Result<Vec<PathBuf>, WriteError> {
    let dir = assets_dir.join(SFX_DIR);
    std::fs::create_dir_all(&dir).map_err(|source| WriteError {
        path: dir.clone(),
        source,
    })?;
    Sfx::ALL
        .iter()
        .map(|&sfx| {
            let path = dir.join(sfx.file_name());
            std::fs::write(&path, generate(sfx)).map_err(|source| WriteError {
                path: path.clone(),
                source,
            })?;
            Ok(path)
        })
        .chain(std::iter::once_with(|| {
            let path = assets_dir.join(MUSIC_FILE);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|source| WriteError {
                    path: parent.to_owned(),
                    source,
                })?;
            }
            std::fs::write(&path, generate_music()).map_err(|source| WriteError {
                path: path.clone(),
                source,
            })?;
            Ok(path)
        }))
        .collect()
}

/// Number of samples in `seconds`.
fn samples(seconds: f64) -> usize {
    (seconds * f64::from(SAMPLE_RATE)).round() as usize
}

/// Fixed-seed xorshift32 white noise in [-1, 1).
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        // The top 24 bits, scaled to [0, 2) and shifted down.
        f64::from(self.0 >> 8) / f64::from(1u32 << 23) - 1.0
    }
}

/// Sine of a phase in turns (1.0 = a whole cycle): a parabola with one refinement step, within
/// 0.1% of `sin` and made of plain arithmetic.
fn sine(turns: f64) -> f64 {
    // x in [-1, 1): half-turns from the cycle's midpoint, where sin(pi * (x + 1)) = -sin(pi * x).
    let x = 2.0 * (turns - turns.floor()) - 1.0;
    let y = 4.0 * x * (1.0 - x.abs());
    -(0.225 * (y * y.abs() - y) + y)
}

/// One-pole low-pass filter; `cutoff` in Hz.
#[derive(Default)]
struct LowPass(f64);

impl LowPass {
    fn run(&mut self, input: f64, cutoff: f64) -> f64 {
        // The small-angle coefficient 2 pi fc / rate, capped at 1 (no filtering).
        let k = (std::f64::consts::TAU * cutoff / f64::from(SAMPLE_RATE)).min(1.0);
        self.0 += k * (input - self.0);
        self.0
    }
}

/// Exponential decay: multiplies by the same factor every sample, falling to 1/e after `tau`
/// seconds (1 - 1/n approximates e^(-1/n) for the large n here).
struct Decay {
    level: f64,
    factor: f64,
}

impl Decay {
    fn new(tau: f64) -> Self {
        Self {
            level: 1.0,
            factor: 1.0 - 1.0 / (tau * f64::from(SAMPLE_RATE)),
        }
    }

    fn next(&mut self) -> f64 {
        let level = self.level;
        self.level *= self.factor;
        level
    }
}

/// Sine oscillator with a changing frequency: keeps its phase so sweeps stay smooth.
#[derive(Default)]
struct Osc(f64);

impl Osc {
    fn run(&mut self, hz: f64) -> f64 {
        let out = sine(self.0);
        self.0 += hz / f64::from(SAMPLE_RATE);
        self.0 -= self.0.floor();
        out
    }
}

/// Linear fade-in over the first `seconds`.
fn attack(i: usize, seconds: f64) -> f64 {
    (i as f64 / (seconds * f64::from(SAMPLE_RATE))).min(1.0)
}

/// Swing, 0.18 s: noise through two low-pass stages whose cutoff rises and falls with the
/// swell, minus its rumble (a slower low-pass), so it moves like air rather than a hiss.
fn swing() -> Vec<f64> {
    let n = samples(0.18);
    let mut noise = Noise(0x5157_1e6d);
    let (mut first, mut second, mut rumble) =
        (LowPass::default(), LowPass::default(), LowPass::default());
    (0..n)
        .map(|i| {
            let t = i as f64 / n as f64;
            // 0 at both ends, 1 at the middle.
            let swell = 4.0 * t * (1.0 - t);
            let cutoff = 250.0 + 1550.0 * swell;
            let x = noise.next();
            let air = second.run(first.run(x, cutoff), cutoff) - rumble.run(x, 120.0);
            air * swell * swell
        })
        .collect()
}

/// Hit, 0.14 s: a wooden thunk. A low tone gliding from 220 to 140 Hz, an inharmonic partial
/// (x2.7, as a struck plank has) that dies fast, and a filtered click for the impact.
fn hit() -> Vec<f64> {
    let n = samples(0.14);
    let mut noise = Noise(0x0d0c_cafe);
    let (mut tone, mut partial) = (Osc::default(), Osc::default());
    let (mut glide, mut body, mut ring, mut click) = (
        Decay::new(0.025),
        Decay::new(0.035),
        Decay::new(0.012),
        Decay::new(0.004),
    );
    let mut click_filter = LowPass::default();
    (0..n)
        .map(|i| {
            let hz = 140.0 + 80.0 * glide.next();
            let low = tone.run(hz) * body.next();
            let knock = partial.run(hz * 2.7) * ring.next();
            let tap = click_filter.run(noise.next(), 2500.0) * click.next();
            (0.8 * low + 0.3 * knock + 1.2 * tap) * attack(i, 0.001)
        })
        .collect()
}

/// Break, 0.40 s: crunch. Noise held for random short stretches (grit), chopped into random
/// loud and quiet grains every ~8 ms (splintering), darkening as it decays, over a low thump.
fn smash() -> Vec<f64> {
    let n = samples(0.40);
    let mut noise = Noise(0xb4ea_c0de);
    let (mut held, mut hold_left) = (0.0, 0usize);
    let (mut grain, mut grain_left) = (1.0, 0usize);
    let grain_len = samples(0.008);
    let mut filter = LowPass::default();
    let (mut crunch, mut darken) = (Decay::new(0.09), Decay::new(0.12));
    let mut thump = Osc::default();
    let (mut thump_level, mut thump_glide) = (Decay::new(0.06), Decay::new(0.05));
    (0..n)
        .map(|i| {
            if hold_left == 0 {
                held = noise.next();
                // 1..=8 samples.
                hold_left = 1 + ((noise.next() + 1.0) * 4.0) as usize;
            }
            hold_left -= 1;
            if grain_left == 0 {
                grain = 0.35 + 0.65 * (noise.next() + 1.0) / 2.0;
                grain_left = grain_len;
            }
            grain_left -= 1;
            let cutoff = 700.0 + 4300.0 * darken.next();
            let grit = filter.run(held, cutoff) * grain * crunch.next();
            let low = thump.run(55.0 + 35.0 * thump_glide.next()) * thump_level.next();
            (1.4 * grit + 0.7 * low) * attack(i, 0.002)
        })
        .collect()
}

/// Blast, 0.45 s: a boom. A sine falling from 90 to 35 Hz under low-passed noise that opens
/// bright at the crack and darkens as it rolls off; louder and longer than a break.
fn blast() -> Vec<f64> {
    let n = samples(0.45);
    let mut noise = Noise(0x0b1a_57ed);
    let mut filter = LowPass::default();
    let (mut rumble, mut darken) = (Decay::new(0.16), Decay::new(0.05));
    let mut boom = Osc::default();
    let (mut boom_level, mut boom_glide) = (Decay::new(0.14), Decay::new(0.10));
    (0..n)
        .map(|i| {
            let cutoff = 250.0 + 2750.0 * darken.next();
            let roar = filter.run(noise.next(), cutoff) * rumble.next();
            let low = boom.run(35.0 + 55.0 * boom_glide.next()) * boom_level.next();
            (1.6 * roar + 1.0 * low) * attack(i, 0.003)
        })
        .collect()
}

/// Coin, 0.42 s: B5 then E6 (a rising fourth), each a sine with a little octave shimmer; the
/// first note rings on quietly under the second.
fn coin() -> Vec<f64> {
    const B5: f64 = 987.77;
    const E6: f64 = 1318.51;
    let n = samples(0.42);
    let second_at = samples(0.075);
    let (mut first, mut first_octave) = (Osc::default(), Osc::default());
    let (mut second, mut second_octave) = (Osc::default(), Osc::default());
    let (mut first_ring, mut first_fade) = (Decay::new(0.09), Decay::new(0.03));
    let mut second_ring = Decay::new(0.12);
    (0..n)
        .map(|i| {
            let fade = if i < second_at {
                1.0
            } else {
                first_fade.next()
            };
            let a = (first.run(B5) + 0.2 * first_octave.run(2.0 * B5))
                * first_ring.next()
                * fade
                * attack(i, 0.002);
            let b = if i < second_at {
                0.0
            } else {
                let j = i - second_at;
                (second.run(E6) + 0.2 * second_octave.run(2.0 * E6))
                    * second_ring.next()
                    * attack(j, 0.002)
            };
            a + b
        })
        .collect()
}

/// Fuse, 0.30 s: a crackling hiss. Bright noise (the low end taken off) in grains of random
/// loudness, with a few sharp pops.
fn fuse() -> Vec<f64> {
    let n = samples(0.30);
    let mut noise = Noise(0xf05e_b0b0);
    let (mut dark, mut grain, mut grain_left) = (LowPass::default(), 1.0, 0usize);
    (0..n)
        .map(|i| {
            if grain_left == 0 {
                let r = (noise.next() + 1.0) / 2.0;
                // One grain in eight is a pop.
                grain = if r > 0.875 { 1.8 } else { 0.3 + 0.5 * r };
                grain_left = samples(0.006);
            }
            grain_left -= 1;
            let x = noise.next();
            let hiss = x - dark.run(x, 3000.0);
            let t = i as f64 / n as f64;
            hiss * grain * attack(i, 0.01) * (1.0 - t * t)
        })
        .collect()
}

/// A plucked note of `hz`: a sine with its octave, dying over `tau` seconds.
fn pluck(hz: f64, tau: f64, n: usize) -> Vec<f64> {
    let (mut tone, mut octave, mut ring) = (Osc::default(), Osc::default(), Decay::new(tau));
    (0..n)
        .map(|i| (tone.run(hz) + 0.25 * octave.run(2.0 * hz)) * ring.next() * attack(i, 0.003))
        .collect()
}

/// Mix `notes` (start in seconds, frequency, ring time) into one clip of `seconds`.
fn notes(seconds: f64, notes: &[(f64, f64, f64)]) -> Vec<f64> {
    let n = samples(seconds);
    let mut out = vec![0.0; n];
    for &(at, hz, tau) in notes {
        let start = samples(at).min(n);
        for (o, s) in out[start..].iter_mut().zip(pluck(hz, tau, n - start)) {
            *o += s;
        }
    }
    out
}

const C5: f64 = 523.25;
const E5: f64 = 659.26;
const G5: f64 = 783.99;
const C6: f64 = 1046.50;

/// Clear, 0.45 s: G5 then C6 over a held C5 and E5: a bright "done".
fn clear() -> Vec<f64> {
    notes(
        0.45,
        &[
            (0.0, C5, 0.15),
            (0.0, E5, 0.15),
            (0.0, G5, 0.08),
            (0.08, C6, 0.14),
        ],
    )
}

/// Sting, 0.9 s: a rising C major arpeggio to a long top C, with a shimmer of its octave.
fn sting() -> Vec<f64> {
    notes(
        0.9,
        &[
            (0.0, C5, 0.10),
            (0.07, E5, 0.10),
            (0.14, G5, 0.12),
            (0.21, C6, 0.30),
            (0.21, E5, 0.25),
            (0.21, 2.0 * C6, 0.12),
        ],
    )
}

/// Menu, 0.05 s: a short soft tick.
fn menu() -> Vec<f64> {
    notes(0.05, &[(0.0, 1760.0, 0.012)])
}

/// Beats a minute of the music loop.
const MUSIC_BPM: f64 = 120.0;

/// The music loop, 8 s: four bars of Am, F, C, G at 120 beats a minute. A soft bass on each
/// beat, an arpeggio in eighths, and a faint hat on the off-beats.
fn music() -> Vec<f64> {
    const A2: f64 = 110.0;
    let beat = 60.0 / MUSIC_BPM;
    // Each bar's root (Hz, from A2) and its triad's steps in semitones.
    let bars: [(f64, [i32; 3]); 4] = [
        (0.0, [0, 3, 7]),  // A minor
        (-4.0, [0, 4, 7]), // F major
        (3.0, [0, 4, 7]),  // C major
        (-2.0, [0, 4, 7]), // G major
    ];
    // Equal temperament: 2^(1/12) per semitone, as repeated products (no `powf`).
    let semitones = |n: f64| {
        let step = 1.059_463_094_359_295_3_f64;
        let mut f = 1.0;
        for _ in 0..(n.abs() as i32) {
            f = if n >= 0.0 { f * step } else { f / step };
        }
        f
    };
    let mut list = Vec::new();
    for (b, (root, triad)) in bars.iter().enumerate() {
        let bar_at = b as f64 * 4.0 * beat;
        let bass = A2 * semitones(*root);
        for q in 0..4 {
            list.push((bar_at + q as f64 * beat, bass, 0.18));
        }
        for e in 0..8 {
            let step = triad[[0, 1, 2, 1, 0, 1, 2, 1][e]];
            let hz = 2.0 * bass * semitones(f64::from(step));
            list.push((bar_at + e as f64 * beat / 2.0, 2.0 * hz, 0.09));
        }
    }
    // Rendered a second longer, the ringing past the end added back onto the start: the loop
    // joins without a seam.
    let total = samples(16.0 * beat);
    let mut out = notes(16.0 * beat + 1.0, &list);
    let tail = out.split_off(total);
    for (o, t) in out.iter_mut().zip(tail) {
        *o += t;
    }
    // Off-beat hats: short bursts of bright noise.
    let mut noise = Noise(0x4a75_0001);
    let mut dark = LowPass::default();
    let hat = samples(0.03);
    for k in 0..16 {
        let start = samples((k as f64 + 0.5) * beat);
        for i in 0..hat {
            let x = noise.next();
            let level = 0.08 * (1.0 - i as f64 / hat as f64);
            if let Some(o) = out.get_mut(start + i) {
                *o += (x - dark.run(x, 5000.0)) * level;
            }
        }
    }
    out
}

/// [`finish`] for a loop: scaled and quantised, no fade (its end runs into its start).
fn finish_loop(samples: Vec<f64>, peak: f64) -> Vec<i16> {
    let loudest = samples.iter().fold(0.0f64, |m, s| m.max(s.abs()));
    let gain = if loudest > 0.0 { peak / loudest } else { 0.0 };
    samples
        .iter()
        .map(|s| {
            (s * gain * f64::from(i16::MAX))
                .round()
                .clamp(-32768.0, 32767.0) as i16
        })
        .collect()
}

/// Scale to a `peak` level, fade the last 5 ms out (no click at the end), quantise to 16 bits.
fn finish(mut samples: Vec<f64>, peak: f64) -> Vec<i16> {
    let loudest = samples.iter().fold(0.0f64, |m, s| m.max(s.abs()));
    let gain = if loudest > 0.0 { peak / loudest } else { 0.0 };
    let tail = self::samples(0.005).min(samples.len());
    let len = samples.len();
    for (i, s) in samples.iter_mut().enumerate() {
        let left = len - i;
        let fade = if left < tail {
            left as f64 / tail as f64
        } else {
            1.0
        };
        *s *= gain * fade;
    }
    samples
        .iter()
        .map(|s| (s * f64::from(i16::MAX)).round().clamp(-32768.0, 32767.0) as i16)
        .collect()
}

/// Size of the header [`encode_wav`] writes: RIFF (12) + `fmt ` (8 + 16) + `data` (8).
pub const WAV_HEADER_LEN: usize = 12 + 8 + 16 + 8;

/// Encode 16-bit mono samples at [`SAMPLE_RATE`] as a canonical PCM WAV file.
pub fn encode_wav(samples: &[i16]) -> Vec<u8> {
    const CHANNELS: u16 = 1;
    const BYTES_PER_SAMPLE: u16 = 2;
    let data_len = (samples.len() * usize::from(BYTES_PER_SAMPLE)) as u32;
    let mut out = Vec::with_capacity(WAV_HEADER_LEN + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(WAV_HEADER_LEN as u32 - 8 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVE");
    out.extend_from_slice(b"fmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&CHANNELS.to_le_bytes());
    out.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    let block_align = CHANNELS * BYTES_PER_SAMPLE;
    out.extend_from_slice(&(SAMPLE_RATE * u32::from(block_align)).to_le_bytes());
    out.extend_from_slice(&block_align.to_le_bytes());
    out.extend_from_slice(&(8 * BYTES_PER_SAMPLE).to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sfx::{WavError, parse_wav};

    #[test]
    fn generated_sounds_are_byte_identical_across_runs() {
        for sfx in Sfx::ALL {
            assert_eq!(generate(sfx), generate(sfx), "{sfx:?}");
        }
    }

    #[test]
    fn committed_sounds_match_the_generator() {
        // Fails when the synthesis changed without `cargo run -p game --bin gen-assets`.
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../assets")
            .join(SFX_DIR);
        for sfx in Sfx::ALL {
            let committed = std::fs::read(dir.join(sfx.file_name())).unwrap();
            assert!(
                committed == generate(sfx),
                "assets/sfx/{} is stale; run gen-assets",
                sfx.file_name()
            );
        }
    }

    #[test]
    fn generated_sounds_have_valid_headers_and_stay_short_and_below_full_scale() {
        for sfx in Sfx::ALL {
            let wav = generate(sfx);
            let info = parse_wav(&wav).unwrap_or_else(|e| panic!("{sfx:?}: {e}"));
            assert_eq!(
                (info.channels, info.sample_rate),
                (1, SAMPLE_RATE),
                "{sfx:?}"
            );
            assert_eq!(
                wav.len(),
                WAV_HEADER_LEN + 2 * info.frames as usize,
                "{sfx:?}"
            );
            // The sting is a fanfare; every other effect is over in half a second.
            let longest = if sfx == Sfx::Sting { 1.0 } else { 0.5 };
            assert!(
                info.seconds() >= 0.05 && info.seconds() < longest,
                "{sfx:?}"
            );
            let samples: Vec<i16> = wav[WAV_HEADER_LEN..]
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect();
            let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
            assert!(peak > 5_000 && peak < 20_000, "{sfx:?} peaks at {peak}");
            assert!(
                samples.last().unwrap().unsigned_abs() < 64,
                "{sfx:?} ends in a click"
            );
        }
    }

    #[test]
    fn polynomial_sine_follows_sin() {
        for i in 0..1000 {
            let turns = f64::from(i) / 997.0 - 0.3;
            let want = (turns * std::f64::consts::TAU).sin();
            assert!(
                (sine(turns) - want).abs() < 0.002,
                "{turns}: {} vs {want}",
                sine(turns)
            );
        }
    }

    #[test]
    fn reader_rejects_what_quad_snd_cannot_decode() {
        let good = generate(Sfx::Hit);
        let mut float = good.clone();
        float[20] = 3; // format tag: IEEE float
        let mut wide = good.clone();
        wide[34] = 24;
        let mut long_data = good.clone();
        long_data[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
        let cases: [(&[u8], WavError); 6] = [
            (b"", WavError::NotWave),
            (b"RIFF\0\0\0\0WAVE", WavError::NoData),
            (&good[..100], WavError::Truncated("data".to_owned())),
            (&float, WavError::Unsupported("format tag 3".to_owned())),
            (&wide, WavError::Unsupported("24-bit samples".to_owned())),
            (&long_data, WavError::Truncated("data".to_owned())),
        ];
        for (bytes, want) in cases {
            assert_eq!(parse_wav(bytes), Err(want));
        }
    }

    /// What quad-snd does with a file (`mixer.rs`, `load_samples_from_file`), minus its
    /// `unwrap`s: true if it would decode without panicking.
    fn audrey_decodes(bytes: &[u8]) -> bool {
        let Ok(mut reader) = audrey::Reader::new(std::io::Cursor::new(bytes)) else {
            return false;
        };
        let channels = reader.description().channel_count();
        (channels == 1 || channels == 2) && reader.samples::<f32>().all(|s| s.is_ok())
    }

    #[test]
    fn audrey_decodes_every_generated_sound() {
        for sfx in Sfx::ALL {
            assert!(audrey_decodes(&generate(sfx)), "{sfx:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            // A fixed seed: the same cases on every run.
            rng_seed: proptest::test_runner::RngSeed::Fixed(30),
            ..proptest::prelude::ProptestConfig::with_cases(2000)
        })]

        /// Damage a valid file anywhere in its first 64 bytes, or cut it short: whatever the
        /// reader lets through, quad-snd's decoder must read.
        #[test]
        fn whatever_the_reader_accepts_quad_snd_decodes(
            edits in proptest::collection::vec((0usize..64, proptest::num::u8::ANY), 0..6),
            cut_to in proptest::option::of(0usize..60),
        ) {
            let mut bytes = encode_wav(&[0, 1000, -1000, 32767, -32768, 7, 8, 9]);
            let last = bytes.len() - 1;
            for (at, value) in edits {
                bytes[at.min(last)] = value;
            }
            if let Some(len) = cut_to {
                bytes.truncate(len);
            }
            if parse_wav(&bytes).is_ok() {
                proptest::prop_assert!(audrey_decodes(&bytes));
            }
        }
    }
}
