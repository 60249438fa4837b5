"""Named game options, shared by every game: each disputed rule is a :class:`Choice`.

A game lists its options in one ``RULINGS`` table (the one place each ruling is
documented); this module validates a given options dict against such a table and
describes it for people. Options are plain JSON values so they travel with a game's
state and its journal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class Choice:
    default: Any
    allowed: tuple[Any, ...]
    doc: str


class OptionError(ValueError):
    pass


def make(rulings: Mapping[str, Choice], given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Complete options dict with defaults; raises OptionError on unknown keys or values."""
    given = dict(given or {})
    out = {}
    for name, choice in rulings.items():
        value = given.pop(name, choice.default)
        # Compare types too: True == 1 and False == 0 must not pass for each other.
        if not any(value == a and type(value) is type(a) for a in choice.allowed):
            allowed = ", ".join(repr(a) for a in choice.allowed)
            raise OptionError(f"option {name!r} must be one of {allowed}, not {value!r}")
        out[name] = value
    if given:
        raise OptionError(f"unknown option(s): {', '.join(sorted(given))} "
                          f"(known: {', '.join(rulings)})")
    return out


def describe(rulings: Mapping[str, Choice]) -> str:
    """All options with defaults and documentation, for ``companion rules`` and docs."""
    rows = []
    for name, c in rulings.items():
        allowed = " | ".join(repr(a) for a in c.allowed)
        rows.append(f"{name} (default {c.default!r}; {allowed})\n    {c.doc}")
    return "\n".join(rows)
