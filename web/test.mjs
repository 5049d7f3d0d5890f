// The browser test of the web build: serves web/dist/ on 127.0.0.1, drives Debian's chromium
// (headless, WebGL through SwiftShader) with playwright-core, and checks what a player sees.
//
//   node web/test.mjs        (after `bash tools/web-build.sh` and `cargo build --release`)
//
// Every wait has a deadline; the whole test has one too, after which it kills the browser and
// fails. Nothing sleeps a fixed time: each step waits for a console line or polls the screen
// until what it expects is there.
//
// CRATE_ROOM_CHROMIUM names the browser (default /usr/bin/chromium), CRATE_ROOM_BIN the native
// binary the state hash is compared with (default target/release/crate-room), and
// CRATE_ROOM_WEB_SHOTS a folder to keep the screenshots in.

import { createServer } from "node:http";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, extname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inflateSync, gzipSync } from "node:zlib";
import { chromium } from "playwright-core";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(repo, "web", "dist");
const browserPath = process.env.CRATE_ROOM_CHROMIUM || "/usr/bin/chromium";
const nativeBin = process.env.CRATE_ROOM_BIN || join(repo, "target", "release", "crate-room");
const shots = process.env.CRATE_ROOM_WEB_SHOTS || null;

const TEST_DEADLINE_MS = 480_000;
const STEP_DEADLINE_MS = 150_000;
const TILE = 16;
const VIEWPORT = { width: 1280, height: 720 };

// The art's key colours, read from the generator's own table.
const colours = (() => {
  const text = readFileSync(join(repo, "game", "src", "art", "colors.rs"), "utf8");
  const table = {};
  for (const m of text.matchAll(/pub const (\w+): Rgb = \[(\d+), (\d+), (\d+)\];/g)) {
    table[m[1]] = [Number(m[2]), Number(m[3]), Number(m[4])];
  }
  return table;
})();
const WALL = ["WALL_BASE", "WALL_LIGHT", "WALL_DARK", "WALL_TOP", "MORTAR"].map((n) => colours[n]);
const BODY = ["PLAYER_BASE", "PLAYER_LIGHT", "PLAYER_DARK"].map((n) => colours[n]);
for (const c of [...WALL, ...BODY]) {
  if (!c) throw new Error("game/src/art/colors.rs no longer names the colours this test reads");
}

let failures = 0;
function check(ok, message) {
  console.log(`${ok ? "ok" : "FAIL"}: ${message}`);
  if (!ok) failures += 1;
}

// --- a static file server on 127.0.0.1 only ---------------------------------------------------
const types = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
};
function serve() {
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://127.0.0.1").pathname;
    const file = join(dist, path === "/" ? "index.html" : path);
    if (!file.startsWith(dist)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(file);
      // Cross-origin isolated, as a host should serve the game: without these two headers a
      // browser rounds the page's clock to 0.1 ms, and the profiler's system times read 0.
      res.writeHead(200, {
        "content-type": types[extname(file)] || "application/octet-stream",
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-embedder-policy": "require-corp",
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

// --- PNG decoding (8-bit RGB/RGBA, not interlaced: what Chromium's screenshots are) ------------
function decodePng(buf) {
  let pos = 8;
  let width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("latin1", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error("unexpected PNG format");
      channels = { 2: 3, 6: 4 }[data[9]];
      if (!channels) throw new Error(`unexpected PNG colour type ${data[9]}`);
    } else if (type === "IDAT") {
      idat.push(data);
    }
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(width * height * 3);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels] : 0;
      const b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      let p;
      switch (filter) {
        case 0: p = 0; break;
        case 1: p = a; break;
        case 2: p = b; break;
        case 3: p = (a + b) >> 1; break;
        case 4: {
          const q = a + b - c;
          const pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
          p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error(`bad PNG filter ${filter}`);
      }
      line[i] = (line[i] + p) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < 3; k++) out[(y * width + x) * 3 + k] = line[x * channels + k];
    }
    prev = line;
  }
  return { width, height, pixels: out };
}

class Shot {
  constructor(png, report) {
    Object.assign(this, decodePng(png));
    this.report = report;
  }
  pixel(x, y) {
    const i = (y * this.width + x) * 3;
    return [this.pixels[i], this.pixels[i + 1], this.pixels[i + 2]];
  }
  // The screen rectangle of level cell (column, row), from a report's view and scale.
  cellRect(column, row) {
    const [minX, minY] = this.report.view;
    const scale = this.report.scale;
    const x0 = Math.round((column * TILE - minX) * scale);
    const y0 = Math.round((row * TILE - minY) * scale);
    const side = Math.round(TILE * scale);
    return [x0, y0, x0 + side, y0 + side];
  }
  // The share of the cell's pixels in `palette`.
  cellShare(column, row, palette) {
    const [x0, y0, x1, y1] = this.cellRect(column, row);
    let hits = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const p = this.pixel(x, y);
        if (palette.some((c) => c[0] === p[0] && c[1] === p[1] && c[2] === p[2])) hits++;
      }
    }
    return hits / ((x1 - x0) * (y1 - y0));
  }
  // The rightmost column of the rectangle with a pixel in `palette` (-1: none).
  rightmost(palette, [x0, y0, x1, y1]) {
    for (let x = x1 - 1; x >= x0; x--) {
      for (let y = y0; y < y1; y++) {
        const p = this.pixel(x, y);
        if (palette.some((c) => c[0] === p[0] && c[1] === p[1] && c[2] === p[2])) return x;
      }
    }
    return -1;
  }
  // How many pixels of the rectangle differ from `other`'s.
  differing(other, [x0, y0, x1, y1]) {
    let n = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const a = this.pixel(x, y), b = other.pixel(x, y);
        if (a[0] !== b[0] || a[1] !== b[1] || a[2] !== b[2]) n++;
      }
    }
    return n;
  }
}

// --- the browser ---------------------------------------------------------------------------------
async function withDeadline(promise, ms, what) {
  let timer;
  const deadline = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

// A page that collects the game's console lines; `waitLine` waits for one that starts so. A
// panic in the game (its `crate-room: panic: ...` line) or an uncaught error ends a wait at once:
// the game has stopped.
async function openPage(context, url) {
  const page = await context.newPage();
  const lines = [];
  const waiters = [];
  let stop;
  const stopped = new Promise((_, fail) => { stop = fail; });
  stopped.catch(() => {});
  page.on("console", (msg) => {
    const text = msg.text();
    if (msg.type() === "error") lines.push(`console error: ${text}`);
    if (text.startsWith("crate-room: panic")) {
      page.stopped = `the game panicked: ${text}`;
      stop(new Error(page.stopped));
    }
    if (!text.startsWith("crate-room:")) return;
    lines.push(text);
    for (const w of waiters) if (text.startsWith(w.prefix) && !w.done) { w.done = true; w.ok(text); }
  });
  page.on("pageerror", (e) => {
    lines.push(`pageerror: ${e.message}`);
    page.stopped = page.stopped || `the page stopped: ${e.message}`;
    stop(new Error(page.stopped));
  });
  page.waitLine = async (prefix) => {
    const seen = lines.find((l) => l.startsWith(prefix));
    if (seen) return seen;
    try {
      return await withDeadline(
        Promise.race([new Promise((ok) => waiters.push({ prefix, ok, done: false })), stopped]),
        STEP_DEADLINE_MS,
        `waiting for "${prefix}" on ${url}`,
      );
    } catch (e) {
      throw new Error(`${e.message}${await whyNot(page)}`);
    }
  };
  page.lines = lines;
  await page.goto(url);
  return page;
}

// Keep a screenshot in CRATE_ROOM_WEB_SHOTS; returns where, or null.
function keep(name, png) {
  if (!shots) return null;
  mkdirSync(shots, { recursive: true });
  writeFileSync(join(shots, name), png);
  return join(shots, name);
}

// What a failed wait says: the screenshot kept of the page as it was, and the page's errors
// and last console lines (a panic in the game is a `crate-room: panic: ...` error line).
async function whyNot(page) {
  let shot;
  try {
    shot = keep("not-seen.png", await withDeadline(page.screenshot(), 30_000, "a screenshot"));
  } catch (e) {
    shot = `none (${e.message})`;
  }
  const lines = page.lines || [];
  const errors = lines.filter((l) => !l.startsWith("crate-room:"));
  return `\n  screenshot: ${shot || "not kept (set CRATE_ROOM_WEB_SHOTS to keep it)"}` +
    `\n  the page's errors: ${JSON.stringify(errors.slice(-8))}` +
    `\n  its last console lines: ${JSON.stringify(lines.slice(-5))}`;
}

async function report(page) {
  const line = await page.waitLine("crate-room: report ");
  return JSON.parse(line.slice("crate-room: report ".length));
}

// Take screenshots until `ok(shot)` holds, or fail at the deadline.
async function screenUntil(page, report, ok, what) {
  const until = Date.now() + STEP_DEADLINE_MS;
  for (;;) {
    const shot = new Shot(await page.screenshot(), report);
    if (ok(shot)) return shot;
    if (page.stopped) throw new Error(`${what}: not seen: ${page.stopped}${await whyNot(page)}`);
    if (Date.now() > until) {
      throw new Error(`${what}: not seen within ${STEP_DEADLINE_MS / 1000} s${await whyNot(page)}`);
    }
  }
}

// Run in each page before its scripts: counts the sounds the page starts through WebAudio
// (macroquad's audio plugin plays each with an AudioBufferSourceNode), and how many of them
// started on a context that was running, not suspended by the browser's autoplay rule. Its
// own unlock plays a buffer of one sample on a context of its own; the game's are longer.
// It also counts the sound files the page has decoded: the game starts loading its five
// sounds some time after its start and plays nothing before they are decoded.
function countSounds() {
  const sounds = { started: 0, running: 0, decoded: 0 };
  window.crateRoomSounds = sounds;
  const decode = BaseAudioContext.prototype.decodeAudioData;
  BaseAudioContext.prototype.decodeAudioData = function (data, ok, ...rest) {
    const counted = (buffer) => {
      sounds.decoded += 1;
      if (ok) ok(buffer);
    };
    return decode.call(this, data, counted, ...rest);
  };
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args) {
    if (this.buffer && this.buffer.length > 1) {
      sounds.started += 1;
      if (this.context.state === "running") sounds.running += 1;
    }
    return start.apply(this, args);
  };
}

// Wait until `ok()` (async) holds, trying again and again, or fail at the deadline.
async function waitUntil(page, ok, what) {
  const until = Date.now() + STEP_DEADLINE_MS;
  for (;;) {
    if (await ok()) return;
    if (page.stopped) throw new Error(`${what}: not seen: ${page.stopped}${await whyNot(page)}`);
    if (Date.now() > until) {
      throw new Error(`${what}: not seen within ${STEP_DEADLINE_MS / 1000} s${await whyNot(page)}`);
    }
  }
}

// Wait until the page has drawn `n` more frames (the game's frame runs in each).
function frames(page, n) {
  return withDeadline(page.evaluate((count) => new Promise((ok) => {
    const step = (k) => (k === 0 ? ok() : requestAnimationFrame(() => step(k - 1)));
    step(count);
  }), n), STEP_DEADLINE_MS, `waiting for ${n} frames`);
}

// `modifier` + `key`, each held over whole frames so that the game sees both down together.
async function chord(page, modifier, key) {
  await page.keyboard.down(modifier);
  await frames(page, 2);
  await page.keyboard.down(key);
  await frames(page, 2);
  await page.keyboard.up(key);
  await page.keyboard.up(modifier);
  await frames(page, 2);
}

// A level file's map rows (the strings of its `map: [...]`).
function mapRows(text) {
  const map = text.match(/map:\s*\[([^\]]*)\]/);
  if (!map) throw new Error("no map in the level file");
  return [...map[1].matchAll(/"([^"]*)"/g)].map((m) => m[1]);
}

async function main() {
  statSync(join(dist, "crate-room.wasm"));
  const wasm = readFileSync(join(dist, "crate-room.wasm"));
  const gz = gzipSync(wasm, { level: 9 }).length;
  console.log(`crate-room.wasm: ${wasm.length} bytes, ${gz} gzipped`);
  check(wasm.length <= 8 * 1024 * 1024, "the .wasm is at most 8 MB");
  check(gz <= 3 * 1024 * 1024, "the .wasm is at most 3 MB gzipped");

  const server = await serve();
  const base = `http://127.0.0.1:${server.address().port}/`;
  // playwright starts the browser on a fresh profile of its own (a new temporary folder).
  const browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    await context.addInitScript(countSounds);

    // 1. The first frame, and the level the right way up. A scripted run reports where the
    // level is on screen (its view and scale); a running game at the same size shows it there.
    const scripted = await openPage(context, `${base}?level=vault&input=idle&frames=3`);
    const stillReport = await report(scripted);
    await scripted.close();
    check(stillReport.level === "The Vault" && stillReport.showing === "playing",
      `the page plays the vault (${stillReport.level}, ${stillReport.showing})`);
    const still = await openPage(context, `${base}?level=vault&input=idle`);
    await still.waitLine("crate-room: ready");
    const firstFrameMs = await still.evaluate(
      () => window.crateRoomFirstFrame - performance.getEntriesByType("navigation")[0].startTime);
    // A figure for BENCHMARKS.md, not a check: a loaded machine may be slower.
    console.log(`first frame: ${Math.round(firstFrameMs)} ms after navigation`);
    const shot = await screenUntil(still, stillReport,
      (s) => s.cellShare(0, 2, WALL) > 0.6, "the vault's walls on screen");
    keep("vault.png", await still.screenshot());
    check(await still.evaluate(() => document.getElementById("loading") === null),
      "the loading line is gone");
    check(shot.cellShare(0, 2, WALL) > 0.6, "cell (0, 2) is wall on screen");
    check(shot.cellShare(0, 6, WALL) < 0.05, "cell (0, 6) is no wall (the map is the right way up)");
    check(shot.cellShare(3, 0, WALL) > 0.6, "cell (3, 0) is wall on screen");
    check(shot.cellShare(0, 0, WALL) < 0.05, "cell (0, 0) is no wall");
    check(shot.cellShare(1, 3, BODY) > 0.05, "the player stands in cell (1, 3)");
    check(shot.cellShare(17, 3, BODY) < 0.01, "and not in cell (17, 3) (not mirrored)");
    await still.close();

    // 2. Keys: walk right to the first crate, swing, F2.
    const play = await openPage(context, `${base}?level=vault`);
    await play.waitLine("crate-room: ready");
    await play.locator("#glcanvas").focus();
    const before = new Shot(await play.screenshot(), stillReport);
    await play.keyboard.down("ArrowRight");
    const arrived = await screenUntil(play, stillReport,
      (s) => s.cellShare(4, 3, BODY) > 0.05, "the player walking right to cell (4, 3)");
    check(arrived.cellShare(1, 3, BODY) < 0.01, "the player walked away from cell (1, 3)");
    // The key stays down until the crate stops the player: the right edge of the body (above
    // the legs, whose steps move it) stays put over three of the game's frames. A player let go
    // short of the crate may swing at the air in front of it.
    const [laneX0, laneY0] = before.cellRect(1, 3);
    const [, , laneX1, laneY1] = before.cellRect(5, 3);
    const torso = [laneX0, laneY0, laneX1, laneY0 + Math.round((laneY1 - laneY0) * 0.6)];
    let edge = arrived.rightmost(BODY, torso);
    await waitUntil(play, async () => {
      await frames(play, 3);
      const now = new Shot(await play.screenshot(), stillReport).rightmost(BODY, torso);
      const stopped = now >= 0 && Math.abs(now - edge) <= 1;
      edge = now;
      return stopped;
    }, "the crate in cell (5, 3) stopping the player");
    await play.keyboard.up("ArrowRight");
    // The crate as the test reads it: its cell but for the quarter next to the player, which
    // the player's sprite overlaps and its idle bob redraws twice a second.
    const [cx0, cy0, cx1, cy1] = before.cellRect(5, 3);
    const crate = [cx0 + Math.round((cx1 - cx0) / 4), cy0, cx1, cy1];
    const cellPixels = (crate[2] - crate[0]) * (crate[3] - crate[1]);
    // The crate once nothing moves on it (two screenshots alike).
    const still_ = (reference) => {
      let previous = null;
      return (s) => {
        const settled = previous && s.differing(previous, crate) < 0.02 * cellPixels;
        previous = s;
        return settled && reference(s);
      };
    };
    const standing = await screenUntil(play, stillReport, still_(() => true),
      "the player standing still beside the crate");
    // Sound: the first key unlocked the page's audio; the swing plays through WebAudio once
    // the game's five sounds are decoded (Sfx::ALL).
    await withDeadline(play.waitForFunction(() => window.crateRoomSounds.decoded >= 5, null,
      { timeout: 0, polling: 100 }), STEP_DEADLINE_MS, "the game's five sounds decoded");
    const soundsBefore = await play.evaluate(() => window.crateRoomSounds.started);
    // Held until the game has seen it (a press and release within one frame may be missed):
    // until the crate's cell changes.
    await play.keyboard.down("Space");
    await screenUntil(play, stillReport,
      (s) => s.differing(standing, crate) > 0.05 * cellPixels, "the swing reaching cell (5, 3)");
    await play.keyboard.up("Space");
    // A hit cracks the crate: its cell goes on differing from before the swing once the arc
    // and the hit's flash are over.
    await screenUntil(play, stillReport,
      still_((s) => s.differing(standing, crate) > 0.03 * cellPixels),
      "the crate in cell (5, 3) cracked by a swing");
    keep("hit.png", await play.screenshot());
    check(true, "a swing at the crate in cell (5, 3) left it cracked");
    const sounds = await play.evaluate(() => window.crateRoomSounds);
    console.log(`sound: ${sounds.started} sounds started (${soundsBefore} before the swing), ` +
      `${sounds.running} of them on a running AudioContext`);
    check(sounds.started > soundsBefore && sounds.running === sounds.started,
      "the swing and the hit played sounds, on an AudioContext the first key let run");
    const noProfiler = new Shot(await play.screenshot(), stillReport);
    // Held until seen, as the swing is (a press and release within one frame may be missed).
    await play.keyboard.down("F2");
    // The profiler window: a panel of a few hundred pixels square, on one side or the other.
    await screenUntil(play, stillReport,
      (s) => s.differing(noProfiler, [0, 0, s.width, s.height]) > 40_000,
      "the profiler window after F2");
    await play.keyboard.up("F2");
    keep("profiler.png", await play.screenshot());
    check(true, "F2 opened the profiler window");
    await play.close();

    // 3. The same game as the native build: the bot's state hash equals headless `sim`'s (the
    // camera, which the page sizes to itself, is presentation and not in the hash). Hit-stop
    // off: with it, a hit holds steps back, and 600 frames are fewer steps than `sim`'s 600.
    const bot = await openPage(context, `${base}?level=vault&input=bot&frames=600&hit_stop=off`);
    const botReport = await report(bot);
    await bot.close();
    const simArgs = ["sim", "--level", join(repo, "levels", "vault.ron"), "--input", "bot",
      "--frames", "600", "--json"];
    const native = JSON.parse(execFileSync(nativeBin, simArgs,
      { timeout: STEP_DEADLINE_MS, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
    console.log(`state_hash: browser ${botReport.state_hash} after ${botReport.steps} steps (canvas ${botReport.screen.join("x")}), sim ${native.state_hash} after ${native.frames}`);
    console.log(`step: median ${botReport.step_us_median} µs in the browser, ${native.update_us_median} µs in sim`);
    check(botReport.steps === 600, "600 frames ran 600 steps");
    check(botReport.state_hash === native.state_hash,
      "the browser's state_hash equals `crate-room sim --level levels/vault.ron --input bot --frames 600`'s");

    // The page's clock is fine enough to time the systems: with F2's profiler on, the bot's
    // run reports the window's Systems rows, and at least one shows a time above 0 µs (a page
    // that is not cross-origin isolated gets a clock rounded to 0.1 ms, and every row reads 0).
    const timed = await openPage(context,
      `${base}?level=vault&input=bot&frames=200&hit_stop=off&debug=profiler`);
    const timedReport = await report(timed);
    const isolated = await timed.evaluate(() => self.crossOriginIsolated);
    await timed.close();
    const rows = timedReport.profiler_text || [];
    const times = rows.map((r) => Number(r.trim().split(/\s+/).pop())).filter((t) => t > 0);
    console.log(`profiler: ${times.length} of ${rows.length} Systems rows above 0 µs, ` +
      `step median ${timedReport.step_us_median} µs (cross-origin isolated: ${isolated})`);
    check(times.length > 0, "the profiler's Systems rows show a time above 0 µs for some system");

    // 4. A best time kept across a reload.
    const clear = await openPage(context, `${base}?level=first_swing&input=bot&frames=800&hit_stop=off`);
    const clearReport = await report(clear);
    check(clearReport.crates_left === 0, "the bot cleared First Swing");
    await clear.reload();
    await clear.waitLine("crate-room: ready");
    await clear.close();
    const title = await openPage(context, `${base}?frames=3`);
    const titleReport = await report(title);
    const row = (titleReport.title || []).find((r) => r.file === "first_swing.ron");
    check(row && row.best !== null, `after a reload the title lists First Swing's best time (${row && row.best})`);
    keep("title.png", await title.screenshot());
    await title.close();

    // 5. The editor (a fresh profile: its save replaces the vault in the browser's storage): E,
    // a column added on the right (Ctrl+Right), Ctrl+S. The save is offered as a download of
    // the level file with the change, and the browser's storage keeps the same text.
    const editContext = await browser.newContext(
      { viewport: VIEWPORT, deviceScaleFactor: 1, acceptDownloads: true });
    try {
      const edit = await openPage(editContext, `${base}?level=vault`);
      await edit.waitLine("crate-room: ready");
      await edit.locator("#glcanvas").focus();
      const game = new Shot(await edit.screenshot(), stillReport);
      await edit.keyboard.down("e");
      // The editor's palette of brushes down the left side, where the game shows only its
      // backdrop around the vault.
      const palette = [0, 45, 70, 550];
      await screenUntil(edit, stillReport,
        (s) => s.differing(game, palette) > 0.2 * (palette[2] - palette[0]) * (palette[3] - palette[1]),
        "the editor's palette after E");
      await edit.keyboard.up("e");
      await chord(edit, "Control", "ArrowRight");
      const downloaded = edit.waitForEvent("download", { timeout: STEP_DEADLINE_MS });
      await chord(edit, "Control", "s");
      const download = await downloaded;
      check(download.suggestedFilename() === "vault.ron",
        `Ctrl+S offered a download named vault.ron (${download.suggestedFilename()})`);
      const dir = mkdtempSync(join(tmpdir(), "crate-room-web-test-"));
      try {
        const file = join(dir, download.suggestedFilename());
        await download.saveAs(file);
        const text = readFileSync(file, "utf8");
        let valid = true;
        try {
          execFileSync(nativeBin, ["check", file],
            { timeout: STEP_DEADLINE_MS, stdio: ["ignore", "ignore", "inherit"] });
        } catch {
          valid = false;
        }
        check(valid, "the downloaded file is a valid level (crate-room check)");
        const original = mapRows(readFileSync(join(repo, "levels", "vault.ron"), "utf8"));
        const saved = mapRows(text);
        check(saved.length === original.length && saved.every((r) => r.length === original[0].length + 1),
          `the download has the column added: ${original.length} rows of ${original[0].length + 1} cells ` +
          `(got ${saved.length} rows of ${saved.map((r) => r.length).join("/")})`);
        const kept = await edit.evaluate(() =>
          Object.keys(localStorage).filter((k) => k.endsWith("/levels/vault.ron"))
            .map((k) => localStorage.getItem(k)));
        check(kept.length === 1 && kept[0] === text,
          "the browser's storage keeps the saved level, the same text as the download");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      await edit.close();
    } finally {
      await editContext.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
}

const overall = setTimeout(() => {
  console.error(`FAIL: the browser test did not finish within ${TEST_DEADLINE_MS / 1000} s`);
  process.exit(1);
}, TEST_DEADLINE_MS);
main()
  .then(() => {
    clearTimeout(overall);
    if (failures > 0) {
      console.error(`${failures} check(s) failed`);
      process.exit(1);
    }
    console.log("web test: all checks passed");
  })
  .catch((e) => {
    console.error(`FAIL: ${e.stack || e}`);
    process.exit(1);
  });
