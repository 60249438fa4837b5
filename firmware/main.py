"""Firmware of the Pico co-processor: RFID pads and the LED chain, over USB serial.

MicroPython runs this file at boot. It polls the MFRC522 readers one pad per loop
turn, debounces what they see into ``TAG <pad> <uid> ON/OFF`` lines, shows the LED
frames the host sends, and speaks ``PROTOCOL.md`` over the USB serial port (the
REPL's port) with ``protocol.py``, the host's own codec, copied next to this file.

The shape, so the host's test suite can run it under CPython with fake hardware:

- :class:`Firmware` holds the pads, the LEDs and the :class:`~link.DeviceLink`;
  :meth:`Firmware.boot` says HELLO and sets the readers up, and
  :meth:`Firmware.step` does one turn of the main loop at a given time (ms):
  read the host's bytes, poll the next pad, check the readers' health, send a
  heartbeat when due. It catches every exception and reports ``ERR INTERNAL``.
- A host silent for ``board.HOST_SILENT_MS`` is gone: the firmware goes *quiet*
  (LEDs dark, antennas off, no polling; heartbeats go on) and wakes on the host's
  next valid line, showing the last frame again.
- :func:`build` makes the real hardware objects from ``board.py``.
- :func:`run` is the loop itself: USB serial, the uptime clock, the watchdog.

Maintenance: Ctrl-C is off (a stray 0x03 must not stop the firmware), but one
Ctrl-C arms it for ``board.MAINTENANCE_ARM_MS``: a second one in that time stops
the firmware, stops the watchdog and leaves the REPL to ``mpremote`` (README.md).
"""

import micropython

# First of all, before the slower imports: a 0x03 from the host is data, not Ctrl-C.
micropython.kbd_intr(-1)

import sys  # noqa: E402
import time  # noqa: E402

import machine  # noqa: E402

import board  # noqa: E402
from leds import Leds  # noqa: E402
from link import Busy, DeviceLink, describe  # noqa: E402
from mfrc522 import MFRC522  # noqa: E402
from presence import Presence  # noqa: E402

FW_VERSION = "1.2.0"  # 1.1.0: goes quiet after a silent host; 1.2.0: BLINK (protocol 1.1)

CTRL_C = 3

# The watchdog's CTRL register per chip; bit 30 is ENABLE. The Pico SDK offers no
# way to stop the watchdog, so maintenance clears the bit by hand.
_WATCHDOG_CTRL = (("RP2350", 0x400D8000), ("RP2040", 0x40058000))
_WATCHDOG_ENABLE = 1 << 30


def uid_hex(uid):
    """A UID (bytes) as the protocol writes it: uppercase hex, two digits a byte."""
    return "".join("%02X" % byte for byte in uid)


class Pad:
    """One reader pad: its number (from 1), its driver, its debounced presence."""

    def __init__(self, number, reader, gone_after_ms):
        self.number = number
        self.reader = reader  # an MFRC522, or None if it could not even be built
        self.presence = Presence(gone_after_ms)
        self.ok = False  # the reader answered and is set up


class Firmware:
    """Everything the main loop does, with the hardware and the clock passed in.

    ``readers``: one driver (or None) per pad, pad 1 first. ``leds``: a
    :class:`~leds.Leds` or None (then ``led_error`` says why). ``write(bytes)``
    sends a line to the host; ``read()`` returns the host's bytes so far (b"" if
    none) without blocking. ``kbd_intr`` is ``micropython.kbd_intr``.
    """

    def __init__(self, readers, leds, write, read=None, pixels=board.PIXELS,
                 gone_after_ms=board.GONE_AFTER_MS, check_ms=board.READER_CHECK_MS,
                 arm_ms=board.MAINTENANCE_ARM_MS, kbd_intr=None, fw=FW_VERSION,
                 led_error=None, reader_errors=None, silent_ms=board.HOST_SILENT_MS):
        self.pads = [Pad(i + 1, reader, gone_after_ms) for i, reader in enumerate(readers)]
        self.leds = leds
        self.led_error = led_error
        self.reader_errors = reader_errors or {}  # pad -> why its driver could not be built
        self.link = DeviceLink(write, fw, len(self.pads), pixels,
                               on_led=self._on_led, on_bri=self._on_bri,
                               on_blink=self._on_blink)
        self.check_ms = check_ms
        self.arm_ms = arm_ms
        self.armed_until = None  # while set, a Ctrl-C stops the firmware
        self._read = read or (lambda: b"")
        self._kbd_intr = kbd_intr or micropython.kbd_intr
        self._turn = 0
        self._next_check = 0
        self.silent_ms = silent_ms
        self.quiet = False  # the host went silent: LEDs dark, antennas off
        self._booted_at = 0

    @property
    def idle(self):
        """True when no reader is polled, so the loop would spin: time to sleep a little."""
        if self.quiet:
            return True
        for pad in self.pads:
            if pad.ok:
                return False
        return True

    # -- boot ------------------------------------------------------------------------------

    def boot(self, now):
        """Say HELLO, set up every reader and the LEDs, report what failed."""
        self._guard(self.link.hello, now)
        for pad in self.pads:
            self._guard(self._boot_reader, now, pad)
        self._guard(self._boot_leds, now)
        self.link.start(now)
        self._next_check = now + self.check_ms
        self._booted_at = now

    def _boot_leds(self):
        if self.leds is None:
            self.link.error("LED_FAIL", self.led_error or "no LED driver")
            return
        try:
            self.leds.off()  # a soft reboot may have left the last frame on
        except Exception as exc:
            self.link.error("LED_FAIL", describe(exc))

    def _boot_reader(self, pad):
        if pad.reader is None:
            why = self.reader_errors.get(pad.number, "no driver")
            self.link.error("READER_FAIL", "%d %s" % (pad.number, why))
            return
        try:
            pad.ok = pad.reader.init()
        except Exception as exc:
            pad.ok = False
            self.link.error("READER_FAIL", "%d %s" % (pad.number, describe(exc)))
            return
        if not pad.ok:
            self.link.error("READER_FAIL", "%d no answer from MFRC522 (version 0x%02X)"
                            % (pad.number, self._version(pad)))

    # -- one turn of the main loop -----------------------------------------------------------

    def step(self, now):
        """One turn of the main loop at ``now`` (ms since boot). Never raises an Exception."""
        self._guard(self._input, now, now)
        self._guard(self._silence, now, now)
        if not self.quiet:
            self._guard(self._poll, now, now)
            self._guard(self._check, now, now)
        self._guard(self._disarm, now, now)
        if self.leds is not None:
            self._guard(self.leds.tick, now, now)  # a blink the host asked for
        self._guard(self.link.heartbeat, now, now)

    def _guard(self, func, now, *args):
        try:
            func(*args)
        except Exception as exc:  # an escaped traceback would drop the Pico to the REPL
            try:
                self.link.internal(exc, now)
            except Exception:
                pass  # cannot even report it; the next turn tries again

    def _input(self, now):
        data = self._read()
        if not data:
            return
        if CTRL_C in data:
            self._arm(now)
        self.link.feed(data, now)

    def _silence(self, now):
        """Go quiet once the host has been silent ``silent_ms``; wake when it speaks."""
        heard = self.link.heard_at
        last = self._booted_at if heard is None else max(heard, self._booted_at)
        silent = now - last >= self.silent_ms
        if silent == self.quiet:
            return
        self.quiet = silent
        if self.leds is not None:
            self._guard(self.leds.dark, now, silent)
        for pad in self.pads:
            if pad.ok:
                self._guard(pad.reader.antenna, now, not silent)

    def _poll(self, now):
        """Poll the next pad in turn; a failed reader counts as "nothing seen"."""
        if not self.pads:
            return
        pad = self.pads[self._turn]
        self._turn = (self._turn + 1) % len(self.pads)
        uid = None
        try:
            if pad.ok:
                raw = pad.reader.read_uid()
                if raw is not None:
                    uid = uid_hex(raw)
        finally:  # even when the read raised, a card still goes OFF in time
            for tag, on in pad.presence.update(uid, now):
                self.link.tag(pad.number, tag, on)

    def _check(self, now):
        """Every ``check_ms``: notice readers that died, came back or lost their setup."""
        if now < self._next_check:
            return
        self._next_check = now + self.check_ms
        for pad in self.pads:
            self._guard(self._check_pad, now, pad)

    def _check_pad(self, pad):
        reader = pad.reader
        if reader is None:
            return
        if pad.ok:
            if reader.configured():
                return
            if reader.present():  # alive but reset (brown-out, loose RST): set it up again
                pad.ok = reader.init()
                if pad.ok:
                    return
            pad.ok = False
            self.link.error("READER_FAIL", "%d stopped answering (version 0x%02X)"
                            % (pad.number, self._version(pad)))
        elif reader.present():
            pad.ok = reader.init()  # plugged back in: it just works again

    def _version(self, pad):
        try:
            return pad.reader.version()
        except Exception:
            return 0

    # -- maintenance ----------------------------------------------------------------------------

    def _arm(self, now):
        if self.armed_until is None:
            self._kbd_intr(CTRL_C)  # from now on a Ctrl-C raises KeyboardInterrupt
        self.armed_until = now + self.arm_ms

    def _disarm(self, now):
        if self.armed_until is not None and now >= self.armed_until:
            self.armed_until = None
            self._kbd_intr(-1)

    def stop(self, watchdog_stopped):
        """Leave the REPL usable: Ctrl-C on, LEDs dark, a note for whoever reads the port."""
        self._kbd_intr(CTRL_C)
        if self.leds is not None:
            try:
                self.leds.off()
            except Exception:
                pass
        if watchdog_stopped:
            note = "the watchdog is stopped"
        else:
            note = "the watchdog still runs: it resets the board within %d s" % (
                board.WDT_TIMEOUT_MS // 1000)
        self.link.write_raw(("\r\ncompanion firmware %s stopped for maintenance; %s.\r\n"
                             % (FW_VERSION, note)).encode())

    # -- LED lines from the host ----------------------------------------------------------------

    def _on_led(self, pixels):
        self._leds_call(self.leds.show if self.leds else None, pixels)

    def _on_blink(self, period, first, second, now):
        self._leds_call(self.leds.blink if self.leds else None, period, first, second, now)

    def _on_bri(self, level):
        self._leds_call(self.leds.set_brightness if self.leds else None, level)

    def _leds_call(self, func, *args):
        if func is None:
            raise Busy()  # no driver: LED_FAIL was reported at boot
        try:
            func(*args)
        except Exception as exc:
            self.link.error("LED_FAIL", describe(exc))
            raise Busy()


# -- the real hardware --------------------------------------------------------------------------


def _sleeper():
    return getattr(time, "sleep_ms", None)  # MicroPython only; None under CPython (tests)


def build(write, read, kbd_intr=None):
    """A :class:`Firmware` on the hardware ``board.py`` describes."""
    Pin = machine.Pin
    sleep_ms = _sleeper()
    cs_pins = board.readers_in_use()
    readers = [None] * len(cs_pins)
    reader_errors = {}
    try:
        # Every chip-select high before the bus starts, the unused ones too: a select
        # left floating reads low, and a reader that thinks it is addressed drives MISO
        # against the one we talk to.
        for n in board.READER_CS:
            Pin(n, Pin.OUT, value=1)
        spi = machine.SPI(board.SPI_ID, baudrate=board.SPI_BAUD, polarity=0, phase=0,
                          sck=Pin(board.SCK), mosi=Pin(board.MOSI), miso=Pin(board.MISO))
        rst = [Pin(n, Pin.OUT, value=1) for n in board.READER_RST]
        own_rst = len(rst) >= len(cs_pins) and len(cs_pins) > 1
        if not own_rst:
            for pin in rst:  # one shared line: reset every reader at once, once
                pin(0)
                if sleep_ms:
                    sleep_ms(1)
                pin(1)
            if sleep_ms:
                sleep_ms(50)
        for i, cs in enumerate(cs_pins):
            readers[i] = MFRC522(spi, Pin(cs, Pin.OUT, value=1),
                                 rst=rst[i] if own_rst else None,
                                 sleep_ms=sleep_ms, gain=board.READER_GAIN)
    except Exception as exc:  # bad pins in board.py: report it, keep the LEDs and the link
        for i in range(len(cs_pins)):
            if readers[i] is None:
                reader_errors[i + 1] = "SPI set-up failed: " + describe(exc)
    leds, led_error = None, None
    try:
        leds = Leds(Pin(board.LED_PIN, Pin.OUT), board.PIXELS, board.BRIGHTNESS)
    except Exception as exc:
        led_error = describe(exc)
    return Firmware(readers, leds, write, read, pixels=board.PIXELS,
                    gone_after_ms=board.GONE_AFTER_MS, check_ms=board.READER_CHECK_MS,
                    arm_ms=board.MAINTENANCE_ARM_MS, kbd_intr=kbd_intr,
                    led_error=led_error, reader_errors=reader_errors)


def stop_watchdog():
    """Clear the watchdog's ENABLE bit on an RP2040 or RP2350; False on another chip."""
    import os

    chip = os.uname().machine
    for name, address in _WATCHDOG_CTRL:
        if name in chip:
            machine.mem32[address] = (machine.mem32[address] & 0xFFFFFFFF) & ~_WATCHDOG_ENABLE
            return True
    return False


class UsbSerial:
    """The REPL's USB serial port, read without blocking and written a line at a time."""

    def __init__(self, limit=1024):
        import select

        self.limit = limit  # bytes per loop turn, so a flood cannot starve the readers
        self.watchdog = None  # fed after each line: a slow host may take a while to read
        self._stdin = sys.stdin.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = bytearray()
        # read(1) only: MicroPython's stdin read(n) blocks until all n bytes came.
        while len(data) < self.limit and self._poll.poll(0):
            data += self._stdin.read(1)
        return bytes(data)

    def write(self, line):
        # When the host holds the port open but does not read, each write waits for
        # USB's timeout before dropping; a burst of answers must not starve the watchdog.
        sys.stdout.write(line.decode())
        if self.watchdog is not None:
            self.watchdog.feed()


class Uptime:
    """Milliseconds since boot as a plain int (ticks_ms wraps; this does not)."""

    def __init__(self):
        self._last = time.ticks_ms()
        self._ms = 0

    def now(self):
        ticks = time.ticks_ms()
        self._ms += time.ticks_diff(ticks, self._last)
        self._last = ticks
        return self._ms


def run():
    """The firmware: boot, then loop until the power goes (or maintenance stops it)."""
    usb = UsbSerial()
    clock = Uptime()
    firmware = build(usb.write, usb.read)
    firmware.boot(clock.now())
    watchdog = machine.WDT(timeout=board.WDT_TIMEOUT_MS)  # after boot: set-up may sleep
    usb.watchdog = watchdog
    try:
        while True:
            watchdog.feed()
            firmware.step(clock.now())
            if firmware.idle:
                time.sleep_ms(1)  # nothing to poll: do not spin
    except KeyboardInterrupt:  # only while armed: the second Ctrl-C of a maintenance request
        firmware.stop(stop_watchdog())


if __name__ == "__main__":
    run()
