"""The game in play: each engine input is journaled before it shows, undo takes the
last one back, and a game is left (to resume later), ended, or resumed from the
journal with the notices the table was reading."""

from __future__ import annotations

import logging
from typing import Any

from ..games.common import ui_for
from ..i18n import NC_, N_, _, ngettext, pgettext
from ..journal import Journal, JournalError

log = logging.getLogger(__name__)


class Play:
    """The game in play (a part of :class:`~companion.session.Session`): ``game``,
    ``game_id``, ``mode``, and the unfinished game the main menu offers
    (``resumable``)."""

    def _try_resume(self, game_id: int, record: Any = None, starting: bool = False) -> None:
        try:
            self._resume(record or self.journal.load(game_id))
        except JournalError as exc:
            if starting and exc.damaged:
                raise
            self._unresumable(game_id, exc)
        except Exception as exc:  # noqa: BLE001 - whatever it is, the box must go on
            self._unresumable(game_id, exc)

    def _unresumable(self, game_id: int, exc: Exception) -> None:
        # The game stays in the journal untouched ('companion games export').
        self.mode, self.game, self.game_id, self.resumable = "menu", None, None, None
        self._shown = None
        log.error("game #%s cannot be resumed: %s: %s", game_id, type(exc).__name__, exc)
        self._error(_("Game #{number} cannot be resumed (see the log)").format(number=game_id))

    # Translators: The screen when a game is resumed; each line is a line of the box's OLED
    # screen (21 characters; Japanese 16 full-width).
    def _resume(self, record: Any) -> None:
        inputs = Journal.effective_inputs(record.entries)
        self.ui = ui_for(record.game)
        last = record.entries[-1] if record.entries else None
        try:
            if last is not None and last.kind == "undo":  # its notice was the undo card
                g = self.ui.replay(record.seed, record.options, record.setup, inputs)
                events = None
            else:  # the notices of the last input, or of the setup: what the table was reading
                g = self.ui.replay(record.seed, record.options, record.setup, inputs[:-1])
                events = g.push(inputs[-1]) if inputs else g.log
        except Exception as exc:  # noqa: BLE001 - the engine refuses what was journaled
            # Its entries match their checksums, yet do not replay (two writers
            # interleaved them, say): damage, which a salvage trims to what replays.
            raise JournalError(f"game #{record.id} does not replay: {type(exc).__name__}: "
                               f"{exc}", True) from exc
        notices = [] if events is None else self.ui.notices(g, events)
        entry = last.seq if last is not None else 0
        game, seq, read = self.journal.read_mark()
        read = read if (game, seq) == (record.id, entry) else 0
        self.game, self.game_id, self.mode, self.resumable = g, record.id, "game", None
        self._close()
        self.page = 0
        self._show([{"screen": "text",
                     "title": _("Game #{number} resumed").format(number=record.id),
                     "lines": [_("Turn {number}").format(number=self.ui.turns(self.game)),
                               ngettext("{n} input replayed", "{n} inputs replayed",
                                        len(inputs)).format(n=len(inputs))], "hint": "OK"},
                    *notices[read:]], entry=entry, of=len(notices))

    def _leave(self) -> None:
        """Back to the main menu; an unfinished game stays in the journal to resume."""
        self.resumable = self.game_id if self._status() == "playing" else None
        self.mode, self.game, self.game_id, self._shown = "menu", None, None, None
        self.peek, self.peeking = None, False
        self._close()

    # Translators: The title of the screen when the journal could not save (a title bar).
    def _abandon(self) -> None:
        try:
            self.journal.abandon(self.game_id)
        except JournalError as exc:
            self._journal_error(_("Not saved"), exc)
            return
        self._leave()
        self.resumable = None

    # Translators: The title of the screen when an input could not be saved and was not
    # applied (a title bar).
    def _apply(self, act: dict[str, Any]) -> bool:
        """Push an engine input, journal it, then show it; False if it was refused."""
        g = self.game
        reason = g.check(act)
        if reason is not None:
            self._error(reason)
            return False
        try:
            entries = g.push(act)
        except self.ui.IllegalAction as exc:  # e.g. a forced die that cannot be used
            self._error(str(exc))
            return False
        self.phase = 0  # blinking and the end-of-game show start afresh
        status = self._status()  # the reason is looked for in the whole log: only at the end
        reason = None if status == "playing" else self.ui.result_reason(g)
        try:
            seq = self.journal.record(self.game_id, g.inputs[-1], turns=self.ui.turns(g),
                                      status=status, reason=reason)
        except JournalError as exc:
            g.pop()
            self._journal_error(_("Not saved, not done"), exc)
            return False
        self.page = 0
        self._show(self.ui.notices(g, entries), entry=seq)
        return True

    # Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width):
    # BACK held with nothing to undo.
    def _undo(self) -> None:
        if self.mode != "game":
            self._error(_("Nothing to undo"))
            return
        g = self.game
        if not g.inputs:
            self._error(_("Nothing to undo"))
            return
        refusal = self.ui.undo_block(g)
        if refusal is not None:
            self._error(refusal)
            return
        act = g.pop()
        try:
            self.journal.record_undo(self.game_id, turns=self.ui.turns(g), status=self._status())
        except JournalError as exc:
            g.push(act)  # deterministic: the same outcome comes back
            self._journal_error(_("Not saved, not undone"), exc)
            return
        self._shown = None
        self._close()
        self._story = None
        own = getattr(self.ui, "describe", None)  # a game may word it itself
        self.overlay = {"screen": "undo", "text": (own(act) if own else None) or _describe(act)}

    def _game_story(self) -> dict[str, Any] | None:
        """The finished game's story (told once; the journal adds the time played)."""
        if self._story is None and hasattr(self.ui, "story"):
            try:
                record = self.journal.load(self.game_id)
            except JournalError as exc:
                log.error("story of game #%s without its journal record: %s", self.game_id, exc)
                record = None
            self._story = self.ui.story(self.game, record)
            found = self.config.analysis(self.game_id) if self.config.analysis else None
            if found is not None and isinstance(self._story, dict):
                self._story["analysis"] = found
        return self._story

    def analysis_ready(self, game_id: int) -> None:
        """The analysis of ``game_id`` is done: its story, if on show, tells it too."""
        if game_id == self.game_id:
            self._story = None

    def _status(self) -> str:
        status = self.game.status
        return status if status in ("won", "lost") else "playing"


# Translators: "undo" is the kind of input the undo notice names ("Rubicon: retrieve"):
# a noun in a list of nouns where your language distinguishes (Polish: zdobycie).
_DOES = {  # an input's verb, as the undo notice says it
    "navigate": NC_("undo", "navigate"), "exchange": NC_("undo", "exchange"),
    "retrieve": NC_("undo", "retrieve"), "event": NC_("undo", "event"),
    "pass": NC_("undo", "pass"), "interconnect": NC_("undo", "Qubit Interconnect"),
}


# Translators: Stands in for a choice the box cannot name, in the undo notice.
def _describe(act: dict[str, Any]) -> str:
    player = act.get("player")
    who = f"P{player}" if isinstance(player, int) else (player or "").capitalize()
    do = act["do"]
    if do == "choose":
        value = act.get("value")
        return _("{player}'s choice ({value})").format(
            player=who, value=value if isinstance(value, (str, int)) else _("option"))
    does = pgettext("undo", _DOES[do]) if do in _DOES else do
    if "card" in act:
        card = act["card"]
        return f"{who}: {does} {card if card.isupper() else card.replace('_', ' ')}"
    return f"{who}: {does}"
