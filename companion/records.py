"""A journal game as a record to take elsewhere: the scenario file the ``companion
scenario`` command plays (``docs/scenarios.md``), or a QNO game's circuit as
OpenQASM 2; and its story and date as ``companion games`` tells them. ``companion
games`` prints them; the web page shows and offers them for download. Pure functions
of a :class:`~companion.journal.GameRecord`."""

from __future__ import annotations

import datetime
from typing import Any

from .journal import Journal


def scenario(record: Any) -> dict[str, Any]:
    """The game as a scenario: its seed, options, set-up and effective inputs, so the
    same file plays the same game anywhere (undone inputs are left out)."""
    return {"description": f"game #{record.id} from the journal ({record.status})",
            "game": record.game, "seed": record.seed, "options": record.options,
            "setup": record.setup or {}, "actions": Journal.effective_inputs(record.entries)}


def qasm(record: Any) -> str:
    """A QNO game's circuit as OpenQASM 2 (replayed from its inputs)."""
    from .games.qno import Qno
    from .games.qno.circuit import qasm as to_qasm

    if record.game != "qno":
        raise ValueError(f"game #{record.id} is {record.game}; only QNO games have a circuit")
    g = Qno.replay(record.seed, record.options, record.setup, (),
                   Journal.effective_inputs(record.entries))
    return to_qasm(g.state.circuit, f"QNO game #{record.id} ({record.status})")


def story(record: Any) -> dict[str, Any] | None:
    """The story of a journal game (replayed), or None if it no longer replays."""
    from .games.common import ui_for

    try:
        ui = ui_for(record.game)
        g = ui.replay(record.seed, record.options, record.setup or {},
                      Journal.effective_inputs(record.entries))
        return ui.story(g, record)
    except Exception:  # noqa: BLE001 - an old or damaged game: listed, not told
        return None


def date(created: float) -> str:
    """When a game started, as the list of games shows it."""
    try:
        return datetime.datetime.fromtimestamp(created).strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError, OSError, TypeError):  # a hand-edited value
        return "?"
