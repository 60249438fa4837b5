"""``companion run`` with ``[mqtt] enabled = true``: the box's side on the game thread.

An observer of the box (called after every refresh, like the web page's publisher)
builds the same public snapshot the page gets and offers it to the link when it has
changed; when a game has ended it adds the game's record and story to the outbox.
Failures are logged, never raised: the broker is a guest of the game.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Callable

from .. import records
from ..web import snapshot
from ..web.publish import page_extras
from . import discovery, topics
from .link import Link
from .outbox import Outbox

log = logging.getLogger(__name__)

CATCH_UP = 50  # the journal's latest games looked at when the box starts


class Reporter:
    """The box observer: snapshots to ``link``, finished games to ``outbox``."""

    def __init__(self, link: Link, outbox: Outbox, room: str, table: str):
        self.link = link
        self.outbox = outbox
        self.room, self.table = room, table
        self._last: bytes | None = None
        self._recorded: int | None = None

    def __call__(self, box: Any, image: Any = None) -> None:
        try:
            self._state(box.session)
            self._record(box.session)
        except Exception:  # noqa: BLE001
            log.exception("MQTT: building the table's messages failed; the game plays on")

    def _state(self, session: Any) -> None:
        snap = snapshot.build(session, None)  # never the OLED: the public picture only
        page_extras(session, snap)
        data = json.dumps(snap, ensure_ascii=False, separators=(",", ":")).encode()
        if data != self._last:
            self._last = data
            self.link.offer_state(data)

    def _record(self, session: Any) -> None:
        game_id = session.game_id
        if session.mode != "game" or session.game.status not in ("won", "lost") \
                or game_id == self._recorded:
            return
        self._recorded = game_id
        if not self.outbox.queued(game_id):
            self._queue(session.journal, game_id)

    def catch_up(self, journal: Any) -> None:
        """Queue the games that ended while [mqtt] was on but never reached the outbox
        (the box stopped between the journal's last write and the outbox's)."""
        recent = journal.games(limit=CATCH_UP)
        since = self.outbox.since(max((g.id for g in recent), default=0))
        for g in sorted(recent, key=lambda g: g.id):
            if g.id > since and g.status in ("won", "lost") and not self.outbox.queued(g.id):
                try:
                    self._queue(journal, g.id)
                except Exception:  # noqa: BLE001 - a damaged old game: the rest still go
                    log.exception("MQTT: game #%s cannot be queued", g.id)

    def _queue(self, journal: Any, game_id: int) -> None:
        record = journal.load(game_id)
        message = {"room": self.room, "table": self.table, "game_id": game_id,
                   "game": record.game, "status": record.status,
                   "scenario": records.scenario(record), "story": records.story(record)}
        self.outbox.add(game_id, topics.table(self.room, self.table, "record"),
                        json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode())
        self.link.poke()


def read_password(mqtt: Any) -> str | None:
    """The password from ``password_file`` (its first line), or None without one."""
    if mqtt.password_file is None:
        return None
    text = Path(mqtt.password_file).read_text(encoding="utf-8")
    return text.splitlines()[0] if text.strip() else ""


def info(web_url: Callable[[], tuple[str | None, str]] | None) -> bytes:
    """The table's retained ``info``: its web page's address (``[web]`` on and the
    page reachable from the network), else empty (no retained ``info``)."""
    url = web_url()[0] if web_url is not None else None
    return json.dumps({"web": url}, separators=(",", ":")).encode() if url else b""


def start(mqtt: Any, box: Any, put: Callable[[Any], None]) -> Callable[[], None]:
    """Connect ``box`` to the room's broker; returns what stops it. Raises OSError when
    the password file cannot be read."""
    outbox = Outbox(box.session.journal.path)
    link = Link(mqtt, read_password(mqtt), outbox, put)
    if mqtt.home_assistant:
        link.extra = discovery.messages(mqtt.room, mqtt.table)
    web_url = box.session.config.web_url  # set before: the daemon starts [web] first
    link.info = lambda: info(web_url)
    reporter = Reporter(link, outbox, mqtt.room, mqtt.table)
    reporter.catch_up(box.session.journal)
    box.observers.append(reporter)
    box.refresh()
    link.start()

    def stop() -> None:
        link.stop()
        outbox.close()
    return stop
