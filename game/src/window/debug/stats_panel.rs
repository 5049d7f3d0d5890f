//! The stats panel (F6): frame rate, update and render times, entity and draw counts, the
//! dirty optimization's state and each system's figures as text, then a graph of the recent
//! frames' update and render times with its legend; on a short screen, a compact panel of the
//! step, the F7 comparison and the totals.

use std::collections::VecDeque;

use macroquad::prelude::*;

use super::costs::{FrameCost, HISTORY, OwnCost, StepFigures, debug_line, micros, step_micros};
use super::profiler_window::{COMPACT_BELOW, MARGIN, ProfilerWindow};
use crate::sim::Sim;
use crate::sim::resources::DebugCounts;
use crate::window::ui::{Hud, ink};

/// The ink of the dirty view's legend (F5) and of the dirty figures beside it.
pub(super) const DIRTY_INK: Color = Color::new(1.0, 0.45, 0.85, 1.0);

/// Text size of the panel's lines.
const SIZE: f32 = 18.0;
/// Text size of the graph's labels and legend.
const LABEL: f32 = 16.0;
/// Line height of the stats graph's legend.
const LEGEND_LINE: f32 = 20.0;
/// Height of the stats graph in pixels.
const GRAPH_H: f32 = 56.0;
/// Height of the step graph under it, which has a scale of its own.
const STEP_H: f32 = 36.0;
/// Gap between the two graphs, room for the labels of both.
const GRAPH_GAP: f32 = 14.0;
/// Pixels per frame in the stats graph: a 2 px bar and a 1 px gap.
const BAR_STEP: f32 = 3.0;
const UPDATE_INK: Color = Color::new(1.0, 0.55, 0.2, 1.0);
const RENDER_INK: Color = Color::new(0.3, 0.7, 1.0, 1.0);
/// The step graph's bars while the optimization is off.
const OFF_INK: Color = Color::new(1.0, 0.3, 0.3, 1.0);
/// A switch of the optimization (F7), across both graphs.
const SWITCH_INK: Color = Color::new(1.0, 1.0, 1.0, 0.9);
const GRID_INK: Color = Color::new(0.35, 0.33, 0.4, 1.0);

/// What the overlay adds to the stats panel.
pub(super) struct OverlayFigures {
    /// Compare mode's line (F8), when it is on.
    pub compare: Option<String>,
    /// The dirty view's legend (F5), when it is on.
    pub dirty_legend: Option<String>,
    /// The overlay's own median cost per frame, in microseconds.
    pub own_us: OwnCost,
    /// The profiler window (F2) is open beside the panel: it has each system's figures, so
    /// the panel leaves them out and stays narrow.
    pub beside_profiler: bool,
}

/// Text size of the compact panel, on a short screen.
const COMPACT_SIZE: f32 = 14.0;
/// The compact panel's step graph: its height, and pixels per frame (a 1 px bar, a 1 px gap).
const COMPACT_GRAPH_H: f32 = 28.0;
const COMPACT_BAR: f32 = 2.0;

/// Queue the stats panel into `hud`, its top at `top`, at the right edge, for the frames in
/// `history` (newest last) and the steps in `steps`; `overlay` adds compare mode's line and its
/// own median cost per frame. The panel is opaque, so its figures read the same over any part
/// of the level. On a short screen (below [`COMPACT_BELOW`] pixels) it is compact: the step,
/// the F7 comparison and the totals, in smaller text, without the per-system table (F2 has
/// it) or the graphs, so the player and the crates around it stay in view.
/// Returns its lines of text and its rectangle.
pub(super) fn draw_stats(
    hud: &mut Hud,
    sim: &Sim,
    fps: f32,
    top: f32,
    history: &VecDeque<FrameCost>,
    steps: &StepFigures,
    overlay: OverlayFigures,
) -> (Vec<String>, Rect) {
    let last = history.back().copied().unwrap_or_default();
    if screen_height() < COMPACT_BELOW {
        // At most two fifths of the screen's width, or what the profiler window leaves.
        let max_w = if overlay.beside_profiler {
            screen_width() - ProfilerWindow::width_beside_stats() - 3.0 * MARGIN
        } else {
            screen_width() * 0.4
        };
        let lines = wrap(
            compact_lines(sim, fps, steps, overlay),
            COMPACT_SIZE,
            max_w - COMPACT_SIZE,
        );
        let (text_w, text_h) = Hud::box_size(&lines, COMPACT_SIZE);
        let frames = ((max_w - COMPACT_SIZE) / COMPACT_BAR).clamp(10.0, HISTORY as f32) as usize;
        let graph_w = frames as f32 * COMPACT_BAR;
        let w = text_w.max(graph_w + COMPACT_SIZE);
        let h = text_h + COMPACT_GRAPH_H + 10.0;
        let x = (screen_width() - w - MARGIN).max(0.0);
        let rect = Rect::new(x, top, w, h);
        hud.panel(rect, ink::OPAQUE);
        for (i, (t, c)) in lines.iter().enumerate() {
            let y = top + COMPACT_SIZE * (0.5 + 0.8 + 1.15 * i as f32);
            hud.text(t.clone(), x + COMPACT_SIZE * 0.5, y, COMPACT_SIZE, *c);
        }
        let graph = StepGraph {
            bar: COMPACT_BAR,
            frames,
            height: COMPACT_GRAPH_H,
            labels: false,
        };
        let recent: VecDeque<FrameCost> = history
            .iter()
            .skip(history.len().saturating_sub(frames))
            .copied()
            .collect();
        graph.draw(hud, &recent, x + COMPACT_SIZE * 0.5, rect.bottom() - 6.0);
        return (lines.into_iter().map(|(t, _)| t).collect(), rect);
    }
    let beside_profiler = overlay.beside_profiler;
    let mut lines = stats_lines(sim, fps, last, steps, overlay);
    if beside_profiler {
        // Narrow enough for the graphs: the profiler window takes the other side.
        lines = wrap(lines, SIZE, HISTORY as f32 * BAR_STEP + 80.0);
    }
    let pad = SIZE * 0.5;
    let (text_w, text_h) = Hud::box_size(&lines, SIZE);
    let graph_w = HISTORY as f32 * BAR_STEP;
    // The widest scale label the graph is likely to need.
    let axis_w = ["50,000 µs", "1,000 µs/step"]
        .map(|label| measure_text(label, None, LABEL as u16, 1.0).width)
        .into_iter()
        .fold(0.0, f32::max);
    let w = text_w.max(pad + graph_w + 8.0 + axis_w + pad);
    // Text, a gap, the two graphs, their legend.
    let h = text_h + 12.0 + GRAPH_H + GRAPH_GAP + STEP_H + 28.0 + LEGEND_LINE;
    let x = (screen_width() - w - MARGIN).max(0.0);
    let rect = Rect::new(x, top, w, h);
    hud.panel(rect, ink::OPAQUE);
    for (i, (t, c)) in lines.iter().enumerate() {
        let y = top + pad + SIZE * 0.8 + SIZE * 1.15 * i as f32;
        hud.text(t.clone(), x + pad, y, SIZE, *c);
    }
    let (gx, base) = (x + pad, top + text_h + 12.0 + GRAPH_H);
    draw_graph(hud, history, gx, base);
    let step_base = base + GRAPH_GAP + STEP_H;
    let graph = StepGraph {
        bar: BAR_STEP,
        frames: HISTORY,
        height: STEP_H,
        labels: true,
    };
    graph.draw(hud, history, gx, step_base);
    draw_legend(hud, gx, step_base + 22.0);
    (lines.into_iter().map(|(t, _)| t).collect(), rect)
}

/// The compact panel's text: the step's median, the optimization's state, the pinned F7
/// comparison, compare mode's line, and the game's and the debug systems' totals.
fn compact_lines(
    sim: &Sim,
    fps: f32,
    steps: &StepFigures,
    overlay: OverlayFigures,
) -> Vec<(String, Color)> {
    let OverlayFigures {
        compare,
        dirty_legend,
        own_us,
        beside_profiler,
    } = overlay;
    let phase = steps.phase;
    let on = sim.dirty_optimization();
    let mut lines = vec![
        (
            format!(
                "Stats (F6)  {fps:.0} FPS  step {} ({})",
                step_micros(phase.step_us),
                steps.step_window
            ),
            ink::GOLD,
        ),
        (
            format!("dirty optimization {} (F7)", if on { "ON" } else { "OFF" }),
            if on { ink::TEXT } else { ink::ERROR },
        ),
    ];
    if let Some(comparison) = steps.comparison.clone() {
        for part in comparison_lines(&comparison) {
            lines.push((part, ink::GOLD));
        }
    }
    if let Some(compare) = compare {
        lines.extend(compare.lines().map(|l| (l.to_owned(), ink::GOLD)));
    }
    if let Some(legend) = dirty_legend {
        lines.push((legend, DIRTY_INK));
    }
    if beside_profiler {
        // The profiler window beside it has the totals.
        return lines;
    }
    let rows = steps.rows.clone();
    let total: f32 = rows.iter().filter(|r| !r.debug).map(|r| r.us).sum();
    lines.push((
        format!("game systems {total:.1} µs/step (F2: each)"),
        ink::TEXT,
    ));
    lines.push((debug_line(&rows, own_us), ink::DIM));
    lines
}

/// The panel's text: the frame's figures, the pinned F7 comparison, then one line per game
/// system and the debug systems apart.
fn stats_lines(
    sim: &Sim,
    fps: f32,
    last: FrameCost,
    steps: &StepFigures,
    overlay: OverlayFigures,
) -> Vec<(String, Color)> {
    let OverlayFigures {
        compare,
        dirty_legend,
        own_us,
        beside_profiler,
    } = overlay;
    let world = sim.world();
    let phase = steps.phase;
    let window_us = (last.update_ms - last.step_ms - last.compare_ms).max(0.0) * 1e3;
    // Compare mode's other runs (F8), apart from the window's work.
    let comparing = if last.compare_ms > 0.0 {
        format!("   compare {}", micros(last.compare_ms * 1e3))
    } else {
        String::new()
    };
    let mut lines = vec![
        ("Stats (F6)".to_string(), ink::GOLD),
        (
            format!(
                "{fps:.0} FPS   step {} ({})",
                step_micros(phase.step_us),
                steps.step_window
            ),
            ink::TEXT,
        ),
        (
            format!(
                "this frame: {} step{}   window {}{comparing}   render {}",
                last.steps,
                if last.steps == 1 { "" } else { "s" },
                micros(window_us),
                micros(last.render_ms * 1e3)
            ),
            ink::TEXT,
        ),
        (
            format!(
                "entities {}   world quads {}   world draw calls {}",
                world.len(),
                last.world_quads,
                last.world_draw_calls
                    .map_or("-".to_string(), |n| n.to_string())
            ),
            ink::TEXT,
        ),
        (
            world
                .get_resource::<DebugCounts>()
                .map_or(String::new(), |c| {
                    format!(
                        "crates {} ({} exploding)  movers {}  animating {}  effects {}",
                        c.crates, c.exploding, c.movers, c.animating, c.effects
                    )
                }),
            ink::TEXT,
        ),
        (
            format!(
                "dirty optimization {}",
                if sim.dirty_optimization() {
                    "ON (F7)"
                } else {
                    "OFF (F7)"
                }
            ),
            if sim.dirty_optimization() {
                ink::TEXT
            } else {
                ink::ERROR
            },
        ),
    ];
    if let Some(comparison) = steps.comparison.clone() {
        for part in comparison_lines(&comparison) {
            lines.push((part, ink::GOLD));
        }
    }
    if let Some(compare) = compare {
        lines.extend(compare.lines().map(|l| (l.to_owned(), ink::GOLD)));
    }
    if let Some(legend) = dirty_legend {
        lines.push((legend, DIRTY_INK));
    }
    lines.push((
        format!("µs per step, {} (F2: tracked and dirty)", steps.rows_window),
        ink::DIM,
    ));
    let rows = steps.rows.clone();
    let cells: Vec<String> = rows
        .iter()
        .filter(|r| !r.debug)
        .map(|r| format!("{:<15}{:>5.1}", r.name, r.us))
        .collect();
    // Two to a line beside the profiler window, which leaves the panel less room.
    let per_line = if beside_profiler { 2 } else { 3 };
    for cells in cells.chunks(per_line) {
        lines.push((cells.join("  "), ink::TEXT));
    }
    let total: f32 = rows.iter().filter(|r| !r.debug).map(|r| r.us).sum();
    let debug: Vec<String> = rows
        .iter()
        .filter(|r| r.debug)
        .map(|r| format!("{:<15}{:>5.1}", r.name, r.us))
        .collect();
    lines.push((
        format!("{:<15}{total:>5.1}  {}", "game systems", debug.join("  ")),
        ink::DIM,
    ));
    lines.push((debug_line(&rows, own_us), ink::DIM));
    lines
}

/// `lines` with each one wider than `max_w` at text `size` broken at spaces (a word wider
/// than `max_w` keeps a line of its own).
fn wrap(lines: Vec<(String, Color)>, size: f32, max_w: f32) -> Vec<(String, Color)> {
    let width = |t: &str| measure_text(t, None, size as u16, 1.0).width;
    let mut out = Vec::with_capacity(lines.len());
    for (text, colour) in lines {
        // Most lines fit: one measure each.
        if width(&text) <= max_w {
            out.push((text, colour));
            continue;
        }
        let mut line = String::new();
        for word in text.split(' ') {
            let longer = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
            if !line.is_empty() && width(&longer) > max_w {
                out.push((std::mem::take(&mut line), colour));
                line = format!("  {word}");
            } else {
                line = longer;
            }
        }
        out.push((line, colour));
    }
    out
}

/// The F7 comparison on two lines (the figures, then what was skipped), so it fits a panel
/// that leaves the middle of the screen clear.
pub(super) fn comparison_lines(text: &str) -> Vec<String> {
    text.split("; ").map(str::to_owned).collect()
}

/// How a step graph is drawn: the full panel's, or the compact one's (thinner bars, no scale
/// labels: the compact panel's first line has the step's figure).
struct StepGraph {
    /// Pixels per frame: a bar and a 1 px gap.
    bar: f32,
    /// Frames it has room for.
    frames: usize,
    height: f32,
    labels: bool,
}

impl StepGraph {
    /// Each frame's time in `Sim::step` on a scale of its own (the first round figure above
    /// nine frames in ten), orange with the optimization on, red with it off; a white line
    /// marks each switch (across the frame graph above too, with labels). `gx` is its left
    /// edge, `base` its bottom.
    fn draw(&self, hud: &mut Hud, history: &VecDeque<FrameCost>, gx: f32, base: f32) {
        let graph_w = self.frames as f32 * self.bar;
        let per_step = |c: &FrameCost| c.step_ms * 1e3 / c.steps.max(1) as f32;
        let top_us = graph_scale(history.iter().map(per_step), 1.0);
        let per_us = self.height / top_us;
        for us in [0.0, top_us] {
            let y = base - us * per_us;
            hud.panel(Rect::new(gx, y, graph_w, 1.0), GRID_INK);
            if self.labels {
                let label = if us == 0.0 {
                    "0".to_string()
                } else {
                    format!("{}/step", step_micros(us))
                };
                hud.text(label, gx + graph_w + 8.0, y + 5.0, LABEL, ink::DIM);
            }
        }
        let switch_h = if self.labels {
            self.height + GRAPH_H + GRAPH_GAP
        } else {
            self.height
        };
        let mut was = history.front().map(|c| c.tracking);
        for (i, c) in history.iter().enumerate() {
            let bx = gx + i as f32 * self.bar;
            if was != Some(c.tracking) {
                hud.panel(
                    Rect::new(bx - 1.0, base - switch_h, 1.0, switch_h),
                    SWITCH_INK,
                );
                was = Some(c.tracking);
            }
            if c.steps == 0 {
                continue;
            }
            let h = (per_step(c) * per_us).min(self.height);
            let colour = if c.tracking { UPDATE_INK } else { OFF_INK };
            hud.panel(Rect::new(bx, base - h, self.bar - 1.0, h), colour);
        }
    }
}

/// The graph of `history`: one bar per frame, update under render. The scale is the round
/// figure above nine frames in ten of the history, so the update stays visible next to the
/// render and a rare slow frame does not flatten the rest; bars cut at the top line get a red
/// tip. `gx` is its left edge, `base` its bottom.
fn draw_graph(hud: &mut Hud, history: &VecDeque<FrameCost>, gx: f32, base: f32) {
    let graph_w = HISTORY as f32 * BAR_STEP;
    let top_us = graph_scale(
        history.iter().map(|c| (c.update_ms + c.render_ms) * 1e3),
        100.0,
    );
    let per_us = GRAPH_H / top_us;
    for us in [0.0, top_us / 2.0, top_us] {
        let y = base - us * per_us;
        hud.panel(Rect::new(gx, y, graph_w, 1.0), GRID_INK);
        let label = if us == 0.0 {
            "0".to_string()
        } else {
            micros(us)
        };
        hud.text(label, gx + graph_w + 8.0, y + 5.0, LABEL, ink::DIM);
    }
    for (i, c) in history.iter().enumerate() {
        let u = (c.update_ms * 1e3 * per_us).min(GRAPH_H);
        let r = (c.render_ms * 1e3 * per_us).min(GRAPH_H - u);
        let bx = gx + i as f32 * BAR_STEP;
        hud.panel(Rect::new(bx, base - u, BAR_STEP - 1.0, u), UPDATE_INK);
        hud.panel(Rect::new(bx, base - u - r, BAR_STEP - 1.0, r), RENDER_INK);
        if (c.update_ms + c.render_ms) * 1e3 > top_us {
            hud.panel(
                Rect::new(bx, base - GRAPH_H, BAR_STEP - 1.0, 3.0),
                ink::ERROR,
            );
        }
    }
}

/// The graph's legend, its first line at `legend_y`.
fn draw_legend(hud: &mut Hud, gx: f32, legend_y: f32) {
    let mut lx = gx;
    for (name, colour) in [
        ("update", UPDATE_INK),
        ("render", RENDER_INK),
        ("step, own scale (off: red)", OFF_INK),
    ] {
        hud.panel(Rect::new(lx, legend_y - 10.0, 10.0, 10.0), colour);
        hud.text(name, lx + 14.0, legend_y, LABEL, colour);
        lx += 14.0 + measure_text(name, None, LABEL as u16, 1.0).width + 16.0;
    }
    hud.text(
        "one bar per frame; red tip: over the scale; white line: F7",
        gx,
        legend_y + LEGEND_LINE,
        LABEL,
        ink::DIM,
    );
}

/// A graph's full height in microseconds: the first of `least`, 2x, 5x, 10x, 20x ... at or above
/// nine in ten of `totals`.
fn graph_scale(totals: impl Iterator<Item = f32>, least: f32) -> f32 {
    let mut totals: Vec<f32> = totals.collect();
    totals.sort_by(f32::total_cmp);
    let p90 = totals.get(totals.len() * 9 / 10).copied().unwrap_or(0.0);
    let mut scale = least;
    let mut steps = [2.0, 2.5, 2.0].into_iter().cycle();
    // Capped at 100 s, so a nonsense figure cannot loop for ever.
    while scale < p90 && scale < 1e8 {
        scale *= steps.next().unwrap_or(2.0);
    }
    scale
}

#[cfg(test)]
mod tests {
    use super::graph_scale;

    #[test]
    fn graph_scale_is_a_round_figure_above_nine_frames_in_ten() {
        assert_eq!(graph_scale(std::iter::empty(), 100.0), 100.0);
        assert_eq!(graph_scale([40.0; 10].into_iter(), 100.0), 100.0);
        assert_eq!(graph_scale([1_100.0; 10].into_iter(), 100.0), 2_000.0);
        // One slow frame in twenty does not set the scale.
        let totals = [300.0; 19].into_iter().chain([9_000.0]);
        assert_eq!(graph_scale(totals, 100.0), 500.0);
        assert_eq!(graph_scale([f32::INFINITY; 3].into_iter(), 100.0), 1e8);
    }
}
