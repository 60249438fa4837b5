"""The room's report: what the evening's finished games say, from the records' digests.

* games played and won, per game and per set-up (the choices the set-up screens
  offer, worded as they word them: Entanglion's difficulty first);
* what detected the ships (Entanglion): each cause as the games' stories name it,
  summed over the room, and what the lost games were lost to;
* the costliest choices, where the room has analysed a game (:class:`Analyst`: the
  same analysis as the box's, one decision at a time on a thread of its own, the
  latest :data:`ANALYSED` Entanglion games only, so its CPU is bounded);
* the same per game as CSV (one row a game) for a spreadsheet.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import threading
from pathlib import Path
from typing import Any, Callable

from .. import i18n

log = logging.getLogger(__name__)

ANALYSED = 20  # the latest Entanglion games the room analyses; older ones are not
ANALYSES_FILE = "analyses.jsonl"


def game_words(game: str) -> Callable[[str], str]:
    return i18n.for_catalog(game)[0]


def game_title(game: str) -> str:
    from ..games.common import ui_for

    return ui_for(game).TITLE


def setup_words(game: str, setup: dict[str, Any]) -> str:
    """A set-up as its screens word it ("Hard: track at 3, Real cards")."""
    from ..games.common import ui_for

    words = game_words(game)
    out = []
    for step in ui_for(game).SETUP_STEPS:
        for label, value in step.choices:
            if step.key in setup and setup[step.key] == value:
                out.append(words(label))
    # Translators: between the items of a list on one line (Japanese: 、).
    return i18n._(", ").join(out) if out else "-"


def cause_words(cause: str) -> str:
    from ..games.entanglion.story import CAUSE_WORDS

    return game_words("entanglion")(CAUSE_WORDS[cause]) if cause in CAUSE_WORDS else cause


def build(digests: list[dict[str, Any]], analyses: dict[tuple[str, int], Any]) -> dict[str, Any]:
    """The report as the page shows it (words in the room's language)."""
    games: dict[str, dict[str, int]] = {}
    setups: dict[tuple[str, tuple[Any, ...]], dict[str, Any]] = {}
    causes: dict[str, int] = {}
    lost_to: dict[str, int] = {}
    for d in digests:
        won = d["status"] == "won"
        g = games.setdefault(d["game"], {"played": 0, "won": 0})
        g["played"] += 1
        g["won"] += won
        key = tuple(sorted(d["setup"].items()))  # the digest's values are ints or strings
        row = setups.setdefault((d["game"], key), {"game": d["game"], "setup": d["setup"],
                                                   "played": 0, "won": 0})
        row["played"] += 1
        row["won"] += won
        if d["game"] == "entanglion":
            for cause, n in d["detections"].items():
                causes[cause] = causes.get(cause, 0) + n
            if d["lost_to"]:
                lost_to[d["lost_to"]] = lost_to.get(d["lost_to"], 0) + 1
    costliest = []
    for d in digests:
        c = analyses.get((d["table"], d["game_id"]))
        if c:
            costliest.append({"table": d["table"], "game_id": d["game_id"], **c})
    costliest.sort(key=lambda c: -c["cost"])
    return {
        "games": [{"game": g, "title": game_title(g), **v} for g, v in sorted(games.items())],
        "setups": [{"game": r["game"], "title": game_title(r["game"]),
                    "setup": setup_words(r["game"], r["setup"]), "played": r["played"],
                    "won": r["won"]}
                   for _, r in sorted(setups.items(), key=lambda kv: (
                       kv[0][0], sorted(kv[1]["setup"].items(), key=str)))],
        "causes": [{"cause": cause_words(c), "count": n}
                   for c, n in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))],
        "lost_to": [{"cause": cause_words(c), "count": n}
                    for c, n in sorted(lost_to.items(), key=lambda kv: (-kv[1], kv[0]))],
        "costliest": costliest[:10],
        "analysed": len(costliest),
    }


CSV_COLUMNS = ("table", "game_id", "game", "status", "setup", "turns", "detections",
               "lost_to", "costliest_choice", "best_choice", "cost_percent")


def csv_text(digests: list[dict[str, Any]], analyses: dict[tuple[str, int], Any]) -> str:
    """One row per game (the columns' names in English, the cells in the room's words)."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(CSV_COLUMNS)
    worded: dict[tuple[str, tuple[Any, ...]], str] = {}  # a convention has few set-ups
    for d in digests:
        c = analyses.get((d["table"], d["game_id"])) or {}
        key = (d["game"], tuple(sorted(d["setup"].items())))
        if key not in worded:
            worded[key] = setup_words(d["game"], d["setup"])
        detections = "; ".join(f"{cause_words(k)}: {n}" for k, n in d["detections"].items())
        w.writerow([_cell(v) for v in (
            d["table"], d["game_id"], game_title(d["game"]), d["status"],
            worded[key], d["turns"] if d["turns"] is not None else "",
            detections, cause_words(d["lost_to"]) if d["lost_to"] else "",
            c.get("played", ""), c.get("best", ""), c.get("cost", ""))])
    return out.getvalue()


def _cell(value: Any) -> str:
    """A cell a spreadsheet shows as text: one starting like a formula is quoted."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") and text != "-" else text


class Analyst:
    """Weighs the decisions of the room's latest Entanglion games, one decision per
    step on a daemon thread of its own, and keeps each game's costliest choice in
    ``folder / ANALYSES_FILE`` (JSON lines; a line that cannot be read is analysed
    again). ``budget``: the hint search's, per decision (the box's by default)."""

    def __init__(self, store: Any, folder: Path, budget: int | None = None,
                 on_done: Callable[[], None] = lambda: None):
        from ..games.entanglion import hint

        self.store = store
        self.path = folder / ANALYSES_FILE
        self.budget = budget or hint.DEFAULT_BUDGET
        self.on_done = on_done
        self._lock = threading.Lock()
        self.results: dict[tuple[str, int], Any] = {}
        self._skip: set[tuple[str, int]] = set()
        self._wake = threading.Event()
        self._stop = False
        self._read()
        self._thread = threading.Thread(target=self._run, name="companion-room-analyst",
                                        daemon=True)

    def _read(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return
        except OSError as exc:
            log.error("room: %s cannot be read (%s): games are analysed again", self.path, exc)
            return
        for line in lines:
            try:
                row = json.loads(line)
                self.results[(str(row["table"]), int(row["game_id"]))] = row["costliest"]
            except (ValueError, KeyError, TypeError):
                continue

    def analyses(self) -> dict[tuple[str, int], Any]:
        with self._lock:
            return dict(self.results)

    def start(self) -> Analyst:
        self._thread.start()
        return self

    def poke(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=5)

    def _next(self) -> tuple[str, int] | None:
        recent = [d for d in self.store.digests() if d["game"] == "entanglion"][-ANALYSED:]
        for d in reversed(recent):
            key = (d["table"], d["game_id"])
            if key not in self.results and key not in self._skip:
                return key
        return None

    def _run(self) -> None:
        from ..games.entanglion.analysis import Analysis

        while not self._stop:
            key = self._next()
            if key is None:
                self._wake.wait()
                self._wake.clear()
                continue
            try:
                scenario = (self.store.load(*key) or {}).get("scenario") or {}
                work = Analysis(scenario["seed"], scenario.get("options"),
                                scenario.get("setup"), scenario["actions"], self.budget)
                while not self._stop and not work.step():
                    pass
                if self._stop:
                    return
                found = work.result()["costliest"]
            except Exception as exc:  # noqa: BLE001 - a record that does not replay
                log.warning("room: game %s of table %s cannot be analysed (%s)", key[1],
                            key[0], exc)
                self._skip.add(key)
                continue
            costliest = None if found is None else {
                "turn": found["turn"], "played": found["played"], "best": found["best"],
                "cost": round(100 * (found["best_win"] - (found["played_win"] or 0.0)))}
            with self._lock:
                self.results[key] = costliest
            try:
                with open(self.path, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"table": key[0], "game_id": key[1],
                                        "costliest": costliest}, ensure_ascii=False) + "\n")
            except OSError as exc:
                log.error("room: analysis not kept in %s (%s)", self.path, exc)
            self.on_done()
