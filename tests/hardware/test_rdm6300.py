"""The RDM6300 reader: frame parsing, resynchronising, and presence on a real pty."""

from __future__ import annotations

import os
import queue
import shutil
import tempfile
import threading
import time
import tty

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("serial")

from companion.hardware.link import TagOff
from companion.hardware.rdm6300 import FrameScanner, Rdm6300Reader, frame, parse_payload
from companion.inputs import Tag
from waiting import is_state, wait_for

CARD = "67003B51C6"  # the test vector: 67 ^ 00 ^ 3B ^ 51 ^ C6 = CB
OTHER = "0A0B0C0D0E"
GONE = 0.3


# -- frames ------------------------------------------------------------------------------------


def test_the_test_vector():
    assert parse_payload(b"67003B51C6CB") == CARD
    assert parse_payload(b"67003b51c6cb") == CARD
    assert frame(CARD) == b"\x0267003B51C6CB\x03"
    assert int(CARD[2:], 16) == 3887558  # the tag number printed on many EM4100 cards


def scan(data: bytes) -> list[tuple[str | None, str | None]]:
    return [(uid, why) for uid, why, _ in FrameScanner().feed(data)]


@pytest.mark.parametrize("data, found", [
    (b"\x0267003B51C6CC\x03", [(None, "bad checksum")]),
    (b"\x0267003B51C6XB\x03", [(None, "bad hex")]),
    (b"\x0267003B\x03", [(None, "short frame")]),
    (b"\x0267003B51C6CBX", [(None, "missing etx")]),
    (b"\xff\x00junk" + frame(CARD), [(None, "garbage"), (CARD, None)]),
    (b"\x0267003B" + frame(CARD), [(None, "short frame"), (CARD, None)]),
    (b"\x0267003B51C6CB5" + frame(CARD), [(None, "missing etx"), (None, "garbage"), (CARD, None)]),
    (frame(CARD) + frame(OTHER), [(CARD, None), (OTHER, None)]),
])
def test_scanner_rejects_and_resynchronises(data, found):
    assert scan(data) == found


def test_scanner_joins_frames_split_across_reads():
    scanner = FrameScanner()
    got = []
    for byte in frame(CARD) * 2:
        got += scanner.feed(bytes((byte,)))
    assert [uid for uid, _, _ in got] == [CARD, CARD]


@given(st.lists(st.tuples(st.binary(max_size=40), st.binary(min_size=5, max_size=5)), max_size=6))
def test_a_good_frame_is_found_after_any_noise(parts):
    stream = b"".join(noise + frame(uid.hex()) for noise, uid in parts)
    uids = [uid for uid, _ in scan(stream) if uid is not None]
    expected = [uid.hex().upper() for _, uid in parts]
    assert [u for u in uids if u in expected] == expected


# -- the reader on a pty ----------------------------------------------------------------------


class FakeRdm:
    """An RDM6300 on a USB-TTL adapter: a pty behind a stable symlink, written by the test."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="fake-rdm-")
        self.path = os.path.join(self.dir, "rdm6300")
        self.fds: tuple[int, int] | None = None
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.symlink(os.ttyname(slave), self.path + ".new")
        os.replace(self.path + ".new", self.path)
        self.fds = (master, slave)

    def unplug(self) -> None:
        if self.fds is not None:
            os.unlink(self.path)
            for fd in self.fds:
                os.close(fd)
            self.fds = None

    def send(self, data: bytes) -> None:
        assert self.fds is not None
        os.write(self.fds[0], data)

    def hold(self, uid: str, times: int = 5) -> None:
        """A card lying on the antenna: the module repeats its frame."""
        for _ in range(times):
            self.send(frame(uid))
            time.sleep(GONE / 5)  # drives the device; well inside gone_after

    def close(self) -> None:
        self.unplug()
        shutil.rmtree(self.dir, ignore_errors=True)


def is_off(event: object) -> bool:
    return isinstance(event, TagOff)


@pytest.fixture
def device():
    threads, fds = set(threading.enumerate()), len(os.listdir("/proc/self/fd"))
    fake = FakeRdm()
    yield fake
    fake.close()
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline and set(threading.enumerate()) - threads:
        time.sleep(0.01)
    assert not set(threading.enumerate()) - threads, "threads left running"
    assert len(os.listdir("/proc/self/fd")) <= fds, "file descriptors left open"


@pytest.fixture
def events():
    return queue.Queue()


@pytest.fixture
def reader(device, events):
    with Rdm6300Reader(device.path, 2, events.put_nowait, gone_after=GONE) as rdm:
        wait_for(events, is_state("up"))
        yield rdm


def test_a_card_left_on_the_pad_is_one_tag_then_one_tag_off(reader, device, events):
    device.hold(CARD)
    before_off: list[object] = []
    assert wait_for(events, is_off, skipped=before_off) == TagOff(2, CARD)
    assert before_off == [Tag(2, CARD)]
    assert reader.present is None
    assert reader.stats.lines_ok == 5


def test_swapping_cards_without_a_gap(reader, device, events):
    device.hold(CARD, times=2)
    device.hold(OTHER, times=2)
    seen: list[object] = []
    wait_for(events, lambda e: e == TagOff(2, OTHER), skipped=seen)
    assert seen == [Tag(2, CARD), TagOff(2, CARD), Tag(2, OTHER)]


def test_noise_is_counted_and_the_next_frame_read(reader, device, events):
    device.send(b"\x00\xff\x0267003B51C6CC\x03\x0212\x02" + b"ZZ" * 6 + b"\x03")
    device.send(frame(CARD) * 2)  # a resting card repeats its frame
    assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(2, CARD)
    assert reader.stats.rejects == {"garbage": 1, "bad checksum": 1, "short frame": 1,
                                    "bad hex": 1}


def test_unplugged_reader_drops_the_card_and_comes_back(reader, device, events):
    device.send(frame(CARD) * 2)
    wait_for(events, lambda e: isinstance(e, Tag))
    device.unplug()
    seen: list[object] = []
    assert "read failed" in wait_for(events, is_state("down"), skipped=seen).detail
    assert seen == [TagOff(2, CARD)]
    device.plug()
    wait_for(events, is_state("up"))
    device.send(frame(CARD) * 2)
    assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(2, CARD)
    assert reader.stats.reconnects == 1


def two_bit_error(uid: str) -> str:
    """``uid`` with the same bit flipped in two bytes: the XOR checksum still passes."""
    data = bytearray(bytes.fromhex(uid))
    data[1] ^= 0x10
    data[3] ^= 0x10
    return data.hex().upper()


def test_a_uid_counts_only_after_two_identical_frames_in_a_row(reader, device, events):
    phantom = two_bit_error(CARD)
    assert frame(phantom)[-3:] == frame(CARD)[-3:]  # same checksum: it parses
    device.send(frame(CARD) * 3)
    assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(2, CARD)
    # A corrupted frame under the resting card: no phantom tap, no second tap.
    device.send(frame(CARD) + frame(phantom) + frame(CARD) * 2)
    # One frame of a card, broken by noise, then one more: still nothing.
    device.send(frame(OTHER) + b"\x02ZZ\x03" + frame(OTHER))
    device.send(frame(OTHER) * 2)  # now it is there
    seen: list[object] = []
    assert wait_for(events, lambda e: isinstance(e, Tag), skipped=seen) == Tag(2, OTHER)
    assert seen == [TagOff(2, CARD)]
    assert reader.stats.lines_ok == 11 and reader.stats.rejects == {"short frame": 1}


def test_close_is_prompt_and_idempotent(device, events):
    rdm = Rdm6300Reader(device.path, 1, events.put_nowait)
    wait_for(events, is_state("up"))
    started = time.monotonic()
    rdm.close()
    rdm.close()
    assert time.monotonic() - started < 2.0
    assert rdm.state == "closed"
