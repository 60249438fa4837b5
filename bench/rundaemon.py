"""``companion run`` with its OLED on a fake I2C bus, for benchmarks and tests.

Exactly ``companion run`` (the console script's ``companion.cli.main``, then
``companion.daemon.main``: config, devices, registry, journal, resume, the loop,
sd_notify), except that the display it opens is luma's real factory and SSD1306
driver on a fake SMBus with a simulated panel instead of ``/dev/i2c-1``, so what the
box would send to the panel can be counted. Run it with ``GPIOZERO_PIN_FACTORY=mock``
for mock buttons.

On SIGUSR1 (and at exit) it writes its counters as JSON to ``--counters FILE``:
``reports`` (how many reports so far), ``frames_sent`` (frames the display pushed),
``data_calls`` (I2C data transfers that reached the bus, init and clears included),
``bus_ms`` (the time all traffic took at 400 kHz), and what the box is showing
(``screen``: the screen model's kind and title, ``mode``, ``status`` of the game,
``blinking``: whether LEDs blink; ``built``: web snapshots built so far, with the page
on; ``analysing``: whether the analysis after the game still has work), so a bench
can check it measured the state it claims.

``--modules FILE`` writes, just before READY=1 is sent, the names of the modules
imported by then (``sys.modules``, in import order) as a JSON list: what the start
had to load, for the start-up bench's baseline.

``--reach STATE`` presses OK on the mock pins, as a finger would, until the box shows
``STATE``: ``status`` (the resumed game's own screen, past the notices a resume shows
again), ``menu`` (from there, the move menu with its targets blinking: DOWN moves the
cursor to an item that has targets) or ``end`` (the game over). ``reached`` in the
counters says whether it got there.

    python bench/rundaemon.py --config FILE [--counters FILE] [--reach status|menu|end]
                              [--modules FILE]
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from types import SimpleNamespace  # noqa: E402
from typing import Any  # noqa: E402

from companion import cli, daemon, notify  # noqa: E402
from companion.hardware import oled  # noqa: E402
from companion.hardware.fake_bus import FakeBuses  # noqa: E402

PANEL = SimpleNamespace(driver="ssd1306", bus="i2c", port=1, address=0x3C, spi_device=0,
                        dc_pin=24, rst_pin=25, rotate=0, contrast=255, width=128, height=64)


MAX_PRESSES = 12  # a resume's notices, a roll and its outcome are a handful


def showing(box: Any, analyst: Any = None) -> dict[str, Any]:
    """What ``box`` shows, read from another thread while the game thread waits for
    an input (the bench does not press meanwhile); ``analysing``: whether the
    daemon's analysis after the game has work left (or has not looked yet)."""
    from companion.views import leds

    session, screen = box.session, box._screen or {}  # noqa: SLF001 - the last drawn
    game = session.game
    publishers = [getattr(o, "__self__", None) for o in box.observers]
    analysing = analyst is not None and (analyst._work is not None  # noqa: SLF001
                                         or analyst._maybe)  # noqa: SLF001
    return {"analysing": analysing, "screen": screen.get("screen"),
            "title": screen.get("title"),
            "mode": session.mode, "status": game.status if game is not None else None,
            "game_id": session.game_id,
            "blinking": bool(leds.blinking(box._led_model)),  # noqa: SLF001
            "built": sum(getattr(p, "built", 0) for p in publishers),
            "pages": sum(getattr(p, "_watchers", 0) for p in publishers)}


def reached(state: str, shown: dict[str, Any]) -> bool:
    if state == "end":  # the game over and its end screen shown
        return (shown["mode"] == "game" and shown["status"] not in ("playing", None)
                and shown["screen"] == "end")
    if shown["mode"] != "game" or shown["status"] != "playing":
        return False
    if state == "menu":
        return shown["screen"] == "menu" and shown["blinking"]
    return shown["screen"] == "status"


def reach(config_path: str, state: str, boxes: list[Any], done: dict[str, Any],
          settle: float = 3.0) -> None:
    """Press OK (down 0.1 s, then let a roll finish) until the box shows ``state``."""
    from gpiozero import Device

    from companion import config as configuration

    while not boxes:  # the daemon is built once the pins are open and the game resumed
        time.sleep(0.1)
    pins = configuration.load(config_path).buttons.pins
    ok, down = (Device.pin_factory.pin(pins[name]) for name in ("OK", "DOWN"))
    time.sleep(settle)
    from_status = False  # the move menu is the one OK opens on the game's own screen
    for presses in range(MAX_PRESSES):
        shown = showing(boxes[0])
        if reached(state, shown) and (state != "menu" or from_status):
            done.update(reached=True, presses=presses)
            return
        # On the move menu, an item that moves nothing (an exchange, a card without
        # effect) lights no target: DOWN moves on to one that does.
        in_menu = from_status and shown["screen"] == "menu" and shown["mode"] == "game"
        from_status = reached("status", shown) or (state == "menu" and in_menu)
        button = down if state == "menu" and in_menu else ok
        button.drive_low()
        time.sleep(0.1)
        button.drive_high()
        for _ in range(30):  # a die rolls for about half a second
            time.sleep(0.1)
            if showing(boxes[0])["screen"] != "roll":
                break
        time.sleep(0.3)
    done.update(reached=False, presses=MAX_PRESSES)


def watch_modules(path: str) -> None:
    """Write the names in ``sys.modules`` to ``path`` just before READY=1 goes out."""
    ready = notify.Notifier.ready

    def ready_written(self: Any, status: str) -> None:
        with open(path, "w") as fh:
            json.dump([name for name, module in sys.modules.items() if module is not None], fh)
        ready(self, status)

    notify.Notifier.ready = ready_written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True)
    parser.add_argument("--counters")
    parser.add_argument("--reach", choices=("status", "menu", "end"),
                        help="press OK once the box is up until it shows this (mock pins)")
    parser.add_argument("--modules", help="write the modules imported at READY=1 here")
    args = parser.parse_args()
    if args.modules:
        watch_modules(args.modules)
    boxes: list[Any] = []  # the daemon's box, to say what it shows
    daemons: list[Any] = []
    real_daemon = daemon.Daemon

    class Watched(real_daemon):  # type: ignore[misc, valid-type]
        def __init__(self, box: Any, *more: Any, **kw: Any):
            boxes.append(box)
            super().__init__(box, *more, **kw)
            daemons.append(self)

    daemon.Daemon = Watched
    done: dict[str, Any] = {}
    if args.reach:
        threading.Thread(target=reach, args=(args.config, args.reach, boxes, done),
                         name="bench-presses", daemon=True).start()
    buses = FakeBuses()
    buses.i2c_panel(PANEL.driver, PANEL.port, PANEL.address)
    displays: list = []
    real_open_display = oled.open_display

    def open_display(cfg, clock=None, buses_=None, **options):  # the daemon's call
        display = real_open_display(PANEL, *(() if clock is None else (clock,)), buses,
                                    **options)
        displays.append(display)
        return display

    oled.open_display = open_display
    reports = 0

    def report(*_: object) -> None:
        nonlocal reports
        if not args.counters:
            return
        reports += 1
        data = {"reports": reports, "pid": os.getpid(),
                "frames_sent": sum(d.frames_sent for d in displays),
                "data_calls": buses.i2c[PANEL.port].data_transfers,
                "bus_ms": buses.i2c[PANEL.port].bus_ms(),
                # /proc/PID/task/TID names every thread "python": say which is which
                "threads": {str(t.native_id): t.name for t in threading.enumerate()},
                **(showing(boxes[0], daemons[0].analyst if daemons else None)
                   if boxes else {}), **done}
        tmp = args.counters + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(data, fh)
        os.replace(tmp, args.counters)

    signal.signal(signal.SIGUSR1, report)
    atexit.register(report)
    return cli.main(["run", "--config", args.config])


if __name__ == "__main__":
    sys.exit(main())
