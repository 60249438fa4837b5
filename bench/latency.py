"""Input to outputs ready: how long does the box take to answer a press or a tap?

Drives the real ``Box`` (session, SQLite journal with WAL and synchronous=FULL in a
temporary directory, OLED rendering through luma's SSD1306 driver and ``i2c``
interface over the fake bus of ``companion.hardware.fake_bus``, LED frame) with
``--inputs`` input events from the AutoPlayer, starting new games as they end (a die's
animation is played out untimed after the input that rolled it). The OLED is on its
own thread, as ``companion run`` has it (``hardware/display_worker.py``); after each
input, untimed, the bench waits until that thread has sent the frame, so every frame
goes out and the two threads never overlap. Per input it takes:

- the game thread's own work: the CPU time of the thread in ``Box.handle`` (the
  session, the journal, the screen drawn, the LED frame, the frame handed over); CPU
  time, so that other programs on a shared machine do not count. Goal: median <= 0.3
  ms here;
- the display thread's work for that input: its CPU time sending the frame (finding
  the changed columns, luma and smbus2), less the time the fake bus spends emulating
  the panel byte by byte (the controller's work on a box). Reported beside the goal,
  with the sum of both: the CPU an input costs the box in all;
- input -> journal committed and the OLED image and LED frame ready, wall time: the
  journal's fsync is its tail. p99 as a share of one SSD1306 frame's transfer at
  400 kHz (about 23 ms; goal <= 0.10). Use ``--state-dir`` on the medium the box
  really writes to (an SD card on a Pi) for an honest figure.

With ``--web`` every run is made twice, alternating, without and with the web page
configured as ``companion run`` starts it (the publisher on the box, the server
listening on loopback, nobody's browser open): what the page adds to the game thread
(goal <= 10%). The bench fails (exit 1) if it did not measure what it says: inputs that
were not played in a game, no journal commits, no game finished, or a page open.

With ``--paced`` the bench measures something else: the fake bus takes the real time
of each transfer at 400 kHz (the kernel's ioctl sleeps until the controller is done),
and each run is made twice, alternating, with the OLED sent from the game thread (as
before the display thread) and from its thread: how long the game thread is held per
input, in wall time, before it can read the next press.

    python bench/latency.py [--inputs 1000] [--runs 5] [--state-dir DIR] [--web] [--paced]
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import machine, median  # noqa: E402
from harness import command_event, time_emulation  # noqa: E402

from companion.autoplay import AutoPlayer  # noqa: E402
from companion.box import Box  # noqa: E402
from companion.hardware.display_worker import DisplayWorker  # noqa: E402
from companion.hardware.fake_bus import FakeBuses  # noqa: E402
from companion.hardware.leds import RecordingLeds  # noqa: E402
from companion.hardware.oled import open_display  # noqa: E402
from companion.inputs import Tick  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.registry import sim_registry  # noqa: E402
from companion.session import ROLL_STEP, Session  # noqa: E402

I2C_FRAME_MS = 23.0  # 128x64 mono = 1024 bytes + addressing at 400 kHz
I2C_HZ = 400_000  # the bus clock install.sh sets
PANEL = SimpleNamespace(driver="ssd1306", bus="i2c", port=1, address=0x3C, rotate=0,
                        contrast=255, width=128, height=64)
PAGE = SimpleNamespace(address="127.0.0.1", port=0, control=False)  # [web] as configured


class NotMeasured(RuntimeError):
    """The run did not play what the bench claims to measure."""


def run(inputs: int, seed: int, state_dir: Path, web: bool, inline: bool = False,
        hz: int = 0) -> dict:
    """``inline``: the OLED sent from the game thread (as the box did before it had a
    display thread); ``hz``: the bus takes real time at that clock."""
    buses = FakeBuses()
    buses.i2c_panel(PANEL.driver)
    wire = buses.i2c[PANEL.port]
    wire.hz = hz
    emulating = time_emulation(wire)  # the panel's work, not the box's
    registry = sim_registry()
    journal = Journal(state_dir / "journal.db")
    oled = open_display(PANEL, buses=buses)
    display: Any = oled if inline else DisplayWorker(oled)
    box = Box(Session(journal, registry, seed_source=lambda: seed), display, RecordingLeds())
    server = None
    if web:
        from companion.web import service

        server = service.start(PAGE, box, queue.SimpleQueue().put, None)
    player = AutoPlayer(seed)
    own, wall, sending = [], [], []
    commits = in_game = finished = 0
    try:
        while len(own) < inputs:
            session = box.session
            command = player.next_command(session) or "press ok"  # over: the next game
            event = command_event(registry, command)
            g = session.game
            before = len(g.inputs) if g is not None else -1
            playing = g is not None and g.status == "playing"
            in_game += session.mode == "game"
            emulated, sent = emulating[0], 0.0 if inline else display.cpu
            start, cpu = time.perf_counter(), time.thread_time()
            box.handle(event)
            own.append(time.thread_time() - cpu)
            wall.append(time.perf_counter() - start)
            if inline:  # the frame went out on this thread: the panel's share is not ours
                own[-1] -= emulating[0] - emulated
                sending.append(0.0)
            else:
                if not display.flush(30):
                    raise NotMeasured("the display thread did not send the frame")
                sending.append(display.cpu - sent - (emulating[0] - emulated))
            g = box.session.game
            commits += g is not None and len(g.inputs) != before
            while box.tick_interval() == ROLL_STEP:  # the die's animation, untimed
                box.handle(Tick())
                if not inline:
                    display.flush(30)
            finished += playing and box.session.game.status != "playing"
        if web:
            assert server is not None
            if server.streams or not server._thread.is_alive():  # noqa: SLF001
                raise NotMeasured("the page was not on with no browser open")
            built = server.publisher.built
    finally:
        if server is not None:
            server.stop()
        display.close()
        journal.close()
    if in_game < inputs // 2 or not commits:
        raise NotMeasured(f"only {in_game} of {inputs} inputs were played in a game "
                          f"({commits} journal commits)")
    if not oled.frames_sent:
        raise NotMeasured("no frame reached the panel")
    return {"own": [t * 1000 for t in own], "wall": [t * 1000 for t in wall],
            "sending": [t * 1000 for t in sending],
            "total": [(a + b) * 1000 for a, b in zip(own, sending)],
            "commits": commits, "in_game": in_game, "finished": finished,
            "built": built if web else None}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def paced(args: argparse.Namespace) -> int:
    """The game thread's wall time per input with the bus taking real time: sent inline
    it waits for every transfer; with the display thread it only hands the frame over."""
    held: dict[bool, list[float]] = {True: [], False: []}
    try:
        for r in range(args.runs):
            for inline in (True, False):  # alternating
                with tempfile.TemporaryDirectory(dir=args.state_dir) as tmp:
                    got = run(args.inputs, 100 + r, Path(tmp), False, inline, I2C_HZ)
                held[inline] += got["wall"]
                print(f"run {r + 1}, {'inline' if inline else 'display thread'}: game "
                      f"thread held median {median(got['wall']):.3f} ms, p99 "
                      f"{percentile(got['wall'], 0.99):.3f} ms", flush=True)
    except NotMeasured as exc:
        print(f"bench/latency.py: not measured: {exc}", file=sys.stderr)
        return 1
    for inline, name in ((True, "the OLED sent inline (before)"),
                         (False, "the OLED on its display thread (now)")):
        print(f"{name}: the game thread held per input median {median(held[inline]):.3f} "
              f"ms, p99 {percentile(held[inline], 0.99):.3f} ms, wall, the bus at "
              f"{I2C_HZ // 1000} kHz in real time ({len(held[inline])} inputs)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--state-dir", help="where to put the journal (default: a temp dir)")
    parser.add_argument("--web", action="store_true",
                        help="also with the web page configured (no browser open)")
    parser.add_argument("--paced", action="store_true",
                        help="instead: the bus in real time at 400 kHz; how long the game "
                             "thread is held per input, the OLED sent inline or by its thread")
    args = parser.parse_args()
    print(f"machine: {machine()}; journal in {args.state_dir or 'a temporary directory'}")
    if args.paced:
        return paced(args)
    pages = (False, True) if args.web else (False,)
    own: dict[bool, list[float]] = {p: [] for p in pages}
    own_p99: dict[bool, list[float]] = {p: [] for p in pages}
    sending: list[float] = []  # the display thread's median per run (page off)
    total: list[float] = []  # game thread and display thread together
    p99s: list[float] = []
    try:
        for r in range(args.runs):
            for page in pages:  # alternating: a shared machine's load hits both alike
                with tempfile.TemporaryDirectory(dir=args.state_dir) as tmp:
                    got = run(args.inputs, 100 + r, Path(tmp), page)
                own[page].append(median(got["own"]))
                own_p99[page].append(percentile(got["own"], 0.99))
                if not page:
                    p99s.append(percentile(got["wall"], 0.99))
                    sending.append(median(got["sending"]))
                    total.append(median(got["total"]))
                built = f", {got['built']} web snapshots built" if page else ""
                print(f"run {r + 1}{', page on' if page else ''}: {len(got['own'])} inputs "
                      f"({got['in_game']} in a game, {got['finished']} games finished, "
                      f"{got['commits']} journal commits{built}): "
                      f"own work median {own[page][-1]:.3f} ms, p99 {own_p99[page][-1]:.3f} "
                      f"ms CPU; to committed median {median(got['wall']):.3f} ms, p99 "
                      f"{percentile(got['wall'], 0.99):.3f} ms, max {max(got['wall']):.3f} ms",
                      flush=True)
    except NotMeasured as exc:
        print(f"bench/latency.py: not measured: {exc}", file=sys.stderr)
        return 1
    mine = median(own[False])
    print(f"game thread's own work: median {mine:.3f} ms (goal <= 0.3), p99 "
          f"{median(own_p99[False]):.3f} ms of CPU (median of {args.runs} runs)")
    print(f"the display thread, sending that input's frame: median {median(sending):.3f} ms; "
          f"both threads together: median {median(total):.3f} ms of CPU per input")
    if args.web:
        on = median(own[True])
        print(f"with the web page configured, no browser open: median {on:.3f} ms, p99 "
              f"{median(own_p99[True]):.3f} ms: {100 * (on / mine - 1):+.1f}% (goal <= +10%)")
    p99 = median(p99s)
    print(f"input -> journal committed, p99 {p99:.3f} ms = {p99 / I2C_FRAME_MS:.3f} of an "
          f"SSD1306 frame at 400 kHz ({I2C_FRAME_MS:.0f} ms) (goal <= 0.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
