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
``bus_ms`` (the time all traffic took at 400 kHz).

    python bench/rundaemon.py --config FILE [--counters FILE] [--press 'OK OK']
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

from companion import cli  # noqa: E402
from companion.hardware import oled  # noqa: E402
from companion.hardware.fake_bus import FakeBuses  # noqa: E402

PANEL = SimpleNamespace(driver="ssd1306", bus="i2c", port=1, address=0x3C, spi_device=0,
                        dc_pin=24, rst_pin=25, rotate=0, contrast=255, width=128, height=64)


def press_later(config_path: str, buttons: list[str], settle: float = 3.0) -> None:
    """Press ``buttons`` on the mock pins once the daemon has opened them, as a finger
    would (down 0.1 s, 0.3 s apart)."""
    from gpiozero import Device

    from companion import config as configuration

    pins = configuration.load(config_path).buttons.pins
    time.sleep(settle)
    for button in buttons:
        pin = Device.pin_factory.pin(pins[button.upper()])
        pin.drive_low()
        time.sleep(0.1)
        pin.drive_high()
        time.sleep(0.3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True)
    parser.add_argument("--counters")
    parser.add_argument("--press", default="",
                        help="buttons to press once the box is up, e.g. 'OK OK' (mock pins)")
    args = parser.parse_args()
    if args.press:
        threading.Thread(target=press_later, args=(args.config, args.press.split()),
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
                "threads": {str(t.native_id): t.name for t in threading.enumerate()}}
        tmp = args.counters + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(data, fh)
        os.replace(tmp, args.counters)

    signal.signal(signal.SIGUSR1, report)
    atexit.register(report)
    return cli.main(["run", "--config", args.config])


if __name__ == "__main__":
    sys.exit(main())
