//! TEMPORARY stand-in for the level module (replaced by the level branch).
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    pub x: u32,
    pub y: u32,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tile {
    Void,
    Floor,
    Wall,
}
#[derive(Debug, Clone, PartialEq)]
pub struct CrateSpawn {
    pub at: Cell,
    pub health: u32,
    pub coin: bool,
    pub skin: String,
}
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    pub name: String,
    pub width: u32,
    pub height: u32,
    pub tiles: Vec<Tile>,
    pub player_start: Cell,
    pub crates: Vec<CrateSpawn>,
    pub coins: Vec<Cell>,
}
impl Level {
    pub fn tile(&self, x: u32, y: u32) -> Tile {
        if x < self.width && y < self.height {
            self.tiles[(y * self.width + x) as usize]
        } else {
            Tile::Void
        }
    }
}
#[derive(Debug, thiserror::Error)]
#[error("{path}:{line}:{col}: error: {message}")]
pub struct LevelError {
    pub path: PathBuf,
    pub line: usize,
    pub col: usize,
    pub message: String,
    pub hint: Option<String>,
    pub source_line: Option<String>,
}
#[derive(serde::Deserialize)]
struct Raw {
    name: String,
    map: Vec<String>,
}
pub fn parse(path: &Path, text: &str, _skins: &dyn Fn(&str) -> bool) -> Result<Level, LevelError> {
    let err = |m: String| LevelError {
        path: path.into(),
        line: 1,
        col: 1,
        message: m,
        hint: None,
        source_line: None,
    };
    let raw: Raw = ron::from_str(text).map_err(|e| err(e.to_string()))?;
    let height = raw.map.len() as u32;
    let width = raw.map.iter().map(|r| r.len()).max().unwrap_or(0) as u32;
    let mut tiles = Vec::new();
    let mut crates = Vec::new();
    let mut coins = Vec::new();
    let mut start = None;
    for (y, row) in raw.map.iter().enumerate() {
        for x in 0..width as usize {
            let c = row.as_bytes().get(x).copied().unwrap_or(b' ');
            let at = Cell {
                x: x as u32,
                y: y as u32,
            };
            tiles.push(match c {
                b'#' => Tile::Wall,
                b' ' => Tile::Void,
                _ => Tile::Floor,
            });
            match c {
                b'c' => crates.push(CrateSpawn {
                    at,
                    health: 3,
                    coin: false,
                    skin: "crate".into(),
                }),
                b'C' => crates.push(CrateSpawn {
                    at,
                    health: 6,
                    coin: false,
                    skin: "crate_strong".into(),
                }),
                b'$' => crates.push(CrateSpawn {
                    at,
                    health: 3,
                    coin: true,
                    skin: "crate".into(),
                }),
                b'o' => coins.push(at),
                b'@' => start = Some(at),
                _ => {}
            }
        }
    }
    Ok(Level {
        name: raw.name,
        width,
        height,
        tiles,
        player_start: start.ok_or_else(|| err("no start".into()))?,
        crates,
        coins,
    })
}
pub fn load(path: &Path, skins: &dyn Fn(&str) -> bool) -> Result<Level, LevelError> {
    let text = std::fs::read_to_string(path).map_err(|e| LevelError {
        path: path.into(),
        line: 0,
        col: 0,
        message: e.to_string(),
        hint: None,
        source_line: None,
    })?;
    parse(path, &text, skins)
}
pub fn generate(crates: usize, seed: u64) -> String {
    let side = ((crates as f64 * 2.0).sqrt() as usize + 4).max(8);
    let mut rows = vec![];
    let mut n = 0;
    let mut s = seed;
    for y in 0..side {
        let mut r = String::new();
        for x in 0..side {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let c = if x == 0 || y == 0 || x == side - 1 || y == side - 1 {
                '#'
            } else if x == 1 && y == 1 {
                '@'
            } else if n < crates && (x + y) % 2 == 0 && x > 2 {
                n += 1;
                if s >> 60 == 0 { '$' } else { 'c' }
            } else {
                '.'
            };
            r.push(c);
        }
        rows.push(format!("        \"{r}\","));
    }
    format!(
        "(\n    name: \"gen\",\n    map: [\n{}\n    ],\n)\n",
        rows.join("\n")
    )
}
pub fn check(
    _paths: &[PathBuf],
    _skins: &dyn Fn(&str) -> bool,
    _out: &mut dyn std::io::Write,
) -> i32 {
    0
}
