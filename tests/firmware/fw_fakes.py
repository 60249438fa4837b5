"""Fake MicroPython modules (``machine``, ``neopixel``, ``micropython``) for the firmware.

The firmware imports these by name, as on the Pico; :func:`install` puts the fakes
into ``sys.modules`` and :func:`reset` gives each test a clean board. They do what
the firmware needs and record what it did:

- ``machine.Pin`` keeps its level and tells :class:`SpiBus` when a chip-select moves;
  ``machine.SPI`` shifts bytes through the bus to whichever fake chip is selected
  (nothing selected reads 0xFF: MISO floats high);
- ``machine.WDT`` counts feeds, ``machine.mem32`` records writes;
- ``neopixel.NeoPixel`` records every ``write()`` as a tuple of pixels;
- ``micropython.kbd_intr`` records its arguments, ``micropython.const`` is the identity.

This file also runs on MicroPython's unix port (``test_fw_micropython.py``), so it
keeps to what both interpreters share: no ``__future__``, annotations only where
neither evaluates them, forward references quoted.
"""

import sys


class State:
    """Everything the fakes remember; one instance per test (see :func:`reset`)."""

    def __init__(self) -> None:
        self.pins: dict[int, Pin] = {}
        self.watchers: dict[int, list] = {}  # pin id -> callbacks(level)
        self.buses: dict[int, SpiBus] = {}
        self.wdts: list[WDT] = []
        self.mem32: dict[int, int] = {}
        self.mem32_writes: list[tuple[int, int]] = []
        self.kbd_intr: list[int] = []
        self.neopixels: list[NeoPixel] = []

    def bus(self, spi_id: int = 0) -> "SpiBus":
        if spi_id not in self.buses:
            self.buses[spi_id] = SpiBus(self)
        return self.buses[spi_id]


state = State()


# -- machine -------------------------------------------------------------------------------


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self._level = 1 if pull == self.PULL_UP else 0
        state.pins[id] = self
        if value is not None:
            self.value(value)

    def init(self, mode=-1, pull=-1, *, value=None):
        self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            return self._level
        self._level = 1 if level else 0
        for watcher in state.watchers.get(self.id, ()):
            watcher(self._level)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def __repr__(self):
        return f"Pin({self.id})"


def level(pin_id: int) -> int | None:
    """The level of pin ``pin_id`` now, or None if the firmware never made it."""
    pin = state.pins.get(pin_id)
    return None if pin is None else pin.value()


class SpiBus:
    """SPI devices by chip-select pin; a byte goes to every selected device."""

    def __init__(self, owner: "State") -> None:
        self._state = owner
        self.devices: dict[int, object] = {}
        self.transfers = 0

    def attach(self, cs: int, device) -> None:
        """``device`` needs ``select(low: bool)`` and ``exchange(mosi) -> miso``."""
        self.devices[cs] = device
        self._state.watchers.setdefault(cs, []).append(lambda lvl: device.select(lvl == 0))

    def exchange(self, mosi: int) -> int:
        self.transfers += 1
        miso = 0xFF  # nobody drives MISO: the line floats high
        for cs, device in self.devices.items():
            if level(cs) == 0:
                miso &= device.exchange(mosi)  # two drivers at once: zeros win
        return miso


class SPI:
    MSB = 0
    LSB = 1

    def __init__(self, id, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate
        self.mode = (polarity, phase)
        self.bus = state.bus(id)

    def write(self, buf):
        for byte in bytes(buf):
            self.bus.exchange(byte)

    def read(self, nbytes, write=0x00):
        return bytes([self.bus.exchange(write) for _ in range(nbytes)])

    def readinto(self, buf, write=0x00):
        for i in range(len(buf)):
            buf[i] = self.bus.exchange(write)

    def write_readinto(self, write_buf, read_buf):
        if len(write_buf) != len(read_buf):
            raise ValueError("buffers must be the same length")
        for i, byte in enumerate(bytes(write_buf)):
            read_buf[i] = self.bus.exchange(byte)


class WDT:
    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("timeout out of range")  # the RP2040's limit
        self.timeout = timeout
        self.feeds = 0
        state.wdts.append(self)

    def feed(self):
        self.feeds += 1


class _Mem32:
    def __getitem__(self, address):
        return state.mem32.get(address, 0x40000000 | 0x7FFFFF)  # enabled, some count

    def __setitem__(self, address, value):
        if not 0 <= value <= 0xFFFFFFFF:
            raise OverflowError("mem32 value out of range")
        state.mem32[address] = value
        state.mem32_writes.append((address, value))


def unique_id():
    return b"\xe6\x61\x38\x97\x0b\x2c\x1d\x2a"


def reset():
    raise SystemExit("machine.reset() called")


# -- neopixel --------------------------------------------------------------------------------


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.pixels = [(0, 0, 0)] * n
        self.writes: list[tuple] = []
        state.neopixels.append(self)

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        value = tuple(value)
        if len(value) != 3 or not all(0 <= c <= 255 for c in value):
            raise ValueError(f"bad pixel {value!r}")
        self.pixels[index] = value

    def __getitem__(self, index):
        return self.pixels[index]

    def fill(self, value):
        for i in range(self.n):
            self[i] = value

    def write(self):
        self.writes.append(tuple(self.pixels))


# -- micropython -----------------------------------------------------------------------------


def kbd_intr(char):
    state.kbd_intr.append(char)


def const(value):
    return value


# -- installing ------------------------------------------------------------------------------

mem32 = _Mem32()  # so that this module itself can stand in for ``machine`` on MicroPython


def install() -> None:
    """Put the fake modules into ``sys.modules`` (imports then find them first)."""
    try:
        import types
    except ImportError:  # MicroPython cannot make module objects: this one stands in for all
        this = sys.modules[__name__]
        for name in ("machine", "neopixel", "micropython"):
            sys.modules[name] = this
        return

    def module(name, **members):
        made = types.ModuleType(name)
        made.__dict__.update(members)
        made.__doc__ = "fake MicroPython %s (tests/firmware/fw_fakes.py)" % name
        return made

    sys.modules.setdefault("machine", module(
        "machine", Pin=Pin, SPI=SPI, WDT=WDT, mem32=mem32, unique_id=unique_id, reset=reset))
    sys.modules.setdefault("neopixel", module("neopixel", NeoPixel=NeoPixel))
    sys.modules.setdefault("micropython", module("micropython", kbd_intr=kbd_intr, const=const))


def reset_state() -> State:
    """A clean board for the next test (pins, buses, watchdogs, records)."""
    global state
    state = State()
    return state
