"""A small MFRC522 driver: find one ISO 14443A card and read its full UID.

Written from the chip's register map and ISO/IEC 14443-3, for polling a pad:
:meth:`MFRC522.read_uid` wakes the cards in the field (WUPA), walks the cascade
levels (SEL 0x93, 0x95, 0x97) with bit-oriented anticollision and SELECT, checks
every BCC and CRC_A, and halts the card again. It returns the whole 4-, 7- or
10-byte UID (an NTAG's 7 bytes, never the 4 of cascade level 1) or None.

Why WUPA and HLTA on every poll: a card that was selected stays ACTIVE and
ignores the next REQA, so plain REQA polling sees a resting card only every other
time. A halted card answers WUPA every time.

SPI framing (mode 0, MSB first): the address byte is ``(reg << 1) & 0x7E``, with
bit 7 set to read. In a read, each further byte sent is the next address and each
byte received is the value of the previous one; in a write, every byte after the
address goes to that register (that is how the FIFO is filled in one go).
"""

from micropython import const

# Registers (page 0-3 of the register map)
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_RF_CFG = const(0x26)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
VERSION_REG = const(0x37)

# Commands (CommandReg bits 3-0)
_IDLE = const(0x00)
_TRANSMIT = const(0x04)
_TRANSCEIVE = const(0x0C)
_SOFT_RESET = const(0x0F)

# ComIrqReg bits
_TX_IRQ = const(0x40)
_RX_IRQ = const(0x20)
_IDLE_IRQ = const(0x10)
_TIMER_IRQ = const(0x01)

# ErrorReg bits
_COLL_ERR = const(0x08)
_PARITY_ERR = const(0x02)
_FATAL_ERR = const(0x11)  # BufferOvfl, ProtocolErr

# ISO 14443-3 commands to the card
REQA = const(0x26)
WUPA = const(0x52)
HLTA = const(0x50)
SELECT = (0x93, 0x95, 0x97)  # SEL of cascade level 1, 2, 3
CASCADE_TAG = const(0x88)  # first byte of a level's UID part when more UID follows
SAK_MORE = const(0x04)  # SAK bit: UID not complete, go to the next cascade level

# Outcomes of one exchange
OK = 0
TIMEOUT = 1
COLLISION = 2
ERROR = 3

# Version register values that mean "no chip": MISO held low or floating high.
NO_CHIP = (0x00, 0xFF)

# 10 ms reply window: 13.56 MHz / (2 * 169 + 1) = 40 kHz timer, 400 ticks.
# Cards answer within about 0.1 ms, and an empty pad costs the whole window.
_PRESCALER = 169
_RELOAD = 400


def crc_a(data):
    """ISO 14443-3 CRC_A of ``data`` as the two bytes sent after it (low byte first).

    CRC-16 with polynomial x^16 + x^12 + x^5 + 1, reflected, initial value 0x6363.
    """
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes((crc & 0xFF, (crc >> 8) & 0xFF))


def bcc(part):
    """The check byte after a cascade level's four UID bytes: their XOR."""
    return part[0] ^ part[1] ^ part[2] ^ part[3]


def _no_sleep(ms):
    pass


class MFRC522:
    """One reader on ``spi`` with chip-select ``cs`` (an output Pin, active low).

    ``rst`` is the reader's own reset pin, or None when the line is shared or tied
    high (the caller pulses a shared line once at boot). ``sleep_ms`` waits for the
    oscillator after a reset; ``gain`` is RFCfgReg's RxGain bits.
    """

    def __init__(self, spi, cs, rst=None, sleep_ms=None, gain=0x40, max_polls=600):
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self.gain = gain & 0x70
        self.max_polls = max_polls  # bound on status reads per exchange, if the timer never fires
        self._sleep_ms = sleep_ms or _no_sleep
        self._one = bytearray(2)
        self._back = bytearray(2)
        self._stranded = False  # a card may be left awake by a read that broke off
        cs(1)  # deselected until we talk to it
        if rst is not None:
            rst(1)

    # -- register access ---------------------------------------------------------------

    def _write(self, reg, value):
        self._one[0] = (reg << 1) & 0x7E
        self._one[1] = value
        self.cs(0)
        try:
            self.spi.write(self._one)
        finally:
            self.cs(1)

    def _read(self, reg):
        self._one[0] = ((reg << 1) & 0x7E) | 0x80
        self._one[1] = 0
        self.cs(0)
        try:
            self.spi.write_readinto(self._one, self._back)
        finally:
            self.cs(1)
        return self._back[1]

    def _set_bits(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def _clear_bits(self, reg, mask):
        self._write(reg, self._read(reg) & ~mask & 0xFF)

    def _write_fifo(self, data):
        out = bytearray(len(data) + 1)
        out[0] = (_FIFO_DATA << 1) & 0x7E
        out[1:] = data
        self.cs(0)
        try:
            self.spi.write(out)
        finally:
            self.cs(1)

    def _read_fifo(self, count):
        if count <= 0:
            return b""
        address = ((_FIFO_DATA << 1) & 0x7E) | 0x80
        out = bytearray(count + 1)
        for i in range(count):
            out[i] = address  # the last byte stays 0x00: end of the read
        back = bytearray(count + 1)
        self.cs(0)
        try:
            self.spi.write_readinto(out, back)
        finally:
            self.cs(1)
        return bytes(back[1:])

    # -- set-up ----------------------------------------------------------------------------

    def version(self):
        """VersionReg: 0x91/0x92 for NXP chips, other values for clones, 0x00/0xFF for none."""
        return self._read(VERSION_REG)

    def present(self):
        """True if a chip answers on the bus at all."""
        return self.version() not in NO_CHIP

    def reset(self):
        """Hard reset through the own RST pin if there is one, then a soft reset."""
        if self.rst is not None:
            self.rst(0)
            self._sleep_ms(1)
            self.rst(1)
            self._sleep_ms(50)
        self._write(_COMMAND, _SOFT_RESET)
        self._sleep_ms(50)  # the oscillator restarts; PowerDown clears when it is ready
        for _ in range(20):
            if not self._read(_COMMAND) & 0x10:
                break
            self._sleep_ms(5)

    def init(self):
        """Reset and configure the reader; False (and nothing written) if no chip answers."""
        if not self.present():
            return False
        self.reset()
        self._write(_T_MODE, 0x80 | (_PRESCALER >> 8))  # TAuto: timer starts when sending ends
        self._write(_T_PRESCALER, _PRESCALER & 0xFF)
        self._write(_T_RELOAD_H, _RELOAD >> 8)
        self._write(_T_RELOAD_L, _RELOAD & 0xFF)
        self._write(_TX_ASK, 0x40)  # 100 % ASK modulation, as ISO 14443A wants
        self._write(_MODE, 0x3D)  # CRC preset 0x6363 (CRC_A), transmitter waits for RF
        self._write(_RF_CFG, self.gain)
        self.antenna(True)
        return self.present()

    def antenna(self, on):
        """Switch the field on TX1 and TX2 on or off."""
        if on:
            self._set_bits(_TX_CONTROL, 0x03)
        else:
            self._clear_bits(_TX_CONTROL, 0x03)

    def configured(self):
        """True while the chip answers and its field is on (a brown-out resets both)."""
        if not self.present():
            return False
        return self._read(_TX_CONTROL) & 0x03 == 0x03

    # -- one exchange with the card ------------------------------------------------------

    def transceive(self, data, tx_bits=0, rx_align=0):
        """Send ``data`` and read the answer: ``(status, data, last_bits)``.

        ``tx_bits`` is how many bits of the last byte to send (0 = all 8);
        ``rx_align`` is the bit position where the first received bit is stored,
        for answers that continue a partly known byte. ``last_bits`` is how many
        bits of the last received byte are valid (0 = all 8).
        """
        framing = ((rx_align & 0x07) << 4) | (tx_bits & 0x07)
        self._write(_COMMAND, _IDLE)
        self._write(_COM_IRQ, 0x7F)  # clear every interrupt flag (Set1 = 0)
        self._write(_FIFO_LEVEL, 0x80)  # flush the FIFO
        self._write_fifo(data)
        self._write(_BIT_FRAMING, framing)
        self._write(_COMMAND, _TRANSCEIVE)
        self._write(_BIT_FRAMING, 0x80 | framing)  # StartSend
        irq = 0
        for _ in range(self.max_polls):
            irq = self._read(_COM_IRQ)
            if irq & (_RX_IRQ | _IDLE_IRQ | _TIMER_IRQ):
                break
        self._write(_BIT_FRAMING, framing)  # StartSend off again
        if not irq & (_RX_IRQ | _IDLE_IRQ):
            self._write(_COMMAND, _IDLE)
            return TIMEOUT, b"", 0
        error = self._read(_ERROR)
        # A parity error in a collided byte says nothing new: the collision is handled.
        if error & _FATAL_ERR or (error & _PARITY_ERR and not error & _COLL_ERR):
            self._write(_COMMAND, _IDLE)
            return ERROR, b"", 0
        count = self._read(_FIFO_LEVEL) & 0x7F
        last_bits = self._read(_CONTROL) & 0x07
        back = self._read_fifo(count)
        self._write(_COMMAND, _IDLE)
        if error & _COLL_ERR:
            return COLLISION, back, last_bits
        return OK, back, last_bits

    def _transmit(self, data):
        """Send ``data`` and expect no answer (HLTA): wait until it is out."""
        self._write(_COMMAND, _IDLE)
        self._write(_COM_IRQ, 0x7F)
        self._write(_FIFO_LEVEL, 0x80)
        self._write_fifo(data)
        self._write(_BIT_FRAMING, 0x00)
        self._write(_COMMAND, _TRANSMIT)
        for _ in range(self.max_polls):
            if self._read(_COM_IRQ) & (_TX_IRQ | _IDLE_IRQ):
                break
        self._write(_COMMAND, _IDLE)

    # -- ISO 14443-3 steps -------------------------------------------------------------

    def request(self, wake=True):
        """WUPA (or REQA): the ATQA (2 bytes) if any card answered, else None.

        Several cards answer at once and their ATQAs may collide; any answer
        means "a card is here", the anticollision sorts them out.
        """
        status, back, _ = self.transceive(bytes((WUPA if wake else REQA,)), tx_bits=7)
        if status in (OK, COLLISION) and len(back) == 2:
            return back
        return None

    def anticollision(self, level):
        """The 5 bytes (4 UID bytes + BCC) of one card at cascade ``level`` (0-2), or None.

        On a bit collision (two cards) the branch with a 1 at the first differing
        bit is taken, as ISO 14443-3 suggests, and the cards whose UID matches the
        bits known so far are asked again, until one card answers alone. So a
        collision always ends in one card's UID, never in a mix.
        """
        sel = SELECT[level]
        self._clear_bits(_COLL, 0x80)  # ValuesAfterColl = 0: bits after a collision read as 0
        part = bytearray(5)
        known = 0  # how many bits of ``part`` are settled, from bit 0 of byte 0
        for _ in range(33):  # each round settles at least one more bit
            whole, extra = known // 8, known % 8
            nvb = ((2 + whole) << 4) | extra  # bytes (with SEL and NVB) and bits sent
            frame = bytes((sel, nvb)) + bytes(part[:whole + (1 if extra else 0)])
            status, back, _ = self.transceive(frame, tx_bits=extra, rx_align=extra)
            if status not in (OK, COLLISION) or not back:
                return None
            # The answer continues at bit ``extra`` of byte ``whole``: keep our bits below it.
            keep = (1 << extra) - 1
            for i in range(len(back)):
                at = whole + i
                if at >= 5:
                    break
                if i == 0:
                    part[at] = (part[at] & keep) | (back[0] & ~keep & 0xFF)
                else:
                    part[at] = back[i]
            if status == OK:
                if whole + len(back) < 5 or part[4] != bcc(part):
                    return None
                return bytes(part)
            first = self._collision_bit(whole, known)
            if first is None:
                return None
            part[first // 8] |= 1 << (first % 8)  # take the "1" branch
            known = first + 1
        return None

    def _collision_bit(self, whole, known):
        """Index in the 40-bit UID part of the first collided bit, or None.

        CollPos (1-32, 0 meaning 32) counts the received bits as they sit in the
        FIFO, where the first one is stored at bit RxAlign of the first byte, so
        the FIFO's bit 0 is bit ``8 * whole`` of the UID part.
        """
        coll = self._read(_COLL)
        if coll & 0x20:  # CollPosNotValid: beyond the range CollPos can show
            return None
        pos = coll & 0x1F or 32
        first = whole * 8 + pos - 1
        if first < known or first >= 40:
            return None  # inconsistent: give up this poll, the next one tries again
        return first

    def select(self, level, part):
        """SELECT the card whose UID part at ``level`` is ``part``: its SAK, or None."""
        frame = bytes((SELECT[level], 0x70)) + bytes(part)
        status, back, _ = self.transceive(frame + crc_a(frame))
        if status != OK or len(back) != 3 or crc_a(back[:1]) != back[1:]:
            return None
        return back[0]

    def halt(self):
        """HLTA: send the selected card to sleep until the next WUPA."""
        frame = bytes((HLTA, 0x00))
        self._transmit(frame + crc_a(frame))

    def read_uid(self):
        """The full UID (bytes, 4, 7 or 10 long) of one card on the pad, or None."""
        if self.request() is None:
            if not self._stranded:
                return None
            # The last read broke off after the card woke, leaving it READY or ACTIVE:
            # that WUPA only sent it back to sleep, and the next one wakes it.
            if self.request() is None:
                self._stranded = False
                return None
        self._stranded = True
        uid = self._walk_levels()
        if uid is not None:
            self._stranded = False
            self.halt()
        return uid

    def _walk_levels(self):
        uid = bytearray()
        for level in range(3):
            part = self.anticollision(level)
            if part is None:
                return None
            sak = self.select(level, part)
            if sak is None:
                return None
            if not sak & SAK_MORE:
                uid += part[:4]
                return bytes(uid)
            if part[0] != CASCADE_TAG:
                return None  # "more to come" without the cascade tag: not a valid card
            uid += part[1:4]
        return None  # a fourth level does not exist
