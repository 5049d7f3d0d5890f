//! What a player reads: the HUD bar (level, crates left, coins, time), the title screen, the
//! pause and room-cleared screens, notices and the level-error banner.

use macroquad::prelude::*;

use serde::Serialize;

use super::render::{Icons, Renderer};
use crate::atlas::FrameRect;
use crate::campaign::medals::{Medal, Par};
use crate::input::menu::SettingsRow;
use crate::player_data::clock;
use crate::player_data::settings::{GhostRun, Settings};
use crate::sim::GameState;
use crate::sim::tuning::BURN_STEPS;
use crate::window::ui::{Hud, ink};

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
const BAR_MARGIN: f32 = 14.0;

/// How far the HUD bar gives way to fit the window.
#[derive(Clone, Copy, Debug)]
struct Squeeze {
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
enum NameFit {
    /// Shown whole (up to 40 characters), or the layout does not fit.
    Whole,
    /// Shortened to fit, to no fewer than [`NAME_LEAST`] characters.
    Shortened,
    /// Shortened, or left out if it cannot be.
    Dropped,
}

/// The fewest characters of the level name worth showing, before its "...".
const NAME_LEAST: usize = 8;

/// The bar as a 1280-pixel window shows it.
const ROOMY: Squeeze = Squeeze {
    size: 24.0,
    gap: 36.0,
    status: true,
    name: NameFit::Whole,
    medal_name: true,
    keys: true,
};

/// The HUD bar's layouts, roomiest first: the first that fits the window is drawn.
const SQUEEZES: [Squeeze; 8] = {
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
struct BarFacts<'a> {
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
enum Piece {
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
fn slot_width(text: &str, most: &str, size: f32) -> f32 {
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
struct Item {
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
fn width(items: &[Item]) -> f32 {
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

/// The best medal a run whose clock reads `time` can still earn, and its par time.
pub fn time_to_beat(par: Par, time: u64) -> Option<(Medal, u64)> {
    par.medals().find(|&(_, t)| time <= t)
}

/// One level on the title screen.
#[derive(Clone, Debug)]
pub struct TitleEntry {
    /// The level's file name (what best times are kept under).
    pub file: String,
    /// The level's own name, if it loads.
    pub name: Option<String>,
    /// Its best time in steps, if it has been cleared.
    pub best: Option<u64>,
    /// Its par times, if it sets them.
    pub par: Option<Par>,
    /// Whether it may be played (campaign levels open one by one).
    pub open: bool,
    /// Whether it is one of the campaign's levels (numbered) or another level file.
    pub campaign: bool,
    /// Why a campaign level cannot be played ("missing", "does not load"), shown in its row.
    pub problem: Option<&'static str>,
    /// Why it can or cannot be opened, where that needs saying: shown under the list while it
    /// is chosen.
    pub why: Option<String>,
}

impl TitleEntry {
    /// The medal its best time earned.
    pub fn medal(&self) -> Option<Medal> {
        self.par
            .zip(self.best)
            .and_then(|(par, best)| par.medal(best))
    }
}

/// The colour a medal is drawn in.
pub fn medal_ink(medal: Medal) -> Color {
    match medal {
        Medal::Author => Color::new(0.45, 0.95, 0.85, 1.0),
        Medal::Gold => Color::new(1.0, 0.8, 0.2, 1.0),
        Medal::Silver => Color::new(0.78, 0.82, 0.88, 1.0),
        Medal::Bronze => Color::new(0.85, 0.55, 0.3, 1.0),
    }
}

/// The title screen's summary line: medals won and the campaign's total best time, over the
/// levels a player can clear. A campaign level that is missing or does not load counts in
/// neither (its best time, kept from before, neither), and the line says how many there are:
/// `cleared 0 of 10 (1 missing)`.
pub fn title_total(entries: &[TitleEntry]) -> String {
    let (campaign, unplayable): (Vec<&TitleEntry>, Vec<&TitleEntry>) = entries
        .iter()
        .filter(|e| e.campaign)
        .partition(|e| e.problem.is_none());
    // An author medal is a gold one too, in this count.
    let count = |m: Medal| {
        campaign
            .iter()
            .filter(|e| e.medal().map(|won| won.max(Medal::Gold)) == Some(m))
            .count()
    };
    let cleared: Vec<u64> = campaign.iter().filter_map(|e| e.best).collect();
    let mut problems: Vec<(&str, usize)> = Vec::new();
    for problem in unplayable.iter().filter_map(|e| e.problem) {
        match problems.iter_mut().find(|(p, _)| *p == problem) {
            Some((_, n)) => *n += 1,
            None => problems.push((problem, 1)),
        }
    }
    let problems = if problems.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = problems.iter().map(|(p, n)| format!("{n} {p}")).collect();
        format!(" ({})", parts.join(", "))
    };
    format!(
        "{} gold  {} silver  {} bronze      cleared {} of {}{problems}, total {}",
        count(Medal::Gold),
        count(Medal::Silver),
        count(Medal::Bronze),
        cleared.len(),
        campaign.len(),
        // Each best time is at most a day (`player_data::MAX_STEPS`); saturating all the same, so
        // no table can make the title panic.
        clock(
            cleared
                .iter()
                .fold(0, |total: u64, &t| total.saturating_add(t))
        )
    )
}

/// One piece of a line of text and medals.
#[derive(Clone, Debug)]
enum Span {
    Text(String, Color),
    Medal(Color),
}

/// Queue `spans` as one line centred on the screen, text `size` pixels with its baseline at
/// `y`, each medal a little taller than the text.
fn centered_spans(hud: &mut Hud, spans: &[Span], y: f32, size: f32) {
    let icon = size * 1.2;
    let width_of = |span: &Span| match span {
        Span::Text(t, _) => measure_text(t, None, size as u16, 1.0).width,
        Span::Medal(_) => crate::window::ui::medal_width(icon),
    };
    let total: f32 = spans.iter().map(width_of).sum();
    let mut x = ((screen_width() - total) / 2.0).max(4.0);
    for span in spans {
        match span {
            Span::Text(t, color) => hud.text(t.clone(), x, y, size, *color),
            Span::Medal(face) => hud.medal(x, y + size * 0.2 - icon, icon, *face),
        }
        x += width_of(span);
    }
}

/// Queue the title's totals: a medal icon before each medal's count, then the levels cleared
/// and their total time ([`title_total`]'s figures).
fn title_totals(hud: &mut Hud, entries: &[TitleEntry], y: f32, size: f32) {
    let text = title_total(entries);
    let counts = Medal::ALL.map(|m| {
        entries
            .iter()
            .filter(|e| e.campaign && e.problem.is_none() && e.medal() == Some(m))
            .count()
    });
    // The part after the medal counts: "cleared N of M, total T".
    let rest = text
        .split_once("cleared")
        .map_or_else(String::new, |(_, r)| format!("cleared{r}"));
    let mut spans = Vec::new();
    for (medal, n) in Medal::ALL.into_iter().zip(counts) {
        spans.push(Span::Medal(medal_ink(medal)));
        spans.push(Span::Text(format!("{n}    "), ink::TEXT));
    }
    spans.push(Span::Text(format!("  {rest}"), ink::TEXT));
    centered_spans(hud, &spans, y, size);
}

/// Queue the line that says what the medals are, with their icons, before any is won.
fn medal_legend(hud: &mut Hud, y: f32, size: f32) {
    let wide = screen_width() >= 900.0;
    let mut spans: Vec<Span> = Medal::PAR
        .into_iter()
        .filter(|&m| m != Medal::Author)
        .map(|m| Span::Medal(medal_ink(m)))
        .collect();
    let medals = if wide {
        " clear a room within its par times (the HUD shows the next to beat)      "
    } else {
        " beat the par times      "
    };
    spans.push(Span::Text(medals.to_owned(), ink::DIM));
    spans.push(Span::Medal(medal_ink(Medal::Author)));
    let author = if wide {
        " match the author time, the best route known"
    } else {
        " beat the author"
    };
    spans.push(Span::Text(author.to_owned(), ink::DIM));
    centered_spans(hud, &spans, y, size);
}

/// Where the title screen's parts go on a screen of this size.
struct TitleLayout {
    h: f32,
    /// A window at least 600 pixels high: larger text.
    big: bool,
    /// The list's text size and line height.
    size: f32,
    line: f32,
    /// The list's top, left and width.
    top: f32,
    x: f32,
    width: f32,
    /// How many rows fit.
    rows: usize,
}

impl TitleLayout {
    /// Lay the title out on the current screen, with its heading queued.
    fn heading(hud: &mut Hud) -> Self {
        let (w, h) = (screen_width(), screen_height());
        // Small windows get a smaller heading, so the list keeps room for a few rows.
        let big = h >= 600.0;
        let heading = if big { 72.0 } else { 44.0 };
        let head_y = if big { h * 0.16 } else { 48.0 };
        hud.centered("CRATE ROOM", head_y, heading, ink::GOLD);
        hud.centered(
            "Smash every crate. The clock is running.",
            head_y + heading * 0.55,
            if big { 24.0 } else { 18.0 },
            ink::DIM,
        );
        let size = if big { 26.0 } else { 20.0 };
        let line = size * 1.35;
        let top = head_y + heading * 0.55 + if big { 40.0 } else { 16.0 };
        let width = 720.0_f32.min(w - 24.0);
        // The totals line, the medals' legend, a notice's slot (see [`notices`]) and the
        // keys line.
        let bottom_space = if big { 172.0 } else { 118.0 };
        Self {
            h,
            big,
            size,
            line,
            top,
            x: (w - width) / 2.0,
            width,
            rows: (((h - top - bottom_space) / line).floor() as usize).max(1),
        }
    }
}

/// Queue the title screen: the game's name, the level list with best times and medals (a
/// locked level says so), the medal count and total time, what the medals are, the keys (with
/// the ghost to race, `ghost`).
pub fn title(hud: &mut Hud, entries: &[TitleEntry], selected: usize, ghost: GhostRun) {
    let l = TitleLayout::heading(hud);
    // Only as many rows as fit; the list scrolls to keep the selection in view.
    let first = selected.saturating_sub(l.rows - 1);
    let shown = l.rows.min(entries.len()).max(1);
    hud.panel(
        Rect::new(l.x, l.top, l.width, l.line * shown as f32 + 16.0),
        ink::PANEL,
    );
    if entries.is_empty() {
        hud.text(
            "No levels in levels/",
            l.x + 16.0,
            l.top + 8.0 + l.size,
            l.size,
            ink::ERROR,
        );
    }
    for (row, (i, entry)) in entries
        .iter()
        .enumerate()
        .skip(first)
        .take(l.rows)
        .enumerate()
    {
        title_row(hud, &l, row, i, entry, i == selected);
    }
    let below = l.top + l.line * shown as f32 + 16.0;
    // A cue under the panel when the list runs past it, above or below.
    let after = entries.len().saturating_sub(first + l.rows);
    let cue = match (first, after) {
        (0, 0) => None,
        (0, n) => Some(format!("v {n} more below")),
        (n, 0) => Some(format!("^ {n} more above")),
        (a, b) => Some(format!("^ {a} more above, v {b} more below")),
    };
    let cue_size = if l.big { 20.0 } else { 16.0 };
    let mut cue_width = 0.0;
    if let Some(cue) = &cue {
        cue_width = measure_text(cue, None, cue_size as u16, 1.0).width;
        hud.text(
            cue.clone(),
            l.x + l.width - cue_width - 8.0,
            below + cue_size,
            cue_size,
            ink::GOLD,
        );
    }
    // Why the chosen level can or cannot be played, where its row's word does not say it all:
    // on the cue's row, from the left.
    let why = entries
        .get(selected)
        .and_then(|e| Some((e.why.as_ref()?, e.problem)));
    if let Some((why, problem)) = why {
        let color = if problem.is_some() {
            ink::ERROR
        } else {
            ink::GOLD
        };
        let chars = ((l.width - cue_width - 24.0) / (cue_size * 0.5)).max(8.0) as usize;
        hud.text(
            shorten(why, chars),
            l.x + 8.0,
            below + cue_size,
            cue_size,
            color,
        );
    }
    let below = if cue.is_some() || why.is_some() {
        below + cue_size
    } else {
        below
    };
    let small = if l.big { 22.0 } else { 18.0 };
    title_totals(hud, entries, below + l.size * 1.2, small);
    medal_legend(hud, below + l.size * 1.2 + small * 1.5, small * 0.85);
    hud.centered(
        format!(
            "Up / Down choose   Enter play   G ghost: {}   O settings   F1 keys   Esc quit",
            ghost.word()
        ),
        l.h - if l.big { 30.0 } else { 12.0 },
        if l.big { 22.0 } else { 16.0 },
        ink::DIM,
    );
}

/// Queue the title's `row`th row: level `i` of the list, `chosen` or not.
fn title_row(
    hud: &mut Hud,
    l: &TitleLayout,
    row: usize,
    i: usize,
    entry: &TitleEntry,
    chosen: bool,
) {
    let (x, width, size) = (l.x, l.width, l.size);
    let y = l.top + 8.0 + l.line * row as f32;
    if chosen {
        hud.panel(
            Rect::new(x + 4.0, y + 2.0, width - 8.0, l.line),
            ink::HIGHLIGHT,
        );
    }
    let marker = if chosen { ">" } else { " " };
    let number = if entry.campaign {
        format!("{}", i + 1)
    } else {
        String::new()
    };
    let color = match (entry.open, chosen) {
        (false, _) => ink::DIM,
        (true, true) => ink::GOLD,
        (true, false) => ink::TEXT,
    };
    hud.text(marker, x + 10.0, y + size, size, color);
    hud.text(number, x + 28.0, y + size, size, ink::DIM);
    let name = entry
        .name
        .clone()
        .unwrap_or_else(|| entry.file.trim_end_matches(".ron").to_owned());
    // Levels outside the campaign are the sandbox: always open, timed, no unlocks.
    let title = if entry.campaign {
        name
    } else {
        format!("Sandbox: {name}")
    };
    let chars = ((width - 330.0) / (size * 0.5)).max(8.0) as usize;
    let number_w = measure_text("00 ", None, size as u16, 1.0).width;
    hud.text(
        shorten(&title, chars),
        x + 28.0 + number_w,
        y + size,
        size,
        color,
    );
    let right = if let Some(problem) = entry.problem {
        (problem.to_string(), ink::ERROR)
    } else if !entry.open {
        ("locked".to_string(), ink::DIM)
    } else {
        match entry.best {
            Some(steps) => (clock(steps), ink::TEXT),
            None => ("--:--.--".to_string(), ink::DIM),
        }
    };
    let bw = measure_text(&right.0, None, size as u16, 1.0).width;
    hud.text(right.0, x + width - bw - 16.0, y + size, size, right.1);
    if let Some(medal) = entry.medal() {
        let icon = size * 1.1;
        let mx = x + width
            - 16.0
            - measure_text("0:00.00", None, size as u16, 1.0).width
            - 12.0
            - crate::window::ui::medal_width(icon);
        hud.medal(mx, y + size * 1.15 - icon, icon, medal_ink(medal));
    }
}

/// What the room-cleared screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cleared {
    /// Time to clear, in steps.
    pub time: u64,
    /// The best time before this run, if any.
    pub previous_best: Option<u64>,
    /// Crates smashed.
    pub crates: u32,
    /// Coins collected.
    pub coins: u32,
    /// Whether the run's replay can be saved (V).
    pub can_save_replay: bool,
    /// Where the replay was saved, once it was.
    pub saved_replay: Option<String>,
    /// The level's par times.
    pub par: Option<Par>,
    /// The campaign level this clear opened, if it opened one.
    pub unlocked: Option<String>,
    /// The campaign's ending, when this clear was of its last level.
    pub ending: Option<Ending>,
    /// Whether the level is one of the campaign's (a sandbox level has no next level).
    pub in_campaign: bool,
    /// The award this run won, and whether it is better than the best time's before it (a
    /// new medal to celebrate).
    pub award: Option<Medal>,
    pub new_award: bool,
    /// The frame the room was cleared on: the celebration's clock.
    pub at_frame: u64,
}

/// What the ending screen shows, after the campaign's last level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ending {
    /// Campaign levels, and how many have a best time.
    pub levels: usize,
    pub cleared: usize,
    /// Medals of the best times.
    pub gold: usize,
    pub silver: usize,
    pub bronze: usize,
    /// The best times added up, in steps.
    pub total: u64,
    /// Each campaign level's award, in order (`None`: not cleared, or no medal).
    pub awards: Vec<Option<Medal>>,
}

/// Who made the game, on the ending screen.
const CREDITS: [&str; 3] = [
    "Crate Room: built to show an ECS that tracks which components changed",
    "after Max Forbes's \"Deeper Dive: Dirty Component Optimization\" (Fallgate)",
    "art and sound generated by gen-assets; made with macroquad, puffin and egui",
];

/// Confetti over the ending, `age` frames in: pieces in the medals' colours falling and
/// swaying, each from its own place (a hash of its number), forever.
fn confetti(hud: &mut Hud, age: u64) {
    let (w, h) = (screen_width(), screen_height());
    let colours = [
        medal_ink(Medal::Gold),
        medal_ink(Medal::Silver),
        medal_ink(Medal::Bronze),
        medal_ink(Medal::Author),
        ink::GOOD,
    ];
    for i in 0u64..90 {
        let seed = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
        let x0 = (seed % 1000) as f32 / 1000.0 * w;
        let speed = 1.0 + (seed / 1000 % 7) as f32 * 0.4;
        let fall = (age as f32 * speed + (seed % 997) as f32) % (h + 40.0) - 20.0;
        let sway = ((age as f32 * 0.05 + i as f32).sin()) * 18.0;
        let size = (8.0 + (seed % 7) as f32) * if h >= 600.0 { 1.0 } else { 0.7 };
        let c = colours[(i % colours.len() as u64) as usize];
        hud.panel(Rect::new(x0 + sway, fall, size, size * 0.6), c);
    }
}

/// Queue the ending screen, `age` frames after the last clear: confetti, the campaign done,
/// a medal for each level, the medals' count and total time, and the credits.
pub fn ending(hud: &mut Hud, c: &Cleared, e: &Ending, age: u64) {
    let (w, h) = (screen_width(), screen_height());
    let k = if h >= 600.0 { 1.0 } else { 0.6 };
    let small = if w < 900.0 { 14.0 } else { 20.0 };
    hud.panel(Rect::new(0.0, h * 0.14, w, h * 0.74), ink::PANEL);
    confetti(hud, age);
    // The title grows in over the first half second.
    let grow = pop(age).min(1.0);
    hud.centered(
        "The campaign is done!",
        h * 0.25,
        (64.0 * k * grow).max(1.0),
        ink::GOLD,
    );
    // One medal a level, popping in one after another (an empty ring for a level without).
    let icon = 34.0 * k;
    let step = (icon * 1.1).min((w - 40.0) / e.awards.len().max(1) as f32);
    let left = (w - step * e.awards.len() as f32) / 2.0;
    for (i, award) in e.awards.iter().enumerate() {
        let x = left + step * i as f32;
        let y = h * 0.355 - icon / 2.0;
        let age_here = age.saturating_sub(20 + 6 * i as u64);
        match award {
            Some(a) if age >= 20 + 6 * i as u64 => {
                let s = icon * pop(age_here);
                hud.medal(x + (icon - s) * 0.4, y + (icon - s) / 2.0, s, medal_ink(*a));
            }
            _ => hud.panel(
                Rect::new(x + icon * 0.2, y + icon * 0.45, icon * 0.4, icon * 0.4),
                Color::new(0.3, 0.3, 0.35, 1.0),
            ),
        }
    }
    hud.centered(
        format!("Last room {}", clock(c.time)),
        h * 0.31,
        28.0 * k,
        ink::TEXT,
    );
    centered_spans(
        hud,
        &[
            Span::Medal(medal_ink(Medal::Gold)),
            Span::Text(format!("{} gold     ", e.gold), ink::GOLD),
            Span::Medal(medal_ink(Medal::Silver)),
            Span::Text(format!("{} silver     ", e.silver), ink::GOLD),
            Span::Medal(medal_ink(Medal::Bronze)),
            Span::Text(format!("{} bronze", e.bronze), ink::GOLD),
        ],
        h * 0.43,
        36.0 * k,
    );
    hud.centered(
        format!(
            "Total time {}   ({} of {} levels cleared)",
            clock(e.total),
            e.cleared,
            e.levels
        ),
        h * 0.48,
        30.0 * k,
        ink::TEXT,
    );
    for (i, line) in CREDITS.iter().enumerate() {
        hud.centered(*line, h * (0.58 + 0.05 * i as f32), small, ink::DIM);
    }
    hud.centered(
        "R  play again      T  title      the sandbox waits on the title screen",
        h * 0.82,
        small,
        ink::DIM,
    );
}

/// The medal line of the cleared screen: the medal this run won and how much faster the next
/// one needs, or the time bronze needs.
pub fn medal_line(par: Par, time: u64) -> (String, Color) {
    let medal = par.medal(time);
    let won = medal.map_or_else(
        || "No medal".to_string(),
        |m| format!("{} medal!", capitalised(m.name())),
    );
    let next = par
        .next(time)
        .map(|(m, steps)| format!("   {} faster for {}", seconds(steps), m.name()));
    let color = medal.map_or(ink::DIM, medal_ink);
    (format!("{won}{}", next.unwrap_or_default()), color)
}

/// Steps as seconds with hundredths, rounded up (`1.25 s`): how much faster a run must be.
pub fn seconds(steps: u64) -> String {
    let hundredths = (steps * 100).div_ceil(u64::from(crate::sim::STEPS_PER_SECOND));
    match hundredths / 100 {
        s if s < 60 => format!("{s}.{:02} s", hundredths % 100),
        s => format!("{}:{:02}.{:02}", s / 60, s % 60, hundredths % 100),
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// How big a medal that has just been won is, `age` frames after: it pops up past its size and
/// settles (1.0) within half a second.
pub fn pop(age: u64) -> f32 {
    let t = age as f32 / 12.0;
    if t < 1.0 {
        1.25 * t
    } else {
        1.0 + 0.25 * (2.0 - t).max(0.0)
    }
}

/// Queue the won medal over the cleared screen's title, popping in `age` frames after the
/// clear, with sparks flying out of it while it is new.
fn celebrate(hud: &mut Hud, award: Medal, new: bool, centre: (f32, f32), size: f32, age: u64) {
    let grown = size * pop(age);
    hud.medal(
        centre.0 - grown * 0.4,
        centre.1 - grown / 2.0,
        grown,
        medal_ink(award),
    );
    if !new || age > 60 {
        return;
    }
    // Sparks: eight, flying out and fading over a second.
    let t = age as f32 / 60.0;
    for i in 0..8 {
        let angle = i as f32 * std::f32::consts::TAU / 8.0 + t;
        let r = size * (0.5 + 1.2 * t);
        let (x, y) = (centre.0 + r * angle.cos(), centre.1 + r * angle.sin());
        let spark = size * 0.12 * (1.0 - t);
        let c = medal_ink(award);
        hud.panel(
            Rect::new(x - spark / 2.0, y - spark / 2.0, spark, spark),
            Color::new(c.r, c.g, c.b, 1.0 - t),
        );
    }
}

/// Queue the room-cleared screen, `age` frames after the clear (its celebration moves).
pub fn cleared(hud: &mut Hud, c: &Cleared, age: u64) {
    if let Some(e) = &c.ending {
        ending(hud, c, e, age);
        return;
    }
    let (w, h) = (screen_width(), screen_height());
    let big = h >= 600.0;
    let k = if big { 1.0 } else { 0.7 };
    hud.panel(Rect::new(0.0, h * 0.22, w, h * 0.56), ink::PANEL);
    let title = if c.new_award {
        "New medal!"
    } else {
        "Room cleared!"
    };
    hud.centered(title, h * 0.32, 64.0 * k, ink::GOLD);
    if let Some(award) = c.award {
        let tw = measure_text(title, None, (64.0 * k) as u16, 1.0).width;
        let size = 72.0 * k;
        let centre = ((w - tw) / 2.0 - size * 0.7, h * 0.32 - 20.0 * k);
        celebrate(hud, award, c.new_award, centre, size, age);
        let right = ((w + tw) / 2.0 + size * 0.7, centre.1);
        celebrate(hud, award, c.new_award, right, size, age);
    }
    hud.centered(
        format!("Time {}", clock(c.time)),
        h * 0.40,
        36.0 * k,
        ink::TEXT,
    );
    let (best, color) = match c.previous_best {
        Some(prev) if prev <= c.time => (format!("Best {}", clock(prev)), ink::DIM),
        Some(prev) => (format!("New best! (was {})", clock(prev)), ink::GOOD),
        None => ("New best!".to_string(), ink::GOOD),
    };
    hud.centered(best, h * 0.45, 28.0 * k, color);
    if let Some(par) = c.par {
        let (line, color) = medal_line(par, c.time);
        hud.centered(line, h * 0.51, 32.0 * k, color);
        hud.centered(
            format!(
                "gold {}   silver {}   bronze {}",
                clock(par.gold),
                clock(par.silver),
                clock(par.bronze)
            ),
            h * 0.555,
            22.0 * k,
            ink::DIM,
        );
    }
    hud.centered(
        format!("Crates smashed {}      Coins {}", c.crates, c.coins),
        h * 0.61,
        26.0 * k,
        ink::TEXT,
    );
    if let Some(next) = &c.unlocked {
        hud.centered(format!("Unlocked: {next}"), h * 0.66, 26.0 * k, ink::GOOD);
    }
    hud.centered(cleared_keys(c), h * 0.71, 22.0 * k, ink::DIM);
    if let Some(path) = &c.saved_replay {
        hud.centered(
            format!("Replay saved: {}", shorten(path, 90)),
            h * 0.75,
            20.0 * k,
            ink::GOOD,
        );
    }
}

/// The keys the room-cleared screen offers: a sandbox level has no next level.
fn cleared_keys(c: &Cleared) -> String {
    let mut keys = String::from("R  play again");
    if c.in_campaign {
        keys.push_str("      N  next level");
    }
    keys.push_str("      T  title      G  ghost");
    if c.can_save_replay && c.saved_replay.is_none() {
        keys.push_str("      V  save replay");
    }
    keys
}

/// Queue the settings screen: one row per setting with its value, the chosen row marked.
pub fn settings(hud: &mut Hud, current: &Settings, selected: usize) {
    let (w, h) = (screen_width(), screen_height());
    let big = h >= 600.0;
    let size = if big { 28.0 } else { 20.0 };
    let line = size * 1.4;
    let rows = SettingsRow::ALL.len() as f32;
    let width = 560.0_f32.min(w - 24.0);
    let height = line * rows + size * 5.0;
    let (x, y) = ((w - width) / 2.0, ((h - height) / 2.0).max(HUD_BAR + 4.0));
    hud.panel(Rect::new(x, y, width, height), ink::OPAQUE);
    hud.centered("Settings", y + size * 1.6, size * 1.6, ink::GOLD);
    let top = y + size * 2.4;
    for (i, row) in SettingsRow::ALL.iter().enumerate() {
        let ry = top + line * i as f32;
        let chosen = i == selected;
        if chosen {
            hud.panel(
                Rect::new(x + 8.0, ry + 2.0, width - 16.0, line),
                ink::HIGHLIGHT,
            );
        }
        let color = if chosen { ink::GOLD } else { ink::TEXT };
        hud.text(
            format!("{} {}", if chosen { ">" } else { " " }, row.label()),
            x + 20.0,
            ry + size,
            size,
            color,
        );
        let value = row.value(current);
        let vw = measure_text(&value, None, size as u16, 1.0).width;
        hud.text(value, x + width - vw - 24.0, ry + size, size, color);
    }
    hud.centered(
        "Up / Down choose    Left / Right / Enter change    Esc back",
        top + line * rows + size * 1.3,
        size * 0.7,
        ink::DIM,
    );
    hud.centered(
        "gamepad: d-pad / stick, A change, B back",
        top + line * rows + size * 2.2,
        size * 0.7,
        ink::DIM,
    );
}

/// Queue the pause screen.
pub fn paused(hud: &mut Hud, level_hint: Option<&str>) {
    let (w, h) = (screen_width(), screen_height());
    let small = w < 900.0;
    hud.panel(Rect::new(0.0, h * 0.4, w, h * 0.22), ink::PANEL);
    hud.centered("Paused", h * 0.48, 56.0, ink::TEXT);
    hud.centered(
        "P / Esc / Start  resume      O / Select  settings      T  title",
        h * 0.53,
        if small { 16.0 } else { 22.0 },
        ink::DIM,
    );
    if let Some(level_hint) = level_hint {
        hud.centered(
            level_hint,
            h * 0.59,
            if small { 16.0 } else { 22.0 },
            ink::GOLD,
        );
    }
}

/// Seconds a level's hint stays on screen as the level starts.
pub const HINT_SECONDS: u64 = 6;

/// Queue the level's hint in a box under the HUD bar, or, with `low` (the bottom of the free
/// space at the bottom of the screen), low on the screen, its box ending 12 px above `low`.
/// Returns the box.
pub fn level_hint(hud: &mut Hud, level_hint: &str, low: Option<f32>) -> Rect {
    let size = if screen_width() < 900.0 { 16.0 } else { 22.0 };
    let lines = [(level_hint.to_owned(), ink::GOLD)];
    let (w, h) = Hud::box_size(&lines, size);
    // Low: clear of the debug panels under the HUD bar (F2, F6), and above the F7 banner.
    let y = match low {
        Some(bottom) => bottom - h - 12.0,
        None => HUD_BAR + 56.0,
    };
    hud.text_box(&lines, ((screen_width() - w) / 2.0).max(4.0), y, size)
}

/// Where notices go on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticePlace {
    /// Under the top edge (the editor, whose status line is at the bottom).
    Top,
    /// Stacked up from just above the title's key line: clear of the title's logo, the HUD
    /// bar and the level's hint under it.
    Bottom,
}

/// Queue short notices (a level reloaded, a locked level, a problem with the best-times file).
pub fn notices<'a>(
    hud: &mut Hud,
    place: NoticePlace,
    notices: impl Iterator<Item = (&'a str, Color)>,
) {
    const GAP: f32 = 6.0;
    let h = screen_height();
    let size = if h >= 600.0 { 20.0 } else { 16.0 };
    // Wrapped to the window, so a long message (a path, an OS error) is read whole.
    let boxes: Vec<Vec<(String, Color)>> = notices
        .map(|(text, color)| {
            wrap(&shorten(text, 600), screen_width() - 40.0, size)
                .into_iter()
                .map(|line| (line, color))
                .collect()
        })
        .collect();
    let total: f32 = boxes
        .iter()
        .map(|lines| Hud::box_size(lines, size).1 + GAP)
        .sum();
    // On the title, the slot its layout keeps free between the totals and the key line (22 px
    // text 30 px from the bottom, 16 px text 12 px from it on a small window); never above
    // the HUD bar.
    let bottom = h - if h >= 600.0 { 50.0 } else { 25.0 } + GAP;
    let mut y = match place {
        NoticePlace::Top => HUD_BAR + 10.0,
        NoticePlace::Bottom => (bottom - total).max(HUD_BAR + 4.0),
    };
    for lines in &boxes {
        let (w, h) = Hud::box_size(lines, size);
        hud.text_box(lines, ((screen_width() - w) / 2.0).max(0.0), y, size);
        y += h + GAP;
    }
}

/// `text` in lines at most `width` pixels wide at font size `size`, broken between words (a
/// word wider than that on its own is cut).
fn wrap(text: &str, width: f32, size: f32) -> Vec<String> {
    let fits = |line: &str| Hud::box_size(&[(line.to_owned(), ink::ERROR)], size).0 <= width;
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || fits(&candidate) {
            line = candidate;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        }
    }
    lines.push(line);
    for line in &mut lines {
        let whole = line.clone();
        let mut chars = whole.chars().count();
        while chars > 1 && !fits(line) {
            chars -= chars / 8 + 1;
            *line = shorten(&whole, chars);
        }
    }
    lines
}

/// Queue the level-error banner along the bottom of the screen.
pub fn error_box(hud: &mut Hud, error: &str) {
    let mut lines: Vec<_> = vec![(
        "Level error (the last good level keeps running; fix and save):".to_string(),
        ink::GOLD,
    )];
    lines.extend(
        error
            .lines()
            .take(12)
            .map(|l| (shorten(l, 160), ink::ERROR)),
    );
    let size = 20.0;
    let height = (lines.len() as f32 * 1.15 + 0.5) * size;
    hud.text_box(&lines, 12.0, screen_height() - height - 12.0, size);
}

/// At most `max` characters of `text`, with an ellipsis if cut (names and messages come from
/// files and can be any length).
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn the_cleared_screen_offers_the_next_level_in_the_campaign_only() {
        let mut cleared = super::Cleared {
            time: 600,
            previous_best: None,
            crates: 2,
            coins: 0,
            can_save_replay: false,
            saved_replay: None,
            par: None,
            unlocked: None,
            ending: None,
            in_campaign: true,
            award: None,
            new_award: false,
            at_frame: 0,
        };
        assert!(super::cleared_keys(&cleared).contains("N  next level"));
        cleared.in_campaign = false;
        assert_eq!(
            super::cleared_keys(&cleared),
            "R  play again      T  title      G  ghost",
            "a sandbox level has no next level"
        );
    }

    #[test]
    fn time_to_the_next_medal_rounds_up_to_a_hundredth() {
        assert_eq!(super::seconds(1), "0.02 s");
        assert_eq!(super::seconds(60), "1.00 s");
        assert_eq!(super::seconds(61 * 60 + 3), "1:01.05");
    }

    #[test]
    fn long_text_is_cut_on_a_character_boundary() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "abc...");
        assert_eq!(shorten("ééééé", 2), "éé...");
    }

    #[test]
    fn the_title_total_of_any_best_times_never_overflows() {
        let entry = |file: &str, best| super::TitleEntry {
            file: file.to_owned(),
            name: None,
            best: Some(best),
            par: None,
            open: true,
            campaign: true,
            problem: None,
            why: None,
        };
        let entries = [
            entry("iron_bands.ron", u64::MAX),
            entry("pocket_change.ron", 1),
        ];
        assert!(super::title_total(&entries).contains("cleared 2 of 2"));
    }

    #[test]
    fn the_title_total_counts_only_the_levels_a_player_can_clear() {
        let entry = |best, problem: Option<&'static str>| super::TitleEntry {
            file: "level.ron".to_owned(),
            name: None,
            best,
            par: None,
            open: problem.is_none(),
            campaign: true,
            problem,
            why: None,
        };
        let mut entries = vec![entry(None, None); 10];
        entries.push(entry(None, Some("missing")));
        assert!(
            super::title_total(&entries).contains("cleared 0 of 10 (1 missing), total 0:00.00"),
            "{}",
            super::title_total(&entries)
        );
        // A level cleared before it went missing, and one that no longer loads: neither counts,
        // nor does its best time.
        entries[0].best = Some(60);
        entries.push(entry(Some(600), Some("missing")));
        entries.push(entry(Some(600), Some("does not load")));
        assert!(
            super::title_total(&entries)
                .contains("cleared 1 of 10 (2 missing, 1 does not load), total 0:01.00"),
            "{}",
            super::title_total(&entries)
        );
        // A sandbox level is in none of it.
        let mut sandbox = entry(Some(60), None);
        sandbox.campaign = false;
        entries.push(sandbox);
        assert!(super::title_total(&entries).contains("cleared 1 of 10 ("));
    }
}
