"""The durable game journal: every accepted input is on disk before its outcome is shown.

The box has no UPS and nobody to repair a database, so the journal is one SQLite file in
WAL mode with synchronous=FULL: a write method returns only once its transaction is
committed and synced, and a power cut leaves either all of a write or none of it.  Only
inputs are stored, never state: a game resumes by replaying them through the pure engine
from its seed.  Undo is an entry too and nothing is deleted, so history stays auditable.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
STATUSES = ("playing", "won", "lost", "abandoned")

# `inputs` caches the effective input count so games() needs no replay.  `activity` is a
# write counter: a Pi has no real-time clock and can boot with the time set back, so
# "most recently updated" must not depend on the wall clock.
_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
    finished REAL, status TEXT NOT NULL CHECK (status IN ('playing','won','lost','abandoned')),
    seed INTEGER NOT NULL, options TEXT NOT NULL, setup TEXT, meta TEXT,
    turns INTEGER NOT NULL CHECK (turns >= 0), reason TEXT,
    inputs INTEGER NOT NULL DEFAULT 0 CHECK (inputs >= 0), activity INTEGER NOT NULL);
CREATE TABLE entries (
    game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL CHECK (seq >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('input','undo')), action TEXT, at REAL NOT NULL,
    PRIMARY KEY (game_id, seq), CHECK ((kind = 'input') = (action IS NOT NULL)));
CREATE INDEX games_status ON games(status, activity);
"""
_SUMMARY = "id, game, created, updated, finished, status, turns, reason, inputs"
_NEXT_ACTIVITY = "(SELECT coalesce(max(activity), 0) + 1 FROM games)"


class JournalError(Exception):
    """The journal cannot do what was asked; the message names the file and the problem."""


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str  # 'input' or 'undo'
    action: dict[str, Any] | None  # None for an undo
    at: float


@dataclass(frozen=True)
class GameSummary:
    id: int
    game: str
    created: float
    updated: float
    finished: float | None
    status: str
    turns: int
    reason: str | None
    inputs: int  # effective inputs: undone ones are not counted


@dataclass(frozen=True)
class GameRecord(GameSummary):
    seed: int
    options: dict[str, Any]
    setup: dict[str, Any] | None
    meta: dict[str, Any] | None
    entries: list[Entry]


def _dump(value: Any, what: str) -> str:
    """Canonical JSON.  Refuses what would not come back equal (a tuple, an int key, NaN),
    because replay feeds the engine what json.loads returns and must not diverge."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    if json.loads(text) != value:
        raise ValueError(f"{what} does not survive a JSON round trip: {value!r}")
    return text


class Journal:
    """One open journal file; thread-safe (GPIO callbacks run on their own threads)."""

    def __init__(self, path: str | os.PathLike[str], now: Callable[[], float] = time.time):
        self.path = Path(path)
        self._now = now
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        try:
            self._db = self._open()
        except (OSError, sqlite3.Error, JournalError) as exc:  # _open's: the problem only
            raise JournalError(f"journal {self.path} is not readable: {exc}") from exc

    def _open(self) -> sqlite3.Connection:
        if not self.path.parent.is_dir():
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(self.path.parent, 0o700)  # mkdir's mode is filtered by the umask
        # Create the file ourselves so it is never world-readable even for an instant;
        # SQLite gives the -wal and -shm files the mode of the database file.
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        if self.path.stat().st_mode & 0o777 != 0o600:
            os.chmod(self.path, 0o600)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]  # garbage fails here
            if version > SCHEMA_VERSION:
                raise JournalError(f"schema version {version} is newer than the "
                                   f"{SCHEMA_VERSION} this program knows; upgrade companion")
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise JournalError(f"cannot use WAL mode (got {mode!r})")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            problems = [row[0] for row in db.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise JournalError(f"damaged: {'; '.join(problems[:3])}")
            db.execute("BEGIN IMMEDIATE")
            if db.execute("PRAGMA user_version").fetchone()[0] == 0:  # new (or foreign) file
                if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    raise JournalError("a SQLite database, but not a companion journal")
                for statement in filter(str.strip, _SCHEMA.split(";")):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.close()  # closing rolls back anything uncommitted
            raise
        return db

    def close(self) -> None:
        """Close the connection (which checkpoints the WAL).  Safe to call twice."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self, begin: str = "BEGIN IMMEDIATE") -> Iterator[sqlite3.Connection]:
        """One transaction: committed before the caller returns, or rolled back entirely."""
        with self._lock:
            if (db := self._db) is None:
                raise JournalError(f"journal {self.path} is closed")
            try:
                db.execute(begin)
                try:
                    yield db
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.rollback()
                    raise
            except sqlite3.Error as exc:
                raise JournalError(f"journal {self.path}: {exc}") from exc

    def new_game(self, game: str, seed: int, options: dict[str, Any],
                 setup: dict[str, Any] | None = None, meta: dict[str, Any] | None = None) -> int:
        """Start a game in status 'playing'; all that replay needs besides inputs is stored now."""
        values = (game, int(seed), _dump(options, "options"),
                  None if setup is None else _dump(setup, "setup"),
                  None if meta is None else _dump(meta, "meta"))
        with self._transaction() as db:
            at = float(self._now())
            cursor = db.execute(
                "INSERT INTO games (game, seed, options, setup, meta, created, updated, status,"
                f" turns, activity) VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', 0, {_NEXT_ACTIVITY})",
                (*values, at, at))
            return int(cursor.lastrowid)  # type: ignore[arg-type]

    def record(self, game_id: int, action: dict[str, Any], *, turns: int, status: str,
               reason: str | None = None) -> int:
        """Commit one accepted input with the game's new turns/status; returns its seq."""
        if not isinstance(action, dict):
            raise TypeError(f"an action is a dict, not {type(action).__name__}")
        return self._append(game_id, "input", _dump(action, "action"), turns, status, reason)

    def record_undo(self, game_id: int, *, turns: int, status: str) -> int:
        """Commit an undo of the last effective input; the undone input stays in history.

        Also allowed on a won or lost game: the input that ended it may have been a
        mistake (a mis-entered die), and taking it back reopens the game.
        """
        return self._append(game_id, "undo", None, turns, status, None)

    def _append(self, game_id: int, kind: str, action: str | None, turns: int, status: str,
                reason: str | None) -> int:
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
        if not isinstance(turns, int) or turns < 0:
            raise ValueError(f"turns must be a non-negative int, not {turns!r}")
        with self._transaction() as db:
            self._require_playing(db, game_id, reopen=kind == "undo")
            at = float(self._now())
            seq = db.execute("SELECT coalesce(max(seq), 0) + 1 FROM entries WHERE game_id = ?",
                             (game_id,)).fetchone()[0]
            db.execute("INSERT INTO entries (game_id, seq, kind, action, at)"
                       " VALUES (?, ?, ?, ?, ?)", (game_id, seq, kind, action, at))
            db.execute(
                "UPDATE games SET turns = ?, status = ?, reason = ?, updated = ?, finished = ?,"
                f" inputs = max(inputs + ?, 0), activity = {_NEXT_ACTIVITY} WHERE id = ?",
                (turns, status, reason, at, None if status == "playing" else at,
                 1 if kind == "input" else -1, game_id))
            return int(seq)

    def abandon(self, game_id: int) -> None:
        """Close a playing game the players chose not to resume; it stays in history."""
        with self._transaction() as db:
            self._require_playing(db, game_id)
            at = float(self._now())
            db.execute("UPDATE games SET status = 'abandoned', updated = ?, finished = ?,"
                       f" activity = {_NEXT_ACTIVITY} WHERE id = ?", (at, at, game_id))

    def _require_playing(self, db: sqlite3.Connection, game_id: int,
                         reopen: bool = False) -> None:
        row = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path} has no game {game_id}")
        if row[0] != "playing" and not (reopen and row[0] in ("won", "lost")):
            raise JournalError(f"journal {self.path}: game {game_id} is already {row[0]}")

    def unfinished(self, game: str | None = None) -> GameRecord | None:
        """The most recently written game still 'playing' (of kind `game` if given)."""
        with self._transaction("BEGIN") as db:
            row = db.execute("SELECT id FROM games WHERE status = 'playing' AND"
                             " (? IS NULL OR game = ?) ORDER BY activity DESC LIMIT 1",
                             (game, game)).fetchone()
            return None if row is None else self._load(db, row[0])

    def load(self, game_id: int) -> GameRecord:
        """Everything about one game, finished or not, with its full entry history."""
        with self._transaction("BEGIN") as db:  # one snapshot for the game and its entries
            return self._load(db, game_id)

    def _load(self, db: sqlite3.Connection, game_id: int) -> GameRecord:
        row = db.execute(f"SELECT {_SUMMARY}, seed, options, setup, meta FROM games WHERE id = ?",
                         (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path} has no game {game_id}")
        entries = [Entry(seq, kind, None if action is None else json.loads(action), at)
                   for seq, kind, action, at in db.execute(
                       "SELECT seq, kind, action, at FROM entries WHERE game_id = ? ORDER BY seq",
                       (game_id,))]
        options, setup, meta = (None if text is None else json.loads(text) for text in row[10:])
        return GameRecord(*row[:10], options, setup, meta, entries)

    def games(self, limit: int | None = None) -> list[GameSummary]:
        """All games, newest first (by creation order, which no clock jump can reorder)."""
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        with self._transaction("BEGIN") as db:
            rows = db.execute(f"SELECT {_SUMMARY} FROM games ORDER BY id DESC LIMIT ?",
                              (-1 if limit is None else limit,)).fetchall()
        return [GameSummary(*row) for row in rows]

    @staticmethod
    def effective_inputs(entries: Iterable[Entry]) -> list[dict[str, Any]]:
        """The inputs to replay: 'input' pushes, 'undo' pops (an undo of nothing is ignored)."""
        stack: list[dict[str, Any]] = []
        for entry in entries:
            if entry.kind == "input":
                stack.append(entry.action)  # type: ignore[arg-type]
            elif stack:
                stack.pop()
        return stack
