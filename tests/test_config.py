"""The config file: defaults, every key, one-line errors with line and key, the skeleton."""

from __future__ import annotations

import os
import re
from dataclasses import fields
from pathlib import Path

import pytest

from companion import config as cfg
from companion import parsing
from companion.config import (
    ButtonsConfig, BuzzerConfig, Config, ConfigError, GameConfig, LedsConfig, LinkConfig,
    OledConfig, PathsConfig, PrivateOledConfig, ReaderConfig, dumps_defaults, load,
    session_config,
)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "config.toml"
NO_ENV: dict[str, str] = {}


def defaults(path: str | None = None, state_dir: str = "/var/lib/companion") -> Config:
    return Config(path=path, paths=PathsConfig(state_dir=state_dir))


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error(tmp_path: Path, text: str) -> str:
    """The error for ``text`` with the file's path shortened to F."""
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load(path, environ=NO_ENV)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    assert message.startswith(f"{path} line ") or message.startswith(f"{path}: ")
    return message.replace(str(path), "F", 1)


# ------------------------------------------------------------------ defaults


def test_defaults_are_the_reference_build():
    c = Config(paths=PathsConfig(state_dir="/var/lib/companion"))
    assert c.oled == OledConfig("ssd1306", "i2c", 1, 0x3C, 0, 24, 25, 0, 255, 128, 64)
    assert c.oled.rotate == 0
    assert c.buttons.pins == {"OK": 5, "BACK": 6, "UP": 13, "DOWN": 19, "RETRIEVE": 26,
                              "EXCHANGE": 16}
    assert (c.buttons.hold_time, c.buttons.debounce, c.buttons.pull_up) == (0.8, 0.06, True)
    assert c.link == LinkConfig("/dev/companion-io", 115200)
    assert c.reader == ReaderConfig("firmware", (), 9600)
    assert c.leds == LedsConfig("firmware", 64, (), (), True, None)
    assert c.buzzer.pin is None
    assert c.game == GameConfig({1: "mercurial", 2: "rubicon", 3: None}, "virtual", "auto", 1)
    assert c.paths.registry is None
    assert c.paths.registry_path == "/var/lib/companion/tags.toml"


def test_no_default_file_means_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr(cfg.loading, "DEFAULT_PATH", str(tmp_path / "absent.toml"))
    assert load(environ=NO_ENV) == defaults()
    assert load(None, environ={"STATE_DIRECTORY": "/var/lib/box"}) == defaults(
        state_dir="/var/lib/box")


def test_the_default_file_is_read_when_present(tmp_path, monkeypatch):
    path = write(tmp_path, "[game]\ndice = 'manual'\n")
    monkeypatch.setattr(cfg.loading, "DEFAULT_PATH", str(path))
    c = load(environ=NO_ENV)
    assert c.path == str(path)
    assert c.game.dice == "manual"


def test_an_empty_file_is_all_defaults(tmp_path):
    path = write(tmp_path, "")
    assert load(path, environ=NO_ENV) == defaults(str(path))
    assert load(str(path), environ=NO_ENV).path == str(path)


def test_state_directory_from_systemd(tmp_path):
    path = write(tmp_path, "")
    env = {"STATE_DIRECTORY": "/var/lib/companion-a:/var/lib/other"}  # several: the first
    c = load(path, environ=env)
    assert c.paths.state_dir == "/var/lib/companion-a"
    assert c.paths.registry_path == "/var/lib/companion-a/tags.toml"
    assert load(path, environ={"STATE_DIRECTORY": ""}).paths.state_dir == "/var/lib/companion"
    # The file wins over the environment.
    path = write(tmp_path, "[paths]\nstate_dir = '/srv/box'\n")
    assert load(path, environ=env).paths.state_dir == "/srv/box"


def test_the_session_config(tmp_path):
    from companion.session import SessionConfig

    assert session_config(defaults()) == SessionConfig()
    path = write(tmp_path, '[pads]\n1 = "rubicon"\n2 = "mercurial"\n'
                           '[game]\ndeck = "physical"\ndice = "manual"\nstart_space = 4\n')
    c = load(path, environ=NO_ENV)
    assert session_config(c) == SessionConfig(pads={1: "rubicon", 2: "mercurial"},
                                              deck="physical", dice="manual", start_space=4)
    assert session_config(c).pads is not c.game.pads  # the session may not change the config


def test_constants_agree_with_the_rest_of_the_box():
    from companion.games.entanglion.board import PLANETS
    from companion.games.entanglion.cards import START_SPACES
    from companion.inputs import BUTTONS

    assert sorted(cfg.PLANET_ORDER) == sorted(PLANETS)
    assert cfg.START_SPACES == START_SPACES
    assert tuple(cfg.BUTTON_KEYS.values()) == BUTTONS
    assert tuple(ButtonsConfig().pins) == BUTTONS


# ------------------------------------------------------------------ every key

FULL = """\
[oled]
driver = "sh1106"
bus = "spi"
port = 0
address = 0x3D
spi_device = 1
dc_pin = 22
rst_pin = 23
rotation = 180
contrast = 128
width = 128
height = 64

[buttons]
ok = 4
back = 17
up = 27
down = 21
retrieve = 20
exchange = 18
hold_time = 1
debounce = 0
pull_up = false

[link]
device = "/dev/ttyACM0"
baud = 921600

[reader]
kind = "rdm6300"
rdm6300 = ["/dev/ttyS0", "/dev/ttyUSB0"]
rdm6300_baud = 19200

[leds]
sink = "gpio"
brightness = 255
track_pins = [0, 1, 2, 3, 5, 6, 9, 12, 13, 14, 15, 16]
planet_pins = []
off_at_exit = false
map = "/etc/companion/leds.map"

[buzzer]
pin = 19

[pads]
2 = "shared"
1 = "rubicon"
8 = "mercurial"

[game]
deck = "physical"
dice = "manual"
start_space = 2

[paths]
state_dir = "/srv/companion"
registry = "/srv/companion/tags.json"
"""


def test_every_key_is_read(tmp_path):
    path = write(tmp_path, FULL)
    c = load(path, environ={"STATE_DIRECTORY": "/ignored"})
    assert c == Config(
        path=str(path),
        oled=OledConfig("sh1106", "spi", 0, 0x3D, 1, 22, 23, 180, 128, 128, 64),
        buttons=ButtonsConfig({"OK": 4, "BACK": 17, "UP": 27, "DOWN": 21, "RETRIEVE": 20,
                               "EXCHANGE": 18}, 1.0, 0.0, False),
        link=LinkConfig("/dev/ttyACM0", 921600),
        reader=ReaderConfig("rdm6300", ("/dev/ttyS0", "/dev/ttyUSB0"), 19200),
        leds=LedsConfig("gpio", 255, (0, 1, 2, 3, 5, 6, 9, 12, 13, 14, 15, 16), (), False,
                        "/etc/companion/leds.map"),
        buzzer=BuzzerConfig(19),
        game=GameConfig({1: "rubicon", 2: None, 8: "mercurial"}, "physical", "manual", 2),
        paths=PathsConfig("/srv/companion", "/srv/companion/tags.json"),
    )
    assert c.oled.rotate == 2
    assert list(c.game.pads) == [1, 2, 8]  # in pad order, whatever the file's
    assert isinstance(c.buttons.hold_time, float)
    assert c.paths.registry_path == "/srv/companion/tags.json"


def test_planet_pins_and_other_spellings(tmp_path):
    path = write(tmp_path, """\
oled = { rotation = 180, address = 60 }
buttons.ok = 4
buzzer.pin = false
[leds]
sink = "gpio"
track_pins = [17]
planet_pins = [0, 1, 21, 7, 8, 9, 10, 11, 12, 14, 15, 20]
[link]
device = "socket://localhost:7777"
""")
    c = load(path, environ=NO_ENV)
    assert c.oled.rotation == 180 and c.oled.rotate == 2 and c.oled.address == 0x3C
    assert c.buttons.pins["OK"] == 4 and c.buzzer.pin is None
    assert c.leds.planets["ZERO"] == 0 and c.leds.planets["OMEGA_THREE"] == 20
    assert list(c.leds.planets) == list(cfg.PLANET_ORDER)
    assert c.link.device == "socket://localhost:7777"  # a pyserial URL is not a path


def test_an_empty_pads_table_means_no_pads(tmp_path):
    assert load(write(tmp_path, "[pads]\n"), environ=NO_ENV).game.pads == {}


def test_relative_paths_are_relative_to_the_file(tmp_path):
    folder = tmp_path / "etc"
    folder.mkdir()
    write(folder, """\
[link]
device = "tty/link"
[reader]
kind = "rdm6300"
rdm6300 = ["../dev/rfid0", "/dev/ttyS0"]
[leds]
map = "leds.map"
[paths]
state_dir = "state"
registry = "./reg/../tags.json"
""")
    old = os.getcwd()
    os.chdir(tmp_path)  # the working directory must not matter
    try:
        c = load(Path("etc") / "config.toml", environ=NO_ENV)
    finally:
        os.chdir(old)
    assert c.link.device == str(folder / "tty" / "link")
    assert c.reader.rdm6300 == (str(tmp_path / "dev" / "rfid0"), "/dev/ttyS0")
    assert c.leds.map == str(folder / "leds.map")
    assert c.paths.state_dir == str(folder / "state")
    assert c.paths.registry == str(folder / "tags.json")
    assert c.path == os.path.join("etc", "config.toml")  # as given, for messages


# ------------------------------------------------------------------ value errors


@pytest.mark.parametrize("text, expected", [
    # the examples the design gives
    ('[oled]\n\n[buttons]\n\n\n\nok = "five"\n',
     'F line 7: buttons.ok: expected a GPIO number 0-27, got "five"'),
    ('# screen\n\ndriver = "x"\n',
     'F line 3: unknown key "driver" (did you mean "oled.driver"?)'),
    ('[oled]\n# a comment\ndriver = "ssd1322"\n',
     'F line 3: oled.driver: unknown driver "ssd1322" (choose ssd1306, sh1106, ssd1309, ssd1315 or none)'),
    # oled
    ('[oled]\ndriver = 1306\n', "F line 2: oled.driver: expected ssd1306, sh1106, ssd1309, ssd1315 or none, got 1306"),
    ('[oled]\nbus = "I2C"\n', 'F line 2: oled.bus: unknown bus "I2C" (choose i2c or spi)'),
    ('[oled]\nport = -1\n', "F line 2: oled.port: expected a bus number 0-255, got -1"),
    ('[oled]\naddress = 0x78\n',
     "F line 2: oled.address: expected an I2C address 0x03-0x77, got 0x78"),
    ('[oled]\naddress = "0x3C"\n', 'F line 2: oled.address: expected an I2C address '
                                   '0x03-0x77, got "0x3C" (write numbers without quotes)'),
    ('[oled]\nspi_device = 4\n', "F line 2: oled.spi_device: expected an SPI chip select 0-3, "
                                 "got 4"),
    ('[oled]\ndc_pin = 28\n', "F line 2: oled.dc_pin: expected a GPIO number 0-27, got 28"),
    ('[oled]\nrst_pin = 2.0\n', "F line 2: oled.rst_pin: expected a GPIO number 0-27, got 2.0"),
    ('[oled]\nrotation = 45\n',
     "F line 2: oled.rotation: expected 0 or 180 (degrees; the screens are landscape), got 45"),
    ('[oled]\nrotation = 2\n',
     "F line 2: oled.rotation: expected 0 or 180 (degrees; the screens are landscape), got 2"),
    ('[oled]\ncontrast = 256\n', "F line 2: oled.contrast: expected a contrast 0-255, got 256"),
    ('[oled]\nwidth = 0\n', "F line 2: oled.width: expected 128 (pixels; the screens are drawn for 128x64 "
     "panels), got 0"),
    ('[oled]\nheight = 1024\n',
     "F line 2: oled.height: expected 64 (pixels; the screens are drawn for 128x64 "
     "panels), got 1024"),
    # buttons
    ('[buttons]\nback = true\n', "F line 2: buttons.back: expected a GPIO number 0-27, got true"),
    ('[buttons]\nup = false\n', "F line 2: buttons.up: expected a GPIO number 0-27, got false"),
    ('[buttons]\ndown = "5"\n', 'F line 2: buttons.down: expected a GPIO number 0-27, '
                                'got "5" (write numbers without quotes)'),
    ('[buttons]\nretrieve = [26]\n',
     "F line 2: buttons.retrieve: expected a GPIO number 0-27, got a list"),
    ('[buttons]\nexchange = {pin = 3}\n',
     "F line 2: buttons.exchange: expected a GPIO number 0-27, got a table"),
    ('[buttons]\nhold_time = 0.1\n',
     "F line 2: buttons.hold_time: expected a time in seconds 0.2-5, got 0.1"),
    ('[buttons]\nhold_time = inf\n',
     "F line 2: buttons.hold_time: expected a time in seconds 0.2-5, got inf"),
    ('[buttons]\nhold_time = nan\n',
     "F line 2: buttons.hold_time: expected a time in seconds 0.2-5, got nan"),
    ('[buttons]\ndebounce = -0.01\n',
     "F line 2: buttons.debounce: expected a time in seconds 0-0.5, got -0.01"),
    ('[buttons]\ndebounce = true\n',
     "F line 2: buttons.debounce: expected a time in seconds 0-0.5, got true"),
    ('[buttons]\npull_up = 1\n', "F line 2: buttons.pull_up: expected true or false, got 1"),
    # link
    ('[link]\ndevice = ""\n', 'F line 2: link.device: expected a path, got ""'),
    ('[link]\ndevice = 0\n', "F line 2: link.device: expected a path, got 0"),
    ('[link]\nbaud = 12345\n', "F line 2: link.baud: expected a baud rate 9600, 19200, 38400, "
     "57600, 115200, 230400, 460800, 500000, 576000, 921600 or 1000000, got 12345"),
    # reader
    ('[reader]\nkind = "mfrc522"\n', 'F line 2: reader.kind: unknown reader kind "mfrc522" '
                                     '(choose firmware, rdm6300 or none)'),
    ('[reader]\nrdm6300 = "/dev/ttyS0"\n', 'F line 2: reader.rdm6300: expected a list of '
     'device paths, one per pad, got "/dev/ttyS0" (write ["/dev/ttyS0"])'),
    ('[reader]\nrdm6300 = ["/dev/a", 5]\n',
     "F line 2: reader.rdm6300: pad 2: expected a path, got 5"),
    ('[reader]\nrdm6300 = ["/dev/a", "/dev/b", "/dev/a"]\n',
     'F line 2: reader.rdm6300: pad 3: "/dev/a" is already pad 1'),
    ('[reader]\nrdm6300 = ["/dev/a", "/dev/b", "/dev/c", "/dev/d", "/dev/e", "/dev/f",'
     ' "/dev/g", "/dev/h", "/dev/i"]\n',
     "F line 2: reader.rdm6300: expected at most 8 readers (pads 1-8), got 9"),
    ("[reader]\nkind = 'none'\n[reader.rdm6300]\n", "F line 3: reader.rdm6300: expected a "
     "list of device paths, one per pad, got a table"),
    ('[reader]\nrdm6300_baud = 9601\n', "F line 2: reader.rdm6300_baud: expected a baud rate "
     "9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600 or 1000000, "
     "got 9601"),
    # leds
    ('[leds]\nsink = "ws2812"\n',
     'F line 2: leds.sink: unknown LED sink "ws2812" (choose firmware, gpio or none)'),
    ('[leds]\nbrightness = 300\n',
     "F line 2: leds.brightness: expected a brightness 0-255, got 300"),
    ('[leds]\ntrack_pins = 17\n',
     "F line 2: leds.track_pins: expected a list of GPIO numbers, got 17 (write [17])"),
    ('[leds]\ntrack_pins = [17, 27, 28]\n',
     "F line 2: leds.track_pins: space 3: expected a GPIO number 0-27, got 28"),
    ('[leds]\ntrack_pins = [' + ", ".join(["1"] * 13) + ']\n',
     "F line 2: leds.track_pins: expected 1-12 pins (one per detection-track space), got 13"),
    ('[leds]\nplanet_pins = [1, 2, 3]\n',
     "F line 2: leds.planet_pins: expected 12 pins (one per planet) or none, got 3"),
    ('[leds]\nplanet_pins = [0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 12, true]\n',
     "F line 2: leds.planet_pins: OMEGA_THREE: expected a GPIO number 0-27, got true"),
    ('[leds]\noff_at_exit = "yes"\n',
     'F line 2: leds.off_at_exit: expected true or false, got "yes"'),
    ('[leds]\nmap = ["a"]\n', "F line 2: leds.map: expected a path, got a list"),
    # buzzer
    ('[buzzer]\npin = true\n',
     "F line 2: buzzer.pin: expected a GPIO number 0-27 or false, got true"),
    ('[buzzer]\npin = 40\n', "F line 2: buzzer.pin: expected a GPIO number 0-27 or false, got 40"),
    # pads
    ('[pads]\n1 = "mercurial"\n9 = "rubicon"\n',
     "F line 3: pads.9: no such pad (pads are numbered 1-8)"),
    ('[pads]\n0 = "rubicon"\n', "F line 2: pads.0: no such pad (pads are numbered 1-8)"),
    ('[pads]\n01 = "rubicon"\n', "F line 2: pads.01: no such pad (pads are numbered 1-8)"),
    ('[pads]\nleft = "rubicon"\n', "F line 2: pads.left: no such pad (pads are numbered 1-8)"),
    ('[pads]\n2 = "blue"\n',
     'F line 2: pads.2: unknown seat "blue" (choose mercurial, rubicon or shared)'),
    ('[pads]\n2 = false\n',
     "F line 2: pads.2: expected mercurial, rubicon or shared, got false"),
    ('pads = ["mercurial"]\n', "F line 1: pads: expected a table like [pads], got a list"),
    # game
    ('[game]\ndeck = "real"\n',
     'F line 2: game.deck: unknown deck mode "real" (choose virtual or physical)'),
    ('[game]\ndice = "Manual"\n',
     'F line 2: game.dice: unknown dice mode "Manual" (choose auto or manual)'),
    ('[game]\nstart_space = 3\n',
     "F line 2: game.start_space: expected a start space 1, 2 or 4, got 3"),
    # paths
    ('[paths]\nstate_dir = ""\n', 'F line 2: paths.state_dir: expected a path, got ""'),
    ('[paths]\nregistry = 1979-05-27\n',
     "F line 2: paths.registry: expected a path, got a date or time"),
    # tables of the wrong shape
    ('oled = "ssd1306"\n', 'F line 1: oled: expected a table like [oled], got "ssd1306"'),
    ('[[buttons]]\nok = 1\n', "F line 1: buttons: expected a table like [buttons], got a list"),
])
def test_value_errors(tmp_path, text, expected):
    assert error(tmp_path, text) == expected


def test_the_line_of_keys_written_every_way(tmp_path):
    text = """\
# [oled] in a comment is not a header
title = '''
[oled]
contrast = 1
'''
"""
    # (the unknown title comes first; here we only want the scanner to survive it)
    assert error(tmp_path, text) == 'F line 2: unknown key "title"'
    assert error(tmp_path, 'buttons.ok = 4\nbuttons . "up" = 99\n') == (
        "F line 2: buttons.up: expected a GPIO number 0-27, got 99")
    assert error(tmp_path, "[game]\n\noled.contrast = 1\n") == (
        'F line 3: unknown key "game.oled" (did you mean "oled"?)')
    assert error(tmp_path, '[link]\n[ "oled" ]  # quoted\ncontrast = -1\n') == (
        "F line 3: oled.contrast: expected a contrast 0-255, got -1")
    assert error(tmp_path, 'game.dice = "auto"\noled = { driver = "ssd1306", rotation = 1 }\n') == (
        "F line 2: oled.rotation: expected 0 or 180 (degrees; the screens are landscape), got 1")
    assert error(tmp_path, '[paths]\nregistry = """\na = 1\n[buzzer]\n"""\n'
                           '[buzzer]\npin = "12"\n') == (
        'F line 7: buzzer.pin: expected a GPIO number 0-27 or false, got "12" '
        "(write numbers without quotes)")
    assert error(tmp_path, '[leds]\nsink = "gpio"\ntrack_pins = [\n  17,  # space 1\n  28,\n]\n'
                 ) == "F line 3: leds.track_pins: space 2: expected a GPIO number 0-27, got 28"
    assert error(tmp_path, "[oled]\r\nbus = 'i2c'\r\nport = -1\r\n") == (
        "F line 3: oled.port: expected a bus number 0-255, got -1")


def test_the_earliest_line_is_reported(tmp_path):
    text = '[game]\ndice = "x"\n[oled]\ncontrast = -1\n[buttons]\nok = 99\n'
    assert error(tmp_path, text).startswith("F line 2: game.dice:")
    text = '[game]\ndice = "auto"\n[oled]\ncontrast = -1\n[buttons]\nok = 99\n'
    assert error(tmp_path, text).startswith("F line 4: oled.contrast:")


def test_a_key_without_a_known_line_still_gets_a_message(tmp_path, monkeypatch):
    monkeypatch.setattr(cfg.reader, "key_lines", lambda text: {})
    assert error(tmp_path, "[oled]\ncontrast = -1\n") == (
        "F: oled.contrast: expected a contrast 0-255, got -1")


def test_error_attributes(tmp_path):
    path = write(tmp_path, "[buttons]\nok = 99\n")
    with pytest.raises(ConfigError) as info:
        load(path)
    assert (info.value.line, info.value.key) == (2, "buttons.ok")


# ------------------------------------------------------------------ unknown keys


@pytest.mark.parametrize("text, expected", [
    ("[buttons]\nok = 5\n\n\n\n\n\n\n\n\n\nexchnage = 16\n",
     'F line 12: unknown key "buttons.exchnage" (did you mean "buttons.exchange"?)'),
    ("[buttons]\nOK = 5\n", 'F line 2: unknown key "buttons.OK" (did you mean "buttons.ok"?)'),
    ("[button]\nok = 5\n", 'F line 1: unknown table "button" (did you mean "buttons"?)'),
    ("[oled]\nrotate = 1\n", 'F line 2: unknown key "oled.rotate" (did you mean "oled.rotation"?)'),
    ("[leds]\npin = 5\n", 'F line 2: unknown key "leds.pin" (did you mean "buzzer.pin"?)'),
    ("[game]\nstart = 1\n",
     'F line 2: unknown key "game.start" (did you mean "game.start_space"?)'),
    ("[game]\nspeed = 1\n", 'F line 2: unknown key "game.speed"'),
    ("[oled.extra]\n", 'F line 1: unknown key "oled.extra"'),
    ("zzz = 1\n", 'F line 1: unknown key "zzz"'),
    ("[wifi]\nssid = 'x'\n", 'F line 1: unknown table "wifi"'),
    ("version = 1\n", 'F line 1: unknown key "version"'),
    ("state_dir = '/x'\n", 'F line 1: unknown key "state_dir" (did you mean "paths.state_dir"?)'),
])
def test_unknown_keys(tmp_path, text, expected):
    assert error(tmp_path, text) == expected


def test_weird_keys_and_paths_stay_on_one_line(tmp_path):
    message = error(tmp_path, '[buttons]\n"ex\\nchange\\r\\u2028\\"x" = 1\n')
    assert message == r'F line 2: unknown key "buttons."ex\nchange\r\u2028\"x"" (did you mean "buttons.exchange"?)'
    message = error(tmp_path, '["a\\u0000b"]\n')
    assert message == r'F line 1: unknown table ""a\u0000b""'
    message = error(tmp_path, '[oled]\ndriver = "line one\\nline two"\n')
    assert message == (r'F line 2: oled.driver: unknown driver "line one\nline two" '
                       "(choose ssd1306, sh1106, ssd1309, ssd1315 or none)")
    message = error(tmp_path, '[oled]\ndriver = "' + "x" * 100 + '"\n')
    assert message == 'F line 2: oled.driver: unknown driver "' + "x" * 37 + '..." ' \
                      "(choose ssd1306, sh1106, ssd1309, ssd1315 or none)"
    folder = tmp_path / "odd\nfolder"
    folder.mkdir()
    path = write(folder, "[oled]\ncontrast = -1\n")
    with pytest.raises(ConfigError) as info:
        load(path)
    assert str(info.value) == str(path).replace("\n", "\\n") + (
        " line 2: oled.contrast: expected a contrast 0-255, got -1")


# ------------------------------------------------------------------ checks across keys


@pytest.mark.parametrize("text, expected", [
    ("[buttons]\nok = 5\nup = 5\n",
     "F line 3: buttons.up: GPIO 5 is already used by buttons.ok on line 2"),
    ("[buttons]\nup = 6\n", "F line 2: buttons.up: GPIO 6 is already used by buttons.back "
                            "(its default)"),
    ("[buzzer]\npin = 5\n[buttons]\nok = 4\nback = 4\n",
     "F line 5: buttons.back: GPIO 4 is already used by buttons.ok on line 4"),
    ("[buzzer]\npin = 26\n",
     "F line 2: buzzer.pin: GPIO 26 is already used by buttons.retrieve (its default)"),
    ("[buttons]\nok = 12\n[buzzer]\npin = 12\n",
     "F line 4: buzzer.pin: GPIO 12 is already used by buttons.ok on line 2"),
    ('[leds]\nsink = "gpio"\ntrack_pins = [17, 27, 17]\n',
     "F line 3: leds.track_pins: space 3: GPIO 17 is already used by leds.track_pins (space 1)"),
    ('[leds]\nsink = "gpio"\ntrack_pins = [17]\nplanet_pins = [0, 1, 4, 7, 8, 9, 10, 11, 12,'
     ' 14, 15, 17]\n', "F line 4: leds.planet_pins: OMEGA_THREE: GPIO 17 is already used by "
                   "leds.track_pins (space 1) on line 3"),
    ('[leds]\nsink = "gpio"\ntrack_pins = [13]\n',
     "F line 3: leds.track_pins: space 1: GPIO 13 is already used by buttons.up (its default)"),
    ('[oled]\nbus = "spi"\n[buttons]\nok = 24\n',
     "F line 4: buttons.ok: GPIO 24 is already used by oled.dc_pin (its default)"),
    ('[oled]\nbus = "spi"\nrst_pin = 24\n',
     "F line 3: oled.rst_pin: GPIO 24 is already used by oled.dc_pin (its default)"),
    ('[buttons]\nok = 9\n[oled]\nbus = "spi"\ndc_pin = 9\n',
     "F line 5: oled.dc_pin: GPIO 9 is already used by buttons.ok on line 2"),
    ("[buttons]\nok = 2\n",
     "F line 2: buttons.ok: GPIO 2 is already used by the OLED's I2C1 bus (SDA)"),
    ('[oled]\nbus = "spi"\n[buttons]\nok = 11\n',
     "F line 4: buttons.ok: GPIO 11 is already used by the OLED's SPI0 bus (SCLK)"),
    ('[oled]\nbus = "spi"\nspi_device = 1\n[buttons]\nok = 7\n',
     "F line 5: buttons.ok: GPIO 7 is already used by the OLED's SPI0 bus (CE1)"),
    ('[oled]\nbus = "spi"\ndc_pin = 8\n',
     "F line 3: oled.dc_pin: GPIO 8 is already used by the OLED's SPI0 bus (CE0)"),
    # what a choice needs
    ('[reader]\nkind = "rdm6300"\n', 'F line 2: reader.rdm6300: reader.kind is "rdm6300" but '
     'no reader is listed (e.g. rdm6300 = ["/dev/ttyS0"], one per pad)'),
    ('[reader]\nrdm6300 = []\nkind = "rdm6300"\n', 'F line 2: reader.rdm6300: reader.kind is '
     '"rdm6300" but no reader is listed (e.g. rdm6300 = ["/dev/ttyS0"], one per pad)'),
    ('[leds]\nsink = "gpio"\n', 'F line 2: leds.track_pins: leds.sink is "gpio" but no pins '
     "are listed (1-12 pins, one per detection-track space)"),
])
def test_checks_across_keys(tmp_path, text, expected):
    assert error(tmp_path, text) == expected


def test_pins_of_unused_parts_claim_nothing(tmp_path):
    text = """\
[oled]
driver = "none"
bus = "spi"
dc_pin = 5
[buttons]
ok = 2
up = 10
[leds]
sink = "firmware"
track_pins = [6, 6]
"""
    c = load(write(tmp_path, text), environ=NO_ENV)
    assert c.buttons.pins["OK"] == 2 and c.leds.track_pins == (6, 6)
    # on i2c the spi pins are free, and another i2c port frees GPIO 2 and 3
    c = load(write(tmp_path, "[oled]\nport = 3\ndc_pin = 5\n[buttons]\nok = 2\n"),
             environ=NO_ENV)
    assert c.buttons.pins["OK"] == 2


def test_value_errors_come_before_checks_across_keys(tmp_path):
    # A bad pin is not also reported as a clash with the default it fell back to.
    text = "[buttons]\nok = 99\n[buzzer]\npin = 5\n"
    assert error(tmp_path, text) == "F line 2: buttons.ok: expected a GPIO number 0-27, got 99"


# ------------------------------------------------------------------ files


def test_toml_syntax_errors(tmp_path):
    assert error(tmp_path, "[oled]\ncontrast = 1\n\ndriver = ssd1306\n") == (
        "F line 4: TOML syntax: Invalid value")
    assert error(tmp_path, "[oled]\ncontrast = 1\ncontrast = 2\n") == (
        "F line 3: TOML syntax: Cannot overwrite a value")
    assert error(tmp_path, "[oled]\ndriver = \"ssd1306\n") == (
        "F line 2: TOML syntax: Illegal character '\\n'")
    assert error(tmp_path, "[leds]\ntrack_pins = [1,\n") == (
        "F: TOML syntax: Invalid value at the end of the file")
    assert error(tmp_path, "a = " + "[" * 5000 + "]" * 5000 + "\n") == (
        "F: TOML syntax: values nested too deeply")  # tomllib's RecursionError


def test_explicit_missing_file(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as info:
        load(path)
    assert str(info.value) == f"{path}: cannot read: No such file or directory"


def test_a_directory(tmp_path, monkeypatch):
    with pytest.raises(ConfigError) as info:
        load(tmp_path)
    assert str(info.value) == f"{tmp_path}: cannot read: Is a directory"
    # the default path is only optional when it does not exist at all
    monkeypatch.setattr(cfg.loading, "DEFAULT_PATH", str(tmp_path))
    with pytest.raises(ConfigError, match="cannot read: Is a directory"):
        load()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file(tmp_path):
    path = write(tmp_path, "")
    path.chmod(0)
    with pytest.raises(ConfigError) as info:
        load(path)
    assert str(info.value) == f"{path}: cannot read: Permission denied"


def test_any_read_error_is_one_line(tmp_path, monkeypatch):
    def refuse(name, mode):
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr(parsing, "open", refuse, raising=False)  # the bounded reader's open only
    with pytest.raises(ConfigError) as info:
        load("/etc/companion/config.toml")
    assert str(info.value) == "/etc/companion/config.toml: cannot read: Permission denied"


def test_not_utf8(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b"[oled]\n# caf\xe9\n")
    with pytest.raises(ConfigError) as info:
        load(path)
    assert str(info.value) == f"{path} line 2: not UTF-8 text (byte 12)"
    path.write_bytes(b"\xef\xbb\xbf[game]\ndice = 'manual'\n")  # a BOM is fine
    assert load(path).game.dice == "manual"


# ------------------------------------------------------------------ the skeleton


def uncommented(text: str) -> str:
    """The skeleton with every default line switched on."""
    return re.sub(r"(?m)^#(?=[^\s#])", "", text)


def test_the_skeleton_loads_as_the_defaults(tmp_path):
    text = dumps_defaults()
    path = write(tmp_path, text)
    assert load(path, environ=NO_ENV) == defaults(str(path))
    # Every default line is valid and right: switching them all on changes nothing.
    path = write(tmp_path, uncommented(text))
    assert load(path, environ=NO_ENV) == defaults(str(path))


def test_the_skeleton_shows_every_key():
    text = dumps_defaults()
    table, keys = None, set()
    for line in uncommented(text).splitlines():
        if m := re.fullmatch(r"\[(\w+)\]", line):
            table = m[1]
        elif m := re.match(r"(\w+) = ", line):
            keys.add(f"{table}.{m[1]}")
    prose_only = {"leds.map", "paths.state_dir", "paths.registry", "mqtt.ca_file",
                  "mqtt.username", "mqtt.password_file"}  # no value to show
    for key in prose_only:
        assert f"{key.split('.')[1]} = " in text
    expected = set(prose_only) | {f"pads.{n}" for n in GameConfig().pads}
    expected |= {f"buttons.{k}" for k in cfg.BUTTON_KEYS}
    for section, cls in [("oled", OledConfig), ("private_oled", PrivateOledConfig),
                         ("buttons", ButtonsConfig),
                         ("link", LinkConfig), ("reader", ReaderConfig), ("leds", LedsConfig),
                         ("buzzer", BuzzerConfig), ("web", cfg.WebConfig), ("mqtt", cfg.MqttConfig),
                         ("game", GameConfig)]:
        expected |= {f"{section}.{f.name}" for f in fields(cls)
                     if f.name not in ("pins", "pads", "qno_pads")}  # tables
    assert keys | prose_only == expected
    assert all(len(line) <= 88 for line in text.splitlines())


def test_the_example_file_is_the_skeleton():
    # Regenerate with: python -m companion.config defaults > examples/config.toml
    assert EXAMPLE.read_text(encoding="utf-8") == dumps_defaults()


# ------------------------------------------------------------------ command line


def test_main(tmp_path, capsys, monkeypatch):
    assert cfg.main(["defaults"]) == 0
    assert capsys.readouterr().out == dumps_defaults()
    good = write(tmp_path, "[game]\ndice = 'manual'\n", "good.toml")
    assert cfg.main(["check", str(good)]) == 0
    assert capsys.readouterr().out == f"{good}: ok\n"
    bad = write(tmp_path, "[game]\ndice = 'dice'\n", "bad.toml")
    assert cfg.main(["check", str(bad)]) == 2
    assert capsys.readouterr().err == (
        f'{bad} line 2: game.dice: unknown dice mode "dice" (choose auto or manual)\n')
    monkeypatch.setattr(cfg.loading, "DEFAULT_PATH", str(tmp_path / "absent.toml"))
    assert cfg.main(["check"]) == 0
    assert "using the defaults" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cfg.main(["defaults", "x"])


def test_qno_pads_give_pads_to_players(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[qno_pads]\n1 = 1\n2 = "shared"\n4 = 6\n')
    assert cfg.session_config(cfg.load(str(path))).qno_pads == {1: 1, 2: None, 4: 6}
    path.write_text('[qno_pads]\n1 = 7\n')
    with pytest.raises(cfg.ConfigError, match='qno_pads.1: expected a player 1-6 or "shared"'):
        cfg.load(str(path))
    assert cfg.session_config(cfg.load(None)).qno_pads == {}


def test_a_second_i2c_bus_must_say_its_pins_and_they_claim_them(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[private_oled]\naddresses = [0x3D, 0x3C]\nports = [1, 3]\n")
    with pytest.raises(ConfigError) as info:
        cfg.load(str(path))
    assert "line 3: private_oled.bus_pins: a private OLED is on I2C bus 3: write its pins" \
        in str(info.value)
    # dtoverlay=i2c3 on a Pi 4 puts bus 3 on GPIO 4 and 5: 5 is the OK button.
    path.write_text("[private_oled]\naddresses = [0x3D, 0x3C]\nports = [1, 3]\n"
                    "bus_pins = [4, 5]\n")
    with pytest.raises(ConfigError) as info:
        cfg.load(str(path))
    assert "line 4: private_oled.bus_pins: SCL: GPIO 5 is already used by buttons.ok " \
        "(its default)" in str(info.value)
    path.write_text("[private_oled]\naddresses = [0x3D, 0x3C]\nports = [3, 4]\n"
                    "bus_pins = [23, 24]\n")
    with pytest.raises(ConfigError, match="at most one I2C bus besides bus 1"):
        cfg.load(str(path))
    path.write_text("[private_oled]\nbus_pins = [23]\n")
    with pytest.raises(ConfigError, match=r"expected \[SDA, SCL\], two GPIO numbers"):
        cfg.load(str(path))


def test_private_oleds_give_camps_their_own_screens(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[private_oled]\naddresses = [0x3D, 0x3C]\nports = [1, 3]\n"
                    "bus_pins = [23, 24]\n")
    config = cfg.load(str(path))
    assert config.private_oled.screens(config.oled.port) == {0: (1, 0x3D), 1: (3, 0x3C)}
    assert session_config(config).private_screens == (0, 1)
    assert session_config(cfg.load(None)).private_screens == ()
    path.write_text("[private_oled]\naddresses = [0x3D]\n")
    assert cfg.load(str(path)).private_oled.screens(1) == {0: (1, 0x3D)}
    for text, why in [
        ("addresses = [0x3C]", "private_oled.addresses: camp 0: I2C bus 1 address 0x3C is "
                               "already the shared OLED"),
        ("addresses = [0x3D, 0x3D]", "camp 1: I2C bus 1 address 0x3D is already camp 0's OLED"),
        ("addresses = [0x3D, 0x3D]\nports = [1]", "private_oled.ports: expected one bus per "
                                                  "address (2), got 1"),
        ("addresses = 0x3D", "expected a list of I2C addresses, camp 0 first, got 61 "
                             "(write [61])"),
        ("addresses = [0x3D, 0x3E, 0x3F]", "expected at most 2 I2C addresses"),
        ("addresses = [0x99]", "camp 0: expected an I2C address 0x03-0x77, got 0x99"),
    ]:
        path.write_text(f"[private_oled]\n{text}\n")
        with pytest.raises(ConfigError) as info:
            cfg.load(str(path))
        assert why in str(info.value)
    path.write_text('[oled]\ndriver = "none"\n[private_oled]\naddresses = [0x3D]\n')
    with pytest.raises(ConfigError, match='oled.driver is "none"'):
        cfg.load(str(path))
