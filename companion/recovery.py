"""Opening the journal for a box: damage is salvaged, a loss is told, the table resumes.

``run`` and ``sim`` both start here. Whatever the journal holds, the box comes up: a
salvage cut short by a kill is finished first; a journal that fails to open or to
resume (SQLite errors, rows that do not decode, entries that do not match their
checksums) is salvaged; a journal holding less than its mark says was committed is
opened as it is. Each of these puts an alert on the OLED and a line in the log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .games.common import ui_for
from .i18n import _, ngettext
from .journal import (
    Journal, JournalError, Loss, SalvageReport, finish_salvage, salvage, salvage_told,
)
from .registry import Registry
from .session import Session, SessionConfig

log = logging.getLogger(__name__)


def replays(game: str, seed: int, options: dict[str, Any], setup: dict[str, Any] | None,
            inputs: list[dict[str, Any]]) -> tuple[str, int, str | None] | None:
    """(status, turns, reason) of ``game`` after ``inputs``, or None if its engine
    refuses them: what a salvage trims to and recomputes results with."""
    try:
        ui = ui_for(game)
        g = ui.replay(seed, options, setup, inputs)
        status = g.status if g.status in ("won", "lost") else "playing"
        return status, ui.turns(g), ui.result_reason(g)
    except Exception:  # noqa: BLE001 - any failure means "not these inputs"
        return None


def open_session(path: Path, registry: Registry, config: SessionConfig,
                 now: Callable[[], float] = time.time, **session_args: Any) -> Session:
    """The session of a box on the journal at ``path``, with an alert for anything the
    journal lost; call :func:`shown` once the screen shows it. Raises JournalError only for what no salvage may touch (a newer
    schema, another program's file, a disk that cannot be read or written)."""
    alerts: list[tuple[str, ...]] = []

    def repair(exc: JournalError) -> Journal:
        log.error("%s", exc)
        journal, report = salvage(path, replays, now)
        log.error("journal %s: %s", path, report)
        alerts.append(_salvaged(report))
        return journal

    finished = finish_salvage(path)  # before opening: the journal may not be in place
    if finished is not None:
        log.error("journal %s: finished an interrupted salvage: %s", path, finished)
        alerts.append(_salvaged(finished))
    try:
        journal = Journal(path, now)
    except JournalError as exc:
        if not exc.damaged:
            raise
        journal = repair(exc)
    loss = journal.loss
    try:
        session = Session(journal, registry, config, **session_args)
    except JournalError as exc:
        journal.close()
        if not exc.damaged:
            raise
        journal = repair(exc)
        try:
            session = Session(journal, registry, config, **session_args)
        except JournalError as again:
            if not again.damaged:
                raise
            # Salvaged, yet the game to resume still fails (not even its set-up replays):
            # it is closed, kept in the history, and the box comes up at the menu.
            log.error("journal %s: closing the game that cannot be resumed: %s", path, again)
            record = journal.unfinished()
            if record is not None:
                journal.abandon(record.id)
            session = Session(journal, registry, config, **session_args)
    if loss is not None:
        alerts.append(_told(loss, session, path))
    for alert in alerts:
        session.alert(*alert)
    return session


def shown(path: Path) -> None:
    """The alerts of :func:`open_session` are on the screen: a salvage's need not be
    repeated at the next start (until then, a kill before the screen showed it does)."""
    salvage_told(path)


# Translators: The screen after the journal was repaired at start; each line is a line of
# the box's OLED screen (21 characters; Japanese 16 full-width). "Kept {n} game;" / "nothing
# lost." is one sentence over two lines.
def _salvaged(report: SalvageReport) -> tuple[str, ...]:
    """The OLED alert for a salvaged journal (the screen wraps its lines)."""
    if not report.games and report.notes:
        return (_("Journal repaired"), _("Nothing in it could be read; it is kept aside."),
                _("See the log."))
    kept = ngettext("Kept {n} game;", "Kept {n} games;", report.games).format(n=report.games)
    lost = (_("nothing lost.") if not report.losses else
            ngettext("{n} lost some moves.", "{n} lost some moves.",
                     report.losses).format(n=report.losses))
    return (_("Journal repaired"), kept, lost, _("See the log."))


# Translators: The screen after the journal was rewound at start; each line is a line of the
# box's OLED screen (21 characters; Japanese 16 full-width).
def _told(loss: Loss, session: Session, path: Path) -> tuple[str, ...]:
    """The log line and the OLED alert (the screen wraps its lines) for a detected loss."""
    here = session.game_id == loss.game and session.game is not None
    turn = session.ui.turns(session.game) if here else None
    log.error("journal %s holds less than was committed: %d write(s) missing; game #%d %s"
              "%s", path, loss.writes, loss.game,
              "is gone" if loss.game_lost else f"lost its last {loss.inputs} entr(ies)",
              f"; resumed at turn {turn}" if here else "")
    title = _("Journal rewound")
    if loss.game_lost:
        return (title, _("Game #{number} was lost: the journal no longer holds it.").format(
            number=loss.game), _("See the log."))
    lines = [ngettext("Game #{number}: lost the last {n} input.",
                      "Game #{number}: lost the last {n} inputs.", loss.inputs).format(
        number=loss.game, n=loss.inputs) if loss.inputs else
        _("Game #{number}: its last change was lost.").format(number=loss.game)]
    if here:
        lines.append(_("Resumed at turn {number}.").format(number=turn))
    return (title, *lines, _("See the log."))
