"""The firmware's MFRC522 driver against the register-level fake chip and cards."""

from __future__ import annotations

import fw_fakes
import pytest
from fw_rfid import Card, FakeMFRC522, crc_a_bitwise, from_bits, to_bits
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mfrc522
from mfrc522 import MFRC522

NTAG = "04A1B2C3D4E580"  # a 7-byte NTAG213 UID (NXP's manufacturer byte 0x04)
CLASSIC = "DEADBEEF"
TRIPLE = "0411223344556677889A"


def make_reader(chip: FakeMFRC522 | None = None, cs: int = 5, init: bool = True):
    """A driver on fake SPI0 with ``chip`` behind chip-select ``cs``."""
    bus = fw_fakes.state.bus(0)
    if chip is not None:
        bus.attach(cs, chip)
    machine = fw_fakes
    spi = machine.SPI(0, baudrate=4000000)
    reader = MFRC522(spi, machine.Pin(cs, machine.Pin.OUT, value=1))
    if init:
        assert reader.init()
    return reader


def test_crc_a_matches_the_iso_examples():
    assert mfrc522.crc_a(b"\x50\x00") == b"\x57\xcd"  # the HLTA frame everyone knows
    assert mfrc522.crc_a(b"\x00\x00") == b"\xa0\x1e"  # ISO 14443-3 Annex B
    for data in (b"", b"\x93\x70\x88\x04\xa1\xb2\x9f", bytes(range(40))):
        assert mfrc522.crc_a(data) == crc_a_bitwise(data)


def test_init_configures_the_chip():
    chip = FakeMFRC522()
    make_reader(chip)
    assert chip.regs[0x14] & 0x03 == 0x03  # antenna on
    assert chip.regs[0x15] == 0x40  # 100 % ASK
    assert chip.regs[0x2A] & 0x80  # TAuto: an empty field times out
    assert chip.regs[0x26] == 0x40  # the default gain unless told


@pytest.mark.parametrize("uid", [CLASSIC, NTAG, TRIPLE])
def test_full_uid_of_every_size(uid):
    chip = FakeMFRC522()
    chip.place(Card(uid))
    reader = make_reader(chip)
    assert reader.read_uid() == bytes.fromhex(uid)


def test_ntag_uid_is_not_cut_to_cascade_level_one():
    chip = FakeMFRC522()
    chip.place(Card(NTAG))
    uid = make_reader(chip).read_uid()
    assert len(uid) == 7
    assert uid[0] == 0x04  # not the cascade tag 0x88 of level 1
    sent = [data[0] for data, _ in chip.frames if len(data) == 9]  # the SELECT frames
    assert sent == [0x93, 0x95]


def test_a_resting_card_is_read_on_every_poll():
    # Halting after each read and waking with WUPA: no every-other-poll flicker.
    chip = FakeMFRC522()
    chip.place(Card(NTAG))
    reader = make_reader(chip)
    assert [reader.read_uid() for _ in range(5)] == [bytes.fromhex(NTAG)] * 5


def test_plain_reqa_polling_would_flicker():
    # Why the driver halts: the fake models the state machine that makes REQA flicker.
    chip = FakeMFRC522()
    card = Card(NTAG)
    chip.place(card)
    reader = make_reader(chip)
    assert reader.request(wake=False) is not None
    part = reader.anticollision(0)
    assert reader.select(0, part) == 0x04
    assert reader.select(1, reader.anticollision(1)) == 0x00
    assert card.state == "ACTIVE"
    assert reader.request(wake=False) is None  # the ACTIVE card ignores REQA
    assert reader.request(wake=False) is not None  # ... and answers the one after


def test_a_read_that_broke_off_does_not_cost_the_next_poll(monkeypatch):
    chip = FakeMFRC522()
    card = Card(NTAG)
    chip.place(card)
    reader = make_reader(chip)
    real_select = reader.select
    monkeypatch.setattr(reader, "select", lambda level, part: None)  # the SAK got lost
    assert reader.read_uid() is None
    assert card.state == "READY"  # awake: the next WUPA only sends it back to sleep
    monkeypatch.setattr(reader, "select", real_select)
    assert reader.read_uid() == card.uid
    assert reader.read_uid() == card.uid
    wupas = [data for data, bits in chip.frames if bits == 7]
    assert len(wupas) == 1 + 2 + 1  # the extra WUPA only after the broken read


def test_no_card_is_none():
    chip = FakeMFRC522()
    reader = make_reader(chip)
    assert reader.read_uid() is None
    assert reader.read_uid() is None
    assert len(chip.frames) == 2  # one WUPA a poll: an empty pad costs one reply window


def test_antenna_off_reads_nothing():
    chip = FakeMFRC522()
    chip.place(Card(CLASSIC))
    reader = make_reader(chip)
    reader.antenna(False)
    assert reader.read_uid() is None
    assert not reader.configured()
    reader.antenna(True)
    assert reader.read_uid() == bytes.fromhex(CLASSIC)


def test_removed_card_is_none():
    chip = FakeMFRC522()
    card = Card(NTAG)
    chip.place(card)
    reader = make_reader(chip)
    assert reader.read_uid() is not None
    chip.remove(card)
    assert reader.read_uid() is None


@pytest.mark.parametrize("version", [0x00, 0xFF])
def test_dead_reader_is_detected(version):
    # 0x00: MISO held low; 0xFF: nothing on the bus at all (MISO floats high).
    chip = FakeMFRC522(version=version) if version == 0x00 else None
    reader = make_reader(chip, init=False)
    assert reader.version() == version
    assert not reader.present()
    assert reader.init() is False
    assert reader.read_uid() is None


def test_clone_versions_count_as_present():
    for version in (0x91, 0x92, 0x88, 0x12, 0xB2):
        assert make_reader(FakeMFRC522(version=version), cs=5).present()
        fw_fakes.reset_state()


def test_two_cards_same_first_bytes_collide_and_one_is_read():
    chip = FakeMFRC522()
    a, b = Card("04A1B2C3D4E580"), Card("04A1B2C3D4E581")  # differ in the very last bit
    chip.place(a, b)
    reader = make_reader(chip)
    uid = reader.read_uid()
    assert uid in (a.uid, b.uid)
    assert uid == b.uid  # the "1" branch is taken at the collision
    # the other card is still there and is read once the first is gone
    chip.remove(b)
    assert reader.read_uid() == a.uid


def test_parity_error_beside_a_collision_is_not_fatal():
    chip = FakeMFRC522()
    chip.parity_on_collision = True
    chip.place(Card("11223344"), Card("11223355"), Card(NTAG))
    uids = [bytes.fromhex(uid) for uid in ("11223344", "11223355", NTAG)]
    assert make_reader(chip).read_uid() in uids


def test_parity_error_alone_fails_the_read():
    chip = FakeMFRC522()
    chip.place(Card(NTAG))
    reader = make_reader(chip)
    real_read = chip.read_reg
    chip.read_reg = lambda reg: real_read(reg) | (0x02 if reg == 0x06 else 0)
    assert reader.read_uid() is None


def test_collision_is_really_exercised():
    chip = FakeMFRC522()
    chip.place(Card("11223344"), Card("11223355"))
    reader = make_reader(chip)
    reader.read_uid()
    anticollision = [(d, n) for d, n in chip.frames if d[0] == 0x93 and d[1] != 0x70]
    assert len(anticollision) > 1  # a second round with the known bits
    assert any(n % 8 for _, n in anticollision) or any(d[1] & 0x0F for d, _ in anticollision)


def test_cards_of_different_uid_sizes_together():
    chip = FakeMFRC522()
    chip.place(Card(CLASSIC), Card(NTAG), Card(TRIPLE))
    uid = make_reader(chip).read_uid()
    assert uid in (bytes.fromhex(CLASSIC), bytes.fromhex(NTAG), bytes.fromhex(TRIPLE))


def test_values_after_collision_is_cleared_by_the_driver():
    chip = FakeMFRC522()
    chip.place(Card("11223344"), Card("11223355"))
    reader = make_reader(chip)
    assert chip.regs[0x0E] & 0x80  # set after reset
    reader.read_uid()
    assert not chip.regs[0x0E] & 0x80


def _uids(size: int):
    def valid(uid: bytes) -> bool:
        return uid[0] != 0x88  # the cascade tag is never a UID's first byte
    return st.binary(min_size=size, max_size=size).filter(valid)


any_uid = st.sampled_from([4, 7, 10]).flatmap(_uids)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(any_uid, min_size=2, max_size=4, unique=True))
def test_collisions_never_mix_uids(uids):
    fw_fakes.reset_state()
    chip = FakeMFRC522()
    cards = [Card(uid) for uid in uids]
    chip.place(*cards)
    reader = make_reader(chip)
    seen = set()
    for _ in range(len(cards)):
        uid = reader.read_uid()
        assert uid in uids  # one whole UID, never a mix of two
        seen.add(uid)
        chip.remove(next(c for c in cards if c.uid == uid))
    assert seen == set(uids)  # taking them away one by one, each is read in turn


def test_bits_helpers_round_trip():
    data = bytes(range(0, 250, 17))
    assert from_bits(to_bits(data)) == data
