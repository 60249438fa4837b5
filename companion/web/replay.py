"""A journal game replayed for the page: its move list and every position as the
table saw it. A pure function of the game's record (no I/O): the engine plays the
journal's inputs again one by one, and each position is the live page's own public
picture of the game (:data:`snapshot.GAMES`), so a replay can show nothing the live
page would not have shown then (no QLANET secret before the end-of-game reveal, no
deck order, Entanglion hands only in a virtual-deck game). No image is ever stored.
"""

from __future__ import annotations

from typing import Any

from ..frozen import frozen
from .. import i18n
from ..games.common import ui_for
from ..journal import Journal
from . import snapshot

FINISHED = ("won", "lost")  # played to the end (the analysis after the game weighs these)
OVER = FINISHED + ("abandoned",)  # no more input will come: the record may leave the box


@frozen
class Replay:
    """``moves[i]``: input ``i + 1`` as ``{"turn": [lines], "lines": [lines]}``: the log
    lines it wrote, in the log's words, with the turn it opened (``turn``: the turn
    headings written before it, at the end of the input before); ``setup``: the
    lines the game wrote as it was set up, before any input;
    ``positions[n]``: the public picture after ``n`` inputs (``positions[0]``: as set
    up, before any); ``story``: the game's story (None when it does not replay)."""

    id: int
    game: str
    title: str
    status: str
    setup: list[str]
    moves: list[dict[str, list[str]]]
    positions: list[dict[str, Any]]
    story: dict[str, Any] | None

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    @property
    def over(self) -> bool:
        return self.status in OVER


def log_lines(game: str, entries: list[dict[str, Any]]) -> list[str]:
    """Log entries as the live page's log words them."""
    if game == "entanglion":
        from ..games.entanglion.explain import explain

        return [explain(e) for e in entries]
    if game == "qno":
        from ..games.qno.explain import narrate
        from ..games.qno.ui import card_label

        lines = list(narrate({"log": entries, "pending": None, "circuit_text": ""},
                             card_label))
        return [line.strip() for line in lines if line != "Circuit:"]
    return [line for e in entries if (line := snapshot._qlanet_line(e))]  # noqa: SLF001


def position(game: str, g: Any) -> dict[str, Any]:
    """The public picture of ``g`` without its log (the move list stands for it)."""
    out = snapshot.GAMES[game](g)
    out.pop("log", None)
    out["game"] = game
    return out


def replay(record: Any) -> Replay:
    """Play ``record`` (a :class:`~companion.journal.GameRecord`) again, keeping each
    position. Raises whatever the engine raises for a record it cannot play."""
    ui = ui_for(record.game)
    inputs = Journal.effective_inputs(record.entries)
    g = ui.replay(record.seed, record.options, record.setup or {}, [])
    positions = [position(record.game, g)]
    setup, carried = _turn_heads(list(g.log))
    moves: list[dict[str, list[str]]] = []
    for act in inputs:
        g.push(act)
        # A turn's heading is written by the input that ended the turn before: it
        # heads the next input in the list.
        entries, heads = _turn_heads(g.last_entries())
        lines = log_lines(record.game, entries)
        moves.append({"turn": log_lines(record.game, carried),
                      "lines": lines or [_unseen(record.game, act)]})
        carried = heads
        positions.append(position(record.game, g))
    try:
        told = ui.story(g, record)
    except Exception:  # noqa: BLE001 - a story is a courtesy: the replay stands without
        told = None
    return Replay(record.id, record.game, ui.TITLE, record.status,
                  log_lines(record.game, setup), moves, positions, told)


def _turn_heads(entries: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                         list[dict[str, Any]]]:
    """``entries`` split before the turn headings they end with."""
    cut = len(entries)
    while cut and entries[cut - 1]["type"] == "turn":
        cut -= 1
    return entries[:cut], entries[cut:]


def _unseen(game: str, act: dict[str, Any]) -> str:
    """An input that wrote nothing public (a QNO card dealt to a tracked hand: which
    card stays private)."""
    if game == "qno" and act.get("do") == "take":
        return i18n._("Player {player} takes a card.").format(player=act.get("player"))
    return i18n._("An input with nothing public to show.")
