//! Screen-space text and panels, shared by the game's screens (`app`) and the debug views
//! (`debug`): both queue into a [`Hud`], which draws every panel and then every label, so each
//! kind batches into one draw call.

use macroquad::prelude::*;

/// One piece of text to draw after the panels.
struct Label {
    text: String,
    x: f32,
    y: f32,
    size: f32,
    color: Color,
}

/// Collects panels, medals and labels for one frame, then draws all panels, then the medals,
/// then all labels.
#[derive(Default)]
pub struct Hud {
    panels: Vec<(Rect, Color)>,
    /// Medal icons: top-left corner, size, face colour.
    medals: Vec<(f32, f32, f32, Color)>,
    labels: Vec<Label>,
}

impl std::fmt::Debug for Hud {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hud")
            .field("panels", &self.panels.len())
            .field("labels", &self.labels.len())
            .finish()
    }
}

/// Ink colours.
pub mod ink {
    use macroquad::prelude::Color;
    /// Body text.
    pub const TEXT: Color = Color::new(0.95, 0.93, 0.86, 1.0);
    /// Numbers that matter.
    pub const GOLD: Color = Color::new(1.0, 0.82, 0.3, 1.0);
    /// Errors.
    pub const ERROR: Color = Color::new(1.0, 0.45, 0.4, 1.0);
    /// Secondary text.
    pub const DIM: Color = Color::new(0.7, 0.7, 0.75, 1.0);
    /// Panel background.
    pub const PANEL: Color = Color::new(0.06, 0.05, 0.08, 0.78);
    /// Background of panels that must stay readable over anything (stats, HUD bar).
    pub const OPAQUE: Color = Color::new(0.06, 0.05, 0.08, 1.0);
    /// The line under the HUD bar.
    pub const EDGE: Color = Color::new(0.42, 0.3, 0.22, 1.0);
    /// The selected row of a list.
    pub const HIGHLIGHT: Color = Color::new(0.3, 0.22, 0.12, 0.9);
    /// Good news (a new best time, a reload that worked).
    pub const GOOD: Color = Color::new(0.5, 0.9, 0.5, 1.0);
}

impl Hud {
    /// Queue a filled rectangle.
    pub fn panel(&mut self, rect: Rect, color: Color) {
        self.panels.push((rect, color));
    }

    /// Queue a medal icon ([`draw_medal`]) `size` pixels tall with its top-left at `(x, y)`.
    pub fn medal(&mut self, x: f32, y: f32, size: f32, face: Color) {
        self.medals.push((x, y, size, face));
    }

    /// Queue a line of text with its baseline at `y`.
    pub fn text(&mut self, text: impl Into<String>, x: f32, y: f32, size: f32, color: Color) {
        self.labels.push(Label {
            text: text.into(),
            x,
            y,
            size,
            color,
        });
    }

    /// Queue text centred horizontally on the screen.
    pub fn centered(&mut self, text: impl Into<String>, y: f32, size: f32, color: Color) {
        let text = text.into();
        let w = measure_text(&text, None, size as u16, 1.0).width;
        self.text(text, (screen_width() - w) / 2.0, y, size, color);
    }

    /// Width and height of the panel [`Hud::text_box`] would draw for `lines` at `size`.
    pub fn box_size(lines: &[(String, Color)], size: f32) -> (f32, f32) {
        let w = lines
            .iter()
            .map(|(t, _)| measure_text(t, None, size as u16, 1.0).width)
            .fold(0.0, f32::max);
        (w + size, size * 1.15 * lines.len() as f32 + size * 0.5)
    }

    /// Queue a panel sized to `lines` of text at `size`, with its top-left at `(x, y)`.
    /// Returns the panel's rectangle.
    pub fn text_box(&mut self, lines: &[(String, Color)], x: f32, y: f32, size: f32) -> Rect {
        self.text_box_on(lines, x, y, size, ink::PANEL)
    }

    /// [`Hud::text_box`] on a panel of `fill` ([`ink::OPAQUE`] for a box nothing under it may
    /// show through).
    pub fn text_box_on(
        &mut self,
        lines: &[(String, Color)],
        x: f32,
        y: f32,
        size: f32,
        fill: Color,
    ) -> Rect {
        let pad = size * 0.5;
        let line_h = size * 1.15;
        let (w, h) = Self::box_size(lines, size);
        let rect = Rect::new(x, y, w, h);
        self.panel(rect, fill);
        for (i, (t, c)) in lines.iter().enumerate() {
            self.text(
                t.clone(),
                x + pad,
                y + pad + size * 0.8 + line_h * i as f32,
                size,
                *c,
            );
        }
        rect
    }

    /// Draw everything queued (screen camera must be set) and empty the queues.
    pub fn draw(&mut self) {
        for (r, c) in self.panels.drain(..) {
            draw_rectangle(r.x, r.y, r.w, r.h, c);
        }
        for (x, y, size, face) in self.medals.drain(..) {
            draw_medal(x, y, size, face);
        }
        for l in self.labels.drain(..) {
            draw_text(&l.text, l.x.round(), l.y.round(), l.size, l.color);
        }
    }
}

/// Draw a medal now (screen camera set): a ribbon in two tails over a disc of `face` with a
/// darker rim and a glint, `size` pixels tall (and about 0.8 of that wide) with its top-left at
/// `(x, y)`.
pub fn draw_medal(x: f32, y: f32, size: f32, face: Color) {
    let cx = x + size * 0.4;
    let r = size * 0.3;
    let cy = y + size - r - 1.0;
    let ribbon = Color::new(0.75, 0.2, 0.22, 1.0);
    let ribbon_dark = Color::new(0.5, 0.12, 0.16, 1.0);
    let top = y + 1.0;
    let neck = cy - r * 0.6;
    draw_triangle(
        vec2(cx - r * 0.9, top),
        vec2(cx - r * 0.1, top),
        vec2(cx + r * 0.1, neck),
        ribbon,
    );
    draw_triangle(
        vec2(cx + r * 0.9, top),
        vec2(cx + r * 0.1, top),
        vec2(cx - r * 0.1, neck),
        ribbon_dark,
    );
    let rim = Color::new(face.r * 0.55, face.g * 0.55, face.b * 0.55, 1.0);
    draw_circle(cx, cy, r + 1.5, ink::OPAQUE);
    draw_circle(cx, cy, r, rim);
    draw_circle(cx, cy, r * 0.78, face);
    let glint = Color::new(1.0, 1.0, 1.0, 0.55);
    draw_circle(cx - r * 0.3, cy - r * 0.3, r * 0.18, glint);
}

/// The width [`draw_medal`] takes at `size`, with the space after it.
pub fn medal_width(size: f32) -> f32 {
    size * 0.8 + size * 0.25
}
