// The web build's figures for BENCHMARKS.md: the .wasm's size, and the CPU time of a frame's
// render on cratetopia (2,000 crates) in headless Chromium (WebGL through SwiftShader) beside
// the native window under Xvfb (Mesa's software OpenGL), both scripted runs of the same
// frames, idle input.
//
//   node web/figures.mjs [FRAMES]     (after tools/web-build.sh and cargo build --release)

import { createServer } from "node:http";
import { execFileSync } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, extname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(repo, "web", "dist");
const frames = Number(process.argv[2] || 600);
const bin = process.env.CRATE_ROOM_BIN || join(repo, "target", "release", "crate-room");
const DEADLINE_MS = 300_000;

const deadline = setTimeout(() => {
  console.error(`figures: no result within ${DEADLINE_MS / 1000} s`);
  process.exit(1);
}, DEADLINE_MS);

const wasm = readFileSync(join(dist, "crate-room.wasm"));
console.log(`crate-room.wasm: ${wasm.length} bytes, ${gzipSync(wasm, { level: 9 }).length} gzipped`);

const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer((req, res) => {
  const path = new URL(req.url, "http://127.0.0.1").pathname;
  try {
    const body = readFileSync(join(dist, path === "/" ? "index.html" : path));
    res.writeHead(200, { "content-type": types[extname(path) || ".html"] || "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const browser = await chromium.launch({
  executablePath: process.env.CRATE_ROOM_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-quic",
    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
const reported = new Promise((ok) => page.on("console", (m) => {
  if (m.text().startsWith("crate-room: report ")) ok(JSON.parse(m.text().slice(19)));
}));
await page.goto(`http://127.0.0.1:${server.address().port}/?level=cratetopia&input=idle&frames=${frames}`);
const web = await reported;
await browser.close();
server.close();

const dir = mkdtempSync(join(tmpdir(), "crate-room-figures-"));
const native = JSON.parse(execFileSync("xvfb-run", ["-a", "-s", "-screen 0 1280x720x24", bin,
  "--level", join(repo, "levels", "cratetopia.ron"), "--input", "idle", "--vsync", "off", "--mute",
  "--width", "1280", "--height", "720", "--frames", String(frames), "--screenshot", join(dir, "shot.png")],
{ encoding: "utf8", timeout: DEADLINE_MS }).trim().split("\n").pop());
rmSync(dir, { recursive: true, force: true });

console.log(`frames: ${frames}, cratetopia, idle; load: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
console.log("| where | frame median us | update median us | render median us | render p99 us | world quads |");
console.log("|---|---|---|---|---|---|");
for (const [where, r] of [["Chromium, SwiftShader WebGL", web], ["native window, Xvfb + Mesa", native]]) {
  console.log(`| ${where} | ${r.frame_us_median.toFixed(0)} | ${r.update_us_median.toFixed(1)} | ${r.render_us_median.toFixed(0)} | ${r.render_us_p99.toFixed(0)} | ${r.world_quads} |`);
}
console.log(`render median, browser / native: ${(web.render_us_median / native.render_us_median).toFixed(2)}`);
clearTimeout(deadline);
