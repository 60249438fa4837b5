"""The public JSON view of a game: what the scenario runner prints and tools read."""

from __future__ import annotations

from typing import Any

from .board import MERCURIAL, RUBICON, SHIPS
from .cards import track_value
from .engine import Entanglion
from .odds import legal
from .quantum import describe


def report(game: Entanglion, error: dict[str, Any] | None = None) -> dict[str, Any]:
    s = game.state
    return {
        "game": game.game,
        "seed": game.seed,
        "options": dict(s.options),
        "status": s.status,
        "turn": {"player": s.turn_player, "number": s.turn_number},
        "ships": {MERCURIAL: s.pos[0], RUBICON: s.pos[1]},
        "quantum_state": describe(s.pos),
        "detection": {"space": s.detection, "value": track_value(s.detection)},
        "components": {
            "planets": dict(s.planet_components),
            MERCURIAL: list(s.ship_components[MERCURIAL]),
            RUBICON: list(s.ship_components[RUBICON]),
        },
        "hands": {ship: list(s.hands[ship]) for ship in SHIPS},
        "held_events": {ship: list(s.held_events[ship]) for ship in SHIPS},
        "engine_control": [{"card": card, "ship": ship} for card, ship in s.engine_control],
        "engine_stack": list(s.engine_stack),
        "engine_discard": list(s.engine_discard),
        "drawn": list(s.drawn),
        "set_aside": list(s.set_aside),
        "event_deck": list(s.event_deck),
        "event_discard": list(s.event_discard),
        "pending": game.pending,
        "legal": legal(game),
        "log": list(game.log),
        "error": error,
    }
