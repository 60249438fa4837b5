"""The OLED bitmap font: its data, its metrics and the pixels it draws."""

from __future__ import annotations

import unicodedata
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from companion.views import font
from companion.views.font import (
    CELL_H,
    CELL_W,
    UNKNOWN,
    draw_centered,
    draw_text,
    fit,
    glyphs,
    missing,
    parse_glyphs,
    text_width,
    wrap,
)

ASCII = [chr(code) for code in range(0x20, 0x7F)]
EXTRAS = list("→←↑↓▲▼►◄√ψφΩ⟩⟨●○…·×✓█░ö„“”«»–")
POLISH = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ"
CZECH = "áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ"
LETTERS = sorted(set(POLISH + CZECH))
# Every glyph is a distinct bitmap, lookalikes included (0/O, 1/l/I/|, x/×, o/○,
# ./·, </⟨, >/⟩) are distinct; only the en dash is the hyphen (a 5-px cell has no
# room for a longer dash).
INTENDED_DUPLICATES = {frozenset("-–")}


def lit(image: Image.Image) -> set[tuple[int, int]]:
    """Coordinates of the white pixels."""
    px = image.load()
    return {(x, y) for y in range(image.height) for x in range(image.width) if px[x, y]}


def pattern_pixels(char: str, x0: int = 0, y0: int = 0, scale: int = 1) -> set[tuple[int, int]]:
    """Pixels a glyph should light, straight from the data file's rows."""
    rows = glyphs()[char]
    top = 7 - len(rows)  # -1 for a glyph that uses the row above its cell
    return {
        (x0 + col * scale + dx, y0 + (top + row) * scale + dy)
        for row, line in enumerate(rows)
        for col, cell in enumerate(line)
        if cell == "#"
        for dx in range(scale)
        for dy in range(scale)
    }


def screen(width: int = 128, height: int = 64, colour: int = 0) -> Image.Image:
    return Image.new("1", (width, height), colour)


# --- the data ---------------------------------------------------------------


def test_data_file_blocks_are_5x7_of_hash_and_dot_plus_an_optional_row_above():
    # Read the raw file here rather than trusting the parser under test.
    text = resources.files("companion.views").joinpath("font5x7.txt").read_text(encoding="utf-8")
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("char "):
            blocks.append([])
        elif line and not line.startswith(";"):
            blocks[-1].append(line)
    assert len(blocks) == len(glyphs())
    for rows in blocks:
        raised = rows[0].startswith("^")
        rows = [rows[0][1:]] + rows[1:] if raised else rows
        assert len(rows) == 7 + raised
        assert all(len(row) == 5 and set(row) <= {"#", "."} for row in rows)
    assert sum(block[0].startswith("^") for block in blocks) > 0


@pytest.mark.parametrize("char", ASCII + EXTRAS + LETTERS + [UNKNOWN])
def test_every_character_has_an_exact_5x7_glyph(char):
    rows = glyphs()[char]
    assert len(rows) in (7, 8)
    assert all(len(row) == 5 and set(row) <= {"#", "."} for row in rows)
    image = screen(CELL_W, CELL_H + 1)
    draw_text(image, (0, 1), char)
    # Nothing strays into the gap column or row; only marks use the row above.
    assert lit(image) == pattern_pixels(char, 0, 1)
    assert any(y == 0 for _, y in lit(image)) == (len(rows) == 8)


def test_the_font_has_exactly_ascii_the_extras_the_letters_and_the_box():
    assert set(glyphs()) == set(ASCII) | set(EXTRAS) | set(LETTERS) | {UNKNOWN}
    assert len(LETTERS) == 46  # ó and Ó serve both languages


@pytest.mark.parametrize("char", LETTERS)
def test_each_letter_is_its_base_letter_plus_a_mark(char):
    """A Polish or Czech letter must differ from its plain letter (a forgotten mark
    would pass the other checks)."""
    base = {"ł": "l", "Ł": "L"}.get(char) or unicodedata.normalize("NFD", char)[0]
    assert glyphs()[char] != glyphs()[base]
    assert missing(char) == []


def test_raised_marks_leave_a_gap_above_lower_case_letters():
    """Lower case keeps its full x-height (rows 2-6) and a blank row under the mark,
    so an accent never touches the letter (ů's ring is the one exception)."""
    for char in LETTERS:
        if char.islower() and char not in "ąęłďťů":
            rows = glyphs()[char]
            mark, gap = rows[: len(rows) - 6], rows[len(rows) - 6]  # cell rows <= 0, row 1
            assert gap == "....." and "#" in "".join(mark), char


def test_no_two_characters_share_a_glyph():
    seen: dict[tuple[str, ...], str] = {}
    clashes = set()
    for char, rows in glyphs().items():
        if rows in seen:
            clashes.add(frozenset({seen[rows], char}))
        seen[rows] = char
    assert clashes == INTENDED_DUPLICATES


def test_space_is_blank_and_every_other_glyph_is_not():
    assert all(row == "....." for row in glyphs()[" "])
    assert all(any("#" in row for row in rows) for char, rows in glyphs().items() if char != " ")


@pytest.mark.parametrize(
    "bad, message",
    [
        ("char A\n#####\n", "has 1 rows"),
        ("char A\n" + "#####\n" * 8, "more than 7"),
        ("char A\n" + "####\n" * 7, "not 5"),
        ("char A\n" + "##o##\n" * 7, "not 5"),
        ("#####\n", "before any"),
        ("char AB\n", "bad character"),
        ("char A\n" + "#####\n" * 7 + "char A\n" + "#####\n" * 7, "duplicate"),
        ("char A\n" + "#####\n" * 7, "U\\+FFFD"),
        ("char A\n^#####\n" + "#####\n" * 6, "has 6 rows"),
        ("char A\n" + "#####\n" + "^#####\n" + "#####\n" * 6, "first row"),
        ("char A\n^#####\n" + "#####\n" * 8, "more than 7"),
    ],
)
def test_malformed_data_is_rejected_with_its_line(bad, message):
    with pytest.raises(ValueError, match=message):
        parse_glyphs(bad)


def test_parser_reads_code_points_names_and_comments():
    box = "char U+FFFD box\n" + "#####\n" * 7
    parsed = parse_glyphs("; a comment\n\nchar U+0020 space\n" + ".....\n" * 7 + box)
    assert set(parsed) == {" ", UNKNOWN}


# --- metrics ----------------------------------------------------------------


def test_cell_and_screen_metrics():
    assert (CELL_W, CELL_H) == (6, 8)
    assert text_width("") == 0
    assert text_width("Hi") == 12  # the trailing gap column counts
    assert text_width("Hi", scale=3) == 36
    assert text_width("x" * 21) <= 128 < text_width("x" * 22)


def test_decomposed_umlaut_is_one_cell_and_draws_our_o_umlaut():
    decomposed = "o\u0308"
    assert text_width(decomposed) == CELL_W
    a, b = screen(), screen()
    draw_text(a, (0, 0), decomposed)
    draw_text(b, (0, 0), "ö")
    assert lit(a) == lit(b) == pattern_pixels("ö")


# --- wrap and fit -----------------------------------------------------------


def test_wrap_is_greedy_on_spaces():
    assert wrap("Move Mercurial to Omega Zero now", 12 * CELL_W) == [
        "Move", "Mercurial to", "Omega Zero", "now",
    ]
    assert wrap("a b c", 128) == ["a b c"]
    assert wrap("  lots   of   space  ", 128) == ["lots of space"]


def test_wrap_a_word_exactly_one_line_long_stays_whole():
    assert wrap("abcdef ghijkl", 6 * CELL_W) == ["abcdef", "ghijkl"]


def test_wrap_honours_newlines_and_keeps_blank_lines():
    assert wrap("one\ntwo three", 128) == ["one", "two three"]
    assert wrap("a\n\nb", 128) == ["a", "", "b"]
    assert wrap("", 128) == [""]


def test_wrap_breaks_words_longer_than_a_line():
    assert wrap("go Superposition!", 5 * CELL_W) == ["go", "Super", "posit", "ion!"]
    # The last piece of a long word can share its line with the next word.
    assert wrap("abcdefg hi", 5 * CELL_W) == ["abcde", "fg hi"]


def test_wrap_at_scale_and_below_one_cell():
    assert wrap("12 34", 2 * 3 * CELL_W, scale=3) == ["12", "34"]
    assert wrap("abc", 3) == ["a", "b", "c"]  # never loops, never drops text


@given(
    st.text(alphabet=st.sampled_from(list("ab ψ\n")), max_size=60),
    st.integers(min_value=CELL_W, max_value=128),
)
def test_wrap_lines_fit_and_keep_every_word(text, width):
    lines = wrap(text, width)
    assert all(text_width(line) <= width for line in lines)
    assert len(lines) >= text.count("\n") + 1
    assert "".join(text.split()) == "".join("".join(lines).split())


def test_fit_leaves_short_text_alone_and_cuts_long_text_with_an_ellipsis():
    assert fit("Hello", 30) == "Hello"
    assert fit("Hello world", 36) == "Hello…"  # no space before the ellipsis
    assert fit("Teleport", 5 * CELL_W) == "Tele…"
    assert fit("Teleport", 3 * CELL_W, scale=1) == "Te…"
    assert fit("Teleport", 10 * CELL_W, scale=2) == "Tele…"
    assert fit("Teleport", 5) == ""
    assert fit("", 0) == ""
    for width in range(100):
        assert text_width(fit("Schrödinger's cat", width)) <= width


# --- drawing ----------------------------------------------------------------


def test_golden_hi_at_origin():
    image = screen()
    end = draw_text(image, (0, 0), "Hi")
    assert end == 12
    assert lit(image) == pattern_pixels("H") | pattern_pixels("i", CELL_W, 0)


def test_text_lands_at_its_offset():
    image = screen()
    assert draw_text(image, (7, 13), "A") == 13
    assert lit(image) == pattern_pixels("A", 7, 13)


def test_unknown_characters_draw_the_box_and_do_not_raise():
    image = screen()
    draw_text(image, (0, 0), "€\n\x00")
    box = glyphs()[UNKNOWN]
    assert box == ("#####",) + ("#...#",) * 5 + ("#####",)
    assert lit(image) == {
        px for i in range(3) for px in pattern_pixels(UNKNOWN, i * CELL_W, 0)
    }


def test_fill_zero_draws_black_on_a_white_bar():
    image = screen()
    ImageDraw.Draw(image).rectangle((0, 8, 127, 15), fill=1)
    draw_text(image, (0, 8), "H", fill=0)
    bar = {(x, y) for x in range(128) for y in range(8, 16)}
    assert lit(image) == bar - pattern_pixels("H", 0, 8)


def test_fill_one_leaves_the_background_between_strokes():
    image = screen(colour=1)
    draw_text(image, (0, 0), "H", fill=1)
    assert len(lit(image)) == 128 * 64  # white on white: nothing cleared


@pytest.mark.parametrize("scale", [2, 3, 4])
def test_scale_enlarges_each_pixel_nearest_neighbour(scale):
    image = screen()
    end = draw_text(image, (2, 1), "6", scale=scale)
    assert end == 2 + CELL_W * scale
    assert lit(image) == pattern_pixels("6", 2, 1, scale)


@pytest.mark.parametrize(
    "xy",
    [(120, 0), (127, 60), (0, 60), (-3, -5), (125, 62), (500, 0), (0, 500), (-500, -500)],
)
def test_drawing_past_the_edges_clips_without_error(xy):
    image = screen()
    end = draw_text(image, xy, "Wrap░█", scale=2)
    assert end == xy[0] + text_width("Wrap░█", scale=2)
    expected = {
        px
        for i, char in enumerate("Wrap░█")
        for px in pattern_pixels(char, xy[0] + i * 2 * CELL_W, xy[1], 2)
    }
    assert lit(image) == {(x, y) for x, y in expected if 0 <= x < 128 and 0 <= y < 64}


def test_a_full_screen_of_text():
    image = screen()
    lines = wrap("Entanglion " * 20)
    for row, line in enumerate(lines[:8]):
        draw_text(image, (0, row * CELL_H), line)
    assert (0, 0) in lit(image)  # 'E' starts in the corner


def test_draw_centered_centres_the_ink():
    image = screen()
    end = draw_centered(image, 4, "Hi")
    # 11 px of ink (the last gap column is not ink): (128 - 11) // 2 = 58.
    assert end == 58 + 12
    assert lit(image) == pattern_pixels("H", 58, 4) | pattern_pixels("i", 64, 4)
    big = screen()
    draw_centered(big, 0, "4", scale=4)
    xs = sorted(x for x, _ in lit(big))
    assert xs[0] == 127 - xs[-1] == 54  # 20 px of ink, 54 px either side


def test_draw_text_needs_a_mode_1_image_and_a_positive_scale():
    with pytest.raises(ValueError, match="mode '1'"):
        draw_text(Image.new("L", (8, 8)), (0, 0), "a")
    with pytest.raises(ValueError, match="scale"):
        draw_text(screen(), (0, 0), "a", scale=0)


def test_scaled_masks_are_cached():
    font._mask("7", 3)
    assert font._mask("7", 3) is font._mask("7", 3)
    assert font._mask("€", 1) is font._mask(UNKNOWN, 1)


# ------------------------------------------------------------------ reporting cuts


def test_every_cut_is_reported_inside_truncations():
    """fit, clip and text drawn past an edge report what they lose; text that fits
    does not; outside the block nothing is collected."""
    image = Image.new("1", (128, 64))
    with font.truncations() as cuts:
        assert font.fit("short", 128) == "short"
        font.draw_text(image, (0, 0), "x" * 21)  # exactly fits: the gap column may fall off
        font.draw_text(image, (0, 57), "bottom row")
        assert cuts == []
        font.fit("y" * 22, 128)
        font.clip(["a", "b", "c"], 2)
        font.draw_text(image, (4, 0), "z" * 21)  # its last column falls off
        font.draw_text(image, (0, 60), "low")  # below the last row
        font.draw_text(image, (-3, 0), "left")
    assert cuts == ["y" * 22, "c", "z" * 21, "low", "left"]
    font.fit("y" * 22, 128)  # no block: nothing kept anywhere
    with font.truncations() as nested_outer:
        with font.truncations() as inner:
            font.fit("q" * 30, 128)
    assert inner == ["q" * 30] and nested_outer == ["q" * 30]


def test_a_mark_above_the_top_edge_is_a_cut():
    """Accented capitals use the row above their cell: drawn at y=0 the mark is lost,
    which the no-cut checks must hear about; at y=1 it is whole."""
    image = Image.new("1", (128, 64))
    with font.truncations() as cuts:
        font.draw_text(image, (0, 1), "ŽÁR")
        font.draw_text(image, (0, 0), "ZAR")
        assert cuts == []
        font.draw_text(image, (0, 0), "ŽÁR")
    assert cuts == ["ŽÁR"]


def test_a_character_without_a_glyph_is_reported_inside_truncations():
    """The unknown box reads no better than a cut: a text that would draw it is
    reported, even when it fits, in measuring mode too."""
    image = Image.new("1", (128, 64))
    with font.truncations(draw=False) as cuts:
        font.draw_text(image, (0, 10), "Žluť 設定")
        assert cuts == []
        font.draw_text(image, (0, 10), "5 €")
    assert cuts == ["5 €"]


def test_truncations_without_drawing_only_measure():
    image = Image.new("1", (128, 64))
    with font.truncations(draw=False) as cuts:
        assert font.draw_text(image, (0, 0), "Hi") == 12
        font.draw_text(image, (120, 0), "cut")
    assert image.getbbox() is None and cuts == ["cut"]
    font.draw_text(image, (0, 0), "Hi")
    assert image.getbbox() is not None  # drawing is back on after the block


def test_the_line_cache_is_bounded_and_keeps_the_lines_drawn_lately():
    """A night of play draws many distinct lines (numbers, card texts): the cache of
    line masks never grows past its bound, and a line every screen draws (the title
    bar, a menu item) stays in it however many others come and go."""
    image = Image.new("1", (128, 64))
    font._lines.clear()
    font.draw_text(image, (0, 10), "Detection 12%")
    kept = font._lines[("Detection 12%", 1)]
    for n in range(font._LINES_KEPT * 2):
        font.draw_text(image, (0, 10), "Detection 12%")
        font.draw_text(image, (0, 20), f"line {n}")
        assert len(font._lines) <= font._LINES_KEPT
    assert font._lines[("Detection 12%", 1)] is kept  # never dropped and built again
    assert ("line 0", 1) not in font._lines
    before = image.tobytes()
    font.draw_text(image, (0, 10), "Detection 12%")  # from the cache: the same pixels
    assert image.tobytes() == before
