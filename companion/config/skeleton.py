"""The commented skeleton of the config file: every key, commented out at its
default, so an installed file changes nothing until someone uncomments a line."""

from __future__ import annotations

import json
from typing import Any

from ..i18n import LANGUAGES
from .schema import (
    BAUD_RATES, BUTTON_KEYS, DEFAULT_STATE_DIR, MAX_PADS, PLANET_ORDER, QNO_SEATS,
    TRACK_SPACES, Config, PathsConfig,
)
from .values import _or


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
    config_web, m = d.web, d.mqtt
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
        "# Debounce time in seconds, 0-0.5 (0 = none). A press counts at its first",
        "# edge; contact chatter after it is ignored this long. Cheap switches chatter",
        "# up to 50 ms; the default leaves a margin and still keeps both presses of a",
        "# quick double press (50 ms down, 50 ms up).",
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
        "[mqtt]",
        "# The room's MQTT broker (docs/mqtt.md): the table's public view, each finished",
        "# game's record, and the room's commands. Off, the box opens no socket for it.",
        f"#enabled = {v(m.enabled)}",
        "# The broker's host name or address, and its port (8883 is usual with tls).",
        f"#host = {v(m.host)}",
        f"#port = {v(m.port)}",
        "# true: TLS to the broker, checked against ca_file = \"FILE\" (unset: the",
        "# system's CA certificates).",
        f"#tls = {v(m.tls)}",
        "# Set username = \"NAME\" and password_file = \"FILE\" (the password alone in",
        "# a file only the box can read) when the broker asks for them.",
        "# This table's room and its name in it: letters, digits, - and _.",
        f"#room = {v(m.room)}",
        f"#table = {v(m.table)}",
        "# true: also publish Home Assistant's discovery messages (status, whose turn,",
        "# detection), so the box appears in Home Assistant by itself.",
        f"#home_assistant = {v(m.home_assistant)}",
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
