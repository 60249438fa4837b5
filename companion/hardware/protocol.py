"""The wire codec of the Pi <-> Pico link (``firmware/PROTOCOL.md`` is the contract).

One message per ASCII line: ``<seq> <TYPE> [fields...]*<crc>\\n``, where the CRC is
CRC-16/CCITT-FALSE over the bytes before the ``*``. This module is pure and is
copied unchanged onto the Pico, so it must also run on MicroPython: no dataclasses,
no typing, no annotations, no f-strings, only builtins. Types are in docstrings.

Both sides use the same pieces: :func:`encode` / :func:`decode`, a :class:`LineBuffer`
that frames a byte stream into lines, a :class:`SeqTracker` that counts lost lines,
and small builders/parsers for each message type. Every failure is a
:class:`ProtocolError` whose ``reason`` is a short fixed string, so a receiver can
count rejects by reason and a device can turn one into a NAK code (:func:`reason_code`).
"""

PROTO = 1  # major protocol version announced in HELLO
PROTO_MINOR = 1  # 1.1 adds BLINK: the device alternates two frames on its own timer
BLINK_MIN_MS = 50  # the shortest and longest half-period a BLINK line may ask for
BLINK_MAX_MS = 60000
HEARTBEAT = 1.0  # seconds between device HB lines
STALE_AFTER = 3.0  # seconds without a valid line before the host reopens the port
KEEPALIVE = 5.0  # the host sends a PING after this long with nothing else to say
MAX_LINE = 600  # bytes per line, not counting the "\r\n" / "\n" terminator
SEQ_MOD = 65536  # sequence numbers wrap from 65535 to 0
UID_BYTES = (4, 7, 10)  # ISO 14443-3 single, double and triple size UIDs

# Who may send what. A host that reads back its own LED line is looking at a
# MicroPython REPL echoing its input, not at the firmware.
DEVICE_KINDS = ("HELLO", "TAG", "HB", "ERR", "ACK", "NAK")
HOST_KINDS = ("LED", "BRI", "PING", "HELLO?", "BLINK")
KINDS = DEVICE_KINDS + HOST_KINDS

ERR_TEXT_MAX = 200  # free text in ERR lines is cut here, so a traceback still fits a line

_DIGITS = "0123456789"
_HEX = "0123456789ABCDEF"
_CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _make_table()  # 256 ints: a byte per lookup instead of 8 shifts, for the Pico


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (bytes): poly 0x1021, init 0xFFFF, no reflection.

    ``crc16(b"123456789") == 0x29B1``. Pass ``crc`` to continue over several chunks.
    """
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


class ProtocolError(ValueError):
    """A line or field that breaks the protocol; ``reason`` is a short fixed string."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def reason_code(reason):
    """The NAK/ERR code for a reject reason: ``"bad crc"`` -> ``"BAD_CRC"``."""
    return reason.upper().replace(" ", "_")


class Message:
    """One decoded line: ``seq`` (int), ``kind`` (str, e.g. "TAG"), ``fields`` (tuple of str)."""

    def __init__(self, seq, kind, fields=()):
        self.seq = seq
        self.kind = kind
        self.fields = tuple(fields)

    def encode(self):
        """The framed line (bytes, with its CRC and newline)."""
        return encode(self.seq, self.kind, *self.fields)

    def __eq__(self, other):
        if not isinstance(other, Message):
            return NotImplemented
        return (self.seq, self.kind, self.fields) == (other.seq, other.kind, other.fields)

    def __ne__(self, other):  # MicroPython does not derive != from ==
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self):
        return hash((self.seq, self.kind, self.fields))

    def __repr__(self):
        return "Message(%r, %r, %r)" % (self.seq, self.kind, self.fields)


# -- framing ---------------------------------------------------------------------------


def seal(body):
    """``body`` (str or bytes, e.g. "7 PING") with its ``*CRC`` and newline, as bytes.

    No checks: :func:`encode` is the safe way to build a line. This is for fakes and
    tests that must send lines the codec would refuse (unknown types, odd fields).
    """
    if isinstance(body, str):
        body = body.encode()
    return body + ("*%04X\n" % crc16(body)).encode()


def encode(seq, kind, *fields):
    """The complete line (bytes, ending in ``\\n``) for one message.

    Fields are converted with ``str``; the same checks as :func:`decode` apply, so a
    sender can never produce a line its peer rejects. Raises :class:`ProtocolError`.
    """
    if not _is_int(seq) or not 0 <= seq < SEQ_MOD:
        raise ProtocolError("bad seq")
    if kind not in KINDS:
        raise ProtocolError("unknown type")
    fields = tuple(str(field) for field in fields)
    for field in fields:
        if not _is_token(field):
            raise ProtocolError("bad fields")
    check_fields(kind, fields)
    body = " ".join((str(seq), kind) + fields)
    if len(body) + 5 > MAX_LINE:  # 5 = "*" and four hex digits
        raise ProtocolError("too long")
    return seal(body)


def decode(line):
    """The :class:`Message` in one line (bytes; a trailing ``\\n`` or ``\\r\\n`` is fine).

    Raises :class:`ProtocolError` with reason "too long", "not ascii", "no crc",
    "bad crc", "bad seq", "no type", "unknown type" or "bad fields", and nothing else.
    """
    line = bytes(line)
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError("too long")
    for byte in line:
        if byte < 0x20 or byte > 0x7E:  # control bytes, binary noise, UTF-8
            raise ProtocolError("not ascii")
    star = line.rfind(b"*")
    if star < 0:
        raise ProtocolError("no crc")
    body = line[:star]
    crc_text = line[star + 1:].decode()
    if len(crc_text) != 4 or not _all_in(crc_text, _HEX):
        raise ProtocolError("bad crc")
    if int(crc_text, 16) != crc16(body):
        raise ProtocolError("bad crc")
    tokens = body.decode().split(" ")
    if not _is_decimal(tokens[0], 5) or int(tokens[0]) >= SEQ_MOD:
        raise ProtocolError("bad seq")
    if len(tokens) < 2 or not tokens[1]:
        raise ProtocolError("no type")
    kind = tokens[1]
    if kind not in KINDS:
        raise ProtocolError("unknown type")
    fields = tuple(tokens[2:])
    for field in fields:
        if not field:  # two spaces in a row: not a line any encoder writes
            raise ProtocolError("bad fields")
    check_fields(kind, fields)
    return Message(int(tokens[0]), kind, fields)


def salvage(line):
    """The valid message at the end of a line that has noise in front of it, or None.

    A REPL prompt (``>>> ``), binary noise or the head of a line cut short glues
    itself to the next real line. The real line is still intact at the end, so try
    each place where a sequence number (1-5 digits and a space) could start, longest
    first; the CRC rules out false finds. Call it only for a line :func:`decode`
    rejected.
    """
    line = bytes(line).rstrip(b"\r\n")
    if len(line) > MAX_LINE or len(line) < 5 or line[-5] != 0x2A:  # must end in "*" and four hex digits
        return None
    tries = 0
    for start in range(1, len(line) - 5):
        end = start
        while end < len(line) and end - start <= 5 and _is_digit_byte(line[end]):
            end += 1
        if not 0 < end - start <= 5 or end == len(line) or line[end] != 0x20:
            continue
        try:
            return decode(line[start:])
        except ProtocolError:
            pass
        tries += 1
        if tries >= 24:  # a babbling device must not cost much CPU per line
            return None
    return None


def leading_seq(line):
    """The sequence number a rejected line starts with, or None (so it can be NAKed)."""
    digits = b""
    for byte in bytes(line)[:6]:
        if _is_digit_byte(byte):
            digits += bytes((byte,))
        else:
            break
    if not digits or len(digits) > 5 or int(digits) >= SEQ_MOD:
        return None
    return int(digits)


def next_seq(seq):
    """The sequence number after ``seq`` (65535 wraps to 0)."""
    return (seq + 1) % SEQ_MOD


class LineBuffer:
    """Frames a byte stream into lines: ``feed(data)`` returns the complete ones.

    Lines come back without their ``\\n`` (a ``\\r`` before it stays; :func:`decode`
    drops it). Memory stays bounded: a line longer than ``limit`` is kept only up to
    ``limit + 1`` bytes and the rest is skipped up to its newline, so it still comes
    back once, cut, and :func:`decode` rejects it as "too long".
    """

    def __init__(self, limit=MAX_LINE):
        self.limit = limit + 1  # room for a "\r"
        self._part = b""
        self._skipping = False

    def feed(self, data):
        """The complete lines (list of bytes) that ``data`` finishes."""
        lines = []
        data = bytes(data)
        while data:
            cut = data.find(b"\n")
            chunk = data if cut < 0 else data[:cut]
            if not self._skipping:
                room = self.limit + 1 - len(self._part)
                self._part += chunk[:room]
                if len(self._part) > self.limit:
                    self._skipping = True  # over-long: keep the cut head, drop the tail
            if cut < 0:
                break
            lines.append(self._part)
            self._part = b""
            self._skipping = False
            data = data[cut + 1:]
        return lines

    def clear(self):
        """Forget a partial line (after a reconnect, its head is gone)."""
        self._part = b""
        self._skipping = False


class SeqTracker:
    """Follows the other side's sequence numbers and counts what went missing.

    ``feed(seq)`` says what a newly received line is: "first" (no baseline yet),
    "ok" (the next one), "gap" (some lines were lost; ``lost`` grows by how many),
    "duplicate" (same number as the last line: drop it) or "behind" (an older
    number: the sender restarted without a HELLO; accept it as the new baseline).
    """

    def __init__(self):
        self.last = None
        self.lost = 0
        self.duplicates = 0
        self.restarts = 0

    def reset(self):
        """Start over (on a reconnect or a HELLO: the sender's numbering restarts)."""
        self.last = None

    def feed(self, seq):
        """Classify ``seq`` (see the class docstring) and remember it."""
        if self.last is None:
            self.last = seq
            return "first"
        step = (seq - self.last) % SEQ_MOD
        if step == 0:
            self.duplicates += 1
            return "duplicate"
        self.last = seq
        if step == 1:
            return "ok"
        if step < SEQ_MOD // 2:
            self.lost += step - 1
            return "gap"
        self.restarts += 1
        return "behind"


# -- fields of each message type -----------------------------------------------------------


def check_fields(kind, fields):
    """Raise ProtocolError("bad fields") unless ``fields`` (tuple of str) suit ``kind``."""
    if kind == "HELLO":
        parse_hello(fields)
    elif kind == "TAG":
        parse_tag(fields)
    elif kind == "HB":
        parse_hb(fields)
    elif kind == "ERR":
        parse_err(fields)
    elif kind == "ACK":
        parse_ack(fields)
    elif kind == "NAK":
        parse_nak(fields)
    elif kind == "LED":
        if len(fields) != 1:
            raise ProtocolError("bad fields")
        parse_led(fields[0])
    elif kind == "BRI":
        parse_bri(fields)
    elif kind == "BLINK":
        parse_blink(fields)
    elif kind in ("PING", "HELLO?"):
        if fields:
            raise ProtocolError("bad fields")
    else:
        raise ProtocolError("unknown type")


def hello_fields(fw, readers, pixels, proto="%d.%d" % (PROTO, PROTO_MINOR)):
    """Fields of a HELLO: ``("fw=<fw>", "proto=<proto>", "readers=<n>", "pixels=<n>")``."""
    return ("fw=%s" % fw, "proto=%s" % proto, "readers=%d" % readers, "pixels=%d" % pixels)


def parse_hello(fields):
    """A HELLO's fields as a dict: fw (str), proto (int, the major version),
    proto_minor (int, 0 if absent), readers (int), pixels (int), plus any other
    ``key=value`` pairs as strings (later minor versions may add some).
    """
    info = {}
    for field in fields:
        eq = field.find("=")
        if eq <= 0 or eq == len(field) - 1 or field[:eq] in info:
            raise ProtocolError("bad fields")
        info[field[:eq]] = field[eq + 1:]
    for key in ("fw", "proto", "readers", "pixels"):
        if key not in info:
            raise ProtocolError("bad fields")
    major, minor = info["proto"], ""
    dot = major.find(".")
    if dot >= 0:
        major, minor = major[:dot], major[dot + 1:]
        if not minor:
            raise ProtocolError("bad fields")
    if not _is_decimal(major, 4) or (minor and not _is_decimal(minor, 4)):
        raise ProtocolError("bad fields")
    info["proto"] = int(major)
    info["proto_minor"] = int(minor) if minor else 0
    for key in ("readers", "pixels"):
        if not _is_decimal(info[key], 4):
            raise ProtocolError("bad fields")
        info[key] = int(info[key])
    return info


def tag_fields(pad, uid, on):
    """Fields of a TAG line: pad (int from 1), uid (hex str), on (bool)."""
    fields = (str(pad), uid.upper(), "ON" if on else "OFF")
    parse_tag(fields)
    return fields


def parse_tag(fields):
    """``(pad, uid, on)`` from a TAG's fields; the UID is 4, 7 or 10 bytes of uppercase hex."""
    if len(fields) != 3:
        raise ProtocolError("bad fields")
    pad, uid, state = fields
    if not _is_decimal(pad, 3) or int(pad) < 1:
        raise ProtocolError("bad fields")
    if len(uid) % 2 or len(uid) // 2 not in UID_BYTES or not _all_in(uid, _HEX):
        raise ProtocolError("bad fields")
    if state not in ("ON", "OFF"):
        raise ProtocolError("bad fields")
    return int(pad), uid, state == "ON"


def parse_hb(fields):
    """The device's uptime in ms from an HB's fields."""
    if len(fields) != 1 or not _is_decimal(fields[0], 12):
        raise ProtocolError("bad fields")
    return int(fields[0])


def err_fields(code, text=""):
    """Fields of an ERR line; ``text`` is any str (cut and made printable here)."""
    if not code or not _all_in(code, _CODE_CHARS):
        raise ProtocolError("bad fields")
    clean = []
    for char in str(text)[:ERR_TEXT_MAX]:
        clean.append(char if " " <= char <= "~" else " ")
    return (code,) + tuple(word for word in "".join(clean).split(" ") if word)


def parse_err(fields):
    """``(code, text)`` from an ERR's fields."""
    if not fields or not fields[0] or not _all_in(fields[0], _CODE_CHARS):
        raise ProtocolError("bad fields")
    return fields[0], " ".join(fields[1:])


def parse_ack(fields):
    """The host sequence number an ACK answers."""
    if len(fields) != 1 or not _is_decimal(fields[0], 5) or int(fields[0]) >= SEQ_MOD:
        raise ProtocolError("bad fields")
    return int(fields[0])


def nak_fields(seq, reason):
    """Fields of a NAK: the host's seq and a reason code such as "BAD_CRC"."""
    fields = (str(seq), reason)
    parse_nak(fields)
    return fields


def parse_nak(fields):
    """``(seq, reason)`` from a NAK's fields (any words after the reason are ignored)."""
    if len(fields) < 2 or not fields[1] or not _all_in(fields[1], _CODE_CHARS):
        raise ProtocolError("bad fields")
    return parse_ack(fields[:1]), fields[1]


def led_fields(pixels):
    """The LED field: 6 uppercase hex digits RRGGBB per (r, g, b) pixel, chain order."""
    parts = []
    for pixel in pixels:
        if len(pixel) != 3:
            raise ProtocolError("bad fields")
        for channel in pixel:
            if not _is_int(channel) or not 0 <= channel <= 255:
                raise ProtocolError("bad fields")
        parts.append("%02X%02X%02X" % (pixel[0], pixel[1], pixel[2]))
    if not parts:
        raise ProtocolError("bad fields")
    return "".join(parts)


def parse_led(hexstr, count=None):
    """The (r, g, b) list in an LED field; ``count`` pixels if given, else "bad pixels"."""
    if not hexstr or len(hexstr) % 6 or not _all_in(hexstr, _HEX):
        raise ProtocolError("bad fields")
    if count is not None and len(hexstr) // 6 != count:
        raise ProtocolError("bad pixels")
    return [
        (int(hexstr[i:i + 2], 16), int(hexstr[i + 2:i + 4], 16), int(hexstr[i + 4:i + 6], 16))
        for i in range(0, len(hexstr), 6)
    ]


def blink_fields(period_ms, first, second):
    """Fields of a BLINK line: the half-period in ms and the two frames' LED fields
    (each as :func:`led_fields` spells it)."""
    fields = (str(period_ms), first, second)
    parse_blink(fields)
    return fields


def parse_blink(fields, count=None):
    """``(period_ms, first, second)`` from a BLINK's fields, each frame an (r, g, b)
    list; ``count`` pixels each if given, else "bad pixels". The two frames have the
    same length, and the period is BLINK_MIN_MS..BLINK_MAX_MS."""
    if len(fields) != 3 or not _is_decimal(fields[0], 5):
        raise ProtocolError("bad fields")
    period = int(fields[0])
    if not BLINK_MIN_MS <= period <= BLINK_MAX_MS or len(fields[1]) != len(fields[2]):
        raise ProtocolError("bad fields")
    return period, parse_led(fields[1], count), parse_led(fields[2], count)


def blink_shows_first(period_ms, since_ms, now_ms):
    """Whether a blink that started at ``since_ms`` shows its first frame at ``now_ms``:
    the first for one period, the second for the next, and so on."""
    return ((now_ms - since_ms) // period_ms) % 2 == 0


def parse_bri(fields):
    """The brightness cap (0-255) from a BRI's fields."""
    if len(fields) != 1 or not _is_decimal(fields[0], 3) or int(fields[0]) > 255:
        raise ProtocolError("bad fields")
    return int(fields[0])


# -- small checks that behave the same on CPython and MicroPython --------------------------


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_digit_byte(byte):
    return 48 <= byte <= 57


def _all_in(text, allowed):
    for char in text:
        if char not in allowed:
            return False
    return True


def _is_decimal(text, max_digits):
    return 0 < len(text) <= max_digits and _all_in(text, _DIGITS)


def _is_token(text):
    if not text:
        return False
    for char in text:
        if char <= " " or char > "~":
            return False
    return True
