"""The room's finished games, on disk: one small JSON file per record.

A record is kept once per ``(room, table, game_id)`` (QoS 1 may bring it twice), as
``<table>.<game_id>.json`` in the room's folder (a table name has no dot, so the name
is the key). One file each, written atomically (a temporary file, fsync, rename), so
a damaged file costs that game only: it is named in a clear log line and skipped,
the others load, and the same record arriving again replaces it. At most
:data:`MAX_RECORDS` are kept; past it the oldest received goes. In memory the store
keeps each record's digest only (what the report reads), never its scenario.
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

MAX_RECORDS = 2000  # a term of club nights; each file is a few KB


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

    def __init__(self, folder: Path, wall: Callable[[], float] = time.time):
        self.folder = folder
        self.wall = wall
        self._lock = threading.Lock()
        self._digests: dict[tuple[str, int], dict[str, Any]] = {}
        self.damaged: list[str] = []  # files that could not be read, named in the log
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._load()

    @staticmethod
    def _name(table: str, game_id: int) -> str:
        return f"{table}.{game_id}.json"

    def _load(self) -> None:
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                record, received = data["record"], float(data["received"])
                if self._name(record["table"], record["game_id"]) != path.name:
                    raise ValueError("its name is not its table and game")
                self._digests[(record["table"], record["game_id"])] = digest(record, received)
            except (OSError, ValueError, KeyError, TypeError, AttributeError,
                    RecursionError) as exc:
                self.damaged.append(path.name)
                log.error("room: the record %s cannot be read (%s); it is left out of the "
                          "report, every other record is kept", path, exc)

    def add(self, record: dict[str, Any]) -> bool:
        """Keep a checked record; False if the room has it already."""
        key = (record["table"], record["game_id"])
        with self._lock:
            if key in self._digests:
                return False
            received = self.wall()
            path = self.folder / self._name(*key)
            tmp = path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"received": received, "record": record}, f, ensure_ascii=False)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            self._digests[key] = digest(record, received)
            if path.name in self.damaged:
                self.damaged.remove(path.name)
            while len(self._digests) > MAX_RECORDS:
                oldest = min(self._digests, key=lambda k: self._digests[k]["received"])
                del self._digests[oldest]
                (self.folder / self._name(*oldest)).unlink(missing_ok=True)
        return True

    def load(self, table: str, game_id: int) -> dict[str, Any] | None:
        """A whole record (for its analysis), or None if it is gone or damaged."""
        try:
            text = (self.folder / self._name(table, game_id)).read_text(encoding="utf-8")
            return json.loads(text)["record"]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def digests(self) -> list[dict[str, Any]]:
        """Every record's digest, oldest received first."""
        with self._lock:
            return sorted(self._digests.values(), key=lambda d: (d["received"], d["table"],
                                                                  d["game_id"]))

    def __len__(self) -> int:
        with self._lock:
            return len(self._digests)
