"""The firmware on a real MicroPython interpreter (the unix port), if there is one.

The Pico runs MicroPython, not CPython: this copies ``firmware/*.py`` and
``protocol.py`` side by side as on the Pico, with the fake hardware, runs one
scenario on MicroPython and on CPython, and requires the same bytes on the wire
from both (``micropython_rig.py`` says where the binary comes from).
"""

from companion.hardware import protocol as host_protocol
from micropython_rig import run_on_both

SCENARIO = r'''
import sys
import fw_fakes

fw_fakes.install()

import board
import main
import protocol
from fw_rfid import Card, FakeMFRC522

bus = fw_fakes.state.bus(board.SPI_ID)
chips = []
for cs in board.readers_in_use():
    chip = FakeMFRC522(version=0x00 if cs == board.READER_CS[1] else 0x92)
    bus.attach(cs, chip)
    chips.append(chip)

out = bytearray()
inbox = [b""]


def read():
    data, inbox[0] = inbox[0], b""
    return data


firmware = main.build(out.extend, read)
firmware.boot(0)
chips[0].place(Card("04A1B2C3D4E580"), Card("04A1B2C3D4E581"))
chips[2].place(Card("0411223344556677889A"))
for turn in range(200):
    now = turn * 10
    if turn == 20:
        inbox[0] = (protocol.encode(0, "BRI", "128")
                    + protocol.encode(1, "LED", "FF8001" * board.PIXELS)
                    + b"5 PING*8ACF\n" + b"\r\x03" + protocol.encode(2, "HELLO?"))
    if turn == 60:
        chips[0].remove()
    if turn == 120:
        chips[2].unreadable = 5
    firmware.step(now)
sys.stdout.write(bytes(out).decode())
print("LEDS", fw_fakes.state.neopixels[-1].writes[-1][0])
print("KBD", fw_fakes.state.kbd_intr)
'''


def test_the_firmware_runs_the_same_on_micropython(tmp_path):
    output = run_on_both(tmp_path, SCENARIO)

    lines = output.splitlines()
    messages = [host_protocol.decode(line.encode()) for line in lines[:-2]]
    said = [(m.kind,) + m.fields for m in messages if m.kind != "HB"]
    assert said[0][0] == "HELLO"
    assert said[1][:4] == ("ERR", "READER_FAIL", "2", "no")
    assert ("TAG", "1", "04A1B2C3D4E581", "ON") in said  # the "1" branch of the collision
    assert ("TAG", "3", "0411223344556677889A", "ON") in said
    assert ("TAG", "1", "04A1B2C3D4E581", "OFF") in said
    assert [s for s in said if s[0] in ("ACK", "NAK")] == [
        ("ACK", "0"), ("ACK", "1"), ("NAK", "5", "BAD_CRC"), ("ACK", "2")]
    assert [m.kind for m in messages].count("HB") == 1
    assert lines[-2] == "LEDS (128, 64, 1)"
    assert lines[-1] == "KBD [-1, 3]"  # off at import, armed by the stray Ctrl-C


BLINK_SCENARIO = r'''
import sys
import fw_fakes

fw_fakes.install()

import board
import main
import protocol

out = bytearray()
inbox = [b""]


def read():
    data, inbox[0] = inbox[0], b""
    return data


firmware = main.build(out.extend, read)
firmware.boot(0)
amber = protocol.led_fields([(255, 130, 0)] * board.PIXELS)
dark = protocol.led_fields([(0, 0, 0)] * board.PIXELS)
chain = fw_fakes.state.neopixels[-1]
for turn in range(300):
    now = turn * 10
    if turn == 10:
        inbox[0] = (protocol.encode(0, "BRI", "255")
                    + protocol.encode(1, "BLINK", *protocol.blink_fields(500, amber, dark)))
    firmware.step(now)
    if turn % 25 == 0:
        print("AT", now, chain.writes[-1][0])
sys.stdout.write(bytes(out).decode())
'''


def test_the_picos_own_blink_runs_the_same_on_micropython(tmp_path):
    output = run_on_both(tmp_path, BLINK_SCENARIO)

    shown = [line for line in output.splitlines() if line.startswith("AT ")]
    assert shown == ["AT 0 (0, 0, 0)"] + [
        "AT %d %s" % (ms, "(255, 130, 0)" if ((ms - 100) // 500) % 2 == 0 else "(0, 0, 0)")
        for ms in range(250, 3000, 250)]
    said = [host_protocol.decode(line.encode()) for line in output.splitlines()
            if not line.startswith("AT ")]
    assert [(m.kind,) + m.fields for m in said if m.kind in ("ACK", "NAK")] == [
        ("ACK", "0"), ("ACK", "1")]
    assert host_protocol.parse_hello(said[0].fields)["proto_minor"] == 1
