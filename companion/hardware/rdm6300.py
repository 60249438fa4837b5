"""The RDM6300 125 kHz reader: the alternate build's tag pad, on a plain serial port.

The module only talks (9600 8N1, TX only) and only in one frame::

    0x02 | 10 ASCII hex: 2 version + 8 tag id | 2 ASCII hex: XOR of the 5 data bytes | 0x03

and it repeats that frame for as long as a card lies on the antenna. Its one-byte
XOR lets about 1 in 110 frames with two bit errors through as another, valid-looking
UID, so a UID counts only once two identical frames came in a row (one more frame
time, about a tenth of a second): a stray frame under a resting card then neither
taps a phantom card nor taps the resting one again. One
:class:`~companion.inputs.Tag` is sent when a card arrives and a
:class:`~companion.hardware.link.TagOff` once no frame came for ``gone_after``
seconds (checked in the reader thread on every read timeout). The UID is the 10 hex
digits, i.e. 5 bytes. Reconnecting and reject counting come from
:class:`~companion.hardware.link.ReconnectingPort`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.hardware.link import Opener, Put, ReconnectingPort, TagOff
from companion.inputs import Tag

__all__ = ["FrameScanner", "Rdm6300Reader", "frame", "parse_payload"]

STX, ETX = 0x02, 0x03
PAYLOAD = 12  # ASCII hex digits between STX and ETX
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def parse_payload(payload: bytes) -> str:
    """The UID (10 uppercase hex digits) in a frame's 12 payload bytes.

    Raises ValueError("bad hex") or ValueError("bad checksum").
    """
    if len(payload) != PAYLOAD or not set(payload) <= _HEX:
        raise ValueError("bad hex")
    values = bytes.fromhex(payload.decode("ascii"))
    check = 0
    for value in values[:5]:
        check ^= value
    if check != values[5]:
        raise ValueError("bad checksum")
    return payload[:10].decode("ascii").upper()


def frame(uid: str) -> bytes:
    """The 14-byte frame an RDM6300 sends for ``uid`` (10 hex digits): for fakes and tests."""
    data = bytes.fromhex(uid)
    if len(data) != 5:
        raise ValueError(f"{uid!r}: an EM4100 UID is 5 bytes (10 hex digits)")
    check = 0
    for value in data:
        check ^= value
    return bytes((STX,)) + f"{uid.upper()}{check:02X}".encode("ascii") + bytes((ETX,))


class FrameScanner:
    """Finds frames in a byte stream and resynchronises on anything else.

    :meth:`feed` returns ``(uid, None, raw)`` for each good frame and
    ``(None, reason, raw)`` for each bad one, reason being "garbage" (bytes outside
    a frame, one per run), "short frame", "missing etx", "bad hex" or "bad checksum".
    """

    def __init__(self) -> None:
        self._payload: bytearray | None = None  # None: between frames
        self._garbage = bytearray()

    def clear(self) -> None:
        """Forget a partial frame (after a reconnect)."""
        self._payload = None
        self._garbage.clear()

    def feed(self, data: bytes) -> list[tuple[str | None, str | None, bytes]]:
        found: list[tuple[str | None, str | None, bytes]] = []
        for byte in data:
            if byte == STX:
                self._flush_garbage(found)
                if self._payload is not None:  # the previous frame broke off
                    found.append((None, "short frame", bytes(self._payload)))
                self._payload = bytearray()
            elif self._payload is None:
                self._garbage.append(byte)
                if len(self._garbage) > 64:  # a long run is still one reject
                    del self._garbage[:-64]
            elif byte == ETX:
                payload, self._payload = bytes(self._payload), None
                if len(payload) != PAYLOAD:
                    found.append((None, "short frame", payload))
                    continue
                try:
                    found.append((parse_payload(payload), None, payload))
                except ValueError as exc:
                    found.append((None, str(exc), payload))
            elif len(self._payload) == PAYLOAD:
                # Twelve digits and no ETX: drop the frame, this byte starts a garbage run.
                found.append((None, "missing etx", bytes(self._payload)))
                self._payload = None
                self._garbage.append(byte)
            else:
                self._payload.append(byte)
        return found

    def _flush_garbage(self, found: list[tuple[str | None, str | None, bytes]]) -> None:
        if self._garbage:
            found.append((None, "garbage", bytes(self._garbage)))
            self._garbage.clear()


class Rdm6300Reader(ReconnectingPort):
    """One RDM6300 on one serial port, reporting as reader pad ``pad``.

    Events: ``Tag(pad, uid)`` when a card arrives, ``TagOff(pad, uid)`` when it has
    been silent for ``gone_after`` s (or the port went away), ``LinkEvent`` "up" and
    "down" for the port itself.
    """

    thread_name = "rdm6300"
    read_timeout = 0.25  # a lifted card is noticed within gone_after plus this

    def __init__(
        self,
        path: str,
        pad: int,
        put: Put,
        *,
        baud: int = 9600,
        clock: Callable[[], float] = time.monotonic,
        opener: Opener | None = None,
        gone_after: float = 0.5,
    ) -> None:
        super().__init__(path, baud, put, clock=clock, opener=opener)
        self.pad = pad
        self.gone_after = gone_after
        self._frames = FrameScanner()
        self._present: str | None = None  # UID on the antenna now
        self._candidate: str | None = None  # a new UID seen once, awaiting its twin
        self._seen_at = 0.0
        self._start()

    @property
    def present(self) -> str | None:
        """The UID of the card on the pad, or None."""
        return self._present

    def _opened(self, now: float) -> None:
        self._frames.clear()
        self._set_state("up", f"RDM6300 reader for pad {self.pad}")

    def _received(self, data: bytes, now: float) -> None:
        for uid, reason, raw in self._frames.feed(data):
            if uid is None:
                self._reject(reason or "garbage", raw)
                self._candidate = None  # the next good frame starts a new pair
                continue
            self.stats.lines_ok += 1
            self._seen_at = now
            if uid == self._present:  # the module repeats frames: only a change is news
                self._candidate = None
            elif uid != self._candidate:
                self._candidate = uid  # once is not enough: wait for the same again
            else:
                self._candidate = None
                self._leave()
                self._present = uid
                self._emit(Tag(self.pad, uid))

    def _idle(self, now: float) -> None:
        if self._present is not None and now - self._seen_at >= self.gone_after:
            self._leave()

    def _lost(self, reason: str) -> None:
        self._frames.clear()
        self._candidate = None
        self._leave()  # nobody can tell whether the card is still there

    def _leave(self) -> None:
        if self._present is not None:
            uid, self._present = self._present, None
            self._emit(TagOff(self.pad, uid))
