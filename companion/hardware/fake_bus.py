"""The buses under luma, faked: the lowest layer of the OLED path that we do not own.

Tests, benches and the simulator run luma's real device factory, drivers and serial
interfaces (``luma.core.interface.serial.i2c`` and ``spi``). Only the objects that
would make system calls are replaced: ``smbus2.SMBus`` for I2C, ``spidev.SpiDev`` and
``RPi.GPIO`` for SPI. They fail as Linux does, with ``OSError`` and the errno the
kernel's drivers return (``EREMOTEIO`` for a panel that does not acknowledge, ``EIO``,
``ENXIO``, ``ETIMEDOUT``), so luma's own translation of those errors (into
``DeviceNotFoundError``, which is not an ``OSError``) happens in every test.

Behind each bus sits a :class:`Panel`: the SSD1306 or SH1106 controller as its
datasheet describes it (command decoding, addressing modes, the SH1106's 132-column
RAM), so a test can read back what a real panel would show, and power-cycle it
("the panel comes back blank and unconfigured").
"""

from __future__ import annotations

import errno as errnos
import os
import sys
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PIL import Image

# Arguments that follow each multi-byte command (all others are one byte).
_SSD1306_ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
                 0xDA: 1, 0xDB: 1, 0x8D: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5}
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1}
HORIZONTAL, VERTICAL, PAGE = 0, 1, 2  # SSD1306 memory addressing modes (0x20 argument)


class Panel:
    """An SSD1306-family (``ssd1306``, ``ssd1309``, ``ssd1315``) or SH1106 controller
    with a 128x64 glass. Power-on state as the datasheets give it: display off, page
    addressing, RAM blank (really undefined; blank is the kind case for a test that
    wants to see our frames, not noise)."""

    def __init__(self, driver: str = "ssd1306"):
        self.driver = driver
        self.sh1106 = driver == "sh1106"
        self.columns = 132 if self.sh1106 else 128
        self.offset = 2 if self.sh1106 else 0  # the glass shows RAM columns 2..129
        self._args = _SH1106_ARGS if self.sh1106 else _SSD1306_ARGS
        self.power_cycle()

    def power_cycle(self) -> None:
        """Power lost and back: RAM blank, every setting at its reset value."""
        self.ram = [bytearray(self.columns) for _ in range(8)]
        self.on = False
        self.contrast = 0x7F
        self.mode = PAGE
        self.col = self.page = 0
        self.col_range = (0, 127)
        self.page_range = (0, 7)
        self.charge_pump = self.sh1106  # the SH1106's DC-DC is on after reset
        self.commands_seen = 0
        self._pending: list[int] = []  # a command still waiting for its arguments

    @property
    def lit(self) -> bool:
        """Whether the glass shows anything at all."""
        return self.on and self.charge_pump

    def image(self) -> Image.Image:
        """What the glass shows: a 128x64 mode "1" picture (black while off)."""
        image = Image.new("1", (128, 64), 0)
        if not self.lit:
            return image
        pixels = image.load()
        for page in range(8):
            row = self.ram[page]
            for x in range(128):
                byte = row[x + self.offset]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 1
        return image

    # ------------------------------------------------------------ the wire side

    def command_bytes(self, data: bytes) -> None:
        for byte in data:
            self._pending.append(byte)
            need = self._args.get(self._pending[0], 0)
            if len(self._pending) > need:
                self._command(*self._pending)
                self._pending = []

    def data_bytes(self, data: bytes) -> None:
        for byte in data:
            if self.col < self.columns and self.page < 8:
                self.ram[self.page][self.col] = byte
            self._advance()

    def _command(self, op: int, *args: int) -> None:
        self.commands_seen += 1
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op == 0x81:
            self.contrast = args[0]
        elif op <= 0x1F or 0xB0 <= op <= 0xB7:
            # Page-mode pointers: the SSD1306 ignores them in its other two modes.
            if self.sh1106 or self.mode == PAGE:
                if op >= 0xB0:
                    self.page = op & 0x07
                elif op <= 0x0F:
                    self.col = (self.col & 0xF0) | op
                else:
                    self.col = (self.col & 0x0F) | (op & 0x0F) << 4
        elif self.sh1106:
            if op == 0xAD:
                self.charge_pump = bool(args[0] & 1)
        elif op == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif op == 0x20:
            self.mode = args[0] & 0x03
        elif op == 0x21:
            self.col_range = (args[0] & 0x7F, args[1] & 0x7F)
            self.col = self.col_range[0]
        elif op == 0x22:
            self.page_range = (args[0] & 0x07, args[1] & 0x07)
            self.page = self.page_range[0]

    def _advance(self) -> None:
        if self.sh1106:  # page addressing only; writes past column 131 are lost
            self.col += 1
            return
        (c0, c1), (p0, p1) = self.col_range, self.page_range
        if self.mode == PAGE:  # the column wraps within the page
            self.col = self.col + 1 if self.col < c1 else c0
            return
        if self.mode == HORIZONTAL:
            if self.col < c1:
                self.col += 1
            else:
                self.col = c0
                self.page = self.page + 1 if self.page < p1 else p0
        else:  # vertical
            if self.page < p1:
                self.page += 1
            else:
                self.page = p0
                self.col = self.col + 1 if self.col < c1 else c0


class Wire:
    """What is common to a bus whatever opens it: the panels on it, its faults and its
    traffic. Faults: ``fail_next`` transfers fail with ``errno``; every transfer fails
    while ``down`` or before ``down_until`` on ``clock``; every ``every``-th data
    transfer fails (a marginal wire). While ``stuck`` (a device holding SDA low) every
    transfer hangs for ``stuck_wait`` real seconds, the kernel's timeout, then fails
    with ``ETIMEDOUT``. ``bits`` counts what crossed it; ``opens`` and ``closes`` the
    bus files opened and closed on it. With ``hz`` set, an I2C transfer also takes the
    real time it would at that clock (the kernel's ioctl sleeps until the controller
    is done), so a bench can see what waiting for the bus costs the caller."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.errno = errnos.EREMOTEIO
        self.fail_next = 0
        self.down = False
        self.down_until = float("-inf")
        self.every = 0
        self.stuck = False
        self.stuck_wait = 1.0  # seconds: the bcm2835 I2C driver's timeout
        self.opens = 0
        self.closes = 0
        self.transfers = 0  # transfers that went through
        self.data_transfers = 0
        self.failed = 0
        self.bits = 0  # on the wire, including addressing and acknowledge bits
        self.hz = 0  # 0: transfers take no time

    def _fault(self, is_data: bool) -> None:
        if self.stuck:
            self.failed += 1
            time.sleep(self.stuck_wait)
            raise OSError(errnos.ETIMEDOUT, os.strerror(errnos.ETIMEDOUT))
        if is_data:
            self.data_transfers += 1
        failing = self.down or self.clock() < self.down_until or self.fail_next > 0 or (
            is_data and self.every and self.data_transfers % self.every == 0)
        if failing:
            self.fail_next = max(0, self.fail_next - 1)
            self.failed += 1
            if is_data:
                self.data_transfers -= 1
            raise OSError(self.errno, os.strerror(self.errno))  # as the kernel says it
        self.transfers += 1

    def bus_ms(self, hz: int = 400_000) -> float:
        """Milliseconds the traffic so far took at a clock of ``hz``."""
        return self.bits * 1000.0 / hz


class I2CWire(Wire):
    """An I2C bus (``/dev/i2c-N``) with panels at their addresses."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        super().__init__(clock)
        self.panels: dict[int, Panel] = {}

    def message(self, address: int, payload: bytes) -> None:
        """One write transaction: start, address, the payload (control byte first)."""
        is_data = bool(payload) and payload[0] & 0x40 == 0x40
        panel = self.panels.get(address)
        if panel is None:
            self.failed += 1
            # The bcm2835 driver's answer to an address nobody acknowledges.
            raise OSError(errnos.EREMOTEIO, os.strerror(errnos.EREMOTEIO))
        self._fault(is_data)
        bits = 9 * (1 + len(payload)) + 2  # 8 bits + ACK per byte; start and stop
        self.bits += bits
        if self.hz:
            time.sleep(bits / self.hz)
        if is_data:
            panel.data_bytes(payload[1:])
        else:
            panel.command_bytes(payload[1:])


class SMBus:
    """``smbus2.SMBus`` as luma uses it, on an :class:`I2CWire`."""

    def __init__(self, wire: I2CWire):
        self.wire = wire
        self.closed = False
        wire.opens += 1

    def _check(self) -> None:
        if self.closed:
            raise OSError(errnos.EBADF, "Bad file descriptor")

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: list[int]) -> None:
        self._check()
        if len(data) > 32:
            raise OSError(errnos.EINVAL, "Invalid argument")  # the SMBus block limit
        self.wire.message(i2c_addr, bytes([register, *data]))

    def i2c_rdwr(self, *messages: Any) -> None:
        self._check()
        for message in messages:
            self.wire.message(message.addr, bytes(message))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.wire.closes += 1


class SpiWire(Wire):
    """An SPI chip select with one panel, its D/C line on GPIO ``dc_pin``."""

    def __init__(self, panel: Panel, dc_pin: int, gpio: FakeGPIO,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(clock)
        self.panel, self.dc_pin, self.gpio = panel, dc_pin, gpio

    def write(self, data: list[int]) -> None:
        is_data = self.gpio.levels.get(self.dc_pin, 0) == 1
        self._fault(is_data)
        self.bits += 8 * len(data)
        (self.panel.data_bytes if is_data else self.panel.command_bytes)(bytes(data))


class SpiDev:
    """``spidev.SpiDev`` as luma uses it."""

    def __init__(self, buses: FakeBuses):
        self._buses = buses
        self.wire: SpiWire | None = None
        self.max_speed_hz = 0
        self.mode = 0

    def open(self, port: int, device: int) -> None:
        wire = self._buses.spi.get((port, device))
        if wire is None:
            raise FileNotFoundError(errnos.ENOENT, "No such file or directory",
                                    f"/dev/spidev{port}.{device}")
        self.wire = wire
        wire.opens += 1

    def writebytes(self, data: list[int]) -> None:
        if self.wire is None:
            raise OSError(errnos.EBADF, "Bad file descriptor")
        self.wire.write(list(data))

    def close(self) -> None:
        if self.wire is not None:
            self.wire.closes += 1
        self.wire = None


class FakeGPIO(types.ModuleType):
    """The ``RPi.GPIO`` module as luma uses it (BCM numbering, outputs only)."""

    BCM, BOARD, OUT, IN, LOW, HIGH = 11, 10, 0, 1, 0, 1

    def __init__(self) -> None:
        super().__init__("RPi.GPIO")
        self.levels: dict[int, int] = {}

    def setmode(self, mode: int) -> None:
        pass

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: int, **_: Any) -> None:
        self.levels.setdefault(pin, 0)

    def output(self, pin: int, level: int) -> None:
        self.levels[pin] = int(bool(level))

    def cleanup(self, *_: Any) -> None:
        pass


class FakeBuses:
    """Every bus a box might open, with the panels on them. Open luma devices inside
    :meth:`installed` and luma's own code finds these instead of the kernel's."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.i2c: dict[int, I2CWire] = {}
        self.spi: dict[tuple[int, int], SpiWire] = {}
        self.gpio = FakeGPIO()

    def i2c_panel(self, driver: str = "ssd1306", port: int = 1, address: int = 0x3C) -> Panel:
        """Solder a panel onto I2C bus ``port`` at ``address``."""
        wire = self.i2c.setdefault(port, I2CWire(self.clock))
        wire.panels[address] = panel = Panel(driver)
        return panel

    def spi_panel(self, driver: str = "ssd1306", port: int = 0, device: int = 0,
                  dc_pin: int = 24) -> Panel:
        panel = Panel(driver)
        self.spi[(port, device)] = SpiWire(panel, dc_pin, self.gpio, self.clock)
        return panel

    def _smbus(self, port: int) -> SMBus:
        wire = self.i2c.get(port)
        if wire is None:
            raise FileNotFoundError(errnos.ENOENT, "No such file or directory",
                                    f"/dev/i2c-{port}")
        return SMBus(wire)

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Within this block ``smbus2.SMBus``, ``spidev`` and ``RPi.GPIO`` are these
        fakes (luma imports them while opening a device, not afterwards)."""
        import smbus2

        rpi = types.ModuleType("RPi")
        rpi.GPIO = self.gpio  # type: ignore[attr-defined]
        spidev = types.ModuleType("spidev")
        spidev.SpiDev = lambda: SpiDev(self)  # type: ignore[attr-defined]
        saved_modules = {name: sys.modules.get(name) for name in ("RPi", "RPi.GPIO", "spidev")}
        saved_smbus = smbus2.SMBus
        sys.modules.update({"RPi": rpi, "RPi.GPIO": self.gpio, "spidev": spidev})
        smbus2.SMBus = self._smbus  # type: ignore[assignment,misc]
        try:
            yield
        finally:
            smbus2.SMBus = saved_smbus  # type: ignore[misc]
            for name, module in saved_modules.items():
                if module is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = module
