"""One function per table of the file: each reads its keys through the reader,
checked one by one, and returns that table's settings (defaults where unset)."""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from ..i18n import LANGUAGES
from .reader import _Reader
from .schema import (
    BAUD_RATES, BUTTON_KEYS, MAX_PADS, OLED_DRIVERS, PLANET_ORDER, QNO_SEATS, SEATS,
    START_SPACES, TRACK_SPACES, ButtonsConfig, BuzzerConfig, GameConfig, LedsConfig,
    LinkConfig, MQTT_NAME, MqttConfig, OledConfig, PathsConfig, PrivateOledConfig,
    ReaderConfig, WebConfig, _default_state_dir,
)
from .values import (
    _SIZE, _address, _Bad, _boolean, _choice, _drawable, _gpio, _integer, _one_of,
    _optional_gpio, _pin_list, _seconds, _show,
)


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


def _mqtt_name(value: Any) -> str:
    if isinstance(value, str) and re.fullmatch(MQTT_NAME, value):
        return value
    raise _Bad(f"expected a name of 1-64 letters, digits, \"-\" or \"_\" (it is an MQTT "
               f"topic level: no \"+\", \"#\" or \"/\"), got {_show(value)}")


def _host(value: Any) -> str:
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z0-9.:_-]{1,253}", value):
        return value
    raise _Bad(f"expected a host name or IP address such as \"broker.local\", "
               f"got {_show(value)}")


def _user(value: Any) -> str:
    if isinstance(value, str) and value and value.isprintable() and len(value) <= 64:
        return value
    raise _Bad(f"expected a user name (1-64 printable characters), got {_show(value)}")


def _mqtt(rd: _Reader) -> MqttConfig:
    d, t = MqttConfig(), "mqtt"
    config = MqttConfig(
        enabled=rd.get(t, "enabled", _boolean, d.enabled),
        host=rd.get(t, "host", _host, d.host),
        port=rd.get(t, "port", _integer("a port", 1, 65535), d.port),
        tls=rd.get(t, "tls", _boolean, d.tls),
        ca_file=rd.get(t, "ca_file", rd.path, d.ca_file),
        username=rd.get(t, "username", _user, d.username),
        password_file=rd.get(t, "password_file", rd.path, d.password_file),
        room=rd.get(t, "room", _mqtt_name, d.room),
        table=rd.get(t, "table", _mqtt_name, d.table),
        home_assistant=rd.get(t, "home_assistant", _boolean, d.home_assistant),
    )
    if "password" in rd.table(t):
        rd.known[t].append("password")
        rd.problem((t, "password"), "a password is never written here: put it alone in a "
                                    "file readable only by the box and name it with "
                                    "password_file")
    if config.password_file is not None and config.username is None:
        rd.problem((t, "password_file"), "a password needs a username")
    if config.ca_file is not None and not config.tls:
        rd.problem((t, "ca_file"), "a CA file is for tls = true")
    return config


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
