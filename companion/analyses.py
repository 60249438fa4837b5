"""The analysis after the game, run by the box while nobody plays.

:class:`Analyst` picks the latest finished Entanglion game of the journal that has no
analysis yet and weighs its decisions one at a time (``games/entanglion/analysis.py``);
the daemon calls :meth:`Analyst.work` only while no game is in play, so a new game
never waits for it: the work stops when a game starts and goes on, from the decision
where it stopped, once that game is over or left. Nothing is written until a game's
analysis is complete; then one line is appended to the analyses file (one small
write per game, the only flash write this costs).

The file is JSON lines, ``{"game": id, "analysis": {...}}``, beside the journal. A
line that cannot be read (a cut-off write) is skipped and the game analysed again.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from .games.entanglion import hint
from .games.entanglion.analysis import Analysis
from .journal import Journal, JournalError

log = logging.getLogger(__name__)

FILE = "analyses.jsonl"
RECENT = 20  # finished games looked at for one without an analysis


class Analyses:
    """The analyses file: read once, appended to."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._known: dict[int, dict[str, Any]] | None = None

    def _load(self) -> dict[int, dict[str, Any]]:
        if self._known is None:
            self._known = {}
            try:
                text = self.path.read_text(encoding="utf-8")
            except FileNotFoundError:
                text = ""
            for line in text.splitlines():
                try:
                    row = json.loads(line)
                    self._known[int(row["game"])] = row["analysis"]
                except (ValueError, KeyError, TypeError):
                    log.warning("analyses: a line that cannot be read is skipped")
        return self._known

    def get(self, game_id: int) -> dict[str, Any] | None:
        return self._load().get(game_id)

    def save(self, game_id: int, analysis: dict[str, Any]) -> None:
        line = json.dumps({"game": game_id, "analysis": analysis}, ensure_ascii=False)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        self._load()[game_id] = analysis


class Analyst:
    """The background analysis: a game at a time, a decision per :meth:`work`."""

    def __init__(self, journal: Journal, analyses: Analyses, budget: int = hint.DEFAULT_BUDGET):
        self.journal = journal
        self.analyses = analyses
        self.budget = budget
        self._game: int | None = None
        self._work: Analysis | None = None
        self._skip: set[int] = set()  # games whose record cannot be replayed
        self._maybe = True  # a game may be waiting (False: none was, and nothing ended since)

    def poke(self) -> None:
        """A game may have ended: look again."""
        self._maybe = True

    def _next_game(self) -> int | None:
        for summary in self.journal.games(limit=RECENT):
            if summary.game == "entanglion" and summary.status in ("won", "lost") \
                    and summary.id not in self._skip and self.analyses.get(summary.id) is None:
                return summary.id
        self._maybe = False
        return None

    def pending(self) -> bool:
        """Whether there is a game to analyse (no journal read unless a game may have
        ended since the last look)."""
        return self._work is not None or (self._maybe and self._next_game() is not None)

    def work(self) -> int | None:
        """Weigh one decision; the id of the game whose analysis this completed, if any."""
        if self._work is None:
            gid = self._next_game()
            if gid is None:
                return None
            try:
                record = self.journal.load(gid)
                self._work = Analysis(record.seed, record.options, record.setup,
                                      Journal.effective_inputs(record.entries), self.budget)
            except (JournalError, ValueError, KeyError) as exc:
                log.error("game #%s cannot be analysed: %s", gid, exc)
                self._skip.add(gid)
                return None
            self._game = gid
        if not self._work.step():
            return None
        gid, result = self._game, self._work.result()
        self._work = self._game = None
        try:
            self.analyses.save(gid, result)  # type: ignore[arg-type]
        except OSError as exc:
            log.error("analysis of game #%s not saved: %s", gid, exc)
            self._skip.add(gid)  # type: ignore[arg-type]
            return None
        return gid
