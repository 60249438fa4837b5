"""Input to outputs ready: how long does the box take to answer a press or a tap?

Drives the real ``Box`` (session, SQLite journal in a temporary directory with WAL and
synchronous=FULL, OLED rendering, LED frame, change-filtered adapters with luma's
dummy device) with 1,000 input events from the AutoPlayer, starting new games as
they end. Each event is timed from ``Box.handle`` until the journal has committed
and the OLED image and LED frame are ready. Prints median and p99 per run, the
median over runs, and p99 as a fraction of one SSD1306 frame's transfer time at
400 kHz I2C (about 23 ms; the goal is <= 0.10).

    python bench/latency.py [--inputs 1000] [--runs 5] [--state-dir DIR]

The journal's fsync dominates on most disks: use ``--state-dir`` on the medium the
box really writes to (an SD card on a Pi) for an honest figure.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import machine, median  # noqa: E402

from companion.autoplay import AutoPlayer  # noqa: E402
from companion.session import SessionConfig  # noqa: E402
from companion.sim import build  # noqa: E402

I2C_FRAME_MS = 23.0  # 128x64 mono = 1024 bytes + addressing at 400 kHz


def run(inputs: int, seed: int, state_dir: Path) -> tuple[list[float], int]:
    sim, journal = build(state_dir, None, seed, SessionConfig(), None)
    box = sim.box
    player = AutoPlayer(seed)
    times: list[float] = []
    commits = 0
    try:
        while len(times) < inputs:
            command = player.next_command(box.session)
            if command is None:  # game over: back to the menu, next game
                command = "press ok"
            event = sim.event(command)
            g = box.session.game
            before = len(g.inputs) if g is not None else -1
            start = time.perf_counter()
            box.handle(event)
            times.append(time.perf_counter() - start)
            g = box.session.game
            commits += g is not None and len(g.inputs) != before
            sim.settle()  # let a die animation finish, untimed (its ticks are not inputs)
    finally:
        journal.close()
    return times, commits


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--state-dir", help="where to put the journal (default: a temp dir)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    medians, p99s = [], []
    for r in range(args.runs):
        with tempfile.TemporaryDirectory(dir=args.state_dir) as tmp:
            times, commits = run(args.inputs, 100 + r, Path(tmp))
        ms = [t * 1000 for t in times]
        medians.append(median(ms))
        p99s.append(percentile(ms, 0.99))
        print(f"run {r + 1}: {len(ms)} inputs ({commits} journal commits): "
              f"median {medians[-1]:.3f} ms, p99 {p99s[-1]:.3f} ms, max {max(ms):.3f} ms")
    p99 = median(p99s)
    print(f"median of runs: median {median(medians):.3f} ms, p99 {p99:.3f} ms")
    print(f"p99 / SSD1306 frame at 400 kHz ({I2C_FRAME_MS:.0f} ms): {p99 / I2C_FRAME_MS:.3f} "
          f"(goal <= 0.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
