//! The profiler window (F2): two tabs, **Systems**, a table of what each system cost per
//! simulation step, read from the ECS's own timings; and **Flamegraph**, puffin's view of the
//! frame, zoomed to the `update` scope (a whole frame in software GL is tens of milliseconds, so
//! at full width the update is a sliver). The window docks to a side of the screen, below the
//! HUD, and moves across when the player walks under it.

use macroquad::prelude::*;

use super::costs::{FrameCost, OwnCost, StepFigures, SystemRow, debug_line, micros, step_micros};

/// Gap between a debug panel and the screen's edge.
pub(super) const MARGIN: f32 = 12.0;

/// Which side of the screen the profiler window is docked to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Side {
    #[default]
    Left,
    Right,
}

impl Side {
    fn other(self) -> Self {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// The profiler window's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Tab {
    #[default]
    Systems,
    Flamegraph,
}

/// The profiler window: where it is docked, which tab is open, and what it shows.
#[derive(Default)]
pub(super) struct ProfilerWindow {
    pub(super) side: Side,
    tab: Tab,
    dirty_optimization: bool,
    /// The Save button was clicked this frame.
    pub(super) save_requested: bool,
    /// The Systems tab's rows as last shown, one line each (for the scripted report).
    pub(super) shown: Vec<String>,
    /// puffin's own viewer state, made when the window first opens (from then on it collects
    /// frames).
    puffin: Option<puffin_egui::GlobalProfilerUi>,
    /// The flamegraph should zoom to the update scope as soon as there is one to zoom to.
    zoom_pending: bool,
    /// The bottom edge of the window as last placed, in screen pixels.
    pub(super) bottom: f32,
}

/// Widest profiler window: the Systems table needs about 430 px; more would only hide the game.
const PROFILER_MAX_W: f32 = 500.0;
/// Narrowest profiler window, for small screens (it then reaches the middle).
const PROFILER_MIN_W: f32 = 440.0;
/// Width of a column of the Systems table in the compact layout (a system's name, tracked,
/// dirty and µs in small text).
const COMPACT_COLUMN_W: f32 = 195.0;
/// The middle of the screen the profiler window leaves clear: where the camera keeps the player
/// in a level larger than the screen (a 48 px sprite at scale 3, plus room to swing).
const CLEAR_MIDDLE: f32 = 300.0;
/// How close the player may come to the window, in screen pixels, before it moves across.
const PLAYER_CLEARANCE: f32 = 40.0;
/// Screens shorter than this (a 640x360 window) get the compact layout: small text, tight
/// rows, so every system's row fits without scrolling.
pub(super) const COMPACT_BELOW: f32 = 480.0;

/// Text sizes and spacing for the screen's height: egui's own, or small text and tight rows
/// on a short screen.
pub(super) fn fit_style(style: &mut egui::Style) {
    let compact = screen_height() < COMPACT_BELOW;
    for (text, small, normal) in [
        (egui::TextStyle::Body, 10.0, 12.5),
        (egui::TextStyle::Monospace, 8.0, 12.0),
        (egui::TextStyle::Button, 10.0, 12.5),
        (egui::TextStyle::Small, 8.0, 9.0),
        (egui::TextStyle::Heading, 11.0, 18.0),
    ] {
        if let Some(font) = style.text_styles.get_mut(&text) {
            font.size = if compact { small } else { normal };
        }
    }
    style.spacing.item_spacing = if compact {
        egui::vec2(6.0, 0.0)
    } else {
        egui::vec2(8.0, 3.0)
    };
    style.spacing.interact_size.y = if compact { 9.0 } else { 18.0 };
}

impl ProfilerWindow {
    /// The window's rectangle when docked to `side`: a column from `top` down to `bottom`
    /// (the screen's bottom margin, or what is drawn at the bottom), leaving the middle clear.
    /// On a short screen, as wide as three columns of the Systems table need (the window
    /// covers the middle there anyway).
    pub(super) fn rect(side: Side, top: f32, bottom: f32) -> Rect {
        let w = if screen_height() < COMPACT_BELOW {
            3.0 * COMPACT_COLUMN_W + 30.0
        } else {
            ((screen_width() - CLEAR_MIDDLE) / 2.0 - MARGIN).clamp(PROFILER_MIN_W, PROFILER_MAX_W)
        }
        .min(screen_width() - 2.0 * MARGIN);
        let x = match side {
            Side::Left => MARGIN,
            Side::Right => screen_width() - w - MARGIN,
        };
        Rect::new(x, top, w, (bottom - top).max(120.0))
    }

    /// `rect` made to leave the stats panel's rectangle `stats` (when it is open) clear: no
    /// wider than the narrowest profiler window beside it, and on a narrow screen narrower
    /// still, or across on the left, rather than over it.
    pub(super) fn beside(rect: Rect, stats: Option<Rect>) -> Rect {
        let Some(stats) = stats else {
            return rect;
        };
        let mut r = rect;
        r.w = r.w.min(Self::width_beside_stats());
        let overlaps = r.x < stats.right() && stats.x < r.right() && r.y < stats.bottom();
        if overlaps {
            r.x = MARGIN;
        }
        r
    }

    /// The profiler window's width while the stats panel is open: the narrowest full window,
    /// or on a short screen two columns of the Systems table (the stats panel narrows to
    /// what is left).
    pub(super) fn width_beside_stats() -> f32 {
        if screen_height() < COMPACT_BELOW {
            2.0 * COMPACT_COLUMN_W + 16.0
        } else {
            PROFILER_MIN_W
        }
    }

    /// The window's bottom edge when docked to `side` below `top`: the screen's bottom margin,
    /// or above the texts in `below` (the F7 banner, the level's hint) that it would cover, so
    /// they stay readable; the Systems table scrolls in what is left.
    pub(super) fn bottom(side: Side, top: f32, below: &[Rect]) -> f32 {
        let column = Self::rect(side, top, screen_height() - MARGIN);
        below
            .iter()
            .filter(|r| r.x < column.right() && column.x < r.right() && r.bottom() > top)
            .fold(column.bottom(), |bottom, r| bottom.min(r.y - MARGIN / 2.0))
    }

    /// Dock to `preferred` (the side no other panel uses), or to the other side while the
    /// player, at screen x `player_x`, is under it. Coming back waits until the player is well
    /// clear, so a player on the edge does not make the window jump to and fro.
    pub(super) fn place(&mut self, preferred: Side, player_x: Option<f32>) {
        let covers = |side, clearance| {
            let r = Self::rect(side, 0.0, screen_height());
            player_x.is_some_and(|x| x + clearance > r.x && x - clearance < r.x + r.w)
        };
        if self.side != preferred && !covers(preferred, 3.0 * PLAYER_CLEARANCE) {
            self.side = preferred;
        }
        if covers(self.side, PLAYER_CLEARANCE) && !covers(self.side.other(), PLAYER_CLEARANCE) {
            self.side = self.side.other();
        }
    }

    /// Whether the window must run this frame whatever else holds: it is zooming the
    /// flamegraph.
    pub(super) fn busy(&self) -> bool {
        self.zoom_pending
    }

    /// The window was just opened: the flamegraph, if that is the open tab, zooms to the
    /// `update` scope of the first frame that has one (puffin's scopes are on only while the
    /// window is open, so the frames before it have none).
    pub(super) fn opened(&mut self) {
        self.zoom_pending = self.tab == Tab::Flamegraph;
    }

    /// Note the dirty optimization's state for the tab bar.
    pub(super) fn sample(&mut self, dirty_optimization: bool) {
        self.dirty_optimization = dirty_optimization;
    }

    /// The frames puffin's viewer holds (from when the window first opened), if it has opened.
    pub(super) fn frame_view(&self) -> Option<&puffin::GlobalFrameView> {
        self.puffin.as_ref().map(|p| p.global_frame_view())
    }

    pub(super) fn ui(
        &mut self,
        ui: &mut egui::Ui,
        last: FrameCost,
        steps: &StepFigures,
        own_us: OwnCost,
        saved: Option<&str>,
    ) {
        let rows = steps.rows.clone();
        let puffin = self.puffin.get_or_insert_with(|| {
            let mut p = puffin_egui::GlobalProfilerUi::default();
            // One row per system however many steps the frame ran; the view also keeps its
            // zoom when the number of frames shown changes.
            p.profiler_ui.flamegraph_options.merge_scopes = true;
            p
        });
        ui.horizontal(|ui| {
            for (tab, name) in [(Tab::Systems, "Systems"), (Tab::Flamegraph, "Flamegraph")] {
                if ui.selectable_label(self.tab == tab, name).clicked() && self.tab != tab {
                    self.tab = tab;
                    self.zoom_pending = tab == Tab::Flamegraph;
                }
            }
            if rows.is_empty() {
                return;
            }
            ui.separator();
            let (state, colour) = if self.dirty_optimization {
                ("ON", egui::Color32::from_rgb(130, 220, 130))
            } else {
                ("OFF", egui::Color32::from_rgb(255, 115, 100))
            };
            ui.label("dirty tracking");
            ui.label(egui::RichText::new(state).strong().color(colour));
            ui.weak("(F7)");
        });
        ui.separator();
        match self.tab {
            Tab::Systems if rows.is_empty() => {
                ui.label("No level is running.");
            }
            Tab::Systems => {
                self.shown = systems_table(ui, &rows, steps, last, own_us, self.bottom);
            }
            Tab::Flamegraph => {
                ui.horizontal(|ui| {
                    if ui.button("Zoom to update").clicked() {
                        self.zoom_pending = true;
                    }
                    if ui
                        .button("Save .puffin")
                        .on_hover_text("the latest 1,000 frames and the slowest 256")
                        .clicked()
                    {
                        self.save_requested = true;
                    }
                    ui.weak("double-click: whole frame; ctrl+scroll: zoom");
                });
                if self.zoom_pending {
                    let canvas_width = ui.available_width() - 12.0;
                    self.zoom_pending = !zoom_to_update(puffin, canvas_width);
                }
                if let Some(saved) = saved {
                    ui.weak(saved);
                }
                // Long lines (puffin's frame summary) end in "…" rather than widen the window.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                // Space swings the hammer; puffin would take it as "pause".
                ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Space));
                puffin.ui(ui);
            }
        }
    }
}

/// The Systems tab: the step's median, then each game system's time per step (median over
/// the record's window) with its share of the game's total as a bar, and what it tracked and
/// was given dirty; then the debug systems and the overlay's own cost, apart and out of the
/// total. Where one column does not fit above `bottom`, two side by side without the bars.
/// Returns the rows in view (not scrolled away) as text lines.
fn systems_table(
    ui: &mut egui::Ui,
    rows: &[SystemRow],
    steps: &StepFigures,
    last: FrameCost,
    own_us: OwnCost,
    bottom: f32,
) -> Vec<String> {
    let total: f32 = rows.iter().filter(|r| !r.debug).map(|r| r.us).sum();
    let phase = steps.phase;
    if screen_height() >= COMPACT_BELOW {
        ui.label(format!(
            "Step {} ({}); this frame: {} step{}, render {}.",
            step_micros(phase.step_us),
            steps.step_window,
            last.steps,
            if last.steps == 1 { "" } else { "s" },
            micros(last.render_ms * 1e3)
        ));
    }
    if screen_height() >= COMPACT_BELOW {
        ui.weak(format!(
            "µs per step, {}; the bar is the system's share of the game's {total:.1} µs.",
            steps.rows_window
        ));
    }
    let row_h = ui.text_style_height(&egui::TextStyle::Monospace);
    let gap_y = ui.spacing().item_spacing.y.min(2.0);
    // The game's systems, their total, then the debug systems.
    let mut cells: Vec<Cell<'_>> = rows.iter().filter(|r| !r.debug).map(Cell::System).collect();
    cells.push(Cell::Total(total));
    cells.extend(rows.iter().filter(|r| r.debug).map(Cell::System));
    let mut shown = Vec::with_capacity(rows.len() + 2);
    // What is left of the window above its bottom edge (the window's frame below).
    let room = (bottom - 12.0 - ui.cursor().top())
        .min(ui.available_height())
        .max(3.0 * row_h);
    // One column with the share bars where every row fits (the header and the debug line
    // too); else, on a short screen, two or three side by side, so every system shows at once.
    // A row is its text and the grid's padding.
    let pitch = row_h.max(ui.spacing().interact_size.y) + gap_y + 2.0;
    let fits = |lines: usize| lines as f32 * pitch <= room;
    // Columns only in the compact layout: a taller screen scrolls its one column.
    let most = if screen_height() < COMPACT_BELOW {
        ((ui.available_width() + 16.0) / COMPACT_COLUMN_W)
            .floor()
            .max(1.0) as usize
    } else {
        1
    };
    let columns = (1..=most.min(3))
        .find(|&c| fits(cells.len().div_ceil(c) + 2 + usize::from(c == 1)))
        .unwrap_or(most.min(3));
    let per_column = cells.len().div_ceil(columns);
    egui::ScrollArea::vertical()
        .max_height(room)
        .show(ui, |ui| {
            egui::Grid::new("systems")
                .striped(true)
                .min_col_width(0.0)
                .spacing([if columns == 1 { 8.0 } else { 5.0 }, gap_y])
                .show(ui, |ui| {
                    for column in 0..columns {
                        if column > 0 {
                            ui.label("");
                        }
                        let head = |ui: &mut egui::Ui, text: String| {
                            ui.label(egui::RichText::new(text).monospace().strong());
                        };
                        head(ui, "system".to_owned());
                        head(ui, format!("{:>7}", "tracked"));
                        head(ui, format!("{:>6}", "dirty"));
                        head(ui, format!("{:>7}", "µs"));
                    }
                    if columns == 1 {
                        ui.strong("share");
                    }
                    ui.end_row();
                    for i in 0..per_column {
                        for column in 0..columns {
                            let Some(cell) = cells.get(i + column * per_column) else {
                                continue;
                            };
                            if column > 0 {
                                ui.label("");
                            }
                            if let Some(line) = cell.show(ui, total, columns == 1, row_h) {
                                shown.push(line);
                            }
                        }
                        ui.end_row();
                    }
                });
            let line = debug_line(rows, own_us);
            let weak = ui.weak(&line);
            if in_view(ui, &weak) {
                shown.push(line);
            }
        });
    shown
}

/// A row of the Systems table: a system's figures, or the game systems' total.
enum Cell<'a> {
    System(&'a SystemRow),
    Total(f32),
}

impl Cell<'_> {
    /// Lay the cell's columns out (with its share of `total` as a bar if `share`); returns its
    /// line of text if it is in view (not scrolled away).
    fn show(&self, ui: &mut egui::Ui, total: f32, share: bool, row_h: f32) -> Option<String> {
        let r = match self {
            Cell::Total(total) => {
                let name = ui.strong("game systems");
                ui.label("");
                ui.label("");
                ui.strong(egui::RichText::new(format!("{total:>7.1}")).monospace());
                if share {
                    ui.label("");
                }
                return in_view(ui, &name)
                    .then(|| format!("{:<16}{:>25.1}", "game systems", total));
            }
            Cell::System(r) => r,
        };
        let name = ui.monospace(r.name);
        ui.monospace(format!("{:>7}", r.tracked));
        ui.monospace(format!("{:>6.0}", r.dirty));
        ui.monospace(format!("{:>7.1}", r.us));
        if share && r.debug {
            ui.weak("debug");
        } else if share {
            let share = if total > 0.0 { r.us / total } else { 0.0 };
            ui.horizontal(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(80.0, row_h.min(10.0)), egui::Sense::hover());
                ui.painter()
                    .rect_filled(rect, 2.0, egui::Color32::from_gray(45));
                let mut bar = rect;
                bar.set_width(rect.width() * share);
                ui.painter()
                    .rect_filled(bar, 2.0, egui::Color32::from_rgb(255, 140, 50));
                ui.monospace(format!("{:>3.0}%", share * 100.0));
            });
        }
        in_view(ui, &name).then(|| row_text(r))
    }
}

/// Whether what `shown` laid out is wholly inside what `ui` shows (not scrolled away).
fn in_view(ui: &egui::Ui, shown: &egui::Response) -> bool {
    ui.clip_rect().contains_rect(shown.rect)
}

/// A system's row as text, the same in both panels: `attack  12  0  0.4`.
pub(super) fn row_text(r: &SystemRow) -> String {
    format!(
        "{:<16}{:>8}{:>8.0}{:>9.1}",
        r.name, r.tracked, r.dirty, r.us
    )
}

/// Zoom puffin's merged flamegraph to the `update` scope of the latest frame, with a little room
/// either side. Returns false while no frame has an update that ran systems.
fn zoom_to_update(profiler: &mut puffin_egui::GlobalProfilerUi, canvas_width: f32) -> bool {
    let span = {
        let view = profiler.global_frame_view().lock();
        let Some(frame) = view.latest_frame().and_then(|f| f.unpacked().ok()) else {
            return false;
        };
        let frames = [frame];
        let names = view.scope_collection();
        frames[0].thread_streams.keys().find_map(|thread| {
            let merged = puffin::merge_scopes_for_thread(names, &frames, thread).ok()?;
            // The flamegraph's left edge is the earliest top-level scope.
            let origin = merged.iter().map(|s| s.relative_start_ns).min()?;
            find_scope(&merged, names, "update", 0).map(|(start, len)| (start - origin, len))
        })
    };
    let Some((start, len)) = span else {
        return false;
    };
    let margin = len as f32 * 0.05;
    let options = &mut profiler.profiler_ui.flamegraph_options;
    options.canvas_width_ns = len as f32 + 2.0 * margin;
    options.sideways_pan_in_points =
        -canvas_width * (start as f32 - margin) / options.canvas_width_ns;
    true
}

/// Start (in the flamegraph's time) and length of the first merged scope called `name` that has
/// children, searching depth first.
fn find_scope(
    scopes: &[puffin::MergeScope<'_>],
    names: &puffin::ScopeCollection,
    name: &str,
    parent_start: i64,
) -> Option<(i64, i64)> {
    scopes.iter().find_map(|s| {
        let start = parent_start + s.relative_start_ns;
        let named = names.fetch_by_id(&s.id).is_some_and(|d| d.name() == name);
        if named && !s.children.is_empty() {
            Some((start, s.duration_per_frame_ns))
        } else {
            find_scope(&s.children, names, name, start)
        }
    })
}
