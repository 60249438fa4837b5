"""Japanese on the OLED: the glyph file, full-width advance and line breaking."""

from __future__ import annotations

import importlib.util
import struct
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from companion.views import font
from companion.views.font import (
    CELL_W,
    NO_LINE_END,
    NO_LINE_START,
    WIDE_W,
    draw_text,
    fit,
    missing,
    parse_wide,
    text_width,
    wide_glyphs,
    wrap,
)

HIRAGANA = [chr(c) for c in range(0x3041, 0x3094)]  # ぁ..ゔ: the 83 of JIS X 0208
KATAKANA = [chr(c) for c in range(0x30A1, 0x30F7)]  # ァ..ヶ: the 86 of JIS X 0208
PUNCTUATION = list("、。「」・！？（）ー～＋")
SMALL_KANA = "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
SCREEN_KANJI = "確定陣営領地量子惑星手番総秘密暗号設定言語再開終了勝利敗北"


def lit(image: Image.Image) -> set[tuple[int, int]]:
    px = image.load()
    return {(x, y) for y in range(image.height) for x in range(image.width) if px[x, y]}


# --- the glyph file ---------------------------------------------------------


def test_the_file_holds_kana_punctuation_and_level_1_kanji_within_budget():
    data = resources.files("companion.views").joinpath("japanese8x8.bin").read_bytes()
    glyphs = wide_glyphs()
    kanji = [c for c in glyphs if 0x4E00 <= ord(c) <= 0x9FFF]
    assert len(kanji) >= 2965  # all of JIS level 1
    assert set(HIRAGANA + KATAKANA + PUNCTUATION) <= set(glyphs)
    assert set(SCREEN_KANJI) <= set(glyphs)
    assert len(data) <= 55_000


def test_every_glyph_is_7x7_inside_its_8x8_cell_and_none_is_blank_or_repeated():
    seen: dict[bytes, str] = {}
    repeats = set()
    for char, rows in wide_glyphs().items():
        assert len(rows) == 7 and not any(row & 1 for row in rows), char
        assert any(rows) or char == "\u3000", char  # only the ideographic space is blank
        if rows in seen:
            repeats.add(frozenset({seen[rows], char}))
        seen[rows] = char
    # The JIS wave dash maps to U+301C or U+FF5E depending on the converter; both
    # draw it.
    assert repeats == {frozenset("〜～")}


def test_the_converter_reproduces_the_committed_file():
    """The file is generated, never edited: where the Misaki TTF is installed the
    converter must rebuild it byte for byte (CI has no font package: it skips)."""
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "make_japanese_glyphs", root / "docs" / "make_japanese_glyphs.py")
    converter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(converter)
    if not Path(converter.DEFAULT_FONT).exists():
        pytest.skip(f"{converter.DEFAULT_FONT} is not installed (Debian fonts-misaki)")
    data = resources.files("companion.views").joinpath("japanese8x8.bin").read_bytes()
    assert converter.encode(converter.build(converter.DEFAULT_FONT)) == data


def _file(codes: list[int], rows: bytes | None = None) -> bytes:
    rows = bytes(7 * len(codes)) if rows is None else rows
    return b"JG87" + struct.pack(">H", len(codes)) + struct.pack(f">{len(codes)}H", *codes) + rows


@pytest.mark.parametrize(
    "data, message",
    [
        (b"XXXX\x00\x00", "magic"),
        (_file([0x3042])[:-1], "bytes"),
        (_file([0x3044, 0x3042]), "ascending"),
        (_file([0x3042, 0x3042]), "ascending"),
        (_file([0x0041]), "outside"),
        (_file([0x3042], b"\x01" + bytes(6)), "gap column"),
    ],
)
def test_a_damaged_glyph_file_is_rejected(data, message):
    with pytest.raises(ValueError, match=message):
        parse_wide(data)


def test_a_good_glyph_file_parses():
    rows = bytes([0b11111110] * 7)
    assert parse_wide(_file([0x3042], rows)) == {"あ": rows}


# --- drawing and measuring ----------------------------------------------------


def test_japanese_is_8_px_wide_beside_6_px_latin():
    assert text_width("あ") == WIDE_W == 8
    assert text_width("確定0") == 2 * WIDE_W + CELL_W
    assert text_width("確定0", scale=2) == 2 * (2 * WIDE_W + CELL_W)
    assert text_width("あ" * 16) == 128  # 16 full-width characters a line


@given(st.text(alphabet=st.sampled_from(list("aZ~\x00\t€ąŽ確あー。ｱ")), max_size=20))
def test_a_width_is_the_sum_of_its_characters_advances(text):
    assert text_width(text) == sum(font.advance(char) for char in text)
    image = Image.new("1", (200, 10))
    assert draw_text(image, (0, 1), text) == text_width(text)


def test_a_kana_draws_its_file_bitmap_at_the_cell_corner():
    image = Image.new("1", (30, 12))
    end = draw_text(image, (3, 2), "Aあ")
    assert end == 3 + CELL_W + WIDE_W
    rows = wide_glyphs()["あ"]
    expected = {
        (3 + CELL_W + col, 2 + row)
        for row, byte in enumerate(rows) for col in range(8) if byte & (0x80 >> col)
    }
    latin_a = Image.new("1", (30, 12))
    draw_text(latin_a, (3, 2), "A")
    assert lit(image) == expected | lit(latin_a)


def test_missing_lists_only_characters_without_any_glyph():
    assert missing("設定: 言語 Žluť ąę „ok“") == []
    assert missing("鬱 (level 2) € \u00a0") == ["鬱", "€", "\u00a0"]
    assert missing("ｱ") == ["ｱ"]  # half-width katakana: not in the file


def test_fit_cuts_japanese_by_pixels():
    assert fit("ひみつのあんごう", 8 * WIDE_W) == "ひみつのあんごう"
    cut = fit("ひみつのあんごう", 7 * WIDE_W)
    assert cut == "ひみつのあん…" and text_width(cut) <= 7 * WIDE_W


def test_english_never_reads_the_japanese_file():
    """Only the chosen language is loaded: drawing, measuring and wrapping English
    (and a player name with a box glyph) must not open the Japanese glyphs."""
    code = (
        "from PIL import Image\n"
        "from companion.views import font, oled\n"
        "image = Image.new('1', (128, 64))\n"
        "font.draw_text(image, (0, 1), 'Mercurial won € Žluť')\n"
        "font.wrap('Move Mercurial to Omega Zero now', 60)\n"
        "font.fit('Schrödinger ' * 5, 128)\n"
        "print(font.wide_glyphs.cache_info().misses)\n"
        "font.text_width('確定')\n"
        "print(font.wide_glyphs.cache_info().misses)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["0", "1"]


# --- line breaking (kinsoku) ----------------------------------------------------


def test_japanese_breaks_between_characters():
    assert wrap("わくせいをえらんでね", 4 * WIDE_W) == ["わくせい", "をえらん", "でね"]


def test_no_line_starts_with_closing_marks_or_small_kana():
    # 「。」 would start the second line: it moves there with the character before it.
    assert wrap("あいうえ。", 4 * WIDE_W) == ["あいう", "え。"]
    assert wrap("カードー", 3 * WIDE_W) == ["カー", "ドー"]
    assert wrap("しゅっぱつ", 3 * WIDE_W) == ["しゅっ", "ぱつ"]
    # Only a run that cannot be split is wider than the line may still be cut anywhere.
    assert wrap("しゅっぱつ", 2 * WIDE_W) == ["しゅ", "っぱ", "つ"]


def test_no_line_ends_with_an_opening_bracket():
    assert wrap("あい「カード」", 3 * WIDE_W) == ["あい", "「カー", "ド」"]


def test_latin_inside_japanese_still_breaks_at_spaces_only():
    assert wrap("手番: Mercurial Rubicon", 12 * CELL_W) == ["手番:", "Mercurial", "Rubicon"]


# Text built from "syllables" of at most one opening mark, one base character and
# one closing mark or small kana, and Latin words between spaces: no unbreakable run
# is wider than 5 Latin characters, so on lines of 6 or more the rules must hold on
# every line.
BASES = list("あかさたなはまやらわアカサタナハマヤラワ確定陣営")
OPENERS = sorted(NO_LINE_END & set("「（『"))
CLOSERS = ["。", "、", "」", "）", "ー", "・", "！", "？", "っ", "ゃ", "ョ"]
syllable = st.tuples(
    st.sampled_from([""] + OPENERS), st.sampled_from(BASES), st.sampled_from([""] + CLOSERS)
).map("".join)
latin = st.sampled_from([" ab ", " 12 ", " Qubit "])
japanese = st.lists(st.one_of(syllable, latin, st.just("\n")), max_size=30).map("".join)


@given(japanese, st.integers(min_value=6 * CELL_W, max_value=128))
def test_wrap_keeps_every_character_fits_and_obeys_kinsoku(text, width):
    lines = wrap(text, width)
    assert "".join(text.split()) == "".join("".join(lines).split())
    assert len(lines) >= text.count("\n") + 1
    for line in lines:
        assert text_width(line) <= width, line
        if line:
            assert line[0] not in NO_LINE_START, (text, lines)
            assert line[-1] not in NO_LINE_END, (text, lines)


@given(st.text(alphabet=st.sampled_from(HIRAGANA + PUNCTUATION + list("ab \n")), max_size=50),
       st.integers(min_value=1, max_value=128))
def test_wrap_never_loses_text_or_overflows_a_line_whatever_the_input(text, width):
    lines = wrap(text, width)
    assert "".join(text.split()) == "".join("".join(lines).split())
    # A line wider than the width is only ever a single character that cannot fit.
    assert all(text_width(line) <= width or len(line) == 1 for line in lines)


# --- the large (14x14) glyphs -------------------------------------------------


def _catalog_characters() -> set[str]:
    import re

    root = Path(__file__).resolve().parents[2] / "companion" / "locale" / "ja" / "LC_MESSAGES"
    text = "".join(p.read_text(encoding="utf-8") for p in root.glob("*.po"))
    used = "".join(re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', text, re.M))
    return {c for c in used if font._in_wide_blocks(c) and c in wide_glyphs()}


def test_every_japanese_catalog_character_has_a_large_glyph():
    """A word drawn at 2x takes the 14x14 glyph; a character the file lacks would fall
    back to the 7x7 one doubled: regenerate with docs/make_japanese_large.py."""
    lacking = sorted(_catalog_characters() - set(font.large_glyphs()))
    assert not lacking, f"no large glyph for {''.join(lacking)}"


def test_twice_the_size_draws_the_14_pixel_glyph_in_the_doubled_box():
    image = Image.new("1", (16, 16))
    draw_text(image, (0, 0), "勝", scale=2)
    doubled = Image.new("1", (16, 16))
    mask = Image.frombytes("1", (8, 7), wide_glyphs()["勝"]).resize((16, 14))
    doubled.paste(1, (0, 0), mask)
    assert lit(image) and lit(image) != lit(doubled)
    assert max(x for x, _ in lit(image)) <= 13 and max(y for _, y in lit(image)) <= 13


def test_the_large_converter_reproduces_the_committed_file():
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "make_japanese_large", root / "docs" / "make_japanese_large.py")
    converter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(converter)
    if not Path(converter.DEFAULT_FONT).exists():
        pytest.skip(f"{converter.DEFAULT_FONT} is not installed (Debian xfonts-shinonome)")
    data = resources.files("companion.views").joinpath("japanese14.bin").read_bytes()
    assert converter.encode(converter.build(converter.DEFAULT_FONT)) == data


@pytest.mark.parametrize("data, message", [
    (b"XXXX\x00\x00", "magic"),
    (b"JG14\x00\x01\x30\x42" + bytes(27), "bytes"),
    (b"JG14\x00\x01\x00\x41" + bytes(28), "outside"),
    (b"JG14\x00\x01\x30\x42" + b"\x00\x01" + bytes(26), "gap columns"),
])
def test_a_damaged_large_file_is_refused(data, message):
    with pytest.raises(ValueError, match=message):
        font.parse_large(data)
