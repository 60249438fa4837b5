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
    """The journal cannot do what was asked; the message names the file and the problem.

    ``damaged`` is True when the file's content is broken (not a database, malformed
    pages, a failed integrity check): :func:`salvage` can then keep what is readable.
    It is False for problems a salvage cannot fix or must not touch (permissions, a
    full disk, a newer schema, another program's database).
    """

    def __init__(self, message: str, damaged: bool = False):
        super().__init__(message)
        self.damaged = damaged


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
            # Broken content (SQLITE_CORRUPT, SQLITE_NOTADB) is a DatabaseError that is
            # not an OperationalError (those are: cannot open, read-only, I/O error).
            damaged = (isinstance(exc, sqlite3.DatabaseError)
                       and not isinstance(exc, sqlite3.OperationalError)) or \
                getattr(exc, "damaged", False)
            raise JournalError(f"journal {self.path} is not readable: {exc}",
                               damaged) from exc

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
                # SQLite's lines may hold newlines: the message stays one line.
                raise JournalError("damaged: " + "; ".join(" ".join(p.split())
                                                           for p in problems[:3]), True)
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


# ---------------------------------------------------------------------- salvage

# replays(game, seed, options, setup, inputs) -> whether the engine accepts them all
Replays = Callable[[str, int, dict[str, Any], "dict[str, Any] | None", list[dict[str, Any]]],
                   bool]


def salvage(path: str | os.PathLike[str], replays: Replays | None = None,
            now: Callable[[], float] = time.time) -> tuple[Journal, str]:
    """Recover from a damaged journal (:attr:`JournalError.damaged`): keep it aside and
    start a new one at ``path`` holding everything that still reads back consistently.

    The damaged file (with its -wal and -shm) is renamed ``<name>.damaged-<n>`` and never
    written again, so nothing is lost for good: an expert can still dig in it. A copy of
    it is read: every game row that reads, and of each game the longest run of entries
    1, 2, 3... that reads and parses. Inputs are only ever appended, so that run is the
    game's newest consistent state. SQLite has no checksums on rows, so a flipped bit
    can also leave an entry that reads but means something else: ``replays`` (the
    engines, which this module does not know) trims each unfinished or cut-short game
    further, to the longest run the engine accepts. A game cut short is marked
    'playing', so the box offers to resume it where it now ends. Returns the new journal
    and a one-line account for the log; raises JournalError if even that fails.
    """
    path = Path(path)
    n = 1
    while any(Path(f"{path}.damaged-{n}{s}").exists() for s in ("", "-wal", "-shm")):
        n += 1
    kept = Path(f"{path}.damaged-{n}")
    work = Path(f"{path}.salvage")
    try:
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{path}{suffix}").exists():
                os.replace(f"{path}{suffix}", f"{kept}{suffix}")
        for suffix in ("", "-wal", "-shm"):  # read a copy: opening may rewrite the WAL
            target = Path(f"{work}{suffix}")
            if target.exists():
                target.unlink()
            if suffix != "-shm" and Path(f"{kept}{suffix}").exists():
                target.write_bytes(Path(f"{kept}{suffix}").read_bytes())
        games, notes = _readable_games(work, replays)
    except (OSError, sqlite3.Error) as exc:
        for suffix in ("", "-wal", "-shm"):  # put it back: the next start must see it too
            try:
                if not Path(f"{path}{suffix}").exists():
                    os.replace(f"{kept}{suffix}", f"{path}{suffix}")
            except OSError:
                pass
        raise JournalError(f"journal {path} is damaged and cannot be salvaged: {exc}") from exc
    finally:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.unlink(f"{work}{suffix}")
            except OSError:
                pass
    journal = Journal(path, now)
    try:
        with journal._transaction() as db:
            for row, entries in games:
                db.execute(f"INSERT INTO games ({_COLUMNS}) VALUES "
                           f"({', '.join('?' * len(row))})", row)
                db.executemany("INSERT INTO entries (game_id, seq, kind, action, at)"
                               " VALUES (?, ?, ?, ?, ?)", entries)
    except BaseException:
        journal.close()
        raise
    lost = f"; {', '.join(notes)}" if notes else ""
    return journal, (f"journal {path} was damaged; it is kept as {kept.name} and a new "
                     f"journal holds the {len(games)} game(s) that still read back{lost}")


_COLUMNS = ("id, game, created, updated, finished, status, seed, options, setup, meta, turns,"
            " reason, inputs, activity")
_ENTRY = "SELECT game_id, seq, kind, action, at FROM entries"


def _readable_games(path: Path, replays: Replays | None
                    ) -> tuple[list[tuple[tuple, list[tuple]]], list[str]]:
    """(game row, entries) for every game of the damaged copy at ``path`` that reads."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        try:
            # Only SELECTs follow. writable_schema also makes SQLite read a file shorter
            # than its header says (a lost tail) instead of refusing it outright.
            db.execute("PRAGMA writable_schema=ON")
            ids = _ids(db)
        except sqlite3.Error:
            ids = None
        if ids is None:
            return [], ["nothing in it was readable"]
        notes: list[str] = []
        scanned: dict[int, dict[int, tuple]] | None = None  # the table, read without index
        scan_whole = False
        games = []
        for game_id in ids:
            try:
                row = list(db.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?",
                                      (game_id,)).fetchone())
                options = json.loads(row[7])
                setup = None if row[8] is None else json.loads(row[8])
                if row[9] is not None:
                    json.loads(row[9])
            except (sqlite3.Error, TypeError, ValueError):
                notes.append(f"game #{game_id} lost")
                continue
            # Two ways to the rows: the primary-key index and the table itself. A broken
            # page can make either fail, or quietly yield less; take what both give.
            if scanned is None:
                scanned, scan_whole = _scan(db)
            found = dict(scanned.get(game_id, {}))
            try:
                indexed = {r[1]: r for r in db.execute(
                    _ENTRY + " WHERE game_id = ? ORDER BY seq", (game_id,))}
                whole = scan_whole and indexed.keys() == found.keys()
            except sqlite3.Error:
                indexed, whole = _one_by_one(db, game_id), False
            found.update(indexed)
            rows = [found[seq] for seq in sorted(found)]
            entries, complete = _prefix(rows)
            whole = whole and complete
            if replays is not None and (row[5] == "playing" or not whole):
                good = _replayable(entries, lambda inputs: replays(
                    row[1], row[6], options, setup, inputs))
                whole = whole and good == len(entries)
                entries = entries[:good]
            row[12] = len(_effective(entries))
            if not whole:
                notes.append(f"game #{game_id} kept up to entry {len(entries)}")
                if row[5] != "abandoned":  # its end may be what was lost: resumable
                    row[4], row[5], row[11] = None, "playing", None  # finished, status, reason
            games.append((tuple(row), entries))
        return games, notes
    finally:
        db.close()


def _ids(db: sqlite3.Connection) -> list[int] | None:
    """Game ids from the table, or failing that from its index."""
    for query in ("SELECT id FROM games ORDER BY id",
                  "SELECT id FROM games INDEXED BY games_status ORDER BY id"):
        try:
            return [row[0] for row in db.execute(query)]
        except sqlite3.Error:
            pass
    return None


def _scan(db: sqlite3.Connection) -> tuple[dict[int, dict[int, tuple]], bool]:
    """Every entry row the table itself yields, up to its first broken page; and
    whether the scan reached the end."""
    found: dict[int, dict[int, tuple]] = {}
    try:
        for row in db.execute(_ENTRY + " NOT INDEXED"):
            found.setdefault(row[0], {})[row[1]] = row
    except sqlite3.Error:
        return found, False
    return found, True


def _one_by_one(db: sqlite3.Connection, game_id: int) -> dict[int, tuple]:
    """Entries 1, 2, 3... of a game through the primary key, up to the first failure."""
    found: dict[int, tuple] = {}
    while True:
        try:
            row = db.execute(_ENTRY + " WHERE game_id = ? AND seq = ?",
                             (game_id, len(found) + 1)).fetchone()
        except sqlite3.Error:
            return found
        if row is None:
            return found
        found[row[1]] = row


def _prefix(rows: list[tuple]) -> tuple[list[tuple], bool]:
    """The longest run of well-formed entries 1, 2, 3...; and whether it is all of them."""
    good: list[tuple] = []
    for row in rows:
        _, seq, kind, action, _at = row
        if seq != len(good) + 1 or kind not in ("input", "undo") or \
                (kind == "input") != (action is not None):
            return good, False
        if action is not None:
            try:
                if not isinstance(json.loads(action), dict):
                    return good, False
            except ValueError:
                return good, False
        good.append(row)
    return good, True


def _effective(entries: list[tuple]) -> list[dict[str, Any]]:
    return Journal.effective_inputs(
        Entry(seq, kind, None if action is None else json.loads(action), at)
        for _, seq, kind, action, at in entries)


def _replayable(entries: list[tuple], replays: Callable[[list[dict[str, Any]]], bool]
                ) -> int:
    """How many of ``entries`` (from the first) the engine replays: all of them, or the
    longest prefix that works (binary search, then a check)."""
    def ok(count: int) -> bool:
        try:
            return bool(replays(_effective(entries[:count])))
        except Exception:  # noqa: BLE001 - a replay that raises is a replay that fails
            return False

    if ok(len(entries)):
        return len(entries)
    low, high = 0, len(entries)  # ok(low) is assumed, ok(high) is False
    while high - low > 1:
        middle = (low + high) // 2
        if ok(middle):
            low = middle
        else:
            high = middle
    while low > 0 and not ok(low):  # an undo can make failure non-monotone: be sure
        low -= 1
    return low
