"""The Pico link against the fake Pico on a real pty, through real pyserial.

Timing is never asserted beyond generous deadlines: every wait polls a queue or the
fake's records until a deadline. Heartbeat and staleness are shortened so the
file runs in a few seconds.
"""

from __future__ import annotations

import binascii
import logging
import os
import queue
import random
import threading
import time

import pytest

pytest.importorskip("serial")

from companion.hardware import protocol
from companion.hardware.fake_pico import FakePico
from companion.hardware.link import LinkEvent, SerialLink, TagOff
from companion.inputs import Tag
from waiting import eventually, is_state, wait_for

HB = 0.05
STALE = 0.6
UID = "04A1B2C3D4E580"
FRAME = tuple((i * 10, 255 - i * 10, i) for i in range(25))  # the reference chain


def drain(events: queue.Queue) -> list[object]:
    items = []
    while True:
        try:
            items.append(events.get_nowait())
        except queue.Empty:
            return items


def sync(link: SerialLink, fake: FakePico) -> None:
    """A PING round trip: everything the link wrote so far has reached the fake, and
    everything the fake sent before answering has been handled by the link."""
    pings, acks = fake.kinds.count("PING"), link.stats.acks
    assert link.ping()
    assert fake.wait_until(lambda: fake.kinds.count("PING") > pings)
    assert eventually(lambda: link.stats.acks > acks)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def no_leaks():
    threads, fds = set(threading.enumerate()), open_fds()
    yield
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline and set(threading.enumerate()) - threads:
        time.sleep(0.01)
    assert not set(threading.enumerate()) - threads, "threads left running"
    assert open_fds() <= fds, "file descriptors left open"


@pytest.fixture
def fake(no_leaks):
    with FakePico(hb_interval=HB) as device:
        yield device


@pytest.fixture
def events():
    return queue.Queue()


@pytest.fixture
def link(fake, events):
    with SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE) as serial_link:
        wait_for(events, is_state("up"))
        yield serial_link


# -- the happy path ---------------------------------------------------------------------------


def test_hello_brings_the_link_up(fake, events):
    with SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE) as link:
        event = wait_for(events, is_state("up"))
        assert "fw=fake-1" in event.detail and event.source == fake.path
        assert link.state == "up"
        assert link.hello == {"fw": "fake-1", "proto": 1, "proto_minor": 1, "readers": 3,
                              "pixels": 25}
        assert fake.kinds[0] == "HELLO?"


def test_taps_become_tag_events(link, fake, events):
    fake.tap(2, UID)
    assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(2, UID)
    fake.lift(2, UID)
    assert wait_for(events, lambda e: isinstance(e, TagOff)) == TagOff(2, UID)
    fake.tap(1, "04A1B2C3")
    assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(1, "04A1B2C3")


def test_leds_and_brightness_reach_the_device(link, fake):
    link.set_brightness(40)
    link.send_leds(FRAME)
    assert fake.wait_until(lambda: fake.frame == FRAME and fake.brightness == 40)
    assert eventually(lambda: link.stats.acks >= 3)  # HELLO?, BRI, LED


def test_lost_lines_and_device_errors_are_counted(link, fake, events):
    fake.skip(3)
    fake.send("ERR", *protocol.err_fields("READER_FAIL", "3 no answer"))
    fake.tap(1, UID)
    wait_for(events, lambda e: isinstance(e, Tag))
    assert link.stats.lost == 3
    assert link.stats.device_errors == {"READER_FAIL": 1}


# -- garbage on the wire -------------------------------------------------------------------------

TRACEBACK = (b"Traceback (most recent call last):\r\n"
             b'  File "main.py", line 12, in <module>\r\n'
             b"OSError: [Errno 5] EIO\r\n"
             b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n"
             b'Type "help()" for more information.\r\n')


def test_garbage_is_counted_and_the_next_line_survives(link, fake, events):
    fake.send_raw(TRACEBACK + b">>> ")  # the prompt has no newline: it glues to the next line
    fake.tap(1, UID)
    assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(1, UID)
    fake.send_raw(b"\x00\xff\xfe\x80binary noise\n")
    fake.send_raw(b"7 HB 1000*0000\n")  # bad CRC
    fake.send_raw(protocol.seal("8 FOO bar"))  # a type from the future
    fake.send_raw(b"9" * 2000 + b"\n")  # over-long
    fake.send_raw(protocol.seal("3 LED 000000"))  # a REPL echoing the host's own line
    fake.send_raw(b"5 HB 10")  # a line cut short, glued to the next one
    fake.tap(3, UID)
    assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(3, UID)
    rejects = link.stats.rejects
    for why in ("no crc", "noise", "not ascii", "bad crc", "unknown type", "too long", "echo"):
        assert rejects.get(why), (why, rejects)
    assert link.state == "up"


def test_random_noise_between_lines_never_loses_a_line(link, fake, events):
    rng = random.Random(6)
    for i in range(40):
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(60)))
        fake.send_raw(noise + b"\n")
        fake.tap(1 + i % 3, f"04A1B2{i:02X}")
    got = [wait_for(events, lambda e: isinstance(e, Tag)) for _ in range(40)]
    assert got == [Tag(1 + i % 3, f"04A1B2{i:02X}") for i in range(40)]


def test_rejects_warn_at_most_once_per_ten_seconds(fake, events, caplog):
    caplog.set_level(logging.DEBUG, logger="companion.hardware.link")
    with SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE):
        wait_for(events, is_state("up"))
        for _ in range(30):
            fake.send_raw(b">>> babble\r\n")
        fake.tap(1, UID)
        wait_for(events, lambda e: isinstance(e, Tag))
    warnings = [r for r in caplog.records
                if r.levelno == logging.WARNING and "ignored input" in r.getMessage()]
    debug = [r for r in caplog.records
             if r.levelno == logging.DEBUG and "ignored" in r.getMessage()]
    assert len(warnings) == 1
    assert len(debug) >= 30


# -- NAKs ------------------------------------------------------------------------------------------


def test_a_refused_frame_is_resent_once(link, fake):
    fake.nak_next("LED")
    link.send_leds(FRAME)
    assert fake.wait_until(lambda: fake.frame == FRAME)
    assert fake.kinds.count("LED") == 2
    assert link.stats.naks == 1 and link.stats.resends == 1

    other = tuple(reversed(FRAME))
    fake.nak_next("LED", count=2)
    link.send_leds(other)
    assert fake.wait_until(lambda: fake.kinds.count("LED") == 4)
    assert eventually(lambda: link.stats.naks == 3)
    sync(link, fake)  # a third try would have reached the fake before this PING
    assert fake.kinds.count("LED") == 4 and fake.frame == FRAME


def test_frame_of_the_wrong_length_is_not_sent(link, fake):
    link.send_leds(FRAME[:10])
    sync(link, fake)
    assert "LED" not in fake.kinds


def test_fake_answers_bad_lines_like_the_firmware(fake):
    import serial

    with serial.Serial(fake.path, 115200, timeout=0.2) as port:
        port.write(protocol.encode(0, "HELLO?"))
        port.write(b"5 PING*8ACF\n")
        port.write(b"garbage\n")
        port.write(protocol.encode(6, "LED", "FF0000"))
        port.write(protocol.encode(7, "TAG", *protocol.tag_fields(1, UID, True)))
        answers: list[protocol.Message] = []
        buf = protocol.LineBuffer()
        deadline = time.monotonic() + 2.0
        while len([m for m in answers if m.kind == "ACK" or m.kind[0] in "NE"]) < 5 \
                and time.monotonic() < deadline:
            answers += [protocol.decode(line) for line in buf.feed(port.read(256))]
    assert "HELLO" in [m.kind for m in answers]
    replies = [(m.kind, m.fields) for m in answers if m.kind not in ("HB", "HELLO")]
    assert replies == [("ACK", ("0",)), ("NAK", ("5", "BAD_CRC")),
                           ("ERR", ("BAD_LINE", "no", "crc")), ("NAK", ("6", "BAD_PIXELS")),
                           ("NAK", ("7", "UNEXPECTED"))]


# -- unplug, replug, stale -----------------------------------------------------------------------


def test_unplug_mid_game_and_replug(link, fake, events):
    link.set_brightness(30)
    link.send_leds(FRAME)
    fake.tap(1, UID)
    wait_for(events, lambda e: isinstance(e, Tag))
    assert fake.wait_until(lambda: fake.frame == FRAME)

    fake.unplug()
    assert "read failed" in wait_for(events, is_state("down")).detail
    assert link.state == "down" and link.hello is None
    changed = tuple(reversed(FRAME))
    link.send_leds(changed)  # remembered, neither raising nor blocking
    link.set_brightness(20)
    assert not link.ping()

    fake.replug()
    wait_for(events, is_state("up"), timeout=2.0)
    assert fake.wait_until(lambda: fake.frame == changed and fake.brightness == 20)
    assert fake.kinds[-3:] == ["HELLO?", "BRI", "LED"]
    assert link.stats.reconnects >= 1
    fake.tap(2, UID)
    assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(2, UID)


def test_device_absent_at_start_comes_up_when_plugged(fake, events):
    fake.unplug()
    with SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE) as link:
        assert "cannot open" in wait_for(events, is_state("down")).detail
        link.send_leds(FRAME)
        retried: list[object] = []
        assert eventually(lambda: link.stats.reconnects == 0 and link.state == "down")
        fake.replug()
        wait_for(events, is_state("up"), skipped=retried)
        assert fake.wait_until(lambda: fake.frame == FRAME)
    assert retried == []  # no second "down" for every retry


def test_silent_device_goes_stale_and_is_reopened(link, fake, events):
    fake.heartbeat(False)
    link.set_brightness(50)
    stale = wait_for(events, is_state("stale"))
    assert "no valid line" in stale.detail
    wait_for(events, is_state("up"))  # reopened: HELLO? was answered
    assert link.stats.reconnects >= 1
    assert fake.kinds.count("HELLO?") >= 2 and fake.brightness == 50


def test_hung_device_stays_stale_with_one_event(fake, events):
    with SerialLink(fake.path, 115200, events.put_nowait, stale_after=0.3) as link:
        wait_for(events, is_state("up"))
        fake.freeze(True)
        wait_for(events, is_state("stale"))
        assert eventually(lambda: link.stats.reconnects >= 2, timeout=3.0)
        assert [e for e in drain(events) if isinstance(e, LinkEvent)] == []
        fake.freeze(False)  # heartbeats again; the repeated HELLO? gets its answer
        wait_for(events, is_state("up"), timeout=3.0)


def test_write_failure_takes_the_link_down_and_back(events, no_leaks):
    """Through the injectable opener: a port whose writes fail after HELLO."""
    ports: list[ScriptedPort] = []

    def opener(path: str, baud: int) -> ScriptedPort:
        port = ScriptedPort()
        port.incoming.put(protocol.encode(0, "HELLO", *protocol.hello_fields("s", 1, 2)))
        ports.append(port)
        return port

    with SerialLink("/dev/scripted", 115200, events.put_nowait, opener=opener) as link:
        wait_for(events, is_state("up"))
        ports[0].fail_writes = True
        link.send_leds([(1, 2, 3), (4, 5, 6)])  # fails: no exception here
        assert "write failed" in wait_for(events, is_state("down")).detail
        wait_for(events, is_state("up"))
        assert ports[0].closed and len(ports) == 2
        assert eventually(lambda: any(b"LED 010203040506" in line for line in ports[1].written))


def test_a_blink_sends_the_lines_the_codec_would(events, no_leaks):
    # Each frame's field is spelt once and kept; the lines must stay exactly what
    # protocol.encode builds for them, numbering and CRC included.
    port = ScriptedPort()
    port.incoming.put(protocol.encode(0, "HELLO", *protocol.hello_fields("s", 1, 2)))
    on, off = [(255, 160, 0), (0, 0, 0)], [(0, 0, 0), (0, 0, 0)]
    with SerialLink("/dev/scripted", 115200, events.put_nowait,
                    opener=lambda path, baud: port) as link:
        wait_for(events, is_state("up"))
        for frame in (on, off, on, off, on):
            link.send_leds(frame)
        assert eventually(lambda: sum(b" LED " in line for line in port.written) == 5)
    leds = [line for line in port.written if b" LED " in line]
    for line, frame in zip(leds, (on, off, on, off, on)):
        msg = protocol.decode(line)
        assert line == protocol.encode(msg.seq, "LED", protocol.led_fields(frame))


def test_the_links_c_crc_is_the_codecs():
    # The link seals kept LED lines with binascii's CRC; the codec (and the Pico) loop.
    rnd = random.Random(16)
    for size in (0, 1, 2, 9, 64, 600):
        body = bytes(rnd.randrange(256) for _ in range(size))
        assert binascii.crc_hqx(body, 0xFFFF) == protocol.crc16(body)


class ScriptedPort:
    """An in-memory port: feed ``incoming``, read ``written``."""

    def __init__(self) -> None:
        self.incoming: queue.Queue[bytes] = queue.Queue()
        self.written: list[bytes] = []
        self.fail_writes = False
        self.closed = False

    def read(self, size: int = 1) -> bytes:
        try:
            return self.incoming.get(timeout=0.05)
        except queue.Empty:
            return b""

    def write(self, data: bytes) -> int:
        if self.fail_writes:
            raise OSError(5, "Input/output error")
        self.written.append(data)
        return len(data)

    def close(self) -> None:
        self.closed = True


# -- versions and closing -------------------------------------------------------------------


def test_unknown_major_version_is_reported_and_not_driven(no_leaks, events):
    with FakePico(hb_interval=HB, proto="2") as fake, \
            SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE) as link:
        assert "proto=2" in wait_for(events, is_state("version")).detail
        link.send_leds(FRAME)
        fake.tap(1, UID)
        sync(link, fake)
        assert link.state == "version" and "LED" not in fake.kinds
        assert not [e for e in drain(events) if isinstance(e, Tag)]


def test_minor_version_is_fine(no_leaks, events):
    with FakePico(hb_interval=HB, proto="1.4") as fake, \
            SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE) as link:
        wait_for(events, is_state("up"))
        assert link.hello["proto_minor"] == 4


def test_close_is_prompt_and_idempotent(fake, events):
    link = SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE)
    wait_for(events, is_state("up"))
    started = time.monotonic()
    link.close()
    assert time.monotonic() - started < 2.0
    link.close()
    assert link.state == "closed"
    link.send_leds(FRAME)  # after close: ignored, no exception
    link.set_brightness(1)
    assert not link.ping()
    assert not [t for t in threading.enumerate() if t.name.startswith("pico-link")]


def test_bad_values_are_the_callers_bug(link):
    with pytest.raises(ValueError):
        link.send_leds([(256, 0, 0)])
    with pytest.raises(ValueError):
        link.send_leds([(0, 0, 0)] * 98)
    with pytest.raises(ValueError):
        link.set_brightness(300)


# -- a Pico at its REPL, and taps it has no right to --------------------------------------


def test_a_pico_left_at_the_repl_is_soft_reset_into_the_firmware(fake, events):
    fake.drop_to_repl()
    with SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE) as link:
        assert wait_for(events, is_state("up"), timeout=10.0)
        assert fake.soft_resets == 1 and link.stats.soft_resets == 1
        assert link.stats.rejects.get("echo", 0) >= 1  # how it knew: its HELLO? came back
        fake.tap(1, UID)
        assert wait_for(events, lambda e: isinstance(e, Tag)) == Tag(1, UID)


def test_a_pico_that_falls_to_the_repl_mid_game_comes_back(link, fake, events):
    fake.drop_to_repl()
    assert wait_for(events, is_state("stale"), timeout=5.0)  # no heartbeat
    assert wait_for(events, is_state("up"), timeout=10.0)
    assert fake.soft_resets == 1 and link.stats.soft_resets == 1


def test_tags_before_hello_or_from_unannounced_pads_are_ignored_and_counted(fake, events):
    def tag_line(pad, seq):
        return protocol.encode(seq, "TAG", *protocol.tag_fields(pad, UID, True))

    def never_opens(path, baud):
        raise OSError("not now")

    with SerialLink(fake.path, 115200, events.put_nowait, opener=never_opens) as link:
        link._line(tag_line(1, 5), time.monotonic())  # nobody said HELLO yet
        assert link.stats.rejects == {"tag before hello": 1}
        link._line(protocol.encode(6, "HELLO", *protocol.hello_fields("fw", 2, 24)),
                   time.monotonic())
        link._line(tag_line(3, 7), time.monotonic())  # a third pad on a two-reader device
        link._line(tag_line(2, 8), time.monotonic())
        assert link.stats.rejects == {"tag before hello": 1, "no such pad": 1}
    assert [e for e in drain(events) if isinstance(e, Tag)] == [Tag(2, UID)]


def test_a_host_with_nothing_to_say_pings_so_the_pico_stays_awake(fake, events, monkeypatch):
    """The firmware goes quiet after a silent host (firmware/PROTOCOL.md): an idle box,
    whose LEDs do not change, still says something every KEEPALIVE."""
    monkeypatch.setattr(protocol, "KEEPALIVE", 0.2)
    with SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE) as link:
        wait_for(events, is_state("up"))
        assert fake.wait_until(lambda: fake.kinds.count("PING") >= 3, timeout=10)
        assert link.stats.acks >= 3


# -- the Pico's own blink (protocol 1.1) ------------------------------------------------------


def test_a_blink_is_one_line_the_device_runs_by_itself(link, fake):
    dark = tuple((0, 0, 0) for _ in FRAME)
    assert link.can_blink
    link.send_blink(FRAME, dark, 500)
    assert fake.wait_until(lambda: fake.blinks == 1)
    period, first, second, since = fake.blinking
    assert (period, first, second) == (0.5, FRAME, dark)
    assert fake.frame_at(since + 0.25) == FRAME and fake.frame_at(since + 0.75) == dark
    assert fake.frame_at(since + 1.25) == FRAME
    link.send_leds(FRAME)  # a frame ends the blink
    assert fake.wait_until(lambda: fake.blinking is None and fake.frame == FRAME)
    assert fake.kinds[-2:] == ["BLINK", "LED"]


def test_a_blink_is_sent_again_after_a_replug(link, fake, events):
    dark = tuple((0, 0, 0) for _ in FRAME)
    link.send_blink(FRAME, dark, 500)
    assert fake.wait_until(lambda: fake.blinks == 1)
    fake.unplug()
    wait_for(events, is_state("down"))
    assert not link.can_blink
    fake.replug()
    wait_for(events, is_state("up"), timeout=2.0)
    assert fake.wait_until(lambda: fake.blinks == 2)
    assert fake.blinking[1:3] == (FRAME, dark)


def test_a_refused_blink_is_resent_once(link, fake):
    fake.nak_next("BLINK")
    link.send_blink(FRAME, tuple(reversed(FRAME)), 500)
    assert fake.wait_until(lambda: fake.blinks == 1)
    assert fake.kinds.count("BLINK") == 2 and link.stats.resends == 1


def test_old_firmware_is_never_sent_a_blink(no_leaks, events):
    with FakePico(hb_interval=HB, proto="1") as fake, \
            SerialLink(fake.path, 115200, events.put_nowait, stale_after=STALE) as link:
        wait_for(events, is_state("up"))
        assert not link.can_blink
        link.send_blink(FRAME, tuple(reversed(FRAME)), 500)  # its first frame, steady
        assert fake.wait_until(lambda: fake.frame == FRAME)
        sync(link, fake)
        assert "BLINK" not in fake.kinds and not fake.rejects


def test_a_blink_out_of_range_is_refused_before_sending(link, fake):
    with pytest.raises(ValueError):
        link.send_blink(FRAME, FRAME, 10)
    with pytest.raises(ValueError):
        link.send_blink(FRAME, FRAME[:10], 500)
    sync(link, fake)
    assert "BLINK" not in fake.kinds


def test_firmware_leds_blink_only_on_a_device_that_can(link, fake):
    from companion.hardware.leds import FirmwareLeds

    sink = FirmwareLeds(link, tuple(range(len(FRAME))))
    on, off = FRAME, tuple((0, 0, 0) for _ in FRAME)
    assert sink.blink(on, off, 0.5) is True
    assert sink.blink(on, off, 0.5) is False  # already running: not restarted
    assert sink.blink(on, off, 0.5, restart=True) is True
    assert fake.wait_until(lambda: fake.blinks == 2)
    assert sink.show(on) is True  # whatever the device showed, a frame goes out
    assert fake.wait_until(lambda: fake.blinking is None)
