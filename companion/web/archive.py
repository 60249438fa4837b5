"""The past games as the web server reads them: the journal opened read-only (as
``companion games`` reads it beside a running box), on a worker thread, never the
game thread's connection; nothing is ever written.

Replays and story lines are kept, keyed by what makes them change (the number of
inputs, the status, the language), so stepping through a game replays it once: the
latest :data:`KEPT` games only (a Pi's memory).
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from .. import i18n, records
from ..analyses import FILE, Analyses
from ..games.common import ui_for
from ..journal import GameRecord, Journal, JournalError
from . import replay

log = logging.getLogger(__name__)

KEPT = 4  # replayed games kept in memory
PER_PAGE = 30  # games on one page of the list
MAX_ID = 2 ** 63 - 1  # the journal's ids are SQLite integers


class NoGame(LookupError):
    """No such game in the journal; ``str()`` says so in the table's words."""


class Unplayable(RuntimeError):
    """The game is there but cannot be replayed (damaged, or from another version)."""


class Archive:
    def __init__(self, journal_path: str | Path):
        self.path = Path(journal_path)
        self._lock = threading.Lock()
        self._replays: OrderedDict[tuple[Any, ...], replay.Replay] = OrderedDict()
        self._lines: dict[tuple[Any, ...], str | None] = {}

    def _open(self) -> Journal:
        return Journal(self.path, readonly=True)

    def record(self, game_id: int) -> GameRecord:
        """The journal's record of one game; :class:`NoGame` or :class:`Unplayable`."""
        if not 0 < game_id <= MAX_ID:
            raise NoGame(i18n._("There is no game #{id} on this box.").format(id=game_id))
        try:
            with self._open() as journal:
                if game_id not in {g.id for g in journal.games()}:
                    raise NoGame(i18n._("There is no game #{id} on this box.").format(
                        id=game_id))
                return journal.load(game_id)
        except JournalError as exc:
            log.error("web page: game #%s cannot be read: %s", game_id, exc)
            raise Unplayable(str(exc)) from exc

    def replay(self, game_id: int) -> replay.Replay:
        record = self.record(game_id)
        key = (game_id, record.inputs, record.status, len(record.entries), i18n.language())
        with self._lock:
            if key in self._replays:
                self._replays.move_to_end(key)
                return self._replays[key]
        try:
            found = replay.replay(record)
        except Exception as exc:  # noqa: BLE001 - an old or damaged game: said, not served
            log.error("web page: game #%s does not replay: %s", game_id, exc)
            raise Unplayable(str(exc)) from exc
        with self._lock:
            self._replays[key] = found
            while len(self._replays) > KEPT:
                self._replays.popitem(last=False)
        return found

    def analysis(self, game_id: int) -> dict[str, Any] | None:
        """The box's analysis after the game, once it has worked it out (read afresh:
        the daemon appends to the file)."""
        return Analyses(self.path.parent / FILE).get(game_id)

    def games(self, page: int = 1) -> tuple[list[dict[str, Any]], bool]:
        """One page of the list, newest first, and whether older games follow."""
        with self._open() as journal:
            summaries = journal.games(limit=page * PER_PAGE + 1)
            shown = summaries[(page - 1) * PER_PAGE:page * PER_PAGE]
            rows = [{"id": g.id, "game": g.game, "title": _title(g.game), "status": g.status,
                     "turns": g.turns, "date": records.date(g.created),
                     "line": self._line(journal, g)} for g in shown]
        return rows, len(summaries) > page * PER_PAGE

    def _line(self, journal: Journal, summary: Any) -> str | None:
        key = (summary.id, summary.inputs, summary.status, summary.updated, i18n.language())
        with self._lock:
            if key in self._lines:
                return self._lines[key]
        try:
            told = records.story(journal.load(summary.id))
        except JournalError:  # a damaged game: listed, not told
            told = None
        line = None if told is None else \
            importlib.import_module(f"companion.games.{summary.game}.story").line(told)
        with self._lock:
            if len(self._lines) > 4 * PER_PAGE:  # a game in play leaves stale keys
                self._lines.clear()
            self._lines[key] = line
        return line


def _title(game: str) -> str:
    try:
        return ui_for(game).TITLE
    except KeyError:  # a kind of game this version does not know
        return game
