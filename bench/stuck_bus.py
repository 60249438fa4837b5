"""What a stuck I2C bus costs the game loop, and whether the panel heals after it.

A ``Display`` on luma's SSD1306 driver and i2c interface over the fake I2C bus, on
the real clock. After a healthy first frame the bus gets stuck (a device holding SDA
low: every transfer hangs for the kernel's timeout, 1 s on a Pi, then fails with
``ETIMEDOUT``) for ``--seconds``. A loop like the daemon's offers a new frame every
50 ms (an input) and calls ``retry``, and measures the time spent inside those
calls: in all, and the longest single call. Then the bus comes free and the loop runs
until the panel shows the newest frame. Three times: re-opens on the loop's own thread
(how the box ran first), on a thread of their own (``RETRY_WAIT``), and the whole
display on its worker thread with those re-opens (``DisplayWorker``, how ``companion
run`` has it now: the loop only hands frames over). Exits non-zero only if the panel
does not come back.

    python bench/stuck_bus.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw  # noqa: E402

from bench.common import machine  # noqa: E402
from companion.config import OledConfig  # noqa: E402
from companion.hardware.display import RETRY_WAIT  # noqa: E402
from companion.hardware.display_worker import DisplayWorker  # noqa: E402
from companion.hardware.fake_bus import FakeBuses  # noqa: E402
from companion.hardware.oled import open_display  # noqa: E402

INPUT_EVERY = 0.05
KERNEL_TIMEOUT = 1.0


def picture(n: int) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((4, 20), f"input {n}", fill=1)
    return image


def run(seconds: float, retry_wait: float | None, worker: bool) -> dict:
    buses = FakeBuses()
    panel = buses.i2c_panel()
    wire = buses.i2c[1]
    d: Any = open_display(OledConfig(), buses=buses, retry_wait=retry_wait)
    if worker:
        d = DisplayWorker(d)
    d.show(picture(0))
    if worker:
        d.flush(10)
    wire.stuck, wire.stuck_wait = True, KERNEL_TIMEOUT
    n, blocked, longest, first = 0, 0.0, 0.0, None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        n += 1
        t0 = time.monotonic()
        d.show(picture(n))
        d.retry()
        spent = time.monotonic() - t0
        if first is None:
            first = spent  # the send that meets the stuck bus first
        blocked += spent
        longest = max(longest, spent)
        time.sleep(INPUT_EVERY)
    attempts = wire.failed
    wire.stuck = False
    freed = time.monotonic()
    inner = d.display if worker else d
    while not (inner.failures == 0 and panel.lit
               and panel.image().tobytes() == picture(n).tobytes()):
        if time.monotonic() - freed > 60:
            break
        d.retry()
        time.sleep(INPUT_EVERY)
    healed = time.monotonic() - freed if inner.failures == 0 else None
    d.close()
    return {"inputs": n, "blocked": blocked, "longest": longest, "first": first,
            "attempts": attempts, "healed": healed, "balanced": wire.opens == wire.closes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args(argv)
    print(f"machine: {machine()}; stuck for {args.seconds:g} s, transfers hang "
          f"{KERNEL_TIMEOUT:g} s, an input every {INPUT_EVERY * 1000:.0f} ms")
    ok = True
    for name, wait, worker in (
            ("re-open on the loop's thread", None, False),
            (f"re-open on its own thread (RETRY_WAIT {RETRY_WAIT:g} s)", RETRY_WAIT, False),
            ("the display on its worker thread, re-opens as above", RETRY_WAIT, True)):
        r = run(args.seconds, wait, worker)
        after_first = r["blocked"] - r["first"]
        print(f"{name}: loop blocked {r['blocked']:.2f} s of {args.seconds:g} "
              f"({r['first']:.2f} s at the first failure, {after_first:.2f} s after), "
              f"longest call {r['longest']:.2f} s, {r['inputs']} inputs, "
              f"{r['attempts']} bus attempts; healed {r['healed'] if r['healed'] is None else round(r['healed'], 2)} s after the bus came free; "
              f"bus files balanced: {r['balanced']}")
        ok = ok and r["healed"] is not None and r["balanced"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
