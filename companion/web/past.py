"""The past games' routes of the web server: the list, a game's page, a position of it
alone, and the record of a game that is over to download.

They pass the live page's checks for reads (the ``Host`` must name the box, the
connection gate) and read the journal through :class:`~.archive.Archive` on a worker
thread, at most :data:`JOBS` at a time, so no page waits on the game thread and a
flood of requests queues instead of replaying games side by side. A game's id in a
path is a whole number written plainly (no sign, no leading zero, at most 19 digits);
anything else, or a game the journal lacks, is a 404 page that says so.
"""

from __future__ import annotations

import asyncio
import json
import re
from importlib import resources
from typing import Any, Callable, TypeVar

from .. import i18n, records
from . import pages, replay
from .archive import MAX_ID, Archive, NoGame, Unplayable
from .handler import Handler

JOBS = 2  # journal reads and replays at once
ID = re.compile(r"[1-9][0-9]{0,18}")
MAX_PAGE = 100_000  # pages of the list (30 games each)

ASSETS = {name: (resources.files(__package__) / "assets" / name).read_bytes()
          for name in ("replay.js", "replay.css")}
TYPES = {"js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}

T = TypeVar("T")


class _Page(Handler):
    """A past games' page: its errors are pages too, in the table's language."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        reason = getattr(kwargs.get("exc_info", (None, None))[1], "log_message", None)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(pages.not_found(reason or self._reason))

    @property
    def archive(self) -> Archive:
        found = self.server.archive
        if found is None:
            self.deny(404, i18n._("This box keeps no games."))
        return found

    async def job(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` on a worker thread; a missing or unreadable game is a 404."""
        async with self.server.journal_jobs:
            try:
                return await asyncio.get_running_loop().run_in_executor(None, work, *args)
            except NoGame as exc:
                self.deny(404, str(exc))
            except Unplayable:
                self.deny(404, i18n._("This game cannot be replayed (see the box's log)."))

    def game_id(self, text: str) -> int:
        if not ID.fullmatch(text) or int(text) > MAX_ID:
            self.deny(404, i18n._("“{text}” is not a game number.").format(text=text[:24]))
        return int(text)

    def number(self, name: str, default: int, high: int) -> int:
        """A whole-number query argument from 0 to ``high``, else a 404 page."""
        text = self.get_query_argument(name, None)
        if text is None:
            return default
        if not text.isascii() or not text.isdigit() or len(text) > 9 or int(text) > high:
            self.deny(404, i18n._("No such position: {name} goes from 0 to {high}.").format(
                name=name, high=high))
        return int(text)

    def html(self, text: str) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.finish(text.encode())


class GamesList(_Page):
    async def get(self) -> None:
        page = self.number("page", 1, MAX_PAGE)
        if page < 1:
            self.deny(404, i18n._("No such page of the list."))
        rows, more = await self.job(self.archive.games, page)
        if not rows and page > 1:
            self.deny(404, i18n._("No such page of the list."))
        self.html(pages.games_list(rows, page, more))


class GamePage(_Page):
    async def get(self, text: str) -> None:
        game_id = self.game_id(text)
        r = await self.job(self.archive.replay, game_id)
        last = len(r.positions) - 1
        at = self.number("at", last, last)
        analysis = await self.job(self.archive.analysis, game_id) \
            if r.game == "entanglion" and r.finished else None
        self.html(pages.game_page(r, at, analysis))


class Position(_Page):
    """One position alone (HTML), as the game's page shows it: the script swaps it in."""

    async def get(self, text: str) -> None:
        r = await self.job(self.archive.replay, self.game_id(text))
        last = len(r.positions) - 1
        self.html(pages.position(r, self.number("at", last, last)))


class Record(_Page):
    """A game's record once it is over (won, lost or abandoned): its scenario file, or
    a QNO game's OpenQASM. Not while it may be played on: the seed would tell what the
    table cannot know (the decks' order, QLANET's secrets)."""

    async def get(self, text: str, kind: str) -> None:
        game_id = self.game_id(text)
        record = await self.job(self.archive.record, game_id)
        if record.status not in replay.OVER:
            self.deny(404, i18n._("The record can be downloaded once the game is over."))
        if kind == "qasm":
            if record.game != "qno":
                self.deny(404, i18n._("Only a QNO game has a circuit."))
            body = (await self.job(records.qasm, record)).encode()
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.set_header("Content-Disposition",
                            f'attachment; filename="qno-game-{game_id}.qasm"')
        else:
            body = json.dumps(records.scenario(record), indent=1).encode() + b"\n"
            self.set_header("Content-Type", "application/json")
            self.set_header("Content-Disposition", f'attachment; filename="game-{game_id}.json"')
        self.set_header("Cache-Control", "no-store")
        self.finish(body)


class Asset(_Page):
    def get(self, name: str) -> None:
        self.set_header("Content-Type", TYPES[name.rsplit(".", 1)[1]])
        self.set_header("Cache-Control", "no-cache")
        self.finish(ASSETS[name])


class Missing(_Page):
    def get(self, *_: str) -> None:
        self.deny(404, i18n._("No such page: past games are at /games."))


def routes(kw: dict[str, Any]) -> list[tuple[str, type, dict[str, Any]]]:
    return [
        (r"/(replay\.js|replay\.css)", Asset, kw),
        (r"/games", GamesList, kw),
        (r"/game/([^/]+)", GamePage, kw),
        (r"/game/([^/]+)/position", Position, kw),
        (r"/game/([^/]+)/(?:record\.json|circuit\.(qasm))", Record, kw),
        (r"/game(/.*)?", Missing, kw),
    ]
