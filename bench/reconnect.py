"""Reconnect time of the co-processor link: from the Pico plugged back in to the link up.

The real ``SerialLink`` (pyserial on a pty) talks to the fake Pico. Each cycle pulls
the cable (the pty and its device path vanish, as a USB unplug), waits until the link
reports "down", then plugs it back (a new pty behind the same path, the firmware
boots and says HELLO) and times until the link reports "up" again. Prints the median
and the worst of ``--cycles`` cycles (goal: within 2 s). Exits non-zero only if the
link never comes back.

    python bench/reconnect.py [--cycles 20]
"""

from __future__ import annotations

import argparse
import logging
import queue
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import median  # noqa: E402
from companion.hardware.fake_pico import FakePico  # noqa: E402
from companion.hardware.link import LinkEvent, SerialLink  # noqa: E402


def wait_state(events: queue.Queue, state: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            return False
        if isinstance(event, LinkEvent) and event.state == state:
            return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=20)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # each unplug logs a warning: expected here
    print(f"machine: {machine()}")
    events: queue.Queue = queue.Queue()
    times = []
    with FakePico(hb_interval=1.0) as pico, \
            SerialLink(pico.path, 115200, events.put_nowait) as link:
        if not wait_state(events, "up", 10):
            print("the link never came up", file=sys.stderr)
            return 1
        for cycle in range(args.cycles):
            pico.unplug()
            if not wait_state(events, "down", 10):
                print("the link never noticed the unplug", file=sys.stderr)
                return 1
            time.sleep(0.1 + 0.4 * (cycle % 5) / 4)  # a hand needs a moment; vary the phase
            start = time.monotonic()
            pico.replug()
            if not wait_state(events, "up", 30):
                print("the link never came back", file=sys.stderr)
                return 1
            times.append(time.monotonic() - start)
        reconnects = link.stats.reconnects
    print(f"reconnect: median {median(times):.2f} s, worst {max(times):.2f} s over "
          f"{args.cycles} unplug/replug cycles ({reconnects} reopens); goal <= 2 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
