"""The JSON view of a game: what the scenario runner prints and tools read.

``planets`` is the public board (the spectator view). What only the device knows sits
under ``truth``, for debugging: per-planet truth view, the true stabilizer generators
(one string per generator, planet 1 first), every secret code so far and the order of
the refill deck (only its size is public).
"""

from __future__ import annotations

from typing import Any

from .engine import Qlanet
from .knowledge import view
from .quantum import describe


def report(game: Qlanet, error: dict[str, Any] | None = None) -> dict[str, Any]:
    s = game.state
    return {
        "game": game.game,
        "seed": game.seed,
        "options": dict(s.options),
        "status": s.status,
        "winner": list(s.winners),
        "turn": {"player": s.turn_player, "number": s.turn_number},
        "costs": list(s.costs),
        "hands": [list(h) for h in s.hands],
        "deck_size": len(s.deck),
        "discard": list(s.discard),
        "planets": view(game, "spectator"),
        "truth": {
            "planets": view(game, "truth"),
            "stabilizers": [describe(g) for g in s.truth],
            "bells": [dict(b) for b in s.bells],
            "deck": list(s.deck),
        },
        "pending": game.pending,
        "log": list(game.log),
        "error": error,
    }
