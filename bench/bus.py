"""OLED bus time per input: full frames against only the changed columns of changed pages.

Plays ``--inputs`` AutoPlayer inputs (new games as they end; die animations settled,
their frames counted with the input that started them) through the real ``Box``, with
the journal on tmpfs (``/dev/shm``, as the box's fsync cost is another figure), and
its OLED on luma's real factory, driver and ``i2c`` interface over the fake bus of
``companion.hardware.fake_bus``, which counts every bit a real bus would carry. For
each driver and each way of sending it prints:

- bytes on the bus per input and the simulated bus time at 400 kHz (mean, and as a
  share of one full SSD1306 frame: the goal is <= 0.7 with partial frames);
- input -> last byte on the bus: the input's own processing time plus the bus time
  of what it sent (simulated at ``--hz``), p99 as a share of a full frame (goal <=
  1.0). Processing is the CPU time of the thread that handles the input (user and
  system: the journal's writes included), less the time the fake bus spends emulating
  the panel byte by byte (the controller's work on a box). CPU time, not wall time,
  so that other programs on a shared machine do not count; on the box, with the
  journal on tmpfs, the thread does not wait on anything else.

    python bench/bus.py [--inputs 1000] [--seed 100] [--hz 400000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import machine  # noqa: E402
from harness import command_event, time_emulation  # noqa: E402

from companion.autoplay import AutoPlayer  # noqa: E402
from companion.box import Box  # noqa: E402
from companion.hardware.fake_bus import FakeBuses  # noqa: E402
from companion.hardware.leds import RecordingLeds  # noqa: E402
from companion.hardware.oled import open_display  # noqa: E402
from companion.inputs import Tick  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.registry import sim_registry  # noqa: E402
from companion.session import Session  # noqa: E402

FULL_FRAME_BITS = 2 + 9 * (1 + 1 + 6) + 2 + 9 * (1 + 1 + 1024)  # SSD1306: window + data


def run(driver: str, partial: bool, inputs: int, seed: int, hz: int, state_dir: Path
        ) -> dict[str, float]:
    buses = FakeBuses()
    buses.i2c_panel(driver)
    wire = buses.i2c[1]
    emulating = time_emulation(wire)  # on a box, the bus time stands for it
    cfg = SimpleNamespace(driver=driver, bus="i2c", port=1, address=0x3C, rotate=0,
                          contrast=255, width=128, height=64)
    display = open_display(cfg, buses=buses)
    display.partial = partial
    registry = sim_registry()
    journal = Journal(state_dir / "journal.db")
    box = Box(Session(journal, registry, seed_source=lambda: seed), display, RecordingLeds())
    player = AutoPlayer(seed)
    bits, latency = [], []
    try:
        for _ in range(inputs):
            command = player.next_command(box.session) or "press ok"
            before, emulated = wire.bits, emulating[0]
            start = time.thread_time()
            box.handle(command_event(registry, command))
            spent = time.thread_time() - start - (emulating[0] - emulated)
            sent = wire.bits - before
            latency.append(spent * 1000 + sent * 1000 / hz)
            while box.tick_interval() is not None and box.session.screen().get("screen") == "roll":
                box.handle(Tick())  # the die's animation belongs to this input
            bits.append(wire.bits - before)
    finally:
        journal.close()
    frame_ms = FULL_FRAME_BITS * 1000 / hz
    mean_ms = sum(bits) / len(bits) * 1000 / hz
    p99 = sorted(latency)[min(len(latency) - 1, int(0.99 * len(latency)))]
    return {"bytes": sum(bits) / len(bits) / 9, "mean_ms": mean_ms, "share": mean_ms / frame_ms,
            "p99_ms": p99, "p99_share": p99 / frame_ms, "frame_ms": frame_ms}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--hz", type=int, default=400_000)
    args = parser.parse_args()
    tmpfs = "/dev/shm" if os.path.isdir("/dev/shm") else None
    print(f"machine: {machine()}; journal in {tmpfs or 'a temporary directory'}")
    for driver in ("ssd1306", "sh1106"):
        for partial in (False, True):
            with tempfile.TemporaryDirectory(dir=tmpfs) as tmp:
                r = run(driver, partial, args.inputs, args.seed, args.hz, Path(tmp))
            how = "changed spans" if partial else "full frames  "
            print(f"{driver} {how}: {r['bytes']:.0f} bytes/input, bus {r['mean_ms']:.2f} ms/input "
                  f"= {r['share']:.2f} of a full frame ({r['frame_ms']:.1f} ms) (goal <= 0.7); "
                  f"input -> last byte p99 {r['p99_ms']:.1f} ms = {r['p99_share']:.2f} frame "
                  f"(goal <= 1.0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
