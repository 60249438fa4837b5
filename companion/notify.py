"""Talking to systemd: readiness, status lines and the watchdog (sd_notify(3)).

The protocol is one datagram per message on the AF_UNIX socket named by
``$NOTIFY_SOCKET`` (a leading ``@`` is the abstract namespace), so it is written here
instead of adding a dependency. Outside systemd (a terminal, the tests) there is no
socket and every call is a no-op. Send failures are ignored on purpose: systemd
going away must not take the game with it.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, environ: Mapping[str, str] = os.environ):
        address = environ.get("NOTIFY_SOCKET", "")
        self._address = "\0" + address[1:] if address.startswith("@") else address
        self._sock: socket.socket | None = None
        if self._address:
            try:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                # A full receive queue (a reader that stopped reading) must drop the
                # message, not block the game loop in sendto() forever.
                self._sock.setblocking(False)
            except OSError as exc:
                log.warning("systemd notify socket unavailable: %s", exc)
        usec = environ.get("WATCHDOG_USEC", "")
        pid = environ.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        # Ping at half the interval, as sd_watchdog_enabled(3) recommends.
        self.watchdog_interval = int(usec) / 2e6 if usec.isdigit() and mine else None

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def send(self, *fields: str) -> None:
        if self._sock is None:
            return
        try:
            self._sock.sendto("\n".join(fields).encode(), self._address)
        except OSError as exc:
            log.debug("systemd notify failed: %s", exc)

    def ready(self, status: str) -> None:
        self.send("READY=1", f"STATUS={status}")

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self, status: str = "Stopping") -> None:
        self.send("STOPPING=1", f"STATUS={status}")

    def keep_starting(self, every: float = 10.0, extend: float = 30.0) -> Callable[[], None]:
        """While a long start runs (a big replay, a journal salvage), ask systemd every
        ``every`` s for ``extend`` s more (EXTEND_TIMEOUT_USEC), so TimeoutStartSec does
        not kill a box that is busy rather than hung. Returns the function that stops it."""
        done = threading.Event()

        def extend_loop() -> None:
            while True:
                self.send(f"EXTEND_TIMEOUT_USEC={int(extend * 1_000_000)}")
                if done.wait(every):
                    return

        if self.enabled:
            threading.Thread(target=extend_loop, name="start-extender", daemon=True).start()
        return done.set

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
