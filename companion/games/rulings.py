"""Named game options, shared by every game: each disputed rule is a :class:`Choice`.

A game lists its options in one ``RULINGS`` table (the one place each ruling is
documented); this module validates a given options dict against such a table and
describes it for people. Options are plain JSON values so they travel with a game's
state and its journal.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..frozen import frozen


@frozen
class Choice:
    """``words`` are what players read: a short name and a short label per allowed
    value, marked ``NC_("ruling", ...)`` in the game's catalog (a number is its own
    label). The stories and the page's charts say a ruling with :func:`say`."""

    default: Any
    allowed: tuple[Any, ...]
    doc: str
    words: tuple[str, Mapping[Any, str]] = ("", {})


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


def label(choice: Choice, value: Any) -> str | None:
    """The English label of ``value`` (type and all: True is not 1), None if it has none."""
    return next((text for v, text in choice.words[1].items()
                 if v == value and type(v) is type(value)), None)


def say(choice: Choice, value: Any, pgettext: Callable[[str, str], str]) -> tuple[str, str]:
    """A ruling's name and ``value``'s label, translated by the game's ``pgettext``."""
    text = label(choice, value)
    return (pgettext("ruling", choice.words[0]),
            pgettext("ruling", text) if text is not None else str(value))
