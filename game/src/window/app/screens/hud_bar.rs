//! The HUD bar along the top of the play screen: level, crates left, coins, time and the time
//! to beat, squeezed step by step on a narrow window.

use super::*;

/// Height of the HUD bar along the top of the screen, in screen pixels. The camera keeps the
/// level below it, so the bar never covers the playfield.
pub const HUD_BAR: f32 = 40.0;

/// Draw the HUD bar now (screen camera set): level name, a crate icon with the crates left, a
/// coin icon with the coins, the time since the level started (frozen once cleared), the time
/// to beat, and the keys on the right. Returns what it drew where, for the scripted report.
///
/// On a narrow window the bar gives way step by step ([`SQUEEZES`]) until it fits: the status
/// before the keys hint goes, the gaps close, the text gets smaller, the level name is shortened,
/// the par time loses its medal's name (its colour still tells the medal), then the keys hint
/// and the level name go. Crates, coins and both times always stay.
pub fn hud_bar(
    renderer: &Renderer,
    level_name: &str,
    state: &GameState,
    par: Option<Par>,
    status: &str,
) -> Vec<BarItem> {
    let w = screen_width();
    draw_rectangle(0.0, 0.0, w, HUD_BAR, ink::OPAQUE);
    draw_rectangle(0.0, HUD_BAR - 2.0, w, 2.0, ink::EDGE);
    let time = state.clock();
    let facts = BarFacts {
        icons: renderer.icons(),
        name: level_name,
        crates: format!("{} / {}", state.crates_left, state.crates_total),
        // The slot's widest value: as many crates left as there are.
        crates_most: format!("{} / {}", state.crates_total, state.crates_total),
        coins: state.score.to_string(),
        clock: clock(time),
        burns: state.burns,
        par: par.and_then(|p| time_to_beat(p, time)),
        status,
    };
    let room = w - 2.0 * BAR_MARGIN;
    let items = SQUEEZES
        .iter()
        .find_map(|s| facts.items(s).filter(|items| width(items) <= room))
        .unwrap_or_else(|| facts.squeezed_most());
    let mut drawn = Vec::with_capacity(items.len());
    let mut x = BAR_MARGIN;
    for item in &items {
        let at = if item.what == "keys" {
            w - BAR_MARGIN - item.width()
        } else {
            x + item.lead
        };
        drawn.push(item.draw(renderer, at));
        x = at + item.width();
    }
    drawn
}

/// One item of the HUD bar as drawn, in the scripted report.
#[derive(Clone, Debug, Serialize)]
pub struct BarItem {
    /// What it shows: `level`, `crates`, `coins`, `clock`, `burns`, `par` or `keys`.
    pub item: &'static str,
    /// Its text.
    pub text: String,
    /// Its box on the screen (icon and text), `[x, y, w, h]` in screen pixels.
    pub rect: [f32; 4],
    /// The size of its text in pixels.
    pub size: f32,
}

/// Space between the screen's edges and the bar's first and last items.
pub(super) const BAR_MARGIN: f32 = 14.0;

/// How far the HUD bar gives way to fit the window.
#[derive(Clone, Copy, Debug)]
pub(super) struct Squeeze {
    /// Text size; the icons scale with it, the keys hint is 4 px smaller.
    size: f32,
    /// Space before each of crates, coins and the clock.
    gap: f32,
    /// Whether the keys hint keeps the status before it ("sound off (M)", "REPLAY 2x").
    status: bool,
    /// How the level name gives way.
    name: NameFit,
    /// Whether the par time keeps its medal's name.
    medal_name: bool,
    /// Whether the keys hint shows.
    keys: bool,
}

/// How the level name gives way to a narrow window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NameFit {
    /// Shown whole (up to 40 characters), or the layout does not fit.
    Whole,
    /// Shortened to fit, to no fewer than [`NAME_LEAST`] characters.
    Shortened,
    /// Shortened, or left out if it cannot be.
    Dropped,
}

/// The fewest characters of the level name worth showing, before its "...".
pub(super) const NAME_LEAST: usize = 8;

/// The bar as a 1280-pixel window shows it.
pub(super) const ROOMY: Squeeze = Squeeze {
    size: 24.0,
    gap: 36.0,
    status: true,
    name: NameFit::Whole,
    medal_name: true,
    keys: true,
};

/// The HUD bar's layouts, roomiest first: the first that fits the window is drawn.
pub(super) const SQUEEZES: [Squeeze; 8] = {
    let status = Squeeze {
        status: false,
        ..ROOMY
    };
    let gaps = Squeeze {
        gap: 16.0,
        ..status
    };
    let smaller = Squeeze { size: 20.0, ..gaps };
    let name = Squeeze {
        name: NameFit::Shortened,
        ..smaller
    };
    let medal = Squeeze {
        medal_name: false,
        ..name
    };
    let keys = Squeeze {
        keys: false,
        ..medal
    };
    let no_name = Squeeze {
        name: NameFit::Dropped,
        ..keys
    };
    [ROOMY, status, gaps, smaller, name, medal, keys, no_name]
};

/// What the HUD bar shows this frame, before it is laid out.
pub(super) struct BarFacts<'a> {
    icons: Icons,
    name: &'a str,
    crates: String,
    crates_most: String,
    coins: String,
    clock: String,
    /// Burns (blasts that caught the player), each 2 s on the clock: shown only once there is
    /// one, right of the clock.
    burns: u32,
    /// The best medal the run can still earn, and its time.
    par: Option<(Medal, u64)>,
    status: &'a str,
}

/// One piece of an item: an icon, a run of text, or a figure in a slot of fixed width.
#[derive(Clone, Debug)]
pub(super) enum Piece {
    Icon(FrameRect, f32),
    Text(String, f32, Color),
    /// A figure that changes as the game goes on (crates left, coins, the clock), and the
    /// longest value it shows: its slot is as wide as that with every digit the widest, so what
    /// follows never moves when a digit narrows or a count loses one.
    Figure(String, String, f32, Color),
    /// A medal icon of this face colour, this tall.
    Medal(Color, f32),
}

impl Piece {
    fn width(&self) -> f32 {
        match self {
            // The icon and the space after it.
            Self::Icon(_, size) => size + 8.0,
            Self::Text(text, size, _) => measure_text(text, None, *size as u16, 1.0).width,
            Self::Figure(text, most, size, _) => slot_width(text, most, *size),
            Self::Medal(_, size) => crate::window::ui::medal_width(*size),
        }
    }
}

/// The width at `size` of the slot of a figure showing `text`, whose longest value is `most`:
/// `most` with each digit the widest digit.
pub(super) fn slot_width(text: &str, most: &str, size: f32) -> f32 {
    let widest = ('0'..='9')
        .max_by(|a, b| {
            let w =
                |c: &char| measure_text(c.encode_utf8(&mut [0; 4]), None, size as u16, 1.0).width;
            w(a).total_cmp(&w(b))
        })
        .unwrap_or('0');
    let template: String = most
        .chars()
        .map(|c| if c.is_ascii_digit() { widest } else { c })
        .collect();
    measure_text(&template, None, size as u16, 1.0)
        .width
        .max(measure_text(text, None, size as u16, 1.0).width)
}

/// One item of the bar as laid out: the space before it and its pieces.
#[derive(Clone, Debug)]
pub(super) struct Item {
    what: &'static str,
    lead: f32,
    pieces: Vec<Piece>,
}

impl Item {
    fn width(&self) -> f32 {
        self.pieces.iter().map(Piece::width).sum()
    }

    /// Draw the item with its left edge at `x`, and say where.
    fn draw(&self, renderer: &Renderer, x: f32) -> BarItem {
        let (mut left, mut top, mut bottom) = (x, HUD_BAR, 0.0_f32);
        let mut text = String::new();
        let mut size = 0.0;
        for piece in &self.pieces {
            match piece {
                Piece::Icon(icon, s) => {
                    let y = (HUD_BAR - s) / 2.0 - 1.0;
                    renderer.draw_icon(*icon, left, y, *s);
                    (top, bottom) = (top.min(y), bottom.max(y + s));
                }
                Piece::Medal(face, s) => {
                    let y = (HUD_BAR - s) / 2.0 - 1.0;
                    crate::window::ui::draw_medal(left, y, *s, *face);
                    (top, bottom) = (top.min(y), bottom.max(y + s));
                }
                Piece::Text(t, s, color) | Piece::Figure(t, _, s, color) => {
                    // One baseline for every size, so smaller text stays in line.
                    let base = HUD_BAR / 2.0 + 8.0;
                    draw_text(t, left.round(), base, *s, *color);
                    let dims = measure_text(t, None, *s as u16, 1.0);
                    top = top.min(base - dims.offset_y);
                    bottom = bottom.max(base - dims.offset_y + dims.height);
                    text.push_str(t);
                    size = *s;
                }
            }
            left += piece.width();
        }
        BarItem {
            item: self.what,
            text,
            rect: [x.round(), top, left - x, bottom - top],
            size,
        }
    }
}

/// The total width of `items` laid out left to right, the keys hint with its 24 px of space.
pub(super) fn width(items: &[Item]) -> f32 {
    items
        .iter()
        .map(|i| i.width() + if i.what == "keys" { 24.0 } else { i.lead })
        .sum()
}

impl BarFacts<'_> {
    /// The items laid out as `s` says, or `None` if the level name does not fit the window as
    /// `s` allows.
    fn items(&self, s: &Squeeze) -> Option<Vec<Item>> {
        let size = s.size;
        let icon = size * 1.25;
        let counted =
            |what, icon_frame: Option<FrameRect>, word: &str, figure: &str, most: &str| {
                let mut pieces = vec![match icon_frame {
                    Some(frame) => Piece::Icon(frame, icon),
                    None => Piece::Text(word.to_owned(), size, ink::DIM),
                }];
                let figure = Piece::Figure(figure.to_owned(), most.to_owned(), size, ink::TEXT);
                pieces.push(figure);
                let lead = s.gap;
                Item { what, lead, pieces }
            };
        let mut items = vec![
            counted(
                "crates",
                self.icons.crate_icon,
                "Crates ",
                &self.crates,
                &self.crates_most,
            ),
            // Two digits of coins before the slot grows.
            counted("coins", self.icons.coin, "Coins ", &self.coins, "00"),
            Item {
                what: "clock",
                lead: s.gap,
                pieces: vec![Piece::Figure(
                    self.clock.clone(),
                    self.clock.clone(),
                    size,
                    ink::TEXT,
                )],
            },
        ];
        if self.burns > 0 {
            let penalty = self.burns as u64 * BURN_STEPS / 60;
            items.push(Item {
                what: "burns",
                lead: 10.0,
                pieces: vec![Piece::Text(format!("+{penalty}s burnt"), size, ink::ERROR)],
            });
        }
        if let Some((medal, steps)) = self.par {
            // The time to beat, called one, and the medal it earns.
            let label = if s.medal_name {
                format!("beat {} for {}", clock(steps), medal.name())
            } else {
                clock(steps)
            };
            items.push(Item {
                what: "par",
                lead: 14.0,
                pieces: vec![
                    Piece::Medal(medal_ink(medal), icon),
                    Piece::Text(label, size, medal_ink(medal)),
                ],
            });
        }
        if s.keys {
            let status = if s.status { self.status } else { "" };
            items.push(Item {
                what: "keys",
                lead: 0.0,
                pieces: vec![Piece::Text(
                    format!("{status}F1 keys"),
                    size - 4.0,
                    ink::DIM,
                )],
            });
        }
        let room = screen_width() - 2.0 * BAR_MARGIN - width(&items);
        match self.name_in(room, size, s.name) {
            Some(name) => items.insert(
                0,
                Item {
                    what: "level",
                    lead: 0.0,
                    pieces: vec![Piece::Text(name, size, ink::GOLD)],
                },
            ),
            // The crates' lead was the space after the name.
            None if s.name == NameFit::Dropped => items[0].lead = 0.0,
            None => return None,
        }
        Some(items)
    }

    /// The level name as it fits `room` at `size`, whole (up to 40 characters) or, as `fit`
    /// allows, shortened: `None` if it does not fit.
    fn name_in(&self, room: f32, size: f32, fit: NameFit) -> Option<String> {
        let fits = |t: &String| measure_text(t, None, size as u16, 1.0).width <= room;
        let whole = shorten(self.name, 40);
        if fits(&whole) {
            return Some(whole);
        }
        if fit == NameFit::Whole {
            return None;
        }
        (NAME_LEAST..self.name.chars().count().min(40))
            .rev()
            .map(|n| shorten(self.name, n))
            .find(fits)
    }

    /// The most squeezed layout, for a window too narrow for any (below 640 pixels): it may be
    /// cut off at the right.
    fn squeezed_most(&self) -> Vec<Item> {
        // With the name dropped, every layout is made.
        self.items(&SQUEEZES[SQUEEZES.len() - 1])
            .unwrap_or_default()
    }
}
