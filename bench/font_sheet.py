"""Render the OLED font for a human to review: every glyph, then sample screens.

Draws a 128-pixel-wide sheet (the real OLED width) with all glyphs as many to a line
as fit, in the order of ``font5x7.txt``, then some game text in every language, an
inverted bar and big dice digits, and saves it as a PNG. Lines are 9 px apart, as on
the screens, because accented capitals use the free row above their cell. ``--zoom`` enlarges the sheet nearest-neighbour and
adds a faint grid of character cells, so single pixels are easy to judge.

    python bench/font_sheet.py sheet.png [--zoom 6]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from PIL import Image, ImageDraw  # noqa: E402

from companion.views import font  # noqa: E402

WIDTH = 128
SAMPLES = [
    "Schrödinger's cat",
    "|ψ⟩=(|0⟩+|1⟩)/√2",
    "Ω0→φ+ ←↑↓ ▲▼ ►◄ ●○",
    "Draw? ✓ × · … █░ €",
    "0O 1lI| 5S 8B 2Z g9q",
    "„Zażółć gęślą jaźń”",
    "PORAŻKA  ŹRÓDŁO ŻÓŁW",
    "„Žluťoučký kůň“ úpěl",
    "OMEGA DVĚ, TŘI  VÝHRA",
    "ďábelské ódy – «ano»",
]
LINE_H = 9  # the screens' body line pitch


def table(chars: list[str]) -> list[str]:
    """``chars`` in lines as full as the sheet's width allows."""
    rows, line = [], ""
    for char in chars:
        if font.text_width(line + char) > WIDTH:
            rows.append(line)
            line = ""
        line += char
    return rows + [line] if line else rows


def sheet() -> Image.Image:
    glyph_rows = table(list(font.glyphs()))
    big = "123456"
    # glyph table, blank, samples, highlight bar, then scale-4 digits (4 lines tall)
    height = 1 + (len(glyph_rows) + 1 + len(SAMPLES) + 1) * LINE_H + 4 * font.CELL_H + 1
    image = Image.new("1", (WIDTH, height), 0)
    y = 1
    for line in glyph_rows:
        font.draw_text(image, (0, y), line)
        y += LINE_H
    y += LINE_H
    for line in SAMPLES:
        font.draw_text(image, (0, y), line)
        y += LINE_H
    # A highlight bar: black text on a white row, as menus draw it.
    ImageDraw.Draw(image).rectangle((0, y - 1, WIDTH - 1, y + font.CELL_H - 1), fill=1)
    font.draw_centered(image, y, "► Teleport ◄", fill=0)
    y += LINE_H + 1
    x = font.draw_text(image, (0, y), big[:3], scale=3)
    font.draw_text(image, (x, y), big[3:5], scale=4)
    return image


def zoomed(image: Image.Image, zoom: int) -> Image.Image:
    """Enlarge for viewing and mark cell corners in grey (pixel art is otherwise hard to read)."""
    size = (image.width * zoom, image.height * zoom)
    big = image.convert("L").resize(size, Image.Resampling.NEAREST)
    if zoom >= 3:
        draw = ImageDraw.Draw(big)
        for x in range(0, image.width, font.CELL_W):
            for y in range(0, image.height, font.CELL_H):
                draw.point((x * zoom, y * zoom), fill=128)
    return big


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="PNG file to write")
    parser.add_argument("--zoom", type=int, default=4, help="pixel enlargement (1 = real size)")
    args = parser.parse_args(argv)
    image = sheet()
    (zoomed(image, args.zoom) if args.zoom > 1 else image).save(args.output)
    glyph_count = len(font.glyphs())
    print(f"wrote {args.output}: {glyph_count} glyphs, sheet {image.width}x{image.height} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
