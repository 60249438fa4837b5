"""One writer per state directory: ``run``, ``sim`` and ``enroll`` hold a lock there.

Two boxes on one journal would interleave their inputs into games neither can
resume. ``fcntl.flock`` is released by the kernel when the holder dies, however it
dies, so a crash never leaves a stale lock.

The lock is taken on the state directory itself, not only on a file in it: a tidy-up
that deletes ``lock`` (or every file in the directory) cannot remove the directory a
running box has open, so a second box is still refused. The ``lock`` file is locked
too and holds the holder's pid and command, only to make the refusal useful.

Files in the state directory are opened with :func:`open_nofollow`: a symbolic link
planted there is refused with a message, never followed and written through.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

LOCK_NAME = "lock"


class Locked(Exception):
    """Another process holds the state directory; the message names it."""


def open_nofollow(path: str | os.PathLike[str], flags: int, mode: int = 0o600) -> int:
    """``os.open`` that refuses a symbolic link at ``path`` (OSError ELOOP, whose
    message says so) instead of opening what it points to."""
    try:
        return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "is a symbolic link; refusing to follow it",
                          str(path)) from None
        raise


class StateLock:
    def __init__(self, fds: tuple[int, ...], path: Path):
        self.fds, self.path = fds, path

    def release(self) -> None:
        for fd in self.fds:
            os.close(fd)  # closing drops the flock
        self.fds = ()

    def __enter__(self) -> StateLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def acquire(state_dir: str | os.PathLike[str], command: str) -> StateLock:
    """Take the lock of ``state_dir`` (made 0700 if missing) for ``command``, or raise
    :class:`Locked` naming the holder. OSError if the directory cannot be used (or its
    lock file is a symbolic link)."""
    state = Path(state_dir)
    if not state.is_dir():
        state.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = state / LOCK_NAME
    fds: list[int] = []
    try:
        fds.append(os.open(state, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))
        fds.append(open_nofollow(path, os.O_RDWR | os.O_CREAT))
        for fd in fds:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = ""
        if len(fds) == 2:  # a new empty file if the holder's was deleted
            holder = os.pread(fds[1], 200, 0).decode("utf-8", "replace").strip()
        for fd in fds:
            os.close(fd)
        raise Locked(f"{state} is in use by {holder or 'another program'}; stop it first"
                     ) from None
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    os.ftruncate(fds[1], 0)
    os.pwrite(fds[1], f"pid {os.getpid()} (companion {command})\n".encode(), 0)
    return StateLock(tuple(fds), path)
