"""Salvage: a damaged journal kept aside, and a new one holding everything that still
reads back consistently (docs/journal.md, "Salvage").

This reads the damaged file below SQLite's usual guarantees (a copy, with the schema
text put back, by table scan and by index) and decides, entry by entry, what the
checksum chain of :mod:`.store` vouches for; the engines, which it does not know,
come in through ``replays``.  The swap is atomic and a kill at any step is finished at
the next start.
"""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..statelock import open_nofollow
from .store import (
    _COLUMNS, _ENTRY, _SCHEMA, STATUSES, Entry, Journal, JournalError, _link, _root,
)

# replays(game, seed, options, setup, inputs): falsy if the engine refuses the inputs;
# else True, or (status, turns, reason) of the game they make, which salvage then uses.
Replays = Callable[[str, int, dict[str, Any], "dict[str, Any] | None", list[dict[str, Any]]],
                   Any]


@dataclass
class SalvageReport:
    """What a salvage kept and lost: ``str()`` is the line for the log, ``alert()`` the
    lines for the OLED (21 characters at most each)."""

    kept_as: str  # the damaged file's new name, beside the journal
    games: int  # games in the new journal
    notes: list[str]  # one per game that lost something
    losses: int  # how many games lost something (all of them, or entries)

    def __str__(self) -> str:
        lost = f"; {', '.join(self.notes)}" if self.notes else ""
        return (f"journal was damaged; it is kept as {self.kept_as} and a new journal "
                f"holds the {self.games} game(s) that still read back{lost}")

    def to_json(self) -> str:
        return json.dumps(self.__dict__)

    @classmethod
    def from_json(cls, text: str) -> SalvageReport:
        data = json.loads(text)
        return cls(str(data["kept_as"]), int(data["games"]), [str(n) for n in data["notes"]],
                   int(data["losses"]))


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _read(name: str | Path) -> bytes:
    with os.fdopen(open_nofollow(name, os.O_RDONLY), "rb") as fh:
        return fh.read()


def _write(name: str | Path, data: bytes, sync: bool = False) -> None:
    """Write a new file (never through a symbolic link planted in its place)."""
    fd = open_nofollow(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        if sync:
            fh.flush()
            os.fsync(fh.fileno())


def _unlink(*paths: str | Path) -> None:
    for name in paths:
        try:
            os.unlink(name)
        except FileNotFoundError:
            pass


_SIDE = ("", "-wal", "-shm", ".mark")  # the journal's files, moved aside together


def salvage(path: str | os.PathLike[str], replays: Replays | None = None,
            now: Callable[[], float] = time.time) -> tuple[Journal, SalvageReport]:
    """Recover from a damaged journal (:attr:`JournalError.damaged`): keep it aside and
    put in its place a new one holding everything that still reads back consistently.

    Atomic: the new journal is built beside the damaged one (``<name>.salvage-tmp``),
    renamed ``<name>.salvage-new`` only once complete, and only then swapped in; the
    damaged file (with its -wal, -shm and mark) becomes ``<name>.damaged-<n>``, never
    written again.  A salvage cut short by a kill is started again (the damaged journal
    is still in place) or finished (:func:`finish_salvage`) at the next start.

    Of each game it keeps the longest run of entries 1, 2, 3... that reads, parses and
    matches the checksum chain, and ``replays`` (the engines, which this module does
    not know) trims it further to the longest run the engine accepts.  A complete game's
    result and turn count come from replaying it; a game cut short stays as it was
    recorded (a finished one is not reopened), and an unfinished one resumes where it
    now ends.  Raises JournalError if even that fails.
    """
    path = Path(path)
    if Path(f"{path}.salvage-new").exists():  # an earlier salvage was cut short: finish it
        finished = finish_salvage(path)
        if finished is not None:
            return Journal(path, now), finished
    n = 1
    while any(Path(f"{path}.damaged-{n}{s}").exists() for s in _SIDE):
        n += 1
    work, tmp = Path(f"{path}.salvage"), Path(f"{path}.salvage-tmp")
    _unlink(*(f"{f}{s}" for f in (work, tmp) for s in _SIDE))
    try:
        for suffix in ("", "-wal"):  # read a copy: opening may rewrite the WAL
            if Path(f"{path}{suffix}").exists():
                _write(f"{work}{suffix}", _read(f"{path}{suffix}"))
        games, notes = _readable_games(work, replays)
        with Journal(tmp, now) as journal:
            with journal._transaction() as db:
                for row, entries in games:
                    db.execute(f"INSERT INTO games ({_COLUMNS}) VALUES "
                               f"({', '.join('?' * len(row))})", row)
                    db.executemany("INSERT INTO entries (game_id, seq, kind, action, at, chain)"
                                   " VALUES (?, ?, ?, ?, ?, ?)", entries)
        _unlink(f"{tmp}.mark")  # the new journal starts without one: nothing to compare
        report = SalvageReport(f"{path.name}.damaged-{n}", len(games), notes,
                               sum(1 for note in notes if "lost" in note or "kept" in note))
        _write(f"{path}.salvage-report", report.to_json().encode(), sync=True)
        fd = open_nofollow(tmp, os.O_RDWR)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, f"{path}.salvage-new")  # complete: from here on it is finished
        _fsync_dir(path.parent)
        done = finish_salvage(path)
    except (OSError, sqlite3.Error, JournalError) as exc:
        _unlink(*(f"{tmp}{s}" for s in _SIDE))
        raise JournalError(f"journal {path} is damaged and cannot be salvaged: {exc}") from exc
    finally:
        _unlink(*(f"{work}{s}" for s in _SIDE))
    return Journal(path, now), done or report


def finish_salvage(path: str | os.PathLike[str]) -> SalvageReport | None:
    """Swap in a complete salvaged journal left by an interrupted salvage (and drop an
    incomplete one); returns the report of a salvage the table has not been told about
    yet, or None."""
    path = Path(path)
    tmp, new, report_file = (Path(f"{path}.salvage{s}") for s in ("-tmp", "-new", "-report"))
    _unlink(*(f"{tmp}{s}" for s in _SIDE))  # a half-built one: the damaged file is in place
    try:
        report = SalvageReport.from_json(_read(report_file).decode())
    except (OSError, ValueError, KeyError, TypeError):
        report = None
    if not new.exists():
        # Swapped in, but the table was not told yet (see salvage_told): still news.
        if report is not None and (path.parent / report.kept_as).exists():
            return report
        _unlink(report_file)
        return None
    if report is None:
        report = SalvageReport(f"{path.name}.damaged-0", 0, ["the salvage report was lost"], 1)
    kept = path.parent / report.kept_as
    for suffix in _SIDE:  # the damaged journal goes aside, then the new one takes its place
        if Path(f"{path}{suffix}").exists():
            os.replace(f"{path}{suffix}", f"{kept}{suffix}")
    os.replace(new, path)
    _fsync_dir(path.parent)
    return report


def salvage_told(path: str | os.PathLike[str]) -> None:
    """The table has the salvage's alert: the next start need not repeat it.  Until
    this is called (a kill between the salvage and the OLED), each start repeats it."""
    _unlink(f"{path}.salvage-report")


def _readable_games(path: Path, replays: Replays | None
                    ) -> tuple[list[tuple[tuple, list[tuple]]], list[str]]:
    """(game row, entries) for every game of the damaged copy at ``path`` that reads."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        try:
            # Only SELECTs follow. writable_schema also makes SQLite read a file shorter
            # than its header says (a lost tail) instead of refusing it outright.
            db.execute("PRAGMA writable_schema=ON")
            chained = db.execute("PRAGMA user_version").fetchone()[0] >= 2
            if chained:
                _restore_schema(db)
            ids = _ids(db)
        except sqlite3.Error:
            ids = None
        if ids is None:
            return [], ["nothing in it was readable"]
        columns = _COLUMNS if chained else _COLUMNS.replace(", head", ", 0")
        entry = _ENTRY if chained else _ENTRY.replace(", chain", ", 0")
        notes: list[str] = []
        scanned: dict[int, dict[int, tuple]] | None = None  # the table, read without index
        games = []
        for game_id in ids:
            try:
                row = list(db.execute(f"SELECT {columns} FROM games WHERE id = ?",
                                      (game_id,)).fetchone())
                options = json.loads(row[7])
                setup = None if row[8] is None else json.loads(row[8])
                if row[9] is not None:
                    json.loads(row[9])
                if row[5] not in STATUSES:
                    raise ValueError(row[5])
            except (sqlite3.Error, TypeError, ValueError):
                notes.append(f"game #{game_id} lost")
                continue
            # Two ways to the rows: the table itself and the primary-key index. A broken
            # page can make either fail, or quietly yield less or other rows: each entry
            # is taken from whichever gives one that fits the checksum chain.
            if scanned is None:
                scanned = _scan(db, entry)
            root = _root((row[0], row[1], row[6], row[7], row[8], row[9], row[2]))
            candidates = {seq: [r] for seq, r in scanned.get(game_id, {}).items()}
            intact = chained and _intact(root, candidates, row[14])
            if not intact:
                try:
                    index = db.execute(entry + " WHERE game_id = ? ORDER BY seq",
                                       (game_id,)).fetchall()
                except sqlite3.Error:
                    index = list(_one_by_one(db, entry, game_id).values())
                for r in index:
                    if type(r[1]) is int and r not in candidates.setdefault(r[1], []):
                        candidates[r[1]].append(r)
                # A damaged index can hand back another game's row: each is this game's.
                candidates = {seq: [(game_id, *r[1:]) for r in rows]
                              for seq, rows in candidates.items() if type(seq) is int}
            if intact:
                entries, whole = [rows[0] for _, rows in sorted(candidates.items())], True
            elif chained:
                entries, repairs, whole = _follow(root, candidates, row[14])
                notes += [f"game #{game_id} entry {repair}" for repair in repairs]
            else:  # a schema-1 file has no chain: build it over what reads
                entries = _rechain(root, _prefix([rows[0] for _, rows in
                                                  sorted(candidates.items())]))
                whole = len(entries) == len(candidates)
            outcome: Any = True
            if replays is not None and (not intact or row[5] == "playing"):
                # A finished game whose every entry verifies is what was played and
                # replayed then: only a game to resume (or a repaired one) is replayed.
                good, outcome = _replayable(entries, lambda inputs: replays(
                    row[1], row[6], options, setup, inputs))
                whole = whole and good == len(entries)
                entries = entries[:good]
            row[12] = _count_effective(entries)  # inputs
            row[14] = entries[-1][5] if entries else root  # head
            if whole and isinstance(outcome, tuple) and row[5] != "abandoned":
                status, turns, reason = outcome  # recomputed, whatever the row said
                if status != row[5]:
                    notes.append(f"game #{game_id} is {status} on replay (was {row[5]})")
                row[5], row[10], row[11] = status, int(turns), reason
                row[4] = None if status == "playing" else (row[4] or row[3])
            elif not whole:
                notes.append(f"game #{game_id} kept up to entry {len(entries)}" + (
                    f" of {len(candidates)}" if len(candidates) > len(entries) else
                    " (what followed did not read back)"))
                if row[5] == "playing" and isinstance(outcome, tuple):
                    row[10] = int(outcome[1])
            games.append((tuple(row), entries))
        return games, notes
    finally:
        db.close()


def _restore_schema(db: sqlite3.Connection) -> None:
    """Put back the schema text of a damaged copy: it is known, and one garbled byte in
    it would otherwise make every row unreadable."""
    try:
        for statement, name in zip(filter(str.strip, _SCHEMA.split(";")),
                                   ("games", "entries", "games_status")):
            db.execute("UPDATE sqlite_master SET sql = ? WHERE name = ? AND sql IS NOT ?",
                       (statement.strip(), name, statement.strip()))
        db.execute("PRAGMA writable_schema=RESET")  # reload it
        db.execute("PRAGMA writable_schema=ON")
    except sqlite3.Error:
        pass  # unreadable as it is: the readers below get what they can


def _ids(db: sqlite3.Connection) -> list[int] | None:
    """Game ids from the table, or failing that from its index."""
    for query in ("SELECT id FROM games ORDER BY id",
                  "SELECT id FROM games INDEXED BY games_status ORDER BY id"):
        try:
            return [row[0] for row in db.execute(query)]
        except sqlite3.Error:
            pass
    return None


def _scan(db: sqlite3.Connection, entry: str) -> dict[int, dict[int, tuple]]:
    """Every entry row the table itself yields, up to its first broken page."""
    found: dict[int, dict[int, tuple]] = {}
    try:
        for row in db.execute(entry + " NOT INDEXED"):
            found.setdefault(row[0], {})[row[1]] = row
    except sqlite3.Error:
        pass
    return found


def _one_by_one(db: sqlite3.Connection, entry: str, game_id: int) -> dict[int, tuple]:
    """Entries 1, 2, 3... of a game through the primary key, up to the first failure."""
    found: dict[int, tuple] = {}
    while True:
        try:
            row = db.execute(entry + " WHERE game_id = ? AND seq = ?",
                             (game_id, len(found) + 1)).fetchone()
        except sqlite3.Error:
            return found
        if row is None:
            return found
        found[row[1]] = row


def _wellformed(row: tuple) -> bool:
    _, _seq, kind, action, at, _chain = row
    if kind not in ("input", "undo") or (kind == "input") != (action is not None) or \
            not isinstance(at, float):
        return False
    try:
        return action is None or (isinstance(action, str) and
                                  isinstance(json.loads(action), dict))
    except ValueError:
        return False


def _prefix(rows: list[tuple]) -> list[tuple]:
    """The longest run of well-formed entries 1, 2, 3..."""
    good: list[tuple] = []
    for row in rows:
        if row[1] != len(good) + 1 or not _wellformed(row):
            return good
        good.append(row)
    return good


def _intact(root: int, candidates: dict[int, list[tuple]], head: int) -> bool:
    """Whether one row per entry 1..n, as read, makes the whole chain up to ``head``
    (then each is as committed, and this program commits only well-formed entries)."""
    previous = root
    for count, seq in enumerate(sorted(candidates), 1):
        rows = candidates[seq]
        if seq != count or len(rows) != 1 or _link(previous, *rows[0][1:5]) != rows[0][5]:
            return False
        previous = rows[0][5]
    return previous == head


def _follow(root: int, candidates: dict[int, list[tuple]], head: int
            ) -> tuple[list[tuple], list[str], bool]:
    """Entries 1, 2, 3... along the checksum chain, each from whichever of its candidate
    rows (the table's, the index's) links to the entry before it, rechained; what was
    repaired; and whether that is every entry, up to the game's head.

    One damaged entry between two good ones is repaired where their links allow: its
    checksum alone was damaged (its content links to the next entry), one bit of its
    content flipped (found by trying each), or, failing that, its content is kept as
    read when its checksum is confirmed by the next entry's link (or the game's head):
    then the entries around it are those committed, and the replay that follows checks
    it is a move the engine accepts.
    """
    entries: list[tuple] = []
    repairs: list[str] = []
    previous, seq = root, 1
    while seq in candidates:
        rows = [r for r in candidates[seq] if _wellformed(r)]
        after = candidates.get(seq + 1, [])

        def confirmed(chain: int) -> bool:  # the next link starts from ``chain``
            return any(_link(chain, *r[1:5]) == r[5] for r in after) or \
                (not after and chain == head)

        found = next((r for r in rows if _link(previous, *r[1:5]) == r[5]), None)
        if found is None:
            for r in rows:
                chain = _link(previous, *r[1:5])
                if confirmed(chain):
                    found = (*r[:5], chain)
                    repairs.append(f"{seq}: its checksum was repaired")
                    break
        if found is None:  # one flipped bit can leave text that does not parse, too
            for r in candidates[seq]:
                fixed = _unflip(previous, r)
                if fixed is not None:
                    found = fixed
                    repairs.append(f"{seq}: one flipped bit was repaired")
                    break
        if found is None:
            found = next((r for r in rows if confirmed(r[5])), None)
            if found is not None:
                repairs.append(f"{seq} did not match its checksum; taken as read (the "
                               "entries around it match)")
        if found is None:
            break
        entries.append(found)
        previous, seq = found[5], seq + 1  # the chain value the entry was committed with
    whole = len(entries) == len(candidates) and previous == head
    return _rechain(root, entries), repairs, whole


def _unflip(previous: int, row: tuple) -> tuple | None:
    """``row`` with the one flipped bit of its time or action that makes it link to
    ``previous`` put back, or None."""
    game_id, seq, kind, action, at, chain = row
    if not isinstance(at, float) or not isinstance(action, (str, type(None))):
        return None  # not a flipped bit: a different type altogether
    raw = struct.pack(">d", at)
    for i in range(64):
        bits = bytearray(raw)
        bits[i // 8] ^= 1 << (i % 8)
        (value,) = struct.unpack(">d", bytes(bits))
        if _link(previous, seq, kind, action, value) == chain:
            return (game_id, seq, kind, action, value, chain)
    data = (action or "").encode()
    for i in range(len(data) * 8):
        bits = bytearray(data)
        bits[i // 8] ^= 1 << (i % 8)
        try:
            text = bits.decode()
        except UnicodeDecodeError:
            continue
        candidate = (game_id, seq, kind, text, at, chain)
        if _link(previous, seq, kind, text, at) == chain and _wellformed(candidate):
            return candidate
    return None


def _rechain(root: int, rows: list[tuple]) -> list[tuple]:
    out, previous = [], root
    for game_id, seq, kind, action, at, _ in rows:
        previous = _link(previous, seq, kind, action, at)
        out.append((game_id, seq, kind, action, at, previous))
    return out


def _count_effective(entries: list[tuple]) -> int:
    """len(_effective(entries)), without decoding a single action."""
    count = 0
    for entry in entries:
        count = count + 1 if entry[2] == "input" else max(count - 1, 0)
    return count


def _effective(entries: list[tuple]) -> list[dict[str, Any]]:
    return Journal.effective_inputs(
        Entry(seq, kind, None if action is None else json.loads(action), at)
        for _, seq, kind, action, at, _chain in entries)


def _replayable(entries: list[tuple], replays: Callable[[list[dict[str, Any]]], Any]
                ) -> tuple[int, Any]:
    """How many of ``entries`` (from the first) the engine replays: all of them, or the
    longest prefix that works (binary search, then a check); and what ``replays`` said
    of that prefix."""
    said: dict[int, Any] = {}

    def ok(count: int) -> bool:
        try:
            said[count] = replays(_effective(entries[:count]))
        except Exception:  # noqa: BLE001 - a replay that raises is a replay that fails
            said[count] = None
        return bool(said[count])

    if ok(len(entries)):
        return len(entries), said[len(entries)]
    low, high = 0, len(entries)  # ok(low) is assumed, ok(high) is False
    while high - low > 1:
        middle = (low + high) // 2
        if ok(middle):
            low = middle
        else:
            high = middle
    while low > 0 and not ok(low):  # an undo can make failure non-monotone: be sure
        low -= 1
    if low not in said:
        ok(low)
    return low, said[low]
