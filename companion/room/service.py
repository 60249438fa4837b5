"""``companion room``: the room's client, store, analyst and page, started together.

:func:`start` runs them in this process (the tests and a bench use it); :func:`main`
is the command, which runs until SIGINT or SIGTERM.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import i18n
from .client import RoomLink
from .report import Analyst
from .server import RoomServer
from .store import Store
from .tables import Tables

KEY_FILE = "room-key"


def room_key(folder: Path) -> str:
    """The room's key, made once and kept (0600) so a restart keeps the teacher's
    browser able to send commands."""
    path = folder / KEY_FILE
    try:
        key = path.read_text(encoding="utf-8").strip()
        if len(key) >= 16:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(18)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(key + "\n")
    return key


@dataclass
class Room:
    """A running room: :attr:`url` (its page), :attr:`key_url` (the page with the key
    that lets a browser send commands), :meth:`stop`."""

    server: RoomServer
    link: RoomLink
    store: Store
    tables: Tables
    analyst: Analyst | None

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def key_url(self) -> str:
        return f"{self.server.url}?key={self.server.key}"

    def stop(self) -> None:
        self.server.stop()
        self.link.stop()
        if self.analyst is not None:
            self.analyst.stop()


def start(mqtt: Any, state_dir: Path, host: str = "127.0.0.1", port: int = 0,
          analyse: bool = True, budget: int | None = None) -> Room:
    """Start a room for ``mqtt`` (a :class:`companion.config.MqttConfig`: host, port,
    TLS, user, password file, room; its ``table`` is not used) keeping its records in
    ``state_dir/room-<room>``, its page on ``host:port`` (0: a free port). Raises
    OSError when the port is taken or the password file cannot be read."""
    folder = Path(state_dir) / f"room-{mqtt.room}"
    store = Store(folder)
    analyst: Analyst | None = None
    tables = Tables(mqtt.room, on_record=lambda r: _stored(store, analyst, r))
    link = RoomLink(mqtt, tables, folder, store=store)
    if analyse:
        analyst = Analyst(store, folder, budget, on_done=lambda: tables.touch())
    server = RoomServer(mqtt.room, tables, store, link.send,
                        analyst.analyses if analyst else dict, room_key(folder), host, port)
    server.start()
    link.start()
    if analyst is not None:
        analyst.start()
        analyst.poke()
    return Room(server, link, store, tables, analyst)


def _stored(store: Store, analyst: Analyst | None, record: dict[str, Any]) -> bool:
    new = store.add(record)
    if new and analyst is not None:
        analyst.poke()
    return new


def main(args: argparse.Namespace) -> int:
    from ..config import ConfigError, load

    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"companion room: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        i18n.set_language(config.game.language)
    except ValueError:
        pass
    state_dir = Path(args.state_dir).expanduser() if args.state_dir else \
        Path.home() / ".local" / "share" / "companion"
    port = config.web.port if args.port is None else args.port
    try:
        room = start(config.mqtt, state_dir, config.web.address, port,
                     analyse=not args.no_analysis)
    except OSError as exc:
        print(f"companion room: {exc}", file=sys.stderr)
        return 1
    print(f"Room {config.mqtt.room}: open {room.key_url} (the key lets a browser send "
          f"commands; without it the page only watches)", flush=True)
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *a: done.set())
    done.wait()
    room.stop()
    return 0
