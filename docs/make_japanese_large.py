"""Build the OLED's large Japanese glyphs (14x14) from the Shinonome 14-dot font.

Words drawn twice the body size (the end screens' result, a roll's result) used to be
the 7x7 Misaki glyphs doubled: blocks, with the strokes of a dense kanji merged. In the
same 16-px advance the 14-dot Shinonome face (東雲フォント, public domain; Debian's
``xfonts-shinonome``) draws those kanji with real 14-px strokes. The box keeps the
glyphs of the characters its Japanese catalogs use, all the kana and the full-width
punctuation (a character without a large glyph falls back to Misaki doubled, and
``tests/views/test_font_japanese.py`` fails on any catalog character that would).

File format (all numbers big-endian):
    4 bytes   magic b"JG14"
    2 bytes   N, the number of glyphs
    N x 2     code points, ascending
    N x 28    for each glyph, 14 rows of 2 bytes top to bottom; bit 15 of a row is the
              leftmost pixel, bits 15-2 the 14 columns

    python docs/make_japanese_large.py [--font PATH] [--output PATH]
"""

from __future__ import annotations

import argparse
import glob
import gzip
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FONT = "/usr/share/fonts/X11/misc/shnmk14.pcf.gz"
DEFAULT_OUTPUT = os.path.normpath(os.path.join(HERE, "..", "companion", "views",
                                               "japanese14.bin"))
CATALOGS = os.path.normpath(os.path.join(HERE, "..", "companion", "locale", "ja",
                                         "LC_MESSAGES", "*.po"))
MAGIC = b"JG14"
SIZE = 14
KANA = range(0x3040, 0x3100)
PUNCTUATION = range(0x3000, 0x3040)
FULL_WIDTH = range(0xFF01, 0xFF5F)


def read_pcf(path: str) -> dict[tuple[int, int], list[list[int]]]:
    """The glyphs of a JIS-encoded PCF font: (row byte, cell byte) -> pixel rows, each
    glyph placed in its SIZE x SIZE cell by its metrics."""
    data = gzip.open(path).read()
    if data[:4] != b"\x01fcp":
        raise SystemExit(f"{path}: not a PCF font")
    (count,) = struct.unpack_from("<I", data, 4)
    tables = {}
    for i in range(count):
        kind, _fmt, _size, offset = struct.unpack_from("<IIII", data, 8 + 16 * i)
        tables[kind] = offset

    def table(kind: int) -> tuple[int, str, int]:
        (fmt,) = struct.unpack_from("<I", data, tables[kind])
        return fmt, ">" if fmt & 4 else "<", tables[kind] + 4

    fmt, e, at = table(1 << 2)  # metrics
    metrics = []
    if fmt & 0x100:  # compressed: bytes offset by 0x80
        (n,) = struct.unpack_from(e + "H", data, at)
        metrics = [tuple(v - 0x80 for v in struct.unpack_from("5B", data, at + 2 + 5 * i))
                   for i in range(n)]
    else:
        (n,) = struct.unpack_from(e + "I", data, at)
        metrics = [struct.unpack_from(e + "5h", data, at + 4 + 12 * i) for i in range(n)]
    fmt, e, at = table(1 << 3)  # bitmaps
    (n,) = struct.unpack_from(e + "I", data, at)
    offsets = struct.unpack_from(e + f"{n}I", data, at + 4)
    bitmaps = at + 4 + 4 * n + 16
    pad, msb = 1 << (fmt & 3), bool(fmt & 8)
    fmt, e, at = table(1 << 5)  # encodings
    c2min, c2max, c1min, c1max, _default = struct.unpack_from(e + "5H", data, at)
    cols = c2max - c2min + 1
    index = struct.unpack_from(e + f"{cols * (c1max - c1min + 1)}H", data, at + 10)
    ascent = max(m[3] for m in metrics)
    glyphs = {}
    for i, g in enumerate(index):
        if g == 0xFFFF:
            continue
        left, right, _width, up, down = metrics[g]
        stride = ((right - left + 7) // 8 + pad - 1) // pad * pad
        cell = [[0] * SIZE for _ in range(SIZE)]
        for y in range(up + down):
            row = data[bitmaps + offsets[g] + y * stride:bitmaps + offsets[g] + (y + 1) * stride]
            for x in range(right - left):
                byte = row[x // 8]
                bit = (byte >> (7 - x % 8)) if msb else (byte >> (x % 8))
                cy, cx = ascent - up + y, left + x
                if bit & 1 and 0 <= cy < SIZE and 0 <= cx < SIZE:
                    cell[cy][cx] = 1
        glyphs[(c1min + i // cols, c2min + i % cols)] = cell
    return glyphs


def wanted() -> list[str]:
    """The kana, the full-width punctuation and forms, and every character the Japanese
    catalogs use from the blocks the box draws Japanese from."""
    text = "".join(open(p, encoding="utf-8").read() for p in glob.glob(CATALOGS))
    used = "".join(re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', text, re.M))
    chars = {chr(c) for r in (KANA, PUNCTUATION, FULL_WIDTH) for c in r}
    chars |= {c for c in used if 0x4E00 <= ord(c) <= 0x9FFF or ord(c) in KANA
              or ord(c) in PUNCTUATION or ord(c) in FULL_WIDTH}
    return sorted(chars)


def build(font_path: str) -> dict[str, list[list[int]]]:
    font = read_pcf(font_path)
    glyphs = {}
    for char in wanted():
        try:
            raw = char.encode("euc_jp")
        except UnicodeEncodeError:
            continue
        if len(raw) != 2:
            continue
        cell = font.get((raw[0] & 0x7F, raw[1] & 0x7F))
        if cell is not None and any(map(any, cell)):
            glyphs[char] = cell
    return glyphs


def encode(glyphs: dict[str, list[list[int]]]) -> bytes:
    chars = sorted(glyphs)
    rows = b"".join(struct.pack(">H", sum(bit << (15 - x) for x, bit in enumerate(row)))
                    for c in chars for row in glyphs[c])
    return b"".join([MAGIC, struct.pack(">H", len(chars)),
                     struct.pack(f">{len(chars)}H", *map(ord, chars)), rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", default=DEFAULT_FONT, help="Shinonome 14-dot PCF")
    parser.add_argument("--output", default=DEFAULT_OUTPUT, help="glyph file to write")
    args = parser.parse_args(argv)
    if not os.path.exists(args.font):
        parser.error(f"{args.font} not found: install Debian's xfonts-shinonome or pass --font")
    glyphs = build(args.font)
    data = encode(glyphs)
    with open(args.output, "wb") as out:
        out.write(data)
    print(f"wrote {args.output}: {len(glyphs)} glyphs, {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
