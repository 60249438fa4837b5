"""The OLED behind a tiny interface: ``show(image)``, ``pause(image)`` and ``close()``.

Frames go out only when the picture changed: an I2C frame costs about 23 ms at
400 kHz, and an idle box should send nothing at all. Of a changed picture only the
changed columns of changed pages go out (:mod:`.pages`). The real device and the fakes
are the same class around the same luma drivers: tests, benches and the simulator
open them over fake kernel buses (:mod:`.fake_bus`) that fail on demand, so they
exercise the code the box runs. (``luma.core.device.dummy``, which keeps the last
image in memory, stands in only where a box has no screen at all.)

A bus error (a loose wire, a brown-out, ``Errno 121``/``Errno 5``) must never stop
a game. luma turns some of them into its own exceptions (its ``i2c`` interface
raises ``DeviceNotFoundError``, which is not an ``OSError``, for EIO and EREMOTEIO),
so every ``OSError`` and every ``luma.core.error.Error`` counts as a display fault:
the display logs it, keeps the newest wanted frame, and retries with back-off,
re-initialising the panel through ``reopen`` (a power-cycled SSD1306 forgets its
setup). The main loop learns when to call :meth:`Display.retry` from
:attr:`Display.retry_at`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from luma.core.error import Error as LumaError
from PIL import Image

from . import pages

log = logging.getLogger(__name__)

FAULTS = (OSError, LumaError)  # what a panel on a bad wire raises, through luma
DIM_CONTRAST = 1  # the lowest visible setting: still readable close up, no burn-in
FIRST_BACKOFF = 0.5  # seconds before the first retry
MAX_BACKOFF = 30.0  # a dead panel is retried twice a minute, forever


class Display:
    """Pushes images to a luma device, skipping any identical to the last one."""

    def __init__(self, device: Any, keep: bool = False,
                 reopen: Callable[[], Any] | None = None,
                 clock: Callable[[], float] = time.monotonic, partial: bool = True):
        self.device = device
        self.partial = partial  # send only the changed columns of changed pages
        self.frames_sent = 0
        self.frames: list[Image.Image] = []  # every frame sent, when ``keep`` (sim, tests)
        self.failures = 0  # consecutive failed attempts (0: the panel is fine)
        self.retry_at: float | None = None  # when to try again, while failing
        self._keep = keep
        self._reopen = reopen
        self._clock = clock
        self._last: bytes | None = None  # the frame on the panel
        self._wanted: Image.Image | None = None  # the frame it should show
        self._writer: pages.PageWriter | None = None  # None: full frames (or start afresh)
        self.contrast = 255  # the configured contrast, restored when the panel wakes
        self.dimmed = False

    def show(self, image: Image.Image) -> bool:
        """Send ``image`` if it differs from the last frame; returns whether it went out."""
        if self.failures:
            self._wanted = image  # the retry sends the newest frame, not a backlog
            return False
        if image.tobytes() == self._last:
            return False
        return self._send(image)

    def retry(self) -> bool:
        """Re-initialise the panel and resend the newest frame, if a retry is due."""
        if self.retry_at is None or self._clock() < self.retry_at:
            return False
        if self._reopen is not None:
            try:
                old, self.device = self.device, self._reopen()
            except Exception as exc:  # noqa: BLE001 - any driver failure: try later
                self._failed(exc)
                return False
            if old is not None:
                _drop(old)
        self._last = None  # a re-initialised panel is blank: send in full
        image, self._wanted = self._wanted, None
        sent = self._send(image) if image is not None else self._recovered()
        if sent and self.dimmed:
            self._apply_contrast()  # the reopened panel came up at full contrast
        return sent

    def dim(self, on: bool) -> None:
        """Lower the panel's contrast (an idle box) or restore it."""
        if on != self.dimmed:
            self.dimmed = on
            self._apply_contrast()

    def _apply_contrast(self) -> None:
        if self.device is None or self.failures:
            return  # the retry's reopen applies it
        try:
            self.device.contrast(DIM_CONTRAST if self.dimmed else self.contrast)
        except FAULTS as exc:
            self._writer = None
            self._failed(exc)

    def _send(self, image: Image.Image) -> bool:
        try:
            if self.device is None:
                raise OSError("no OLED panel open")
            writer = self._page_writer()
            if writer is None:
                self.device.display(image)
            else:
                writer.write(image)
        except FAULTS as exc:
            self._wanted = image
            self._writer = None  # what the panel holds is unknown now: start afresh
            self._failed(exc)
            return False
        self._recovered()
        self._last = image.tobytes()
        self.frames_sent += 1
        if self._keep:
            self.frames.append(image.copy())
        return True

    def _page_writer(self) -> pages.PageWriter | None:
        """The partial-update writer for the current device: a new one (whose first
        frame goes out in full) after a reopen or a fault."""
        if not self.partial:
            return None
        if self._writer is None or self._writer.device is not self.device:
            self._writer = pages.for_device(self.device)
        return self._writer

    def _failed(self, exc: Exception) -> None:
        self.failures += 1
        delay = min(FIRST_BACKOFF * 2 ** (self.failures - 1), MAX_BACKOFF)
        self.retry_at = self._clock() + delay
        # The first failure is news; the rest are logged sparingly (every 8th).
        if self.failures == 1 or self.failures % 8 == 0:
            log.warning("OLED: %s (attempt %d; retrying in %.1f s)", _describe(exc),
                        self.failures, delay)

    def _recovered(self) -> bool:
        if self.failures:
            log.info("OLED: back after %d failed attempts", self.failures)
        self.failures, self.retry_at = 0, None
        return True

    @classmethod
    def open(cls, opener: Callable[[], Any], clock: Callable[[], float] = time.monotonic,
             keep: bool = False) -> Display:
        """A display for a panel that may not answer yet: the box starts regardless
        and :meth:`retry` keeps trying to bring the panel up."""
        try:
            device = opener()
        except Exception as exc:  # noqa: BLE001 - no panel must not mean no game
            display = cls(None, keep=keep, reopen=opener, clock=clock)
            display._failed(exc)
            return display
        return cls(device, keep=keep, reopen=opener, clock=clock)

    @property
    def image(self) -> Image.Image | None:
        """The last frame sent."""
        if self._last is None:
            return None
        return Image.frombytes("1", self.device.size, self._last)

    def pause(self, image: Image.Image) -> None:
        """Leave ``image`` on the panel after the process exits (luma clears it otherwise)."""
        self.failures, self.retry_at = 0, None  # one last attempt, even if failing
        if self.device is None:
            return
        self._send(image)
        self.device.persist = True
        self.close()

    def close(self) -> None:
        if self.device is None:
            return
        try:
            self.device.cleanup()
        except Exception as exc:  # noqa: BLE001 - a dead bus cannot be closed cleanly
            log.debug("OLED: cleanup failed: %s", exc)


def _describe(exc: BaseException) -> str:
    """The error and, when luma translated it, the kernel's own (which names the cause:
    "Remote I/O error" is a panel that did not answer, not a missing device)."""
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, OSError) and not isinstance(exc, OSError):
        return f"{exc} ({cause})"
    return str(exc)


def _drop(device: Any) -> None:
    """Release a device being replaced without blanking the new one's panel at exit."""
    device.persist = True  # luma's atexit hook would otherwise send DISPLAYOFF
    try:
        device.cleanup()
    except Exception:  # noqa: BLE001 - the old bus is probably why we are here
        pass


def dummy_display(keep: bool = False) -> Display:
    """The display fake: luma's in-memory dummy device, 128x64, mode "1"."""
    from luma.core.device import dummy

    return Display(dummy(width=128, height=64, mode="1"), keep=keep)
