"""QNO's 112 cards as print-and-play faces (our own simple art).

State cards are coloured by their state (|00> red, |01> yellow, |10> green, |11> blue)
and show the ket big with the qubit convention ("q1 q0") under its digits, the value
in two corners and in the middle (the actions as small drawings). Gate cards are
white and grey, show the gate on a two-wire circuit (q0 on top, as the original
prints it) and the word GATE in the four state colours.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from ..games.qno import cards as deck
from ..i18n import N_, for_catalog
from . import sheet
from .sheet import CARD_H, CARD_W, INK, SAFE, WHITE, Card, mm, text

_ = for_catalog("printing")[0]

GAME = "qno"

# Print-friendly shades: saturated enough to tell apart, not so dark they eat toner.
COLOURS = {
    "00": (214, 48, 49),   # red
    "01": (242, 181, 0),   # yellow
    "10": (38, 150, 80),   # green
    "11": (33, 102, 196),  # blue
}
DARK = {  # the same hue for text on white
    "00": (170, 28, 30),
    "01": (176, 122, 0),
    "10": (22, 108, 54),
    "11": (18, 70, 150),
}
MARK = {"00": WHITE, "01": (110, 80, 0), "10": WHITE, "11": WHITE}
GATE_FACE = (228, 228, 232)
FACE_RADIUS = mm(4)
CENTRE_X = CARD_W // 2
NFC_CENTRE = (CENTRE_X, mm(65.5))
PANEL = (mm(8), mm(16), CARD_W - mm(8), mm(51))

# Translators: What a printed card's gate does, one line on a card (about 18 characters).
GATE_HINT = {deck.H: N_("superpose, measure, guess"), deck.X: N_("flip one qubit"),
             deck.CNOT: N_("control flips the other")}


def cards() -> list[Card]:
    """The deck in print order (:func:`companion.games.qno.cards.full_deck`)."""
    return [Card("gate" if deck.is_gate(name) else "state", name, deck.label(name))
            for name in deck.full_deck()]


def face(card: Card) -> Image.Image:
    state, value = deck.parse(card.name)
    if state is None:
        return gate_face(value)
    return state_face(state, value)


def _face_box() -> tuple[int, int, int, int]:
    return SAFE, SAFE, CARD_W - 1 - SAFE, CARD_H - 1 - SAFE


def _corner_size(value: str) -> int:
    return {deck.DRAW_TWO: mm(7.5), deck.SKIP: mm(5.5), deck.REVERSE: mm(5.5),
            deck.H: mm(8.5), deck.X: mm(8.5), deck.CNOT: mm(5)}.get(value, mm(8.5))


def state_face(state: str, value: str) -> Image.Image:
    colour, dark = COLOURS[state], DARK[state]
    image = sheet.blank_card()
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(_face_box(), radius=FACE_RADIUS, fill=colour)
    corner_text = deck.VALUE_LABEL.get(value, value)

    def corner(im: Image.Image) -> None:
        text(im, (SAFE + mm(3.5), SAFE + mm(2.5)), corner_text, _corner_size(value), fill=WHITE,
             anchor="lt", stroke=mm(0.35), stroke_fill=dark)

    image = sheet.with_corners(image, corner)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(PANEL, radius=mm(5), fill=WHITE, outline=dark, width=mm(0.4))
    # The ket, big, with the qubit names under its digits.
    ket = deck.ket(state)
    size = mm(13)
    ket_y = PANEL[1] + mm(10)
    text(image, (CENTRE_X, ket_y), ket, size, fill=dark, stroke=2, stroke_fill=dark)
    left = CENTRE_X - sheet.text_width(ket, size) / 2
    for i, qubit in ((1, "q1"), (2, "q0")):
        x = left + sheet.text_width(ket[:i], size) + sheet.text_width(ket[i], size) / 2
        text(image, (x, ket_y + mm(8)), qubit, mm(3), fill=sheet.GREY)
    # The value, in the lower half of the panel.
    value_centre = (CENTRE_X, PANEL[3] - mm(8.5))
    if value in deck.ACTIONS:
        ACTION_SYMBOL[value](draw, value_centre, mm(13), dark)
    else:
        text(image, value_centre, value, mm(13), fill=dark, stroke=2, stroke_fill=dark)
    sheet.nfc_mark(image, NFC_CENTRE, MARK[state])
    return image


# ---------------------------------------------------------------- action symbols


def draw_two_symbol(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float,
                    colour: tuple[int, int, int]) -> None:
    """Two stacked card outlines."""
    cx, cy = centre
    w, h, shift, width = size * 0.42, size * 0.62, size * 0.14, mm(0.7)
    for dx in (-shift, shift):
        box = (cx + dx - w / 2, cy + dx - h / 2, cx + dx + w / 2, cy + dx + h / 2)
        draw.rounded_rectangle(box, radius=size * 0.06, fill=WHITE, outline=colour, width=width)


def skip_symbol(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float,
                colour: tuple[int, int, int]) -> None:
    """A circle with a slash."""
    cx, cy = centre
    r, width = size * 0.4, mm(1.3)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=width)
    d = r * math.cos(math.pi / 4) - width / 3
    draw.line([(cx - d, cy + d), (cx + d, cy - d)], fill=colour, width=width)


def reverse_symbol(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float,
                   colour: tuple[int, int, int]) -> None:
    """Two curved arrows chasing each other round a circle."""
    cx, cy = centre
    r, width, head = size * 0.36, mm(1.1), size * 0.2
    box = (cx - r, cy - r, cx + r, cy + r)
    for start, end in ((200, 330), (20, 150)):
        draw.arc(box, start, end, fill=colour, width=width)
        tip_angle = math.radians(end + 12)
        tip = (cx + (r - width / 2) * math.cos(tip_angle), cy + (r - width / 2) * math.sin(tip_angle))
        sheet.arrow_head(draw, tip, tip_angle + math.pi / 2, head, colour)


ACTION_SYMBOL = {deck.DRAW_TWO: draw_two_symbol, deck.SKIP: skip_symbol,
                 deck.REVERSE: reverse_symbol}


# ---------------------------------------------------------------- gate cards


def gate_face(gate: str) -> Image.Image:
    image = sheet.blank_card()
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(_face_box(), radius=FACE_RADIUS, fill=GATE_FACE, outline=sheet.GREY,
                           width=mm(0.3))

    def corner(im: Image.Image) -> None:
        text(im, (SAFE + mm(3.5), SAFE + mm(2.5)), gate, _corner_size(gate), fill=INK,
             anchor="lt")

    image = sheet.with_corners(image, corner)
    draw = ImageDraw.Draw(image)
    # GATE in the four state colours (round again in a longer word).
    # Translators: the big word on QNO's gate cards, in capitals where the script has them.
    word = _("GATE")
    size = sheet.fit_size(word, mm(8), PANEL[2] - PANEL[0], said=True)
    x = CENTRE_X - sheet.text_width(word, size, said=True) / 2
    for i, letter in enumerate(word):
        state = deck.STATES[i % len(deck.STATES)]
        text(image, (x, mm(17)), letter, size, fill=COLOURS[state], anchor="lm",
             stroke=mm(0.3), stroke_fill=DARK[state], said=True)
        x += sheet.text_width(letter, size, said=True)
    # The circuit: two wires, q0 on top.
    panel = (PANEL[0], mm(22.5), PANEL[2], PANEL[3])
    draw.rounded_rectangle(panel, radius=mm(4), fill=WHITE, outline=sheet.GREY, width=mm(0.3))
    wire_x0, wire_x1 = panel[0] + mm(9), panel[2] - mm(4)
    q0_y, q1_y = panel[1] + mm(6.5), panel[1] + mm(16.5)
    wire = mm(0.45)
    for y, name in ((q0_y, "q0"), (q1_y, "q1")):
        text(image, (panel[0] + mm(4.5), y), name, mm(3.2), fill=sheet.GREY)
        draw.line([(wire_x0, y), (wire_x1, y)], fill=INK, width=wire)
    gx = (wire_x0 + wire_x1) // 2
    if gate == deck.H:
        half = mm(5)
        draw.rectangle((gx - half, q0_y - half, gx + half, q0_y + half), fill=WHITE, outline=INK,
                       width=mm(0.6))
        text(image, (gx, q0_y), "H", mm(7), fill=INK)
    elif gate == deck.X:
        sheet.oplus(draw, (gx, q0_y), mm(4.2), INK, mm(0.6))
    else:
        dot = mm(1.6)
        draw.line([(gx, q0_y), (gx, q1_y)], fill=INK, width=mm(0.6))
        draw.ellipse((gx - dot, q0_y - dot, gx + dot, q0_y + dot), fill=INK)
        sheet.oplus(draw, (gx, q1_y), mm(4.2), INK, mm(0.6))
    hint = _(GATE_HINT[gate])
    text(image, (CENTRE_X, panel[3] - mm(3.5)), hint,
         sheet.fit_size(hint, mm(3.2), panel[2] - panel[0] - mm(6), said=True), fill=sheet.GREY,
         said=True)
    sheet.nfc_mark(image, NFC_CENTRE, sheet.GREY)
    return image


def make_deck() -> sheet.Deck:
    return sheet.Deck(GAME, cards(), face)
