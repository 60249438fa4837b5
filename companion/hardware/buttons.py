"""The six buttons: gpiozero supplies edges, our own pure code decides what they mean.

gpiozero callbacks run on lgpio's thread on a Pi but synchronously in the caller on
mock pins, mock pins ignore ``bounce_time``, and ``when_pressed``/``when_held`` both
fire on a long press. So gpiozero is only an edge source here: each callback stamps
an :class:`Edge` with the clock and enqueues it, and :class:`Classifier` (no threads,
no clock of its own) turns edges into ``Press`` and ``Hold`` on the main loop.
A *holdable* button acts when it is let go (``Press``) or once held long enough
(``Hold``); a *releasing* one (QLANET's peek: :data:`PEEK`) is holdable and also
says when a hold ends (``Release``), so something can last exactly while it is held.

Debounce accepts the first edge at once (a press feels instant) and ignores the
bounces that follow for ``debounce`` seconds; when the window closes, the level the
contacts settled at wins, so a tap shorter than the window is never lost or stuck.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..frozen import frozen
from ..inputs import BACK, EXCHANGE, Event, Hold, Press, Release

log = logging.getLogger(__name__)

HOLDABLE = frozenset({BACK})  # only BACK has a hold meaning (undo); others act on press
PEEK = frozenset({EXCHANGE})  # releasing: QLANET shows a secret while EXCHANGE is held


@frozen
class Edge:
    """A raw level change, stamped by the thread that saw it."""

    button: str
    pressed: bool
    at: float


@dataclass
class _Button:
    raw: bool = False  # the level last reported by the pin
    stable: bool = False  # the level we believe after debouncing
    quiet_at: float = float("-inf")  # bounces before this time are ignored
    raw_at: float = float("-inf")  # when the pin last changed level
    down_at: float = 0.0
    held: bool = False


@dataclass
class Classifier:
    """Edges in, ``Press``/``Hold``/``Release`` out. Pure: time only arrives with the calls."""

    hold_time: float = 0.8
    debounce: float = 0.03
    holdable: frozenset[str] = HOLDABLE
    releasing: frozenset[str] = frozenset()  # also holdable; a hold ends with Release
    _buttons: dict[str, _Button] = field(default_factory=dict, repr=False)

    def feed(self, edge: Edge) -> list[Event]:
        """One edge at ``edge.at``; returns the events it completes."""
        out = self.due(edge.at)
        b = self._buttons.setdefault(edge.button, _Button())
        b.raw, b.raw_at = edge.pressed, edge.at
        if edge.at >= b.quiet_at and edge.pressed != b.stable:
            out += self._change(edge.button, b, edge.at)
        return out

    def due(self, now: float) -> list[Event]:
        """Events that fall due by ``now``: holds reached, bounce windows settled."""
        out: list[Event] = []
        for name, b in self._buttons.items():
            if b.raw != b.stable and now >= b.quiet_at:
                # Settled when the window closed; the contacts have been still since the
                # pin's last change, so the next window runs from that change, not from
                # now (else each settle would push the next press further out, and a
                # quick series of taps would lose one).
                out += self._change(name, b, b.quiet_at, b.raw_at)
            if (b.stable and not b.held and self._holds(name)
                    and now >= b.down_at + self.hold_time):
                b.held = True
                out.append(Hold(name))
        return out

    def deadline(self) -> float | None:
        """When :meth:`due` next has something to do (None: nothing pending)."""
        times = []
        for name, b in self._buttons.items():
            if b.raw != b.stable:
                times.append(b.quiet_at)
            if b.stable and not b.held and self._holds(name):
                times.append(b.down_at + self.hold_time)
        return min(times, default=None)

    def _holds(self, name: str) -> bool:
        return name in self.holdable or name in self.releasing

    def _change(self, name: str, b: _Button, at: float,
                still_since: float | None = None) -> list[Event]:
        b.stable = b.raw
        b.quiet_at = (at if still_since is None else still_since) + self.debounce
        if b.stable:
            b.down_at, b.held = at, False
            return [] if self._holds(name) else [Press(name)]
        if not self._holds(name):
            return []
        release: list[Event] = [Release(name)] if name in self.releasing else []
        if not b.held:
            if at - b.down_at >= self.hold_time:
                b.held = True
                return [Hold(name)] + release  # the loop slept through the hold time
            return [Press(name)]
        return release


class GpioButtons:
    """A gpiozero input per pin; callbacks only stamp and enqueue an :class:`Edge`.

    ``DigitalInputDevice`` rather than ``Button``: a ``Button`` starts a hold-polling
    thread per pin (waking ten times a second, forever) for a feature we do not use.
    """

    def __init__(self, pins: Mapping[str, int], put: Callable[[Edge], None], *,
                 pull_up: bool = True, clock: Callable[[], float] = time.monotonic,
                 pin_factory: object = None):
        from gpiozero import DigitalInputDevice

        self._put = put
        self._clock = clock
        self.buttons: dict[str, DigitalInputDevice] = {}
        try:
            for name, pin in pins.items():
                # No bounce_time: lgpio's debounce waits for a stable line (adds latency
                # and can drop quick taps); Classifier debounces instead. With the pull-up
                # a press pulls the pin low, which gpiozero then reports as active.
                button = DigitalInputDevice(pin, pull_up=pull_up, bounce_time=None,
                                            pin_factory=pin_factory)
                button.when_activated = self._callback(name, True)
                button.when_deactivated = self._callback(name, False)
                self.buttons[name] = button
        except Exception:
            self.close()
            raise

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def edge() -> None:  # zero arguments, so gpiozero does not pass the device
            try:
                self._put(Edge(name, pressed, self._clock()))
            except Exception:  # noqa: BLE001 - a callback thread has nobody to raise to
                log.exception("button %s: edge lost", name)
        return edge

    def pressed(self) -> list[str]:
        """Buttons held down right now (for selftest and a stuck-button check)."""
        return [name for name, b in self.buttons.items() if b.is_active]

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons = {}

    def __enter__(self) -> GpioButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

