"""The device's side of the Pi <-> Pico link (``PROTOCOL.md``), without any I/O.

:class:`DeviceLink` numbers and writes the device's lines (HELLO, TAG, HB, ERR,
ACK, NAK) through a ``write(bytes)`` callable, frames the host's bytes into lines
and answers each with exactly one ACK or NAK. What a host line *does* is left to
callbacks, ``on_led(pixels)``, ``on_bri(level)`` and ``on_blink(...)``, so the rules
live here and the hardware stays in ``main.py``. Time is always passed in (ms), never read.

The codec is ``protocol.py``, the very file the host uses, copied next to this one.
"""

import protocol
from protocol import ProtocolError

HEARTBEAT_MS = int(protocol.HEARTBEAT * 1000)
INTERNAL_EVERY_MS = 1000  # at most one ERR INTERNAL per second; the rest are counted


class Busy(Exception):
    """Raised by an ``on_led``/``on_bri`` callback that could not apply the line now.

    The host line is answered ``NAK <seq> BUSY``; the callback has already said why
    (e.g. an ``ERR LED_FAIL``).
    """


def describe(exc):
    """An exception as one short line: ``OSError: [Errno 5] EIO``."""
    text = str(exc)
    name = type(exc).__name__
    return name + ": " + text if text else name


class DeviceLink:
    """One end of the link. ``fw``, ``readers`` and ``pixels`` are what HELLO announces."""

    def __init__(self, write, fw, readers, pixels, on_led=None, on_bri=None, on_blink=None):
        self._write = write
        self.fw = fw
        self.readers = readers
        self.pixels = pixels
        self.on_led = on_led
        self.on_bri = on_bri
        self.on_blink = on_blink  # (period ms, first, second, now ms)
        self.seq = 0  # the number of our next line
        self.lines = protocol.LineBuffer()
        self.host = protocol.SeqTracker()
        self.rejects = {}  # reason -> host lines refused, for the curious at the REPL
        self.applied = 0
        self.heard_at = None  # when the host last sent a valid line (ms), None: never
        self._next_hb = None
        self._internal_at = None
        self._internal_hidden = 0

    # -- what the device says ------------------------------------------------------------

    def send(self, kind, *fields):
        """Write one line of ``kind`` with the next sequence number."""
        line = protocol.encode(self.seq, kind, *fields)
        self.seq = protocol.next_seq(self.seq)
        self._write(line)

    def write_raw(self, data):
        """Bytes that are not a protocol line (the host ignores them as noise)."""
        self._write(data)

    def hello(self):
        self.send("HELLO", *protocol.hello_fields(self.fw, self.readers, self.pixels))

    def tag(self, pad, uid, on):
        """``uid``: uppercase hex of the full UID."""
        self.send("TAG", *protocol.tag_fields(pad, uid, on))

    def error(self, code, text=""):
        self.send("ERR", *protocol.err_fields(code, text))

    def internal(self, exc, now):
        """Report an exception the main loop caught; at most one line per second."""
        if self._internal_at is not None and now - self._internal_at < INTERNAL_EVERY_MS:
            self._internal_hidden += 1
            return
        text = describe(exc)
        if self._internal_hidden:
            text = "%s (and %d more since the last report)" % (text, self._internal_hidden)
        self._internal_at = now
        self._internal_hidden = 0
        self.error("INTERNAL", text)

    def start(self, now):
        """Start the heartbeat clock: the first HB goes out a period after ``now``."""
        self._next_hb = now + HEARTBEAT_MS

    def heartbeat(self, now):
        """Send ``HB <now>`` if one is due. After a stall, one HB, not a burst."""
        if self._next_hb is None:
            self.start(now)
            return
        if now < self._next_hb:
            return
        self.send("HB", str(now))
        self._next_hb += HEARTBEAT_MS
        if self._next_hb <= now:
            self._next_hb = now + HEARTBEAT_MS

    # -- what the host says ---------------------------------------------------------------

    def feed(self, data, now=0):
        """Handle the host's bytes; complete lines are answered at once."""
        for line in self.lines.feed(data):
            self.handle(line, now)

    def handle(self, line, now=0):
        """Answer one host line (without its newline) with one ACK or NAK."""
        if not line.strip():
            return  # a bare newline carries nothing to answer
        try:
            msg = protocol.decode(line)
        except ProtocolError as exc:
            msg = protocol.salvage(line) if exc.reason != "too long" else None
            if msg is None:
                self._refuse(line, exc.reason)
                return
        if msg.kind in protocol.HOST_KINDS:
            self.heard_at = now  # a host is there, whatever it asks
        else:
            self._count("unexpected")
            self.send("NAK", *protocol.nak_fields(msg.seq, "UNEXPECTED"))
            return
        if msg.kind == "HELLO?":
            self.host.reset()  # the host (re)started: its numbering starts afresh
        if self.host.feed(msg.seq) == "duplicate":
            self.send("ACK", str(msg.seq))  # answered again, applied once
            return
        try:
            self._apply(msg, now)
        except ProtocolError as exc:
            self._count(exc.reason)
            self.send("NAK", *protocol.nak_fields(msg.seq, protocol.reason_code(exc.reason)))
            return
        except Busy:
            self._count("busy")
            self.send("NAK", *protocol.nak_fields(msg.seq, "BUSY"))
            return
        except Exception as exc:  # a bug in a callback: still answer, then report it
            self._count("busy")
            self.send("NAK", *protocol.nak_fields(msg.seq, "BUSY"))
            self.internal(exc, now)
            return
        self.applied += 1
        self.send("ACK", str(msg.seq))

    def _apply(self, msg, now=0):
        if msg.kind == "LED":
            # "bad pixels" (NAK BAD_PIXELS) unless the frame fits the chain exactly
            pixels = protocol.parse_led(msg.fields[0], self.pixels)
            if self.on_led is not None:
                self.on_led(pixels)
        elif msg.kind == "BRI":
            level = protocol.parse_bri(msg.fields)
            if self.on_bri is not None:
                self.on_bri(level)
        elif msg.kind == "BLINK":
            period, first, second = protocol.parse_blink(msg.fields, self.pixels)
            if self.on_blink is not None:
                self.on_blink(period, first, second, now)
        elif msg.kind == "HELLO?":
            self.hello()  # HELLO first, then the ACK
        # PING: the ACK is the whole answer

    def _refuse(self, line, reason):
        """A line the codec rejected: NAK it if it has a number, else ERR BAD_LINE."""
        self._count(reason)
        seq = protocol.leading_seq(line)
        if seq is None:
            self.error("BAD_LINE", reason)
        else:
            self.send("NAK", *protocol.nak_fields(seq, protocol.reason_code(reason)))

    def _count(self, reason):
        self.rejects[reason] = self.rejects.get(reason, 0) + 1
