"""A Pico whose host is gone goes quiet: after ``board.HOST_SILENT_MS`` without a valid
host line its LEDs go dark and its readers' antennas off; the host's next line wakes
it, with the last frame shown again. The host says something at least every
``protocol.KEEPALIVE`` (a PING when it has nothing else), so a live host never
lets it go quiet. Runs on CPython here, and on MicroPython's unix port when there is
one (``micropython_rig.py`` says where the binary comes from)."""

from __future__ import annotations

import fw_fakes
from fw_rfid import Card
from fw_rig import Rig, kinds
from micropython_rig import run_on_both

import board
from companion.hardware import protocol as host_protocol

SILENT = board.HOST_SILENT_MS
DARK = ((0, 0, 0),) * board.PIXELS
NTAG = "04A1B2C3D4E580"


def lit(rig: Rig) -> bool:
    return fw_fakes.state.neopixels[-1].writes[-1] != DARK


def antennas_on(rig: Rig) -> list[bool]:
    return [chip.regs[0x14] & 0x03 == 0x03 for chip in rig.chips.values()]


def lit_rig() -> Rig:
    rig = Rig()
    rig.send("BRI", "255")
    rig.send("LED", "FF8001" * board.PIXELS)
    rig.run(20)
    assert lit(rig) and all(antennas_on(rig)) and not rig.firmware.quiet
    return rig


def test_the_silence_is_several_keepalives_long():
    assert SILENT >= 3 * host_protocol.KEEPALIVE * 1000


def test_a_silent_host_darkens_the_leds_and_switches_the_antennas_off():
    rig = lit_rig()
    rig.run(SILENT - 100)
    assert lit(rig) and all(antennas_on(rig))  # not yet
    rig.run(200)
    assert rig.firmware.quiet and not lit(rig) and not any(antennas_on(rig))
    assert rig.firmware.idle  # the loop sleeps instead of spinning
    rig.take()
    rig.chips[1].place(Card(NTAG))
    rig.run(5000)
    said = rig.take()
    assert "TAG" not in kinds(said)  # nothing is polled with the field off...
    assert kinds(said).count("HB") >= 4  # ...but the heartbeat goes on for a new host


def test_the_next_host_line_wakes_it_with_the_last_frame():
    rig = lit_rig()
    rig.run(SILENT + 1000)
    assert rig.firmware.quiet
    rig.chips[1].place(Card(NTAG))
    rig.send("PING")
    rig.run(100)
    assert not rig.firmware.quiet and lit(rig) and all(antennas_on(rig))
    assert fw_fakes.state.neopixels[-1].writes[-1][0] == (255, 128, 1)
    said = rig.until(lambda seen: "TAG" in kinds(seen))
    assert ("TAG", "1", NTAG, "ON") in [(m.kind,) + m.fields for m in said]


def test_a_new_frame_while_quiet_is_shown_at_once():
    rig = lit_rig()
    rig.run(SILENT + 1000)
    rig.send("LED", "000010" * board.PIXELS)
    rig.step(10)
    assert not rig.firmware.quiet
    assert fw_fakes.state.neopixels[-1].writes[-1][0] == (0, 0, 16)


def test_a_host_that_keeps_talking_keeps_it_awake():
    rig = lit_rig()
    for _ in range(12):  # a minute of a host with nothing to show but its keepalive
        rig.run(int(host_protocol.KEEPALIVE * 1000))
        rig.send("PING")
    rig.run(10)
    assert not rig.firmware.quiet and lit(rig) and all(antennas_on(rig))


def test_garbage_is_not_a_host():
    rig = lit_rig()
    for _ in range(4):
        rig.run(SILENT // 4)
        rig.send_raw(b"5 PING*0000\n>>> \r\nnoise\n")  # bad CRC, REPL noise
    rig.run(10)
    assert rig.firmware.quiet


def test_a_host_that_never_spoke_after_boot_leaves_it_quiet():
    rig = Rig()
    rig.run(SILENT + 10)
    assert rig.firmware.quiet and not any(antennas_on(rig))


SCENARIO = r'''
import sys
import fw_fakes

fw_fakes.install()

import board
import main
import protocol
from fw_rfid import FakeMFRC522

bus = fw_fakes.state.bus(board.SPI_ID)
chips = []
for cs in board.readers_in_use():
    chip = FakeMFRC522()
    bus.attach(cs, chip)
    chips.append(chip)
inbox = [protocol.encode(0, "BRI", "255") + protocol.encode(1, "LED", "102030" * board.PIXELS)]


def read():
    data, inbox[0] = inbox[0], b""
    return data


firmware = main.build(lambda line: None, read)
firmware.boot(0)
now = 0
states = []
for phase, (ms, line) in enumerate([(1000, None), (board.HOST_SILENT_MS, None),
                                    (1000, protocol.encode(2, "PING"))]):
    if line:
        inbox[0] = line
    end = now + ms
    while now < end:
        now += 10
        firmware.step(now)
    states.append((firmware.quiet, fw_fakes.state.neopixels[-1].writes[-1][0],
                   [chip.regs[0x14] & 3 for chip in chips]))
print(states)
'''


def test_quiet_and_wake_on_micropython(tmp_path):
    output = run_on_both(tmp_path, SCENARIO)
    assert output.strip() == ("[(False, (16, 32, 48), [3, 3, 3]), "
                              "(True, (0, 0, 0), [0, 0, 0]), "
                              "(False, (16, 32, 48), [3, 3, 3])]")
