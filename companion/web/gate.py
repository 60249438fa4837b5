"""The server's door: who may connect, how many at once, and what the loop does when
the process runs out of file handles.

Tornado's own accept loop takes every connection it can and, when ``accept`` fails
with EMFILE (no file handle left), logs a traceback and is called again at once: a
few hundred half-sent requests (a *slowloris*) then spin the loop and take the page
down until they time out. Here the server accepts by itself instead:

* at most :data:`MAX_CONNECTIONS` connections (fewer if the process may open few
  files), :data:`MAX_PER_CLIENT` from one client
  (an IPv4 address, or an IPv6 /64: one home network hands out many addresses);
* when either is reached, the oldest connection that is not busy with a request
  (a half-sent one, or a keep-alive one idling) makes room; if every one is busy the
  newcomer gets a short "503: the box is full" and is closed;
* on EMFILE (and its kin) an idle connection is closed to make room; if none is idle,
  accepting pauses for :data:`ACCEPT_PAUSE` seconds (logged) instead of spinning.

Requests that never finish their headers are closed by Tornado's header timeout.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import resource
import socket
from dataclasses import dataclass
from typing import Any, Callable

import tornado.iostream

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 256  # well under the 1,024 file handles a process gets by default
MAX_PER_CLIENT = 32  # a few tabs of a few phones behind one address
ACCEPT_BATCH = 32  # connections taken per wake-up, so the loop serves the others too
ACCEPT_PAUSE = 1.0  # seconds without accepting once the process is out of handles
OUT_OF_HANDLES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
FULL_REPLY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
              b"Retry-After: 5\r\nConnection: close\r\nContent-Length: 63\r\n\r\n"
              b"The box is full: too many connections. Try again in a moment.\n")


def client_key(address: str) -> str:
    """Who a connection is from, for limits: the IPv4 address (also when it arrives
    as an IPv4-mapped IPv6 one), else the IPv6 /64."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class _Conn:
    key: str
    busy: bool = False  # a handler is working on a request of it (or streaming to it)


class Gate:
    """Accepts on ``sockets`` for ``handle_stream`` (a Tornado ``HTTPServer``'s) within
    the limits above, on the server's event loop ``loop``."""

    def __init__(self, sockets: list[socket.socket], handle_stream: Callable[[Any, Any], Any],
                 max_buffer_size: int):
        self.sockets = sockets
        self.handle_stream = handle_stream
        self.max_buffer_size = max_buffer_size
        # A quarter of the process's file handles stays for the journal, logs and the rest.
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        self.most = MAX_CONNECTIONS if soft == resource.RLIM_INFINITY else \
            min(MAX_CONNECTIONS, max(8, soft * 3 // 4))
        self.conns: dict[tornado.iostream.IOStream, _Conn] = {}  # oldest first
        self.refused = 0  # told "the box is full"
        self.evicted = 0  # closed to make room
        self.pauses = 0  # times accepting paused for want of file handles
        self._loop: asyncio.AbstractEventLoop | None = None
        self._paused = False
        self._closed = False

    def open(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        for sock in self.sockets:
            sock.setblocking(False)
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    def close(self) -> None:
        """Stop accepting and close the listening sockets (live connections stay)."""
        self._closed = True
        for sock in self.sockets:
            if self._loop is not None and not self._paused and sock.fileno() >= 0:
                self._loop.remove_reader(sock.fileno())
            sock.close()

    # ------------------------------------------------------------------ requests

    def busy(self, stream: Any, busy: bool) -> None:
        """A handler started (or ended) working for ``stream``'s connection."""
        conn = self.conns.get(stream)
        if conn is not None:
            conn.busy = busy

    def count(self, key: str | None = None) -> int:
        """Open connections (from client ``key``); safe from any thread (a copy is read)."""
        return sum(1 for stream, c in list(self.conns.items())
                   if not stream.closed() and (key is None or c.key == key))

    # ------------------------------------------------------------------ accepting

    def _accept(self, sock: socket.socket) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                connection, address = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:  # gone before we took it
                continue
            except OSError as exc:
                if exc.errno not in OUT_OF_HANDLES:
                    raise
                # Out of file handles: an idle connection makes room for the newcomer
                # waiting in the kernel's backlog; if none is idle, wait.
                if self._make_room(list(self.conns)):
                    continue
                self._pause(exc)
                return
            self._admit(connection, address)

    def _pause(self, exc: OSError) -> None:
        """Out of file handles: stop watching the sockets for a while (the kernel keeps
        new connections in the backlog meanwhile) instead of failing in a loop."""
        assert self._loop is not None
        self.pauses += 1
        self._paused = True
        log.warning("cannot accept a connection (%s): pausing for %.0f s", exc.strerror,
                    ACCEPT_PAUSE)
        for sock in self.sockets:
            self._loop.remove_reader(sock.fileno())
        self._loop.call_later(ACCEPT_PAUSE, self._resume)

    def _resume(self) -> None:
        if self._closed or self._loop is None:
            return
        self._paused = False
        for sock in self.sockets:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    def _admit(self, connection: socket.socket, address: Any) -> None:
        host = address[0] if isinstance(address, tuple) else str(address)
        key = client_key(host)
        self._forget_closed()
        mine = [s for s, c in self.conns.items() if c.key == key]
        room = (len(mine) < MAX_PER_CLIENT or self._make_room(mine)) and \
            (len(self.conns) < self.most or self._make_room(list(self.conns)))
        if not room:
            self.refused += 1
            try:
                connection.setblocking(False)
                connection.recv(65536)  # a request already here, read: no reset for it
            except OSError:
                pass
            try:
                connection.send(FULL_REPLY)
                connection.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            connection.close()
            return
        stream = tornado.iostream.IOStream(connection, max_buffer_size=self.max_buffer_size)
        self.conns[stream] = _Conn(key)
        try:
            self.handle_stream(stream, address)
        except Exception:  # noqa: BLE001 - one bad connection never stops the door
            log.exception("cannot serve a connection from %s", host)
            stream.close()

    def _make_room(self, among: list[Any]) -> bool:
        """Close the oldest idle connection of ``among`` (oldest first); False if all
        are busy."""
        for stream in among:
            if not self.conns[stream].busy:
                self.evicted += 1
                del self.conns[stream]
                stream.close()
                return True
        return False

    def _forget_closed(self) -> None:
        for stream in [s for s in self.conns if s.closed()]:
            del self.conns[stream]
