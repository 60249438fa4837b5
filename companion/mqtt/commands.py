"""The room's commands, checked strictly before anything reaches the game thread.

A command is one JSON object, at most :data:`MAX_BYTES`:

* ``{"command": "message", "text": "..."}``: shown on the OLED (it must fit its lines);
* ``{"command": "pause"}``: the OLED asks the table to pause (a player goes on with OK:
  a room can ask, never lock a table);
* ``{"command": "rules", "game": "entanglion", "rules": {"start_space": 4}}``: the choices
  the next game's set-up starts on, each a choice that game's set-up offers.

Anything else (not JSON, too big, an unknown command or key, a value the game does not
offer) is :class:`Refused` with the reason, which the caller logs.
"""

from __future__ import annotations

import json
from typing import Any

from ..inputs import RoomCommand
from ..views.font import wrap
from ..views.oled import WIDTH

MAX_BYTES = 2048
MAX_TEXT = 120  # characters of a message, at most; it must also fit the alert's lines
MESSAGE_LINES = 4  # the OLED's body lines under an alert's title, less the "OK" hint

_KEYS = {"message": {"command", "text"}, "pause": {"command"},
         "rules": {"command", "game", "rules"}}


class Refused(ValueError):
    """Not a command this box takes; ``str()`` says why, in one line."""


def parse(payload: bytes) -> RoomCommand:
    if len(payload) > MAX_BYTES:
        raise Refused(f"{len(payload)} bytes (at most {MAX_BYTES})")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused("not a JSON object") from None
    if not isinstance(data, dict):
        raise Refused("not a JSON object")
    kind = data.get("command")
    if kind not in _KEYS:
        raise Refused(f"unknown command {str(kind)[:40]!r}")
    extra = set(data) - _KEYS[kind]
    if extra or set(data) != _KEYS[kind]:
        raise Refused(f"{kind}: expected the keys {sorted(_KEYS[kind])}, got {sorted(data)[:8]}")
    if kind == "message":
        text = data["text"]
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT \
                or not text.isprintable():
            raise Refused(f"message: expected 1-{MAX_TEXT} printable characters")
        text = " ".join(text.split())
        if len(wrap(text, WIDTH)) > MESSAGE_LINES:
            raise Refused(f"message: longer than the OLED's {MESSAGE_LINES} lines")
        return RoomCommand("message", text=text)
    if kind == "pause":
        return RoomCommand("pause")
    return RoomCommand("rules", game=data["game"] if isinstance(data["game"], str) else "",
                       rules=_rules(data["game"], data["rules"]))


def _rules(game: Any, rules: Any) -> tuple[tuple[str, Any], ...]:
    from ..games.common import GAMES, ui_for

    if game not in GAMES:
        raise Refused(f"rules: unknown game {str(game)[:40]!r}")
    if not isinstance(rules, dict) or not rules:
        raise Refused("rules: expected an object of set-up choices")
    steps = {step.key: step for step in ui_for(game).SETUP_STEPS}
    out = []
    for key, value in rules.items():
        if key not in steps:
            raise Refused(f"rules: {game} has no set-up choice {key[:40]!r}")
        values = [v for _, v in steps[key].choices]
        # bool is an int in Python, never a choice here
        if isinstance(value, bool) or value not in values:
            raise Refused(f"rules: {key} is one of {values}")
        out.append((key, value))
    return tuple(sorted(out))
