"""docs/fonts.md's figures are the font's and the screens': each is read from the code, so
a change to a cell, a line pitch or the glyph files fails here until the page says it."""

from __future__ import annotations

import re
from pathlib import Path

from companion.views import font, oled

ROOT = Path(__file__).resolve().parents[2]
DOC = " ".join((ROOT / "docs" / "fonts.md").read_text(encoding="utf-8").split())
VIEWS = ROOT / "companion" / "views"


def _said(pattern: str) -> tuple[str, ...]:
    m = re.search(pattern, DOC)
    assert m, f"docs/fonts.md no longer says {pattern!r}: say it again, or change this test"
    return m.groups()


def _numbers(*groups: str) -> tuple[int, ...]:
    return tuple(int(g.replace(",", "")) for g in groups)


def test_the_cells_are_the_fonts():
    assert _numbers(*_said(r"A Latin character takes a (\d+)x(\d+) cell: a (\d+)x(\d+) glyph")) \
        == (font.CELL_W, font.CELL_H, font.GLYPH_W, font.GLYPH_H)
    assert _numbers(*_said(r"(\d+) fit a (\d+)-px line")) \
        == (oled.WIDTH // font.CELL_W, oled.WIDTH)
    assert _numbers(*_said(r"A Japanese character takes (\d+)x(\d+): a (\d+)x(\d+) glyph")) \
        == (font.WIDE_W, font.CELL_H, font.WIDE_W - 1, font.WIDE_H)
    assert _numbers(*_said(r"(\d+) fit a line; mixed text adds (\d+) or (\d+) px")) \
        == (oled.WIDTH // font.WIDE_W, font.CELL_W, font.WIDE_W)
    assert font.text_width("A") == font.CELL_W and font.text_width("あ") == font.WIDE_W


def test_the_line_pitch_and_the_body_lines_are_the_screens():
    # Read from the code, so it holds whatever pitch the screens use.
    (pitch,) = _numbers(*_said(r"body lines out (\d+) px apart \(`oled\.LINE_H`"))
    assert pitch == oled.LINE_H
    assert _numbers(*_said(r"(\d+) body lines of up to (\d+) full-width characters")) \
        == (oled.BODY_LINES, oled.WIDTH // font.WIDE_W)


def _level_1(row: int, cell: int) -> str | None:
    """The kanji at JIS X 0208 row 16-47 (level 1), cell 1-94; None for an empty cell."""
    try:
        return bytes((0xA0 + row, 0xA0 + cell)).decode("euc_jp")
    except UnicodeDecodeError:
        return None


def test_the_glyph_files_hold_what_the_page_says():
    data = (VIEWS / "japanese8x8.bin").read_bytes()
    wide = font.parse_wide(data)
    kanji = sum(_level_1(row, cell) in wide for row in range(16, 48) for cell in range(1, 95))
    said = _numbers(*_said(r"the ([\d,]+) JIS level-1 kanji \(([\d,]+) glyphs, (\d+) KB\)"))
    assert said == (kanji, len(wide), round(len(data) / 1024))
    assert _said(r"The file format: the magic `(\w+)`")[0].encode() == font._WIDE_MAGIC
    assert _numbers(*_said(r"then (\d+) bytes per glyph"))[0] == font.WIDE_H
    polish, czech = "ąćęłńóśźż", "áčďéěíňóřšťúůýž"
    letters = set(polish + czech + (polish + czech).upper())
    assert letters <= set(font.glyphs())
    assert _numbers(*_said(r"the (\d+) Polish and Czech letters"))[0] == len(letters)
    assert (VIEWS / "japanese8x8-LICENSE.txt").is_file()


def test_every_function_the_page_names_exists():
    named = re.findall(r"`(font|oled)\.(\w+)", DOC)
    assert len(named) >= 5
    for module, name in named:
        assert hasattr({"font": font, "oled": oled}[module], name), f"{module}.{name}"
    for name in re.findall(r"`(\w+)`", _said(r"(`font\.text_width`[^.]*)")[0]):
        assert hasattr(font, name), name
