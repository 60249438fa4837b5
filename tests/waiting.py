"""Waiting for events from device threads: poll with a deadline, never a fixed sleep."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from companion.hardware.link import LinkEvent


def wait_for(events: queue.Queue, match: Callable[[object], bool], timeout: float = 2.0,
             skipped: list[object] | None = None):
    """The first event that ``match``es within ``timeout`` s; others go to ``skipped``."""
    deadline = time.monotonic() + timeout
    seen = [] if skipped is None else skipped
    while (left := deadline - time.monotonic()) > 0:
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            break
        if match(event):
            return event
        seen.append(event)
    raise AssertionError(f"no matching event within {timeout} s; saw {seen}")


def eventually(condition: Callable[[], bool], timeout: float = 2.0) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` s pass."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def is_state(name: str) -> Callable[[object], bool]:
    """Matches a LinkEvent announcing ``name`` ("up", "down", ...)."""
    return lambda event: isinstance(event, LinkEvent) and event.state == name
