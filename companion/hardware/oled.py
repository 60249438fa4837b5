"""Opening the OLED panel from the config, through luma's own device factory.

The driver (SSD1306, SH1106, SSD1309 or SSD1315) is a config value because they look
alike and a wrong choice shows garbage rather than an error. The config has already
limited the geometry to what the views draw (128x64, rotation 0 or 180); the device is
then built from luma's interface and driver classes with luma's defaults, as luma's
own ``create_device`` builds these four drivers.

Tests, benches and the simulator pass ``buses`` (:class:`~.fake_bus.FakeBuses`): the
same factory and drivers then run over fake kernel buses (see ``docs/fakes.md``).
"""

from __future__ import annotations

import functools
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from .display import Display, dummy_display, keep_exit_hooks, release

DRIVERS = ("ssd1306", "sh1106", "ssd1309", "ssd1315")
SPI_HZ = 8_000_000  # luma's default; the SSD1306 is specified to 10 MHz


def luma_interface(cfg: Any) -> Any:
    """luma's serial interface for ``cfg`` (a :class:`companion.config.OledConfig`), with
    luma's own defaults for everything the config does not say.

    Built from luma's interface classes rather than through its ``cmdline`` parser,
    whose making scans every installed package's entry points for display types
    (about 40 ms in a fresh process) to pick among drivers the config already names."""
    from luma.core.interface import serial

    if cfg.bus == "i2c":
        return serial.i2c(port=cfg.port, address=cfg.address)
    return serial.spi(port=cfg.port, device=cfg.spi_device, bus_speed_hz=SPI_HZ,
                      gpio_DC=cfg.dc_pin, gpio_RST=cfg.rst_pin)


def open_panel(cfg: Any, buses: Any = None) -> Any:
    """A luma device for ``cfg``; over ``buses`` (fake kernel buses) when given.

    Built as luma's ``cmdline.create_device`` builds an OLED (the interface, then the
    driver class), but holding on to what it opens: when the panel does not
    answer, the bus file is closed and the exit hooks luma registered are dropped
    before the error goes on. Otherwise every failed attempt would keep a file, a
    device and a hook that, at exit, switches off whatever panel then answers at that
    address. The commands the driver sent to set the panel up are kept on the device
    (``setup_commands``) so :class:`~.display.Display` can send them again."""
    import luma.oled.device

    with _OPENING, (buses.installed() if buses is not None else nullcontext()), \
            _exit_hooks_caught() as hooks:
        interface = _Recorder(luma_interface(cfg))
        try:
            device = getattr(luma.oled.device, cfg.driver)(
                serial_interface=interface, width=cfg.width, height=cfg.height,
                rotate=cfg.rotate)
            device.contrast(cfg.contrast)
        except BaseException:
            try:
                interface.cleanup()
            except Exception:  # noqa: BLE001 - the bus that failed may not close cleanly
                pass
            raise
    interface.recording = False
    device.setup_commands = interface.commands
    keep_exit_hooks(device, hooks)
    return device


_OPENING = threading.Lock()  # one open at a time: the exit-hook catcher is module-wide


@contextmanager
def _exit_hooks_caught() -> Iterator[list[Callable[[], Any]]]:
    """Collect the ``atexit`` hook luma registers while a device is built (one per
    device) instead of registering it: :func:`~.display.keep_exit_hooks` runs them at
    exit only while the device is open."""
    import luma.core.device

    hooks: list[Callable[[], Any]] = []
    catcher = types.SimpleNamespace(register=lambda hook, *a, **k: hooks.append(
        functools.partial(hook, *a, **k) if a or k else hook))
    modules = (luma.core.device,)
    saved = [module.atexit for module in modules]
    for module in modules:
        module.atexit = catcher
    try:
        yield hooks
    finally:
        for module, real in zip(modules, saved):
            module.atexit = real


class _Recorder:
    """A luma serial interface that remembers the commands sent while ``recording``:
    the driver's set-up sequence, whatever the driver."""

    def __init__(self, interface: Any):
        self.interface = interface
        self.recording = True
        self.commands: list[tuple[int, ...]] = []

    def command(self, *cmd: int) -> None:
        if self.recording:
            self.commands.append(cmd)
        self.interface.command(*cmd)

    def data(self, data: Any) -> None:
        self.interface.data(data)

    def cleanup(self) -> None:
        self.interface.cleanup()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.interface, name)


def open_display(cfg: Any, clock: Callable[[], float] = time.monotonic,
                 buses: Any = None, keep: bool = False,
                 retry_wait: float | None = None) -> Display:
    """The box's display: the configured panel (retried until it answers; with
    ``retry_wait``, each retry costs the caller at most that long, the box passes
    ``RETRY_WAIT``) or, with ``driver = "none"``, the in-memory fake for a box
    without a screen."""
    if cfg.driver == "none":
        return dummy_display(keep)
    display = Display.open(lambda: open_panel(cfg, buses), clock, keep, retry_wait)
    display.contrast = cfg.contrast
    return display


def simulated_display(keep: bool = False) -> tuple[Display, Any]:
    """The simulator's OLED and the panel behind it: the reference build's SSD1306 at
    0x3C on I2C bus 1, through luma's factory and ``i2c`` interface over a fake bus."""
    from ..config import OledConfig
    from .fake_bus import FakeBuses

    buses = FakeBuses()
    panel = buses.i2c_panel()
    return open_display(OledConfig(), buses=buses, keep=keep), panel


def open_private_displays(cfg: Any, private: Any,
                          clock: Callable[[], float] = time.monotonic,
                          buses: Any = None,
                          retry_wait: float | None = None) -> dict[int, Display]:
    """Camp -> display for QLANET's private OLEDs (``private`` is a
    :class:`companion.config.PrivateOledConfig`): the [oled] panel settings on I2C at
    each camp's bus and address. Empty when none is configured."""
    from dataclasses import replace

    return {camp: open_display(replace(cfg, bus="i2c", port=port, address=address), clock,
                               buses, retry_wait=retry_wait)
            for camp, (port, address) in private.screens(cfg.port).items()}


def blank_panels(config: Any, buses: Any = None) -> list[str]:
    """Switch off the shared OLED and any private ones (``config`` is a whole
    :class:`companion.config.Config`): a machine that halts leaves the panels
    powered, and a picture left lit for days burns in. Returns what failed."""
    from dataclasses import replace

    if config.oled.driver == "none":
        return []
    panels = {"the OLED": config.oled}
    for camp, (port, address) in config.private_oled.screens(config.oled.port).items():
        panels[f"camp {camp}'s OLED"] = replace(config.oled, bus="i2c", port=port,
                                               address=address)
    failures = []
    for name, cfg in panels.items():
        try:
            device = open_panel(cfg, buses)
            device.hide()
            device.persist = True  # off already: cleanup need not clear it again
            release(device)
        except Exception as exc:  # noqa: BLE001 - a dead panel is dark anyway
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
    return failures
