"""Build the OLED's Japanese glyph file from the Misaki Gothic bitmap font.

Misaki is an 8x8 Japanese bitmap font whose glyphs fill 7x7 pixels (a blank column
on the right and a blank row below, like the Latin cells). Debian's ``fonts-misaki``
ships it as TTF outlines with the bitmaps embedded; rendered at 8 px without
anti-aliasing they come back pixel for pixel. This script renders the characters
the box may need into ``companion/views/japanese8x8.bin`` (format below), so the
box and CI never need the font package, and drawing stays independent of Pillow's
font engine.

Which characters: from JIS X 0208 (the set Misaki covers), the kana, the CJK and
full-width punctuation, full-width letters and digits, and the 2,965 level-1 kanji
(enough that a translator is never blocked on a common word). Level 2 and the
JIS symbols outside those blocks are left out; the box's own Latin font covers
arrows, Greek and the rest it needs.

File format (all numbers big-endian):
    4 bytes   magic b"JG87" (Japanese glyphs, 8 px advance, 7 rows)
    2 bytes   N, the number of glyphs
    N x 2     code points, ascending (all in the Basic Multilingual Plane)
    N x 7     for each glyph, rows 0-6 top to bottom; bit 7 of a row byte is the
              leftmost pixel, bits 7-1 the 7 columns (bit 0 is always clear)

    python docs/make_japanese_glyphs.py [--font PATH] [--output PATH]
"""

from __future__ import annotations

import argparse
import os
import struct
import sys

from PIL import Image, ImageDraw, ImageFont

DEFAULT_FONT = "/usr/share/fonts/truetype/misaki/misaki_gothic_2nd.ttf"
DEFAULT_OUTPUT = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "companion", "views", "japanese8x8.bin"
))
MAGIC = b"JG87"
CELL = 8
ROWS = 7
# The Unicode blocks the box draws from this file; font.py loads the file only for
# characters in them, so English text never reads it.
BLOCKS = ((0x3000, 0x30FF), (0x4E00, 0x9FFF), (0xFF00, 0xFFEF))
KANJI_LEVEL_1 = range(16, 48)  # JIS X 0208 rows 16-47
NON_KANJI = range(1, 9)  # rows 1-8: symbols, digits, Latin, kana, Greek, Cyrillic, lines


def jis_characters() -> list[str]:
    """JIS X 0208 rows 1-8 and 16-47 as Unicode, under both common mappings (EUC-JP
    and Shift_JIS/CP932 differ for a few marks such as the wave dash and minus)."""
    found: set[str] = set()
    for row in (*NON_KANJI, *KANJI_LEVEL_1):
        for cell in range(1, 95):
            euc = bytes((0xA0 + row, 0xA0 + cell))
            for codec, raw in (("euc_jp", euc), ("cp932", _sjis(row, cell))):
                try:
                    found.add(raw.decode(codec))
                except UnicodeDecodeError:
                    pass
    return sorted(c for c in found if len(c) == 1 and any(a <= ord(c) <= b for a, b in BLOCKS))


def _sjis(row: int, cell: int) -> bytes:
    """Shift_JIS bytes of a JIS X 0208 row/cell."""
    lead = (row + 1) // 2 + (0x80 if row <= 62 else 0xC0)
    if row % 2:
        trail = cell + (0x3F if cell <= 63 else 0x40)
    else:
        trail = cell + 0x9E
    return bytes((lead, trail))


def render(font: ImageFont.FreeTypeFont, char: str) -> bytes:
    image = Image.new("1", (CELL, CELL), 0)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # no anti-aliasing: the embedded bitmap, pixel for pixel
    draw.text((0, 0), char, font=font, fill=1)
    return image.tobytes()  # one byte per row, bit 7 leftmost


def build(font_path: str) -> dict[str, bytes]:
    font = ImageFont.truetype(font_path, CELL)
    # A character the font lacks renders as its .notdef glyph; compare against one
    # from the Private Use Area, which Misaki does not cover.
    notdef = render(font, "\ue000")
    glyphs = {}
    for char in jis_characters():
        if font.getlength(char) != CELL:
            continue  # not a full-width glyph of this font
        rows = render(font, char)
        if rows == notdef:
            continue
        if rows[ROWS] or any(row & 1 for row in rows):
            raise SystemExit(f"{char!r} (U+{ord(char):04X}) uses the cell's blank row or column")
        glyphs[char] = rows[:ROWS]
    return glyphs


def encode(glyphs: dict[str, bytes]) -> bytes:
    chars = sorted(glyphs)
    return b"".join([
        MAGIC,
        struct.pack(">H", len(chars)),
        struct.pack(f">{len(chars)}H", *map(ord, chars)),
        *(glyphs[c] for c in chars),
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", default=DEFAULT_FONT, help="Misaki TTF (Debian fonts-misaki)")
    parser.add_argument("--output", default=DEFAULT_OUTPUT, help="glyph file to write")
    args = parser.parse_args(argv)
    if not os.path.exists(args.font):
        parser.error(f"{args.font} not found: install Debian's fonts-misaki or pass --font")
    glyphs = build(args.font)
    data = encode(glyphs)
    with open(args.output, "wb") as out:
        out.write(data)
    print(f"wrote {args.output}: {len(glyphs)} glyphs, {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
