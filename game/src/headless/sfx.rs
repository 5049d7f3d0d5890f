//! Sound effects: the ones the game plays, the music loop, where their files live, and the reader that checks a
//! WAV file before the window side hands it to the audio library. The files are written by the
//! synthesiser in [`crate::art::synth`].
//!
//! Architecture Invariant: nothing here touches the window or audio library; playing is
//! `window::app::audio`'s job, so tests and tools run without a sound device.

/// Sample rate of the generated files. quad-snd (the window library's mixer) runs at 44.1 kHz and
/// resamples anything else by nearest neighbour, so this is the rate that plays cleanly.
pub const SAMPLE_RATE: u32 = 44_100;

/// Folder of the sound files inside `assets/`.
pub const SFX_DIR: &str = "sfx";

/// A sound effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sfx {
    /// The hammer starts a swing: a short whoosh.
    Swing,
    /// The hammer hits a crate that holds: a wooden thunk.
    Hit,
    /// A crate bursts: a crunchy burst over a low thump.
    Break,
    /// The player picks up a coin: a two-note chime.
    Coin,
    /// A powder keg blows up: a deep boom.
    Blast,
    /// A lit fuse burns: a crackling hiss, played again while one burns.
    Fuse,
    /// The room is cleared: a bright two-note chord.
    Clear,
    /// A new best time or medal: a rising fanfare.
    Sting,
    /// A move in a menu: a soft tick.
    Menu,
}

impl Sfx {
    /// Every effect, in file order.
    pub const ALL: [Sfx; 9] = [
        Sfx::Swing,
        Sfx::Hit,
        Sfx::Break,
        Sfx::Coin,
        Sfx::Blast,
        Sfx::Fuse,
        Sfx::Clear,
        Sfx::Sting,
        Sfx::Menu,
    ];

    /// File name inside `assets/sfx/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Sfx::Swing => "swing.wav",
            Sfx::Hit => "hit.wav",
            Sfx::Break => "break.wav",
            Sfx::Coin => "coin.wav",
            Sfx::Blast => "blast.wav",
            Sfx::Fuse => "fuse.wav",
            Sfx::Clear => "clear.wav",
            Sfx::Sting => "sting.wav",
            Sfx::Menu => "menu.wav",
        }
    }
}

/// The music loop's file inside `assets/`: a few bars that repeat seamlessly, played under the
/// game at the music volume.
pub const MUSIC_FILE: &str = "music/loop.wav";

/// `wav` (a file [`parse_wav`] accepts) marked to play `factor` times faster: its sample rate
/// scaled, so the mixer, which resamples to its own rate, plays it that much higher and
/// shorter. How the game varies an effect's pitch a little without more files; `None` for a
/// file it cannot read or a rate out of range.
pub fn with_speed(wav: &[u8], factor: f64) -> Option<Vec<u8>> {
    parse_wav(wav).ok()?;
    let u32_at = |at: usize| u32::from_le_bytes([wav[at], wav[at + 1], wav[at + 2], wav[at + 3]]);
    let mut at = 12;
    while at + 8 <= wav.len() {
        let len = u32_at(at + 4) as usize;
        let body = at + 8;
        if &wav[at..at + 4] == b"fmt " {
            let rate = (f64::from(u32_at(body + 4)) * factor).round() as u32;
            if !(8_000..=96_000).contains(&rate) {
                return None;
            }
            let block_align = u32::from(u16::from_le_bytes([wav[body + 12], wav[body + 13]]));
            let mut out = wav.to_vec();
            out[body + 4..body + 8].copy_from_slice(&rate.to_le_bytes());
            out[body + 8..body + 12].copy_from_slice(&(rate * block_align).to_le_bytes());
            return Some(out);
        }
        at = body + len;
    }
    None
}

/// What [`parse_wav`] found in a file it accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WavInfo {
    pub channels: u16,
    pub sample_rate: u32,
    /// Samples per channel.
    pub frames: u32,
}

impl WavInfo {
    /// Length in seconds.
    pub fn seconds(&self) -> f64 {
        f64::from(self.frames) / f64::from(self.sample_rate)
    }
}

/// Why [`parse_wav`] rejected a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WavError {
    #[error("not a RIFF/WAVE file")]
    NotWave,
    #[error("the `{0}` chunk runs past the end of the file")]
    Truncated(String),
    #[error("the `{0}` chunk has an odd size")]
    OddChunk(String),
    #[error("no `fmt ` chunk before the `data` chunk")]
    NoFormat,
    #[error("no `data` chunk")]
    NoData,
    #[error("unsupported: {0} (expected 16-bit PCM, mono or stereo, 8-96 kHz)")]
    Unsupported(String),
}

/// Check that `bytes` is a WAV file the game can play: 16-bit integer PCM, one or two
/// channels, 8 to 96 kHz, `fmt ` before `data`, every chunk inside the file.
///
/// Strict on purpose. The window library's decoder (quad-snd through audrey) `unwrap`s its
/// errors, so a file it cannot read panics the game; anything accepted here it decodes (a
/// property test in this module checks that against audrey itself).
pub fn parse_wav(bytes: &[u8]) -> Result<WavInfo, WavError> {
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(WavError::NotWave);
    }
    let mut format: Option<(u16, u32, u16)> = None;
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let id = String::from_utf8_lossy(&bytes[at..at + 4]).into_owned();
        let len = u32_at(at + 4) as usize;
        let body = at + 8;
        if len > bytes.len() - body {
            return Err(WavError::Truncated(id));
        }
        match &bytes[at..at + 4] {
            b"fmt " => {
                // 18 bytes is the 16 plus an empty extension (cbSize = 0).
                if !(len == 16 || (len == 18 && u16_at(body + 16) == 0)) {
                    return Err(WavError::Unsupported(format!("a {len}-byte `fmt ` chunk")));
                }
                let (tag, channels, rate) = (u16_at(body), u16_at(body + 2), u32_at(body + 4));
                let (byte_rate, block_align, bits) =
                    (u32_at(body + 8), u16_at(body + 12), u16_at(body + 14));
                if tag != 1 {
                    return Err(WavError::Unsupported(format!("format tag {tag}")));
                }
                if bits != 16 {
                    return Err(WavError::Unsupported(format!("{bits}-bit samples")));
                }
                if !(1..=2).contains(&channels) {
                    return Err(WavError::Unsupported(format!("{channels} channels")));
                }
                if !(8_000..=96_000).contains(&rate) {
                    return Err(WavError::Unsupported(format!("{rate} Hz")));
                }
                if block_align != 2 * channels || byte_rate != rate * u32::from(block_align) {
                    return Err(WavError::Unsupported(
                        "block align or byte rate inconsistent with the format".to_owned(),
                    ));
                }
                format = Some((channels, rate, block_align));
            }
            b"data" => {
                let (channels, sample_rate, block_align) = format.ok_or(WavError::NoFormat)?;
                if !len.is_multiple_of(usize::from(block_align)) {
                    return Err(WavError::Unsupported(
                        "data that is not a whole number of frames".to_owned(),
                    ));
                }
                return Ok(WavInfo {
                    channels,
                    sample_rate,
                    frames: (len / usize::from(block_align)) as u32,
                });
            }
            _ if !len.is_multiple_of(2) => return Err(WavError::OddChunk(id)),
            _ => {}
        }
        at = body + len;
    }
    Err(WavError::NoData)
}
