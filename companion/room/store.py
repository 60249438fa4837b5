"""The room's finished games, on disk: one small JSON file per record.

A record is kept once per ``(room, table, game_id)`` (QoS 1 may bring it twice), as
``<table>.<game_id>.json`` in the room's folder (a table name has no dot, so the name
is the key). One file each, written durably (a temporary file, fsync, rename, fsync of
the folder) before the store says it has it, so the room acknowledges a record to the
broker only once it is on disk: a write that fails raises :class:`Unsaved`, the record
stays the broker's, and :meth:`Store.status` says why for the page. A damaged file costs
that game only: it is named in a clear log line and skipped, the others load, and the
same record arriving again replaces it.

At most :data:`MAX_RECORDS` are in the report (a day of a convention); past it the
oldest received is moved to the folder's :data:`ARCHIVE` folder, never deleted, and the
report says how many are there. In memory the store keeps each record's digest only
(what the report reads), never its scenario.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)

MAX_RECORDS = 20_000  # in the report: a day of 1,000 tables is about 16,000 games
ARCHIVE = "archive"  # the records past MAX_RECORDS, oldest first, out of the report
LOG_EVERY = 10.0  # seconds between log lines about records that cannot be saved


class Unsaved(Exception):
    """A record the store could not write; ``str()`` says why (the OS's words)."""


def digest(record: dict[str, Any], received: float) -> dict[str, Any]:
    """What the report needs of a record: its game, result, set-up, detections."""
    from ..games.common import ui_for

    scenario = record.get("scenario") or {}
    story = record.get("story") or {}
    options = scenario.get("options") if isinstance(scenario.get("options"), dict) else {}
    steps = [step.key for step in ui_for(record["game"]).SETUP_STEPS]
    detections = story.get("detections") if isinstance(story.get("detections"), dict) else {}
    turns = story.get("turns")
    return {
        "table": record["table"], "game_id": record["game_id"], "game": record["game"],
        "status": record["status"], "received": received,
        "setup": {k: options[k] for k in steps if isinstance(options.get(k), (int, str))
                  and not isinstance(options.get(k), bool)},
        "detections": {str(k)[:40]: v for k, v in list(detections.items())[:16]
                       if isinstance(v, int) and not isinstance(v, bool) and 0 < v < 10 ** 6},
        "lost_to": story.get("lost_to") if isinstance(story.get("lost_to"), str) else None,
        "turns": turns if isinstance(turns, int) and not isinstance(turns, bool) else None,
    }


class Store:
    """The records of one room, in ``folder`` (made 0700: games are the room's)."""

    def __init__(self, folder: Path, wall: Callable[[], float] = time.time,
                 clock: Callable[[], float] = time.monotonic):
        self.folder = folder
        self.archive = folder / ARCHIVE
        self.wall, self.clock = wall, clock
        self._lock = threading.Lock()
        # Oldest received first (dicts keep their order), so the oldest is the first.
        self._digests: dict[tuple[str, int], dict[str, Any]] = {}
        self.damaged: list[str] = []  # files that could not be read, named in the log
        self.archived = 0  # records moved to the archive folder
        self.version = 0  # counts the records added: the page's report is built again
        self.failure: str | None = None  # why the latest write failed; None: it did not
        self._unsaved: set[tuple[str, int]] = set()  # records the broker still holds
        self._log_at = 0.0
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._load()

    @staticmethod
    def _name(table: str, game_id: int) -> str:
        return f"{table}.{game_id}.json"

    def _load(self) -> None:
        found = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                record, received = data["record"], float(data["received"])
                if self._name(record["table"], record["game_id"]) != path.name:
                    raise ValueError("its name is not its table and game")
                found.append(digest(record, received))
            except (OSError, ValueError, KeyError, TypeError, AttributeError,
                    RecursionError) as exc:
                self.damaged.append(path.name)
                log.error("room: the record %s cannot be read (%s); it is left out of the "
                          "report, every other record is kept", path, exc)
        found.sort(key=lambda d: (d["received"], d["table"], d["game_id"]))
        self._digests = {(d["table"], d["game_id"]): d for d in found}
        try:
            with os.scandir(self.archive) as entries:
                self.archived = sum(1 for e in entries if e.name.endswith(".json"))
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.error("room: the archive %s cannot be read (%s)", self.archive, exc)
        self._archive_past_bound()

    def _write(self, path: Path, data: Any) -> None:
        """``data`` as JSON in ``path``, durably: on disk (the folder's entry too) when
        this returns; an OSError leaves no partial file under ``path``."""
        tmp = path.with_suffix(".tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, ensure_ascii=False)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                tmp.unlink(missing_ok=True)  # a full disk gets its space back
            except OSError:
                pass
            raise
        folder = os.open(self.folder, os.O_RDONLY)
        try:
            os.fsync(folder)  # the rename itself survives a power cut
        finally:
            os.close(folder)

    def add(self, record: dict[str, Any]) -> bool:
        """Keep a checked record; False if the room has it already (in the report or
        the archive). Raises :class:`Unsaved` if it cannot be written: then the store
        does not have it, and the same record arriving again is tried again."""
        key = (record["table"], record["game_id"])
        name = self._name(*key)
        with self._lock:
            if key in self._digests or (self.archive / name).exists():
                self._unsaved.discard(key)
                return False
            received = self.wall()
            try:
                self._write(self.folder / name, {"received": received, "record": record})
            except OSError as exc:
                self._unsaved.add(key)
                raise Unsaved(self._failed(exc)) from exc
            self._unsaved.discard(key)
            self._saved()
            self._digests[key] = digest(record, received)
            self.version += 1
            if name in self.damaged:
                self.damaged.remove(name)
            self._archive_past_bound()
        return True

    def _archive_past_bound(self) -> None:
        while len(self._digests) > MAX_RECORDS:
            oldest = next(iter(self._digests))
            name = self._name(*oldest)
            try:
                self.archive.mkdir(mode=0o700, exist_ok=True)
                os.replace(self.folder / name, self.archive / name)
            except FileNotFoundError:
                pass  # gone already: nothing to keep
            except OSError as exc:  # kept where it is, in the report: over the bound
                log.error("room: the record %s cannot be moved to %s (%s); it stays in the "
                          "report", name, self.archive, exc)
                return
            else:
                self.archived += 1
            del self._digests[oldest]

    def _failed(self, exc: OSError, quiet: bool = False) -> str:
        why = exc.strerror or str(exc) or type(exc).__name__
        now = self.clock()
        if why != self.failure or (now >= self._log_at and not quiet):
            log.error("room: records cannot be saved in %s: %s; they stay unacknowledged "
                      "in the broker (%d so far) and are saved when the disk takes them "
                      "again", self.folder, why, len(self._unsaved))
            self._log_at = now + LOG_EVERY
        self.failure = why
        return why

    def _saved(self) -> None:
        if self.failure is not None:
            log.warning("room: records are saved again in %s", self.folder)
            self.failure = None

    def writable(self) -> bool:
        """Whether a record could be saved now: a small file written as a record is
        (then removed). Clears :attr:`failure` when it can."""
        probe = self.folder / "probe.check"
        with self._lock:
            try:
                self._write(probe, {"probe": True})
                probe.unlink()
            except OSError as exc:
                self._failed(exc, quiet=True)  # the same failure, still: said already
                return False
            self._saved()
            return True

    def status(self) -> dict[str, Any]:
        """What the page says of the store: records the broker holds because they could
        not be saved (and why), and records moved to the archive."""
        with self._lock:
            return {"unsaved": len(self._unsaved), "why": self.failure,
                    "archived": self.archived}

    def forget_unsaved(self) -> int:
        """The broker lost the room's session (and the records it held): how many."""
        with self._lock:
            lost, self._unsaved = len(self._unsaved), set()
            return lost

    def load(self, table: str, game_id: int) -> dict[str, Any] | None:
        """A whole record (for its analysis), or None if it is gone or damaged."""
        try:
            text = (self.folder / self._name(table, game_id)).read_text(encoding="utf-8")
            return json.loads(text)["record"]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def digests(self) -> list[dict[str, Any]]:
        """Every record's digest (not the archived), oldest received first."""
        with self._lock:
            return sorted(self._digests.values(), key=lambda d: (d["received"], d["table"],
                                                                  d["game_id"]))

    def __len__(self) -> int:
        with self._lock:
            return len(self._digests)
