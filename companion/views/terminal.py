"""Text renderers for the terminal simulator: the OLED as half blocks, the LEDs as a map.

Pure functions returning lists of lines; the simulator decides where they go.

:func:`board_map` with ``colour=False`` (files, pipes) uses one letter per planet
pixel, picked as the nearest named colour in :mod:`companion.views.leds`:

    M Mercurial blue   R Rubicon red   B both (violet)   c component (dim white)
    * target (amber)   w highlight (warm white)   o off   ? none of those (win show)

and ``#`` / ``.`` for a lit / unlit detection-track space.
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections.abc import Sequence

from PIL import Image

from companion.games.entanglion.board import (
    MINUS,
    OMEGA_ONE,
    OMEGA_THREE,
    OMEGA_TWO,
    OMEGA_ZERO,
    ONE,
    PHI_MINUS,
    PHI_PLUS,
    PLANETS,
    PLUS,
    PSI_MINUS,
    PSI_PLUS,
    RING,
    ZERO,
)
from companion.games.entanglion.cards import TRACK

from ..i18n import N_, _
from . import leds

RGB = tuple[int, int, int]

# Indexed by (top lit) * 2 + (bottom lit).
_CELLS = (" ", "▄", "▀", "█")
# bytes.translate tables: any non-zero grey level counts as lit.
_TOP_BIT = bytes([0] + [2] * 255)
_BOTTOM_BIT = bytes([0] + [1] * 255)


def width(text: str) -> int:
    """Terminal columns ``text`` takes: two for a wide (East Asian) character."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def columns(text: str, count: int) -> str:
    """``text`` cut or padded to exactly ``count`` terminal columns (a translated label
    in a layout of fixed widths)."""
    out = ""
    for c in text:
        if width(out + c) > count:
            break
        out += c
    return out + " " * (count - width(out))


def halfblocks(image: Image.Image, border: bool = False) -> list[str]:
    """A mode "1" image as text: one character per pixel column and two pixel rows.

    A 128x64 image gives 32 lines of 128 characters; ``border=True`` adds a
    box-drawing frame (34 lines of 130). An odd last row is paired with a blank one.
    """
    if image.mode != "1":
        raise ValueError(f"halfblocks wants a mode '1' image, got {image.mode!r}")
    width, height = image.size
    # One C-level conversion to a byte per pixel instead of getpixel per pixel; mode
    # "1" tobytes() is bit-packed and padded per row, which is fiddlier to slice.
    data = image.convert("L").tobytes()
    blank = bytes(width)
    cells = _CELLS.__getitem__
    lines = []
    for y in range(0, height, 2):
        top = data[y * width : (y + 1) * width].translate(_TOP_BIT)
        bottom = data[(y + 1) * width : (y + 2) * width] if y + 1 < height else blank
        bottom = bottom.translate(_BOTTOM_BIT)
        lines.append("".join(map(cells, map(operator.or_, top, bottom))))
    if border:
        lines = ["┌" + "─" * width + "┐"] + [f"│{line}│" for line in lines] + ["└" + "─" * width + "┘"]
    return lines


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def ansi_strip(text: str) -> str:
    """``text`` without SGR escape codes (what a terminal would show)."""
    return _ANSI.sub("", text)


RESET = "\x1b[0m"
OFF_GREY: RGB = (70, 70, 70)  # an unlit pixel: visible on a dark terminal, clearly not lit
# A real LED at 20/255 is plainly lit, but that colour is near-black on screen, darker
# than OFF_GREY. Dim colours are scaled up (hue kept) until their brightest channel
# reaches this floor; colours at or above it are shown exactly as the frame has them.
DISPLAY_FLOOR = 140


def display_colour(rgb: RGB) -> RGB:
    """The on-screen colour for a lit LED colour: exact unless too dim to see."""
    peak = max(rgb)
    if peak == 0 or peak >= DISPLAY_FLOOR:
        return rgb
    scale = DISPLAY_FLOOR / peak
    return (round(rgb[0] * scale), round(rgb[1] * scale), round(rgb[2] * scale))


def _fg(rgb: RGB, text: str) -> str:
    return f"\x1b[38;2;{rgb[0]};{rgb[1]};{rgb[2]}m{text}{RESET}"


# Letter codes for colour=False, keyed by the named constants so the mapping follows
# any change of palette in leds.py.
LETTERS: tuple[tuple[RGB, str], ...] = (
    (leds.OFF, "o"),
    (leds.MERCURIAL_BLUE, "M"),
    (leds.RUBICON_RED, "R"),
    (leds.BOTH_VIOLET, "B"),
    (leds.COMPONENT_DIM, "c"),
    (leds.TARGET_AMBER, "*"),
    (leds.HIGHLIGHT_WARM, "w"),
)
# Further than this (Euclidean) from every named colour gets '?': naming a rainbow
# hue after its nearest palette entry would claim a state the board is not in.
UNNAMED_DISTANCE = 60


def letter(rgb: RGB) -> str:
    """The letter of the nearest named planet colour, or '?' if none is close."""

    def distance2(entry: tuple[RGB, str]) -> int:
        return sum((a - b) ** 2 for a, b in zip(entry[0], rgb))

    nearest = min(LETTERS, key=distance2)
    return nearest[1] if distance2(nearest) <= UNNAMED_DISTANCE**2 else "?"


LABELS: dict[str, str] = {
    ZERO: "0",
    ONE: "1",
    PLUS: "+",
    MINUS: "-",
    OMEGA_ZERO: "Ω0",
    OMEGA_ONE: "Ω1",
    PSI_MINUS: "Ψ-",
    PHI_MINUS: "Φ-",
    OMEGA_THREE: "Ω3",
    OMEGA_TWO: "Ω2",
    PHI_PLUS: "Φ+",
    PSI_PLUS: "Ψ+",
}

# Ring slots (row, column) clockwise from the top, matching RING's printed order.
_RING_SLOTS = ((1, 28), (2, 34), (4, 38), (6, 34), (7, 28), (6, 22), (4, 18), (2, 22))
# (row, column) of every planet cell; rows 0 and 3 carry galaxy names.
_PLANET_AT: dict[str, tuple[int, int]] = {
    ZERO: (1, 1),
    ONE: (1, 6),
    PLUS: (4, 1),
    MINUS: (4, 6),
    **dict(zip(RING, _RING_SLOTS)),
}
# Translators: the galaxies' names as your edition prints them (Czech: Centarius, Superius).
_TITLES = ((0, 0, N_("Centarious")), (3, 0, N_("Superious")), (0, 24, "Entanglion"))
_MAP_ROWS = 8
_TRACK_LABEL = 10  # columns before the track's values
MAP_WIDTH = 41  # the widest visible line board_map produces (the tests hold it to this)


class _Canvas:
    """Rows of (column, visible text, rendered text); escape codes take no columns."""

    def __init__(self, rows: int) -> None:
        self.rows: list[list[tuple[int, str, str]]] = [[] for _ in range(rows)]

    def put(self, row: int, col: int, visible: str, rendered: str | None = None) -> None:
        self.rows[row].append((col, visible, visible if rendered is None else rendered))

    def lines(self) -> list[str]:
        out = []
        for row in self.rows:
            line, used = "", 0
            for col, visible, rendered in sorted(row):
                line += " " * max(0, col - used) + rendered
                used = max(used, col) + len(visible)
            out.append(line)
        return out


def _planet_glyph(rgb: RGB, colour: bool) -> str:
    if not colour:
        return letter(rgb)
    if rgb == leds.OFF:
        return _fg(OFF_GREY, "○")
    return _fg(display_colour(rgb), "●")


# Translators: Labels of the simulator's board map (about 10 characters).
def board_map(frame: Sequence[RGB], colour: bool = True) -> list[str]:
    """A compact map of the board showing ``frame`` (24 logical pixel colours).

    Centarious and Superious on the left, the Entanglion ring clockwise from
    OMEGA ZERO at the top, and the detection track underneath. ``colour=True`` uses
    24-bit ANSI colours; ``colour=False`` uses letters (see the module docstring) and
    adds a ``#``/``.`` row under the track values. Expects the logical frame from
    :func:`companion.views.leds.entanglion_frame`, before any brightness cap.
    """
    if len(frame) not in (leds.PIXEL_COUNT, leds.FRAME_LENGTH):
        raise ValueError(f"frame must have {leds.FRAME_LENGTH} pixels, got {len(frame)}")
    canvas = _Canvas(_MAP_ROWS)
    for row, col, title in _TITLES:
        canvas.put(row, col, _(title))
    for i, planet in enumerate(PLANETS):
        row, col = _PLANET_AT[planet]
        glyph = _planet_glyph(tuple(frame[i]), colour)
        canvas.put(row, col, "x" + LABELS[planet], glyph + LABELS[planet])
    lines = canvas.lines()

    track = [tuple(rgb) for rgb in frame[leds.TRACK_OFFSET : leds.TRACK_OFFSET + len(TRACK)]]
    turn = tuple(frame[leds.TURN_INDEX]) if len(frame) > leds.TURN_INDEX else leds.OFF
    values = [str(value) for value in TRACK]
    lines.append("")
    label = columns(_("Detection"), _TRACK_LABEL - 1) + " "
    turn_label = "  " + columns(_("turn"), 4) + " "
    if colour:
        cells = [
            _fg(display_colour(rgb) if any(rgb) else OFF_GREY, value)
            for rgb, value in zip(track, values)
        ]
        lines.append(label + " ".join(cells) + turn_label + _planet_glyph(turn, True))
    else:
        lines.append(label + " ".join(values) + turn_label + letter(turn))
        marks = ["#" if any(rgb) else "." for rgb in track]
        lines.append(" " * _TRACK_LABEL + " ".join(marks))
    return lines


# ------------------------------------------------------------------ 80x24 terminals

# Braille cells hold 2x4 dots: bit of each (column, row) within a cell.
_BRAILLE = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def braille(image: Image.Image, border: bool = False) -> list[str]:
    """A mode "1" image as braille: every pixel kept, 2x4 pixels a character, so a
    128x64 OLED is 16 lines of 64 (with ``border``, 18 of 66): it fits 80x24."""
    if image.mode != "1":
        raise ValueError(f"braille wants a mode '1' image, got {image.mode!r}")
    width, height = image.size
    data = image.convert("L").tobytes()
    lines = []
    for top in range(0, height, 4):
        cells = []
        for left in range(0, width, 2):
            bits = 0
            for dy, row in enumerate(_BRAILLE):
                y = top + dy
                if y >= height:
                    break
                for dx, bit in enumerate(row):
                    x = left + dx
                    if x < width and data[y * width + x]:
                        bits |= bit
            cells.append(chr(0x2800 + bits))
        lines.append("".join(cells))
    if border:
        w = len(lines[0]) if lines else 0
        lines = ["┌" + "─" * w + "┐"] + [f"│{line}│" for line in lines] + ["└" + "─" * w + "┘"]
    return lines


# (row, column) of each planet in the compact map; the ring is laid out as printed.
_COMPACT_AT: dict[str, tuple[int, int]] = {
    ZERO: (0, 0), ONE: (0, 3), PLUS: (0, 7), MINUS: (0, 10),
    OMEGA_ZERO: (2, 1), OMEGA_ONE: (2, 7), PSI_PLUS: (3, 0), PSI_MINUS: (3, 8),
    PHI_PLUS: (4, 0), PHI_MINUS: (4, 8), OMEGA_TWO: (5, 1), OMEGA_THREE: (5, 7),
}
COMPACT_WIDTH = 12


# Translators: A label of the simulator's compact board (about 10 characters).
def board_compact(frame: Sequence[RGB], colour: bool = True) -> list[str]:
    """The board map in 12 columns (beside a braille OLED on an 80-column terminal):
    Centarious and Superious on top, the ring below as printed, then the detection
    track in two rows of six and the turn pixel."""
    if len(frame) not in (leds.PIXEL_COUNT, leds.FRAME_LENGTH):
        raise ValueError(f"frame must have {leds.FRAME_LENGTH} pixels, got {len(frame)}")
    canvas = _Canvas(10)
    for i, planet in enumerate(PLANETS):
        row, col = _COMPACT_AT[planet]
        glyph = _planet_glyph(tuple(frame[i]), colour)
        label = LABELS[planet]
        canvas.put(row, col, label + "x", label + glyph)
    track = [tuple(rgb) for rgb in frame[leds.TRACK_OFFSET:leds.TRACK_OFFSET + len(TRACK)]]

    def cell(rgb: RGB) -> str:
        if not colour:
            return "#" if any(rgb) else "."
        return _fg(display_colour(rgb), "●") if any(rgb) else _fg(OFF_GREY, "○")

    det = columns(_("Det"), 3) + " "
    canvas.put(7, 0, det + "x" * 6, det + "".join(map(cell, track[:6])))
    canvas.put(8, 0, "    " + "x" * 6, "    " + "".join(map(cell, track[6:])))
    turn = tuple(frame[leds.TURN_INDEX]) if len(frame) > leds.TURN_INDEX else leds.OFF
    label = columns(_("Turn"), 4) + " "
    canvas.put(9, 0, label + "x", label + _planet_glyph(turn, colour))
    return canvas.lines()
