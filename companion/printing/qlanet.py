"""QLANET's gate cards (and, optionally, the nine planet tokens) as print-and-play faces.

Our own art and words, after the rules as docs/rules/qlanet.md states them:
each card shows its name, its cost in the top right corner, a small drawing of what it
does and one line of effect. One-planet cards (X, H, Z, M) are square-cornered; the
two-planet cards (CX0, CX1, SW, BM) have a cut corner, on the card and on the drawing.
Camp 0 is pink, camp 1 blue.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from ..games.qlanet import cards as engine
from ..i18n import N_, for_catalog
from . import sheet
from .sheet import CARD_H, CARD_W, INK, SAFE, WHITE, Card, mm, text

_, ngettext, pgettext = for_catalog("printing")

GAME = "qlanet"

# Translators: What a printed card's gate does, one line on a card (about 18 characters).
EFFECT = {  # our own words, translated when drawn
    "X": N_("swap 0 and 1"), "H": "+ <-> 0,  - <-> 1", "Z": "+ <-> -",
    "M": N_("measure: fix the planet"), "CX0": N_("if first is 0, flip second"),
    "CX1": N_("if first is 1, flip second"), "SW": N_("swap two planets"),
    "BM": N_("entangle two planets (secret)"),
}
SYMBOLIC = ("H", "Z")  # effects in symbols only: the same in every language
# name -> (copies, cost, planets, effect); copies and costs are the engine's
CARDS = {
    name: (engine.DECK_COUNTS[name], engine.COSTS[name],
           2 if name in engine.TWO_PLANET else 1, EFFECT[name])
    for name in engine.CARDS
}
COST = {name: spec[1] for name, spec in CARDS.items()}
PLANETS = 9

PINK = (226, 74, 122)        # camp 0
LIGHT_PINK = (247, 183, 205)
BLUE = (38, 102, 204)        # camp 1
LIGHT_BLUE = (160, 196, 242)
FRAME = (72, 60, 132)
PALE = (242, 239, 250)
CENTRE_X = CARD_W // 2
TILE = mm(26)
TILE_TOP = mm(17)
NFC_CENTRE = (CENTRE_X, mm(67.5))
CUT = mm(9)  # the cut corner of a two-planet card
TOKEN_CENTRE = (CARD_W // 2, CARD_H // 2)
TOKEN_RADIUS = mm(29)


def cards(tokens: bool = False) -> list[Card]:
    """Gate cards in print order (the engine's deck), then planet tokens 1-9 if asked for."""
    out = [Card("gate", name, f"{name} (cost {cost})")
           for name, (copies, cost, _planets, _effect) in CARDS.items() for _ in range(copies)]
    if tokens:
        out += [Card("planet", str(n), f"planet {n}") for n in range(1, PLANETS + 1)]
    return out


def face(card: Card) -> Image.Image:
    if card.kind == "planet":
        return token_face(int(card.name))
    return gate_face(card.name)


def number_centre(card: Card) -> tuple[int, int] | None:
    if card.kind == "planet":  # on the token, which is cut out round
        return TOKEN_CENTRE[0], TOKEN_CENTRE[1] + mm(21)
    return None


def cut_box(box: tuple[float, float, float, float], cut: float) -> list[tuple[float, float]]:
    """A rectangle with its top left corner cut off, as a polygon."""
    x0, y0, x1, y1 = box
    return [(x0 + cut, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0 + cut)]


# Translators: What a printed card's gate does, one line on a card (about 18 characters).
def gate_face(name: str) -> Image.Image:
    _copies, cost, planets, effect = CARDS[name]
    said = name not in SYMBOLIC
    effect = _(effect) if said else effect
    two = planets == 2
    image = sheet.blank_card()
    draw = ImageDraw.Draw(image)
    box = (SAFE, SAFE, CARD_W - 1 - SAFE, CARD_H - 1 - SAFE)
    if two:
        draw.polygon(cut_box(box, CUT), fill=PALE, outline=FRAME, width=mm(0.8))
    else:
        draw.rectangle(box, fill=PALE, outline=FRAME, width=mm(0.8))
    # Name top left, cost in a coin top right.
    text(image, (SAFE + (mm(8.5) if two else mm(4)), SAFE + mm(3.5)), name, mm(8), fill=FRAME,
         anchor="lt", stroke=2, stroke_fill=FRAME)
    coin = (CARD_W - SAFE - mm(8), SAFE + mm(8))
    r = mm(5.5)
    draw.ellipse((coin[0] - r, coin[1] - r, coin[0] + r, coin[1] + r), fill=FRAME)
    text(image, coin, str(cost), mm(6), fill=WHITE, stroke=1, stroke_fill=WHITE)
    # The drawing, on a tile the shape of the card.
    tile = (CENTRE_X - TILE // 2, TILE_TOP, CENTRE_X + TILE // 2, TILE_TOP + TILE)
    if two:
        draw.polygon(cut_box(tile, mm(6)), fill=WHITE, outline=FRAME, width=mm(0.5))
    else:
        draw.rectangle(tile, fill=WHITE, outline=FRAME, width=mm(0.5))
    SYMBOLS[name](image, draw, (CENTRE_X, TILE_TOP + TILE // 2), TILE)
    width = box[2] - box[0] - mm(6)
    text(image, (CENTRE_X, mm(47)), effect, sheet.fit_size(effect, mm(3.8), width, said=said),
         fill=INK, said=said)
    hint = _("play on two planets: first, second") if two else _("play on one planet")
    text(image, (CENTRE_X, mm(51.5)), hint, sheet.fit_size(hint, mm(2.8), width, said=True),
         fill=sheet.GREY, said=True)
    sheet.nfc_mark(image, NFC_CENTRE, sheet.GREY)
    return image


# ---------------------------------------------------------------- drawings

Point = tuple[float, float]


def planet(image: Image.Image, draw: ImageDraw.ImageDraw, centre: Point, r: float,
           fill: tuple[int, int, int], label: str = "", split: bool = False) -> None:
    """A planet: a disc (split pink/blue when ``split``) with a label or a drawn sign."""
    cx, cy = centre
    bbox = (cx - r, cy - r, cx + r, cy + r)
    if split:
        draw.pieslice(bbox, 90, 270, fill=PINK)
        draw.pieslice(bbox, 270, 450, fill=BLUE)
        draw.ellipse(bbox, outline=INK, width=mm(0.4))
    else:
        draw.ellipse(bbox, fill=fill, outline=INK, width=mm(0.4))
    ink = WHITE if fill in (PINK, BLUE, FRAME) else INK
    arm, width = r * 0.45, max(3, round(r * 0.16))
    if label in ("+", "-"):  # signs drawn, not typed: a hyphen is too small to read
        draw.line([(cx - arm, cy), (cx + arm, cy)], fill=ink, width=width)
        if label == "+":
            draw.line([(cx, cy - arm), (cx, cy + arm)], fill=ink, width=width)
    elif label:
        text(image, centre, label, round(r * 1.15), fill=ink, stroke=1, stroke_fill=ink)


def _pair(centre: Point, size: float, spread: float = 0.27) -> tuple[Point, Point]:
    cx, cy = centre
    return (cx - size * spread, cy), (cx + size * spread, cy)


def _swap_row(image, draw, centre: Point, size: float, left: tuple, right: tuple,
              r: float) -> None:
    a, b = _pair(centre, size, 0.31)
    planet(image, draw, a, r, *left)
    planet(image, draw, b, r, *right)
    sheet.arrow(draw, (a[0] + r + mm(1), a[1]), (b[0] - r - mm(1), b[1]), INK, mm(0.6),
                mm(2.2), both=True)


def x_symbol(image, draw, centre, size) -> None:
    _swap_row(image, draw, centre, size, (PINK, "0"), (BLUE, "1"), size * 0.14)


def h_symbol(image, draw, centre, size) -> None:
    cx, cy = centre
    r = size * 0.12
    _swap_row(image, draw, (cx, cy - size * 0.2), size, (LIGHT_PINK, "+"), (PINK, "0"), r)
    _swap_row(image, draw, (cx, cy + size * 0.2), size, (LIGHT_BLUE, "-"), (BLUE, "1"), r)


def z_symbol(image, draw, centre, size) -> None:
    _swap_row(image, draw, centre, size, (LIGHT_PINK, "+"), (LIGHT_BLUE, "-"), size * 0.14)


# Translators: What a printed card's measurement does, one line on a card (about 18
# characters).
def m_symbol(image, draw, centre, size) -> None:
    """A planet in a ring: measured, its camp fixed."""
    cx, cy = centre
    r = size * 0.2
    rx, ry = size * 0.38, size * 0.12
    ring = (cx - rx, cy - ry, cx + rx, cy + ry)
    draw.arc(ring, 180, 360, fill=INK, width=mm(0.7))  # behind the planet
    planet(image, draw, centre, r, PALE, split=True)
    draw.arc(ring, 0, 180, fill=INK, width=mm(0.7))  # in front
    text(image, (cx, cy + size * 0.36), _("0 or 1, for good"), round(size * 0.085), fill=INK,
         said=True)


def _two_planets(image, draw, centre, size) -> tuple[Point, Point, float]:
    a, b = _pair(centre, size, 0.25)
    r = size * 0.15
    draw.line([a, b], fill=INK, width=mm(0.6))
    for p, word in ((a, pgettext("planet", "first")), (b, pgettext("planet", "second"))):
        planet(image, draw, p, r, PALE)
        text(image, (p[0], p[1] + r + size * 0.1), word, round(size * 0.08), fill=sheet.GREY,
             said=True)
    return a, b, r


def _cx_symbol(image, draw, centre, size, control: str) -> None:
    a, b, r = _two_planets(image, draw, centre, size)
    dot = r * 0.62
    colour = PINK if control == "0" else BLUE
    draw.ellipse((a[0] - dot, a[1] - dot, a[0] + dot, a[1] + dot), fill=colour)
    text(image, a, control, round(dot * 1.5), fill=WHITE, stroke=1, stroke_fill=WHITE)
    sheet.oplus(draw, b, r * 0.62, INK, mm(0.6))


def cx0_symbol(image, draw, centre, size) -> None:
    _cx_symbol(image, draw, centre, size, "0")


def cx1_symbol(image, draw, centre, size) -> None:
    _cx_symbol(image, draw, centre, size, "1")


def sw_symbol(image, draw, centre, size) -> None:
    a, b = _pair(centre, size, 0.27)
    r = size * 0.15
    planet(image, draw, a, r, PINK, "0")
    planet(image, draw, b, r, BLUE, "1")
    for dy, (s, e) in ((-r * 0.55, (a, b)), (r * 0.55, (b, a))):
        inset = r + mm(1)
        sign = 1 if e is b else -1
        sheet.arrow(draw, (s[0] + sign * inset, s[1] + dy), (e[0] - sign * inset, e[1] + dy),
                    INK, mm(0.6), mm(2))


# Translators: What a printed card's Bell measurement leaves, one line on a card (about 18
# characters).
def bm_symbol(image, draw, centre, size) -> None:
    """Two split planets tied by a wavy line, with a keyhole: only you know the code."""
    a, b = _pair(centre, size, 0.29)
    r = size * 0.13
    x0, x1 = a[0] + r, b[0] - r
    steps = 40
    wave = [(x0 + (x1 - x0) * i / steps,
             a[1] + size * 0.05 * math.sin(2 * math.pi * 2 * i / steps)) for i in range(steps + 1)]
    draw.line(wave, fill=INK, width=mm(0.6), joint="curve")
    planet(image, draw, a, r, PALE, split=True)
    planet(image, draw, b, r, PALE, split=True)
    text(image, (centre[0], centre[1] + size * 0.3), _("code: secret"), round(size * 0.085),
         fill=INK, said=True)


SYMBOLS = {"X": x_symbol, "H": h_symbol, "Z": z_symbol, "M": m_symbol, "CX0": cx0_symbol,
           "CX1": cx1_symbol, "SW": sw_symbol, "BM": bm_symbol}


# ---------------------------------------------------------------- tokens


def token_face(n: int) -> Image.Image:
    """A round planet token: cut along its outline; camp colours round the rim."""
    image = sheet.blank_card()
    draw = ImageDraw.Draw(image)
    cx, cy = TOKEN_CENTRE
    r = TOKEN_RADIUS
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PALE, outline=INK, width=mm(0.4))
    rim = r - mm(3)
    box = (cx - rim, cy - rim, cx + rim, cy + rim)
    draw.arc(box, 90, 270, fill=PINK, width=mm(2))
    draw.arc(box, 270, 450, fill=BLUE, width=mm(2))
    text(image, (cx, cy - mm(17)), str(n), mm(12), fill=FRAME, stroke=2, stroke_fill=FRAME)
    sheet.nfc_mark(image, (cx, cy + mm(3)), sheet.GREY)
    return image


def make_deck(tokens: bool = False) -> sheet.Deck:
    return sheet.Deck(GAME, cards(tokens), face, number_centre, new_page_kinds=("planet",))
