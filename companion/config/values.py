"""The checks of single values, and how a message words a key or a value.

A check takes the value tomllib read and returns it (converted, if need be) or raises
:class:`_Bad` with what was expected; the reader adds the file, line and key.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Callable

from .schema import GPIO_MAX

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class ConfigError(Exception):
    """A bad config file. ``str()`` is always one line; ``line`` and ``key`` when known."""

    def __init__(self, message: str, *, line: int | None = None, key: str | None = None):
        super().__init__(_one_line(message))
        self.line = line
        self.key = key


class _Bad(Exception):
    """A value's problem, before the loader adds the file, line and key."""


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


_address = _integer("an I2C address", 0x03, 0x77, "0x{:02X}".format)


def _key(*parts: str) -> str:
    """A dotted key as TOML writes it: bare parts bare, the others quoted."""
    return ".".join(p if _BARE_KEY.fullmatch(p) else json.dumps(p) for p in parts)


def _quote(text: str) -> str:
    return f'"{text}"'


def _one_line(text: str) -> str:
    # Paths and keys come from people; no control character may break the one line.
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
