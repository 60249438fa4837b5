"""What every game's ``ui`` module shares with the session: menu items, setup steps,
and the table of games the box can play."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, NamedTuple


class Item(NamedTuple):
    label: str
    action: dict[str, Any] | None  # an engine input, or {"session": ...} for the box's own
    targets: tuple[str, ...] = ()  # planets to blink while the cursor is on it


class Step(NamedTuple):
    """One setup question: an option key and its choices (label, value)."""

    key: str
    title: str
    choices: tuple[tuple[str, Any], ...]


GAMES = ("entanglion", "qno", "qlanet")  # in main-menu order


def ui_for(game: str) -> ModuleType:
    """The ``ui`` module of ``game`` (imported on first use)."""
    if game not in GAMES:
        raise KeyError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(f"companion.games.{game}.ui")
