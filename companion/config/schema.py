"""Every setting of the config file: its table, its default, and the limits the
checks hold it to. The defaults are the reference build (docs/design.md)."""

from __future__ import annotations

import os
from dataclasses import field
from typing import Mapping

from ..frozen import frozen

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

# luma.oled's drivers for 128x64 monochrome panels with one command set (the SSD1309
# and SSD1315 are SSD1306 variants; the SH1106 has a 132-column RAM).
OLED_DRIVERS = ("ssd1306", "sh1106", "ssd1309", "ssd1315", "none")


@frozen
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


@frozen
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


@frozen
class ButtonsConfig:
    """Button name (as in :mod:`companion.inputs`) -> BCM pin, and press timing."""

    pins: dict[str, int] = field(default_factory=lambda: {
        "OK": 5, "BACK": 6, "UP": 13, "DOWN": 19, "RETRIEVE": 26, "EXCHANGE": 16})
    hold_time: float = 0.8  # seconds
    # Seconds; 0 = none. A press counts at its first edge (no added latency); the
    # chatter after each edge is ignored for this long. Cheap tactile switches chatter
    # for up to 50 ms; 60 ms leaves a margin and still keeps both presses of a quick
    # double press (50 ms down, 50 ms up). Measured by bench/bounce.py.
    debounce: float = 0.06
    pull_up: bool = True


@frozen
class LinkConfig:
    """The serial link to the co-processor (a udev rule gives it a stable name)."""

    device: str = "/dev/companion-io"
    baud: int = 115200


@frozen
class ReaderConfig:
    """Where tag reads come from. ``rdm6300[i]`` is the reader of pad ``i + 1``."""

    kind: str = "firmware"  # firmware | rdm6300 | none
    rdm6300: tuple[str, ...] = ()
    rdm6300_baud: int = 9600


@frozen
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


@frozen
class BuzzerConfig:
    """The optional buzzer's pin."""

    pin: int | None = None  # the reference build uses GPIO 12 when one is fitted


@frozen
class WebConfig:
    """The table's web page (off: the box opens no network socket at all)."""

    enabled: bool = False
    address: str = "0.0.0.0"  # every IPv4 interface of the box; "127.0.0.1": this box only
    port: int = 8080
    control: bool = False  # a browser paired with the PIN on the OLED may press buttons


# An MQTT topic level the box writes: no wildcard, no level separator, no NUL; kept
# to letters, digits, "-" and "_" so every broker, ACL file and shell takes it as is.
MQTT_NAME = r"[A-Za-z0-9_-]{1,64}"


@frozen
class MqttConfig:
    """The room's MQTT broker (off: the box opens no network socket for it). The
    password is read from ``password_file``, never written in the config file."""

    enabled: bool = False
    host: str = "localhost"
    port: int = 1883  # 8883 is the usual port with tls
    tls: bool = False
    ca_file: str | None = None  # None: the system's CA certificates
    username: str | None = None
    password_file: str | None = None
    room: str = "room"
    table: str = "table"
    home_assistant: bool = False  # publish Home Assistant's discovery messages


@frozen
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


@frozen
class PathsConfig:
    """Where the box keeps its games and finds its tags."""

    state_dir: str = field(default_factory=lambda: _default_state_dir(os.environ))
    registry: str | None = None  # the tag registry; None = <state_dir>/tags.toml

    @property
    def registry_path(self) -> str:
        if self.registry is not None:
            return self.registry
        return os.path.join(self.state_dir, "tags.toml")


@frozen
class Config:
    """The whole config file, one field per table."""

    path: str | None = None  # the file read, or None when running on defaults
    oled: OledConfig = field(default_factory=OledConfig)
    private_oled: PrivateOledConfig = field(default_factory=PrivateOledConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    link: LinkConfig = field(default_factory=LinkConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    buzzer: BuzzerConfig = field(default_factory=BuzzerConfig)
    web: WebConfig = field(default_factory=WebConfig)
    mqtt: MqttConfig = field(default_factory=MqttConfig)
    game: GameConfig = field(default_factory=GameConfig)
    paths: PathsConfig = field(default_factory=PathsConfig)
