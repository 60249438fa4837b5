"""The public JSON view of a QNO game: what the scenario runner prints and tools read."""

from __future__ import annotations

from typing import Any

from . import circuit
from .engine import Qno


def report(game: Qno, error: dict[str, Any] | None = None) -> dict[str, Any]:
    s = game.state
    return {
        "game": game.game,
        "seed": game.seed,
        "options": dict(s.options),
        "status": s.status,
        "winners": list(s.winners),
        "turn": {"player": s.turn, "number": s.turn_number, "direction": s.direction},
        "top": {"state": s.top_state, "value": s.top_value,
                "card": s.discard[-1] if s.discard else None},
        "counts": list(s.counts),
        "hands": None if s.hands is None else [list(h) for h in s.hands],
        "pile": s.pile,
        "discard": list(s.discard),
        "circuit": list(s.circuit),
        "circuit_text": circuit.text(s.circuit),
        "pending": s.pending,
        "log": list(game.log),
        "error": error,
    }
