"""The durable game journal: every accepted input is on disk before its outcome is shown.

The box has no UPS and nobody to repair a database, so the journal is one SQLite file in
WAL mode with synchronous=FULL: a write method returns only once its transaction is
committed and synced, and a power cut leaves either all of a write or none of it.  Only
inputs are stored, never state: a game resumes by replaying them through the pure engine
from its seed.  Undo is an entry too and nothing is deleted, so history stays auditable.

SQLite checks its own structure but not what rows say, and a WAL frame that fails its
checksum quietly ends the WAL there.  Two things catch what SQLite cannot (the design,
and its limits, are in docs/journal.md):

- a checksum chain: each entry carries a hash of itself and of the entry before it,
  and each game row the hash of its last entry (``head``).  Loading a game recomputes
  the chain, so a changed, missing or extra entry (a flipped bit, an index that skips
  rows) is damage, never a quietly different game;
- a mark outside the database (``journal.db.mark``): the write counter, the last
  entry and its chain hash, rewritten after each commit without an fsync of its own.
  A journal that opens holding less than the mark says was committed has lost writes
  (a WAL cut short), and :attr:`Journal.loss` says how many.  The mark also records
  whether the journal was closed cleanly, whether a check found damage (the next open
  then salvages), and how many notices of the last input the table has read.

Opening costs the same whatever the journal's size: the game to resume is checked by
its chain when it is loaded, and SQLite's whole-file check (``integrity_check`` after
an unclean stop, else ``quick_check``) runs later, at the first idle checkpoint, on a
reader connection of its own thread, so no input waits for it.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..frozen import frozen
from ..statelock import open_nofollow

try:
    # hashlib's blake2b is this same C module; importing hashlib also loads OpenSSL for
    # hashes the journal never uses, 2.5-3 ms of every start of the box.
    from _blake2 import blake2b
except ImportError:  # an interpreter without CPython's module
    from hashlib import blake2b

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
STATUSES = ("playing", "won", "lost", "abandoned")

# `inputs` caches the effective input count so games() needs no replay.  `activity` is a
# write counter: a Pi has no real-time clock and can boot with the time set back, so
# "most recently updated" must not depend on the wall clock.  `head` and `chain` are the
# checksum chain (see the module docstring).
_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
    finished REAL, status TEXT NOT NULL CHECK (status IN ('playing','won','lost','abandoned')),
    seed INTEGER NOT NULL, options TEXT NOT NULL, setup TEXT, meta TEXT,
    turns INTEGER NOT NULL CHECK (turns >= 0), reason TEXT,
    inputs INTEGER NOT NULL DEFAULT 0 CHECK (inputs >= 0), activity INTEGER NOT NULL,
    head INTEGER NOT NULL DEFAULT 0);
CREATE TABLE entries (
    game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL CHECK (seq >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('input','undo')), action TEXT, at REAL NOT NULL,
    chain INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq), CHECK ((kind = 'input') = (action IS NOT NULL)));
CREATE INDEX games_status ON games(status, activity);
"""
PAGE_SIZE = 512  # of a new journal file (SQLite's default is 4096)
# Finished games kept in the journal itself; older ones move to ``journal.db.archive``
# (a few at each idle checkpoint), so what grows with the years (the idle check, a
# salvage) stays bounded. ``games()`` and ``load()`` read both.
KEEP_FINISHED = 500
ARCHIVE_BATCH = 20
CHECKPOINT_IDLE = 3.0  # seconds without input before a box checkpoints the WAL
_SUMMARY = "id, game, created, updated, finished, status, turns, reason, inputs"
_NEXT_ACTIVITY = "(SELECT coalesce(max(activity), 0) + 1 FROM games)"
_ROOT = "id, game, seed, options, setup, meta, created"  # what a game's chain starts from
# Every column of a game row, and an entry row as read (the archive and a salvage copy).
_COLUMNS = ("id, game, created, updated, finished, status, seed, options, setup, meta, turns,"
            " reason, inputs, activity, head")
_ENTRY = "SELECT game_id, seq, kind, action, at, chain FROM entries"

# SQLite result codes that are the system's trouble, not broken content: salvage must
# not touch the file for these (permissions, a full or failing disk, another writer).
_SYSTEM_CODES = {3, 5, 6, 7, 8, 10, 13, 14, 23}  # PERM BUSY LOCKED NOMEM READONLY IOERR FULL CANTOPEN AUTH
_SHORT_READ = 522  # SQLITE_IOERR_SHORT_READ: the file is shorter than it says


def is_damage(exc: BaseException) -> bool:
    """Whether a failure reading the journal means its content is broken."""
    if isinstance(exc, JournalError):
        return exc.damaged
    if isinstance(exc, (ValueError, TypeError, KeyError, IndexError, OverflowError)):
        return True  # JSON or UTF-8 that does not decode, a row of the wrong shape
    if isinstance(exc, sqlite3.DatabaseError):
        code = getattr(exc, "sqlite_errorcode", None)
        # A text column that is not UTF-8 comes back as an OperationalError with no code.
        return code is None or code == _SHORT_READ or (code & 0xFF) not in _SYSTEM_CODES
    return False


class JournalError(Exception):
    """The journal cannot do what was asked; the message names the file and the problem.

    ``damaged`` is True when the file's content is broken (not a database, malformed
    pages, a failed integrity check, rows that do not decode or do not match their
    checksums): :func:`salvage` can then keep what is readable.  It is False for
    problems a salvage cannot fix or must not touch (permissions, a full disk, a newer
    schema, another program's database).
    """

    def __init__(self, message: str, damaged: bool = False):
        super().__init__(" ".join(message.split()))  # one line: SQLite's may hold newlines
        self.damaged = damaged


@frozen
class Entry:
    """One line of a game's history: an input, or the undo of the last one."""

    seq: int
    kind: str  # 'input' or 'undo'
    action: dict[str, Any] | None  # None for an undo
    at: float


@frozen
class GameSummary:
    """A game as the lists of past games show it, without its history."""

    id: int
    game: str
    created: float
    updated: float
    finished: float | None
    status: str
    turns: int
    reason: str | None
    inputs: int  # effective inputs: undone ones are not counted


@frozen
class GameRecord(GameSummary):
    """A game with all it takes to replay it: seed, options, setup and entries."""

    seed: int
    options: dict[str, Any]
    setup: dict[str, Any] | None
    meta: dict[str, Any] | None
    entries: list[Entry]


@frozen
class Mark:
    """What the journal last committed, kept outside it (see the module docstring)."""

    activity: int  # the write counter after the last write
    game: int  # the game of the last write (0: none yet)
    seq: int  # that game's last entry (0: none)
    head: int  # that game's chain hash after it
    read: int  # notices of that entry the table has read
    clean: bool  # the journal was closed, not cut off
    damaged: bool = False  # a check found damage: the next open salvages

    _TAG = "companion-mark 1"
    SIZE = 128  # one fixed-size record rewritten in place: never a partly new file

    def encode(self) -> bytes:
        body = (f"{self._TAG} {self.activity} {self.game} {self.seq} {self.head} "
                f"{self.read} {2 if self.damaged else int(self.clean)}")
        line = f"{body} {zlib.crc32(body.encode()):08x}\n".encode()
        return line.ljust(self.SIZE, b" ")

    @classmethod
    def decode(cls, data: bytes) -> Mark | None:
        """The mark in ``data``, or None if it is missing or garbled (then nothing is
        compared: a lost mark can hide a loss, never invent one)."""
        try:
            body, crc = data.decode("ascii").strip().rsplit(" ", 1)
            if not body.startswith(cls._TAG + " ") or int(crc, 16) != zlib.crc32(body.encode()):
                return None
            activity, game, seq, head, read, clean = map(int, body[len(cls._TAG):].split())
        except (UnicodeDecodeError, ValueError):
            return None
        return cls(activity, game, seq, head, read, clean == 1, clean == 2)


@frozen
class Loss:
    """Writes the mark says were committed that the journal no longer holds."""

    writes: int  # how many writes (inputs, undos, new or ended games) are missing
    game: int  # the game the last of them belonged to
    inputs: int  # of that game's entries, how many are gone (all of them if game_lost)
    game_lost: bool  # that game is not in the journal at all


def _hash(previous: int, text: str) -> int:
    digest = blake2b(previous.to_bytes(8, "big", signed=True) + text.encode(),
                     digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)  # fits SQLite's 64-bit integer


def _root(row: tuple) -> int:
    """The start of a game's chain: everything replay needs that is not an entry."""
    gid, game, seed, options, setup, meta, created = row
    return _hash(0, f"{gid}|{game}|{seed}|{options}|{setup}|{meta}|{created!r}")


def _link(previous: int, seq: int, kind: str, action: str | None, at: float) -> int:
    return _hash(previous, f"{seq}|{kind}|{action}|{at!r}")


def _dump(value: Any, what: str) -> str:
    """Canonical JSON.  Refuses what would not come back equal (a tuple, an int key, NaN),
    because replay feeds the engine what json.loads returns and must not diverge."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    if json.loads(text) != value:
        raise ValueError(f"{what} does not survive a JSON round trip: {value!r}")
    return text


class Journal:
    """One open journal file; thread-safe (GPIO callbacks run on their own threads).

    ``readonly`` opens it for looking only (``companion games`` beside a running box,
    ``doctor``): nothing is created, migrated or marked.  After opening, ``check`` is
    the SQLite whole-file check the first idle :meth:`checkpoint` runs
    ("integrity_check" after an unclean shutdown, else "quick_check"), ``loss`` what the
    mark says is missing (None: nothing), and ``damage`` what that check found (None:
    nothing, or not run yet; see :meth:`checked`).
    """

    def __init__(self, path: str | os.PathLike[str], now: Callable[[], float] = time.time,
                 readonly: bool = False):
        self.path = Path(path)
        self.mark_path = Path(f"{self.path}.mark")
        self._now = now
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._mark_fd: int | None = None
        self.readonly = readonly
        self.check = "quick_check"
        self.loss: Loss | None = None
        self.mark: Mark | None = None  # as found at open, before this run rewrote it
        self._read: tuple[int, int, int] = (0, 0, 0)  # (game, seq, notices read)
        self._written_mark: Mark | None = None  # the mark as last written by this process
        self._dirty = False  # written since the last checkpoint
        self.damage: str | None = None
        self._checker: threading.Thread | None = None
        self._check_due = False
        try:
            self._db = self._open()
        except (OSError, sqlite3.Error, JournalError, ValueError, TypeError) as exc:
            self._close_mark()
            # SQLite refuses to write a file whose header asks for a newer writer: on a
            # file we may write, that header is a damaged one.
            header = getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_READONLY and \
                not readonly and os.access(self.path, os.W_OK)
            raise JournalError(f"journal {self.path} is not readable: {exc}",
                               header or (is_damage(exc) and not isinstance(exc, OSError))
                               ) from exc

    def _open(self) -> sqlite3.Connection:
        if self.readonly:
            if not self.path.is_file():
                raise JournalError("no such file")
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None,
                                 check_same_thread=False, timeout=5)
        else:
            db = self._connect()
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]  # garbage fails here
            if version and not _has_our_tables(db):
                # Someone else's database: neither an upgrade nor a write would help.
                raise JournalError("a SQLite database, but not a companion journal")
            if version > SCHEMA_VERSION:
                # A newer program changes the schema; this one's schema under a newer
                # number is a flipped bit in the header.
                raise JournalError(f"schema version {version} is newer than the "
                                   f"{SCHEMA_VERSION} this program knows; upgrade companion",
                                   _our_schema(db))
            if self.readonly:
                if version < SCHEMA_VERSION and db.execute(
                        "SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    if not _has_our_tables(db):
                        raise JournalError("a SQLite database, but not a companion journal")
                    raise JournalError("an older journal: start the box once to upgrade it")
                self.mark = self._read_mark()
                return db
            # Each commit writes every page it changes to the WAL (four: the entries
            # table and its key, the game row and its status index), and fsyncs: small
            # pages make an input cost about one 4 KB flash page.  Only a new file
            # takes it; an older journal keeps its pages.
            db.execute(f"PRAGMA page_size={PAGE_SIZE}")
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode != "wal":
                raise JournalError(f"cannot use WAL mode (got {mode!r})")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self.mark = self._read_mark()
            wal = Path(f"{self.path}-wal")
            # Closing checkpoints the WAL away and marks the journal clean; a WAL with
            # frames in it or an unclean mark means the last run was cut off.
            unclean = self.mark is None or not self.mark.clean or \
                (wal.exists() and wal.stat().st_size > 0)
            self.check = "integrity_check" if unclean else "quick_check"
            self._check_due = True  # when idle: its time grows with the file
            if self.mark is not None and self.mark.damaged:
                raise JournalError("damaged: a check of the last run found damage "
                                   "(see the log)", True)
            db.execute("BEGIN IMMEDIATE")
            if version == 0:  # new (or foreign) file
                if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    raise JournalError("a SQLite database, but not a companion journal")
                for statement in filter(str.strip, _SCHEMA.split(";")):
                    db.execute(statement)
            elif version == 1:
                _upgrade_from_1(db)
            if version < SCHEMA_VERSION:  # a current journal is not written (nor fsynced)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
            self.loss = self._compare(db, self.mark)
            self._mark_fd = open_nofollow(self.mark_path, os.O_RDWR | os.O_CREAT)
            mark = self.mark
            if mark is not None and self.loss is None:
                self._read = (mark.game, mark.seq, mark.read)
            self._write_mark(db, clean=False)
        except BaseException:
            db.close()  # closing rolls back anything uncommitted
            raise
        return db

    def _connect(self) -> sqlite3.Connection:
        if not self.path.parent.is_dir():
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(self.path.parent, 0o700)  # mkdir's mode is filtered by the umask
        # Create the file ourselves so it is never world-readable even for an instant;
        # SQLite gives the -wal and -shm files the mode of the database file.
        os.close(open_nofollow(self.path, os.O_RDWR | os.O_CREAT))
        for suffix in ("-wal", "-shm"):  # SQLite would follow these and write through
            if os.path.islink(f"{self.path}{suffix}"):
                os.close(open_nofollow(f"{self.path}{suffix}", os.O_RDONLY))  # says why
        if self.path.stat().st_mode & 0o777 != 0o600:
            os.chmod(self.path, 0o600)
        return sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=5)

    # ------------------------------------------------------------------ the mark

    def _read_mark(self) -> Mark | None:
        try:
            fd = open_nofollow(self.mark_path, os.O_RDONLY)
        except OSError:
            return None  # missing; a symbolic link is refused when it is opened to write
        try:
            return Mark.decode(os.pread(fd, Mark.SIZE, 0))
        except OSError:
            return None
        finally:
            os.close(fd)

    def _compare(self, db: sqlite3.Connection, mark: Mark | None) -> Loss | None:
        """What the mark says was committed that the journal does not hold."""
        if mark is None:
            return None
        activity = db.execute("SELECT coalesce(max(activity), 0) FROM games").fetchone()[0]
        row = db.execute("SELECT head, (SELECT coalesce(max(seq), 0) FROM entries"
                         " WHERE game_id = games.id) FROM games WHERE id = ?",
                         (mark.game,)).fetchone()
        if activity >= mark.activity:
            if row is not None and activity == mark.activity and row[1] == mark.seq \
                    and row[0] != mark.head:
                raise JournalError(f"game #{mark.game} entry {mark.seq} is not the one "
                                   "committed (its checksum differs)", True)
            return None
        if row is None:
            return Loss(mark.activity - activity, mark.game, mark.seq, True)
        return Loss(mark.activity - activity, mark.game, max(mark.seq - row[1], 0), False)

    def _write_mark(self, db: sqlite3.Connection, clean: bool, game: int | None = None,
                    sync: bool = False) -> None:
        """Rewrite the mark from the database (``game``: the one just written).  No
        fsync per input: a mark the kernel had not written back when power went is an
        older mark, which can only hide a loss, never report one that did not happen."""
        if self._mark_fd is None:
            return
        try:
            activity = db.execute("SELECT coalesce(max(activity), 0) FROM games").fetchone()[0]
            if game is None:  # at open: the game written last
                last = db.execute("SELECT id FROM games ORDER BY activity DESC LIMIT 1"
                                  ).fetchone()
                game = last[0] if last is not None else 0
            row = db.execute("SELECT head, (SELECT coalesce(max(seq), 0) FROM entries"
                             " WHERE game_id = games.id) FROM games WHERE id = ?",
                             (game,)).fetchone()
            head, seq = row if row is not None else (0, 0)
            read = self._read[2] if self._read[:2] == (game, seq) else 0
            self._read = (game, seq, read)
        except sqlite3.Error as exc:
            self._mark_failed(exc)
            return
        self._put_mark(Mark(activity, game, seq, head, read, clean, self.damage is not None),
                       sync)

    def _put_mark(self, mark: Mark, sync: bool = False) -> None:
        assert self._mark_fd is not None
        self._written_mark = None  # unknown until the write is done
        try:
            os.pwrite(self._mark_fd, mark.encode(), 0)
            if sync:
                os.fsync(self._mark_fd)
        except OSError as exc:
            self._mark_failed(exc)
            return
        self._written_mark = mark

    def _mark_failed(self, exc: Exception) -> None:
        # The mark only ever adds detection: failing to write it loses no game.
        log.warning("journal mark %s not written: %s", self.mark_path, exc)

    def read_mark(self) -> tuple[int, int, int]:
        """(game, seq, notices read) of the last committed entry, as the mark has it."""
        return self._read

    def mark_read(self, game_id: int, seq: int, read: int) -> None:
        """The table has read ``read`` notices of entry ``seq`` of ``game_id``.  Not
        synced: losing it only shows a notice again after a restart, never hides one."""
        with self._lock:
            if self._db is None or self._mark_fd is None or self._read[:2] != (game_id, seq):
                return
            self._read = (game_id, seq, max(read, 0))
            last = self._written_mark
            if last is None or (last.game, last.seq) != (game_id, seq):
                self._write_mark(self._db, clean=False, game=game_id)
                return
            # Every write since rewrote the mark: only the count read is new. (About
            # half the inputs of a game are an OK on a notice; three queries each.)
            self._put_mark(replace(last, read=max(read, 0), clean=False,
                                   damaged=self.damage is not None))

    def _close_mark(self) -> None:
        if self._mark_fd is not None:
            try:
                os.close(self._mark_fd)
            except OSError:
                pass
            self._mark_fd = None

    # ------------------------------------------------------------------ lifetime

    def checkpoint(self) -> None:
        """Copy the WAL into the database file and empty it, so a frame damaged later
        can cost nothing that was already written; also syncs the mark.  Cheap when
        nothing was written since the last one.  The first one also starts the
        whole-file check (see the module docstring)."""
        with self._lock:
            if self._db is None or self.readonly:
                return
            if self._check_due:
                self._check_due = False
                self._checker = threading.Thread(target=self._whole_check,
                                                 name="journal-check", daemon=True)
                self._checker.start()
            if not self._dirty:
                return
            try:
                self._archive_finished(self._db)
            except (OSError, sqlite3.Error, JournalError) as exc:  # kept here: nothing lost
                log.warning("journal %s: games not archived: %s", self.path, exc)
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._dirty = False
            except sqlite3.Error as exc:  # a reader in the way: the next one catches up
                log.warning("journal checkpoint failed: %s", exc)
            if self._mark_fd is not None:
                try:
                    os.fsync(self._mark_fd)
                except OSError as exc:
                    log.warning("journal mark %s not synced: %s", self.mark_path, exc)

    @property
    def archive_path(self) -> Path:
        return Path(f"{self.path}.archive")

    def _archive_finished(self, db: sqlite3.Connection) -> None:
        """Move the oldest finished games past :data:`KEEP_FINISHED` to the archive:
        copied there and committed first, then removed here, so a cut in between leaves
        a game in both (read from here), never in neither.  Each is checked against its
        chain first: damage stays here, for a salvage to see.  Never the game written
        last (the mark names it and its write counter)."""
        over = db.execute("SELECT count(*) FROM games WHERE status != 'playing'"
                          ).fetchone()[0] - KEEP_FINISHED
        if over <= 0:
            return
        ids = [row[0] for row in db.execute(
            "SELECT id FROM games WHERE status != 'playing' AND activity <"
            " (SELECT max(activity) FROM games) ORDER BY id LIMIT ?",
            (min(over, ARCHIVE_BATCH),))]
        for game_id in ids:
            self._load(db, game_id)  # raises on damage: nothing moves
        os.close(open_nofollow(self.archive_path, os.O_RDWR | os.O_CREAT))
        archive = sqlite3.connect(self.archive_path, isolation_level=None, timeout=5)
        try:
            archive.execute(f"PRAGMA page_size={PAGE_SIZE}")
            archive.execute("PRAGMA synchronous=FULL")
            archive.execute("BEGIN IMMEDIATE")
            if archive.execute("PRAGMA user_version").fetchone()[0] == 0:
                for statement in filter(str.strip, _SCHEMA.split(";")):
                    archive.execute(statement)
                archive.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            marks = ", ".join("?" * len(ids))
            archive.executemany(f"INSERT OR IGNORE INTO games ({_COLUMNS}) VALUES "
                                f"({', '.join('?' * 15)})", db.execute(
                                    f"SELECT {_COLUMNS} FROM games WHERE id IN ({marks})", ids))
            archive.executemany("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?, ?, ?)",
                                db.execute(f"{_ENTRY} WHERE game_id IN ({marks})", ids))
            archive.execute("COMMIT")
        finally:
            archive.close()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(f"DELETE FROM entries WHERE game_id IN ({marks})", ids)
            db.execute(f"DELETE FROM games WHERE id IN ({marks})", ids)
            db.execute("COMMIT")
        except BaseException:
            db.rollback()
            raise
        log.info("journal %s: %d finished game(s) moved to %s", self.path, len(ids),
                 self.archive_path.name)

    def _archived(self, query: str, args: tuple) -> list[tuple]:
        """Rows of ``query`` on the archive (none if there is none yet)."""
        if not self.archive_path.exists():
            return []
        try:
            archive = sqlite3.connect(f"file:{self.archive_path}?mode=ro", uri=True, timeout=5)
            try:
                return archive.execute(query, args).fetchall()
            finally:
                archive.close()
        except sqlite3.Error as exc:
            raise JournalError(f"journal archive {self.archive_path} is not readable: {exc}",
                               ) from exc

    def _whole_check(self) -> None:
        """SQLite's whole-file check on a reader connection of its own (WAL readers do
        not block the writer).  Damage is logged and kept in the mark, so the next
        start salvages, when nobody is in the middle of a move."""
        try:
            reader = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=5)
            try:
                problems = [" ".join(str(row[0]).split())
                            for row in reader.execute(f"PRAGMA {self.check}")]
            finally:
                reader.close()
        except sqlite3.Error as exc:
            if not is_damage(exc):
                log.warning("journal %s: %s not run: %s", self.path, self.check, exc)
                return
            problems = [str(exc)]
        if problems == ["ok"]:
            return
        with self._lock:
            self.damage = "; ".join(problems[:3])
            log.error("journal %s is damaged (%s): %s; it is salvaged at the next start",
                      self.path, self.check, self.damage)
            if self._db is not None:
                self._write_mark(self._db, clean=False, sync=True)

    def checked(self, timeout: float | None = None) -> str | None:
        """Wait for the whole-file check started by :meth:`checkpoint` (if any); the
        damage it found, or None."""
        if self._checker is not None:
            self._checker.join(timeout)
        return self.damage

    def close(self) -> None:
        """Close the connection (which checkpoints the WAL) and mark the journal clean,
        unless the full check owed since an unclean stop has not run yet (the box never
        idled): then the next open owes it still.  Safe to call twice."""
        self.checked()  # what a running check finds must reach the mark
        with self._lock:
            if self._db is not None:
                db, self._db = self._db, None
                owed = self._check_due and self.check == "integrity_check"
                try:
                    if not self.readonly:
                        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                        self._write_mark(db, clean=not owed, sync=True)
                except sqlite3.Error as exc:
                    log.warning("journal %s: closing: %s", self.path, exc)
                db.close()
            self._close_mark()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _commit(self, db: sqlite3.Connection) -> None:
        db.execute("COMMIT")

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
                    self._commit(db)
                except BaseException:
                    if db.in_transaction:
                        db.rollback()
                    raise
            except sqlite3.Error as exc:
                raise JournalError(f"journal {self.path}: {exc}", is_damage(exc)) from exc
            except (ValueError, TypeError) as exc:  # a row that does not decode
                if begin != "BEGIN":
                    raise
                raise JournalError(f"journal {self.path}: {exc}", True) from exc

    # ------------------------------------------------------------------ writes

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
            gid = int(cursor.lastrowid)  # type: ignore[arg-type]
            db.execute("UPDATE games SET head = ? WHERE id = ?",
                       (_root((gid, *values, at)), gid))
        self._written(gid)
        return gid

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
        written: tuple[int, int] | None = None  # (seq, chain) once the rows are in
        try:
            with self._transaction() as db:
                self._require_playing(db, game_id, reopen=kind == "undo")
                at = float(self._now())
                seq, head = db.execute(
                    "SELECT (SELECT coalesce(max(seq), 0) + 1 FROM entries WHERE game_id = ?),"
                    " head FROM games WHERE id = ?", (game_id, game_id)).fetchone()
                chain = _link(head, seq, kind, action, at)
                db.execute("INSERT INTO entries (game_id, seq, kind, action, at, chain)"
                           " VALUES (?, ?, ?, ?, ?, ?)", (game_id, seq, kind, action, at, chain))
                db.execute(
                    "UPDATE games SET turns = ?, status = ?, reason = ?, updated = ?,"
                    " finished = ?, inputs = max(inputs + ?, 0), head = ?,"
                    f" activity = {_NEXT_ACTIVITY} WHERE id = ?",
                    (turns, status, reason, at, None if status == "playing" else at,
                     1 if kind == "input" else -1, chain, game_id))
                written = (int(seq), chain)
        except JournalError as exc:
            # A commit can report failure (an fsync error) after its write landed: a
            # restart would replay it, so the players must not be told it was lost.
            if written is None or not self._landed(game_id, *written):
                raise
            log.warning("journal %s: the commit reported %s, but the entry is there", self.path,
                        exc)
        self._written(game_id)
        if status != "playing":
            self.checkpoint()  # a finished game is never at the mercy of a WAL frame
        return written[0]

    def _landed(self, game_id: int, seq: int, chain: int) -> bool:
        """Whether a new reader (what a restart would see) finds entry ``seq`` as written."""
        try:
            reader = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=5)
            try:
                row = reader.execute("SELECT chain FROM entries WHERE game_id = ? AND seq = ?",
                                     (game_id, seq)).fetchone()
            finally:
                reader.close()
        except sqlite3.Error:
            return False
        return row is not None and row[0] == chain

    def _written(self, game_id: int) -> None:
        with self._lock:
            self._dirty = True
            if self._db is not None:
                self._write_mark(self._db, clean=False, game=game_id)

    def abandon(self, game_id: int) -> None:
        """Close a playing game the players chose not to resume; it stays in history."""
        with self._transaction() as db:
            self._require_playing(db, game_id)
            at = float(self._now())
            db.execute("UPDATE games SET status = 'abandoned', updated = ?, finished = ?,"
                       f" activity = {_NEXT_ACTIVITY} WHERE id = ?", (at, at, game_id))
        self._written(game_id)

    def _require_playing(self, db: sqlite3.Connection, game_id: int,
                         reopen: bool = False) -> None:
        row = db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path} has no game {game_id}")
        if row[0] != "playing" and not (reopen and row[0] in ("won", "lost")):
            raise JournalError(f"journal {self.path}: game {game_id} is already {row[0]}")

    # ------------------------------------------------------------------ reads

    def unfinished(self, game: str | None = None) -> GameRecord | None:
        """The most recently written game still 'playing' (of kind `game` if given)."""
        with self._transaction("BEGIN") as db:
            # Asked of the status index and of the table itself: quick_check does not
            # compare the two, and an index that lost the game would quietly hide it.
            found = [db.execute(f"SELECT id FROM games {how} WHERE status = 'playing' AND"
                                " (? IS NULL OR game = ?) ORDER BY activity DESC LIMIT 1",
                                (game, game)).fetchone()
                     for how in ("INDEXED BY games_status", "NOT INDEXED")]
            if found[0] != found[1] or (found[0] is not None and type(found[0][0]) is not int):
                raise JournalError(f"journal {self.path}: its status index disagrees with "
                                   "its games table", True)
            if found[0] is None:
                return None
            try:
                return self._load(db, found[0][0])
            except JournalError as exc:  # it was just found: missing now is damage too
                raise JournalError(str(exc), True) from exc

    def load(self, game_id: int) -> GameRecord:
        """Everything about one game, finished or not, with its full entry history,
        checked against its checksum chain (a mismatch is a damaged JournalError)."""
        with self._transaction("BEGIN") as db:  # one snapshot for the game and its entries
            if db.execute("SELECT id FROM games WHERE id = ?", (game_id,)).fetchone() or \
                    not self.archive_path.exists():
                return self._load(db, game_id)
        try:
            archive = sqlite3.connect(f"file:{self.archive_path}?mode=ro", uri=True, timeout=5)
            try:
                return self._load(archive, game_id)
            finally:
                archive.close()
        except (sqlite3.Error, ValueError, TypeError) as exc:
            raise JournalError(f"journal archive {self.archive_path} is not readable: {exc}"
                               ) from exc

    def _load(self, db: sqlite3.Connection, game_id: int) -> GameRecord:
        row = db.execute(f"SELECT {_SUMMARY}, seed, options, setup, meta, head FROM games"
                         " WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"journal {self.path} has no game {game_id}")
        rows = db.execute("SELECT seq, kind, action, at, chain FROM entries WHERE game_id = ?"
                          " ORDER BY seq", (game_id,)).fetchall()
        root = _root((row[0], row[1], row[9], row[10], row[11], row[12], row[2]))
        if _verified(root, rows) != len(rows) or (rows[-1][4] if rows else root) != row[13] \
                or [seq for seq, *_ in rows] != list(range(1, len(rows) + 1)):
            raise JournalError(f"journal {self.path}: game #{game_id} does not match its "
                               "checksums", True)
        entries = [Entry(seq, kind, None if action is None else json.loads(action), at)
                   for seq, kind, action, at, _ in rows]
        if any(e.action is not None and not isinstance(e.action, dict) for e in entries):
            raise JournalError(f"journal {self.path}: game #{game_id} has a malformed entry",
                               True)
        options, setup, meta = (None if text is None else json.loads(text)
                                for text in row[10:13])
        record = GameRecord(*row[:10], options, setup, meta, entries)
        if record.inputs != len(Journal.effective_inputs(entries)):
            raise JournalError(f"journal {self.path}: game #{game_id} counts "
                               f"{record.inputs} inputs but holds a different number", True)
        return record

    def games(self, limit: int | None = None) -> list[GameSummary]:
        """All games, newest first (by creation order, which no clock jump can reorder)."""
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        with self._transaction("BEGIN") as db:
            rows = db.execute(f"SELECT {_SUMMARY} FROM games ORDER BY id DESC LIMIT ?",
                              (-1 if limit is None else limit,)).fetchall()
        if limit is None or len(rows) < limit:
            here = {row[0] for row in rows}
            rows += [row for row in self._archived(
                f"SELECT {_SUMMARY} FROM games ORDER BY id DESC LIMIT ?",
                (-1 if limit is None else limit,)) if row[0] not in here]
            rows = sorted(rows, key=lambda row: -row[0])[:limit]
        return [GameSummary(*row) for row in rows]

    def verify(self) -> list[str]:
        """Every game checked against its checksum chain (for ``doctor``): the problems."""
        problems = []
        for summary in self.games():
            try:
                self.load(summary.id)
            except JournalError as exc:
                problems.append(str(exc).removeprefix(f"journal {self.path}: "))
        return problems

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


def _verified(root: int, rows: Iterable[tuple]) -> int:
    """How many of a game's entry rows (seq, kind, action, at, chain), from the first,
    carry the chain hash they should."""
    count, previous = 0, root
    for seq, kind, action, at, chain in rows:
        if seq != count + 1 or _link(previous, seq, kind, action, at) != chain:
            break
        count, previous = count + 1, chain
    return count


def _has_our_tables(db: sqlite3.Connection) -> bool:
    """Whether the file has the tables every version of the journal has had."""
    try:
        names = {row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return True  # unreadable: damage, which the callers' own checks tell
    return {"games", "entries"} <= names


def _our_schema(db: sqlite3.Connection) -> bool:
    """Whether the file holds exactly this version's schema."""
    ours = sorted(" ".join(t.split()) for t in _SCHEMA.split(";") if t.strip())
    try:
        theirs = sorted(" ".join(row[0].split()) for row in db.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"))
    except (sqlite3.Error, AttributeError):
        return False
    return theirs == ours


def _upgrade_from_1(db: sqlite3.Connection) -> None:
    """Schema 1 had no checksum chain: add it, trusting the rows as they are now."""
    db.execute("ALTER TABLE games ADD COLUMN head INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE entries ADD COLUMN chain INTEGER NOT NULL DEFAULT 0")
    for root_row in db.execute(f"SELECT {_ROOT} FROM games").fetchall():
        previous = _root(root_row)
        for seq, kind, action, at in db.execute(
                "SELECT seq, kind, action, at FROM entries WHERE game_id = ? ORDER BY seq",
                (root_row[0],)).fetchall():
            previous = _link(previous, seq, kind, action, at)
            db.execute("UPDATE entries SET chain = ? WHERE game_id = ? AND seq = ?",
                       (previous, root_row[0], seq))
        db.execute("UPDATE games SET head = ? WHERE id = ?", (previous, root_row[0]))
