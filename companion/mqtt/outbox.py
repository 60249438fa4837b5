"""Finished games waiting for the broker, kept on disk beside the journal.

A broker down for an hour (or the box switched off meanwhile) must lose no record, and a
record must go out once. So the game thread adds each finished game's message here
(committed and synced, as the journal writes) and the MQTT thread removes it only when
the broker has acknowledged it (PUBACK with a success code). A row sent is kept as
"sent" without its payload, so the same game is never queued twice; the oldest of those
are forgotten past :data:`KEEP_SENT`.

One SQLite file (``journal.db.outbox``) in WAL mode with synchronous=FULL, like the
journal; each call takes the lock for one short statement, never across network I/O.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path

log = logging.getLogger(__name__)

SUFFIX = ".outbox"
KEEP_SENT = 1000  # sent rows remembered, so a game is never queued twice
_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    game_id INTEGER PRIMARY KEY, topic TEXT NOT NULL, payload BLOB,
    sent INTEGER NOT NULL DEFAULT 0 CHECK (sent IN (0, 1)));
CREATE TABLE IF NOT EXISTS since (game_id INTEGER NOT NULL);
"""


class Outbox:
    def __init__(self, journal_path: str | os.PathLike[str]):
        self.path = Path(os.fspath(journal_path) + SUFFIX)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        os.chmod(self.path, 0o600)  # game records are the box's, like the journal

    def add(self, game_id: int, topic: str, payload: bytes) -> bool:
        """Queue a finished game's message (game thread); False if it was queued before."""
        with self._lock:
            cur = self._db.execute("INSERT OR IGNORE INTO outbox (game_id, topic, payload)"
                                   " VALUES (?, ?, ?)", (game_id, topic, payload))
            return cur.rowcount == 1

    def since(self, latest: int) -> int:
        """The last game of the journal when the outbox was made (``latest`` the first
        time): games after it are the room's, the ones before are the box's history."""
        with self._lock:
            row = self._db.execute("SELECT game_id FROM since").fetchone()
            if row is None:
                self._db.execute("INSERT INTO since VALUES (?)", (latest,))
                return latest
            return row[0]

    def queued(self, game_id: int) -> bool:
        with self._lock:
            return self._db.execute("SELECT 1 FROM outbox WHERE game_id = ?",
                                    (game_id,)).fetchone() is not None

    def waiting(self, limit: int, skip: tuple[int, ...] = ()) -> list[tuple[int, str, bytes]]:
        """The oldest messages not yet acknowledged (MQTT thread), but those in ``skip``."""
        with self._lock:
            rows = self._db.execute("SELECT game_id, topic, payload FROM outbox WHERE sent = 0"
                                    " ORDER BY game_id LIMIT ?", (limit + len(skip),))
            return [r for r in rows if r[0] not in skip][:limit]

    def sent(self, game_id: int) -> None:
        """The broker acknowledged ``game_id``'s message: it is never sent again."""
        with self._lock:
            self._db.execute("UPDATE outbox SET sent = 1, payload = NULL WHERE game_id = ?",
                             (game_id,))
            self._db.execute("DELETE FROM outbox WHERE sent = 1 AND game_id NOT IN (SELECT"
                             " game_id FROM outbox WHERE sent = 1 ORDER BY game_id DESC"
                             " LIMIT ?)", (KEEP_SENT,))

    def pending(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM outbox WHERE sent = 0").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
