"""The plain-data state of one QNO game.

The box never sees the shuffled deck: players shuffle and draw real cards. So the
state holds what the box *knows*: the discard pile, how many cards each pile and
hand has, and ``unseen``, the multiset of cards whose place it does not know. With
tracked hands that is exactly the draw pile; in honour mode it is the draw pile and
every hand together. Chance of its own (the H outcomes, a random dealer) is the
generator state ``rng`` plus any ``forced`` outcomes, so a state round-trips through
JSON and a game replays bit for bit.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(slots=True)
class State:
    options: dict[str, Any]
    rng: int
    forced: list[int]  # forced H outcomes (0 or 1) still to come, in order
    status: str = "setup"  # setup | playing | won
    turn: int = 1  # the player to move, 1-based
    turn_number: int = 0
    direction: int = 1  # +1 ascending seats, -1 descending
    top_state: str | None = None  # the effective top: what a card must match
    top_value: str | None = None  # None after a gate: only the state matches
    discard: list[str] = field(default_factory=list)  # the physical pile, last on top
    pile: int = 0  # cards in the draw pile
    unseen: dict[str, int] = field(default_factory=dict)
    hands: list[list[str]] | None = None  # tracked hands, index player - 1
    counts: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    circuit: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, Any] | None = None  # the prompt being waited on
    draws: list[list[Any]] = field(default_factory=list)  # [player, count, reason] to take
    after_draws: dict[str, Any] | None = None  # what happens once ``draws`` are taken
    gate: dict[str, Any] | None = None  # a gate being resolved (H: its committed outcome)
    uncalled: int | None = None  # call_or_catch: at one card and not called yet
    called: int | None = None  # called QNO! before playing their penultimate card

    def clone(self) -> "State":
        # Hand-written: one clone per input (the undo snapshot), so it is the hot path.
        # Dicts held whole (options, circuit ops, prompts) are never mutated in place.
        return State(
            self.options, self.rng, self.forced[:], self.status, self.turn, self.turn_number,
            self.direction, self.top_state, self.top_value, self.discard[:], self.pile,
            dict(self.unseen), None if self.hands is None else [h[:] for h in self.hands],
            self.counts[:], self.winners[:], self.circuit[:], self.pending,
            [d[:] for d in self.draws], None if self.after_draws is None else dict(self.after_draws),
            self.gate, self.uncalled, self.called)

    def to_dict(self) -> dict[str, Any]:
        return copy.deepcopy(asdict(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        return cls(**copy.deepcopy(data))
