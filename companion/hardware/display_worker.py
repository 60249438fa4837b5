"""The OLED on a thread of its own, so the game thread never waits for the bus.

A full frame is 23 ms of I2C at 400 kHz and a changed menu line a few ms; a stuck bus
holds each transfer for the kernel's timeout (about 1 s on a Pi). Sent from the game
thread, every input waited for its frame before the next press was even read. Here the
game thread only hands the newest image over and goes on; the worker sends it. When
frames come faster than the bus takes them (a die tumbling, a burst of presses) only
the newest goes out: the panel shows where the game is, never a backlog.

Everything asked of the display (a frame, the contrast, a retry, the last frame at a
pause) runs on the worker, in order, so the luma device, its bus and the page writer
are touched by one thread only. The loop still decides *when* a retry or refresh is
due (from :attr:`due_at`, on its own clock, which tests drive by hand); the worker
runs it and then calls ``wake`` so that the loop, asleep until the next thing due,
learns the display's next time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from PIL import Image

from .display import Display

log = logging.getLogger(__name__)

# How long close() or pause() waits for a frame still on its way. Beyond it the bus is
# stuck: the worker is left to its timeout (a daemon thread never holds up the exit)
# and the device is not touched from a second thread.
STOP_WAIT = 3.0


class DisplayWorker:
    """A :class:`Display` driven from its own thread; the same calls as the display."""

    def __init__(self, display: Display, wake: Callable[[], None] = lambda: None,
                 name: str = "oled"):
        self.display = display
        self._wake = wake
        self._cond = threading.Condition()
        self._image: Image.Image | None = None  # the newest frame not yet taken
        self._jobs: list[Callable[[], None]] = []  # contrast and retries, in order
        self._busy = False
        self._stopping = False
        self._retrying = False  # a retry is queued or running: the loop need not ask
        self._dimmed = display.dimmed  # as asked (the worker may not have applied it yet)
        self.cpu = 0.0  # CPU seconds the worker has spent on its jobs (benches read it)
        self._thread = threading.Thread(target=self._run, name=f"{name}-display",
                                        daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ the loop's calls

    def show(self, image: Image.Image) -> bool:
        """Hand ``image`` over; it replaces any frame not yet taken. Returns False once
        the display is closed."""
        with self._cond:
            if self._stopping:
                return False
            self._image = image
            self._cond.notify()
        return True

    def dim(self, on: bool) -> None:
        with self._cond:
            if on == self._dimmed or self._stopping:
                return
            self._dimmed = on
            self._jobs.append(lambda: self.display.dim(on))
            self._cond.notify()

    @property
    def dimmed(self) -> bool:
        return self._dimmed

    @property
    def due_at(self) -> float | None:
        """When the loop should call :meth:`retry` (None while one is on its way)."""
        return None if self._retrying else self.display.due_at

    def retry(self) -> bool:
        """Queue the display's retry or refresh if one is due. Returns False: whether
        the panel came back is known only on the worker, which logs it."""
        with self._cond:
            if self._retrying or self._stopping or not self.display.due():
                return False
            self._retrying = True
            self._jobs.append(self._retry)
            self._cond.notify()
        return False

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything handed over has been done; False on a timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending() and not self._busy,
                                       timeout)

    def pause(self, image: Image.Image) -> None:
        """Leave ``image`` on the panel after the process exits, as :meth:`Display.pause`."""
        if self._stop():
            self.display.pause(image)

    def close(self) -> None:
        if self._stop():
            self.display.close()

    # ------------------------------------------------------------ the worker

    def _pending(self) -> bool:
        return self._image is not None or bool(self._jobs)

    def _retry(self) -> None:
        try:
            if self.display.retry():
                log.info("OLED frame restored")
        finally:
            self._retrying = False
            self._wake()  # the loop sleeps until what it knew was due: tell it anew

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending() or self._stopping)
                if not self._pending():  # stopping, and all that was asked is done
                    return
                image, self._image = self._image, None
                jobs, self._jobs = self._jobs, []
                self._busy = True
            if image is not None:  # bus faults are the display's to handle
                jobs.append(lambda: self.display.show(image))
            start = time.thread_time()
            for job in jobs:  # one failing job must not cost the others, nor the frame
                try:
                    job()
                except Exception:  # noqa: BLE001 - the box plays on without its screen
                    log.exception("OLED: the display thread's job failed")
            self.cpu += time.thread_time() - start
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def _stop(self) -> bool:
        """End the worker once what it has is done; False if it is stuck on the bus."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread is threading.current_thread():
            return True
        self._thread.join(STOP_WAIT)
        if self._thread.is_alive():
            log.warning("OLED: the bus did not take the last frame within %.0f s; "
                        "leaving the panel as it is", STOP_WAIT)
            return False
        return True

    def __repr__(self) -> str:
        return f"<DisplayWorker of {self.display!r}>"

