"""The box's config file: which pins, which screen, which readers, which defaults.

The file is TOML, ``/etc/companion/config.toml`` unless ``--config`` names another,
and every key in it is optional: the defaults are the reference build (docs/design.md).
A maker edits it with a text editor on a box with no keyboard or screen attached,
so loading is strict and every problem is ONE line naming the file, the line and
the dotted key::

    /etc/companion/config.toml line 7: buttons.ok: expected a GPIO number 0-27, got "five"
    /etc/companion/config.toml line 12: unknown key "buttons.exchnage" (did you mean "buttons.exchange"?)

Unknown tables and keys are errors, because a typo that is silently ignored leaves
a box wired one way and configured another. tomllib reports a line only for syntax
errors, so :func:`_key_lines` scans the text for where each key was written.

``dumps_defaults()`` is the commented skeleton ``install.sh`` writes (and
``examples/config.toml``): every key, commented out at its default, so an installed
file changes nothing until someone uncomments a line. ``python -m companion.config
check [PATH]`` validates a file; ``python -m companion.config defaults`` prints the
skeleton.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import os
import re
import sys
import tomllib
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from . import parsing
from .i18n import LANGUAGES

if TYPE_CHECKING:
    from .session import SessionConfig

DEFAULT_PATH = "/etc/companion/config.toml"
DEFAULT_STATE_DIR = "/var/lib/companion"

GPIO_MAX = 27  # BCM numbers of the 40-pin header's GPIOs
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600,
              1000000)
MAX_PADS = 8
QNO_SEATS = 6
TRACK_SPACES = 12
# The order of leds.planet_pins, as the design lists the planets. Spelled out here
# (not imported from the engine) so reading the config stays cheap at boot.
PLANET_ORDER = ("ZERO", "ONE", "PLUS", "MINUS", "PHI_PLUS", "PHI_MINUS", "PSI_PLUS",
                "PSI_MINUS", "OMEGA_ZERO", "OMEGA_ONE", "OMEGA_TWO", "OMEGA_THREE")
START_SPACES = (1, 2, 4)  # the rule book's easy "1", easy "2" and challenging "3"
SEATS = ("mercurial", "rubicon", "shared")
BUTTON_KEYS = {"ok": "OK", "back": "BACK", "up": "UP", "down": "DOWN",
               "retrieve": "RETRIEVE", "exchange": "EXCHANGE"}  # file key -> inputs name

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_TOML_AT_LINE = re.compile(r"(.*) \(at line (\d+), column \d+\)", re.DOTALL)
_TOML_AT_END = re.compile(r"(.*) \(at end of document\)", re.DOTALL)


class ConfigError(Exception):
    """A bad config file. ``str()`` is always one line; ``line`` and ``key`` when known."""

    def __init__(self, message: str, *, line: int | None = None, key: str | None = None):
        super().__init__(_one_line(message))
        self.line = line
        self.key = key


# ------------------------------------------------------------------ the settings


@dataclass(frozen=True)
class OledConfig:
    """The screen, handed to luma.oled. ``address`` is for i2c, the pins for spi."""

    driver: str = "ssd1306"  # ssd1306 | sh1106 | ssd1309 | ssd1315 | none
    bus: str = "i2c"  # i2c | spi
    port: int = 1  # I2C bus number, or SPI port (the file's default is 0 for spi)
    address: int = 0x3C
    spi_device: int = 0
    dc_pin: int = 24
    rst_pin: int = 25
    rotation: int = 0  # degrees, as people say it: 0 or 180 (the views draw landscape)
    contrast: int = 255
    width: int = 128  # the only size the views draw
    height: int = 64
    dim_after: float = 300.0  # seconds without an input before the panel dims; 0 = never

    @property
    def rotate(self) -> int:
        """luma's ``rotate`` argument: quarter turns, 0..3."""
        return self.rotation // 90


@dataclass(frozen=True)
class PrivateOledConfig:
    """QLANET's private channel: a small OLED at each camp's seat, of the [oled] driver
    and size, on I2C. ``addresses[i]`` is camp i's; ``ports`` the I2C bus of each
    (empty: the [oled] port). Without one a camp peeks on the shared screen."""

    addresses: tuple[int, ...] = ()
    ports: tuple[int, ...] = ()
    # SDA and SCL of the one I2C bus other than 1 that they use (its dtoverlay decides),
    # so no button or LED is given the same pins.
    bus_pins: tuple[int, ...] = ()

    def screens(self, default_port: int) -> dict[int, tuple[int, int]]:
        """Camp -> (I2C bus, address)."""
        ports = self.ports or (default_port,) * len(self.addresses)
        return {camp: (port, address)
                for camp, (port, address) in enumerate(zip(ports, self.addresses))}


@dataclass(frozen=True)
class ButtonsConfig:
    """Button name (as in :mod:`companion.inputs`) -> BCM pin, and press timing."""

    pins: dict[str, int] = field(default_factory=lambda: {
        "OK": 5, "BACK": 6, "UP": 13, "DOWN": 19, "RETRIEVE": 26, "EXCHANGE": 16})
    hold_time: float = 0.8  # seconds
    debounce: float = 0.03  # seconds; 0 = none
    pull_up: bool = True


@dataclass(frozen=True)
class LinkConfig:
    """The serial link to the co-processor (a udev rule gives it a stable name)."""

    device: str = "/dev/companion-io"
    baud: int = 115200


@dataclass(frozen=True)
class ReaderConfig:
    """Where tag reads come from. ``rdm6300[i]`` is the reader of pad ``i + 1``."""

    kind: str = "firmware"  # firmware | rdm6300 | none
    rdm6300: tuple[str, ...] = ()
    rdm6300_baud: int = 9600


@dataclass(frozen=True)
class LedsConfig:
    """Where LED frames go; the pins are for the gpio sink only."""

    sink: str = "firmware"  # firmware | gpio | none
    brightness: int = 64  # global cap, 0..255
    track_pins: tuple[int, ...] = ()  # detection track spaces 1..N
    planet_pins: tuple[int, ...] = ()  # none, or 12 in PLANET_ORDER
    off_at_exit: bool = True
    map: str | None = None  # LED map file; None = the reference build's (hardware/led-map.json)

    @property
    def planets(self) -> dict[str, int]:
        """Planet name -> pin, so a sink never depends on the file's order."""
        return dict(zip(PLANET_ORDER, self.planet_pins))


@dataclass(frozen=True)
class BuzzerConfig:
    pin: int | None = None  # the reference build uses GPIO 12 when one is fitted


@dataclass(frozen=True)
class WebConfig:
    """The table's web page (off: the box opens no network socket at all)."""

    enabled: bool = False
    address: str = "0.0.0.0"  # every IPv4 interface of the box; "127.0.0.1": this box only
    port: int = 8080
    control: bool = False  # a browser paired with the PIN on the OLED may press buttons


@dataclass(frozen=True)
class GameConfig:
    """Game-night defaults; the pads map reader pad numbers to seats (None = shared)."""

    pads: dict[int, str | None] = field(
        default_factory=lambda: {1: "mercurial", 2: "rubicon", 3: None})
    deck: str = "virtual"  # virtual | physical
    dice: str = "auto"  # auto | manual
    start_space: int = 1  # the difficulty offered first at setup
    qno_pads: dict[int, int | None] = field(default_factory=dict)  # pad -> QNO player
    language: str = "en"  # the table's language until Settings > Language changes it


def _default_state_dir(environ: Mapping[str, str]) -> str:
    # systemd's StateDirectory= sets $STATE_DIRECTORY (colon-separated if it lists several).
    first = environ.get("STATE_DIRECTORY", "").split(":")[0]
    return first or DEFAULT_STATE_DIR


@dataclass(frozen=True)
class PathsConfig:
    state_dir: str = field(default_factory=lambda: _default_state_dir(os.environ))
    registry: str | None = None  # the tag registry; None = <state_dir>/tags.toml

    @property
    def registry_path(self) -> str:
        if self.registry is not None:
            return self.registry
        return os.path.join(self.state_dir, "tags.toml")


@dataclass(frozen=True)
class Config:
    path: str | None = None  # the file read, or None when running on defaults
    oled: OledConfig = field(default_factory=OledConfig)
    private_oled: PrivateOledConfig = field(default_factory=PrivateOledConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    link: LinkConfig = field(default_factory=LinkConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    web: WebConfig = field(default_factory=WebConfig)
    game: GameConfig = field(default_factory=GameConfig)
    paths: PathsConfig = field(default_factory=PathsConfig)


# ------------------------------------------------------------------ loading


def load(path: str | os.PathLike[str] | None = None,
         environ: Mapping[str, str] = os.environ) -> Config:
    """Read the config file; any problem is a one-line :class:`ConfigError`.

    ``path=None`` means the default file if there is one, else the defaults: a box
    with the reference wiring needs no config file at all. A path given explicitly
    must exist.
    """
    name = DEFAULT_PATH if path is None else os.fsdecode(os.fspath(path))
    text = _read(name, missing_ok=path is None)
    if text is None:
        return Config(paths=PathsConfig(state_dir=_default_state_dir(environ)))
    return _parse(text, name, environ)


def session_config(config: Config) -> SessionConfig:
    """The :class:`companion.session.SessionConfig` for ``config``."""
    from .session import SessionConfig  # lazily: the session pulls in the game engines

    game = config.game
    return SessionConfig(pads=dict(game.pads), deck=game.deck, dice=game.dice,
                         start_space=game.start_space, qno_pads=dict(game.qno_pads),
                         private_screens=tuple(range(len(config.private_oled.addresses))))


def _read(name: str, missing_ok: bool) -> str | None:
    try:
        with open(name, "rb") as fh:
            data = fh.read()
    except FileNotFoundError as exc:
        if missing_ok:
            return None
        raise ConfigError(f"{name}: cannot read: {exc.strerror or exc}") from None
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")  # a BOM from a Windows editor is harmless
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{name} line {line}: not UTF-8 text (byte {exc.start})",
                          line=line) from None


def _parse(text: str, name: str, environ: Mapping[str, str]) -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        if m := _TOML_AT_LINE.fullmatch(message):
            raise ConfigError(f"{name} line {m[2]}: TOML syntax: {m[1]}",
                              line=int(m[2])) from None
        if m := _TOML_AT_END.fullmatch(message):
            raise ConfigError(f"{name}: TOML syntax: {m[1]} at the end of the file") from None
        raise ConfigError(f"{name}: TOML syntax: {message}") from None
    except RecursionError:
        raise ConfigError(f"{name}: TOML syntax: values nested too deeply") from None
    except ValueError as exc:  # a number too long for Python to convert
        problem = parsing.problem(exc, text) or str(exc)
        line = problem.split(":", 1)[0].removeprefix("line ")
        raise ConfigError(f"{name} {problem}" if line.isdigit() else f"{name}: {problem}",
                          line=int(line) if line.isdigit() else None) from None

    rd = _Reader(name, text, data)
    config = Config(
        path=name, oled=_oled(rd), private_oled=_private_oled(rd), buttons=_buttons(rd),
        link=_link(rd),
        reader=_reader(rd), leds=_leds(rd), buzzer=_buzzer(rd), web=_web(rd),
        game=_game(rd),
        paths=_paths(rd, environ),
    )
    rd.check_unknown()
    rd.raise_first()
    # Checks across keys only make sense once every key is valid on its own.
    _check_needed(rd, config)
    _check_screens(rd, config)
    _check_second_bus(rd, config)
    _check_pins(rd, config)
    rd.raise_first()
    return config


class _Bad(Exception):
    """A value's problem, before the loader adds the file, line and key."""


class _Reader:
    """Hands out checked values and keeps the problems, to report the earliest line."""

    def __init__(self, name: str, text: str, data: dict[str, Any]):
        self.name = name
        self.base = os.path.dirname(os.path.abspath(name))
        self.data = data
        self.lines = _key_lines(text)
        self.tables: dict[str, dict[str, Any]] = {}
        self.known: dict[str, list[str]] = {}  # every key asked for: what "did you mean" knows
        self.problems: list[ConfigError] = []

    def line(self, *path: str) -> int | None:
        return self.lines.get(path)

    def report(self, text: str, line: int | None, key: str | None) -> None:
        where = f"{self.name} line {line}" if line else self.name
        self.problems.append(ConfigError(f"{where}: {text}", line=line, key=key))

    def problem(self, path: tuple[str, ...], text: str, line: int | None = None) -> None:
        key = _key(*path)
        self.report(f"{key}: {text}", line or self.lines.get(path), key)

    def raise_first(self) -> None:
        if self.problems:
            # The earliest line first: people fix a file from the top down.
            raise min(self.problems, key=lambda e: (e.line is None, e.line or 0))

    def table(self, name: str) -> dict[str, Any]:
        if name not in self.tables:
            self.known.setdefault(name, [])
            value = self.data.get(name, {})
            if not isinstance(value, dict):
                self.problem((name,), f"expected a table like [{name}], got {_show(value)}")
                value = {}
            self.tables[name] = value
        return self.tables[name]

    def get(self, table: str, key: str, check: Callable[[Any], Any], default: Any) -> Any:
        values = self.table(table)
        self.known[table].append(key)
        if key not in values:
            return default
        try:
            return check(values[key])
        except _Bad as bad:
            self.problem((table, key), str(bad))
            return default

    def path(self, value: Any, *, urls: bool = False) -> str:
        """A non-empty path; relative ones are relative to the config file's folder."""
        if not isinstance(value, str) or not value or "\0" in value:
            raise _Bad(f"expected a path, got {_show(value)}")
        if urls and "://" in value:
            return value  # a pyserial URL such as socket://host:port
        return os.path.normpath(os.path.join(self.base, value))

    def check_unknown(self) -> None:
        for name, value in self.data.items():
            if name not in self.known:
                kind = "table" if isinstance(value, dict) else "key"
                self.report(f"unknown {kind} {_quote(_key(name))}{self._hint(None, name)}",
                            self.line(name), _key(name))
            elif isinstance(value, dict):
                for key in value:
                    if key not in self.known[name]:
                        dotted = _key(name, key)
                        self.report(f"unknown key {_quote(dotted)}{self._hint(name, key)}",
                                    self.line(name, key), dotted)

    def _hint(self, table: str | None, key: str) -> str:
        """' (did you mean "buttons.exchange"?)' for a likely typo, else ''."""
        here = self.known[table] if table is not None else list(self.known)
        folded = {k.casefold(): k for k in here}
        close = difflib.get_close_matches(key.casefold(), folded, n=1, cutoff=0.6)
        if close:
            match = folded[close[0]]
            guess = _key(table, match) if table is not None else _key(match)
        else:  # the right key in the wrong table, e.g. ``driver`` above any [oled]
            guess = next((_key(t, key) for t, keys in self.known.items()
                          if t != table and key in keys), None)
            if guess is None and table is not None and key in self.known:
                guess = _key(key)
        return f" (did you mean {_quote(guess)}?)" if guess else ""


# ------------------------------------------------------------------ value checks


def _show(value: Any) -> str:
    """A value as the message quotes it: TOML-ish, short, and never multi-line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return "a date or time"


def _unquoted_hint(value: Any) -> str:
    # ``ok = "5"`` is a common slip; say what to write instead of just "no".
    if isinstance(value, str):
        try:
            int(value.strip(), 0)
        except ValueError:
            return ""
        return " (write numbers without quotes)"
    return ""


def _integer(what: str, low: int, high: int, show: Callable[[int], str] = str,
             ) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        # bool is an int subclass in Python but never a number in a config file
        if type(value) is int and low <= value <= high:
            return value
        got = show(value) if type(value) is int else _show(value)
        raise _Bad(f"expected {what} {show(low)}-{show(high)}, got {got}"
                   + _unquoted_hint(value))
    return check


_gpio = _integer("a GPIO number", 0, GPIO_MAX)


def _optional_gpio(value: Any) -> int | None:
    if value is False:
        return None
    try:
        return _gpio(value)
    except _Bad:
        raise _Bad(f"expected a GPIO number 0-{GPIO_MAX} or false, got {_show(value)}"
                   + _unquoted_hint(value)) from None


def _seconds(low: float, high: float) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if (isinstance(value, (int, float)) and not isinstance(value, bool)
                and math.isfinite(value) and low <= value <= high):
            return float(value)
        raise _Bad(f"expected a time in seconds {low:g}-{high:g}, got {_show(value)}"
                   + _unquoted_hint(value))
    return check


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise _Bad(f"expected true or false, got {_show(value)}")


def _or(options: tuple[Any, ...]) -> str:
    words = [str(o) for o in options]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _choice(what: str, options: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if isinstance(value, str) and value in options:
            return value
        if isinstance(value, str):
            raise _Bad(f"unknown {what} {_show(value)} (choose {_or(options)})")
        raise _Bad(f"expected {_or(options)}, got {_show(value)}")
    return check


def _one_of(what: str, options: tuple[int, ...]) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if type(value) is int and value in options:
            return value
        raise _Bad(f"expected {what} {_or(options)}, got {_show(value)}"
                   + _unquoted_hint(value))
    return check


def _drawable(options: tuple[int, ...], why: str) -> Callable[[Any], int]:
    """A panel setting the views can draw: anything else fails every frame."""
    def check(value: Any) -> int:
        if type(value) is int and value in options:
            return value
        raise _Bad(f"expected {_or(options) if len(options) > 1 else options[0]} ({why}), "
                   f"got {_show(value)}" + _unquoted_hint(value))
    return check


_SIZE = "pixels; the screens are drawn for 128x64 panels"


def _pin_list(what: str, label: Callable[[int], str], sizes: Callable[[int], bool],
              ) -> Callable[[Any], tuple[int, ...]]:
    def check(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list):
            hint = f" (write [{value}])" if type(value) is int else ""
            raise _Bad(f"expected a list of GPIO numbers, got {_show(value)}{hint}")
        if not sizes(len(value)):
            raise _Bad(f"expected {what}, got {len(value)}")
        for i, pin in enumerate(value):
            try:
                _gpio(pin)
            except _Bad as bad:
                raise _Bad(f"{label(i)}: {bad}") from None
        return tuple(value)
    return check


# ------------------------------------------------------------------ the tables


_address = _integer("an I2C address", 0x03, 0x77, "0x{:02X}".format)


# luma.oled's drivers for 128x64 monochrome panels with one command set (the SSD1309
# and SSD1315 are SSD1306 variants; the SH1106 has a 132-column RAM).
OLED_DRIVERS = ("ssd1306", "sh1106", "ssd1309", "ssd1315", "none")


def _oled(rd: _Reader) -> OledConfig:
    d, t = OledConfig(), "oled"
    bus = rd.get(t, "bus", _choice("bus", ("i2c", "spi")), d.bus)
    return OledConfig(
        driver=rd.get(t, "driver", _choice("driver", OLED_DRIVERS), d.driver),
        bus=bus,
        # Screens sit on I2C bus 1 but SPI port 0 (luma's own defaults), so switching
        # to spi must not quietly mean SPI1.
        port=rd.get(t, "port", _integer("a bus number", 0, 255), 0 if bus == "spi" else d.port),
        address=rd.get(t, "address", _address, d.address),
        spi_device=rd.get(t, "spi_device", _integer("an SPI chip select", 0, 3), d.spi_device),
        dc_pin=rd.get(t, "dc_pin", _gpio, d.dc_pin),
        rst_pin=rd.get(t, "rst_pin", _gpio, d.rst_pin),
        # The screens are drawn 128x64 landscape: a panel turned a quarter or of
        # another size would fail every frame, so only what the views draw is accepted.
        rotation=rd.get(t, "rotation", _drawable((0, 180), "degrees; the screens are "
                                                  "landscape"), d.rotation),
        contrast=rd.get(t, "contrast", _integer("a contrast", 0, 255), d.contrast),
        width=rd.get(t, "width", _drawable((128,), _SIZE), d.width),
        height=rd.get(t, "height", _drawable((64,), _SIZE), d.height),
        dim_after=rd.get(t, "dim_after", _seconds(0, 86400), d.dim_after),
    )


def _private_oled(rd: _Reader) -> PrivateOledConfig:
    d, t = PrivateOledConfig(), "private_oled"

    def numbers(what: str, check: Callable[[Any], int]) -> Callable[[Any], tuple[int, ...]]:
        def parse(value: Any) -> tuple[int, ...]:
            if not isinstance(value, list):
                hint = f" (write [{_show(value)}])" if type(value) is int else ""
                raise _Bad(f"expected a list of {what}, camp 0 first, got {_show(value)}{hint}")
            if len(value) > 2:
                raise _Bad(f"expected at most 2 {what} (camps 0 and 1), got {len(value)}")
            for i, item in enumerate(value):
                try:
                    check(item)
                except _Bad as bad:
                    raise _Bad(f"camp {i}: {bad}") from None
            return tuple(value)
        return parse

    addresses = rd.get(t, "addresses", numbers("I2C addresses", _address), d.addresses)
    ports = rd.get(t, "ports", numbers("I2C bus numbers", _integer("a bus number", 0, 255)),
                   d.ports)
    if ports and len(ports) != len(addresses):
        rd.problem((t, "ports"), f"expected one bus per address ({len(addresses)}), "
                                 f"got {len(ports)}")
    bus_pins = rd.get(t, "bus_pins", _pin_pair, d.bus_pins)
    return PrivateOledConfig(addresses=addresses, ports=ports, bus_pins=bus_pins)


def _pin_pair(value: Any) -> tuple[int, ...]:
    if value == []:
        return ()  # none: every private OLED is on bus 1
    if not isinstance(value, list) or len(value) != 2:
        raise _Bad(f"expected [SDA, SCL], two GPIO numbers, got {_show(value)}")
    return tuple(_gpio(pin) for pin in value)


def _buttons(rd: _Reader) -> ButtonsConfig:
    d, t = ButtonsConfig(), "buttons"
    return ButtonsConfig(
        pins={name: rd.get(t, key, _gpio, d.pins[name]) for key, name in BUTTON_KEYS.items()},
        hold_time=rd.get(t, "hold_time", _seconds(0.2, 5), d.hold_time),
        debounce=rd.get(t, "debounce", _seconds(0, 0.5), d.debounce),
        pull_up=rd.get(t, "pull_up", _boolean, d.pull_up),
    )


def _link(rd: _Reader) -> LinkConfig:
    d, t = LinkConfig(), "link"
    return LinkConfig(
        device=rd.get(t, "device", lambda v: rd.path(v, urls=True), d.device),
        baud=rd.get(t, "baud", _one_of("a baud rate", BAUD_RATES), d.baud),
    )


def _reader(rd: _Reader) -> ReaderConfig:
    d, t = ReaderConfig(), "reader"

    def devices(value: Any) -> tuple[str, ...]:
        if not isinstance(value, list):
            hint = f" (write [{_show(value)}])" if isinstance(value, str) else ""
            raise _Bad(f"expected a list of device paths, one per pad, got {_show(value)}{hint}")
        if len(value) > MAX_PADS:
            raise _Bad(f"expected at most {MAX_PADS} readers (pads 1-{MAX_PADS}), "
                       f"got {len(value)}")
        out: list[str] = []
        for i, item in enumerate(value):
            try:
                path = rd.path(item, urls=True)
            except _Bad as bad:
                raise _Bad(f"pad {i + 1}: {bad}") from None
            if path in out:
                raise _Bad(f"pad {i + 1}: {_show(item)} is already pad {out.index(path) + 1}")
            out.append(path)
        return tuple(out)

    return ReaderConfig(
        kind=rd.get(t, "kind", _choice("reader kind", ("firmware", "rdm6300", "none")), d.kind),
        rdm6300=rd.get(t, "rdm6300", devices, d.rdm6300),
        rdm6300_baud=rd.get(t, "rdm6300_baud", _one_of("a baud rate", BAUD_RATES),
                            d.rdm6300_baud),
    )


def _leds(rd: _Reader) -> LedsConfig:
    d, t = LedsConfig(), "leds"
    return LedsConfig(
        sink=rd.get(t, "sink", _choice("LED sink", ("firmware", "gpio", "none")), d.sink),
        brightness=rd.get(t, "brightness", _integer("a brightness", 0, 255), d.brightness),
        track_pins=rd.get(t, "track_pins", _pin_list(
            f"1-{TRACK_SPACES} pins (one per detection-track space)",
            lambda i: f"space {i + 1}", lambda n: n <= TRACK_SPACES), d.track_pins),
        planet_pins=rd.get(t, "planet_pins", _pin_list(
            f"{len(PLANET_ORDER)} pins (one per planet) or none",
            lambda i: PLANET_ORDER[i], lambda n: n in (0, len(PLANET_ORDER))), d.planet_pins),
        off_at_exit=rd.get(t, "off_at_exit", _boolean, d.off_at_exit),
        map=rd.get(t, "map", rd.path, d.map),
    )


def _buzzer(rd: _Reader) -> BuzzerConfig:
    return BuzzerConfig(pin=rd.get("buzzer", "pin", _optional_gpio, BuzzerConfig().pin))


def _ip_address(value: Any) -> str:
    import ipaddress

    try:
        return str(ipaddress.ip_address(value if isinstance(value, str) else "?"))
    except ValueError:
        raise _Bad(f"expected an IP address such as \"0.0.0.0\" or \"127.0.0.1\", "
                   f"got {_show(value)}") from None


def _web(rd: _Reader) -> WebConfig:
    d, t = WebConfig(), "web"
    return WebConfig(
        enabled=rd.get(t, "enabled", _boolean, d.enabled),
        address=rd.get(t, "address", _ip_address, d.address),
        port=rd.get(t, "port", _integer("a port", 1, 65535), d.port),
        control=rd.get(t, "control", _boolean, d.control),
    )


def _pad_table(rd: _Reader, name: str, seat: Callable[[Any], Any], default: dict) -> dict:
    """A table of reader pad -> seat; present, it replaces the default whole (so a pad
    can be taken away). A seat of "shared" is None."""
    table = rd.table(name)
    if name not in rd.data or not isinstance(rd.data[name], dict):
        return default
    found: dict[int, Any] = {}
    for key, value in table.items():
        rd.known[name].append(key)
        if not re.fullmatch(f"[1-{MAX_PADS}]", key):
            rd.problem((name, key), f"no such pad (pads are numbered 1-{MAX_PADS})")
            continue
        try:
            chosen = seat(value)
        except _Bad as bad:
            rd.problem((name, key), str(bad))
            continue
        found[int(key)] = None if chosen == "shared" else chosen
    return dict(sorted(found.items()))


def _qno_seat(value: Any) -> int | str:
    if value == "shared" or (type(value) is int and 1 <= value <= QNO_SEATS):
        return value
    raise _Bad(f"expected a player 1-{QNO_SEATS} or \"shared\", got {_show(value)}")


def _game(rd: _Reader) -> GameConfig:
    d, t = GameConfig(), "game"
    pads = _pad_table(rd, "pads", _choice("seat", SEATS), d.pads)
    qno_pads = _pad_table(rd, "qno_pads", _qno_seat, d.qno_pads)
    return GameConfig(
        pads=pads,
        qno_pads=qno_pads,
        deck=rd.get(t, "deck", _choice("deck mode", ("virtual", "physical")), d.deck),
        dice=rd.get(t, "dice", _choice("dice mode", ("auto", "manual")), d.dice),
        start_space=rd.get(t, "start_space", _one_of("a start space", START_SPACES),
                           d.start_space),
        language=rd.get(t, "language", _choice("language", tuple(LANGUAGES)), d.language),
    )


def _paths(rd: _Reader, environ: Mapping[str, str]) -> PathsConfig:
    t = "paths"
    return PathsConfig(
        state_dir=rd.get(t, "state_dir", rd.path, _default_state_dir(environ)),
        registry=rd.get(t, "registry", rd.path, None),
    )


# ------------------------------------------------------------------ checks across keys


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


# ------------------------------------------------------------------ where keys are written


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Dotted key path -> the line where the file first writes it (or a table header).

    Only called on text tomllib accepted, so the scanner can be simple; if it meets
    something it does not follow it stops, and later keys just have no line.
    """
    scanner = _KeyScanner(text)
    try:
        scanner.run()
    except (_ScanStop, IndexError, ValueError, tomllib.TOMLDecodeError, RecursionError):
        pass
    return scanner.found


class _ScanStop(Exception):
    pass


class _KeyScanner:
    def __init__(self, text: str):
        self.s = text
        self.i = 0
        self.found: dict[tuple[str, ...], int] = {}
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    def note(self, path: tuple[str, ...], pos: int) -> None:
        line = bisect_left(self.newlines, pos) + 1
        for n in range(1, len(path) + 1):  # a.b.c = 1 also writes a and a.b
            self.found.setdefault(path[:n], line)

    def skip(self, newlines: bool) -> None:
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c in " \t" or (newlines and c in "\r\n"):
                self.i += 1
            elif c == "#" and newlines:
                end = s.find("\n", self.i)
                self.i = len(s) if end < 0 else end
            else:
                return

    def run(self) -> None:
        s, table = self.s, ()
        while True:
            self.skip(newlines=True)
            if self.i >= len(s):
                return
            start = self.i
            if s[start] == "[":
                self.i += 2 if s.startswith("[[", start) else 1
                table = self.key()
                self.note(table, start)
                end = s.find("\n", self.i)  # the closing bracket and any comment
                self.i = len(s) if end < 0 else end
            else:
                path = table + self.key()
                self.skip(newlines=False)
                self.expect("=")
                self.note(path, start)
                self.value(path)

    def expect(self, char: str) -> None:
        if self.s[self.i] != char:
            raise _ScanStop
        self.i += 1

    def key(self) -> tuple[str, ...]:
        parts: list[str] = []
        while True:
            self.skip(newlines=False)
            start = self.i
            if self.s[start] in "\"'":
                self.string()
                raw = self.s[start:self.i]
                # Let tomllib decode the escapes, so the key is exactly the one it parsed.
                parts.append(tomllib.loads(f"k = {raw}")["k"])
            else:
                m = _BARE_KEY.match(self.s, start)
                if not m:
                    raise _ScanStop
                parts.append(m.group())
                self.i = m.end()
            self.skip(newlines=False)
            if self.i < len(self.s) and self.s[self.i] == ".":
                self.i += 1
                continue
            return tuple(parts)

    def value(self, path: tuple[str, ...] | None) -> None:
        """Skip one value; keys inside an inline table are noted under ``path``."""
        self.skip(newlines=False)
        s, start = self.s, self.i
        c = s[start]
        if c in "\"'":
            self.string()
        elif c == "[":
            self.i += 1
            while True:  # array items are not keys: note nothing inside
                self.skip(newlines=True)
                if s[self.i] == "]":
                    self.i += 1
                    break
                if s[self.i] == ",":
                    self.i += 1
                    continue
                self.value(None)
        elif c == "{":
            self.i += 1
            while True:
                self.skip(newlines=True)  # TOML 1.1 allows newlines in inline tables
                if s[self.i] == "}":
                    self.i += 1
                    break
                if s[self.i] == ",":
                    self.i += 1
                    continue
                at = self.i
                sub = self.key()
                self.skip(newlines=False)
                self.expect("=")
                if path is not None:
                    self.note(path + sub, at)
                self.value(None if path is None else path + sub)
        else:  # number, boolean or date: runs to a delimiter
            while self.i < len(s) and s[self.i] not in ",]}#\r\n":
                self.i += 1
        if self.i == start:
            raise _ScanStop  # no progress: something this scanner does not know

    def string(self) -> None:
        s, i = self.s, self.i
        quote = s[i]
        if s.startswith(quote * 3, i):
            j = i + 3
            while not s.startswith(quote * 3, j):
                if s[j] == "\\" and quote == '"':
                    j += 1
                j += 1
                if j >= len(s):
                    raise _ScanStop
            j += 3
            while j < len(s) and s[j] == quote:  # """a"""" ends with up to two quotes inside
                j += 1
            self.i = j
            return
        j = i + 1
        while s[j] != quote:
            if s[j] == "\\" and quote == '"':
                j += 1
            j += 1
        self.i = j + 1


# ------------------------------------------------------------------ text helpers


def _key(*parts: str) -> str:
    """A dotted key as TOML writes it: bare parts bare, the others quoted."""
    return ".".join(p if _BARE_KEY.fullmatch(p) else json.dumps(p) for p in parts)


def _quote(text: str) -> str:
    return f'"{text}"'


def _one_line(text: str) -> str:
    # Paths and keys come from people; no control character may break the one line.
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# ------------------------------------------------------------------ the skeleton


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string of ASCII text is a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def dumps_defaults() -> str:
    """The commented config skeleton: every key, commented out at its default.

    ``#key = value`` lines are defaults (uncomment one to change it); ``# `` lines
    are prose. The tests check that uncommenting every default changes nothing.
    """
    d = Config(paths=PathsConfig(state_dir=DEFAULT_STATE_DIR))
    o, b, ln, r, le, g = d.oled, d.buttons, d.link, d.reader, d.leds, d.game
    config_web = d.web
    v = _toml
    out = [
        "# Companion box configuration (TOML).",
        "#",
        "# Every key is optional. A line like '#key = value' shows the default: remove",
        "# the '#' and edit the value to change it. GPIO pins are BCM numbers 0-27 and",
        "# no pin may serve two things. Relative paths are relative to this file's",
        "# folder. A mistake stops the box with one line naming this file, the line",
        "# and the key; 'python -m companion.config check FILE' checks a file.",
        "",
        "[oled]",
        "# Screen controller: ssd1306, sh1106, ssd1309, ssd1315, or none (no screen).",
        f"#driver = {v(o.driver)}",
        "# How it is wired: i2c or spi.",
        f"#bus = {v(o.bus)}",
        "# I2C bus number, or SPI port (unset with spi: 0). I2C bus 1 is GPIO 2 and 3.",
        f"#port = {v(o.port)}",
        "# I2C address (i2c only), 0x03-0x77.",
        f"#address = 0x{o.address:02X}",
        "# SPI chip select (spi only): 0 = CE0 (GPIO 8), 1 = CE1 (GPIO 7).",
        f"#spi_device = {v(o.spi_device)}",
        "# Data/command and reset pins (spi only).",
        f"#dc_pin = {v(o.dc_pin)}",
        f"#rst_pin = {v(o.rst_pin)}",
        "# Rotation in degrees: 0 or 180 (upside down).",
        f"#rotation = {v(o.rotation)}",
        "# Contrast, 0-255.",
        f"#contrast = {v(o.contrast)}",
        "# Size in pixels: the screens are drawn for 128x64 only.",
        f"#width = {v(o.width)}",
        f"#height = {v(o.height)}",
        "# Seconds without a press or a tap before the screen dims (it wakes with the",
        "# next one), to spare the OLED a picture burnt in. 0 = never dim.",
        f"#dim_after = {v(o.dim_after)}",
        "",
        "[private_oled]",
        "# QLANET's private channel: a small OLED at each camp's seat (same driver and",
        "# size as [oled], on I2C) shows that camp's secret. I2C addresses, camp 0",
        "# first, e.g. [0x3D] or [0x3D, 0x3C] with ports = [1, 3]. A camp without one",
        "# peeks on the shared screen instead (EXCHANGE, then hold EXCHANGE).",
        f"#addresses = {v(d.private_oled.addresses)}",
        "# The I2C bus of each; unset, the [oled] port for all.",
        f"#ports = {v(d.private_oled.ports)}",
        "# SDA and SCL of that other bus, which its dtoverlay decides: e.g. [23, 24]",
        "# with dtoverlay=i2c-gpio,bus=3,i2c_gpio_sda=23,i2c_gpio_scl=24. Required for",
        "# a bus other than 1, so that no button or LED gets the same pins.",
        f"#bus_pins = {v(d.private_oled.bus_pins)}",
        "",
        "[buttons]",
        "# One GPIO per button; each button connects its pin to ground.",
        *(f"#{key} = {v(b.pins[name])}" for key, name in BUTTON_KEYS.items()),
        "# Seconds a press must last to be a hold (hold BACK = undo), 0.2-5.",
        f"#hold_time = {v(b.hold_time)}",
        "# Debounce time in seconds, 0-0.5 (0 = none).",
        f"#debounce = {v(b.debounce)}",
        "# Use the Pi's internal pull-up resistors.",
        f"#pull_up = {v(b.pull_up)}",
        "",
        "[link]",
        "# Serial device of the co-processor (a udev rule gives it this name).",
        f"#device = {v(ln.device)}",
        "# Baud rate: " + ", ".join(map(str, BAUD_RATES[:6])) + ",",
        f"# {_or(BAUD_RATES[6:])}.",
        f"#baud = {v(ln.baud)}",
        "",
        "[reader]",
        "# Where tag reads come from: firmware (the co-processor's pads), rdm6300",
        "# (serial readers on this Pi), or none (every action chosen with the buttons).",
        f"#kind = {v(r.kind)}",
        "# rdm6300 only: one serial device per pad, pad 1 first, e.g. [\"/dev/ttyS0\"].",
        f"#rdm6300 = {v(r.rdm6300)}",
        f"#rdm6300_baud = {v(r.rdm6300_baud)}",
        "",
        "[leds]",
        "# Where LED frames go: firmware (the co-processor's LED chain), gpio (LEDs on",
        "# this Pi's pins), or none.",
        f"#sink = {v(le.sink)}",
        "# Brightness cap for every LED, 0-255.",
        f"#brightness = {v(le.brightness)}",
        f"# gpio only: detection-track LEDs for spaces 1..N (1-{TRACK_SPACES} pins).",
        f"#track_pins = {v(le.track_pins)}",
        f"# gpio only, optional: {len(PLANET_ORDER)} planet LEDs, in this order:",
        "# " + " ".join(PLANET_ORDER[:6]),
        "# " + " ".join(PLANET_ORDER[6:]),
        f"#planet_pins = {v(le.planet_pins)}",
        "# Turn the LEDs off when the box stops.",
        f"#off_at_exit = {v(le.off_at_exit)}",
        "# Unset: the chain is wired as in hardware/README.md (hardware/led-map.json).",
        "# Otherwise map = \"FILE\" names an LED map file giving your chain's order.",
        "",
        "[buzzer]",
        "# GPIO of a buzzer (the reference build uses 12), or false for none.",
        "#pin = false",
        "",
        "[web]",
        "# The table's web page: a live view of the game for phones, a laptop or a TV",
        "# on the local network. Off, the box opens no network socket at all. After",
        "# turning it on or off, run systemd/install.sh again (the unit's network).",
        f"#enabled = {v(config_web.enabled)}",
        "# The address to listen on (\"127.0.0.1\": only this box) and its port.",
        f"#address = {v(config_web.address)}",
        f"#port = {v(config_web.port)}",
        "# true: a browser that enters the PIN the OLED shows (menu: Web PIN) may press",
        "# the buttons; every other browser only watches.",
        f"#control = {v(config_web.control)}",
        "",
        "# Which seat each reader pad belongs to: mercurial, rubicon or shared.",
        f"# Pads are numbered 1-{MAX_PADS}. A [pads] table replaces all of these.",
        "#[pads]",
        *(f"#{pad} = {v(seat or 'shared')}" for pad, seat in g.pads.items()),
        "",
        f"# QNO: a [qno_pads] table gives pads to players 1-{QNO_SEATS}, e.g. '1 = 1' and",
        "# '2 = 2'; pads not listed (by default, all) are shared by every player.",
        "",
        "[game]",
        "# Deck: virtual (the box shuffles and says what to take) or physical",
        "# (you shuffle and draw, and tap each card drawn).",
        f"#deck = {v(g.deck)}",
        "# Dice: auto (the box rolls) or manual (roll real dice, enter the number).",
        f"#dice = {v(g.dice)}",
        "# Difficulty offered first at setup: the detection-track start space,",
        "# 1 or 2 (easy) or 4 (challenging).",
        f"#start_space = {v(g.start_space)}",
        "# The table's language: " + ", ".join(f"{c} ({n})" for c, n in LANGUAGES.items())
        + ".",
        "# Settings > Language on the box overrides it (and is remembered).",
        f"#language = {v(g.language)}",
        "",
        "[paths]",
        "# Unset, state_dir is $STATE_DIRECTORY (systemd's StateDirectory=), else",
        f"# {DEFAULT_STATE_DIR}; it holds the journal. Unset, registry (the tag",
        "# registry file) is tags.toml in state_dir. Set them as state_dir = \"DIR\"",
        "# and registry = \"FILE\".",
    ]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.config",
        description="Check a config file, or print the commented defaults.")
    parser.add_argument("command", choices=("check", "defaults"))
    parser.add_argument("path", nargs="?",
                        help=f"the file to check (default: {DEFAULT_PATH} if it exists)")
    args = parser.parse_args(argv)
    if args.command == "defaults":
        if args.path is not None:
            parser.error("defaults takes no path")
        sys.stdout.write(dumps_defaults())
        return 0
    try:
        config = load(args.path)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2  # the exit status the design gives a bad config file
    print(f"{config.path}: ok" if config.path else f"no {DEFAULT_PATH}: using the defaults")
    return 0


if __name__ == "__main__":
    sys.exit(main())
