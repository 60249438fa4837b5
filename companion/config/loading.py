"""Loading a config file: read it, let tomllib parse the values, then check every
table and the keys across tables; any problem is one :class:`ConfigError` line."""

from __future__ import annotations

import os
import re
import tomllib
from typing import TYPE_CHECKING, Mapping

from .. import parsing
from .across import _check_needed, _check_pins, _check_screens, _check_second_bus
from .reader import _Reader
from .schema import DEFAULT_PATH, Config, PathsConfig, _default_state_dir
from .sections import (
    _buttons, _buzzer, _game, _leds, _link, _mqtt, _oled, _paths, _private_oled, _reader,
    _web,
)
from .values import ConfigError

if TYPE_CHECKING:
    from ..session import SessionConfig

_TOML_AT_LINE = re.compile(r"(.*) \(at line (\d+), column \d+\)", re.DOTALL)
_TOML_AT_END = re.compile(r"(.*) \(at end of document\)", re.DOTALL)


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
    from ..session import SessionConfig  # lazily: the session pulls in the game engines

    game = config.game
    return SessionConfig(pads=dict(game.pads), deck=game.deck, dice=game.dice,
                         start_space=game.start_space, qno_pads=dict(game.qno_pads),
                         private_screens=tuple(range(len(config.private_oled.addresses))))


def _read(name: str, missing_ok: bool) -> str | None:
    try:
        data = parsing.read_limited(name, parsing.CONFIG_LIMIT, name)
    except parsing.TooLarge as exc:
        raise ConfigError(str(exc)) from None
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
        mqtt=_mqtt(rd), game=_game(rd),
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
