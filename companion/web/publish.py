"""Hands the latest snapshot from the game thread to the web server's thread.

The game thread calls :meth:`Publisher.publish` after every refresh: it builds the
snapshot, encodes it once and swaps it in under a lock (no I/O, no waiting on any
client). Only the newest snapshot is kept: a page that falls behind skips straight to
the present, so memory does not grow with slow readers. ``listen`` registers a
thread-safe "something changed" callback (the server's event loop wake-up).

With ``ask`` (a thread-safe way to have the game thread refresh the box), nothing is
built while no page watches: the box pays for the page only when someone looks. A
page arriving calls :meth:`watch`, which asks for a fresh snapshot if the one kept
is stale; :meth:`fresh` says when it has come.
"""

from __future__ import annotations

import bisect
import json
import logging
import threading
from typing import Any, Callable

from PIL import Image

from . import snapshot, stats

log = logging.getLogger(__name__)


class Publisher:
    def __init__(self, show_box: bool = False, ask: Callable[[], None] | None = None):
        self.show_box = show_box  # send the OLED image too (the sim's box in a browser)
        self._ask = ask  # None: build on every publish, watched or not
        self._watchers = 0
        self._fresh = False  # the kept snapshot is the box's latest
        self._asked = False  # a refresh is on its way to the game thread
        self.built = 0  # snapshots built so far (benches check the idle box builds none)
        self._lock = threading.Lock()
        self._data = b"{}"
        self._version = 0
        self._listeners: list[Callable[[], None]] = []
        self._history = b"{}"
        self._history_key: tuple[Any, ...] | None = None
        self._options: dict[int, dict[str, Any]] = {}  # finished games never change
        self._position: tuple[Any, Any] | None = None  # (engine state, game copy)

    def publish(self, box: Any, image: Image.Image | None = None) -> None:
        """Called on the game thread (a :class:`~companion.box.Box` observer). A
        failure here is logged, never raised: the page must not cost the game."""
        with self._lock:
            if self._ask is not None and not self._watchers:
                self._fresh = self._asked = False  # built when a page comes
                return
        try:
            snap = snapshot.build(box.session, image if self.show_box else None)
            page_extras(box.session, snap)
            data = json.dumps(snap, ensure_ascii=False, separators=(",", ":")).encode()
            self._update_history(box.session, snap)
            self._keep_position(box.session)
        except Exception:  # noqa: BLE001
            log.exception("building the web snapshot failed; the page keeps the last one")
            return
        with self._lock:
            self.built += 1
            was_fresh, self._fresh, self._asked = self._fresh, True, False
            if data == self._data and was_fresh:
                return  # nothing to send
            if data != self._data:
                self._data = data
                self._version += 1
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    def _update_history(self, session: Any, snap: dict[str, Any]) -> None:
        """The journal's games, read here on the game thread (the journal's owner) and
        only when a game starts or ends; each finished game's options are read once."""
        key = (snap["game_id"], snap.get("status"), snap["mode"])
        if key == self._history_key:
            return
        self._history_key = key
        games = []
        for g in session.journal.games(limit=stats.HISTORY_GAMES):
            if g.status in ("won", "lost") and g.id not in self._options:
                self._options[g.id] = session.journal.load(g.id).options
            games.append({"id": g.id, "game": g.game, "status": g.status, "turns": g.turns,
                          "options": self._options.get(g.id, {})})
        listed = {g["id"] for g in games}  # games past the page's window are forgotten
        self._options = {i: o for i, o in self._options.items() if i in listed}
        data = json.dumps(stats.history(games), separators=(",", ":")).encode()
        with self._lock:
            self._history = data

    def _keep_position(self, session: Any) -> None:
        """A copy of the Entanglion game in play, taken here on the game thread when
        its position changes, so a page's hint is worked out on the server's side
        without touching the session. The copy knows the hidden order of the decks,
        as the box does; the hint never reads it, and nothing of it is sent."""
        g = session.game if session.mode == "game" else None
        if g is None or g.game != "entanglion":
            position = None
        elif self._position is not None and self._position[0] is g.state:
            return  # the engine swaps in a new state object with every input and undo
        else:
            position = (g.state, g.copy())
        with self._lock:
            self._position = position

    def position(self) -> Any:
        """The latest Entanglion game in play (a copy), or None."""
        with self._lock:
            return None if self._position is None else self._position[1]

    def watch(self) -> None:
        """A page is reading (any thread): snapshots are built from now on, and a
        stale one is refreshed at once."""
        with self._lock:
            self._watchers += 1
            ask = self._ask is not None and not self._fresh and not self._asked
            self._asked = self._asked or ask
        if ask:
            self._ask()

    def unwatch(self) -> None:
        with self._lock:
            self._watchers -= 1

    def fresh(self) -> bool:
        """Whether :meth:`latest` is the box as it is now (always, without ``ask``)."""
        with self._lock:
            return self._fresh or self._ask is None

    def history(self) -> bytes:
        with self._lock:
            return self._history

    def latest(self) -> tuple[int, bytes]:
        with self._lock:
            return self._version, self._data

    def listen(self, wake: Callable[[], None]) -> None:
        with self._lock:
            self._listeners.append(wake)

    def unlisten(self, wake: Callable[[], None]) -> None:
        with self._lock:
            if wake in self._listeners:
                self._listeners.remove(wake)


def page_extras(session: Any, snap: dict[str, Any]) -> None:
    """What the live page shows beside the snapshot's own fields: the number of the
    input each log line came from (``log_numbers``, None for the set-up's lines), so
    the page numbers its window of the log as the game does; and how a QLANET game
    refills hands (a game without a deck must not say "Deck: 0 cards")."""
    g = session.game if session.mode == "game" else None
    if g is None or "game" not in snap:
        return
    numbers = log_numbers(g, snap["game"], len(snap["log"])) if "log" in snap else None
    if numbers is not None:
        snap["log_numbers"] = numbers
    if snap["game"] == "qlanet":
        snap["refill"] = g.state.options.get("refill")


def log_numbers(g: Any, game: str, shown: int) -> list[int | None] | None:
    """The input number of each of the last ``shown`` log lines, or None when the
    lines cannot be matched to the engine's log entries."""
    window = g.log[-snapshot.LOG_LINES:]
    first = len(g.log) - len(window)
    history = getattr(g, "_history", None)
    if history is None:
        return None
    skipped = len(g.inputs) - len(history)  # inputs from before a resumed history
    starts = [h[1] for h in history]  # the log's length before each input
    counts = [_lines_of(game, e) for e in window]
    numbers: list[int | None] = []
    for index, count in enumerate(counts, first):
        k = bisect.bisect_right(starts, index)
        numbers += [k + skipped if k else None] * count
    if len(numbers) < shown:
        return None
    return numbers[len(numbers) - shown:]


def _lines_of(game: str, entry: dict[str, Any]) -> int:
    """How many lines the page's log gives an entry (as :mod:`.snapshot` tells it)."""
    if game == "qlanet":
        return 1 if snapshot._qlanet_line(entry) else 0  # noqa: SLF001
    if game == "qno":
        from ..games.qno.explain import narrate

        lines = list(narrate({"log": [entry], "pending": None, "circuit_text": ""},
                             lambda card: card))
        return len(lines) - (1 if lines and lines[-1] == "Circuit:" else 0)
    return 1
