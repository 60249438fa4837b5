"""Opening the OLED panel from the config, and a fake I2C bus for tests.

The driver (SSD1306 or SH1106) is a config value because the two look alike and a
wrong choice shows garbage rather than an error. :class:`FakeI2C` stands in for
luma's ``i2c`` interface under the *real* luma drivers, so tests run the same
command/data traffic the panel sees, and can pull the wire mid-game.
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable
from typing import Any

from .display import Display, dummy_display

DRIVERS = ("ssd1306", "sh1106")


def open_panel(cfg: Any, serial_interface: Any = None) -> Any:
    """A luma device for ``cfg`` (a :class:`companion.config.OledConfig`)."""
    from luma.oled.device import sh1106, ssd1306

    if serial_interface is None:
        if cfg.bus == "i2c":
            from luma.core.interface.serial import i2c

            serial_interface = i2c(port=cfg.port, address=cfg.address)
        else:
            from luma.core.interface.serial import spi

            serial_interface = spi(port=cfg.port, device=cfg.spi_device,
                                   gpio_DC=cfg.dc_pin, gpio_RST=cfg.rst_pin)
    driver = {"ssd1306": ssd1306, "sh1106": sh1106}[cfg.driver]
    device = driver(serial_interface, width=cfg.width, height=cfg.height, rotate=cfg.rotate)
    device.contrast(cfg.contrast)
    return device


def open_display(cfg: Any, clock: Callable[[], float] = time.monotonic,
                 serial_interface: Callable[[], Any] | None = None) -> Display:
    """The box's display: the configured panel (retried until it answers) or, with
    ``driver = "none"``, the in-memory fake for a box without a screen."""
    if cfg.driver == "none":
        return dummy_display()
    if serial_interface is None:
        return Display.open(lambda: open_panel(cfg), clock)
    return Display.open(lambda: open_panel(cfg, serial_interface()), clock)


def open_private_displays(cfg: Any, private: Any,
                          clock: Callable[[], float] = time.monotonic) -> dict[int, Display]:
    """Camp -> display for QLANET's private OLEDs (``private`` is a
    :class:`companion.config.PrivateOledConfig`): the [oled] panel settings on I2C at
    each camp's bus and address. Empty when none is configured."""
    from dataclasses import replace

    return {camp: open_display(replace(cfg, bus="i2c", port=port, address=address), clock)
            for camp, (port, address) in private.screens(cfg.port).items()}


class FakeI2C:
    """luma's serial-interface contract (``command``, ``data``, ``cleanup``) in memory.

    ``fail`` makes the next N transfers raise ``OSError(EREMOTEIO)`` like a loose
    wire; ``unplugged`` makes every transfer fail until it is cleared.
    """

    def __init__(self) -> None:
        self.commands: list[tuple[int, ...]] = []
        self.data_bytes = 0
        self.data_calls = 0  # data transfers that completed (sh1106: 8 per frame)
        self.fail = 0
        self.unplugged = False
        self.closed = False

    def _transfer(self) -> None:
        if self.unplugged or self.fail:
            self.fail = max(0, self.fail - 1)
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def command(self, *cmd: int) -> None:
        self._transfer()
        self.commands.append(cmd)

    def data(self, data: Any) -> None:
        self._transfer()
        self.data_bytes += len(data)
        self.data_calls += 1

    def cleanup(self) -> None:
        self.closed = True
