"""A fake Pico co-processor that speaks ``firmware/PROTOCOL.md`` on a pseudo-terminal.

The host opens :attr:`FakePico.path` with pyserial exactly as it opens
``/dev/companion-io``, so the real :class:`~companion.hardware.link.SerialLink`, its
thread and pyserial itself are exercised. Like the udev symlink, ``path`` is a
symlink to the current pty: :meth:`unplug` closes the pty and removes the link (the
host's port vanishes as when the USB cable is pulled), :meth:`replug` boots a new pty
behind the same path.

The fake plays the firmware's part: it says HELLO on boot and when asked, sends a
heartbeat, answers every host line with ACK or NAK, and records what the host sent
(:attr:`commands`, :attr:`frames`, :attr:`brightness`). Tests and the simulator drive
it with :meth:`tap`, :meth:`lift`, :meth:`send_raw`, :meth:`heartbeat`, :meth:`freeze`
and :meth:`nak_next`, and wait on it with :meth:`wait_until`.
"""

from __future__ import annotations

import logging
import os
import select
import shutil
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from typing import Self

from companion.hardware import protocol
from companion.hardware.protocol import ProtocolError

log = logging.getLogger(__name__)

Pixel = tuple[int, int, int]
WRITE_PATIENCE = 0.5  # seconds a write waits for the host to make room in the pty


class FakePico:
    """A Pico with ``readers`` reader pads and ``pixels`` LEDs, behind the symlink :attr:`path`."""

    def __init__(
        self,
        readers: int = 3,
        pixels: int = 25,  # the reference chain: the board's 24 and the turn pixel
        fw: str = "fake-1",
        *,
        hb_interval: float = protocol.HEARTBEAT,
        proto: str = f"{protocol.PROTO}.{protocol.PROTO_MINOR}",
        name: str = "companion-io",
    ) -> None:
        self.readers = readers
        self.pixels = pixels
        self.fw = fw
        self.proto = proto  # a string, so a test can announce "2" or "1.3"
        minor = proto.partition(".")[2]
        self._minor = int(minor) if minor.isdigit() else 0  # 1 and up: it can BLINK
        self.hb_interval = hb_interval
        # Records of what the host did; read them under wait_until or after it.
        self.commands: list[protocol.Message] = []  # every valid host line, in order
        self.frames: list[tuple[Pixel, ...]] = []  # every LED frame accepted
        # The BLINK on show: (half-period s, first, second, since monotonic), or None.
        self.blinking: tuple[float, tuple[Pixel, ...], tuple[Pixel, ...], float] | None = None
        self.blinks = 0  # BLINK lines accepted
        self.brightness: int | None = None
        self.rejects: list[str] = []  # reasons for host lines the fake refused
        self.boots = 0
        self.dropped = 0  # bytes the pty would not take (no host reading)
        self._dir = tempfile.mkdtemp(prefix="fake-pico-")
        self.path = os.path.join(self._dir, name)
        self.tty: str | None = None  # the current pty behind path, None while unplugged
        self._cond = threading.Condition()  # guards the fds, the records and the settings
        self._master: int | None = None
        self._slave: int | None = None
        self._seq = 0
        self._booted_at = time.monotonic()
        self._next_hb = 0.0
        self._heartbeat = True
        self._frozen = False
        self._at_repl = False
        self.soft_resets = 0
        self._stalled = False  # the last write found the pty full
        self._naks: dict[str, list[str]] = {}  # kind -> reasons for the next lines of that kind
        self._lines = protocol.LineBuffer()
        self._host = protocol.SeqTracker()
        self._requests: list[tuple[Callable[[], None], threading.Event]] = []
        self._stopping = False
        self._closed = False
        self._wake_r, self._wake_w = os.pipe()
        try:
            self._plug()
        except BaseException:
            os.close(self._wake_r)
            os.close(self._wake_w)
            shutil.rmtree(self._dir, ignore_errors=True)
            raise
        self._thread = threading.Thread(target=self._run, name="fake-pico", daemon=True)
        self._thread.start()

    # -- what a player or a test does ------------------------------------------------------

    def tap(self, pad: int, uid: str) -> None:
        """A tag arrives on ``pad``: the firmware sends ``TAG <pad> <uid> ON``."""
        self._send("TAG", *protocol.tag_fields(self._pad(pad), uid, True))

    def lift(self, pad: int, uid: str) -> None:
        """The tag leaves ``pad`` (already debounced): ``TAG <pad> <uid> OFF``."""
        self._send("TAG", *protocol.tag_fields(self._pad(pad), uid, False))

    def send(self, kind: str, *fields: str) -> None:
        """Send any valid device line, numbered in turn (ERR, an extra HELLO ...)."""
        self._send(kind, *fields)

    def send_raw(self, data: bytes) -> None:
        """Put bytes on the wire as they are: noise, REPL banners, broken lines."""
        with self._cond:
            self._write_locked(bytes(data))

    def skip(self, count: int = 1) -> None:
        """Lose ``count`` lines: the next line's number jumps, as if they never arrived."""
        with self._cond:
            self._seq = (self._seq + count) % protocol.SEQ_MOD

    def heartbeat(self, on: bool) -> None:
        """Start or stop the 1 s HB lines (everything else keeps working)."""
        with self._cond:
            self._heartbeat = on
            self._next_hb = time.monotonic()
        self._wake()

    def freeze(self, on: bool) -> None:
        """Hang (or resume) the firmware's main loop: no heartbeat, no answers, no HELLO."""
        with self._cond:
            self._frozen = on
            self._next_hb = time.monotonic()
        self._wake()

    def drop_to_repl(self) -> None:
        """The firmware stops (an exception, a Ctrl-C): MicroPython's REPL echoes every
        byte it gets and says nothing of its own, until a Ctrl-D soft-resets it, which
        runs the firmware again (a new HELLO)."""
        with self._cond:
            self._at_repl = True
            self._write_locked(b"Traceback (most recent call last):\r\n"
                               b"KeyboardInterrupt: \r\n>>> ")
        self._wake()

    @property
    def at_repl(self) -> bool:
        return self._at_repl

    def nak_next(self, kind: str = "LED", reason: str = "BUSY", count: int = 1) -> None:
        """Refuse the next ``count`` host lines of ``kind`` with ``NAK <seq> <reason>``."""
        with self._cond:
            self._naks.setdefault(kind, []).extend([reason] * count)

    def unplug(self) -> None:
        """Pull the USB cable: the pty closes and :attr:`path` disappears."""
        self._call(self._unplug)

    def replug(self) -> None:
        """Plug it back in: a new pty behind :attr:`path`, and the firmware boots (HELLO)."""
        self._call(self._replug)

    # -- what a test reads -------------------------------------------------------------

    @property
    def plugged(self) -> bool:
        return self.tty is not None

    @property
    def frame(self) -> tuple[Pixel, ...] | None:
        """The LED frame on show now (a blink's frame due now), or None before the first."""
        return self.frame_at(time.monotonic())

    def frame_at(self, when: float) -> tuple[Pixel, ...] | None:
        """The frame on show at monotonic time ``when`` (not before the last line)."""
        with self._cond:
            if self.blinking is not None:
                period, first, second, since = self.blinking
                return first if protocol.blink_shows_first(period, since, when) else second
            return self.frames[-1] if self.frames else None

    @property
    def kinds(self) -> list[str]:
        """The kinds of the host lines received so far, e.g. ["HELLO?", "BRI", "LED"]."""
        with self._cond:
            return [msg.kind for msg in self.commands]

    def forget(self) -> None:
        """Drop the records kept for asserts (all but the frame on show): a bench that
        runs for hours measures the daemon's memory, not its fake's."""
        with self._cond:
            del self.commands[:]
            del self.frames[:-1]

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 2.0) -> bool:
        """Wait until ``predicate()`` holds (checked whenever the host sends something)."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    def close(self) -> None:
        """Unplug for good and free the pty, the thread and the temp dir; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._call(self._stop)
        self._thread.join(2.0)
        if self._thread.is_alive():
            log.warning("fake Pico thread did not stop")
            return
        os.close(self._wake_r)
        os.close(self._wake_w)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = self.tty or "unplugged"
        return f"FakePico({self.path} -> {state}, readers={self.readers}, pixels={self.pixels})"

    # -- the pty ---------------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, no CR/LF mapping: bytes pass unchanged
        os.set_blocking(master, False)  # a full pty drops bytes instead of hanging the fake
        name = os.ttyname(slave)
        link = self.path + ".new"
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(name, link)
        os.replace(link, self.path)  # re-point atomically, as udev does
        with self._cond:
            self._master, self._slave, self.tty = master, slave, name
            self._seq = 0
            self._stalled = False
            self._booted_at = time.monotonic()
            self._next_hb = self._booted_at + self.hb_interval
            self._lines.clear()
            self._host.reset()
            self.boots += 1
            self._cond.notify_all()
        log.debug("fake Pico booted on %s (%s)", name, self.path)
        if not self._frozen:
            self._send_hello()

    def _unplug(self) -> None:
        with self._cond:
            if self._master is None:
                return
            if os.path.lexists(self.path):
                os.unlink(self.path)
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = self.tty = None
            self._cond.notify_all()
        log.debug("fake Pico unplugged")

    def _replug(self) -> None:
        self._unplug()
        self._plug()

    def _stop(self) -> None:
        self._unplug()
        self._stopping = True

    # -- the firmware's loop (fake thread) ------------------------------------------------

    def _run(self) -> None:
        while not self._stopping:
            with self._cond:
                master = self._master
                beating = self._heartbeat and not self._frozen and master is not None
                timeout = max(0.0, self._next_hb - time.monotonic()) if beating else None
            fds = [self._wake_r] if master is None else [self._wake_r, master]
            ready, _, _ = select.select(fds, [], [], timeout)
            if self._wake_r in ready:
                os.read(self._wake_r, 512)
                self._serve_requests()
                continue  # the pty may have changed under us
            if master is not None and master in ready:
                try:
                    data = os.read(master, 4096)
                except OSError:  # nothing to read after all, or the pty is going away
                    data = b""
                if self._at_repl:
                    self._repl(data)
                    continue
                for line in self._lines.feed(data):
                    try:
                        self._command(line)
                    except Exception:  # a fake that dies mid-test hides the real failure
                        log.exception("fake Pico failed on %r", line)
            self._beat()

    def _repl(self, data: bytes) -> None:
        """MicroPython's friendly REPL: echo, and Ctrl-D soft-resets into the firmware."""
        with self._cond:
            self._write_locked(data.replace(b"\n", b"\r\n"))
            if b"\x04" not in data:
                return
            self._at_repl = False
            self.soft_resets += 1
            self.boots += 1
            self._seq = 0
            self._booted_at = time.monotonic()
            self._lines.clear()
            self._host.reset()
            self._write_locked(b"MPY: soft reboot\r\n")
        self._send_hello()

    def _beat(self) -> None:
        with self._cond:
            now = time.monotonic()
            if not self._heartbeat or self._frozen or self._at_repl or now < self._next_hb:
                return
            self._next_hb = now + self.hb_interval
            uptime = int((now - self._booted_at) * 1000)
        self._send("HB", str(uptime))

    def _command(self, line: bytes) -> None:
        if self._frozen or not line.strip():
            return
        try:
            msg = protocol.decode(line)
        except ProtocolError as exc:
            self._refuse_line(line, exc.reason)
            return
        if msg.kind not in protocol.HOST_KINDS:
            self._refuse_line(line, "unexpected")
            return
        if msg.kind == "HELLO?":
            self._host.reset()  # the host (re)started talking: its numbering starts afresh
        if self._host.feed(msg.seq) == "duplicate":
            self._send("ACK", str(msg.seq))  # answered again, not applied twice
            return
        with self._cond:
            self.commands.append(msg)
            forced = self._naks.get(msg.kind)
            reason = forced.pop(0) if forced else None
            self._cond.notify_all()
        if reason is not None:
            self._send("NAK", *protocol.nak_fields(msg.seq, reason))
            return
        try:
            self._apply(msg)
        except ProtocolError as exc:
            self._send("NAK", *protocol.nak_fields(msg.seq, protocol.reason_code(exc.reason)))
            return
        self._send("ACK", str(msg.seq))

    def _apply(self, msg: protocol.Message) -> None:
        if msg.kind == "LED":
            frame = tuple(protocol.parse_led(msg.fields[0], self.pixels))
            with self._cond:
                self.frames.append(frame)
                self.blinking = None
                self._cond.notify_all()
        elif msg.kind == "BLINK" and self._minor >= 1:
            period, first, second = protocol.parse_blink(msg.fields, self.pixels)
            with self._cond:
                self.blinking = (period / 1000, tuple(first), tuple(second), time.monotonic())
                self.blinks += 1
                self._cond.notify_all()
        elif msg.kind == "BLINK":  # a fake of firmware 1.0 never heard of it
            raise ProtocolError("unknown type")
        elif msg.kind == "BRI":
            level = protocol.parse_bri(msg.fields)
            with self._cond:
                self.brightness = level
                self._cond.notify_all()
        elif msg.kind == "HELLO?":
            self._send_hello()
        # PING needs nothing but the ACK.

    def _refuse_line(self, line: bytes, reason: str) -> None:
        with self._cond:
            self.rejects.append(reason)
            self._cond.notify_all()
        seq = protocol.leading_seq(line)
        if seq is None:  # no number to answer to: report it instead
            self._send("ERR", *protocol.err_fields("BAD_LINE", reason))
        else:
            self._send("NAK", *protocol.nak_fields(seq, protocol.reason_code(reason)))

    # -- sending ---------------------------------------------------------------------------

    def _send_hello(self) -> None:
        self._send("HELLO", *protocol.hello_fields(self.fw, self.readers, self.pixels, self.proto))

    def _send(self, kind: str, *fields: str) -> None:
        with self._cond:
            if self._master is None or self._frozen or self._at_repl:
                return  # unplugged, hung, or at the REPL: the firmware says nothing
            line = protocol.encode(self._seq, kind, *fields)
            self._seq = protocol.next_seq(self._seq)
            self._write_locked(line)

    def _write_locked(self, data: bytes) -> None:
        # Like USB CDC: wait a little for a slow reader, then drop what does not fit.
        # Once a wait has failed nobody is reading, so drop at once until the pty drains.
        deadline = time.monotonic() + (0.0 if self._stalled else WRITE_PATIENCE)
        while data and self._master is not None:
            try:
                data = data[os.write(self._master, data):]
                continue
            except BlockingIOError:
                pass
            except OSError:  # hung up: the rest is lost
                break
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [self._master], [], left)[1]:
                break
        self._stalled = bool(data)
        self.dropped += len(data)

    def _pad(self, pad: int) -> int:
        if not 1 <= pad <= self.readers:
            raise ValueError(f"pad {pad}: this Pico has readers 1-{self.readers}")
        return pad

    # -- running things on the fake thread ------------------------------------------------

    def _call(self, action: Callable[[], None]) -> None:
        """Run ``action`` on the fake thread, which alone opens and closes the pty."""
        if not self._thread.is_alive() or threading.current_thread() is self._thread:
            action()
            return
        done = threading.Event()
        with self._cond:
            self._requests.append((action, done))
        self._wake()
        if not done.wait(5.0):
            raise TimeoutError("the fake Pico thread did not answer")

    def _serve_requests(self) -> None:
        with self._cond:
            requests, self._requests = self._requests, []
        for action, done in requests:
            try:
                action()
            finally:
                done.set()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except OSError:  # closed: the thread is gone anyway
            pass
