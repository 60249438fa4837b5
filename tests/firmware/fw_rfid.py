"""A register-level fake MFRC522 and ISO 14443A cards, for the firmware's driver.

:class:`FakeMFRC522` speaks the chip's SPI framing (address byte ``reg << 1``, bit 7
set to read; in a read each further byte is the next address, in a write each
further byte goes to the same register) and models the registers the driver uses:
CommandReg (Idle, Transmit, Transceive, CalcCRC, SoftReset), ComIrqReg and
DivIrqReg (Set1 semantics), ErrorReg, FIFODataReg/FIFOLevelReg (64 bytes, flush),
ControlReg (RxLastBits), BitFramingReg (StartSend, RxAlign, TxLastBits), CollReg
(ValuesAfterColl, CollPosNotValid, CollPos), TxControlReg (the field is off until
TX1/TX2 are on), TModeReg (TAuto: no answer ends in TimerIRq) and VersionReg.

Frames are handled bit by bit. Every :class:`Card` in the field answers what the
ISO 14443-3 state machine says (IDLE, READY per cascade level, ACTIVE, HALT); when
several answer, the first bit where they differ is a collision: ErrorReg.CollErr,
CollPos counted from bit 0 of the first FIFO byte (where RxAlign puts the first
received bit), and the bits from there on read as 0 (or as the OR of the answers
if ValuesAfterColl is left at 1). The CRC_A here is computed bit by bit, separately
from the driver's byte-wise version, so a wrong CRC in either shows up.

Like ``fw_fakes.py``, this also runs on MicroPython's unix port.
"""

CASCADE_TAG = 0x88
SEL = (0x93, 0x95, 0x97)

COMMAND, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
TX_CONTROL, T_MODE, CRC_H, CRC_L, VERSION = 0x14, 0x2A, 0x21, 0x22, 0x37

IDLE, CALC_CRC, TRANSMIT, TRANSCEIVE, SOFT_RESET = 0x0, 0x3, 0x4, 0xC, 0xF

RESET_VALUES = {
    COMMAND: 0x20, COM_IRQ: 0x14, 0x02: 0x80, ERROR: 0x00, 0x07: 0x21, FIFO_LEVEL: 0x00,
    CONTROL: 0x10, BIT_FRAMING: 0x00, COLL: 0xA0, 0x11: 0x3F, 0x12: 0x00, 0x13: 0x00,
    TX_CONTROL: 0x80, 0x15: 0x00, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D,
    0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20,
}


def crc_a_bitwise(data: bytes) -> bytes:
    """CRC_A the long way: reflected 0x1021 (0x8408), init 0x6363, low byte first."""
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return bytes((crc & 0xFF, crc >> 8))


def to_bits(data: bytes, nbits: int | None = None) -> list[int]:
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]  # LSB first, as on air
    return bits if nbits is None else bits[:nbits]


def from_bits(bits: list[int]) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def uid_parts(uid: bytes) -> list[bytes]:
    """The 5-byte UID CLn (4 bytes + BCC) of each cascade level."""
    if len(uid) == 4:
        chunks = [uid]
    elif len(uid) == 7:
        chunks = [bytes((CASCADE_TAG,)) + uid[:3], uid[3:]]
    elif len(uid) == 10:
        chunks = [bytes((CASCADE_TAG,)) + uid[:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:]]
    else:
        raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}")
    return [chunk + bytes((chunk[0] ^ chunk[1] ^ chunk[2] ^ chunk[3],)) for chunk in chunks]


class Card:
    """An ISO 14443A card (NTAG21x for 7 bytes, MIFARE Classic for 4) in a field."""

    def __init__(self, uid, sak=None) -> None:
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        self.parts = uid_parts(self.uid)
        self.sak = sak if sak is not None else (0x08 if len(self.uid) == 4 else 0x00)
        size = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]  # ATQA bits 7-6: UID size
        self.atqa = bytes((size | 0x04, 0x00))
        self.power_off()

    @property
    def hex(self) -> str:
        return self.uid.hex().upper()

    def power_off(self) -> None:
        """Out of the field: the next time it is in, it starts IDLE."""
        self.state = "IDLE"
        self.level = 0
        self.halted = False

    def _fall_back(self) -> None:
        # An unexpected frame in READY or ACTIVE sends a card back where it was woken from.
        self.state = "HALT" if self.halted else "IDLE"
        self.level = 0

    def receive(self, data: bytes, nbits: int) -> list[int] | None:
        """The bits this card answers to a frame, or None for silence."""
        if nbits == 7 and data[0] in (0x26, 0x52):  # REQA, WUPA
            wake = self.state == "IDLE" or (data[0] == 0x52 and self.state == "HALT")
            if wake:
                self.state, self.level = "READY", 0
                return to_bits(self.atqa)
            if self.state in ("READY", "ACTIVE"):
                self._fall_back()
            return None
        if self.state == "READY":
            return self._ready(data, nbits)
        if self.state == "ACTIVE":
            if nbits == 32 and data[:2] == b"\x50\x00" and data[2:4] == crc_a_bitwise(data[:2]):
                self.state, self.halted = "HALT", True
                return None
            self._fall_back()
        return None

    def _ready(self, data: bytes, nbits: int) -> list[int] | None:
        if nbits < 16 or data[0] != SEL[self.level]:
            self._fall_back()
            return None
        part = self.parts[self.level]
        nvb = data[1]
        if nvb == 0x70:  # SELECT
            if nbits != 72 or crc_a_bitwise(data[:7]) != data[7:9] or data[2:7] != part:
                self._fall_back()
                return None
            if self.level + 1 < len(self.parts):
                sak = 0x04  # cascade bit: the UID goes on at the next level
                self.level += 1
            else:
                sak = self.sak & ~0x04
                self.state = "ACTIVE"
            return to_bits(bytes((sak,)) + crc_a_bitwise(bytes((sak,))))
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if not 0 <= known < 40 or nbits != 16 + known:
            self._fall_back()
            return None
        mine = to_bits(part)
        if to_bits(data[2:], known) != mine[:known]:
            return None  # not our branch: stay READY and keep quiet
        return mine[known:]


class FakeMFRC522:
    """One reader chip behind a chip-select. ``version``: VersionReg (0x00 = dead bus)."""

    def __init__(self, version: int = 0x92) -> None:
        self.version = version
        self.dead = version == 0x00  # MISO held low: every read is 0x00
        self.cards = []
        self.frames = []  # every (bytes, bit count) frame sent to the cards
        self.unreadable = 0  # the next this many frames reach no card (a card at the edge)
        self.fail_reads_with = None  # an exception: register reads raise it (a broken bus)
        self.parity_on_collision = False  # also flag ParityErr when bits collide
        self.soft_reset()
        self._selected = False
        self._addr = None
        self._reading = False

    # -- the field -------------------------------------------------------------------------

    def place(self, *cards: Card) -> None:
        for card in cards:
            card.power_off()
            self.cards.append(card)

    def remove(self, *cards: Card) -> None:
        for card in cards or list(self.cards):
            self.cards.remove(card)
            card.power_off()

    # -- SPI -----------------------------------------------------------------------------------

    def select(self, low: bool) -> None:
        self._selected = low
        self._addr = None

    def exchange(self, mosi: int) -> int:
        if self.dead:
            return 0x00
        if self._addr is None:  # the first byte of a transaction is the address
            self._addr = (mosi >> 1) & 0x3F
            self._reading = bool(mosi & 0x80)
            return 0x00
        if self._reading:
            value = self.read_reg(self._addr)
            self._addr = (mosi >> 1) & 0x3F  # each byte sent names the next register
            return value
        self.write_reg(self._addr, mosi)
        return 0x00

    # -- registers -------------------------------------------------------------------------

    def soft_reset(self) -> None:
        self.regs = [0] * 64
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo = []

    def read_reg(self, reg: int) -> int:
        if self.fail_reads_with is not None:
            raise self.fail_reads_with
        if reg == VERSION:
            return self.version
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0x00
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def write_reg(self, reg: int, value: int) -> None:
        if reg == COMMAND:
            self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | (value & 0x0F)
            self._command(value & 0x0F)
        elif reg in (COM_IRQ, DIV_IRQ):
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
        elif reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                self.regs[ERROR] |= 0x10  # BufferOvfl
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~0x10
        elif reg == COLL:
            self.regs[COLL] = (self.regs[COLL] & 0x7F) | (value & 0x80)
        elif reg in (ERROR, VERSION):
            pass  # read-only
        else:
            self.regs[reg] = value
            if reg == BIT_FRAMING and value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._send(expect_answer=True)

    def _command(self, command: int) -> None:
        if command == SOFT_RESET:
            self.soft_reset()
        elif command == TRANSMIT:
            self._send(expect_answer=False)
            self.regs[COMMAND] &= 0xF0  # back to Idle by itself
            self.regs[COM_IRQ] |= 0x50  # TxIRq, IdleIRq
        elif command == CALC_CRC:
            crc = crc_a_bitwise(bytes(self.fifo))
            self.regs[CRC_L], self.regs[CRC_H] = crc[0], crc[1]
            self.fifo.clear()
            self.regs[DIV_IRQ] |= 0x04
            self.regs[COMMAND] &= 0xF0

    # -- the air ---------------------------------------------------------------------------

    def _send(self, expect_answer: bool) -> None:
        framing = self.regs[BIT_FRAMING]
        tx_bits, rx_align = framing & 0x07, (framing >> 4) & 0x07
        data = bytes(self.fifo)
        self.fifo.clear()
        nbits = (len(data) - 1) * 8 + (tx_bits or 8) if data else 0
        self.frames.append((data, nbits))
        self.regs[ERROR] &= 0x10
        field_on = self.regs[TX_CONTROL] & 0x03 == 0x03
        if expect_answer and self.unreadable > 0:
            self.unreadable -= 1
            field_on = False  # a card at the edge of the field did not hear this one
        answers = []
        if field_on and data:
            for card in self.cards:
                answer = card.receive(data, nbits)
                if answer is not None:
                    answers.append(answer)
        if not expect_answer:
            return
        self.regs[COM_IRQ] |= 0x40  # TxIRq
        if not answers:
            if self.regs[T_MODE] & 0x80:  # TAuto: the timer ran out waiting
                self.regs[COM_IRQ] |= 0x01
            return
        bits, collision = self._merge(answers)
        total = rx_align + len(bits)
        out = bytearray((total + 7) // 8)
        out[0] |= (1 << rx_align) - 1  # junk below RxAlign: the driver must mask it
        for i, bit in enumerate(bits):
            if bit:
                out[(rx_align + i) // 8] |= 1 << ((rx_align + i) % 8)
        self.fifo = list(out)
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | (total % 8)
        self.regs[COM_IRQ] |= 0x20  # RxIRq
        if collision is None:
            self.regs[COLL] = (self.regs[COLL] & 0x80) | 0x20
            return
        self.regs[ERROR] |= 0x08 | (0x02 if self.parity_on_collision else 0)  # CollErr
        self.regs[COM_IRQ] |= 0x02  # ErrIRq
        position = rx_align + collision + 1  # 1-based, in the FIFO's bit order
        self.regs[COLL] = (self.regs[COLL] & 0x80) | (position & 0x1F if position <= 32 else 0x20)

    def _merge(self, answers: list[list[int]]) -> tuple[list[int], int | None]:
        length = max(len(answer) for answer in answers)
        zeros_after = not self.regs[COLL] & 0x80
        bits, collision = [], None
        for i in range(length):
            seen = {answer[i] for answer in answers if i < len(answer)}
            if collision is None and len(seen) > 1:
                collision = i
            if collision is not None and zeros_after:
                bits.append(0)
            else:
                bits.append(1 if 1 in seen else 0)
        return bits, collision
