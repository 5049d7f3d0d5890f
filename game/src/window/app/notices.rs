//! Lines of news shown under the HUD bar for a while (a level reloaded, a file not saved).

use macroquad::color::Color;

/// How long a notice stays: two seconds at 60 frames per second.
const NOTICE_FRAMES: u64 = 120;

/// A line of news and the frame it goes away.
#[derive(Debug)]
struct Notice {
    text: String,
    color: Color,
    until_frame: u64,
}

/// The notices on screen.
#[derive(Debug, Default)]
pub(super) struct Notices {
    list: Vec<Notice>,
}

impl Notices {
    /// Show `text` from `frame` on, for [`NOTICE_FRAMES`].
    pub fn push(&mut self, text: String, color: Color, frame: u64) {
        self.list.push(Notice {
            text,
            color,
            until_frame: frame + NOTICE_FRAMES,
        });
    }

    /// The notices still up at `frame` (the others are dropped).
    pub fn current(&mut self, frame: u64) -> impl Iterator<Item = (&str, Color)> {
        self.list.retain(|n| n.until_frame > frame);
        self.list.iter().map(|n| (n.text.as_str(), n.color))
    }
}
