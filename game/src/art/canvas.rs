//! RGBA8 pixel buffer with the handful of drawing operations the sprite code needs.

use super::colors::Rgb;

/// RGBA colour.
pub type Rgba = [u8; 4];

/// Fully transparent pixel.
pub const CLEAR: Rgba = [0, 0, 0, 0];

/// Opaque version of a palette colour.
pub const fn opaque(c: Rgb) -> Rgba {
    [c[0], c[1], c[2], 255]
}

/// Palette colour with the given alpha.
pub const fn alpha(c: Rgb, a: u8) -> Rgba {
    [c[0], c[1], c[2], a]
}

/// Row-major RGBA8 image; writes outside the bounds are ignored so sprites can be clipped freely.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<Rgba>,
}

impl Canvas {
    /// Create a transparent canvas.
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            pixels: vec![CLEAR; width * height],
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        (x < self.width && y < self.height).then_some(y * self.width + x)
    }

    /// Pixel at (x, y), transparent outside the canvas.
    pub fn get(&self, x: i32, y: i32) -> Rgba {
        self.index(x, y).map_or(CLEAR, |i| self.pixels[i])
    }

    /// Overwrite one pixel.
    pub fn set(&mut self, x: i32, y: i32, c: Rgba) {
        if let Some(i) = self.index(x, y) {
            self.pixels[i] = c;
        }
    }

    /// Alpha-composite `c` over one pixel ("source over").
    pub fn blend(&mut self, x: i32, y: i32, c: Rgba) {
        let Some(i) = self.index(x, y) else { return };
        let dst = self.pixels[i];
        let (sa, da) = (u32::from(c[3]), u32::from(dst[3]));
        // out_a = sa + da * (1 - sa), all in 0..=255 fixed point.
        let out_a = sa * 255 + da * (255 - sa);
        if out_a == 0 {
            self.pixels[i] = CLEAR;
            return;
        }
        let mut out = [0u8; 4];
        for k in 0..3 {
            let num = u32::from(c[k]) * sa * 255 + u32::from(dst[k]) * da * (255 - sa);
            out[k] = ((num + out_a / 2) / out_a) as u8;
        }
        out[3] = ((out_a + 127) / 255) as u8;
        self.pixels[i] = out;
    }

    /// Fill the rectangle with corners (x0, y0) and (x1, y1), both inclusive.
    pub fn fill(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: Rgba) {
        for y in y0..=y1 {
            for x in x0..=x1 {
                self.set(x, y, c);
            }
        }
    }

    /// Bresenham line, both ends inclusive ([`crate::raster::line`]).
    pub fn line(&mut self, (x0, y0): (i32, i32), (x1, y1): (i32, i32), c: Rgba) {
        let ends = ((x0.into(), y0.into()), (x1.into(), y1.into()));
        for (x, y) in crate::raster::line(ends.0, ends.1) {
            // Every point lies between the two `i32` ends.
            self.set(x as i32, y as i32, c);
        }
    }

    /// Paint rows of characters at (x, y), looking each character up in `key`; characters
    /// missing from `key` (conventionally `.`) are left untouched.
    pub fn stamp(&mut self, x: i32, y: i32, rows: &[&str], key: &[(char, Rgba)]) {
        for (dy, row) in (0..).zip(rows) {
            for (dx, ch) in (0..).zip(row.chars()) {
                if let Some(&(_, c)) = key.iter().find(|(k, _)| *k == ch) {
                    self.set(x + dx, y + dy, c);
                }
            }
        }
    }

    /// Composite `src` over this canvas with its top-left corner at (x, y).
    pub fn draw(&mut self, src: &Canvas, x: i32, y: i32) {
        for sy in 0..src.height as i32 {
            for sx in 0..src.width as i32 {
                let c = src.get(sx, sy);
                if c[3] > 0 {
                    self.blend(x + sx, y + sy, c);
                }
            }
        }
    }

    /// Copy of this canvas with every pixel passed through `f(x, y, colour)`.
    pub fn map(&self, mut f: impl FnMut(i32, i32, Rgba) -> Rgba) -> Canvas {
        let mut out = self.clone();
        for y in 0..self.height as i32 {
            for x in 0..self.width as i32 {
                out.set(x, y, f(x, y, self.get(x, y)));
            }
        }
        out
    }

    /// Mirror image across the vertical axis.
    pub fn flip_x(&self) -> Canvas {
        let w = self.width as i32;
        let mut out = Canvas::new(self.width, self.height);
        for y in 0..self.height as i32 {
            for x in 0..w {
                out.set(w - 1 - x, y, self.get(x, y));
            }
        }
        out
    }

    /// Quarter turn clockwise (square canvases only keep their size).
    pub fn rotate_cw(&self) -> Canvas {
        let h = self.height as i32;
        let mut out = Canvas::new(self.height, self.width);
        for y in 0..h {
            for x in 0..self.width as i32 {
                out.set(h - 1 - y, x, self.get(x, y));
            }
        }
        out
    }

    /// Nearest-neighbour copy of the whole canvas stretched into the `w` x `h` box at (x, y).
    pub fn draw_scaled(&mut self, src: &Canvas, x: i32, y: i32, w: i32, h: i32) {
        for dy in 0..h {
            for dx in 0..w {
                let sx = dx * src.width as i32 / w;
                let sy = dy * src.height as i32 / h;
                let c = src.get(sx, sy);
                if c[3] > 0 {
                    self.blend(x + dx, y + dy, c);
                }
            }
        }
    }

    /// Outline every transparent pixel that touches an opaque one (4-neighbourhood).
    pub fn outline(&mut self, c: Rgba) {
        let src = self.clone();
        for y in 0..self.height as i32 {
            for x in 0..self.width as i32 {
                if src.get(x, y)[3] == 0
                    && [(1, 0), (-1, 0), (0, 1), (0, -1)]
                        .iter()
                        .any(|(dx, dy)| src.get(x + dx, y + dy)[3] >= 128)
                {
                    self.set(x, y, c);
                }
            }
        }
    }

    /// Raw RGBA8 bytes, row-major.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.pixels.iter().flatten().copied().collect()
    }
}

/// Deterministic hash noise in `0..256` for a pixel and a seed (no state, no randomness).
pub fn noise(x: i32, y: i32, seed: u32) -> u32 {
    let mut h = (x as u32).wrapping_mul(0x27d4_eb2d)
        ^ (y as u32).wrapping_mul(0x1656_67b1)
        ^ seed.wrapping_mul(0x9e37_79b9);
    h ^= h >> 15;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h & 0xff
}
