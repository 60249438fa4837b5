"""Scenario runner: a JSON file in, the resulting game state as JSON out.

This is the contract that tests, bug reports and acceptance checks use (format in
``docs/scenarios.md``). Exit status: 0 every action applied, 3 an action was
illegal (the state before it is printed and ``error`` says which and why), 2 the
file itself is malformed (one line on stderr).
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from . import parsing

# Each game's forced chance: Entanglion's dice; QNO's H outcomes (0/1, in order);
# QLANET's measurement and BM outcomes and refills (its engine documents the format).
CHANCE = {"entanglion": "dice", "qno": "forced", "qlanet": "forced"}

EXIT_OK, EXIT_MALFORMED, EXIT_ILLEGAL = 0, 2, 3

# "expect" (a subset of the output that should result) is for the test suite, which
# checks every file in examples/; the runner itself only prints.
TOP_KEYS = {"game", "seed", "options", "setup", "dice", "forced", "actions", "expect",
            "comment", "description"}


class MalformedScenario(ValueError):
    """A file the runner cannot play; ``str()`` is one line (a key holding a newline is
    shown escaped)."""

    def __init__(self, message: str):
        super().__init__(message.replace("\r", "\\r").replace("\n", "\\n"))


def load(text: str, source: str = "scenario") -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedScenario(f"{source}: not valid JSON: {exc.msg} at line {exc.lineno} "
                                f"column {exc.colno}") from None
    except (RecursionError, ValueError) as exc:  # too deep, or a number too long
        raise MalformedScenario(f"{source}: {parsing.problem(exc, text) or exc}") from None
    if not isinstance(data, dict):
        raise MalformedScenario(f"{source}: the top level must be an object")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise MalformedScenario(f"{source}: unknown key(s) {', '.join(sorted(unknown))} "
                                f"(known: {', '.join(sorted(TOP_KEYS))})")
    game = data.get("game", "entanglion")
    if not isinstance(game, str) or game not in CHANCE:
        raise MalformedScenario(f"{source}: unknown game {game!r} (known: {', '.join(CHANCE)})")
    for key in set(CHANCE.values()) - {CHANCE[game]}:
        if key in data:
            raise MalformedScenario(f"{source}: {key!r} is not for {game} "
                                    f"(its forced chance is {CHANCE[game]!r})")
    if type(data.get("seed", 0)) is not int:
        raise MalformedScenario(f"{source}: seed must be a whole number")
    if not -2 ** 63 <= data.get("seed", 0) < 2 ** 63:  # what the journal can store
        raise MalformedScenario(f"{source}: seed must fit in 64 bits (-2^63 to 2^63-1)")
    for key, kind in (("options", dict), ("setup", dict), ("dice", list), ("forced", list),
                      ("actions", list)):
        if key in data and not isinstance(data[key], kind):
            raise MalformedScenario(f"{source}: {key} must be a{'n object' if kind is dict else ' list'}")
    for i, action in enumerate(data.get("actions", [])):
        if not isinstance(action, dict) or not isinstance(action.get("do"), str):
            raise MalformedScenario(f"{source}: actions[{i}] must be an object with a \"do\" string")
    return data


def play(data: dict[str, Any], source: str = "scenario") -> tuple[Any, dict[str, Any] | None]:
    """Build a loaded scenario's game and push its actions: (game, error). ``error`` is
    None, or ``{index, action, reason}`` for the first illegal action (the game is left
    as it was before it)."""
    name = data.get("game", "entanglion")
    package = importlib.import_module(f"companion.games.{name}")
    try:
        game = package.ENGINE(data.get("seed", 0), data.get("options"), data.get("setup"),
                              data.get(CHANCE[name], []))
    except package.SetupError as exc:
        raise MalformedScenario(f"{source}: {exc}") from None
    for i, action in enumerate(data.get("actions", [])):
        try:
            game.push(action)
        except package.IllegalAction as exc:
            return game, {"index": i, "action": action, "reason": str(exc)}
    return game, None


def run(data: dict[str, Any], source: str = "scenario") -> tuple[int, dict[str, Any]]:
    """Play a loaded scenario; returns (exit status, report)."""
    game, error = play(data, source)
    report = importlib.import_module(f"companion.games.{game.game}.report").report
    if error:
        return EXIT_ILLEGAL, report(game, error)
    return EXIT_OK, report(game)
