"""The web server: the page, a push stream of snapshots, and guarded inputs.

It runs on its own thread with its own event loop, beside the game thread, and only
ever (1) reads the :class:`~companion.web.publish.Publisher`'s latest snapshot and
(2) puts input events on the box's queue through ``inputs`` (a thread-safe put). It
never touches the session or the game thread's journal: the page's assets are read
from the package once, at start, and served from memory; the past games' pages
(:mod:`.past`) read the journal through a read-only connection of their own.

Safety, by construction:

* bound to one address and port only; ``max_body_size`` 4 KiB, idle connections closed;
* only a ``Host`` naming the box (its address, its name, ``localhost``) is served, so a
  web site whose name is made to point at the box (DNS rebinding) gets nothing;
* connections are taken by :class:`~companion.web.gate.Gate`: bounded in number, per
  client too, and accepting pauses instead of spinning when file handles run out;
* at most :data:`MAX_STREAMS` live streams (a page past them is told the box is full,
  and tries again later); a stream sends only the newest snapshot (never a backlog),
  as a patch of the one it sent before when it has it (:mod:`.patch`), and a client
  that does not take it within :data:`SLOW_CLIENT` seconds is dropped, so neither
  memory nor the game thread waits on a reader;
* POSTs need a JSON body, a same-origin ``Origin`` (scheme, host and port, when sent),
  and a CSRF token that is both a ``SameSite=Strict`` cookie and a header (a cross-site
  page can set neither);
* inputs and pairing attempts are rate-limited per client (an IPv6 /64 is one client);
* with ``control`` on, inputs also need a paired browser (see :class:`Pairing`), and
  their presses are marked ``remote``: switching the box off from a page is confirmed
  on the box itself.
"""

from __future__ import annotations

import abc
import asyncio
import dataclasses
import gzip
import hashlib
import hmac
import html
import ipaddress
import json
import logging
import os
import secrets
import socket
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import tornado.httpserver
import tornado.iostream
import tornado.netutil
import tornado.web

from .. import i18n
from ..inputs import BUTTONS, Hold, Press, Release, Tag
from . import patch, static, svg
from . import past
from .gate import Gate, client_key
from .handler import Handler
from .publish import Publisher

log = logging.getLogger(__name__)

MAX_STREAMS = 256  # a classroom of phones; a page beyond this is told the box is full
FULL_RETRY = 60_000  # ms before a page told the box is full tries again
FRESH_WAIT = 2.0  # seconds a page waits for the game thread's first snapshot
PATCHES_KEPT = 8  # a stream further behind than this many snapshots gets the whole
SLOW_CLIENT = 5.0  # seconds a stream may take to accept one snapshot
STREAM_SNDBUF = 64 * 1024  # kernel send buffer per stream: what a silent client can hold
HEARTBEAT = 15.0  # seconds between keep-alive comments (a dead client is noticed)
MAX_BODY = 4096
IDLE_TIMEOUT = 20  # seconds for a request's headers to arrive, or a kept-alive idle link
INPUT_RATE, INPUT_BURST = 8.0, 16  # inputs per second per client address
PAIR_RATE, PAIR_BURST = 0.1, 5  # pairing attempts: 5, then one every 10 s
HINT_RATE, HINT_BURST = 0.5, 3  # hints: a second of the Pi's work each
CSRF_COOKIE, CSRF_HEADER, PAIR_COOKIE = "companion_csrf", "X-Companion-CSRF", "companion_pair"
KINDS = {"press": Press, "hold": Hold, "release": Release}
PIN_DIGITS = 6
PIN_TRIES = 5  # wrong guesses at one PIN, from anywhere, before it is burned
PAIRED_FOR = 6 * 3600.0  # seconds a paired browser may play: an evening, not for ever
MAX_CLIENTS = 4096  # clients each rate limit remembers

ASSETS = static.assets(__package__, "index.html", "app.js", "style.css")
# The assets are compressed once, here; JSON answers as they are sent (Handler.send).
# The event stream is not: one zlib state per open page would cost a classroom of
# phones ~256 KB each, and its patches are a few hundred bytes.
GZIPPED = static.gzipped(ASSETS)
# What the page says without JavaScript, in the box's language (served in <noscript>).
NOSCRIPT = (i18n.N_("This page needs JavaScript"),
            i18n.N_("The table's screen follows the box live with a small script served by "
                    "the box itself (nothing from the internet). Turn JavaScript on for this "
                    "address, or use a browser that has it, and reload. The game goes on on "
                    "the box either way."))


class Pairing:
    """The table's permission to play from a phone: a short PIN shown on the OLED.

    The game thread calls :meth:`new_pin` (a menu item) and shows the result; the
    server thread calls :meth:`attempt`. A PIN works once and for ``ttl`` seconds, and
    is burned after :data:`PIN_TRIES` wrong guesses however they are spread over
    addresses (``on_burn`` then tells the game thread, which tells the table). A
    pairing lasts ``paired_for`` seconds; a new PIN ends every pairing, so the table can
    always lock out a phone that should no longer play.

    With ``keep`` (a file in the state directory), pairings outlast a restart of the
    box: the file holds each token's SHA-256 (never the token: reading the file does
    not let anyone play) and the wall-clock time it ends, written atomically on every
    pairing and on every new PIN. A pairing read back that ends further away than
    ``paired_for`` (the clock went back) is dropped, so none lives longer than that.
    """

    def __init__(self, ttl: float = 120.0, clock: Callable[[], float] = time.monotonic,
                 paired_for: float = PAIRED_FOR, on_burn: Callable[[], None] | None = None,
                 keep: Path | None = None, wall: Callable[[], float] = time.time):
        self.ttl = ttl
        self.clock = clock
        self.paired_for = paired_for
        self.on_burn = on_burn
        self.keep = keep
        self.wall = wall
        self._lock = threading.Lock()
        self._pin: str | None = None
        self._until = 0.0
        self._wrong = 0  # wrong guesses at the PIN on show
        self._tokens: dict[str, float] = {}  # token's SHA-256 -> until when (``clock``)
        self._load()

    @staticmethod
    def _digest(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    def _load(self) -> None:
        if self.keep is None:
            return
        try:
            kept = json.loads(self.keep.read_text(encoding="utf-8"))
            now, mono = self.wall(), self.clock()
            self._tokens = {str(h): mono + float(u) - now for h, u in kept.items()
                            if now < float(u) <= now + self.paired_for}
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.warning("web pairings in %s unreadable (%s): phones pair again", self.keep, exc)

    def _save(self) -> None:
        """Called with the lock held. A failure costs the pairings' survival only."""
        if self.keep is None:
            return
        try:
            tmp = self.keep.with_name(self.keep.name + ".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            now, mono = self.wall(), self.clock()
            with os.fdopen(fd, "w", encoding="utf-8") as f:  # ends on the wall clock
                json.dump({h: now + u - mono for h, u in self._tokens.items()}, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.keep)
        except OSError as exc:
            log.warning("web pairings not kept in %s (%s)", self.keep, exc)

    def new_pin(self) -> str:
        pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        with self._lock:
            self._pin, self._until, self._wrong = pin, self.clock() + self.ttl, 0
            self._tokens.clear()
            self._save()
        return pin

    def pair(self, pin: str) -> str | None:
        """A new browser token for the right PIN, else None."""
        return self.attempt(pin)[0]

    # Translators: The page's answer to a wrong PIN, beside the PIN field.
    def attempt(self, pin: str) -> tuple[str | None, str]:
        """(a new browser token, "") for the right PIN, else (None, why not)."""
        burned = False
        with self._lock:
            if self._pin is None or self.clock() >= self._until:
                self._pin = None
                # Translators: the page's answers to a phone pairing with the box (shown on the page).
                return None, i18n._("no PIN on the box's screen: choose Web PIN in its menu")
            if not hmac.compare_digest(pin.encode(), self._pin.encode()):
                self._wrong += 1
                if self._wrong < PIN_TRIES:
                    return None, i18n._("wrong PIN")
                self._pin, burned = None, True
            else:
                self._pin = None
                token = secrets.token_urlsafe(24)
                now = self.clock()
                self._tokens = {h: u for h, u in self._tokens.items() if u > now}
                self._tokens[self._digest(token)] = now + self.paired_for
                self._save()
                return token, ""
        if burned:
            log.warning("web PIN burned after %d wrong guesses", PIN_TRIES)
            if self.on_burn is not None:
                self.on_burn()
        return None, i18n._("too many wrong PINs: this one is blocked; the box offers a new one")

    def paired(self, token: str | None) -> bool:
        if not token:
            return False
        digest = self._digest(token)
        with self._lock:
            until = self._tokens.get(digest)
            if until is not None and self.clock() >= until:
                del self._tokens[digest]
                until = None
            return until is not None


class _Bucket:
    """Token buckets per client (an address, an IPv6 /64), at most :data:`MAX_CLIENTS`:
    an address flood evicts the clients seen longest ago, never the whole table."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self._level: dict[str, tuple[float, float]] = {}  # least recently seen first

    def take(self, who: str) -> bool:
        now = self.clock()
        key = client_key(who)
        level, at = self._level.pop(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - at) * self.rate)
        while len(self._level) >= MAX_CLIENTS:
            del self._level[next(iter(self._level))]
        if level < 1:
            self._level[key] = (level, now)
            return False
        self._level[key] = (level - 1, now)
        return True


class _Feed:
    """The latest snapshot as the server sends it (with the board drawn), made once
    per version on the server's loop, whatever the number of streams."""

    def __init__(self, publisher: Publisher, loop: asyncio.AbstractEventLoop):
        self.publisher = publisher
        self.loop = loop
        self.version = -1
        self.data = b"{}"
        self.snap: dict[str, Any] = {}
        self.full = b"data: {}\n\n"  # the whole snapshot as a stream's message
        # version -> (next version, the patch message between them), the latest few:
        # a stream a version or two behind (an input and its die's first tick come
        # close together) is sent the patches in turn, not the whole.
        self.steps: dict[int, tuple[int, bytes]] = {}
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
                snap["board_svg"] = svg.entanglion_board_parts(snap)  # joined by the page
                if snap.get("end"):
                    snap["end_svg"] = svg.end_plots(snap["end"])
            if self.version >= 0:
                # A new version may change nothing a page is sent (a step of nothing,
                # then: a stream must not be sent the whole for want of a patch).
                change = patch.diff(self.snap, snap)
                self.steps[self.version] = (version, b"" if change is None else (
                    b"event: patch\ndata: " + json.dumps(
                        change, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"))
                while len(self.steps) > PATCHES_KEPT:
                    del self.steps[next(iter(self.steps))]
            self.version, self.snap, self.data = version, snap, json.dumps(
                snap, ensure_ascii=False, separators=(",", ":")).encode()
            self.full = b"data: " + self.data + b"\n\n"
        return self.version, self.data

    def message(self, sent: int) -> tuple[int, bytes]:
        """The latest version and what takes a stream that has version ``sent`` to it:
        the patches since, when they are kept, else the whole snapshot."""
        version, _ = self.latest()
        messages = []
        while sent != version and sent in self.steps:
            sent, message = self.steps[sent]
            messages.append(message)
        return version, b"".join(messages) if sent == version else self.full


def _index(code: str) -> tuple[bytes, bytes]:
    """index.html with its <noscript> words in the language ``code``, and gzipped."""
    title, text = (i18n._(m) for m in NOSCRIPT)  # the box's language is ``code``
    data = ASSETS["index.html"].replace(b"<!--noscript-->", (
        f'<section class="noscript"><h2>{html.escape(title)}</h2>'
        f'<p>{html.escape(text)}</p></section>').encode()).replace(
        b'<html lang="en">', f'<html lang="{html.escape(code)}">'.encode())
    return data, gzip.compress(data, 9, mtime=0)


class _Asset(Handler):
    def get(self, name: str = "index.html") -> None:
        if name not in ASSETS:
            self.deny(404, "no such page")
        self.set_header("Cache-Control", "no-cache")
        kind = static.TYPES[name.rsplit(".", 1)[1]]
        if name != "index.html":
            self.send(ASSETS[name], kind, GZIPPED[name])
            return
        if not self.get_cookie(CSRF_COOKIE):
            self.set_cookie(CSRF_COOKIE, secrets.token_urlsafe(18), httponly=False,
                            samesite="Strict", path="/")
        code = i18n.language()
        if code not in self.server.index_pages:
            self.server.index_pages[code] = _index(code)
        data, gzipped = self.server.index_pages[code]
        self.send(data, kind, gzipped)


class _Config(Handler):
    def get(self) -> None:
        s = self.server
        self.set_header("Cache-Control", "no-store")
        self.send(json.dumps({
            "box": s.box_mode, "control": s.pairing is not None,
            "may_play": s.may_play(self), "buttons": list(BUTTONS), "pads": list(s.pads),
            "cards": s.cards if s.box_mode else [],
            "pairing_kept": s.pairing is not None and s.pairing.keep is not None,
        }).encode())


def page_catalog(code: str) -> bytes:
    """``/catalog.json``: the words of the page (and the game's names it shows) in the
    language ``code``, compiled beside the box's catalogs; English needs none."""
    messages: dict[str, str] = {}
    if code != i18n.DEFAULT:
        path = resources.files("companion") / "locale" / code / "web.json"
        if path.is_file():
            messages = json.loads(path.read_text(encoding="utf-8"))
    return json.dumps({"language": code, "messages": messages}, ensure_ascii=False).encode()


class _Catalog(Handler):
    async def get(self) -> None:
        snap = json.loads(await self.server.current() or b"{}")
        code = snap.get("language") or i18n.language()
        if code not in i18n.LANGUAGES:
            code = i18n.DEFAULT
        self.set_header("Cache-Control", "no-store")
        self.send(page_catalog(code))


class _Snapshot(Handler):
    async def get(self) -> None:
        data = await self.server.current()
        self.set_header("Cache-Control", "no-store")
        self.send(data)


class _History(Handler):
    """Every finished game in the journal, with its plots (drawn here, not on the
    game thread: the publisher hands over numbers only)."""

    async def get(self) -> None:
        await self.server.current()  # the game thread reads the journal's list then
        # The charts carry words: a change of language draws them again.
        data = (i18n.language(), self.server.publisher.history())
        if data != self.server.history_source:
            history = json.loads(data[1])
            history["plots"] = svg.history_plots(history)
            self.server.history_source = data
            self.server.history_page = json.dumps(history, separators=(",", ":")).encode()
        self.set_header("Cache-Control", "no-store")
        self.send(self.server.history_page)


class _Qasm(Handler):
    # Translators: The page's answer when the QNO circuit is asked for with no QNO game.
    async def get(self) -> None:
        snap = json.loads(await self.server.current())
        if snap.get("game") != "qno":
            self.deny(404, i18n._("no QNO game in play"))
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="qno-game.qasm"')
        self.finish(snap["qasm"])


class Stream(Handler, abc.ABC):
    """A stream of server-sent events, as both pages send them: at most
    :data:`MAX_STREAMS` (past them one ``event: full`` says so and the page retries
    later), ``retry`` so the browser reconnects by itself within a second, the newest
    message only (never a backlog), a keep-alive comment every :data:`HEARTBEAT`
    seconds, and a client that does not take a message within :data:`SLOW_CLIENT`
    seconds dropped. A subclass says what the next message is."""

    @abc.abstractmethod
    def changed(self) -> asyncio.Event:
        """The event set at the next change (taken before :meth:`next_message`)."""

    @abc.abstractmethod
    def next_message(self) -> bytes:
        """What brings this stream up to date (b"": it is)."""

    async def opened(self) -> None:
        """Once the stream is counted, before its first message."""

    def closed(self) -> None:
        """When the stream ends, however."""

    async def get(self) -> None:
        s = self.server
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("Cache-Control", "no-store")
        if s.streams >= MAX_STREAMS:
            log.info("a page was told the server is full (%d pages open)", s.streams)
            self.finish(f"retry: {FULL_RETRY}\nevent: full\ndata: "
                        f'{{"pages":{s.streams}}}\n\n')
            return
        s.streams += 1
        try:
            await self.opened()
            sock = self.request.connection.stream.socket
            if sock is None:  # the door closed it to make room before we ran
                return
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_SNDBUF)
            self.write("retry: 1000\n\n")
            while not s.stopping:
                waiting = self.changed()  # taken first: a change after it wakes us
                message = self.next_message()
                if message:
                    self.write(message)
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
            self.closed()


class _Events(Stream):
    """The box's snapshots: a ``data:`` line with the whole snapshot first, then an
    ``event: patch`` per change (the whole again after a skipped version)."""

    sent = -1  # the version this stream has

    async def opened(self) -> None:
        self.server.publisher.watch()
        await self.server.fresh()

    def closed(self) -> None:
        self.server.publisher.unwatch()

    def changed(self) -> asyncio.Event:
        return self.server.feed.changed

    def next_message(self) -> bytes:
        version, message = self.server.feed.message(self.sent)
        if version == self.sent:
            return b""
        self.sent = version
        return message


class _Post(Handler):
    def check_post(self, bucket: _Bucket) -> dict[str, Any]:
        """The checks every POST passes; returns its JSON body."""
        origin = self.request.headers.get("Origin")
        if origin is not None and origin != f"{self.request.protocol}://{self.request.host}":
            self.deny(403, "cross-site request refused")
        cookie = self.get_cookie(CSRF_COOKIE)
        header = self.request.headers.get(CSRF_HEADER)
        if not cookie or not header or not hmac.compare_digest(cookie, header):
            self.deny(403, i18n._("the page is out of date: reload it"))
        if self.request.headers.get("Content-Type", "").split(";")[0] != "application/json":
            self.deny(415, "send JSON")
        if not bucket.take(self.request.remote_ip or "?"):
            self.deny(429, i18n._("too many requests: slow down"))
        try:
            body = json.loads(self.request.body or b"null")
        except (ValueError, UnicodeDecodeError, RecursionError):  # incl. nesting too deep
            self.deny(400, "the body is not JSON")
        if not isinstance(body, dict):
            self.deny(400, "the body must be a JSON object")
        return body


def _watch_only(s: Any) -> str:
    """Why a page may not press the box's buttons, in the table's language."""
    return i18n._("this page may only watch") if s.pairing is None else \
        i18n._("pair this browser first (the PIN is on the box's screen)")


class _Input(_Post):
    def post(self) -> None:
        s = self.server
        body = self.check_post(s.input_bucket)
        if s.inputs is None or not s.may_play(self):
            self.deny(403, _watch_only(s))
        event = s.event(body)
        if s.pairing is not None:  # a phone, not the box's own buttons
            event = dataclasses.replace(event, remote=True)
        self.server.inputs(event)
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
            self.deny(403, _watch_only(s))
        await s.current()  # the position is kept by the game thread's publishing
        game = s.publisher.position()
        if game is None:
            self.deny(404, i18n._("no Entanglion game in play"))
        if s.hint_job is None or s.hint_job[0] is not game:
            loop = asyncio.get_running_loop()
            s.hint_job = (game, loop.run_in_executor(None, _hint_page, game))
        data = await asyncio.shield(s.hint_job[1])
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(data)


# Translators: The page's answer when a hint is asked for after the end.
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
            self.deny(404, i18n._("control from a browser is off on this box"))
        pin = body.get("pin")
        if not isinstance(pin, str) or len(pin) > 16:
            self.deny(400, i18n._("the PIN is the digits on the box's screen"))
        token, why = s.pairing.attempt(pin)
        if token is None:
            self.deny(403, why)
        self.set_cookie(PAIR_COOKIE, token, httponly=True, samesite="Strict", path="/",
                        max_age=int(s.pairing.paired_for))
        self.set_header("Content-Type", "application/json")
        self.finish(b'{"ok":true}')


def box_names(address: str) -> set[str]:
    """The names a page may use for the box: ``localhost``, the machine's name (and
    ``NAME.local``, as mDNS has it), and the address it is bound to unless that is
    every interface (then any of the box's addresses, checked per connection)."""
    names = {"localhost", "localhost.localdomain"}
    machine = socket.gethostname().lower().rstrip(".")
    if machine:
        short = machine.split(".", 1)[0]
        names |= {machine, short, short + ".local"}
    try:
        ip = _plain_ip(address)
    except ValueError:
        names.add(address.lower())  # a name in the config: the table uses that one
    else:
        if not ip.is_unspecified:
            names.add(str(ip))
    return names


def _plain_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An address without its IPv6 zone, an IPv4-mapped IPv6 address as IPv4."""
    ip = ipaddress.ip_address(text.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


class LoopServer(abc.ABC):
    """A Tornado application on a thread and event loop of its own, bound on the
    caller's thread to ``host:port`` (port 0: any free port; see :attr:`port`; a taken
    port is an OSError the caller sees at once), behind the door (:class:`Gate`) and
    the Host check. The box's page and the room's page (``companion.room``) are two."""

    thread_name = "companion-web"

    def __init__(self, host: str, port: int):
        self.host = host
        self.streams = 0
        self.stopping = False
        self.sockets = tornado.netutil.bind_sockets(port, address=host, backlog=64)
        self.port = self.sockets[0].getsockname()[1]
        self.names = box_names(host)
        self.gate: Gate
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._http: tornado.httpserver.HTTPServer | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def names_the_box(self, request: Any) -> bool:
        """Whether the request's ``Host`` is this box: one of :attr:`names`, or the very
        address the client reached it on. A rebinding site's own name never is."""
        # The header itself: tornado before 6.5 reads a missing or empty Host as
        # 127.0.0.1, which would name the box.
        host = request.headers.get("Host", "").strip().lower()
        if not host:
            return False
        if host.startswith("["):
            host = host[1:].split("]", 1)[0]
        elif host.count(":") == 1:
            host = host.split(":", 1)[0]
        host = host.rstrip(".")
        if host in self.names:
            return True
        try:
            asked = _plain_ip(host)
            here = _plain_ip(request.connection.stream.socket.getsockname()[0])
        except (ValueError, AttributeError, OSError):
            return False
        return asked == here

    @abc.abstractmethod
    def _app(self) -> tornado.web.Application:
        """The page's routes (each server has its own)."""

    def _opened(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the server's loop, before the first connection is taken."""

    def _closing(self) -> None:
        """On the server's loop, as it stops (the door is closed already)."""

    def start(self) -> LoopServer:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self.loop = loop
            self._opened(loop)
            self._http = tornado.httpserver.HTTPServer(
                self._app(), max_body_size=MAX_BODY, max_header_size=16 * 1024,
                idle_connection_timeout=IDLE_TIMEOUT, body_timeout=10, xheaders=False)
            self.gate = Gate(self.sockets, self._http.handle_stream, 64 * 1024)
            self.gate.open(loop)
            ready.set()
            loop.run_forever()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, name=self.thread_name, daemon=True)
        self._thread.start()
        ready.wait(10)
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
            self.gate.close()
            self._http.stop()
            self._closing()
            try:
                await asyncio.wait_for(self._http.close_all_connections(), 2.0)
            except asyncio.TimeoutError:
                pass
            asyncio.get_running_loop().stop()

        asyncio.run_coroutine_threadsafe(close(), self.loop)
        self._thread.join(5)


class WebServer(LoopServer):
    """Serves one box on ``host:port`` (port 0: any free port; see :attr:`port`).

    ``inputs``: a thread-safe put for input events (None: read-only). ``box_mode``:
    the simulator's box in a browser (the OLED, buttons and cards for anyone who can
    reach the address). ``pairing``: control from a paired browser only. ``cards``:
    (uid, label, game) of the tags a page may tap, in box mode. ``archive``: the
    journal's past games, for their pages (:mod:`.past`).
    """

    def __init__(self, publisher: Publisher, host: str = "127.0.0.1", port: int = 0,
                 inputs: Callable[[Any], None] | None = None, box_mode: bool = False,
                 pairing: Pairing | None = None, cards: list[dict[str, str]] | None = None,
                 pads: tuple[int, ...] = (1, 2, 3), archive: Any = None):
        self.publisher = publisher
        self.archive = archive  # the past games (``archive.Archive``), or None: none kept
        self.journal_jobs: asyncio.Semaphore
        self.inputs = inputs
        self.box_mode = box_mode
        self.pairing = pairing
        self.cards = list(cards or [])
        self.tags = {c["uid"] for c in self.cards}
        self.pads = pads
        self.history_source, self.history_page = b"", b"{}"
        self.index_pages: dict[str, tuple[bytes, bytes]] = {}  # language -> page, gzipped
        self.input_bucket = _Bucket(INPUT_RATE, INPUT_BURST)
        self.pair_bucket = _Bucket(PAIR_RATE, PAIR_BURST)
        self.hint_bucket = _Bucket(HINT_RATE, HINT_BURST)
        self.hint_job: tuple[Any, asyncio.Future] | None = None  # (position, its answer)
        self.feed: _Feed
        super().__init__(host, port)

    async def current(self) -> bytes:
        """The latest snapshot, for a request outside a stream: when no page was open
        it is stale, and the game thread is asked for a fresh one (waited for briefly)."""
        self.publisher.watch()
        try:
            await self.fresh()
        finally:
            self.publisher.unwatch()
        return self.feed.latest()[1]

    async def fresh(self) -> None:
        """Once watched: wait (briefly) until the game thread has published the box as
        it is, if no page was open before (it built nothing meanwhile)."""
        waiting = self.feed.changed  # taken first: a publish after it wakes us
        if not self.publisher.fresh():
            try:
                await asyncio.wait_for(waiting.wait(), FRESH_WAIT)
            except asyncio.TimeoutError:
                pass

    def may_play(self, handler: tornado.web.RequestHandler) -> bool:
        if self.inputs is None:
            return False
        if self.pairing is not None:
            return self.pairing.paired(handler.get_cookie(PAIR_COOKIE))
        return self.box_mode

    def event(self, body: dict[str, Any]) -> Any:
        """The input event a page asks for, or a 400 saying what is wrong."""
        kind = body.get("kind")
        if not isinstance(kind, str):
            raise tornado.web.HTTPError(400, "kind must be press, hold, release or tap")
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
            if not isinstance(uid, str) or uid not in self.tags:
                raise tornado.web.HTTPError(400, "no such card in this box")
            return Tag(pad, uid)
        raise tornado.web.HTTPError(400, "kind must be press, hold, release or tap")

    def _app(self) -> tornado.web.Application:
        kw = {"server": self}
        return tornado.web.Application([
            (r"/", _Asset, kw),
            (rf"/(app\.js|style\.css|{static.SHARED_ROUTE})", _Asset, kw),
            (r"/config", _Config, kw),
            (r"/catalog\.json", _Catalog, kw),
            (r"/snapshot", _Snapshot, kw),
            (r"/events", _Events, kw),
            (r"/qno\.qasm", _Qasm, kw),
            (r"/history", _History, kw),
            (r"/input", _Input, kw),
            (r"/pair", _Pair, kw),
            (r"/hint", _Hint, kw),
            *past.routes(kw),
        ], compress_response=False, serve_traceback=False, xsrf_cookies=False)

    def _opened(self, loop: asyncio.AbstractEventLoop) -> None:
        self.feed = _Feed(self.publisher, loop)
        self.journal_jobs = asyncio.Semaphore(past.JOBS)

    def _closing(self) -> None:
        self.feed.changed.set()
        self.publisher.unlisten(self.feed.wake)

    def start(self) -> WebServer:
        super().start()
        log.info("web page on %s", self.url)
        return self
