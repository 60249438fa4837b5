"""What the table reads: the notices of the last input (a rolling die animated first),
each notice's details page by page, and over them an error, an undo card or a box
alert.  The journal's read mark follows the notices as they are dismissed."""

from __future__ import annotations

import logging
from typing import Any

from ..i18n import _
from ..views.font import wrap

log = logging.getLogger(__name__)

ROLL_FRAMES = 6  # animation steps before a die shows its number
ROLL_STEP = 0.08  # seconds per animation step


class Notices:
    """What is on show (a part of :class:`~companion.session.Session`): ``notices``,
    the ``detail`` page, the roll animation (``anim``), the ``overlay`` and the box
    alerts waiting behind it."""

    # Translators: The title of the details screen under a notice (a title bar).
    def _details(self, notice: dict[str, Any]) -> dict[str, Any]:
        """A page of a notice's details: every line of what happened, a press away."""
        pages = _detail_pages(notice)
        page = min(self.detail, len(pages))
        return {"screen": "text", "title": _("Details"), "right": f"{page}/{len(pages)}",
                "lines": pages[page - 1], "hint": "▲▼ OK"}

    def _show(self, notices: list[dict[str, Any]], entry: int, of: int | None = None) -> None:
        """Show ``notices``, the last ``of`` of which (all, by default) belong to journal
        entry ``entry`` of the game in play (0: its setup)."""
        self.notices = notices
        self._shown = (self.game_id, entry, len(notices) if of is None else of)
        self._story = None  # a new input: the story (if the game ended) is told afresh
        self._start_front()

    def _next_notice(self) -> None:
        self.notices.pop(0)
        self._start_front()
        self._note_read()

    def _note_read(self) -> None:
        """Tell the journal how many notices of the entry on show the table has read."""
        if self._shown is not None and self._shown[0] is not None:
            game_id, entry, total = self._shown
            self.journal.mark_read(game_id, entry, max(0, total - len(self.notices)))

    def _start_front(self) -> None:
        self.detail = 0
        self.anim = ROLL_FRAMES if self.notices and self.notices[0]["screen"] == "roll" else 0
        if not self.notices:
            self.phase = 0  # the end-of-game show starts with the end screen

    def alert(self, title: str, *lines: str, replaces: tuple[str, ...] = ()) -> None:
        """A message from the box itself (a reader unplugged, a broken tag file): shown
        over whatever is on screen until any button, changing nothing in the game.  An
        alert raised while another is showing waits for it to be dismissed, unless it
        is news on the same subject: an alert replaces any shown or waiting one with its
        own title or a title in ``replaces`` (a flapping cable is one screen to read,
        not hundreds)."""
        alert = {"screen": "text", "title": title, "lines": list(lines), "hint": "OK"}
        subject = {title, *replaces}
        self._alerts = [a for a in self._alerts if a["title"] not in subject]
        showing = self.overlay is not None and self.overlay.get("hint") == "OK" and \
            self.overlay["screen"] == "text"
        if showing and self.overlay["title"] not in subject:
            self._alerts.append(alert)
        else:
            self.overlay = alert

    def _room_command(self, command: Any) -> None:
        """A command from the room (already checked, see companion.mqtt.commands): told
        on the OLED like a box alert. Rules wait for the next game's set-up."""
        if command.kind == "message":
            self.alert(_("Message from the room"), command.text)
        elif command.kind == "pause":
            # Translators: an alert's title and its last line on the OLED (a title of
            # at most 14 characters; "OK goes on." tells the table OK ends the pause).
            self.alert(_("Pause"), _("The room asks every table to pause."),
                       _("OK goes on."))
        elif command.kind == "rules":
            from ..games.common import ui_for

            ui = ui_for(command.game)
            known = self.config.room_rules.setdefault(command.game, {})
            if all(known.get(key) == value for key, value in command.rules):
                # The room sends its rules again when a table joins: no news here.
                log.info("room command: %s (in force already)", command)
                return
            known.update(command.rules)
            steps = {step.key: step for step in ui.SETUP_STEPS}
            lines = [_(label) for key, value in command.rules
                     for label, choice in steps[key].choices if choice == value]
            # Translators: an alert's title (at most 14 characters) and the line above
            # the set-up choices the room chose, one per line ({game}: QNO, QLANET...).
            self.alert(_("Room rules"), _("The next {game} game starts on:").format(
                game=ui.TITLE), *lines, replaces=(_("Room rules"),))
        log.info("room command: %s", command)

    def _error(self, text: str) -> None:
        self.overlay = {"screen": "error", "text": text}

    def _journal_error(self, what: str, exc: Exception) -> None:
        """The OLED gets the gist; the log (journald) gets the file and the cause."""
        log.error("%s: %s", what, exc)
        self._error(_("{what}: the journal cannot be written (see the log)").format(what=what))


DETAIL_LINES = 5


def _detail_pages(notice: dict[str, Any]) -> list[list[str]]:
    """A notice's details in pages that fit the OLED, a sentence never split over two
    unless it is longer than a page."""
    pages: list[list[str]] = [[]]
    for text in notice.get("details", []):
        lines = wrap(text)
        if pages[-1] and len(pages[-1]) + len(lines) > DETAIL_LINES:
            pages.append([])
        while len(lines) > DETAIL_LINES:
            pages[-1] += lines[:DETAIL_LINES]
            pages.append([])
            lines = lines[DETAIL_LINES:]
        pages[-1] += lines
    return pages
