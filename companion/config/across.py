"""The checks that need several keys, run once every key is valid on its own: what
a choice needs written down, screens that would share a bus address, the pins of a
second I2C bus, and no GPIO serving two things."""

from __future__ import annotations

from dataclasses import dataclass

from .reader import _Reader
from .schema import BUTTON_KEYS, TRACK_SPACES, Config
from .values import _key


def _check_screens(rd: _Reader, config: Config) -> None:
    """Private OLEDs use the [oled] driver, and no two screens share a bus address."""
    oled, private = config.oled, config.private_oled
    if not private.addresses:
        return
    where = ("private_oled", "addresses")
    if oled.driver == "none":
        rd.problem(where, 'private OLEDs use the [oled] driver, but oled.driver is "none"')
        return
    taken: dict[tuple[int, int], str] = {}
    if oled.bus == "i2c":
        taken[(oled.port, oled.address)] = "the shared OLED"
    for camp, spot in private.screens(oled.port).items():
        if spot in taken:
            rd.problem(where, f"camp {camp}: I2C bus {spot[0]} address 0x{spot[1]:02X} is "
                              f"already {taken[spot]}")
            return
        taken[spot] = f"camp {camp}'s OLED"


def _check_second_bus(rd: _Reader, config: Config) -> None:
    """A private OLED on a bus other than 1 needs that bus's pins written down: its
    overlay decides them (dtoverlay=i2c3 on a Pi 4 takes GPIO 4 and 5, and 5 is OK)."""
    if config.oled.driver == "none":
        return
    others = sorted({port for port, _ in config.private_oled.screens(config.oled.port).values()}
                    - {1})
    if len(others) > 1:
        rd.problem(("private_oled", "ports"), f"at most one I2C bus besides bus 1, got "
                                              f"{', '.join(map(str, others))}")
    elif others and not config.private_oled.bus_pins:
        rd.problem(("private_oled", "bus_pins"),
                   f"a private OLED is on I2C bus {others[0]}: write its pins, e.g. "
                   f"bus_pins = [23, 24] with dtoverlay=i2c-gpio,bus={others[0]},"
                   "i2c_gpio_sda=23,i2c_gpio_scl=24 (see hardware/private-oleds.md)",
                   rd.line("private_oled", "ports"))


def _check_needed(rd: _Reader, config: Config) -> None:
    # Point at the list if it is written down, else at the choice that needs it.
    if config.reader.kind == "rdm6300" and not config.reader.rdm6300:
        rd.problem(("reader", "rdm6300"),
                   'reader.kind is "rdm6300" but no reader is listed '
                   '(e.g. rdm6300 = ["/dev/ttyS0"], one per pad)',
                   rd.line("reader", "rdm6300") or rd.line("reader", "kind"))
    if config.leds.sink == "gpio" and not config.leds.track_pins:
        rd.problem(("leds", "track_pins"),
                   'leds.sink is "gpio" but no pins are listed '
                   f"(1-{TRACK_SPACES} pins, one per detection-track space)",
                   rd.line("leds", "track_pins") or rd.line("leds", "sink"))


@dataclass
class _Claim:
    pin: int
    path: tuple[str, ...]  # the key; () for a bus the OLED takes
    entry: str = ""  # which item of a list, e.g. "space 3"
    name: str = ""  # how another message refers to it

    def __post_init__(self) -> None:
        if not self.name:
            self.name = _key(*self.path) + (f" ({self.entry})" if self.entry else "")


def _check_pins(rd: _Reader, config: Config) -> None:
    """No GPIO may serve two things: name the later key and the one it collides with."""
    oled, leds = config.oled, config.leds
    bus: list[_Claim] = []
    pins: list[_Claim] = []
    if oled.driver != "none":
        # The standard buses are fixed pins on every Pi's header; a button there breaks the screen.
        on_i2c1 = (oled.bus == "i2c" and oled.port == 1) or \
            1 in {port for port, _ in config.private_oled.screens(oled.port).values()}
        if on_i2c1:
            bus += [_Claim(2, (), name="the OLED's I2C1 bus (SDA)"),
                    _Claim(3, (), name="the OLED's I2C1 bus (SCL)")]
        if oled.bus == "spi":
            if oled.port == 0:
                bus += [_Claim(10, (), name="the OLED's SPI0 bus (MOSI)"),
                        _Claim(11, (), name="the OLED's SPI0 bus (SCLK)")]
                if oled.spi_device in (0, 1):
                    bus.append(_Claim(8 - oled.spi_device, (),
                                      name=f"the OLED's SPI0 bus (CE{oled.spi_device})"))
            pins += [_Claim(oled.dc_pin, ("oled", "dc_pin")),
                     _Claim(oled.rst_pin, ("oled", "rst_pin"))]
    if oled.driver != "none" and config.private_oled.bus_pins:
        pins += [_Claim(pin, ("private_oled", "bus_pins"), what)
                 for pin, what in zip(config.private_oled.bus_pins, ("SDA", "SCL"))]
    pins += [_Claim(pin, ("buttons", key))
             for key, pin in zip(BUTTON_KEYS, config.buttons.pins.values())]
    if leds.sink == "gpio":  # the pins of an unused sink claim nothing
        pins += [_Claim(pin, ("leds", "track_pins"), f"space {i + 1}")
                 for i, pin in enumerate(leds.track_pins)]
        pins += [_Claim(pin, ("leds", "planet_pins"), planet)
                 for planet, pin in leds.planets.items()]
    if config.buzzer.pin is not None:
        pins.append(_Claim(config.buzzer.pin, ("buzzer", "pin")))

    # Defaults were there first, then keys in the order they are written.
    pins.sort(key=lambda c: rd.lines.get(c.path, 0))
    seen: dict[int, _Claim] = {}
    for claim in bus + pins:
        other = seen.setdefault(claim.pin, claim)
        if other is claim:
            continue
        if not other.path:
            where = ""
        elif other.path not in rd.lines:
            where = " (its default)"
        elif rd.lines[other.path] != rd.lines.get(claim.path):
            where = f" on line {rd.lines[other.path]}"
        else:
            where = ""
        entry = f"{claim.entry}: " if claim.entry else ""
        rd.problem(claim.path, f"{entry}GPIO {claim.pin} is already used by {other.name}{where}")
        return
