"""The firmware's main loop against the host's real SerialLink, through a pty.

The firmware runs on a thread with the wall clock, its fake readers and LED chain
behind it; the host side is ``companion.hardware.link.SerialLink`` opening the
pty with pyserial, exactly as it opens ``/dev/companion-io``. Waits poll with a
deadline; nothing asserts a duration.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import tty

import fw_fakes
import pytest
from fw_rfid import Card
from fw_rig import Rig

import board
import leds
import main

pytest.importorskip("serial")

from companion.hardware.link import SerialLink, TagOff  # noqa: E402
from companion.inputs import Tag  # noqa: E402
from waiting import eventually, is_state, wait_for  # noqa: E402

NTAG = "04A1B2C3D4E580"


class PtyFirmware:
    """The firmware stepping on its own thread, talking through the master side of a pty."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # bytes pass unchanged, as on a USB CDC port
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.lock = threading.Lock()  # the test touches the fake cards under it
        self.rig = Rig(boot=False, write=self._write, read=self._read)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fw-loop", daemon=True)
        self._thread.start()

    def _write(self, data: bytes) -> None:
        deadline = time.monotonic() + 1.0
        while data and time.monotonic() < deadline:
            try:
                data = data[os.write(self.master, data):]
            except BlockingIOError:
                time.sleep(0.001)

    def _read(self) -> bytes:
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return b""

    def _run(self) -> None:
        start = time.monotonic()
        with self.lock:
            self.rig.firmware.boot(0)
        while not self._stop.is_set():
            with self.lock:
                self.rig.firmware.step(int((time.monotonic() - start) * 1000))
            time.sleep(0.002)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        os.close(self.master)
        os.close(self.slave)


def test_firmware_and_host_link_end_to_end():
    device = PtyFirmware()
    events: queue.Queue = queue.Queue()
    link = SerialLink(device.path, 115200, events.put_nowait)
    try:
        up = wait_for(events, is_state("up"), timeout=3.0)
        assert f"readers=3 pixels={board.PIXELS}" in up.detail
        assert link.hello["fw"] == main.FW_VERSION

        with device.lock:
            device.rig.chips[2].place(Card(NTAG))
        assert wait_for(events, lambda e: isinstance(e, Tag), timeout=3.0) == Tag(2, NTAG)

        chain = fw_fakes.state.neopixels[-1]
        frame = [(i * 10, 255 - i * 10, 7) for i in range(board.PIXELS)]
        link.set_brightness(128)
        link.send_leds(frame)
        shown = tuple(leds.scale(pixel, 128) for pixel in frame)
        assert eventually(lambda: chain.writes and chain.writes[-1] == shown, 3.0)

        with device.lock:
            device.rig.chips[2].remove()
        assert wait_for(events, lambda e: isinstance(e, TagOff), timeout=3.0) == TagOff(2, NTAG)

        assert link.ping()
        assert eventually(lambda: link.stats.acks >= 3, 3.0)  # BRI, LED, PING
        assert link.stats.rejected == 0 and link.stats.naks == 0 and link.stats.lost == 0
    finally:
        link.close()
        device.close()
