"""Host side of the Pico link, and the self-healing serial port under it.

:class:`ReconnectingPort` owns one serial port and one background thread. Only that
thread opens, reads and closes the port; when the USB device vanishes it reports
``LinkEvent("down")`` and tries to reopen the port every 0.5 s, so a replugged
device is back within a second or two without a service restart. Other threads may
write at any time under a lock; a failed write counts as the link going down.

:class:`SerialLink` speaks ``firmware/PROTOCOL.md`` to the Pico: taps become
:class:`~companion.inputs.Tag` events, the latest LED frame and brightness are kept
and re-sent whenever the device says HELLO (so a replugged Pico shows the right
lights again), and anything that is not a valid line (REPL banners, tracebacks,
noise) is counted and ignored. The reader thread never touches game state: it only
parses and calls ``put`` (the daemon passes ``queue.put_nowait``).

The RDM6300 reader (:mod:`companion.hardware.rdm6300`) stands on the same base.
"""

from __future__ import annotations

import binascii
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

import serial

from companion.frozen import frozen
from companion.hardware import protocol
from companion.hardware.protocol import ProtocolError
from companion.inputs import Tag

log = logging.getLogger(__name__)

# The reader thread wakes at least this often with nothing to read (for the stale
# check; close() does not wait for it). The Pico's 1 s heartbeat wakes it anyway, so a
# longer timeout only saves wake-ups on an idle box.
READ_TIMEOUT = 1.0
WRITE_TIMEOUT = 0.5  # a device that stops reading must not hang the main thread
RETRY_EVERY = 0.5  # reopen attempts while the device is away
ASK_AGAIN = 1.0  # repeat HELLO? this often until a HELLO comes (the first may be lost)
# A device that echoes our lines is at MicroPython's REPL (the firmware stopped, or
# someone pressed Ctrl-C): Ctrl-C ends whatever runs there, Ctrl-B leaves the raw
# REPL, Ctrl-D soft-resets the board, which starts main.py and so its HELLO.
SOFT_RESET = b"\x03\x02\x04"
RESET_AGAIN = 5.0  # seconds between soft resets while the device stays at the REPL
WARN_EVERY = 10.0  # at most one warning per kind of trouble per this many seconds
JOIN_TIMEOUT = 2.0
MAX_PIXELS = (protocol.MAX_LINE - len("65535 LED ") - len("*FFFF")) // 6  # 97
BLINK_PIXELS = (protocol.MAX_LINE - len("65535 BLINK 60000  ") - len("*FFFF")) // 12  # 48
FIELDS_KEPT = 8  # LED fields kept spelt, by frame (a blink alternates two frames)

EVENT_STATES = ("up", "stale", "down", "version")  # the states announced as LinkEvents


@frozen
class LinkEvent:
    """The link changed state: "up", "stale", "down" or "version" (unsupported protocol).

    ``detail`` says why, for the log and the OLED; ``source`` is the port path, to
    tell several links apart.
    """

    state: str
    detail: str = ""
    source: str = ""


@frozen
class TagOff:
    """A tag left a reader pad (after the reader's own debouncing)."""

    pad: int
    uid: str


class SerialPort(Protocol):
    """What the links need from a port: pyserial's ``Serial`` or a test double."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


Opener = Callable[[str, int], SerialPort]
Put = Callable[[Any], None]


def open_serial(path: str, baud: int, timeout: float = READ_TIMEOUT) -> serial.Serial:
    """The default opener: pyserial with bounded read and write timeouts."""
    # exclusive: a second process (a selftest next to the daemon) must not split the lines.
    return serial.Serial(
        path, baud, timeout=timeout, write_timeout=WRITE_TIMEOUT, exclusive=True)


@dataclass
class LinkStats:
    """Counters for the log, the selftest and the tests; written only by the reader thread."""

    lines_ok: int = 0
    rejects: dict[str, int] = field(default_factory=dict)  # reason -> lines ignored
    lost: int = 0  # lines missing from the device's sequence numbers
    duplicates: int = 0
    reconnects: int = 0  # successful opens after the first
    naks: int = 0
    acks: int = 0
    resends: int = 0
    device_errors: dict[str, int] = field(default_factory=dict)  # ERR code -> count
    soft_resets: int = 0  # a device found at its REPL was reset into the firmware

    @property
    def rejected(self) -> int:
        """All rejected lines, whatever the reason."""
        return sum(self.rejects.copy().values())  # copy: the reader thread may add a key


class _Throttle:
    """Collects counts and lets one summary warning through every ``every`` seconds."""

    def __init__(self, clock: Callable[[], float], every: float = WARN_EVERY) -> None:
        self._clock = clock
        self._every = every
        self._last: float | None = None
        self._pending: dict[str, int] = {}

    def note(self, what: str) -> str | None:
        """Count ``what``; returns a summary when a warning is due, else None."""
        self._pending[what] = self._pending.get(what, 0) + 1
        now = self._clock()
        if self._last is not None and now - self._last < self._every:
            return None
        self._last = now
        summary = ", ".join(f"{count} x {name}" for name, count in sorted(self._pending.items()))
        self._pending.clear()
        return summary


class ReconnectingPort:
    """A serial port read by one background thread that reopens it by itself.

    Subclasses fill in the hooks ``_opened``, ``_received``, ``_idle`` and ``_lost``
    (all called on the reader thread) and call :meth:`_start` at the end of their
    ``__init__``. Usable as a context manager; :meth:`close` is idempotent.
    """

    retry_every = RETRY_EVERY
    thread_name = "serial"
    read_timeout = READ_TIMEOUT

    def __init__(
        self,
        path: str,
        baud: int,
        put: Put,
        *,
        clock: Callable[[], float] = time.monotonic,
        opener: Opener | None = None,
    ) -> None:
        self.path = path
        self.baud = baud
        self.stats = LinkStats()
        self._put = put
        self._clock = clock
        self._opener = opener or (lambda p, b: open_serial(p, b, self.read_timeout))
        self._lock = threading.Lock()  # guards _port and every write to it
        self._port: SerialPort | None = None
        self._write_error: str | None = None
        self._closing = threading.Event()
        self._state = "connecting"
        self._reported: str | None = None
        self._opened_before = False
        self._reject_warnings = _Throttle(clock)
        self._thread = threading.Thread(
            target=self._run, name=f"{self.thread_name} {path}", daemon=True)

    # -- public ------------------------------------------------------------------------

    @property
    def state(self) -> str:
        """"connecting", "up", "stale", "down", "version" or "closed"."""
        return self._state

    def close(self) -> None:
        """Stop the reader thread and release the port; safe to call twice."""
        if self._closing.is_set():
            return
        self._closing.set()
        with self._lock:
            self._wake_locked()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(JOIN_TIMEOUT)
            if self._thread.is_alive():
                log.warning("%s: reader thread still running after %.0f s", self.path,
                            JOIN_TIMEOUT)
                return
        self._shut_port()
        self._state = "closed"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- hooks for subclasses (reader thread) ----------------------------------------

    def _opened(self, now: float) -> None:
        """The port was just opened."""

    def _received(self, data: bytes, now: float) -> None:
        """Bytes arrived."""

    def _idle(self, now: float) -> None:
        """Called after every read, with or without data (timeouts, presence checks)."""

    def _lost(self, reason: str) -> None:
        """The port was closed after an error or a stale link."""

    # -- for subclasses ------------------------------------------------------------------

    def _start(self) -> None:
        self._thread.start()

    def _emit(self, event: object) -> None:
        try:
            self._put(event)
        except Exception:  # a full queue or a bad callback must not kill the reader
            log.exception("%s: could not pass on %r", self.path, event)

    def _set_state(self, state: str, detail: str = "") -> None:
        """Change state; announce it as a LinkEvent unless that state was the last one announced."""
        self._state = state
        if state not in EVENT_STATES or state == self._reported:
            return
        self._reported = state
        log.log(logging.INFO if state == "up" else logging.WARNING,
                "%s: link %s: %s", self.path, state, detail)
        self._emit(LinkEvent(state, detail, self.path))

    def _reject(self, reason: str, raw: bytes) -> None:
        """Count and log one ignored line or frame (a warning at most every 10 s)."""
        self.stats.rejects[reason] = self.stats.rejects.get(reason, 0) + 1
        log.debug("%s: ignored (%s): %r", self.path, reason, bytes(raw[:80]))
        summary = self._reject_warnings.note(reason)
        if summary:
            log.warning("%s: ignored input from the device (%s); details at debug level",
                        self.path, summary)

    def _write_locked(self, data: bytes) -> bool:
        """Write while holding ``self._lock``; False if the port is closed or failed."""
        port = self._port
        if port is None or self._write_error is not None or self._closing.is_set():
            return False
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            # Only the reader thread closes the port: flag it and wake the thread.
            self._write_error = f"write failed: {exc}"
            self._wake_locked()
            return False
        return True

    def _write(self, data: bytes) -> bool:
        with self._lock:
            return self._write_locked(data)

    def _lose(self, reason: str, state: str = "down") -> None:
        """Close the port after trouble; the loop reopens it."""
        self._shut_port()
        self._lost(reason)
        self._set_state(state, reason)

    # -- the reader thread ---------------------------------------------------------------

    def _run(self) -> None:
        while not self._closing.is_set():
            try:
                self._step()
            except Exception:  # a bug must cost one reconnect, not the link for good
                log.exception("%s: reader failed; reopening the port", self.path)
                self._lose("internal error")
                self._closing.wait(self.retry_every)
        self._shut_port()
        self._state = "closed"

    def _step(self) -> None:
        port = self._port
        if port is None:
            port = self._open()
            if port is None:
                self._closing.wait(self.retry_every)
                return
        try:
            waiting = getattr(port, "in_waiting", 0)
            data = port.read(min(max(1, waiting), 4096))
            if data and not waiting:  # woken by a line's first byte: take the rest now,
                more = getattr(port, "in_waiting", 0)  # not on one more turn of the loop
                if more:
                    data += port.read(min(more, 4096))
        except (serial.SerialException, OSError) as exc:
            self._lose(f"read failed: {exc}")
            return
        if self._closing.is_set():
            return
        now = self._clock()
        if data:
            self._received(bytes(data), now)
        if self._write_error is not None:
            self._lose(self._write_error)
        elif self._port is not None:
            self._idle(now)

    def _open(self) -> SerialPort | None:
        try:
            port = self._opener(self.path, self.baud)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._set_state("down", f"cannot open {self.path}: {exc}")
            return None
        with self._lock:
            self._port = port
            self._write_error = None
        if self._opened_before:
            self.stats.reconnects += 1
        self._opened_before = True
        log.debug("%s: port open", self.path)
        self._opened(self._clock())
        return port

    def _shut_port(self) -> None:
        with self._lock:
            port, self._port = self._port, None
            self._write_error = None
            if port is not None:
                try:
                    port.close()
                except Exception:  # closing a vanished device may fail; it is gone anyway
                    log.debug("%s: error closing the port", self.path, exc_info=True)

    def _wake_locked(self) -> None:
        """Make a blocked read return now (pyserial's cancel_read), if the port can."""
        cancel = getattr(self._port, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()
            except Exception:
                log.debug("%s: cancel_read failed", self.path, exc_info=True)


class SerialLink(ReconnectingPort):
    """The Pico co-processor over USB serial (see ``firmware/PROTOCOL.md``).

    Events passed to ``put``: :class:`~companion.inputs.Tag` for each tag arriving,
    :class:`TagOff` for each leaving, :class:`LinkEvent` for state changes.
    :meth:`send_leds`, :meth:`set_brightness` and :meth:`ping` may be called from any
    thread at any time; while the link is not up they only remember the value.
    """

    thread_name = "pico-link"

    def __init__(
        self,
        path: str,
        baud: int,
        put: Put,
        *,
        clock: Callable[[], float] = time.monotonic,
        opener: Opener | None = None,
        stale_after: float = protocol.STALE_AFTER,
    ) -> None:
        super().__init__(path, baud, put, clock=clock, opener=opener)
        self.stale_after = stale_after
        self._ask_every = min(ASK_AGAIN, stale_after / 2)  # two tries before "stale"
        self._lines = protocol.LineBuffer()
        self._peer = protocol.SeqTracker()
        self._hello: dict[str, Any] | None = None
        self._last_valid = clock()
        self._asked_at = self._last_valid
        self._sent_at = self._last_valid  # our last line, for the keepalive
        self._at_repl = False  # our own lines came back since the last HELLO
        self._reset_at = float("-inf")
        self._error_warnings = _Throttle(clock)
        self._nak_warnings = _Throttle(clock)
        # Guarded by self._lock: our numbering, the latest values and what carried them.
        self._seq = 0
        self._frame: tuple[tuple[int, int, int], ...] | None = None
        # While the device blinks by itself: (second frame, half-period ms); _frame is the first.
        self._blink: tuple[tuple[tuple[int, int, int], ...], int] | None = None
        self._fields: dict[tuple[tuple[int, int, int], ...], str] = {}  # frame -> LED field
        self._brightness: int | None = None
        self._carrier: dict[str, int] = {}  # "LED"/"BRI" -> seq of the line that last sent it
        self._retried: dict[str, bool] = {}  # ... and whether a NAK already got its one resend
        self._mismatch_warned: tuple[int, int] | None = None
        self._start()

    # -- public ------------------------------------------------------------------------

    @property
    def hello(self) -> dict[str, Any] | None:
        """The device's last HELLO (fw, proto, proto_minor, readers, pixels), or None."""
        return None if self._hello is None else dict(self._hello)

    @property
    def can_blink(self) -> bool:
        """Whether the device is up and alternates two frames by itself (protocol 1.1:
        BLINK); older firmware gets every phase of a blink as a frame of its own."""
        hello = self._hello
        return (self._state == "up" and hello is not None and hello["proto"] == protocol.PROTO
                and hello["proto_minor"] >= 1)

    def send_leds(self, pixels: Sequence[Sequence[int]]) -> None:
        """Show ``pixels`` ((r, g, b) in physical chain order) now, or as soon as the link is up."""
        frame = self._spelt(pixels)
        with self._lock:
            self._frame = frame
            self._blink = None
            self._retried["LED"] = False
            if self._state == "up":
                self._send_frame_locked()

    def send_blink(self, first: Sequence[Sequence[int]], second: Sequence[Sequence[int]],
                   period_ms: int) -> None:
        """Alternate ``first`` and ``second`` every ``period_ms``, ``first`` now, until the
        next frame: the device keeps the time (see :attr:`can_blink`). A device that cannot
        blink is sent ``first``, and is sent the blink again after a HELLO that can."""
        if not protocol.BLINK_MIN_MS <= period_ms <= protocol.BLINK_MAX_MS:
            raise ValueError(f"blink period {period_ms} ms is not {protocol.BLINK_MIN_MS}-"
                             f"{protocol.BLINK_MAX_MS}")
        one, two = self._spelt(first), self._spelt(second)
        if len(one) != len(two) or len(one) > BLINK_PIXELS:
            raise ValueError(f"blink frames of {len(one)} and {len(two)} pixels; a line "
                             f"carries two of at most {BLINK_PIXELS}")
        with self._lock:
            self._frame = one
            self._blink = (two, period_ms)
            self._retried["LED"] = False
            if self._state == "up":
                self._send_frame_locked()

    def _spelt(self, pixels: Sequence[Sequence[int]]) -> tuple[tuple[int, int, int], ...]:
        """``pixels`` as a frame whose LED field is kept: a blink alternates two frames,
        each checked and spelt once."""
        frame = tuple((r, g, b) for r, g, b in pixels)
        if frame not in self._fields:
            field = protocol.led_fields(frame)  # a bad colour: raise here, not later
            if len(frame) > MAX_PIXELS:
                raise ValueError(f"{len(frame)} pixels; a line carries at most {MAX_PIXELS}")
            if len(self._fields) >= FIELDS_KEPT:
                self._fields.clear()
            self._fields[frame] = field
        return frame

    def set_brightness(self, level: int) -> None:
        """Cap the brightness of every pixel (0-255), now or as soon as the link is up."""
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255:
            raise ValueError(f"brightness {level!r} is not 0-255")
        with self._lock:
            self._brightness = level
            self._retried["BRI"] = False
            if self._state == "up":
                self._send_brightness_locked()

    def ping(self) -> bool:
        """Ask the device for an ACK (any line keeps the link fresh); False if not sent."""
        with self._lock:
            return self._send_locked("PING") is not None

    # -- writing (all with self._lock held) ----------------------------------------------

    def _send_locked(self, kind: str, *fields: str, spelt: bool = False) -> int | None:
        """``spelt``: the fields were built and checked by the codec already (a kept LED
        field), so only the numbering and the CRC are new: the line is sealed as
        ``protocol.seal`` does, with the same CRC computed in C (``binascii.crc_hqx`` is
        CRC-16/CCITT-FALSE from 0xFFFF; the codec's own loop is for the Pico)."""
        seq = self._seq
        if spelt:
            body = " ".join((str(seq), kind, *fields)).encode()
            line = body + b"*%04X\n" % binascii.crc_hqx(body, 0xFFFF)
        else:
            line = protocol.encode(seq, kind, *fields)
        if not self._write_locked(line):
            return None
        self._seq = protocol.next_seq(seq)
        self._sent_at = self._clock()
        return seq

    def _send_frame_locked(self) -> None:
        if self._frame is None:
            return
        pixels = (self._hello or {}).get("pixels")
        if pixels is not None and pixels != len(self._frame):
            # The device would NAK it: say so once instead of sending it.
            if self._mismatch_warned != (len(self._frame), pixels):
                self._mismatch_warned = (len(self._frame), pixels)
                log.warning("%s: LED frame has %d pixels but the device drives %d; not sent",
                            self.path, len(self._frame), pixels)
            return
        field = self._fields.get(self._frame) or protocol.led_fields(self._frame)
        if self._blink is not None and self.can_blink:
            second, period = self._blink
            other = self._fields.get(second) or protocol.led_fields(second)
            seq = self._send_locked("BLINK", str(period), field, other, spelt=True)
        else:
            seq = self._send_locked("LED", field, spelt=True)
        if seq is not None:
            self._carrier["LED"] = seq

    def _send_brightness_locked(self) -> None:
        if self._brightness is None:
            return
        seq = self._send_locked("BRI", str(self._brightness))
        if seq is not None:
            self._carrier["BRI"] = seq

    # -- hooks (reader thread) -----------------------------------------------------------

    def _opened(self, now: float) -> None:
        self._lines.clear()  # the head of a partial line went with the old connection
        self._peer.reset()
        self._hello = None
        self._last_valid = now
        if self._state != "stale":  # after a stale link, "stale" it stays until a HELLO
            self._state = "connecting"
        self._ask(now)

    def _lost(self, reason: str) -> None:
        self._hello = None
        self._lines.clear()

    def _idle(self, now: float) -> None:
        if now - self._last_valid >= self.stale_after:
            self._lose(f"no valid line for {self.stale_after:g} s", state="stale")
        elif self._hello is None and self._at_repl and now - self._reset_at >= RESET_AGAIN:
            self._soft_reset(now)
        elif self._hello is None and now - self._asked_at >= self._ask_every:
            self._ask(now)  # lines but no HELLO: our HELLO? went missing
        elif self._hello is not None and now - self._sent_at >= protocol.KEEPALIVE:
            with self._lock:  # the firmware goes quiet after a silent host (PROTOCOL.md)
                self._send_locked("PING")

    def _soft_reset(self, now: float) -> None:
        self._reset_at = self._asked_at = now
        self._at_repl = False
        self.stats.soft_resets += 1
        log.warning("%s: the co-processor is at its MicroPython prompt: soft-resetting it",
                    self.path)
        with self._lock:
            self._write_locked(SOFT_RESET)

    def _ask(self, now: float) -> None:
        self._asked_at = now
        with self._lock:
            self._send_locked("HELLO?")

    def _received(self, data: bytes, now: float) -> None:
        for line in self._lines.feed(data):
            self._line(line, now)

    # -- one line from the device ----------------------------------------------------------

    def _line(self, line: bytes, now: float) -> None:
        if not line.strip():
            return  # blank lines (a REPL's bare "\r\n") carry nothing worth counting
        try:
            msg = protocol.decode(line)
        except ProtocolError as exc:
            msg = protocol.salvage(line) if exc.reason != "too long" else None
            if msg is None:
                self._reject(exc.reason, line)
                return
            self._reject("noise", line)  # noise glued in front of a good line
        if msg.kind not in protocol.DEVICE_KINDS:
            self._reject("echo", line)  # our own command: the device is at its REPL
            self._at_repl = self._hello is None
            return
        if msg.kind == "HELLO":
            self._peer.reset()  # a HELLO starts the device's numbering afresh
        order = self._peer.feed(msg.seq)
        self.stats.lost = self._peer.lost
        if order == "duplicate":
            self.stats.duplicates += 1
            log.debug("%s: duplicate line dropped: %r", self.path, line)
            return
        self.stats.lines_ok += 1
        self._last_valid = now
        handler = getattr(self, "_on_" + msg.kind.lower())
        handler(msg)

    def _on_hello(self, msg: protocol.Message) -> None:
        info = protocol.parse_hello(msg.fields)
        self._hello = info
        self._at_repl = False
        proto = f"{info['proto']}.{info['proto_minor']}" if info["proto_minor"] else info["proto"]
        detail = f"fw={info['fw']} proto={proto} readers={info['readers']} pixels={info['pixels']}"
        if info["proto"] != protocol.PROTO:
            self._set_state(
                "version", f"device speaks {detail}; this host speaks proto={protocol.PROTO}, "
                           "so it will not drive the LEDs")
            return
        self._set_state("up", detail)
        with self._lock:  # a rebooted or replugged device forgot everything: tell it again
            self._retried.clear()
            self._send_brightness_locked()
            self._send_frame_locked()

    def _on_tag(self, msg: protocol.Message) -> None:
        pad, uid, on = protocol.parse_tag(msg.fields)
        if self._state == "version":
            log.debug("%s: tag from an unsupported protocol ignored: %r", self.path, msg)
            return
        # Only a device that said who it is may tap, and only on pads it announced.
        if self._hello is None:
            self._reject("tag before hello", f"pad {pad} {uid}".encode())
            return
        if pad > self._hello["readers"]:
            self._reject("no such pad", f"pad {pad} of {self._hello['readers']}".encode())
            return
        self._emit(Tag(pad, uid) if on else TagOff(pad, uid))

    def _on_hb(self, msg: protocol.Message) -> None:
        pass  # being a valid line is all a heartbeat has to do

    def _on_err(self, msg: protocol.Message) -> None:
        code, text = protocol.parse_err(msg.fields)
        self.stats.device_errors[code] = self.stats.device_errors.get(code, 0) + 1
        log.debug("%s: device error %s: %s", self.path, code, text)
        summary = self._error_warnings.note(code)
        if summary:
            log.warning("%s: device reports %s (last: %s %s)", self.path, summary, code, text)

    def _on_ack(self, msg: protocol.Message) -> None:
        self.stats.acks += 1

    def _on_nak(self, msg: protocol.Message) -> None:
        seq, reason = protocol.parse_nak(msg.fields)
        self.stats.naks += 1
        log.debug("%s: device refused line %d: %s", self.path, seq, reason)
        with self._lock:
            kind = next((k for k, s in self._carrier.items() if s == seq), None)
            if kind is not None and not self._retried.get(kind):
                # The latest value, once: if that is refused too, wait for the next one.
                self._retried[kind] = True
                self.stats.resends += 1
                if kind == "LED":
                    self._send_frame_locked()
                else:
                    self._send_brightness_locked()
                return
        summary = self._nak_warnings.note(reason)
        if summary:
            log.warning("%s: device refused lines (%s)", self.path, summary)
