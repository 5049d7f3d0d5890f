//! Lines of news shown for a while (a level reloaded, a file not saved), above the bottom of
//! the screen (at the top in the editor).

use macroquad::color::Color;

/// How long a notice stays, in seconds, whatever the frame rate.
pub(super) const NOTICE_SECONDS: f64 = 3.0;

/// A line of news and the time it goes away.
#[derive(Debug)]
struct Notice {
    text: String,
    color: Color,
    until: f64,
}

/// The notices on screen.
#[derive(Debug, Default)]
pub(super) struct Notices {
    list: Vec<Notice>,
}

impl Notices {
    /// Show `text` from `now` (seconds, on the clock [`current`](Self::current) is asked with)
    /// on, for [`NOTICE_SECONDS`].
    pub fn push(&mut self, text: String, color: Color, now: f64) {
        self.list.push(Notice {
            text,
            color,
            until: now + NOTICE_SECONDS,
        });
    }

    /// The notices still up at `now` (the others are dropped).
    pub fn current(&mut self, now: f64) -> impl Iterator<Item = (&str, Color)> {
        self.list.retain(|n| n.until > now);
        self.list.iter().map(|n| (n.text.as_str(), n.color))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_lasts_its_seconds_whatever_the_frames_between() {
        let mut notices = Notices::default();
        notices.push("saved".into(), Color::new(1.0, 1.0, 1.0, 1.0), 10.0);
        assert_eq!(notices.current(10.0 + NOTICE_SECONDS - 0.01).count(), 1);
        assert_eq!(notices.current(10.0 + NOTICE_SECONDS).count(), 0);
    }
}
