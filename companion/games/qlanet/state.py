"""The plain-data state of one QLANET game.

Everything the rules need is here, chance included (the generator state and the
forced outcomes still to come), so a state serialises to JSON and back without loss.
Planets are indexed 0-8 inside (planet number - 1). The quantum lists are the ints of
:mod:`.quantum`: ``truth`` is the board's real state, ``knowledge`` what each viewer
("spectator", "0" for camp 0, "1" for camp 1) can pin down. The engine mutates a state
in place; ``clone`` is hand-written because it runs once per action (undo snapshots).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any

VIEWERS = ("spectator", "0", "1")


def _knowledge() -> dict[str, list[int]]:
    return {v: [] for v in VIEWERS}


@dataclass(slots=True)
class State:
    options: dict[str, Any]
    rng: int
    forced: list[Any]  # forced chance outcomes still to come, in order
    status: str = "setup"  # setup | playing | won (also a capped end or a shared win)
    turn_player: int | None = None
    turn_number: int = 0  # the move being awaited, from 1; moves made = turn_number - 1
    costs: list[int] = field(default_factory=lambda: [0, 0])
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    deck: list[str] = field(default_factory=list)  # refill "deck" only; top card first
    discard: list[str] = field(default_factory=list)  # played and discarded, oldest first
    fixed: list[int | None] = field(default_factory=lambda: [None] * 9)
    truth: list[int] = field(default_factory=list)
    knowledge: dict[str, list[int]] = field(default_factory=_knowledge)
    bells: list[dict[str, Any]] = field(default_factory=list)  # secret codes, revealed at the end
    winners: list[int] = field(default_factory=list)

    def clone(self) -> "State":
        k = self.knowledge
        return State(
            self.options, self.rng, self.forced[:], self.status, self.turn_player,
            self.turn_number, self.costs[:], [self.hands[0][:], self.hands[1][:]],
            self.deck[:], self.discard[:], self.fixed[:], self.truth[:],
            {v: k[v][:] for v in VIEWERS}, [dict(b) for b in self.bells], self.winners[:],
        )

    def to_dict(self) -> dict[str, Any]:
        """Exact, JSON-ready form (for the journal and round trips)."""
        return _deep_copy({f.name: getattr(self, f.name) for f in fields(self)})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        return cls(**_deep_copy(data))


def _deep_copy(value: Any) -> Any:
    # Through JSON: the exact journal form, and faster than a recursive copy.
    return json.loads(json.dumps(value))
