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
:attr:`Display.due_at`.

A panel can also lose its setup without any error: a dip on the 3.3 V rail resets
the controller (display off, RAM blank) while the bus stays up, and an SPI panel
never reports anything at all. So every ``REFRESH_EVERY`` seconds :meth:`retry`
sends the driver's set-up commands again (without the display-off that opens them,
so a healthy panel does not blink), the contrast, and the frame in full.

A stuck bus (SDA held low) makes every transfer wait for the kernel's timeout,
about 1 s on a Pi. With ``retry_wait`` set (the box sets it), the re-open runs on a
helper thread: :meth:`retry` waits at most that long for it once, then only looks
whether it has finished, so each attempt costs the loop at most ``retry_wait``
however long the bus hangs; the device it opened is taken on a later call.

``companion run`` drives its displays from a thread of their own
(:mod:`.display_worker`), so the game's loop waits for neither a transfer nor a retry;
the simulator and the hands-on commands call a display directly.
"""

from __future__ import annotations

import atexit
import logging
import threading
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
# Set-up and frame sent again this often: a panel reset by a power dip is dark for
# at most this long. A full frame is 23 ms of I2C at 400 kHz: 0.2 % of the bus.
REFRESH_EVERY = 10.0
RETRY_WAIT = 0.1  # the box's bound on what one retry may cost the loop, in seconds


class Display:
    """Pushes images to a luma device, skipping any identical to the last one."""

    def __init__(self, device: Any, keep: bool = False,
                 reopen: Callable[[], Any] | None = None,
                 clock: Callable[[], float] = time.monotonic, partial: bool = True,
                 retry_wait: float | None = None):
        self.device = device
        self.partial = partial  # send only the changed columns of changed pages
        self.frames_sent = 0
        self.frames: list[Image.Image] = []  # every frame sent, when ``keep`` (sim, tests)
        self.failures = 0  # consecutive failed attempts (0: the panel is fine)
        self.retry_at: float | None = None  # when to try again, while failing
        self.refresh_at: float | None = None  # when to send the set-up again
        self.refreshes = 0  # set-ups re-sent (not counted in ``frames_sent``)
        self.retry_wait = retry_wait  # None: re-open on the caller's thread
        self._opening: _Opening | None = None  # a re-open running on a helper thread
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
        data = image.tobytes()
        if data == self._last:
            return False
        return self._send(image, data)

    @property
    def due_at(self) -> float | None:
        """When :meth:`retry` has something to do: a retry, or else a refresh."""
        return self.retry_at if self.failures else self.refresh_at

    def due(self) -> bool:
        """Whether :meth:`retry` has something to do now."""
        at = self.due_at
        return at is not None and self._clock() >= at

    def retry(self) -> bool:
        """Re-initialise the panel and resend the newest frame, if a retry is due; on a
        healthy panel, re-send its set-up and frame if a refresh is due."""
        if not self.failures:
            if self.refresh_at is not None and self._clock() >= self.refresh_at:
                self._refresh()
            return False
        if self.retry_at is None or self._clock() < self.retry_at:
            return False
        if self._reopen is not None:
            try:
                new = self._reopened()
            except Exception as exc:  # noqa: BLE001 - any driver failure: try later
                self._failed(exc)
                return False
            if new is None:  # still opening on its thread: look again shortly
                self.retry_at = self._clock() + (self.retry_wait or 0.0)
                return False
            old, self.device = self.device, new
            if old is not None:
                _drop(old)
        self._last = None  # a re-initialised panel is blank: send in full
        image, self._wanted = self._wanted, None
        sent = self._send(image) if image is not None else self._recovered()
        if sent and self.dimmed:
            self._apply_contrast()  # the reopened panel came up at full contrast
        return sent

    def _reopened(self) -> Any:
        """A freshly opened device, or None while a re-open on its thread is still
        waiting for the bus (raises what the re-open raised)."""
        assert self._reopen is not None
        if self.retry_wait is None:
            return self._reopen()
        opening = self._opening
        if opening is None:  # a new attempt: a healthy bus answers within the wait
            opening = self._opening = _Opening(self._reopen)
            if not opening.done.wait(self.retry_wait):
                return None
        elif not opening.done.is_set():  # still hanging: look, do not wait again
            return None
        self._opening = None
        return opening.result()

    def _refresh(self) -> None:
        """The panel's set-up, contrast and frame again (see the module's docstring)."""
        self.refresh_at = self._clock() + REFRESH_EVERY
        if self.device is None or self._last is None:
            return
        image = Image.frombytes("1", self.device.size, self._last)
        try:
            for command in getattr(self.device, "setup_commands", ()):
                if command[:1] == (0xAE,):  # DISPLAYOFF: a healthy panel would blink
                    command = command[1:]
                if command:
                    self.device.command(*command)
            self.device.contrast(DIM_CONTRAST if self.dimmed else self.contrast)
            self.device.display(image)  # what the page writer believes the panel holds
        except FAULTS as exc:
            self._wanted = image
            self._writer = None
            self._failed(exc)
            return
        self.refreshes += 1

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

    def _send(self, image: Image.Image, data: bytes | None = None) -> bool:
        """``data``: ``image.tobytes()``, when the caller has it already."""
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
        if self._last is None and hasattr(self.device, "setup_commands"):
            # A panel set up just now (luma's in-memory dummy has nothing to refresh).
            self.refresh_at = self._clock() + REFRESH_EVERY
        self._last = image.tobytes() if data is None else data
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
             keep: bool = False, retry_wait: float | None = None) -> Display:
        """A display for a panel that may not answer yet: the box starts regardless
        and :meth:`retry` keeps trying to bring the panel up."""
        try:
            device = opener()
        except Exception as exc:  # noqa: BLE001 - no panel must not mean no game
            display = cls(None, keep=keep, reopen=opener, clock=clock, retry_wait=retry_wait)
            display._failed(exc)
            return display
        return cls(device, keep=keep, reopen=opener, clock=clock, retry_wait=retry_wait)

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
        if self._opening is not None:  # a re-open still waiting on a stuck bus
            self._opening.abandon()
            self._opening = None
        if self.device is None:
            return
        try:
            release(self.device)
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
    """Release a device being replaced without blanking the new one's panel."""
    device.persist = True  # cleanup would otherwise send DISPLAYOFF to the same panel
    try:
        release(device)
    except Exception:  # noqa: BLE001 - the old bus is probably why we are here
        pass


class _Opening:
    """One re-open on a helper thread; its device, or its error, once ``done``."""

    def __init__(self, opener: Callable[[], Any]):
        self.done = threading.Event()
        self._device: Any = None
        self._error: BaseException | None = None
        self._abandoned = False
        self._lock = threading.Lock()
        threading.Thread(target=self._run, args=(opener,), name="oled-reopen",
                         daemon=True).start()

    def _run(self, opener: Callable[[], Any]) -> None:
        try:
            device = opener()
        except BaseException as exc:  # noqa: BLE001 - handed to the loop
            self._error = exc
        else:
            with self._lock:
                self._device = device
                if self._abandoned:  # the display closed meanwhile: nobody takes it
                    device.persist = True
                    _quiet_release(device)
        self.done.set()

    def result(self) -> Any:
        if self._error is not None:
            raise self._error
        return self._device

    def abandon(self) -> None:
        with self._lock:
            self._abandoned = True
            if self._device is not None:
                self._device.persist = True
                _quiet_release(self._device)


# Exit hooks luma asked for, per open device: luma registers one per device (and
# GPIO.cleanup per SPI interface) and never unregisters it, so a box re-opening a
# missing panel all night would collect thousands, each holding a device and, at
# exit, switching off whatever panel then answers. Here they run at exit only for
# the devices still open, each distinct hook once.
_exit_hooks: dict[int, tuple[Any, list[Callable[[], Any]]]] = {}
_exit_lock = threading.Lock()


def keep_exit_hooks(device: Any, hooks: list[Callable[[], Any]]) -> None:
    """Run ``hooks`` at exit unless ``device`` is released first."""
    with _exit_lock:
        if not _exit_hooks:
            atexit.unregister(_run_exit_hooks)
            atexit.register(_run_exit_hooks)
        _exit_hooks[id(device)] = (device, hooks)


def release(device: Any) -> None:
    """Close ``device`` for good: luma's cleanup (off and clear unless ``persist``,
    then the bus closed), and its exit hooks forgotten."""
    with _exit_lock:
        _exit_hooks.pop(id(device), None)
    device.cleanup()


def open_devices() -> int:
    """How many devices still have their exit hooks kept (tests count leaks by it)."""
    return len(_exit_hooks)


def _quiet_release(device: Any) -> None:
    try:
        release(device)
    except Exception:  # noqa: BLE001 - a bus that hung may not close cleanly
        pass


def _run_exit_hooks() -> None:
    with _exit_lock:
        entries = list(_exit_hooks.values())
        _exit_hooks.clear()
    done: list[Callable[[], Any]] = []
    for _, hooks in reversed(entries):
        for hook in reversed(hooks):  # luma registered the bus's own hook first
            if hook in done:
                continue
            done.append(hook)
            try:
                hook()
            except Exception:  # noqa: BLE001 - as luma's own hook: never fail the exit
                pass


def dummy_display(keep: bool = False) -> Display:
    """The display fake: luma's in-memory dummy device, 128x64, mode "1"."""
    from luma.core.device import dummy

    return Display(dummy(width=128, height=64, mode="1"), keep=keep)
