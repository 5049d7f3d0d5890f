//! The title screen: the levels with their best times and medals, the totals and the legend.

use super::*;

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
pub(super) enum Span {
    Text(String, Color),
    Medal(Color),
}

/// Queue `spans` as one line centred on the screen, text `size` pixels with its baseline at
/// `y`, each medal a little taller than the text.
pub(super) fn centered_spans(hud: &mut Hud, spans: &[Span], y: f32, size: f32) {
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
pub(super) fn title_totals(hud: &mut Hud, entries: &[TitleEntry], y: f32, size: f32) {
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
pub(super) fn medal_legend(hud: &mut Hud, y: f32, size: f32) {
    let wide = screen_width() >= 900.0;
    let mut spans = Vec::new();
    // Each medal's icon with its name on a wide screen; the three par medals' icons together
    // on a narrow one.
    for medal in [Medal::Gold, Medal::Silver, Medal::Bronze] {
        spans.push(Span::Medal(medal_ink(medal)));
        if wide {
            let after = if medal == Medal::Bronze { ":" } else { "  " };
            spans.push(Span::Text(format!("{}{after}", medal.name()), ink::DIM));
        }
    }
    let (medals, author) = if wide {
        (
            " clear a room within its par times      ",
            "author: match the fastest route known",
        )
    } else {
        (" beat the par times      ", " beat the author run")
    };
    spans.push(Span::Text(medals.to_owned(), ink::DIM));
    spans.push(Span::Medal(medal_ink(Medal::Author)));
    spans.push(Span::Text(author.to_owned(), ink::DIM));
    centered_spans(hud, &spans, y, size);
}

/// Where the title screen's parts go on a screen of this size.
pub(super) struct TitleLayout {
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
pub(super) fn title_row(
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
