"""Our own 5x7 bitmap font for the 128x64 OLED, and a tiny text API.

Glyphs come from ``font5x7.txt`` next to this module, never from Pillow's font
engine, so a rendered screen is the same pixels on every machine and every Pillow
version and golden-image tests can compare screens exactly.

A Latin character occupies a 6x8 cell: the 5x7 glyph plus one blank column on its
right and one blank row below. A 128x64 screen therefore holds 8 lines of 21 Latin
characters. Accented capitals reach one row above the cell (the row every layout
leaves free between lines). Widths are measured in pixels per character, so other
advances can sit beside the Latin ones. ``scale`` enlarges pixels nearest-neighbour
(the big dice number). Characters without a glyph draw as a box and never raise.
"""

from __future__ import annotations

import struct
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from importlib import resources
from types import MappingProxyType

from PIL import Image

CELL_W = 6
"""Advance per character at scale 1 (glyph width 5 + 1 gap column)."""
CELL_H = 8
"""Line height at scale 1 (glyph height 7 + 1 gap row)."""
GLYPH_W = 5
GLYPH_H = 7
UNKNOWN = "\ufffd"
"""Key of the box glyph drawn for characters the font lacks."""
ELLIPSIS = "\u2026"

_ON = "#"
_OFF = "."
_RAISED = "^"
"""Prefix of a glyph's optional first row, drawn in the free row above the cell."""
_DATA_FILE = "font5x7.txt"

WIDE_W = 8
"""Advance of a full-width (Japanese) character: a 7x7 glyph plus one gap column."""
WIDE_H = 7
_WIDE_FILE = "japanese8x8.bin"
_WIDE_MAGIC = b"JG87"
_LARGE_FILE = "japanese14.bin"
_LARGE_MAGIC = b"JG14"
LARGE_H = 14
"""Japanese drawn at twice the size takes these 14x14 glyphs (same box as a 7x7 glyph
doubled, real strokes instead of blocks) where the file has the character."""
_WIDE_BLOCKS = ((0x3000, 0x30FF), (0x4E00, 0x9FFF), (0xFF00, 0xFFEF))
"""The blocks the Japanese file draws from (CJK punctuation and kana, kanji,
full-width forms). Only characters in them open the file, so English never does."""

# Line-breaking rules for Japanese (kinsoku): no line starts with closing
# punctuation, the long-vowel mark, the middle dot or a small kana, and none ends
# with an opening bracket. The ASCII marks are here for mixed text such as "確定!".
NO_LINE_START = frozenset(
    "、。，．・：；！？）」』】〕〉》］｝ー～…"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
    ",.:;!?)]}%"
)
NO_LINE_END = frozenset("「『（【〔〈《［｛([{")

# While a ``truncations()`` block runs: every text the views cut or clip, and whether
# glyphs are drawn at all (a check of layouts only needs their arithmetic).
_cuts: list[str] | None = None
_paste = True


@contextmanager
def truncations(draw: bool = True) -> Iterator[list[str]]:
    """Collect every text that ``fit`` cuts, ``clip`` drops or ``draw_text`` draws
    past an edge of its image or with a character it has no glyph for, while the block
    runs (screens must never cut text nor draw the unknown box; the tests render many
    games in every language inside this). ``draw=False`` skips pasting glyphs, so a
    screen's layout is checked at a fraction of the cost of drawing it."""
    global _cuts, _paste
    outer = _cuts, _paste
    _cuts, _paste = [], draw and _paste
    try:
        yield _cuts
    finally:
        found = _cuts
        _cuts, _paste = outer
        if _cuts is not None:
            _cuts.extend(found)


# While a ``drawn()`` block runs: every text line and bar drawn, for the check that
# no line touches another line or a bar.
Drawn = tuple[str, str, int, frozenset[tuple[int, int]]]
_drawn: list[Drawn] | None = None
_pixels = True


@contextmanager
def drawn(pixels: bool = True) -> Iterator[list[Drawn]]:
    """Record what the views draw while the block runs: ``("text", text, fill,
    pixels)`` for each line of text (the pixels its glyphs set, inside the image) and
    ``("bar", "", 1, pixels)`` for each filled bar a view draws with ``bar``. Tests use
    it to find a mark that touches the line above or a highlight bar. ``pixels=False``
    records them with no pixels (empty sets), for a test that reads only the words:
    collecting the pixels costs more than drawing them."""
    global _drawn, _pixels
    outer, _drawn, _pixels = (_drawn, _pixels), [], pixels
    try:
        yield _drawn
    finally:
        _drawn, _pixels = outer


def watched() -> bool:
    """Whether a ``truncations()`` or ``drawn()`` block runs: a view that keeps what it
    drew for reuse must then draw afresh, so every cut and every line is seen."""
    return _cuts is not None or _drawn is not None


def bar(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """A filled white rectangle (title bar, highlight) that text must keep clear of,
    from ``box``'s corner (left, top) to (right, bottom), both included."""
    left, top, right, bottom = box
    image.paste(1, (left, top, right + 1, bottom + 1))
    if _drawn is not None:
        _drawn.append(("bar", "", 1, frozenset(
            (x, y) for x in range(max(0, left), min(image.width, right + 1))
            for y in range(max(0, top), min(image.height, bottom + 1))) if _pixels
            else frozenset()))


def _record(image: Image.Image, x: int, y: int, text: str, mask: Image.Image,
            fill: int) -> None:
    if _drawn is None:
        return
    if not _pixels:
        _drawn.append(("text", text, fill, frozenset()))
        return
    data, w = mask.tobytes(), mask.width  # the line's mask is mode "L"
    _drawn.append(("text", text, fill, frozenset(
        (x + i % w, y + i // w) for i, v in enumerate(data)
        if v and 0 <= x + i % w < image.width and 0 <= y + i // w < image.height)))


def _report(text: str) -> None:
    if _cuts is not None:
        _cuts.append(text)


def parse_glyphs(text: str) -> dict[str, tuple[str, ...]]:
    """Parse font data (format described at the top of ``font5x7.txt``).

    Returns character -> row strings of 5 '#'/'.' cells: 7 rows, or 8 when the glyph
    uses the row above its cell (then that row comes first, without its '^').
    Strict on purpose: a malformed glyph raises ``ValueError`` naming the line,
    instead of quietly drawing something the reviewer never saw.
    """
    glyphs: dict[str, tuple[str, ...]] = {}
    char: str | None = None
    rows: list[str] = []
    raised = False
    start = 0

    def finish() -> None:
        if char is None:
            return
        if len(rows) - raised != GLYPH_H:
            raise ValueError(
                f"line {start}: glyph {char!r} has {len(rows) - raised} rows, want {GLYPH_H}"
            )
        glyphs[char] = tuple(rows)

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("char "):
            finish()
            token = line.split(None, 2)[1]
            if token.startswith("U+") and len(token) > 2:
                char = chr(int(token[2:], 16))
            elif len(token) == 1:
                char = token
            else:
                raise ValueError(f"line {number}: bad character token {token!r}")
            if char in glyphs:
                raise ValueError(f"line {number}: duplicate glyph {char!r}")
            rows, raised, start = [], False, number
            continue
        if char is None:
            raise ValueError(f"line {number}: pixel row before any 'char' line")
        if line.startswith(_RAISED):
            if rows:
                raise ValueError(f"line {number}: glyph {char!r}: only its first row may be '^'")
            raised, line = True, line[1:]
        if len(line) != GLYPH_W or set(line) - {_ON, _OFF}:
            raise ValueError(
                f"line {number}: glyph {char!r} row {line!r} is not {GLYPH_W} of '#'/'.'"
            )
        if len(rows) - raised == GLYPH_H:
            raise ValueError(f"line {number}: glyph {char!r} has more than {GLYPH_H} rows")
        rows.append(line)
    finish()
    if UNKNOWN not in glyphs:
        raise ValueError("font data lacks the U+FFFD fallback glyph")
    return glyphs


@cache
def glyphs() -> Mapping[str, tuple[str, ...]]:
    """The shipped font's glyph patterns (read once, read-only)."""
    text = resources.files(__package__).joinpath(_DATA_FILE).read_text(encoding="utf-8")
    return MappingProxyType(parse_glyphs(text))


def parse_wide(data: bytes) -> dict[str, bytes]:
    """Parse the Japanese glyph file (format in ``docs/make_japanese_glyphs.py``):
    character -> 7 row bytes, bit 7 the leftmost of 7 columns. Strict like
    ``parse_glyphs``: a damaged file raises ``ValueError`` instead of drawing noise."""
    return _parse_japanese(data, _WIDE_MAGIC, "Japanese glyph file", WIDE_H,
                           lambda rows: any(row & 1 for row in rows), "column")


def parse_large(data: bytes) -> dict[str, bytes]:
    """Parse the large Japanese glyph file (format in ``docs/make_japanese_large.py``):
    character -> 14 rows of 2 bytes, bit 15 the leftmost of 14 columns. Strict too."""
    return _parse_japanese(data, _LARGE_MAGIC, "large Japanese glyph file", 2 * LARGE_H,
                           lambda rows: any(low & 3 for low in rows[1::2]), "columns")


def _parse_japanese(data: bytes, magic: bytes, what: str, size: int,
                    uses_gap: Callable[[bytes], bool], gap: str) -> dict[str, bytes]:
    """Both Japanese files: magic, count, ascending code points, ``size`` bytes a glyph."""
    if data[:4] != magic or len(data) < 6:
        raise ValueError(f"not a {what} (bad magic)")
    (count,) = struct.unpack_from(">H", data, 4)
    rows_at = 6 + 2 * count
    if len(data) != rows_at + size * count:
        raise ValueError(f"{what}: {len(data)} bytes, want {rows_at + size * count}")
    codes = struct.unpack_from(f">{count}H", data, 6)
    if any(a >= b for a, b in zip(codes, codes[1:])):
        raise ValueError(f"{what}: code points not strictly ascending")
    glyphs: dict[str, bytes] = {}
    for index, code in enumerate(codes):
        char = chr(code)
        if not _in_wide_blocks(char):
            raise ValueError(f"{what}: U+{code:04X} is outside the Japanese blocks")
        rows = data[rows_at + index * size: rows_at + (index + 1) * size]
        if uses_gap(rows):
            raise ValueError(f"{what}: U+{code:04X} uses its gap {gap}")
        glyphs[char] = rows
    return glyphs


@cache
def large_glyphs() -> Mapping[str, bytes]:
    """The 14x14 Japanese glyphs (read on the first Japanese character drawn at 2x)."""
    data = resources.files(__package__).joinpath(_LARGE_FILE).read_bytes()
    return MappingProxyType(parse_large(data))


def _in_wide_blocks(char: str) -> bool:
    code = ord(char)
    return any(first <= code <= last for first, last in _WIDE_BLOCKS)


@cache
def wide_glyphs() -> Mapping[str, bytes]:
    """The Japanese glyphs (read once, on the first Japanese character drawn or measured)."""
    data = resources.files(__package__).joinpath(_WIDE_FILE).read_bytes()
    return MappingProxyType(parse_wide(data))


def _wide_image(rows: bytes) -> Image.Image | None:
    if not any(rows):
        return None
    return Image.frombytes("1", (WIDE_W, WIDE_H), rows)


def _pattern_image(rows: tuple[str, ...]) -> Image.Image | None:
    """Mode "1" mask of a pattern; None for a blank glyph so drawing can skip it."""
    if not any(_ON in row for row in rows):
        return None
    data = bytes(255 if cell == _ON else 0 for row in rows for cell in row)
    return Image.frombytes("L", (GLYPH_W, len(rows)), data).convert("1")


class _Masks(dict):
    """Each glyph's mask, built on its first use (a start draws a few dozen of the
    font's glyphs: building all of them cost it 1.6 ms); draw_text then only pastes,
    which is what makes it fast. The number is the mask's top row relative to the
    cell: -1 for a raised glyph. Whether a character has a glyph is ``glyphs()``'s."""

    def __missing__(self, char: str) -> tuple[Image.Image | None, int]:
        rows = glyphs()[char]
        mask = self[char] = (_pattern_image(rows), GLYPH_H - len(rows))
        return mask


_masks = _Masks()


_scaled: dict[tuple[str, int], tuple[Image.Image | None, int]] = {}
_wide_masks: dict[str, tuple[Image.Image | None, int]] = {}


def _is_wide(char: str) -> bool:
    """True for a character drawn from the Japanese file (which this may load)."""
    return char not in glyphs() and _in_wide_blocks(char) and char in wide_glyphs()


def _mask(char: str, scale: int) -> tuple[Image.Image | None, int]:
    """Mask for ``char`` at ``scale`` and its top relative to the cell's top (unknown
    characters get the box)."""
    masks = _masks
    if char not in glyphs():
        if _is_wide(char):
            if char not in _wide_masks:
                # One mask per character actually drawn: a screen of Japanese needs
                # dozens of the 3,000-odd glyphs, so building all would waste memory.
                _wide_masks[char] = (_wide_image(wide_glyphs()[char]), 0)
            masks = _wide_masks
        else:
            char = UNKNOWN
    if scale == 1:
        return masks[char]
    key = (char, scale)
    if scale == 2 and key not in _scaled and masks is _wide_masks and char in large_glyphs():
        _scaled[key] = (Image.frombytes("1", (16, LARGE_H), large_glyphs()[char]), 0)
    if key not in _scaled:
        # Lazily: only the dice digits are ever drawn big, at one or two scales.
        base, top = masks[char]
        _scaled[key] = (None if base is None else base.resize(
            (base.width * scale, base.height * scale), Image.Resampling.NEAREST
        ), top * scale)
    return _scaled[key]


def _nfc(text: str) -> str:
    # A decomposed "o" + combining diaeresis must draw as our single "ö" glyph,
    # and widths must count it as one cell.
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def _check_scale(scale: int) -> None:
    if scale < 1:
        raise ValueError(f"scale must be >= 1, got {scale}")


_advances: dict[str, int] = {}
"""Advance at scale 1 of every character with a glyph measured so far: measuring is
on every screen's hot path, and a dictionary hit is the cheapest test there is.
Characters without a glyph are not kept, so odd input cannot grow this."""


def advance(char: str, scale: int = 1) -> int:
    """Pixels from ``char``'s left edge to the next character's, gap included: 6 for
    Latin (and the box), 8 for Japanese."""
    width = _advances.get(char)
    if width is None:
        width = WIDE_W if _is_wide(char) else CELL_W
        if width == WIDE_W or char in glyphs():
            _advances[char] = width
    return width * scale


def text_width(text: str, scale: int = 1) -> int:
    """Width in pixels of ``text`` on one line, counting each trailing gap column."""
    _check_scale(scale)
    return _width(_nfc(text)) * scale


def _width(text: str) -> int:
    """Width at scale 1 of text that is already NFC."""
    if text.isascii():  # every ASCII character (or its box) is one Latin cell
        return len(text) * CELL_W
    return sum(map(advance, text))


def raised(text: str) -> bool:
    """Whether a character of ``text`` (at scale 1) uses the row above its cell, as
    the accents of Polish and Czech capitals and some lower-case letters do."""
    known = glyphs()
    return any(len(known[c]) > GLYPH_H for c in _nfc(text) if c in known)


def missing(text: str) -> list[str]:
    """The distinct characters of ``text`` that would draw as the unknown box, in
    order of first appearance (line breaks excepted: ``wrap`` consumes them)."""
    known = glyphs()
    return [
        char for char in dict.fromkeys(_nfc(text))
        if char not in known and char != "\n" and not _is_wide(char)
    ]


_LINES_KEPT = 1024
"""Line masks kept (about 1 KB each, 1 MB in all), the least recently drawn dropped
first: a screen's lines are mostly ones the screens before it drew (the title bar,
menu items, the hint row, a card's text). Over 2,000 inputs of play a first-in
first-out cache of 256 missed 21% of the lines, this one 6% (nearly all of them lines
never drawn before)."""
_lines: dict[tuple[str, int], tuple[int, int, Image.Image | None]] = {}
_cells: dict[tuple[str, int], tuple[tuple[bytes, ...], int, bool]] = {}


def _cell(char: str, scale: int) -> tuple[tuple[bytes, ...], int, bool]:
    """``char``'s whole cell at ``scale`` as rows of 0/255 bytes, from the free row
    above the cell to its bottom ((GLYPH_H + 1) * scale rows of its advance), with the
    glyph's top relative to the cell's and whether anything is inked."""
    if char not in glyphs() and not _is_wide(char):
        char = UNKNOWN  # one cell for every character without a glyph
    cell = _cells.get((char, scale))
    if cell is None:
        mask, dy = _mask(char, scale)
        width = advance(char, scale)
        rows = [bytes(width)] * ((GLYPH_H + 1) * scale)
        if mask is not None:
            data, w = mask.convert("L").tobytes(), mask.width
            for r in range(mask.height):
                rows[scale + dy + r] = data[r * w:(r + 1) * w].ljust(width, b"\0")
        cell = _cells[(char, scale)] = (tuple(rows), dy, mask is not None)
    return cell


def _line(text: str, scale: int) -> tuple[int, int, Image.Image | None]:
    """``text`` (NFC) laid out as one mask from the row above its cells: its advance,
    its inked top relative to the cells' top, and the mask (None when nothing is
    inked). Kept for the next draw."""
    line = _lines.pop((text, scale), None)
    if line is not None:
        _lines[(text, scale)] = line  # now the most recently drawn
        return line
    cells = [_cells.get((char, scale)) or _cell(char, scale) for char in text]
    width = sum(len(rows[0]) for rows, _, _ in cells)
    top = min([0, *(dy for _, dy, inked in cells if inked)])
    mask = None
    if any(inked for _, _, inked in cells):
        # Each pixel row of the line is its cells' rows joined: a line costs one
        # paste however many characters it has (a paste per glyph was most of a
        # screen's drawing).
        mask = Image.frombytes("L", (width, (GLYPH_H + 1) * scale), b"".join(
            b"".join([rows[r] for rows, _, _ in cells]) for r in range((GLYPH_H + 1) * scale)))
    if len(_lines) >= _LINES_KEPT:
        del _lines[next(iter(_lines))]  # the least recently drawn: the cache stays bounded
    line = _lines[(text, scale)] = (width, top, mask)
    return line


def draw_text(
    image: Image.Image, xy: tuple[int, int], text: str, fill: int = 1, scale: int = 1
) -> int:
    """Draw one line of ``text`` with its top-left cell corner at ``xy``.

    ``image`` must be mode "1". ``fill`` 1 draws white pixels, 0 draws black ones
    (text on an inverted highlight bar); only glyph pixels change, the cell
    background is left alone. Anything outside the image is clipped. Returns the x
    just after the last character's cell. Control characters such as '\\n' are not
    interpreted (they draw as the unknown box); use ``wrap`` for several lines.
    """
    _check_scale(scale)
    if image.mode != "1":
        raise ValueError(f"draw_text needs a mode '1' image, got {image.mode!r}")
    text = _nfc(text)
    x, y = xy
    width, height = image.size
    length, top, mask = _line(text, scale)
    end = x + length
    if (x < 0 or end - scale > width or y + top < 0 or y + GLYPH_H * scale > height) \
            and text.strip():
        _report(text)  # some of it falls off the screen
    elif _cuts is not None and missing(text):
        _report(text)  # a box where a letter should be is as unreadable as a cut
    if not _paste or mask is None or y >= height or y + GLYPH_H * scale <= 0:
        return end
    # The mask starts a row (at scale) above the cells; paste clips what falls off.
    image.paste(255 if fill else 0, (x, y - scale), mask)
    _record(image, x, y - scale, text, mask, fill)
    return end


def draw_centered(
    image: Image.Image, y: int, text: str, fill: int = 1, scale: int = 1
) -> int:
    """Draw ``text`` horizontally centred on ``image``; returns the x after it.

    Centres the ink (the last gap column is not counted), rounding left. Text wider
    than the image is clipped at both ends; pass it through ``fit`` first.
    """
    ink = max(0, text_width(text, scale) - scale)
    return draw_text(image, ((image.width - ink) // 2, y), text, fill, scale)


def wrap(text: str, width_px: int = 128, scale: int = 1) -> list[str]:
    """Greedy wrap into lines that fit ``width_px``.

    Latin text breaks at spaces (runs of spaces collapse). Japanese has no spaces,
    so a line may also break between two characters when either is Japanese, except
    where the kinsoku rules forbid it (``NO_LINE_START``, ``NO_LINE_END``). Each
    '\\n' starts a new line, so "a\\n\\nb" keeps its blank line and "" gives one
    empty line. A piece too long for a line is cut into line-sized parts. Lines are
    never empty unless the paragraph was; if not even one character fits, each line
    holds one character anyway rather than looping or losing text.
    """
    _check_scale(scale)
    space = advance(" ", scale)
    lines: list[str] = []
    for paragraph in _nfc(text).split("\n"):
        line, used = "", 0
        for word in paragraph.split(" "):
            for index, piece in enumerate(_pieces(word)):
                gap = space if line and index == 0 else 0
                size = _width(piece) * scale
                if line and used + gap + size <= width_px:
                    line, used = line + (" " if gap else "") + piece, used + gap + size
                    continue
                if line:
                    lines.append(line)
                # Cut an over-long piece; its last part may still share a line.
                while size > width_px and len(piece) > 1:
                    part = _head(piece, width_px, scale)
                    lines.append(part)
                    piece = piece[len(part):]
                    size = _width(piece) * scale
                line, used = piece, size
        lines.append(line)
    return lines


def _pieces(word: str) -> list[str]:
    """``word`` (no spaces) split where a line may break inside it."""
    if word.isascii():
        return [word] if word else []
    pieces, start = [], 0
    for index in range(1, len(word)):
        before, after = word[index - 1], word[index]
        if (
            (_is_wide(before) or _is_wide(after))
            and after not in NO_LINE_START
            and before not in NO_LINE_END
        ):
            pieces.append(word[start:index])
            start = index
    if word:
        pieces.append(word[start:])
    return pieces


def _head(text: str, width_px: int, scale: int) -> str:
    """The longest start of ``text`` that fits ``width_px``; at least one character."""
    used = 0
    for index, char in enumerate(text):
        used += advance(char, scale)
        if used > width_px:
            return text[: max(1, index)]
    return text


def fit(text: str, width_px: int, scale: int = 1) -> str:
    """``text`` unchanged if it fits ``width_px``, else cut and ended with '…'.

    Spaces before the ellipsis are dropped ("Hello…", not "Hello …"). Returns ""
    when not even the ellipsis fits.
    """
    text = _nfc(text)
    if text_width(text, scale) <= width_px:
        return text
    _report(text)
    room = width_px - advance(ELLIPSIS, scale)
    if room < 0:
        return ""
    kept = _head(text, room, scale) if room >= advance(text[0], scale) else ""
    return kept.rstrip(" ") + ELLIPSIS


def clip(lines: list[str], count: int) -> list[str]:
    """The first ``count`` lines; dropping any is a cut that ``truncations`` reports."""
    if len(lines) > count:
        _report(" / ".join(lines[count:]))
    return lines[:count]
