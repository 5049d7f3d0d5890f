#!/usr/bin/env python3
"""Fit and plot the keg burst benchmark (benches/keg_burst.rs).

Reads docs/burst.csv and, over every step but the first 60 (which see the world as new), fits
the update time with change tracking on by least squares:

- against the entities changed in the step alone: the slope in ns per changed entity and R^2;
- against changed, spawned and despawned entities: what a new or removed entity costs on top.

Prints those and the idle figures before and after the wave, and draws docs/burst.png.

    cargo bench -p benches --bench keg_burst && python3 benches/plot_burst.py

Needs matplotlib (`pip install matplotlib`, which brings numpy).
"""

import csv
import sys
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

WARMUP = 60  # the first steps see every entity as new

root = Path(__file__).resolve().parents[1]
src = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "docs" / "burst.csv"
out = Path(sys.argv[2]) if len(sys.argv) > 2 else root / "docs" / "burst.png"

rows = list(csv.DictReader(src.open()))
col = {k: np.array([float(r[k]) for r in rows]) for k in rows[0] if k != "phase"}
phase = np.array([r["phase"] for r in rows])
step, changed, on, off = col["step"], col["changed"], col["update_us"], col["update_us_off"]
used = step >= WARMUP


def fit(y, *xs):
    """Least squares y = c0 + c1 x1 + ...; returns the coefficients and R^2."""
    x = np.column_stack([np.ones(len(y))] + list(xs))
    c, *_ = np.linalg.lstsq(x, y, rcond=None)
    res = y - x @ c
    return c, 1 - (res @ res) / ((y - y.mean()) @ (y - y.mean()))


(a, b), r2 = fit(on[used], changed[used])
(a3, b3, s3, d3), r2_3 = fit(on[used], changed[used], col["spawned"][used], col["despawned"][used])
idle_before = np.median(on[used & (phase == "idle_before")])
idle_after = np.median(on[used & (phase == "idle_after")])
off_before = np.median(off[used & (phase == "idle_before")])
off_after = np.median(off[used & (phase == "idle_after")])
peak = int(np.argmax(np.where(phase == "wave", changed, -1)))
wave = int((phase == "wave").sum())

print(f"steps: {len(rows)} ({wave} in the wave); fits over steps {WARMUP}..{len(rows) - 1}")
print(f"changed alone: update_us = {a:.1f} + {b * 1000:.1f} ns x changed; R^2 = {r2:.3f}")
print(
    f"with churn: update_us = {a3:.1f} + {b3 * 1000:.1f} ns x changed + {s3 * 1000:.0f} ns x "
    f"spawned + {d3 * 1000:.0f} ns x despawned; R^2 = {r2_3:.3f}"
)
print(
    f"idle, tracking on: {idle_before:.2f} us before ({col['entities'][WARMUP]:.0f} entities), "
    f"{idle_after:.2f} us after ({col['entities'][-1]:.0f} entities)"
)
print(f"idle, tracking off: {off_before:.0f} us before, {off_after:.0f} us after")
print(
    f"peak: step {peak}, {changed[peak]:.0f} changed of {col['entities'][peak]:.0f} entities: "
    f"{on[peak]:.0f} us on, {off[peak]:.0f} us off"
)

fig, (top, mid, bottom) = plt.subplots(3, 1, figsize=(9, 12))
top.plot(step, on, lw=1, label="update, tracking on (us)")
top.plot(step, off, lw=1, alpha=0.6, label="update, tracking off (us)")
top.set_yscale("log")
top.set_xlabel("step")
top.set_ylabel("update time (us, log)")
right = top.twinx()
right.plot(step, changed, lw=1, color="tab:green", label="changed entities")
right.set_ylabel("entities changed in the step")
lines = top.get_lines() + right.get_lines()
top.legend(lines, [line.get_label() for line in lines], loc="upper right", fontsize=8)
top.set_title("10,000 kegs lit from the centre: per step")

churn = (col["spawned"] + col["despawned"]) > 0
for mask, label, colour in [
    (used & ~churn, "steps without spawns or despawns", "tab:blue"),
    (used & churn, "steps with spawns or despawns", "tab:orange"),
]:
    mid.scatter(changed[mask], on[mask], s=4, color=colour, label=label)
xs = np.array([0, changed[used].max()])
mid.plot(xs, a + b * xs, color="tab:red", label=f"fit: {b * 1000:.0f} ns x changed (R² = {r2:.3f})")
mid.set_xlabel("entities changed in the step")
mid.set_ylabel("update time, tracking on (us)")
mid.legend(fontsize=8)

predicted = a3 + b3 * changed + s3 * col["spawned"] + d3 * col["despawned"]
bottom.scatter(predicted[used], on[used], s=4)
lim = [0, max(predicted[used].max(), on[used].max())]
bottom.plot(lim, lim, color="tab:red", lw=1, label="measured = predicted")
bottom.set_xlabel(
    f"predicted: {b3 * 1000:.0f} ns x changed + {s3 * 1000:.0f} ns x spawned "
    f"+ {d3 * 1000:.0f} ns x despawned (us)"
)
bottom.set_ylabel("measured, tracking on (us)")
bottom.set_title(f"with spawns and despawns: R² = {r2_3:.3f}", fontsize=10)
bottom.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out, dpi=90)
print(f"wrote {out}")
