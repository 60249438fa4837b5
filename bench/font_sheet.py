"""Render the OLED fonts for a human to review: glyph tables, then sample text.

Draws a 128-pixel-wide sheet (the real OLED width) for one script and saves it as a
PNG. ``latin``: every glyph of ``font5x7.txt`` as many to a line as fit, game text
in English, Polish and Czech, an inverted bar and big dice digits. ``japanese``:
the kana and punctuation of the Japanese glyph file, the kanji the screens' game
terms use, and sample screen text. Lines are 9 px apart, as on the screens, since
accented capitals use the free row above their cell. ``--zoom`` enlarges the sheet
nearest-neighbour and adds a faint grid, so single pixels are easy to judge. The
tests keep a golden image of each sheet.

    python bench/font_sheet.py sheet.png [--script japanese] [--zoom 6]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from PIL import Image, ImageDraw  # noqa: E402

from companion.views import font  # noqa: E402

WIDTH = 128
LINE_H = 9  # the screens' body line pitch
SAMPLES = {
    "latin": [
        "Schrödinger's cat",
        "|ψ⟩=(|0⟩+|1⟩)/√2",
        "Ω0→φ+ ←↑↓ ▲▼ ►◄ ●○",
        "Draw? ✓ × · … █░",
        "0O 1lI| 5S 8B 2Z g9q",
        "„Zażółć gęślą jaźń”",
        "PORAŻKA  ŹRÓDŁO ŻÓŁW",
        "„Žluťoučký kůň“ úpěl",
        "OMEGA DVĚ, TŘI  VÝHRA",
        "ďábelské ódy – «ano»",
    ],
    "japanese": [
        "ひみつのあんごう 確定0",
        "プレイヤー1の手番です。",
        "量子惑星 陣営 総コスト",
        "わくせいを えらんでね",
        "「カードを引く」？！・",
        "設定 言語 再開 終了",
        "Entanglionダイス（8面）",
        "つかったカード: 3まい",
    ],
}
# The kanji of the game terms and box words most likely on screen, to judge at a glance.
KANJI = "確定陣営領地量子惑星手番総秘密暗号設定言語再開終了勝利敗北銀河宇宙船引捨山札測定"
BAR = {"latin": "► Teleport ◄", "japanese": "► テレポート ◄"}


def table(chars: list[str]) -> list[str]:
    """``chars`` in lines as full as the sheet's width allows."""
    rows, line = [], ""
    for char in chars:
        if font.text_width(line + char) > WIDTH:
            rows.append(line)
            line = ""
        line += char
    return rows + [line] if line else rows


def glyph_table(script: str) -> list[str]:
    if script == "latin":
        return table(list(font.glyphs()))
    kana = [c for c in font.wide_glyphs() if 0x3000 < ord(c) <= 0x30FF]
    return table(kana) + table(list(KANJI))


def sheet(script: str = "latin") -> Image.Image:
    glyph_rows = glyph_table(script)
    samples = SAMPLES[script]
    big = "123456"
    # glyph table, blank, samples, highlight bar, then scale-4 digits (4 lines tall)
    height = 1 + (len(glyph_rows) + 1 + len(samples) + 1) * LINE_H + 4 * font.CELL_H + 1
    image = Image.new("1", (WIDTH, height), 0)
    y = 1
    for line in glyph_rows:
        font.draw_text(image, (0, y), line)
        y += LINE_H
    y += LINE_H
    for line in samples:
        font.draw_text(image, (0, y), line)
        y += LINE_H
    # A highlight bar: black text on a white row, as menus draw it.
    ImageDraw.Draw(image).rectangle((0, y - 1, WIDTH - 1, y + font.CELL_H - 1), fill=1)
    font.draw_centered(image, y, BAR[script], fill=0)
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
    parser.add_argument("--script", choices=sorted(SAMPLES), default="latin")
    parser.add_argument("--zoom", type=int, default=4, help="pixel enlargement (1 = real size)")
    args = parser.parse_args(argv)
    image = sheet(args.script)
    (zoomed(image, args.zoom) if args.zoom > 1 else image).save(args.output)
    count = len(font.glyphs()) if args.script == "latin" else len(font.wide_glyphs())
    print(f"wrote {args.output}: {count} glyphs, sheet {image.width}x{image.height} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
