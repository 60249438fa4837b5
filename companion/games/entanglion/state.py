"""The plain-data state of one Entanglion game.

Everything the rules need is here, chance included (the generator state and any
forced dice), so a state serialises to JSON and back without loss. Lists that are
decks are written top card first. The engine mutates a clone of the state for each
input, so the state before stays whole as the undo snapshot; ``clone`` is hand-written
because it sits on the hot path, and shares what never changes in place (``SHARED``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .board import MERCURIAL, RING, RUBICON


# Changed only by replacing them (a new list or dict, or a copy made before changing
# it), so clones may share them: they change a few times a game or less than once an
# input, and a clone copies only the hands and the engine deck and discard.
SHARED = ("forced", "planet_components", "ship_components", "held_events", "engine_control",
          "event_deck", "event_discard", "drawn", "set_aside", "retrieved_from")


_new = object.__new__


def _per_ship() -> dict[str, list[str]]:
    return {MERCURIAL: [], RUBICON: []}


@dataclass(slots=True)
class State:
    options: dict[str, Any]
    rng: int
    forced: list[int]  # forced dice still to come, in rolling order
    status: str = "setup"  # setup | playing | won | lost
    turn_player: str | None = None
    turn_number: int = 0
    pos: tuple[str, str] = ("ZERO", "ZERO")  # (mercurial's planet, rubicon's planet)
    detection: int = 1  # space on the track, 1..12
    planet_components: dict[str, str | None] = field(default_factory=lambda: dict.fromkeys(RING))
    ship_components: dict[str, list[str]] = field(default_factory=_per_ship)
    hands: dict[str, list[str]] = field(default_factory=_per_ship)
    held_events: dict[str, list[str]] = field(default_factory=_per_ship)
    # [card, ship] per slot
    engine_control: list[list[str]] = field(default_factory=list)
    engine_stack: list[str] = field(default_factory=list)
    engine_discard: list[str] = field(default_factory=list)  # last = most recent
    event_deck: list[str] = field(default_factory=list)
    event_discard: list[str] = field(default_factory=list)
    # Engine cards out of hand mid-procedure: The Mechanic's draw, Quantum Gates' two.
    drawn: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)  # hand put aside by The Mechanic
    slot6_filled: bool = False  # this turn (ruling Q8)
    retrieved_from: list[str] = field(default_factory=list)  # emptied by retrieval (Q18)
    interconnected: bool = False  # Qubit Interconnect has traded this turn

    def clone(self) -> "State":
        # Shared, not copied: options and the fields in SHARED, which the engine replaces
        # and never changes in place (the hands, the engine deck and its discard change
        # almost every input; those are copied). Slots set one by one: cheaper than the
        # dataclass's __init__ call. (The compiled build leaves this module interpreted:
        # 3.11's specialised slot access beats Cython's generic one here.)
        c = _new(State)
        c.options = self.options
        c.rng = self.rng
        c.forced = self.forced
        c.status = self.status
        c.turn_player = self.turn_player
        c.turn_number = self.turn_number
        c.pos = self.pos
        c.detection = self.detection
        c.planet_components = self.planet_components
        c.ship_components = self.ship_components
        h = self.hands
        c.hands = {MERCURIAL: h[MERCURIAL][:], RUBICON: h[RUBICON][:]}
        c.held_events = self.held_events
        c.engine_control = self.engine_control
        c.engine_stack = self.engine_stack[:]
        c.engine_discard = self.engine_discard[:]
        c.event_deck = self.event_deck
        c.event_discard = self.event_discard
        c.drawn = self.drawn
        c.set_aside = self.set_aside
        c.slot6_filled = self.slot6_filled
        c.retrieved_from = self.retrieved_from
        c.interconnected = self.interconnected
        return c

    def set_ship(self, name: str, ship: str, items: list[str]) -> None:
        """Give ``ship`` a new list in the per-ship field ``name`` (one of SHARED)."""
        setattr(self, name, {**getattr(self, name), ship: items})

    def to_dict(self) -> dict[str, Any]:
        """Exact, JSON-ready form (for the journal and round trips)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if f.name == "pos" else value
        return _deep_copy(out)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        data = _deep_copy(data)
        data["pos"] = tuple(data["pos"])
        return cls(**data)


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_deep_copy(v) for v in value]
    return value
