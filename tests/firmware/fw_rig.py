"""A whole firmware on fake hardware: readers with cards, an LED chain, a host wire.

:class:`Rig` builds the firmware with ``main.build`` exactly as the Pico does, on
the fake ``machine`` of ``fw_fakes.py``, with a :class:`~fw_rfid.FakeMFRC522` behind
each chip-select of ``board.py``. The test plays the host: :meth:`Rig.send` puts
host-encoded lines on the wire, :meth:`Rig.run` steps the main loop on a made-up
clock, and :meth:`Rig.take` returns what the firmware wrote, decoded by the
*host's* codec (``companion.hardware.protocol``), so every device line is checked
against the parser that will really read it.
"""

from __future__ import annotations

import fw_fakes
from fw_rfid import FakeMFRC522

import board
import main
from companion.hardware import protocol as host_protocol


class Rig:
    def __init__(self, versions: dict[int, int] | None = None, boot: bool = True,
                 write=None, read=None) -> None:
        versions = versions or {}
        self.chips: dict[int, FakeMFRC522] = {}
        bus = fw_fakes.state.bus(board.SPI_ID)
        for pad, cs in enumerate(board.readers_in_use(), start=1):
            chip = FakeMFRC522(version=versions.get(pad, 0x92))
            if versions.get(pad) != 0xFF:  # 0xFF: no chip on that chip-select at all
                bus.attach(cs, chip)
            self.chips[pad] = chip
        self.out = bytearray()
        self.inbox = bytearray()
        self.now = 0
        self.host_seq = 0
        self._read_upto = 0
        self.firmware = main.build(write or self.out.extend, read or self._read)
        if boot:
            self.firmware.boot(self.now)

    # -- the wire --------------------------------------------------------------------------

    def _read(self) -> bytes:
        data, self.inbox[:] = bytes(self.inbox), b""
        return data

    def send(self, kind: str, *fields: str, seq: int | None = None) -> int:
        """A host line, numbered in turn unless ``seq`` is given; returns its seq."""
        if seq is None:
            seq = self.host_seq
            self.host_seq = host_protocol.next_seq(seq)
        self.inbox += host_protocol.encode(seq, kind, *fields)
        return seq

    def send_raw(self, data: bytes) -> None:
        self.inbox += data

    # -- time ------------------------------------------------------------------------------

    def step(self, ms: int = 0) -> None:
        self.now += ms
        self.firmware.step(self.now)

    def run(self, ms: int, every: int = 10) -> None:
        """Step the loop for ``ms`` milliseconds, one turn every ``every`` ms."""
        end = self.now + ms
        while self.now < end:
            self.step(min(every, end - self.now))

    def until(self, predicate, limit: int = 5000, every: int = 10):
        """Step until ``predicate(messages so far)`` is true; returns those messages."""
        seen = []
        deadline = self.now + limit
        while self.now < deadline:
            self.step(every)
            seen += self.take()
            if predicate(seen):
                return seen
        raise AssertionError(f"not within {limit} ms; saw {seen}")

    # -- what the firmware said ------------------------------------------------------------------

    def raw_lines(self) -> list[bytes]:
        return bytes(self.out).split(b"\n")[:-1]

    def take(self) -> list[host_protocol.Message]:
        """The device lines written since the last call, decoded by the host's parser."""
        lines = self.raw_lines()
        fresh = lines[self._read_upto:]
        self._read_upto = len(lines)
        return [host_protocol.decode(line) for line in fresh]

    def all(self) -> list[host_protocol.Message]:
        return [host_protocol.decode(line) for line in self.raw_lines()]


def kinds(messages) -> list[str]:
    return [msg.kind for msg in messages]


def without_hb(messages) -> list[tuple]:
    """(kind, fields) of every non-heartbeat message."""
    return [(msg.kind,) + msg.fields for msg in messages if msg.kind != "HB"]
