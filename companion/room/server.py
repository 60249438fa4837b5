"""The room's page: every table at a glance, live, with the teacher's commands.

On the same stack as the box's page (:mod:`companion.web`): tornado on a thread of its
own, the same request handler (security headers, the ``Host`` check against DNS
rebinding, gzip), the same door (:class:`~companion.web.gate.Gate`), and the same
checks on every POST (a same-origin ``Origin``, the CSRF cookie echoed in a header,
JSON, a rate limit). A command also needs the room's key: ``companion room`` prints
the page's address with ``?key=...`` once; opening it sets an HttpOnly, SameSite=Strict
cookie, so anyone else on the network (and any other web site) may watch the tables,
which are public anyway, but never send the tables a command.

``/events`` is a server-sent event stream: first ``data:`` with every table, then an
``event: table`` per table that changed (the newest view only, never a backlog; its
board only when the board changed) and an ``event: records`` when a finished game
arrived; bounded as the box's stream is (:class:`companion.web.server.Stream`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
from typing import Any

import tornado.httpserver
import tornado.netutil
import tornado.web

from .. import i18n
from ..mqtt.commands import Refused as CommandRefused
from ..web import static, svg
from ..web.handler import Handler
from ..web.server import CSRF_COOKIE, LoopServer, Stream, _Bucket, _Post, page_catalog
from . import report
from .tables import STALE_AFTER

KEY_COOKIE = "companion_room_key"
COMMAND_RATE, COMMAND_BURST = 1.0, 10  # commands per second per client
ASSETS = static.assets(__package__, "room.html", "room.js", "room.css")
GZIPPED = static.gzipped(ASSETS)


def board_key(state: dict[str, Any]) -> str | None:
    """What an Entanglion table's mini board shows (None: no board), as a string that
    changes exactly when the drawing does."""
    if state.get("game") != "entanglion":
        return None
    return json.dumps([state.get("ships"), state.get("planets"), state.get("detection"),
                       i18n.language()], sort_keys=True)


def board(state: dict[str, Any]) -> str:
    """The mini board: the box page's own drawing, from the table's checked summary."""
    return svg.entanglion_board({"ships": state.get("ships") or {},
                                 "components": {"planets": state.get("planets") or {}},
                                 "detection": {"space": state.get("detection")}})


class _Room(Handler):
    def may_command(self) -> bool:
        cookie = self.get_cookie(KEY_COOKIE) or ""
        return hmac.compare_digest(cookie.encode(), self.server.key.encode())


class _Asset(_Room):
    def get(self, name: str = "room.html") -> None:
        if name not in ASSETS:
            self.deny(404, "no such page")
        self.set_header("Cache-Control", "no-cache")
        if name == "room.html":
            key = self.get_query_argument("key", None)
            if key is not None:
                if not hmac.compare_digest(key.encode(), self.server.key.encode()):
                    self.deny(403, i18n._("this is not the room's key"))
                self.set_cookie(KEY_COOKIE, key, httponly=True, samesite="Strict", path="/")
                self.redirect("/")  # the key leaves the address bar (and the history)
                return
            if not self.get_cookie(CSRF_COOKIE):
                self.set_cookie(CSRF_COOKIE, secrets.token_urlsafe(18), httponly=False,
                                samesite="Strict", path="/")
            data = ASSETS[name].replace(b'<html lang="en">',
                                        f'<html lang="{i18n.language()}">'.encode())
            self.send(data, static.TYPES["html"])
            return
        self.send(ASSETS[name], static.TYPES[name.rsplit(".", 1)[1]], GZIPPED[name])


class _Catalog(_Room):
    def get(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.send(page_catalog(i18n.language()))


class _Setup(_Room):
    """What the command form offers: each game's set-up choices, in the room's words."""

    def get(self) -> None:
        from ..games.common import GAMES, ui_for

        games = []
        for game in GAMES:
            words = report.game_words(game)
            ui = ui_for(game)
            games.append({"game": game, "title": ui.TITLE, "steps": [
                {"key": s.key, "title": words(s.title),
                 "choices": [{"label": words(label), "value": value}
                             for label, value in s.choices]} for s in ui.SETUP_STEPS]})
        self.set_header("Cache-Control", "no-store")
        self.send(_json({"room": self.server.room, "may_command": self.may_command(),
                         "stale_after": STALE_AFTER, "games": games}))


class _Tables(_Room):
    def get(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.send(_json(self.server.everything()[1]))


class _Events(Stream, _Room):
    """Every table first, then each table that changed, and the records' count."""

    def initialize(self, server: Any) -> None:
        super().initialize(server)
        self.sent: dict[str, tuple[int, str | None]] = {}  # table -> (version, board key)
        self.records: tuple[Any, ...] | None = None  # (records, analysed, store) it knows
        self.seen = 0  # the room's version this stream has sent

    def changed(self) -> asyncio.Event:
        return self.server.changed

    def next_message(self) -> bytes:
        s = self.server
        version, tables = s.tables.views(self.seen)
        self.seen = version
        views = []
        for table_version, v in tables:
            had = self.sent.get(v["name"])
            if had is None or had[0] != table_version:
                view, drawn = s.view(v, had[1] if had else None)
                self.sent[v["name"]] = (table_version, drawn)
                views.append(view)
        store = s.store.status()
        count = (len(s.store), len(s.analyses()), store)
        previous, self.records = self.records, count
        if previous is None:
            return b"data: " + _json({"tables": views, "records": count[0], "store": store,
                                      "version": version}) + b"\n\n"
        message = b"".join(b"event: table\ndata: " + _json({**view, "version": version})
                           + b"\n\n" for view in views)
        if count != previous:
            message += b"event: records\ndata: " + _json(
                {"records": count[0], "analysed": count[1], "store": store}) + b"\n\n"
        return message


def _json(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


class _Report(_Room):
    def get(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.send(self.server.report())


class _Csv(_Room):
    def get(self) -> None:
        s = self.server
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Disposition",
                        f'attachment; filename="room-{s.room}-report.csv"')
        self.send(report.csv_text(s.store.digests(), s.analyses()).encode("utf-8"),
                  "text/csv; charset=utf-8")


class _Command(_Post, _Room):
    def post(self) -> None:
        s = self.server
        body = self.check_post(s.command_bucket)
        if not self.may_command():
            self.deny(403, i18n._("open the room's address with its key to send commands"))
        try:
            s.send(body)
        except CommandRefused as why:
            self.deny(400, str(why))
        except OSError as why:
            self.deny(503, str(why))
        self.set_header("Content-Type", "application/json")
        self.finish(b'{"ok":true}')


class RoomServer(LoopServer):
    """Serves the room on ``host:port`` (port 0: any free port, see :attr:`port`).

    ``tables`` (:class:`~.tables.Tables`), ``store`` (:class:`~.store.Store`),
    ``send(command)`` publishes a command, ``analyses()`` the analysed games, ``key``
    the secret that lets a browser send commands."""

    thread_name = "companion-room-web"

    def __init__(self, room: str, tables: Any, store: Any, send: Any, analyses: Any,
                 key: str, host: str = "127.0.0.1", port: int = 0):
        self.room, self.tables, self.store = room, tables, store
        self.send, self.analyses, self.key = send, analyses, key
        self.command_bucket = _Bucket(COMMAND_RATE, COMMAND_BURST)
        self._boards: dict[str, tuple[str, str]] = {}  # table -> (key, svg), latest only
        self._report: tuple[Any, bytes] = (None, b"")  # (what it was built from, JSON)
        self.changed: asyncio.Event
        super().__init__(host, port)

    @property
    def url(self) -> str:
        """The page's address; on every interface, as this laptop opens it."""
        return super().url.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:",
                                                                          "//[::1]:")

    def view(self, v: dict[str, Any], have: str | None) -> tuple[dict[str, Any], str | None]:
        """(a table's view for a stream, the key of its board): the board's drawing
        only when it differs from the one the stream has (``have``, its key)."""
        drawn = self._board(v["name"], v["state"])
        out = dict(v)
        if drawn is None:
            out["board"] = None
            return out, None
        if drawn[0] != have:
            out["board"] = drawn[1]
        return out, drawn[0]

    def _board(self, name: str, state: dict[str, Any]) -> tuple[str, str] | None:
        """(key, drawing) of a table's board, drawn again only when its key changed."""
        key = board_key(state)
        if key is None:
            self._boards.pop(name, None)
            return None
        kept = self._boards.get(name)
        if kept is None or kept[0] != key:
            kept = self._boards[name] = (key, board(state))
        return kept

    def report(self) -> bytes:
        """The report's JSON, built again only when the records, the analyses or the
        language changed: every page asks for it when a game arrives, and a
        convention's report reads every record (docs/mqtt.md gives its cost)."""
        analyses, status = self.analyses(), self.store.status()
        key = (self.store.version, len(analyses), i18n.language(), tuple(status.items()))
        if self._report[0] != key:
            data = report.build(self.store.digests(), analyses)
            data["damaged"] = list(self.store.damaged)
            data["store"] = status
            self._report = (key, _json(data))
        return self._report[1]

    def everything(self) -> tuple[int, dict[str, Any]]:
        now, tables = self.tables.views()
        return now, {"tables": [self.view(v, None)[0] for _, v in tables],
                     "records": len(self.store), "store": self.store.status(),
                     "version": now}

    def wake(self) -> None:  # any thread
        if self.loop is not None:
            try:
                self.loop.call_soon_threadsafe(self._pulse)
            except RuntimeError:  # stopped
                pass

    def _pulse(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()

    def _app(self) -> tornado.web.Application:
        kw = {"server": self}
        return tornado.web.Application([
            (r"/", _Asset, kw),
            (rf"/(room\.js|room\.css|{static.SHARED_ROUTE})", _Asset, kw),
            (r"/catalog\.json", _Catalog, kw),
            (r"/setup", _Setup, kw),
            (r"/tables", _Tables, kw),
            (r"/events", _Events, kw),
            (r"/report", _Report, kw),
            (r"/report\.csv", _Csv, kw),
            (r"/command", _Command, kw),
        ], compress_response=False, serve_traceback=False, xsrf_cookies=False)

    def _opened(self, loop: asyncio.AbstractEventLoop) -> None:
        self.changed = asyncio.Event()
        self.tables.listen(self.wake)

    def _closing(self) -> None:
        self.tables.unlisten(self.wake)
        self.changed.set()
