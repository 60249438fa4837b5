"""Numbers for the end-of-game page and the history page: pure functions of a game's
log and of the journal's game list. The plots are drawn from them by ``svg``."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping

HISTORY_GAMES = 200  # the history page covers the latest games only (a Pi's memory)


def entanglion_end(log: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Turns, detections by cause, defence rolls made and failed, who retrieved what,
    the detection space over turns and each defence roll against its target."""
    turn, detection = 0, []
    causes: Counter[str] = Counter()
    rolls, retrieved = [], []
    for e in log:
        t = e["type"]
        if t == "turn":
            turn = e["number"]
        elif t == "setup":
            detection.append((0, e["detection"]))
        elif t == "detection":
            causes[str(e["reason"])] += 1
            detection.append((turn, e["space"]))
        elif t == "roll" and "beat" in e:
            rolls.append({"turn": turn, "player": e["player"], "roll": e["modified"],
                          "target": e["beat"], "made": e["modified"] > e["beat"]})
        elif t == "retrieved":
            retrieved.append({"player": e["player"], "component": e["component"],
                              "planet": e["planet"]})
    return {
        "turns": turn,
        "detections": dict(causes),
        "rolls": {"made": sum(r["made"] for r in rolls),
                  "failed": sum(not r["made"] for r in rolls), "each": rolls},
        "retrieved": retrieved,
        "detection_over_turns": detection,
    }


def history(games: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Across finished games: Entanglion's win rate (the table against the game: QNO
    and QLANET always have a winner) by difficulty and by each option's value, and
    turns per game for every game. ``games`` are dicts with id, game, status, turns and
    options (newest first, as the journal lists them)."""
    done = [g for g in games if g["status"] in ("won", "lost")]
    rates: dict[str, dict[str, list[int]]] = {}

    def count(group: str, key: str, won: bool) -> None:
        cell = rates.setdefault(group, {}).setdefault(key, [0, 0])
        cell[0] += won
        cell[1] += 1

    for g in done:
        if g["game"] != "entanglion":
            continue
        won = g["status"] == "won"
        options = g.get("options") or {}
        if "start_space" in options:
            count("difficulty", f"start space {options['start_space']}", won)
        for key, value in sorted(options.items()):
            if key != "start_space" and isinstance(value, (str, int, bool)):
                count(key, str(value), won)
    return {
        "games": len(done),
        "win_rate": {group: {k: {"won": w, "played": n, "rate": w / n}
                             for k, (w, n) in sorted(cells.items())}
                     for group, cells in rates.items()},
        "turns": [{"id": g["id"], "game": g["game"], "turns": g["turns"],
                   "status": g["status"]} for g in reversed(done)],
    }
