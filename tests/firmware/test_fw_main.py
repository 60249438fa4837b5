"""The firmware's main loop on fake hardware, with the host's codec on the other end."""

from __future__ import annotations

import importlib.util
import os
import re
import types

import fw_fakes
import pytest
from fw_rfid import Card
from fw_rig import Rig, kinds, without_hb

import board
import leds
import main
from companion.hardware import protocol as host_protocol

NTAG = "04A1B2C3D4E580"
OTHER = "04112233445566"
CLASSIC = "DEADBEEF"
CYCLE = 30  # ms for one round of the three pads at 10 ms a turn
FIRMWARE_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "firmware")


def frame(n: int = board.PIXELS, colour=(255, 128, 1)) -> list[tuple[int, int, int]]:
    return [colour] * n


def last_write():
    return fw_fakes.state.neopixels[-1].writes[-1]


# -- boot ------------------------------------------------------------------------------------


def test_kbd_intr_is_switched_off_before_anything_else():
    path = os.path.join(FIRMWARE_DIR, "main.py")
    spec = importlib.util.spec_from_file_location("fresh_main", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # as at boot, but __name__ is not "__main__": no loop
    assert fw_fakes.state.kbd_intr == [-1]


def test_boot_says_hello_with_the_boards_numbers():
    rig = Rig()
    first = rig.take()[0]
    assert (first.seq, first.kind) == (0, "HELLO")
    info = host_protocol.parse_hello(first.fields)
    assert info["fw"] == main.FW_VERSION
    assert info["proto"] == host_protocol.PROTO
    assert (info["readers"], info["pixels"]) == (3, board.PIXELS)


def test_boot_darkens_the_chain_and_sets_up_every_reader():
    rig = Rig()
    assert last_write() == ((0, 0, 0),) * board.PIXELS
    for chip in rig.chips.values():
        assert chip.regs[0x14] & 0x03 == 0x03  # antenna on
        assert chip.regs[0x26] == board.READER_GAIN
    assert all(pad.ok for pad in rig.firmware.pads)
    assert kinds(rig.take()) == ["HELLO"]  # nothing failed, nothing more to say


def test_two_readers_configured(monkeypatch):
    monkeypatch.setattr(board, "READERS", 2)
    rig = Rig()
    info = host_protocol.parse_hello(rig.take()[0].fields)
    assert info["readers"] == 2
    assert len(rig.chips) == 2
    rig.chips[2].place(Card(NTAG))
    seen = rig.until(lambda m: "TAG" in kinds(m))
    assert ("TAG", "2", NTAG, "ON") in without_hb(seen)


def test_every_chip_select_is_driven_high_at_boot_even_unused_ones(monkeypatch):
    """A floating select reads low: an unused reader would answer on MISO too."""
    monkeypatch.setattr(board, "READERS", 2)
    Rig()
    for cs in board.READER_CS:  # pad 3's select included, though no reader is in use
        assert fw_fakes.state.pins[cs].mode == fw_fakes.Pin.OUT
        assert fw_fakes.level(cs) == 1


def test_spi_runs_at_1_mhz_for_long_wires_to_the_pads():
    assert board.SPI_BAUD == 1_000_000


def test_reset_pin_is_pulsed_and_left_high():
    Rig()
    assert fw_fakes.level(board.READER_RST[0]) == 1
    for cs in board.readers_in_use():
        assert fw_fakes.level(cs) == 1  # every reader deselected between exchanges


def test_own_reset_pin_per_reader_is_pulsed_at_boot(monkeypatch):
    monkeypatch.setattr(board, "READER_RST", (8, 9, 10))
    levels = {pin: [] for pin in (8, 9, 10)}
    for pin, seen in levels.items():
        fw_fakes.state.watchers.setdefault(pin, []).append(seen.append)
    rig = Rig()
    for seen in levels.values():
        assert seen.count(0) == 1 and seen[-2:] == [0, 1]  # pulsed low once, left high
    assert [pad.reader.rst.id for pad in rig.firmware.pads] == [8, 9, 10]


def test_spi_set_up_failure_is_reported_per_pad_and_the_leds_still_work(monkeypatch):
    def broken(self, *args, **kwargs):
        raise ValueError("bad SCK pin")

    monkeypatch.setattr(fw_fakes.SPI, "__init__", broken)
    rig = Rig()
    boot = without_hb(rig.take())
    assert [line[:3] for line in boot[1:4]] == [
        ("ERR", "READER_FAIL", str(pad)) for pad in (1, 2, 3)]
    assert "SPI set-up failed: ValueError: bad SCK pin" in " ".join(boot[1])
    rig.send("LED", host_protocol.led_fields(frame()))
    rig.run(100)
    assert ("ACK", "0") in without_hb(rig.take())


# -- host lines ------------------------------------------------------------------------------


def test_hello_question_gets_hello_then_ack():
    rig = Rig()
    rig.take()
    seq = rig.send("HELLO?")
    rig.step()
    assert without_hb(rig.take()) == [
        ("HELLO",) + host_protocol.hello_fields(main.FW_VERSION, 3, board.PIXELS), ("ACK", str(seq))]


def test_ping_is_acked():
    rig = Rig()
    rig.take()
    rig.send("PING")
    rig.step()
    assert without_hb(rig.take()) == [("ACK", "0")]


def test_led_frame_is_shown_under_the_default_cap():
    rig = Rig()
    rig.send("LED", host_protocol.led_fields(frame()))
    rig.step()
    level = board.BRIGHTNESS
    assert last_write() == tuple([leds.scale((255, 128, 1), level)] * board.PIXELS)
    assert ("ACK", "0") in without_hb(rig.take())


def test_bri_caps_and_re_renders_the_frame():
    rig = Rig()
    rig.send("LED", host_protocol.led_fields(frame()))
    rig.send("BRI", "255")
    rig.step()
    assert last_write() == tuple(frame())
    rig.send("BRI", "0")
    rig.step()
    assert last_write() == ((0, 0, 0),) * board.PIXELS
    assert [m for m in without_hb(rig.take()) if m[0] == "ACK"] == [
        ("ACK", "0"), ("ACK", "1"), ("ACK", "2")]


def test_wrong_pixel_count_is_nak_bad_pixels():
    rig = Rig()
    writes = len(fw_fakes.state.neopixels[-1].writes)
    rig.send("LED", host_protocol.led_fields(frame(23)))
    rig.step()
    assert without_hb(rig.take())[-1] == ("NAK", "0", "BAD_PIXELS")
    assert len(fw_fakes.state.neopixels[-1].writes) == writes  # nothing shown


def test_bad_crc_with_a_number_is_nakked_and_not_applied():
    rig = Rig()
    rig.take()
    rig.send_raw(b"5 BRI 255*0000\n")
    rig.step()
    assert without_hb(rig.take()) == [("NAK", "5", "BAD_CRC")]
    assert rig.firmware.leds.brightness == board.BRIGHTNESS


def test_bad_line_without_a_number_is_err_bad_line():
    rig = Rig()
    rig.take()
    rig.send_raw(b"hello there\n")
    rig.send_raw(b"PING*8ACE\n")
    rig.step()
    assert without_hb(rig.take()) == [("ERR", "BAD_LINE", "no", "crc"),
                                      ("ERR", "BAD_LINE", "bad", "crc")]


@pytest.mark.parametrize("body, reason", [
    (b"3 BRI 300", "BAD_FIELDS"),
    (b"3 LED 12345", "BAD_FIELDS"),
    (b"3 PING extra", "BAD_FIELDS"),
    (b"3 RESET", "UNKNOWN_TYPE"),
    (b"3 HB 1000", "UNEXPECTED"),  # a device line sent to the device
    (b"3 TAG 1 04A1B2C3D4E580 ON", "UNEXPECTED"),
])
def test_refused_lines_get_the_codecs_reason(body, reason):
    rig = Rig()
    rig.take()
    rig.send_raw(host_protocol.seal(body))
    rig.step()
    assert without_hb(rig.take()) == [("NAK", "3", reason)]


def test_too_long_line_is_nakked_once():
    rig = Rig()
    rig.take()
    rig.send_raw(b"9 LED " + b"A" * 700 + b"*0000\n")
    rig.send("PING", seq=10)
    rig.step()
    assert without_hb(rig.take()) == [("NAK", "9", "TOO_LONG"), ("ACK", "10")]


def test_duplicate_is_acked_again_but_applied_once():
    rig = Rig()
    line = host_protocol.encode(4, "LED", host_protocol.led_fields(frame()))
    rig.send_raw(line + line)
    rig.step()
    writes = fw_fakes.state.neopixels[-1].writes
    assert writes.count(writes[-1]) == 1
    assert [m for m in without_hb(rig.take()) if m[0] == "ACK"] == [("ACK", "4"), ("ACK", "4")]


def test_noise_in_front_of_a_line_is_cut_off():
    rig = Rig()
    rig.take()
    rig.send_raw(b">>> \x1b[0m" + host_protocol.encode(7, "PING"))
    rig.step()
    assert without_hb(rig.take()) == [("ACK", "7")]


def test_lines_split_across_reads_and_crlf():
    rig = Rig()
    rig.take()
    line = host_protocol.encode(1, "PING").replace(b"\n", b"\r\n")
    for i in range(len(line)):
        rig.send_raw(line[i:i + 1])
        rig.step()
    rig.send_raw(b"\n\r\n")  # blank lines carry nothing to answer
    rig.step()
    assert without_hb(rig.take()) == [("ACK", "1")]


def test_worked_example_of_protocol_md(monkeypatch):
    """The host lines of PROTOCOL.md's example get the answers the example shows."""
    monkeypatch.setattr(board, "PIXELS", 4)
    text = open(os.path.join(FIRMWARE_DIR, "PROTOCOL.md")).read()
    block = text.split("## Worked example", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    host_lines = [re.split(r"\s{2,}", line[5:])[0] for line in block.splitlines()
                  if line.startswith("host ")]
    assert len(host_lines) == 5
    rig = Rig()
    rig.take()
    for line in host_lines:
        rig.send_raw(line.encode() + b"\n")
    rig.send_raw(b"5 PING*8ACF\n")  # the corrupted line the text mentions
    rig.step()
    assert without_hb(rig.take()) == [
        ("HELLO", "fw=" + main.FW_VERSION, "proto=1.1", "readers=3", "pixels=4"),
        ("ACK", "0"), ("ACK", "1"), ("ACK", "2"), ("NAK", "3", "BAD_PIXELS"), ("ACK", "4"),
        ("NAK", "5", "BAD_CRC")]
    assert last_write() == (leds.scale((255, 0, 0), 64), leds.scale((0, 0, 255), 64),
                            (0, 0, 0), leds.scale((255, 160, 0), 64))


# -- device lines: numbering and heartbeat -------------------------------------------------------


def test_every_line_is_numbered_in_turn():
    rig = Rig(versions={3: 0x00})
    rig.chips[1].place(Card(NTAG))
    for i in range(30):
        rig.send("PING")
        rig.send_raw(b"junk\n")
        rig.run(100)
    rig.chips[1].remove()
    rig.run(1000)
    tracker = host_protocol.SeqTracker()
    orders = [tracker.feed(msg.seq) for msg in rig.all()]  # all() decodes every line
    assert orders[0] == "first" and set(orders[1:]) == {"ok"}
    assert {"HELLO", "ERR", "TAG", "HB", "ACK"} <= set(kinds(rig.all()))


def test_heartbeat_every_second_with_the_uptime():
    rig = Rig()
    rig.run(3500)
    beats = [msg for msg in rig.take() if msg.kind == "HB"]
    assert [host_protocol.parse_hb(msg.fields) for msg in beats] == [1000, 2000, 3000]


def test_heartbeat_after_a_stall_is_one_line_not_a_burst():
    rig = Rig()
    rig.run(1000)
    rig.step(4500)  # the loop hung for 4.5 s (the watchdog allows 8)
    rig.run(1000)
    beats = [host_protocol.parse_hb(m.fields) for m in rig.take() if m.kind == "HB"]
    assert beats == [1000, 5500, 6500]


# -- tags ---------------------------------------------------------------------------------------


def tags(messages) -> list[tuple]:
    return [m for m in without_hb(messages) if m[0] == "TAG"]


def test_tag_on_then_one_off_after_gone_after():
    rig = Rig()
    rig.chips[1].place(Card(NTAG))
    rig.run(100)
    assert tags(rig.take()) == [("TAG", "1", NTAG, "ON")]
    rig.run(2000)
    assert tags(rig.take()) == []  # resting on the pad: nothing more
    rig.chips[1].remove()
    gone = rig.now
    seen = rig.until(lambda m: tags(m))
    assert tags(seen) == [("TAG", "1", NTAG, "OFF")]
    # OFF comes gone_after after the last poll that saw it (up to one round before removal)
    assert board.GONE_AFTER_MS - CYCLE <= rig.now - gone <= board.GONE_AFTER_MS + CYCLE
    rig.run(1000)
    assert tags(rig.take()) == []


def test_flickering_reads_do_not_produce_off_on():
    rig = Rig()
    chip = rig.chips[2]
    chip.place(Card(CLASSIC))
    rig.run(100)
    assert tags(rig.take()) == [("TAG", "2", CLASSIC, "ON")]
    for _ in range(50):  # 3 s of a card at the edge: every other poll misses it
        chip.unreadable = 1  # the next WUPA goes unanswered
        rig.run(2 * CYCLE)
    chip.unreadable = (board.GONE_AFTER_MS - 2 * CYCLE) // CYCLE  # a long miss, still short enough
    rig.run(board.GONE_AFTER_MS + 200)
    assert chip.unreadable == 0
    assert tags(rig.take()) == []


def test_swap_without_a_gap_is_off_then_on():
    rig = Rig()
    chip = rig.chips[3]
    old, new = Card(NTAG), Card(OTHER)
    chip.place(old)
    rig.run(100)
    chip.remove(old)
    chip.place(new)
    rig.run(100)
    assert tags(rig.take()) == [("TAG", "3", NTAG, "ON"), ("TAG", "3", NTAG, "OFF"),
                                ("TAG", "3", OTHER, "ON")]


def test_pads_report_independently():
    rig = Rig()
    rig.chips[1].place(Card(NTAG))
    rig.chips[3].place(Card(CLASSIC))
    rig.run(100)
    assert sorted(tags(rig.take())) == [("TAG", "1", NTAG, "ON"), ("TAG", "3", CLASSIC, "ON")]


def test_two_cards_on_one_pad_give_one_whole_uid():
    rig = Rig()
    rig.chips[1].place(Card(NTAG), Card("04A1B2C3D4E581"))
    rig.run(500)
    on = tags(rig.take())
    assert len(on) == 1 and on[0][2] in (NTAG, "04A1B2C3D4E581")


# -- readers that fail -------------------------------------------------------------------------


@pytest.mark.parametrize("version", [0x00, 0xFF])
def test_dead_reader_is_reported_and_the_others_keep_working(version):
    rig = Rig(versions={2: version})
    boot = without_hb(rig.take())
    assert boot[0][0] == "HELLO"
    assert boot[1] == ("ERR", "READER_FAIL", "2", "no", "answer", "from", "MFRC522",
                       "(version", "0x%02X)" % version)
    rig.chips[1].place(Card(NTAG))
    rig.chips[3].place(Card(CLASSIC))
    rig.chips[2].place(Card(OTHER))  # on the dead pad: never seen
    rig.run(500)
    assert sorted(tags(rig.take())) == [("TAG", "1", NTAG, "ON"), ("TAG", "3", CLASSIC, "ON")]
    assert not rig.firmware.pads[1].ok


def test_reader_that_stops_answering_is_reported_once_and_its_tag_goes_off():
    rig = Rig()
    chip = rig.chips[1]
    chip.place(Card(NTAG))
    rig.run(100)
    rig.take()
    chip.dead = True  # a wire came loose
    seen = rig.until(lambda m: tags(m), limit=board.READER_CHECK_MS + 1000)
    rig.run(3 * board.READER_CHECK_MS)
    seen += rig.take()
    errors = [m for m in without_hb(seen) if m[0] == "ERR"]
    assert errors == [("ERR", "READER_FAIL", "1", "stopped", "answering", "(version", "0x00)")]
    assert tags(seen) == [("TAG", "1", NTAG, "OFF")]
    chip.dead = False  # and is pushed back in
    chip.soft_reset()
    seen = rig.until(lambda m: tags(m), limit=board.READER_CHECK_MS + 1000)
    assert tags(seen) == [("TAG", "1", NTAG, "ON")]


def test_reader_that_lost_its_setup_is_set_up_again_quietly():
    rig = Rig()
    chip = rig.chips[2]
    chip.soft_reset()  # a brown-out: registers back to reset values, field off
    chip.place(Card(NTAG))
    seen = rig.until(lambda m: tags(m), limit=board.READER_CHECK_MS + 1000)
    assert tags(seen) == [("TAG", "2", NTAG, "ON")]
    assert "ERR" not in kinds(seen)


def test_exceptions_are_reported_rate_limited_and_the_loop_goes_on():
    rig = Rig()
    rig.take()
    rig.chips[1].fail_reads_with = OSError(5, "EIO")
    rig.run(3000)
    seen = rig.take()
    internal = [m for m in seen if m.kind == "ERR" and m.fields[0] == "INTERNAL"]
    assert 2 <= len(internal) <= 4  # about one a second, not one a poll
    assert "OSError" in " ".join(internal[0].fields)
    assert kinds(seen).count("HB") == 3
    rig.send("PING")
    rig.step()
    assert ("ACK", "0") in without_hb(rig.take())


# -- LEDs that fail ------------------------------------------------------------------------------


def test_led_write_failure_is_led_fail_and_nak_busy(monkeypatch):
    rig = Rig()
    rig.take()

    def broken(self):
        raise OSError(110, "ETIMEDOUT")

    monkeypatch.setattr(fw_fakes.NeoPixel, "write", broken)
    rig.send("LED", host_protocol.led_fields(frame()))
    rig.step()
    answer = without_hb(rig.take())
    assert answer[0][:2] == ("ERR", "LED_FAIL")
    assert answer[1] == ("NAK", "0", "BUSY")


def test_missing_led_driver_is_reported_at_boot(monkeypatch):
    def no_driver(pin, n, bpp=3, timing=1):
        raise ValueError("invalid pin")

    monkeypatch.setattr(leds.neopixel, "NeoPixel", no_driver)
    rig = Rig()
    boot = without_hb(rig.take())
    assert boot[1] == ("ERR", "LED_FAIL", "ValueError:", "invalid", "pin")
    rig.send("BRI", "10")
    rig.step()
    assert without_hb(rig.take()) == [("NAK", "0", "BUSY")]


# -- maintenance: Ctrl-C and the watchdog ---------------------------------------------------------


def test_one_ctrl_c_only_arms_the_interrupt_for_a_while():
    rig = Rig()
    rig.take()
    rig.send_raw(b"\r\x03")
    rig.send("PING")  # glued behind the noise, still answered
    rig.step()
    assert fw_fakes.state.kbd_intr == [3]
    assert ("ACK", "0") in without_hb(rig.take())
    rig.run(board.MAINTENANCE_ARM_MS - 20)
    rig.send_raw(b"\x03")  # another one re-arms (on the Pico it would have interrupted)
    rig.step()
    rig.run(board.MAINTENANCE_ARM_MS + 20)
    assert fw_fakes.state.kbd_intr == [3, -1]
    assert rig.firmware.armed_until is None


class _Clock:
    def __init__(self):
        self.ms = 0

    def now(self):
        self.ms += 10
        return self.ms


def _fake_usb(turns: int):
    """A UsbSerial stand-in: ``turns`` quiet reads, then the second Ctrl-C strikes."""

    class FakeUsb:
        written = bytearray()

        def __init__(self):
            self.reads = 0
            self.watchdog = None

        def read(self):
            self.reads += 1
            if self.reads > turns:
                raise KeyboardInterrupt  # what kbd_intr(3) does to the loop
            return b"\x03" if self.reads == turns else b""

        def write(self, data):
            FakeUsb.written += data

    return FakeUsb


@pytest.mark.parametrize("chip, address", [
    ("Raspberry Pi Pico with RP2040", 0x40058000),
    ("Raspberry Pi Pico2 with RP2350", 0x400D8000),
])
def test_run_feeds_the_watchdog_and_maintenance_stops_it(monkeypatch, chip, address):
    bus = fw_fakes.state.bus(0)
    for cs in board.readers_in_use():
        from fw_rfid import FakeMFRC522
        bus.attach(cs, FakeMFRC522())
    usb = _fake_usb(50)
    monkeypatch.setattr(main, "UsbSerial", usb)
    monkeypatch.setattr(main, "Uptime", _Clock)
    monkeypatch.setattr(os, "uname", lambda: types.SimpleNamespace(machine=chip))
    main.run()  # returns: the firmware stopped for maintenance
    (wdt,) = fw_fakes.state.wdts
    assert wdt.timeout == board.WDT_TIMEOUT_MS
    assert wdt.feeds >= 50
    assert fw_fakes.state.mem32_writes == [(address, 0x7FFFFF)]  # ENABLE (bit 30) cleared
    assert fw_fakes.state.kbd_intr[-1] == 3  # Ctrl-C works again at the REPL
    text = bytes(usb.written)
    assert b"stopped for maintenance; the watchdog is stopped" in text
    lines = [line for line in text.split(b"\n") if line.strip() and b"maintenance" not in line]
    assert kinds(host_protocol.decode(line) for line in lines)[0] == "HELLO"


def test_stop_watchdog_leaves_an_unknown_chip_alone(monkeypatch):
    monkeypatch.setattr(os, "uname", lambda: types.SimpleNamespace(machine="ESP32 module"))
    assert main.stop_watchdog() is False
    assert fw_fakes.state.mem32_writes == []
    rig = Rig()
    rig.firmware.stop(False)
    assert b"the watchdog still runs: it resets the board within 8 s" in bytes(rig.out)


# -- BLINK: the Pico alternates two frames by itself ------------------------------------------


def test_boot_announces_the_blink():
    rig = Rig()
    info = host_protocol.parse_hello(rig.take()[0].fields)
    assert info["proto_minor"] >= 1  # what tells a host it may send BLINK


def test_blink_alternates_until_the_next_led_frame():
    rig = Rig()
    rig.send("BRI", "255")
    amber, dark = frame(colour=(255, 130, 0)), frame(colour=(0, 0, 0))
    rig.send("BLINK", *host_protocol.blink_fields(
        500, host_protocol.led_fields(amber), host_protocol.led_fields(dark)))
    rig.step()
    assert [m for m in without_hb(rig.take()) if m[0] in ("ACK", "NAK")] == [
        ("ACK", "0"), ("ACK", "1")]
    seen = []
    for _ in range(20):  # 2 s, sampled every 100 ms, with no host line at all
        seen.append(last_write() == tuple(amber))
        rig.run(100)
    assert seen == ([True] * 5 + [False] * 5) * 2
    rig.send("LED", host_protocol.led_fields(frame()))
    rig.run(1000)
    assert last_write() == tuple(frame())


def test_blink_with_the_wrong_pixel_count_is_refused_and_not_shown():
    rig = Rig()
    writes = len(fw_fakes.state.neopixels[-1].writes)
    short = host_protocol.led_fields(frame(23))
    rig.send("BLINK", *host_protocol.blink_fields(500, short, short))
    rig.run(1000)
    assert without_hb(rig.take())[-1] == ("NAK", "0", "BAD_PIXELS")
    assert len(fw_fakes.state.neopixels[-1].writes) == writes


def test_a_quiet_pico_keeps_a_blink_dark():
    rig = Rig()
    rig.send("BLINK", *host_protocol.blink_fields(
        500, host_protocol.led_fields(frame()), host_protocol.led_fields(frame(colour=(0, 0, 9)))))
    rig.run(board.HOST_SILENT_MS + 1500)  # the host went silent: dark, whatever the phase
    assert rig.firmware.quiet
    assert last_write() == ((0, 0, 0),) * board.PIXELS
