"""The queue between the device threads and the game thread.

Buttons, link events and the stop request are few and must never wait; tag reads can
arrive flat out (a faulty reader, a loose wire on a pad, a fuzzer) and each costs a
journal write on the game thread. So tags wait in a bounded, de-duplicated set of
their own: a tag already waiting (the same pad and UID) is coalesced into it, and
beyond ``capacity`` different tags a new one is dropped and counted. A token on the
main queue stands for "tags are waiting" and goes back behind whatever arrived in
the meantime each time a tag is taken, so a button pressed during a flood is next
but one, never behind the flood.

``put`` on the main queue is a ``SimpleQueue.put`` (reentrant, so a signal handler
may call it); only tags take the lock.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

from ..inputs import Tag
from .link import TagOff

CAPACITY = 32  # different tags waiting at once: far more than three pads can mean
_TAGS = object()  # on the main queue: "take one from the tag set"


class Inbox:
    """``put`` from any thread; ``get``/``get_nowait`` from the game thread only."""

    def __init__(self, capacity: int = CAPACITY):
        self.capacity = capacity
        self.coalesced = 0  # tags dropped because the same one was already waiting
        self.dropped = 0  # tags dropped because ``capacity`` others were waiting
        self._main: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._tags: dict[Any, None] = {}  # waiting tag events, oldest first

    def put(self, event: Any, block: bool = True, timeout: float | None = None) -> None:
        if not isinstance(event, (Tag, TagOff)):
            self._main.put(event)
            return
        with self._lock:
            if event in self._tags:
                self.coalesced += 1
                return
            if len(self._tags) >= self.capacity:
                self.dropped += 1
                return
            self._tags[event] = None
            first = len(self._tags) == 1
        if first:
            self._main.put(_TAGS)

    put_nowait = put

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        while True:
            item = self._main.get(block, timeout)
            if item is not _TAGS:
                return item
            with self._lock:
                if not self._tags:
                    continue
                event = next(iter(self._tags))
                del self._tags[event]
                more = bool(self._tags)
            if more:
                self._main.put(_TAGS)  # behind anything that came in meanwhile
            return event

    def get_nowait(self) -> Any:
        return self.get(False)

    def empty(self) -> bool:
        return self._main.empty()

    def qsize(self) -> int:
        """Events waiting (each waiting tag counts once)."""
        with self._lock:
            tags = len(self._tags)
        return self._main.qsize() - (1 if tags else 0) + tags
