"""What every game's ``ui`` module shares with the session: menu items, setup steps,
and the table of games the box can play."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Callable, NamedTuple

from ..i18n import _


class Item(NamedTuple):
    label: str
    action: dict[str, Any] | None  # an engine input, or {"session": ...} for the box's own
    targets: tuple[str, ...] = ()  # planets to blink while the cursor is on it
    risk: int = 0  # how much OK on it unread could be regretted (see default_cursor)


# How much a player pressing OK on an item without reading it could regret it. The
# game's ui module says it of each item; the session applies one rule to every menu
# and prompt of every game (:func:`default_cursor`).
SAFE = 0
LONG_SHOT = 1  # a roll more likely lost than won
WASTED = 2  # spends a card, an event or the turn for nothing (no effect; QNO: a draw
# while a card could be played; the box's own items that leave the move)
HARMFUL = 3  # throws something away: a failed roll kept when a re-roll is free, the
# ships taken out of Entanglion, an undo


def default_cursor(items: list[Item] | tuple[Item, ...]) -> int:
    """The item pre-selected when a menu or prompt appears: the first of the least
    risk, so OK on whatever is pre-selected is never the regrettable choice while a
    better one is on the list (the order of the list itself is the game's)."""
    if not items:
        return 0
    return min(range(len(items)), key=lambda i: (items[i].risk, i))


class Step(NamedTuple):
    """One setup question: an option key, its choices (label, value) and the value
    pre-selected when the box's config has none (the rule book's)."""

    key: str
    title: str
    choices: tuple[tuple[str, Any], ...]
    default: Any = None


GAMES = ("entanglion", "qno", "qlanet")  # in main-menu order


def ui_for(game: str) -> ModuleType:
    """The ``ui`` module of ``game`` (imported on first use)."""
    if game not in GAMES:
        raise KeyError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(f"companion.games.{game}.ui")


# ------------------------------------------------------------------ measuring words
# How wide a text draws is the views' to say (their font); a game's screens only choose
# between a long and a short wording. So no game imports a view: the session, which
# draws through the views, hands the games the views' measure once (:func:`measure_with`).


class Ruler(NamedTuple):
    text_width: Callable[[str], int]  # pixels a line of text takes on the OLED
    wrap: Callable[[str], list[str]]  # the lines a text screen breaks a text into
    menu_label: int  # pixels a menu item's label may take


_ruler: list[Ruler] = []


def measure_with(ruler: Ruler) -> None:
    """Make ``ruler`` the measure every game's screens fit their words by."""
    _ruler[:] = [ruler]


def _measure() -> Ruler:
    if not _ruler:
        raise RuntimeError("no measure for words yet: importing companion.session hands "
                           "the games the views' (games.common.measure_with)")
    return _ruler[0]


def text_width(text: str) -> int:
    """Pixels ``text`` takes on one line of the OLED."""
    return _measure().text_width(text)


def wrap(text: str) -> list[str]:
    """The lines a text screen breaks ``text`` into."""
    return _measure().wrap(text)


def fits_menu(label: str) -> bool:
    """Whether ``label`` fits a menu item."""
    return text_width(label) <= _measure().menu_label


# ------------------------------------------------------------------ the story of a game

PAUSE = 10 * 60  # seconds: a longer gap between two inputs is a break, not play


def played_seconds(record: Any) -> float | None:
    """Time spent playing a journal game: the gaps between its inputs (from its start),
    leaving out breaks longer than :data:`PAUSE`. None without a record."""
    if record is None:
        return None
    times = [record.created] + [e.at for e in record.entries]
    return sum(b - a for a, b in zip(times, times[1:]) if 0 <= b - a <= PAUSE)


# Translators: A game's time played, in the story and the list of games (about 8
# characters).
def duration(seconds: float | None) -> str:
    """``"52 min"``, ``"1 h 05"``, ``"<1 min"``; "" when unknown."""
    if seconds is None:
        return ""
    minutes = round(seconds / 60)
    if minutes < 1:
        return _("<1 min")
    if minutes < 60:
        return _("{minutes} min").format(minutes=minutes)
    return _("{hours} h {minutes:02d}").format(hours=minutes // 60, minutes=minutes % 60)


def rate(won: int, games: int) -> str:
    """``"3/4 won (75%)"``."""
    return f"{won}/{games} won ({round(100 * won / games)}%)" if games else "no games"
