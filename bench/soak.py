"""A whole night on fake parts, accelerated: does anything leak?

The daemon runs as ``companion run`` builds it (:class:`bench.harness.Rig`: mock GPIO
buttons, the fake Pico on a pty with the real link thread, the OLED on luma's SSD1306
driver and i2c interface over a fake I2C bus, the SQLite journal) with the web page on
a loopback port. The loop's clock is the rig's hand clock, so ``--hours`` of game
night (8 by default) take minutes. Every simulated minute the AutoPlayer makes a few
moves (a finished game is followed by a new one) and the readers spam a burst of
unknown cards; three pages stay connected all night and another comes and goes every
half hour. On the OLED's bus, in this order:

- hour 1-2: the panel unplugged (nobody acknowledges its address), then plugged back;
- hour 3: the bus stuck for 10 minutes (every transfer hangs, then ``ETIMEDOUT``);
- hour 4: a power dip that resets the panel without any bus error;
- hour 5: a marginal wire (every 5th data transfer fails) for 10 minutes.

It prints open file descriptors, threads and RSS after the first half hour and at
the end, the bus files opened and closed, the exit hooks kept, and what happened.
It exits non-zero if the night did not happen as claimed (the panel was not really
away, no frame went out, the dip did not heal) or if a figure is not flat: a file
descriptor, a thread or a kept device more at the end, or RSS grown by more than
``RSS_GOAL_MB``. Linux only (reads /proc).

    python bench/soak.py [--hours 8] [--seed 6]
"""

from __future__ import annotations

import argparse
import atexit
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import Rig, memory_mb, write_config  # noqa: E402
from companion.autoplay import AutoPlayer  # noqa: E402
from companion.hardware import display as display_module  # noqa: E402
from companion.hardware.display import REFRESH_EVERY  # noqa: E402
from companion.views import oled  # noqa: E402

MOVES_PER_MINUTE = 2
SPAM_PER_MINUTE = 10  # unknown cards tapped and lifted
STANDING_PAGES = 3
RSS_GOAL_MB = 5.0
UNKNOWN = "04FFFFFFFF{:04X}"


def figures() -> dict[str, float]:
    return {"fds": len(os.listdir("/proc/self/fd")),
            "threads": len(os.listdir("/proc/self/task")),
            "rss": memory_mb()["VmRSS"]}


class Pages:
    """Browsers on the web page: some stay all night, others come and go."""

    def __init__(self, port: int):
        self.port = port
        self.stop = threading.Event()
        self.received = 0
        self.visits = 0
        self.threads = [threading.Thread(target=self._stream, name=f"page-{i}", daemon=True)
                        for i in range(STANDING_PAGES)]
        for thread in self.threads:
            thread.start()

    def _stream(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port)) as sock:
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.settimeout(0.2)
            while not self.stop.is_set():
                try:
                    data = sock.recv(65536)
                except socket.timeout:
                    continue
                if not data:
                    return
                self.received += len(data)

    def visit(self) -> None:
        """A phone opens the page, reads a little of the stream, and leaves."""
        for path in ("/", "/events"):
            with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             "Connection: close\r\n\r\n".encode())
                sock.recv(65536)
        self.visits += 1

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(5)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def spam(rig: Rig, pico, n: int) -> None:
    """A burst of unknown cards on the pads, through the pty and the link thread."""
    link = rig.devices.link
    before = link.stats.lines_ok
    for i in range(n):
        uid = UNKNOWN.format(i)
        pico.tap(1 + i % 3, uid)
        pico.lift(1 + i % 3, uid)
    deadline = time.monotonic() + 10
    while link.stats.lines_ok < before + 2 * n and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(0.01)
    rig.settle()


def night(rig: Rig, pico, pages: Pages, hours: float, seed: int) -> dict:
    wire, panel, d = rig.bus, rig.panel, rig.display
    saved_panels = dict(wire.panels)
    player = AutoPlayer(seed)
    log: dict = {"games": 0, "moves": 0, "spammed": 0, "away_failures": 0,
                 "stuck_failures": 0, "dip_dark": False, "dip_healed_s": None,
                 "marginal_failures": 0}
    start = rig.clock.now
    minutes = int(hours * 60)
    for minute in range(minutes):
        hour = minute / 60
        if minute == 60:
            wire.panels.clear()  # unplugged
        elif minute == 120:
            log["away_failures"] = wire.failed
            wire.panels.update(saved_panels)  # plugged back
        elif minute == 180:
            before = wire.failed
            wire.stuck, wire.stuck_wait = True, 0.02
        elif minute == 190:
            wire.stuck = False
            log["stuck_failures"] = wire.failed - before
        elif minute == 240:
            rig.settle(REFRESH_EVERY)  # on a settled picture
            panel.power_cycle()  # the rail dipped: no error anywhere
            log["dip_dark"] = not panel.lit
            dipped = rig.clock.now
            while not (panel.lit and d.image is not None
                       and panel.image().tobytes() == d.image.tobytes()):
                rig.settle(1.0)
                if rig.clock.now - dipped > 5 * REFRESH_EVERY:
                    break
            else:
                log["dip_healed_s"] = rig.clock.now - dipped
        elif minute == 300:
            before = wire.failed
            wire.every = 5
        elif minute == 310:
            wire.every = 0
            log["marginal_failures"] = wire.failed - before
        if minute == 30:
            log["start"] = figures()
            log["start_bus"] = (wire.opens, wire.closes)
            log["start_hooks"] = atexit._ncallbacks()
        for _ in range(MOVES_PER_MINUTE):
            if rig.input_command(player) is None:
                rig.new_game_from_the_end()
                log["games"] += 1
                player = AutoPlayer(seed + log["games"])
            else:
                log["moves"] += 1
        spam(rig, pico, SPAM_PER_MINUTE)
        log["spammed"] += SPAM_PER_MINUTE
        if minute % 30 == 15:
            pages.visit()
        rig.settle(max(0.0, start + (minute + 1) * 60 - rig.clock.now))
        if minute % 10 == 9:
            pico.forget()  # the fake's records for asserts are not the daemon's memory
        if minute % 60 == 59:
            print(f"  hour {int(hour) + 1}: {figures()}", flush=True)
    rig.settle(5 * REFRESH_EVERY)  # the last retries and refreshes
    time.sleep(0.5)  # the page streams catch up; visits' sockets close on the server
    log["end"] = figures()
    log["end_hooks"] = atexit._ncallbacks()
    log["simulated_hours"] = (rig.clock.now - start) / 3600
    return log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hours", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args(argv)
    from companion.hardware.fake_pico import FakePico
    from companion.web import service

    print(f"machine: {machine()}", flush=True)
    real_start = time.monotonic()
    with FakePico(hb_interval=1.0) as pico, tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        config = write_config(Path(tmp) / "config.toml", state_dir=Path(tmp) / "state",
                              pico=pico.path,
                              extra=f'[web]\nenabled = true\naddress = "127.0.0.1"\n'
                                    f'port = {port}\n')
        with Rig(config, seed=args.seed) as rig:
            server = service.start(rig.config.web, rig.box, rig.events.put, None)
            pages = Pages(server.port)
            try:
                log = night(rig, pico, pages, args.hours, args.seed)
                streams = server.streams
            finally:
                pages.close()
                server.stop()
            wire, d = rig.bus, rig.display
            shows_screen = d.image is not None and rig.panel.image().tobytes() == \
                oled.render(rig.session.screen()).tobytes()
            bus = (wire.opens, wire.closes)
            kept = display_module.open_devices()
            frames, refreshes, failures = d.frames_sent, d.refreshes, wire.failed
    real = time.monotonic() - real_start
    s, e = log["start"], log["end"]
    print(f"simulated {log['simulated_hours']:.2f} h in {real:.0f} s real time; "
          f"{log['moves']} moves in {log['games']} finished games + 1, "
          f"{log['spammed']} unknown cards spammed, {pages.visits} page visits, "
          f"{streams} streams open at the end, pages received {pages.received / 1e6:.1f} MB")
    print(f"OLED: {frames} frames sent, {refreshes} refreshes, {failures} failed transfers; "
          f"panel away for an hour: {log['away_failures']} failed attempts; stuck bus: "
          f"{log['stuck_failures']}; marginal wire: {log['marginal_failures']}; "
          f"power dip healed after {log['dip_healed_s']} s (goal <= {REFRESH_EVERY:g})")
    print(f"bus files opened {bus[0]}, closed {bus[1]} (at minute 30: "
          f"{log['start_bus'][0]}/{log['start_bus'][1]}); devices keeping exit hooks: "
          f"{kept}; interpreter exit hooks {log['start_hooks']} at minute 30, "
          f"{log['end_hooks']} at the end")
    print(f"{'':14}{'minute 30':>12}{'end':>12}")
    print(f"{'open fds':14}{s['fds']:>12}{e['fds']:>12}")
    print(f"{'threads':14}{s['threads']:>12}{e['threads']:>12}")
    print(f"{'RSS MB':14}{s['rss']:>12.1f}{e['rss']:>12.1f}   (goal: growth <= "
          f"{RSS_GOAL_MB:g})")
    problems = []
    if log["simulated_hours"] < args.hours:
        problems.append("the night was cut short")
    if log["away_failures"] < 10 or log["stuck_failures"] < 1 or log["marginal_failures"] < 1:
        problems.append("the faults did not happen as claimed")
    if not log["dip_dark"] or log["dip_healed_s"] is None or \
            log["dip_healed_s"] > REFRESH_EVERY + 1:
        problems.append("the power dip did not go dark and heal within a refresh")
    if frames < 100 or log["moves"] < 10 or not shows_screen:
        problems.append("the panel does not show the game's screen at the end")
    if streams != STANDING_PAGES:
        problems.append(f"{streams} streams open at the end, not {STANDING_PAGES}")
    if bus[0] != bus[1] + 1 or kept != 1 or log["end_hooks"] > log["start_hooks"]:
        problems.append("bus files or devices leaked")
    if e["fds"] > s["fds"] or e["threads"] > s["threads"] or \
            e["rss"] - s["rss"] > RSS_GOAL_MB:
        problems.append("a figure is not flat")
    for problem in problems:
        print(f"FAILED: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
