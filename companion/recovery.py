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
from .journal import Journal, JournalError, Loss, finish_salvage, salvage, salvage_told
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
        alerts.append(report.alert())
        return journal

    finished = finish_salvage(path)  # before opening: the journal may not be in place
    if finished is not None:
        log.error("journal %s: finished an interrupted salvage: %s", path, finished)
        alerts.append(finished.alert())
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


def _told(loss: Loss, session: Session, path: Path) -> tuple[str, ...]:
    """The log line and the OLED alert (21 characters a line) for a detected loss."""
    here = session.game_id == loss.game and session.game is not None
    turn = session.ui.turns(session.game) if here else None
    log.error("journal %s holds less than was committed: %d write(s) missing; game #%d %s"
              "%s", path, loss.writes, loss.game,
              "is gone" if loss.game_lost else f"lost its last {loss.inputs} entr(ies)",
              f"; resumed at turn {turn}" if here else "")
    if loss.game_lost:
        return ("Journal rewound", f"Game #{loss.game} was lost", "(cut off at power",
                "loss). See the log.")
    lines = [f"Game #{loss.game}: lost the", f"last {loss.inputs} input(s)."] if loss.inputs \
        else [f"Game #{loss.game}: its last", "change was lost."]
    if here:
        lines.append(f"Resumed at turn {turn}.")
    return ("Journal rewound", *lines, "See the log.")
