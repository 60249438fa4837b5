"""One writer per state directory: ``run``, ``sim`` and ``enroll`` hold a lock there.

Two boxes on one journal would interleave their inputs into games neither can
resume. ``fcntl.flock`` is released by the kernel when the holder dies, however it
dies, so a crash never leaves a stale lock; the file holds the holder's pid and
command only to make the refusal useful.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "lock"


class Locked(Exception):
    """Another process holds the state directory; the message names it."""


class StateLock:
    def __init__(self, fd: int, path: Path):
        self.fd, self.path = fd, path

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing drops the flock
            self.fd = -1

    def __enter__(self) -> StateLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def acquire(state_dir: str | os.PathLike[str], command: str) -> StateLock:
    """Take the lock of ``state_dir`` (made 0700 if missing) for ``command``, or raise
    :class:`Locked` naming the holder. OSError if the directory cannot be used."""
    state = Path(state_dir)
    if not state.is_dir():
        state.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = state / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        try:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "unknown"
        finally:
            os.close(fd)
        raise Locked(f"{state} is in use by {holder}; stop it first") from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()} (companion {command})\n".encode(), 0)
    return StateLock(fd, path)
