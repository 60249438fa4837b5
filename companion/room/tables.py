"""Every table of the room as the room sees it, from the tables' MQTT messages.

Each message on ``companion/<room>/<table>/<leaf>`` is checked before anything is kept:
a table name that is not one topic level of letters, digits, ``-`` and ``_``, an unknown
leaf, a payload over its size, not JSON, nested too deep or of the wrong types is
:class:`Refused` with the reason (the caller logs it, rate-limited). Nothing the
broker sends is kept whole: a ``state`` is boiled down to the few fields the room's
page shows (:func:`summary`, a few hundred bytes whatever the box sent), so memory is
bounded by :data:`MAX_TABLES` tables of a small summary each; a table past that bound
is refused until one is forgotten (an offline table, oldest first, makes room).

Records (``record``) are checked here and handed to the store (:mod:`.store`).
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")  # as the box's config allows a room or table
LEAVES = ("state", "availability", "record", "info")
MAX_TABLES = 1000  # tables kept; each costs a summary of well under 4 KB
MAX_BYTES = {"state": 256 * 1024, "record": 512 * 1024, "availability": 16, "info": 1024}
STALE_AFTER = 15 * 60.0  # seconds without a word from an online table: shown as quiet
STATUSES = ("playing", "won", "lost", "setup", "abandoned")
MODES = ("menu", "setup", "game", "settings")


class Refused(ValueError):
    """A message the room does not take; ``str()`` says why, in one line."""


def loads(payload: bytes, leaf: str) -> Any:
    """The JSON of a message, or :class:`Refused` (too big, not UTF-8 JSON, too deep)."""
    if len(payload) > MAX_BYTES[leaf]:
        raise Refused(f"{leaf}: {len(payload)} bytes (at most {MAX_BYTES[leaf]})")
    try:  # a payload nested too deep is a RecursionError of the parser's, not a crash
        return json.loads(payload.decode("utf-8"))
    except RecursionError:
        raise Refused(f"{leaf}: nested too deep") from None
    except (UnicodeDecodeError, ValueError):
        raise Refused(f"{leaf}: not JSON") from None


def _int(value: Any, low: int = 0, high: int = 10 ** 9) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) \
        and low <= value <= high else None


def _word(value: Any, most: int = 40) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= most \
        and value.isprintable() else None


def _ints(value: Any, most: int = 8) -> list[int] | None:
    if not isinstance(value, list) or len(value) > most:
        return None
    out = [_int(v, 0, 10 ** 6) for v in value]
    return None if None in out else out  # type: ignore[return-value]


def summary(snap: Any) -> dict[str, Any]:
    """What the room shows of a table's public snapshot, each field checked and
    bounded; a field of the wrong type is left out (the table shows less, never
    crashes the room)."""
    if not isinstance(snap, dict):
        raise Refused("state: not a JSON object")
    from ..games.common import GAMES

    mode = snap.get("mode")
    out: dict[str, Any] = {"mode": mode if mode in MODES else None,
                           "game_id": _int(snap.get("game_id"), 1)}
    game = snap.get("game")
    if game not in GAMES:
        return out
    out["game"] = game
    status = snap.get("status")
    out["status"] = status if status in STATUSES else None
    turn = snap.get("turn") if isinstance(snap.get("turn"), dict) else {}
    player = turn.get("player")
    out["turn"] = {"player": _word(player) if not isinstance(player, int) else _int(player, 0, 9),
                   "number": _int(turn.get("number"))}
    winners = snap.get("winners")
    if isinstance(winners, list) and len(winners) <= 8:
        out["winners"] = [w for w in winners if _int(w, 0, 9) is not None or _word(w)]
    if game == "entanglion":
        out.update(_entanglion(snap))
    elif game == "qno":
        top = snap.get("top") if isinstance(snap.get("top"), dict) else {}
        out["counts"] = _ints(snap.get("counts"))
        out["top"] = _word(top.get("card"))
    else:
        out["costs"] = _ints(snap.get("costs"))
        out["hand_sizes"] = _ints(snap.get("hand_sizes"))
        out["deck_size"] = _int(snap.get("deck_size"), 0, 1000)
    return out


def _entanglion(snap: dict[str, Any]) -> dict[str, Any]:
    from ..games.entanglion.board import PLANETS, SHIPS
    from ..games.entanglion.cards import COMPONENTS

    ships = snap.get("ships") if isinstance(snap.get("ships"), dict) else {}
    comps = snap.get("components") if isinstance(snap.get("components"), dict) else {}
    planets = comps.get("planets") if isinstance(comps.get("planets"), dict) else {}
    detection = snap.get("detection") if isinstance(snap.get("detection"), dict) else {}
    aboard = sum(len(comps[s]) for s in SHIPS
                 if isinstance(comps.get(s), list) and len(comps[s]) <= 8)
    return {
        "ships": {s: ships[s] for s in SHIPS if ships.get(s) in PLANETS},
        # Names the game has only: the board drawing puts them in the page's markup.
        "planets": {p: c for p, c in planets.items() if p in PLANETS and c in COMPONENTS},
        "detection": _int(detection.get("space"), 0, 20),
        "aboard": min(aboard, 8),
    }


@dataclass
class Table:
    name: str
    state: dict[str, Any] | None = None  # the summary of its latest snapshot
    online: bool | None = None  # None: no availability heard
    web: str | None = None  # its page's address, from its ``info``
    heard: float = 0.0  # when the room last heard from it (``clock``)
    game_key: Any = None  # (game id) the ``since`` below is for
    since: float | None = None  # when the room first saw the game in play (wall clock)
    since_exact: bool = False  # False: the room came in mid-game (the game is older)
    version: int = 0

    def view(self, now: float, wall: float) -> dict[str, Any]:
        """The table as the page gets it (without its board: see the server)."""
        state = self.state or {}
        playing = state.get("mode") == "game" and state.get("status") == "playing"
        # Ages, not times: the page counts on from them with its own clock.
        return {"name": self.name, "online": self.online, "web": self.web,
                "heard_ago": round(now - self.heard), "state": state,
                "playing_for": round(wall - self.since) if playing and self.since else None,
                "playing_for_exact": self.since_exact}


class Tables:
    """The room's tables, fed by the MQTT thread, read by the page's server thread.

    ``on_record(record)`` stores a checked record and says whether it is new.
    ``listen(wake)`` registers a function called (on the MQTT thread) after a change.
    """

    def __init__(self, room: str, on_record: Callable[[dict[str, Any]], bool],
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time):
        self.room = room
        self.on_record = on_record
        self.clock, self.wall = clock, wall
        self._lock = threading.Lock()
        self._tables: dict[str, Table] = {}
        self.version = 0  # any change, tables or records
        self._listeners: list[Callable[[], None]] = []

    def listen(self, wake: Callable[[], None]) -> None:
        self._listeners.append(wake)

    def unlisten(self, wake: Callable[[], None]) -> None:
        if wake in self._listeners:
            self._listeners.remove(wake)

    def take(self, topic: str, payload: bytes, retained: bool = False) -> bool:
        """Take one message; True if it changed what the room shows. Raises Refused.
        The summary reads only the fields it knows, at their known depth: nothing of
        a payload is walked recursively."""
        parts = topic.split("/")
        if len(parts) != 4 or parts[0] != "companion" or parts[1] != self.room:
            raise Refused(f"not a table's topic: {topic[:80]!r}")
        name, leaf = parts[2], parts[3]
        if not NAME.match(name):
            raise Refused(f"a table name must be 1-64 letters, digits, - or _: {name[:40]!r}")
        if leaf not in LEAVES:
            raise Refused(f"{name}: unknown topic {leaf[:40]!r}")
        if leaf == "record":
            return self._record(name, payload)
        if leaf == "availability":
            if payload not in (b"online", b"offline", b""):
                raise Refused(f"{name}: availability is online or offline")
            change: dict[str, Any] = {"online": None if not payload else payload == b"online"}
        elif leaf == "info":
            change = {"web": _info(name, payload)}
        else:
            if not payload:  # a retained state cleared: the table is gone
                change = {"state": None}
            else:
                change = {"state": summary(loads(payload, "state"))}
        return self._change(name, change, retained)

    def _change(self, name: str, change: dict[str, Any], retained: bool) -> bool:
        with self._lock:
            table = self._tables.get(name)
            if table is None:
                if len(self._tables) >= MAX_TABLES and not self._forget_one():
                    raise Refused(f"{name}: the room holds {MAX_TABLES} tables already")
                table = self._tables[name] = Table(name)
            table.heard = self.clock()
            state = change.get("state", table.state)
            if "state" in change and state is not None:
                key = state.get("game_id") if state.get("mode") == "game" else None
                if key != table.game_key:
                    table.game_key = key
                    table.since = self.wall() if key is not None else None
                    table.since_exact = not retained
            if all(getattr(table, k) == v for k, v in change.items()):
                return False
            for k, v in change.items():
                setattr(table, k, v)
            self.version += 1
            table.version = self.version
        self._wake()
        return True

    def _forget_one(self) -> bool:
        """Make room for a new table: the offline one heard from longest ago."""
        gone = [t for t in self._tables.values() if t.online is False]
        if not gone:
            return False
        del self._tables[min(gone, key=lambda t: t.heard).name]
        return True

    def _record(self, name: str, payload: bytes) -> bool:
        record = check_record(loads(payload, "record"), self.room, name)
        if not self.on_record(record):
            return False
        with self._lock:
            self.version += 1
        self._wake()
        return True

    def touch(self) -> None:
        """Something beside the tables changed (a game analysed): streams look again."""
        with self._lock:
            self.version += 1
        self._wake()

    def _wake(self) -> None:
        for wake in list(self._listeners):
            wake()

    def views(self, since: int = 0) -> tuple[int, list[tuple[int, dict[str, Any]]]]:
        """(the room's version, [(table's version, its view)] by name) of the tables
        changed after the room's version ``since`` (0: every table). A stream asks only
        for what changed since its last message, so a change costs the same with ten
        tables or a thousand."""
        now, wall = self.clock(), self.wall()
        with self._lock:
            changed = sorted((n, t) for n, t in self._tables.items() if t.version > since)
            return self.version, [(t.version, t.view(now, wall)) for _, t in changed]

    def count(self) -> int:
        with self._lock:
            return len(self._tables)


def _info(name: str, payload: bytes) -> str | None:
    if not payload:
        return None
    info = loads(payload, "info")
    web = info.get("web") if isinstance(info, dict) else None
    if web is None:
        return None
    if not isinstance(web, str) or len(web) > 200 or not re.fullmatch(
            r"https?://[A-Za-z0-9.:\[\]_-]+(:\d{1,5})?/", web):
        raise Refused(f"{name}: info.web is not a page address")
    return web


def check_record(record: Any, room: str, table: str) -> dict[str, Any]:
    """A record as the box sends it (docs/mqtt.md), for this room and this table."""
    from ..games.common import GAMES

    if not isinstance(record, dict):
        raise Refused("record: not a JSON object")
    if record.get("room") != room or record.get("table") != table:
        raise Refused(f"record: says room {str(record.get('room'))[:40]!r} table "
                      f"{str(record.get('table'))[:40]!r}, sent as {room}/{table}")
    if _int(record.get("game_id"), 1, 2 ** 63) is None:
        raise Refused("record: game_id is a positive whole number")
    if record.get("game") not in GAMES:
        raise Refused(f"record: unknown game {str(record.get('game'))[:40]!r}")
    if record.get("status") not in ("won", "lost"):
        raise Refused("record: status is won or lost")
    for key in ("scenario", "story"):
        if record.get(key) is not None and not isinstance(record[key], dict):
            raise Refused(f"record: {key} is an object or null")
    return record
