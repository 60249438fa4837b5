"""Input events: what the hardware (or the simulator) tells the session.

Plain immutable values, so a thread that produces them (a gpiozero callback, the
serial reader) only builds one and puts it on the queue; the session consumes them on
the main thread. ``Tick`` is time passing, sent only while an animation or a blink
is running, so an idle box does no work.
"""

from __future__ import annotations

from typing import Any, Callable

from .frozen import frozen

OK, BACK, UP, DOWN, RETRIEVE, EXCHANGE = "OK", "BACK", "UP", "DOWN", "RETRIEVE", "EXCHANGE"
BUTTONS = (OK, BACK, UP, DOWN, RETRIEVE, EXCHANGE)


@frozen
class Press:
    """A short press of a button."""

    button: str
    remote: bool = False  # from a paired phone's page, not the box's own buttons


@frozen
class Hold:
    """A button held past the hold time (BACK held = undo)."""

    button: str
    remote: bool = False  # from a paired phone's page, not the box's own buttons


@frozen
class Release:
    """A held button let go (only for buttons whose hold lasts: QLANET's peek)."""

    button: str
    remote: bool = False  # from a paired phone's page, not the box's own buttons


@frozen
class Tag:
    """A tag arrived on a reader pad (pads are numbered from 1)."""

    pad: int
    uid: str


@frozen
class PinBurned:
    """Too many wrong guesses at the web page's pairing PIN: the PIN is void. The web
    server's thread puts this on the queue; the session tells the table."""


@frozen
class Tick:
    """Time passed: advance animations and blinking by one step."""


@frozen
class Refresh:
    """Not an input: draw the box again so its observers see it (a web page opened
    while the box was building no snapshots). Changes nothing in the game."""


@frozen
class RoomCommand:
    """A command from the room's broker (docs/mqtt.md), already checked: ``kind`` is
    "message" (``text``), "pause" or "rules" (``game`` and its set-up ``rules``, for the
    next game). Shown on the OLED; never changes a game in play."""

    kind: str
    text: str = ""
    game: str = ""
    rules: tuple[tuple[str, Any], ...] = ()


@frozen
class RoomWaiting:
    """Not an input: room commands are waiting; ``take()`` hands them over (on the game
    thread, between inputs). One such event is queued at a time, whatever the flood."""

    take: Callable[[], list[RoomCommand]]


Event = Press | Hold | Release | Tag | PinBurned | Refresh | Tick | RoomCommand
