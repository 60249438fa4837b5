"""Pins and settings of the Pico co-processor, in one place.

Change a wire, change it here: nothing else in the firmware names a pin. The
defaults are the reference build (``hardware/`` draws it): 2-3 MFRC522 readers on
SPI0 with one chip-select each and a shared reset line, and a 25-pixel WS2812
chain behind a 5 V buffer. GP numbers are the RP2040's GPIO numbers, not the
physical pins of the Pico's header.
"""

# -- RFID readers (MFRC522 on SPI0) ------------------------------------------------------

SPI_ID = 0
SCK = 2
MOSI = 3
MISO = 4
# The MFRC522 allows 10 MHz; up to 50 cm of ribbon or Dupont to a pad, with its
# ringing, does not. 1 MHz keeps clean edges there and still polls three readers
# many times a second (an idle poll is a handful of 2-byte register accesses).
SPI_BAUD = 1000000

READER_CS = (5, 6, 7)  # chip-select of pad 1, 2, 3 (active low)
READERS = 3  # pads in use: 2 (one per seat) or 3 (plus the centre pad)

# One shared reset line (NRSTPD, active low) for all readers, or one pin per
# reader in pad order, e.g. (8, 9, 10). () if RST is tied to 3.3 V.
READER_RST = (8,)

# RxGain in RFCfgReg: 0x40 = 33 dB (the chip's default), 0x50 = 38 dB,
# 0x60 = 43 dB, 0x70 = 48 dB. Moderate on purpose: several readers at maximum
# gain close together have been seen to stop reading altogether.
READER_GAIN = 0x50

# -- LEDs ------------------------------------------------------------------------------------

LED_PIN = 16  # WS2812 data, through a 74AHCT125 (3.3 V is below the chain's input high)
PIXELS = 25  # must match the host's LED map (HELLO announces it): the board's 24 and turn
BRIGHTNESS = 64  # cap (0-255) until the host sends BRI: about 25 %, safe on USB power

# -- timing ------------------------------------------------------------------------------------

GONE_AFTER_MS = 500  # a tag is reported OFF after this long unseen (reads flicker)
READER_CHECK_MS = 2000  # how often each reader's health is checked
WDT_TIMEOUT_MS = 8000  # hardware watchdog; the RP2040 allows at most 8388 ms
MAINTENANCE_ARM_MS = 5000  # after one Ctrl-C, a second within this long stops the firmware
# The host says something at least every protocol.KEEPALIVE (5 s: a PING when it has
# nothing else to say). After this long without a valid host line the host is gone
# (crashed, hung, shut down with the Pico still powered): the LEDs go dark and the
# readers' antennas off until the host speaks again.
HOST_SILENT_MS = 15000


def readers_in_use():
    """The chip-select pins of the pads in use, in pad order (pad 1 first)."""
    if READERS < 1 or READERS > len(READER_CS):
        raise ValueError("READERS must be 1-%d" % len(READER_CS))
    return READER_CS[:READERS]
