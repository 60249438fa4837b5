"""The web server: the page, a push stream of snapshots, and guarded inputs.

It runs on its own thread with its own event loop, beside the game thread, and only
ever (1) reads the :class:`~companion.web.publish.Publisher`'s latest snapshot and
(2) puts input events on the box's queue through ``inputs`` (a thread-safe put). It
never touches the session, the journal or the file system: the page's three assets
are read from the package once, at start, and served from memory.

Safety, by construction:

* bound to one address and port only; ``max_body_size`` 4 KiB, idle connections closed;
* at most :data:`MAX_STREAMS` live streams; a stream sends only the newest snapshot
  (never a backlog) and a client that does not take it within :data:`SLOW_CLIENT`
  seconds is dropped, so neither memory nor the game thread waits on a reader;
* POSTs need a JSON body, a same-origin ``Origin`` (when sent), and a CSRF token that
  is both a ``SameSite=Strict`` cookie and a header (a cross-site page can set neither);
* inputs and pairing attempts are rate-limited per client address;
* with ``control`` on, inputs also need a paired browser (see :class:`Pairing`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import socket
import threading
import time
from importlib import resources
from typing import Any, Callable, NoReturn

import tornado.httpserver
import tornado.iostream
import tornado.netutil
import tornado.web

from .. import i18n
from ..inputs import BUTTONS, Hold, Press, Release, Tag
from . import svg
from .publish import Publisher

log = logging.getLogger(__name__)

MAX_STREAMS = 64  # phones, a TV and a laptop or two; beyond this a page is refused
SLOW_CLIENT = 5.0  # seconds a stream may take to accept one snapshot
STREAM_SNDBUF = 64 * 1024  # kernel send buffer per stream: what a silent client can hold
HEARTBEAT = 15.0  # seconds between keep-alive comments (a dead client is noticed)
MAX_BODY = 4096
INPUT_RATE, INPUT_BURST = 8.0, 16  # inputs per second per client address
PAIR_RATE, PAIR_BURST = 0.1, 5  # pairing attempts: 5, then one every 10 s
HINT_RATE, HINT_BURST = 0.5, 3  # hints: a second of the Pi's work each
CSRF_COOKIE, CSRF_HEADER, PAIR_COOKIE = "companion_csrf", "X-Companion-CSRF", "companion_pair"
KINDS = {"press": Press, "hold": Hold, "release": Release}
PIN_DIGITS = 6

ASSETS = {name: (resources.files(__package__) / "assets" / name).read_bytes()
          for name in ("index.html", "app.js", "style.css")}
TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
         "css": "text/css; charset=utf-8"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; connect-src 'self'; "
                               "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class Pairing:
    """The table's permission to play from a phone: a short PIN shown on the OLED.

    The game thread calls :meth:`new_pin` (a menu item) and shows the result; the
    server thread calls :meth:`pair`. A PIN works once and for ``ttl`` seconds.
    """

    def __init__(self, ttl: float = 120.0, clock: Callable[[], float] = time.monotonic):
        self.ttl = ttl
        self.clock = clock
        self._lock = threading.Lock()
        self._pin: str | None = None
        self._until = 0.0
        self._tokens: set[str] = set()

    def new_pin(self) -> str:
        pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        with self._lock:
            self._pin, self._until = pin, self.clock() + self.ttl
        return pin

    def pair(self, pin: str) -> str | None:
        """A new browser token for the right PIN, else None."""
        with self._lock:
            ok = (self._pin is not None and self.clock() < self._until
                  and hmac.compare_digest(pin.encode(), self._pin.encode()))
            if not ok:
                return None
            self._pin = None
            token = secrets.token_urlsafe(24)
            self._tokens.add(token)
            return token

    def paired(self, token: str | None) -> bool:
        with self._lock:
            return bool(token) and token in self._tokens


class _Bucket:
    """Token buckets per client address, forgotten once full again (bounded)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self._level: dict[str, tuple[float, float]] = {}

    def take(self, who: str) -> bool:
        now = self.clock()
        level, at = self._level.get(who, (float(self.burst), now))
        level = min(float(self.burst), level + (now - at) * self.rate)
        if len(self._level) > 4096:  # an address flood: forget the quiet ones
            self._level = {k: v for k, v in self._level.items()
                           if v[0] + (now - v[1]) * self.rate < self.burst}
            if len(self._level) > 4096:  # all busy: start over rather than grow
                self._level.clear()
        if level < 1:
            self._level[who] = (level, now)
            return False
        self._level[who] = (level - 1, now)
        return True


class _Feed:
    """The latest snapshot as the server sends it (with the board drawn), made once
    per version on the server's loop, whatever the number of streams."""

    def __init__(self, publisher: Publisher, loop: asyncio.AbstractEventLoop):
        self.publisher = publisher
        self.loop = loop
        self.version = -1
        self.data = b"{}"
        self.changed = asyncio.Event()
        publisher.listen(self.wake)

    def wake(self) -> None:  # any thread
        try:
            self.loop.call_soon_threadsafe(self._pulse)
        except RuntimeError:  # the server has stopped: nobody to tell
            pass

    def _pulse(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()

    def latest(self) -> tuple[int, bytes]:
        version, raw = self.publisher.latest()
        if version != self.version:
            snap = json.loads(raw) if raw else {}
            if snap.get("game") == "entanglion":
                snap["board_svg"] = svg.entanglion_board(snap)
                if snap.get("end"):
                    snap["end_svg"] = svg.end_plots(snap["end"])
            self.version, self.data = version, json.dumps(
                snap, ensure_ascii=False, separators=(",", ":")).encode()
        return self.version, self.data


class _Base(tornado.web.RequestHandler):
    server: WebServer

    def initialize(self, server: WebServer) -> None:
        self.server = server

    def set_default_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.set_header(name, value)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "application/json")
        reason = getattr(kwargs.get("exc_info", (None, None))[1], "log_message", None)
        self.finish(json.dumps({"error": reason or self._reason}))

    def deny(self, status: int, why: str) -> NoReturn:
        raise tornado.web.HTTPError(status, why)


class _Asset(_Base):
    def get(self, name: str = "index.html") -> None:
        if name not in ASSETS:
            self.deny(404, "no such page")
        if name == "index.html" and not self.get_cookie(CSRF_COOKIE):
            self.set_cookie(CSRF_COOKIE, secrets.token_urlsafe(18), httponly=False,
                            samesite="Strict", path="/")
        self.set_header("Content-Type", TYPES[name.rsplit(".", 1)[1]])
        self.set_header("Cache-Control", "no-cache")
        self.finish(ASSETS[name])


class _Config(_Base):
    def get(self) -> None:
        s = self.server
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({
            "box": s.box_mode, "control": s.pairing is not None,
            "may_play": s.may_play(self), "buttons": list(BUTTONS), "pads": list(s.pads),
            "cards": s.cards if s.box_mode else [],
        }))


def page_catalog(code: str) -> bytes:
    """``/catalog.json``: the words of the page (and the game's names it shows) in the
    language ``code``, compiled beside the box's catalogs; English needs none."""
    messages: dict[str, str] = {}
    if code != i18n.DEFAULT:
        path = resources.files("companion") / "locale" / code / "web.json"
        if path.is_file():
            messages = json.loads(path.read_text(encoding="utf-8"))
    return json.dumps({"language": code, "messages": messages}, ensure_ascii=False).encode()


class _Catalog(_Base):
    def get(self) -> None:
        snap = json.loads(self.server.feed.latest()[1] or b"{}")
        code = snap.get("language") or i18n.language()
        if code not in i18n.LANGUAGES:
            code = i18n.DEFAULT
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(page_catalog(code))


class _Snapshot(_Base):
    def get(self) -> None:
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(self.server.feed.latest()[1])


class _History(_Base):
    """Every finished game in the journal, with its plots (drawn here, not on the
    game thread: the publisher hands over numbers only)."""

    def get(self) -> None:
        # The charts carry words: a change of language draws them again.
        data = (i18n.language(), self.server.publisher.history())
        if data != self.server.history_source:
            history = json.loads(data[1])
            history["plots"] = svg.history_plots(history)
            self.server.history_source = data
            self.server.history_page = json.dumps(history, separators=(",", ":")).encode()
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(self.server.history_page)


class _Qasm(_Base):
    def get(self) -> None:
        snap = json.loads(self.server.feed.latest()[1])
        if snap.get("game") != "qno":
            self.deny(404, "no QNO game in play")
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="qno-game.qasm"')
        self.finish(snap["qasm"])


class _Events(_Base):
    """Server-sent events: one ``data:`` line per snapshot; ``retry`` makes the
    browser reconnect by itself within a second when the box restarts."""

    async def get(self) -> None:
        s = self.server
        if s.streams >= MAX_STREAMS:
            self.deny(503, "too many pages open")
        s.streams += 1
        try:
            sock = self.request.connection.stream.socket
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_SNDBUF)
            self.set_header("Content-Type", "text/event-stream")
            self.set_header("Cache-Control", "no-store")
            self.write("retry: 1000\n\n")
            sent = -1
            while not s.stopping:
                waiting = s.feed.changed  # taken first: a publish after it wakes us
                version, data = s.feed.latest()
                if version != sent:
                    sent = version
                    self.write(b"data: " + data + b"\n\n")
                else:
                    try:
                        await asyncio.wait_for(waiting.wait(), HEARTBEAT)
                        continue
                    except asyncio.TimeoutError:
                        self.write(": keep-alive\n\n")
                try:
                    await asyncio.wait_for(self.flush(), SLOW_CLIENT)
                except asyncio.TimeoutError:
                    log.info("dropping a page that does not read (%s)", self.request.remote_ip)
                    self.request.connection.close()
                    return
        except tornado.iostream.StreamClosedError:
            return
        finally:
            s.streams -= 1


class _Post(_Base):
    def check_post(self, bucket: _Bucket) -> dict[str, Any]:
        """The checks every POST passes; returns its JSON body."""
        origin = self.request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != self.request.host:
            self.deny(403, "cross-site request refused")
        cookie = self.get_cookie(CSRF_COOKIE)
        header = self.request.headers.get(CSRF_HEADER)
        if not cookie or not header or not hmac.compare_digest(cookie, header):
            self.deny(403, "missing or wrong CSRF token: reload the page")
        if self.request.headers.get("Content-Type", "").split(";")[0] != "application/json":
            self.deny(415, "send JSON")
        if not bucket.take(self.request.remote_ip or "?"):
            self.deny(429, "too many requests: slow down")
        try:
            body = json.loads(self.request.body or b"null")
        except (ValueError, UnicodeDecodeError):
            self.deny(400, "the body is not JSON")
        if not isinstance(body, dict):
            self.deny(400, "the body must be a JSON object")
        return body


class _Input(_Post):
    def post(self) -> None:
        s = self.server
        body = self.check_post(s.input_bucket)
        if s.inputs is None or not s.may_play(self):
            self.deny(403, "this page may only watch" if s.pairing is None
                      else "pair this browser first (the PIN is on the box's screen)")
        self.server.inputs(s.event(body))
        self.set_header("Content-Type", "application/json")
        self.finish(b'{"ok":true}')


class _Hint(_Post):
    """The same hint as the box's Hint menu (same search, seed and budget), worked out
    on a worker thread from the publisher's copy of the position; one search per
    position, however many pages ask."""

    async def post(self) -> None:
        s = self.server
        self.check_post(s.hint_bucket)
        if not s.may_play(self):
            self.deny(403, "this page may only watch" if s.pairing is None
                      else "pair this browser first (the PIN is on the box's screen)")
        game = s.publisher.position()
        if game is None:
            self.deny(404, "no Entanglion game in play")
        if s.hint_job is None or s.hint_job[0] is not game:
            loop = asyncio.get_running_loop()
            s.hint_job = (game, loop.run_in_executor(None, _hint_page, game))
        data = await asyncio.shield(s.hint_job[1])
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(data)


def _hint_page(game: Any) -> bytes:
    from ..games.entanglion import ui

    if game.status != "playing" or game.pending:
        why = (i18n._("The game is over") if game.status != "playing"
               else i18n._("Answer the prompt first"))
        return json.dumps({"hints": [], "why": why}).encode()
    items = ui.hint_menu(game)["items"][:-1]  # without "Back"
    return json.dumps({"hints": [i.label for i in items]}, ensure_ascii=False).encode()


class _Pair(_Post):
    def post(self) -> None:
        s = self.server
        body = self.check_post(s.pair_bucket)
        if s.pairing is None:
            self.deny(404, "control from a browser is off on this box")
        pin = body.get("pin")
        token = s.pairing.pair(pin) if isinstance(pin, str) and len(pin) <= 16 else None
        if token is None:
            self.deny(403, "wrong or expired PIN: ask the box for a new one")
        self.set_cookie(PAIR_COOKIE, token, httponly=True, samesite="Strict", path="/")
        self.set_header("Content-Type", "application/json")
        self.finish(b'{"ok":true}')


class WebServer:
    """Serves one box on ``host:port`` (port 0: any free port; see :attr:`port`).

    ``inputs``: a thread-safe put for input events (None: read-only). ``box_mode``:
    the simulator's box in a browser (the OLED, buttons and cards for anyone who can
    reach the address). ``pairing``: control from a paired browser only. ``cards``:
    (uid, label, game) of the tags a page may tap, in box mode.
    """

    def __init__(self, publisher: Publisher, host: str = "127.0.0.1", port: int = 0,
                 inputs: Callable[[Any], None] | None = None, box_mode: bool = False,
                 pairing: Pairing | None = None, cards: list[dict[str, str]] | None = None,
                 pads: tuple[int, ...] = (1, 2, 3)):
        self.publisher = publisher
        self.host = host
        self.inputs = inputs
        self.box_mode = box_mode
        self.pairing = pairing
        self.cards = list(cards or [])
        self.tags = {c["uid"] for c in self.cards}
        self.pads = pads
        self.streams = 0
        self.stopping = False
        self.history_source, self.history_page = b"", b"{}"
        self.input_bucket = _Bucket(INPUT_RATE, INPUT_BURST)
        self.pair_bucket = _Bucket(PAIR_RATE, PAIR_BURST)
        self.hint_bucket = _Bucket(HINT_RATE, HINT_BURST)
        self.hint_job: tuple[Any, asyncio.Future] | None = None  # (position, its answer)
        # Bound here, on the caller's thread: a taken port is an error it sees at once.
        self.sockets = tornado.netutil.bind_sockets(port, address=host, backlog=64)
        self.port = self.sockets[0].getsockname()[1]
        self.loop: asyncio.AbstractEventLoop | None = None
        self.feed: _Feed
        self._thread: threading.Thread | None = None
        self._http: tornado.httpserver.HTTPServer | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def may_play(self, handler: tornado.web.RequestHandler) -> bool:
        if self.inputs is None:
            return False
        if self.pairing is not None:
            return self.pairing.paired(handler.get_cookie(PAIR_COOKIE))
        return self.box_mode

    def event(self, body: dict[str, Any]) -> Any:
        """The input event a page asks for, or a 400 saying what is wrong."""
        kind = body.get("kind")
        if kind in KINDS:
            button = body.get("button")
            if button not in BUTTONS:
                raise tornado.web.HTTPError(400, f"button must be one of {', '.join(BUTTONS)}")
            return KINDS[kind](button)
        if kind == "tap":
            pad, uid = body.get("pad"), body.get("uid")
            if not self.box_mode:
                raise tornado.web.HTTPError(403, "cards are tapped on the box's pads")
            if isinstance(pad, bool) or pad not in self.pads:
                raise tornado.web.HTTPError(400, f"pad must be one of {list(self.pads)}")
            if uid not in self.tags:
                raise tornado.web.HTTPError(400, "no such card in this box")
            return Tag(pad, uid)
        raise tornado.web.HTTPError(400, "kind must be press, hold, release or tap")

    def _app(self) -> tornado.web.Application:
        kw = {"server": self}
        return tornado.web.Application([
            (r"/", _Asset, kw),
            (r"/(app\.js|style\.css)", _Asset, kw),
            (r"/config", _Config, kw),
            (r"/catalog\.json", _Catalog, kw),
            (r"/snapshot", _Snapshot, kw),
            (r"/events", _Events, kw),
            (r"/qno\.qasm", _Qasm, kw),
            (r"/history", _History, kw),
            (r"/input", _Input, kw),
            (r"/pair", _Pair, kw),
            (r"/hint", _Hint, kw),
        ], compress_response=False, serve_traceback=False, xsrf_cookies=False)

    def start(self) -> WebServer:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self.loop = loop
            self.feed = _Feed(self.publisher, loop)
            self._http = tornado.httpserver.HTTPServer(
                self._app(), max_body_size=MAX_BODY, max_header_size=16 * 1024,
                idle_connection_timeout=60, body_timeout=10, xheaders=False)
            self._http.add_sockets(self.sockets)
            ready.set()
            loop.run_forever()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, name="companion-web", daemon=True)
        self._thread.start()
        ready.wait(10)
        log.info("web page on %s", self.url)
        return self

    def stop(self) -> None:
        """Close the sockets and end the thread (bounded: a stuck client cannot hold it)."""
        if self.loop is None or self._thread is None:
            for sock in self.sockets:
                sock.close()
            return
        self.stopping = True

        async def close() -> None:
            assert self._http is not None
            self._http.stop()
            self.feed.changed.set()
            try:
                await asyncio.wait_for(self._http.close_all_connections(), 2.0)
            except asyncio.TimeoutError:
                pass
            self.publisher.unlisten(self.feed.wake)
            asyncio.get_running_loop().stop()

        asyncio.run_coroutine_threadsafe(close(), self.loop)
        self._thread.join(5)
