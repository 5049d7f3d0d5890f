//! A virtual display for the window tests: an Xvfb of its own per test, on a display number
//! this process hands out once (from a base taken from the process id, so two test processes
//! rarely try the same numbers; when one is taken anyway, Xvfb refuses it and the next is
//! tried). Neither `xvfb-run -a` nor `Xvfb -displayfd` is used to pick the number: both let
//! two servers starting at once settle on the same one, and then a game finds no display, or
//! the other's. Xvfb still writes the number to standard output (`-displayfd 1`) once it
//! accepts connections, which is what the start waits for. `-noreset` keeps the server up
//! when its last client leaves (an `xdotool` call before the game connects, say): a server
//! that resets then refuses a window opened meanwhile. No X authority is set up: Xvfb accepts
//! local clients when started without one.

use std::ops::{Deref, DerefMut};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use super::process::{Running, WINDOW_LIMIT};

/// The environment a game on an [`Xvfb`] gets on top of `DISPLAY`: Mesa's software OpenGL
/// (llvmpipe) rasterises on the game's own thread. By default it starts a rasterising thread
/// per core in every game; the window tests run two games at once on two cores, and those
/// threads' hand-offs cost a tenth of the window tests' CPU time. The pictures are the same.
pub const GAME_ENV: [(&str, &str); 1] = [("LP_NUM_THREADS", "0")];

/// A running Xvfb; it ends when dropped.
#[derive(Debug)]
pub struct Xvfb {
    /// The `DISPLAY` value that reaches it, `:N`.
    pub display: String,
    _server: Running,
}

impl Xvfb {
    /// Start an Xvfb with one screen of `width` x `height` pixels.
    ///
    /// # Panics
    /// If no display number is free after a few tries.
    pub fn start(width: u32, height: u32) -> Xvfb {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let base = 100 + (std::process::id() % 500) * 64;
        for _ in 0..16 {
            let number = base + NEXT.fetch_add(1, Ordering::Relaxed) % 64;
            let mut server = Running::start(
                Command::new("Xvfb")
                    .arg(format!(":{number}"))
                    .args([
                        "-displayfd",
                        "1",
                        "-noreset",
                        "-nolisten",
                        "tcp",
                        "-screen",
                        "0",
                    ])
                    .arg(format!("{width}x{height}x24"))
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped()),
                WINDOW_LIMIT,
            );
            // The number once it serves; nothing (end of output) if the number was taken.
            if server.read_line() == number.to_string() {
                return Xvfb {
                    display: format!(":{number}"),
                    _server: server,
                };
            }
        }
        panic!("no free X display number for Xvfb in 16 tries from :{base}");
    }
}

/// A command to run in a window, with the display it runs on (kept alive as long as this is).
#[derive(Debug)]
pub struct Windowed {
    cmd: Command,
    /// The virtual display, when the test made one.
    pub xvfb: Option<Xvfb>,
}

impl Windowed {
    /// `program` on a fresh virtual display of `width` x `height`.
    pub fn on_xvfb(program: &str, width: u32, height: u32) -> Windowed {
        let xvfb = Xvfb::start(width, height);
        let mut cmd = Command::new(program);
        cmd.env("DISPLAY", &xvfb.display)
            .envs(GAME_ENV)
            .env_remove("XAUTHORITY")
            .env_remove("WAYLAND_DISPLAY");
        Windowed {
            cmd,
            xvfb: Some(xvfb),
        }
    }

    /// `program` on the display this process has.
    pub fn on_own_display(program: &str) -> Windowed {
        Windowed {
            cmd: Command::new(program),
            xvfb: None,
        }
    }
}

impl Deref for Windowed {
    type Target = Command;

    fn deref(&self) -> &Command {
        &self.cmd
    }
}

impl DerefMut for Windowed {
    fn deref_mut(&mut self) -> &mut Command {
        &mut self.cmd
    }
}
