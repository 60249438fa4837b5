"""OLED screens: pure functions from a screen model to a 128x64 mode "1" image.

A *screen model* is a plain dict built by the session and the game's ``ui`` module;
its ``screen`` key picks the layout:

- ``menu``: ``title``, ``text`` (context lines), ``items`` (labels), ``cursor``, and
  ``right`` (optional: a counter at the right of the title bar)
- ``text``: ``title``, ``lines``, ``hint``, ``right`` (optional)
- ``status``: Entanglion's resting screen (see ``games.entanglion.ui.status``):
  ``turn``, ``number``, ``detection``, ``ships``, ``engine_control``, ``hand``,
  ``parts``, ``next`` (the ready-made lines) and the value to beat drawn large
- ``roll``: ``player``, ``die``, ``purpose``, ``value``, ``modifier``, ``modified``,
  ``need`` (the lowest face that wins, or None), ``result`` and ``frame`` (an animation
  step, or None for the result)
- ``card``: ``title``, ``kind``, ``name``, ``text``, ``footer``
- ``error``, ``undo``: ``text``
- ``end``: ``result`` (won/lost), ``reason``, ``turns``, ``detection``, ``parts``,
  ``time``; ``page`` of ``pages``: page 0 is the result, the others the story of the
  game (``title``, ``lines``)
- ``qno``: QNO's resting screen (see ``games.qno.ui.status``)
- ``circuit``: ``columns`` (pairs of q0, q1 cells), ``first``, ``last``, ``total``
- ``qno_end``: ``winners``, ``reason``, ``turns``, ``state``, ``gates``
- ``qlanet``: QLANET's public board (see ``games.qlanet.ui.status``): ``turn``,
  ``number``, ``planets`` (9 cells: ``0 1 + - ?``, ``F0``/``F1`` fixed, ``~6``
  entangled with planet 6), ``costs``, ``fixed``, ``last``
- ``qlanet_end``: ``winners``, ``reason``, ``costs``, ``moves``, ``planets`` (the truth)
- ``qlanet_secret``: ``camp``, ``input``, ``planets`` (that camp's view), ``pairs``
  (``planets``, ``code``, ``bell``): a private OLED, or the shared one during a peek

``menu``, ``text``, ``roll`` and ``card`` models may carry ``bar`` (``turn``, ``number``):
in a game, the turn's title bar as the resting screen shows it. The screen then
keeps that bar and draws its own title on the first body row, so the panel's page 0
does not change from one screen of a turn to the next.

Text uses our own bitmap font, so images are pixel-exact across Pillow versions and
golden-image tests can compare them bit for bit. The title bar is the panel's page 0;
body lines are 9 px apart so that a Polish or Czech mark, in the row above its letter,
keeps a blank row from the line or bar above it (see ``LINE_H``).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from PIL import Image, ImageDraw

from ..i18n import _, ngettext
from .font import (
    GLYPH_H, bar, clip, draw_centered, draw_text, fit, raised, text_width, watched, wrap,
)

WIDTH, HEIGHT = 128, 64
PAGE_H = 8  # the panel's RAM: 8 pages of 8 pixel rows
BAR_H = PAGE_H  # the title bar: page 0
# Body lines are 9 px apart, the pitch the font was drawn for: a Polish or Czech mark
# takes the row above its cell, and a blank row must stay between that mark and the
# line (or bar) above, or the mark reads as part of it. The first body line's mark
# sits on row 9, a blank row under the bar. Six rows of text fit under the bar; the
# last is the hint row when a screen has a hint.
LINE_H = 9
BODY_Y = BAR_H + 2
ROWS = 6  # text rows under the bar (with the hint row)
BODY_LINES = ROWS - 1  # text rows above the hint row
HINT_Y = BODY_Y + BODY_LINES * LINE_H  # the hint row (glyph rows 55-61)


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    return image, ImageDraw.Draw(image)


_BARS_KEPT = 64
"""Title bars kept as drawn (128 bytes each): the screens of a turn share one, and a
bar drawn afresh was a fifth of a screen's drawing."""
_bars: dict[tuple[str, str], Image.Image] = {}


def _bar(image: Image.Image, draw: ImageDraw.ImageDraw, text: str, right: str = "") -> None:
    """Inverted title bar, white with black text so the title reads as a heading: page
    0 exactly, the letters on its top row and its last row white under them (a white
    row above them would leave their feet in the black below). The bar is the same
    on every screen, so a new title costs only the columns whose letters differ. A
    text with an accent above its cell (Polish, Czech) sits a row lower, the accent
    on the top row, so nothing is cut."""
    if watched():  # a check of the layouts sees every bar drawn
        _draw_bar(image, text, right)
        return
    strip = _bars.get((text, right))
    if strip is None:
        strip = Image.new("1", (WIDTH, BAR_H), 0)
        _draw_bar(strip, text, right)
        if len(_bars) >= _BARS_KEPT:
            del _bars[next(iter(_bars))]  # the oldest: the cache stays bounded
        _bars[(text, right)] = strip
    image.paste(strip, (0, 0))


def _draw_bar(image: Image.Image, text: str, right: str) -> None:
    bar(image, (0, 0, WIDTH - 1, BAR_H - 1))
    width = WIDTH - 2 - (text_width(right) + 2 if right else 0)
    title = fit(text, width)
    draw_text(image, (1, int(raised(title))), title, fill=0)
    if right:
        draw_text(image, (WIDTH - text_width(right), int(raised(right))), right, fill=0)


def _highlight(image: Image.Image, x: int, y: int, text: str, right: int) -> None:
    """``text`` inverted on a bar from ``x - 1`` to ``right``, in the row whose glyphs
    start at ``y``: the bar takes the mark row and the glyph rows (y - 1 to y + 6), so a
    blank row stays between it and the lines above and below. Text without a mark sits
    a row higher, a white row under its feet; text with one keeps its row, the mark on
    the bar's top row."""
    bar(image, (x - 1, y - 1, right, y + GLYPH_H - 1))
    draw_text(image, (x, y - 1 + int(raised(text))), text, fill=0)


def _turn_bar(image: Image.Image, draw: ImageDraw.ImageDraw, bar: dict[str, Any]) -> None:
    """Whose turn it is and its number: the resting screen's bar, kept by every screen
    of the turn."""
    # Translators: the turn number at the right of the title bar, about 8 characters.
    _bar(image, draw, str(bar["turn"]), _("turn {number}").format(number=bar["number"]))


def _heading(image: Image.Image, draw: ImageDraw.ImageDraw, m: dict[str, Any], title: str,
             right: str = "") -> int:
    """The title bar, and the first body row the screen's own content may use.

    In a game the model carries ``bar`` (whose turn it is and the turn number): the
    bar shows that on every screen of the turn, as the resting screen does, and the
    screen's title takes the first body row, so going from one screen of a turn to
    the next leaves page 0 on the panel as it is."""
    if not m.get("bar"):
        _bar(image, draw, title, right)
        return 0
    _turn_bar(image, draw, m["bar"])
    width = WIDTH - (text_width(right) + 2 if right else 0)
    _line(image, 0, fit(title, width))
    if right:
        draw_text(image, (WIDTH - text_width(right), BODY_Y), right)
    return 1


def _line(image: Image.Image, row: int, text: str, x: int = 0, fill: int = 1) -> None:
    draw_text(image, (x, BODY_Y + row * LINE_H), fit(text, WIDTH - x), fill=fill)


def _hint(image: Image.Image, text: str) -> None:
    if text:
        draw_text(image, (WIDTH - text_width(text), HINT_Y), text)


def _boxes(draw: ImageDraw.ImageDraw, x: int, y: int, filled: int, total: int,
           size: int = 5, step: int = 6) -> int:
    """A row of small squares, the first ``filled`` solid (track and engine slots)."""
    for i in range(total):
        box = (x + i * step, y, x + i * step + size - 1, y + size - 1)
        draw.rectangle(box, fill=1 if i < filled else 0, outline=1)
    return x + total * step


MENU_LABEL = 120  # 20 characters from x=2, clear of the scroll arrows at x=122


def menu(m: dict[str, Any]) -> Image.Image:
    image, draw = _canvas()
    first = _heading(image, draw, m, m["title"], m.get("right", ""))
    text = clip([line for t in m.get("text", []) for line in wrap(t, WIDTH)], 3)
    for row, line in enumerate(text, first):
        _line(image, row, line)
    items, cursor = m["items"], m.get("cursor", 0)
    rows = ROWS - first - len(text)
    top = min(max(0, cursor - rows + 1), max(0, len(items) - rows))
    for i, label in enumerate(items[top:top + rows]):
        row, index = first + len(text) + i, top + i
        y = BODY_Y + row * LINE_H
        if index == cursor:  # inverted like the title bar
            _highlight(image, 2, y, fit(label, MENU_LABEL), MENU_LABEL + 1)
        else:
            draw_text(image, (2, y), fit(label, MENU_LABEL))
    if top > 0:
        draw_text(image, (WIDTH - 5, BODY_Y + (first + len(text)) * LINE_H), "▲")
    if top + rows < len(items):
        draw_text(image, (WIDTH - 5, BODY_Y + (ROWS - 1) * LINE_H), "▼")
    return image


def text_screen(m: dict[str, Any]) -> Image.Image:
    image, draw = _canvas()
    first = _heading(image, draw, m, m["title"], m.get("right", ""))
    hint = m.get("hint", "")
    lines = clip([line for t in m.get("lines", []) for line in wrap(t, WIDTH)],
                 ROWS - first - (1 if hint else 0))
    for row, line in enumerate(lines, first):
        _line(image, row, line)
    _hint(image, hint)
    return image


_BEAT_X = 97  # the value to beat: a white box right of the track, over three rows


def status(m: dict[str, Any]) -> Image.Image:
    """Entanglion's resting screen: the track with the value to beat large beside it,
    the ships, engine control, the hand, parts and events, and the next step."""
    image, draw = _canvas()
    _turn_bar(image, draw, m)
    det = m["detection"]
    # Translators: a 3-letter label before the detection track on the status screen.
    _line(image, 0, _("Det"))
    _boxes(draw, 20, BODY_Y + 1, det["space"], 12)
    bar(image, (_BEAT_X, BAR_H, WIDTH - 1, BODY_Y + LINE_H + 2 * GLYPH_H))  # rows 1-2
    box_w = WIDTH - _BEAT_X
    # Translators: above the value a roll must beat, in a 31-px box (5 characters).
    beat = _("beat")
    draw_text(image, (_BEAT_X + (box_w - text_width(beat) + 1) // 2, BODY_Y), beat, fill=0)
    value = str(det["value"])
    draw_text(image, (_BEAT_X + (box_w - text_width(value, 2) + 2) // 2, BODY_Y + LINE_H),
              value, fill=0, scale=2)
    draw_text(image, (0, BODY_Y + LINE_H), fit(m["ships"], _BEAT_X - 2))
    # Translators: a 3-letter label before the engine control slots (Japanese: 制御).
    _line(image, 2, _("Eng"))
    end = _boxes(draw, 20, BODY_Y + 2 * LINE_H + 1, m["engine_control"], 6)
    draw_text(image, (end + 3, BODY_Y + 2 * LINE_H), f"{m['engine_control']}/6")
    _line(image, 3, m["hand"])
    _line(image, 4, m["parts"])
    draw_text(image, (0, HINT_Y), fit(m["next"], WIDTH))  # what to do, where hints go
    return image


_TUMBLE = (3, 7, 2, 5, 8, 1, 6, 4)  # faces shown while the die rolls (no chance here)
_DIE_X, _DIE_Y = 10, 12  # the die stays put: an animation step redraws only its face
# (rows 18-38, pages 2-4)
_ROLL_X = 54  # who rolls, what they need, then the result, right of the die


def _die(image: Image.Image, draw: ImageDraw.ImageDraw, face: str, top: int) -> None:
    draw.rounded_rectangle((_DIE_X, top, _DIE_X + 33, top + 33), radius=5, outline=1, width=2)
    w = text_width(face, 3)
    draw_text(image, (_DIE_X + 17 - w // 2, top + 6), face, scale=3)


# Translators: The roll screen's line under the die (about 12 characters).
def roll(m: dict[str, Any]) -> Image.Image:
    """A die, who rolls and what they need; the face tumbles, then the result appears
    where "rolling" was. Everything but the face and that word is the same in every
    step, so an animation step sends a few dozen bytes, not a frame."""
    image, draw = _canvas()
    first = _heading(image, draw, m, m["purpose"])  # with a heading, all a row lower
    top = _DIE_Y + first * LINE_H
    frame = m.get("frame")
    centarious = m["die"] == "centarious"
    x = _ROLL_X
    _line(image, first, m["player"], x)
    if centarious:
        # Translators: the galaxy's name as your edition prints it (Czech: Centarius).
        _line(image, first + 1, _("Centarious"), x)
    elif m.get("need") is not None:
        _line(image, first + 1, _("need {need}+").format(need=m["need"]), x)
    y = BODY_Y + (first + 3) * LINE_H  # "rolling", then the result: two pages
    if frame is not None:
        face = str(frame % 2) if centarious else str(_TUMBLE[frame % len(_TUMBLE)])
        _die(image, draw, face, top)
        draw_text(image, (x, y), _("rolling") + "…")
        return image
    _die(image, draw, str(m["value"]), top)
    if not centarious and m.get("modifier"):
        _line(image, first + 2, f"{m['value']}{m['modifier']:+d}={m['modified']}", x)
    result = str(m.get("result") or "")
    if result:
        scale = 2 if text_width(result, 2) <= WIDTH - x else 1
        if m.get("alarm"):  # detected: the one result drawn inverted
            bar(image, (x - 2, y - 1, WIDTH - 1, y + GLYPH_H * scale))
            draw_text(image, (x, y), result, fill=0, scale=scale)
        else:
            draw_text(image, (x, y), result, scale=scale)
    return image


def card(m: dict[str, Any]) -> Image.Image:
    """The card's name centred, a rule, its text and who has it. Under a turn's bar
    the title row takes the rule's row: the centred name still stands apart. A gloss
    (the name in the table's words under a printed English one) follows the name where
    the text leaves room. A card whose text would not fit drops the rule, and under a bar its name takes the title's
    row (and the kind's): the card's own words come before the screen's."""
    image, draw = _canvas()
    # Translators: the card's kind at the right of its title row: short (6 characters).
    kind = _("EVENT") if m["kind"] == "event" else _("PART")
    names = clip(wrap(m["name"], WIDTH), 2)  # "Quantum Error Correction" takes two lines
    text = wrap(m["text"], WIDTH)
    title = m["title"]
    heading = 1 if m.get("bar") else 0
    if m.get("gloss") and heading + len(names) + 1 + len(text) <= BODY_LINES:
        names.append(fit(m["gloss"], WIDTH))  # the name in the table's words, where it fits
    if heading and 1 + len(names) + len(text) > BODY_LINES:
        (title, *names), kind = names, ""  # the kind word too gives way to the name
    top = _heading(image, draw, m, title, kind)
    for row, line in enumerate(names, top):
        draw_centered(image, BODY_Y + row * LINE_H, line)
    first = top + len(names)
    if not top and first + 1 + len(text) <= BODY_LINES:
        rule = BODY_Y + first * LINE_H + 3  # a row of its own under the name
        draw.line((8, rule, WIDTH - 9, rule), fill=1)
        first += 1
    for row, line in enumerate(clip(text, BODY_LINES - first), first):
        _line(image, row, line)
    footer = m.get("footer", "")
    if footer:
        draw_text(image, (WIDTH - text_width(fit(footer, WIDTH)), HINT_Y), fit(footer, WIDTH))
    return image


def _message(title: str, text: str, hint: str) -> Image.Image:
    image, draw = _canvas()
    _bar(image, draw, title)
    lines = clip(wrap(text, WIDTH - 4), BODY_LINES)
    top = BODY_Y + (BODY_LINES - len(lines)) // 2 * LINE_H
    for row, line in enumerate(lines):
        draw_centered(image, top + row * LINE_H, line)
    _hint(image, hint)
    return image


# Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width): the
# input was refused (the box's error screen).
def error(m: dict[str, Any]) -> Image.Image:
    return _message(_("! Not possible"), m["text"], "OK")


# Translators: The title of the screen after an undo (a title bar).
def undo(m: dict[str, Any]) -> Image.Image:
    return _message(_("Undone"), m["text"], "OK")


# Translators: The hint that DOWN shows the story's pages (about 12 characters, beside the
# result).
def _pages_hint(image: Image.Image, m: dict[str, Any]) -> None:
    """OK at the bottom right; "▼ more" at the left while story pages follow."""
    draw_text(image, (WIDTH - 2 - text_width("OK"), HINT_Y), "OK")
    if m.get("pages", 1) > 1 and not m.get("page"):
        draw_text(image, (2, HINT_Y), _("▼ story"))


def _story_page(m: dict[str, Any]) -> Image.Image:
    image, draw = _canvas()
    _bar(image, draw, m["title"], f"{m['page']}/{m['pages'] - 1}")
    for row, line in enumerate(clip([x for t in m["lines"] for x in wrap(t, WIDTH)],
                                    BODY_LINES)):
        _line(image, row, line)
    if m.get("chart"):
        _chart(draw, m["chart"], BODY_Y + len(m["lines"]) * LINE_H, HINT_Y - 2)
    _hint(image, "▲▼ OK")
    return image


def _chart(draw: ImageDraw.ImageDraw, values: list[int], top: int, bottom: int) -> None:
    """Percentages (0-100) as a line across the panel between rows ``top`` and
    ``bottom``, with a dotted 50% line; one point per value, squeezed to fit."""
    left, right = 1, WIDTH - 2
    for x in range(left, right, 4):
        draw.point((x, (top + bottom) // 2), fill=1)
    n = len(values)
    points = [(left + (right - left) * i // max(1, n - 1),
               bottom - (bottom - top) * max(0, min(100, v)) // 100) for i, v in enumerate(values)]
    if len(points) == 1:
        draw.point(points[0], fill=1)
    else:
        draw.line(points, fill=1)


def _latin(text: str) -> bool:
    """Whether ``text`` may be drawn 3x: Latin glyphs are shapes that scale; a Japanese
    glyph is a 7x7 bitmap whose strokes turn to blocks at 3x, so it goes 2x at most."""
    return not any(ord(c) > 0x2FFF for c in text)


# Translators: The end screen: the result in large letters (about 8 characters) and the
# turns played.
def end(m: dict[str, Any]) -> Image.Image:
    """The result (page 0), then the story of the game page by page."""
    if m.get("page"):
        return _story_page(m)
    image, draw = _canvas()
    won = m["result"] == "won"
    if won:
        draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    word = _("WON!") if won else _("LOST")
    draw_centered(image, 4 if _latin(word) else 8, word, scale=3 if _latin(word) else 2)
    for row, line in enumerate(clip(wrap(m["reason"], WIDTH - 4), 2)):
        draw_centered(image, 28 + row * LINE_H, line)
    turns = ngettext("{n} turn", "{n} turns", m["turns"]).format(n=m["turns"])
    # Translators: two facts side by side on the end screen ("12 turns, 25 min"); the
    # separator is the language's own (Japanese: 、).
    summary = _("{first}, {second}").format(
        first=turns, second=m["time"] if m.get("time") else
        _("{parts}/8 parts").format(parts=m["parts"]))
    draw_centered(image, 46, fit(summary, WIDTH - 4))
    _pages_hint(image, m)
    return image


# Translators: What the player on turn does, after an arrow for the direction of play (about
# 12 characters).
def qno(m: dict[str, Any]) -> Image.Image:
    """The effective top big, then value and direction, and everyone's card count."""
    image, draw = _canvas()
    _turn_bar(image, draw, m)
    draw_text(image, (2, BODY_Y), f"|{m['state']}>", scale=2)  # body rows 0-1
    arrow = "→" if m["direction"] > 0 else "←"
    draw_text(image, (66, BODY_Y), fit(m["value"], WIDTH - 66))
    draw_text(image, (66, BODY_Y + LINE_H), _("play {arrow}").format(arrow=arrow))
    y = BODY_Y + 3 * LINE_H
    x = 0
    for i, count in enumerate(m["counts"], 1):
        cell = f"P{i}:{count}"
        w = text_width(cell) + 3
        if x + w > WIDTH:
            x, y = 0, y + LINE_H
        if i == m["current"]:
            _highlight(image, x + 1, y, cell, x + w - 2)
        else:
            draw_text(image, (x + 1, y), cell)
        x += w + 1
    draw_text(image, (0, HINT_Y), _("Pile {pile}  Discards {discards}").format(
        pile=m["pile"], discards=m["discards"]))
    return image


_WIRES = (BODY_Y + 13, BODY_Y + 37)  # y of q0 (top, as Qiskit draws) and q1
_COL_X0, _COL_W = 14, 9


def _gate_box(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, text: str) -> None:
    draw.rectangle((x, y - 6, x + 7, y + 6), fill=0, outline=1)
    draw_text(image, (x + 2 if len(text) == 1 else x + 1, y - 3), text[:1])


# Translators: The circuit screen's title and its empty state (a line of the box's OLED
# screen (21 characters; Japanese 16 full-width)).
def circuit(m: dict[str, Any]) -> Image.Image:
    """The last columns of the game's circuit on two wires; M boxes show results."""
    image, draw = _canvas()
    right = f"{m['first']}-{m['last']}/{m['total']}" if m["total"] else "empty"
    _bar(image, draw, _("Circuit"), right)
    for wire, y in enumerate(_WIRES):
        draw_text(image, (0, y - 3), f"q{wire}")
        draw.line((_COL_X0 - 2, y, WIDTH - 1, y), fill=1)
    for i, cells in enumerate(m["columns"]):
        x = _COL_X0 + i * _COL_W
        if "*" in cells:  # CNOT: control dot joined to the target's circle
            control, target = (_WIRES[0], _WIRES[1]) if cells[0] == "*" else (_WIRES[1], _WIRES[0])
            draw.line((x + 3, min(control, target), x + 3, max(control, target)), fill=1)
            draw.ellipse((x + 1, control - 2, x + 5, control + 2), fill=1)
            draw.ellipse((x, target - 3, x + 6, target + 3), fill=0, outline=1)
            draw.line((x, target, x + 6, target), fill=1)
            draw.line((x + 3, target - 3, x + 3, target + 3), fill=1)
            continue
        for cell, y in zip(cells, _WIRES):
            if cell.startswith("M"):
                _gate_box(image, draw, x, y, cell[1])
                draw.line((x, y - 6, x + 7, y - 6), fill=1)
                draw.point((x + 7, y - 5), fill=1)  # a corner mark: a meter, not a gate
            elif cell:
                _gate_box(image, draw, x, y, cell)
    if not m["columns"]:
        draw_centered(image, BODY_Y + 22, _("no gates yet"))
    _hint(image, "UP/DOWN")
    return image


# Translators: QNO's end screen: who won, in large letters (about 10 characters), and the
# turns played.
def qno_end(m: dict[str, Any]) -> Image.Image:
    if m.get("page"):
        return _story_page(m)
    image, draw = _canvas()
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    draw_centered(image, 4, _("{winner} WINS").format(winner=m["winners"][0])
                  if len(m["winners"]) == 1 else _("SHARED WIN"), scale=2)
    for row, line in enumerate(clip(wrap(m["reason"], WIDTH - 4), 2)):
        draw_centered(image, 24 + row * LINE_H, line)
    turns = ngettext("{n} turn", "{n} turns", m["turns"]).format(n=m["turns"])
    draw_centered(image, 44, fit(_("{turns}, ends |{state}>").format(turns=turns,
                                                                      state=m["state"]),
                                 WIDTH - 4))
    _pages_hint(image, m)
    return image


_GRID_X, _GRID_Y, _PITCH, _CELL = 0, BODY_Y + 1, 18, 17  # 3x3 planets of 17 px
_PANEL_X = 3 * _PITCH + 2  # the text right of the grid: 12 characters


def _planet_grid(image: Image.Image, draw: ImageDraw.ImageDraw, planets: list[str]) -> None:
    """Planets 1-9 row by row. A fixed planet is a solid square with its camp's digit
    cut out; a known state is its glyph; ``?`` unknown; ``~6`` entangled with 6."""
    for i, shown in enumerate(planets):
        row, col = divmod(i, 3)
        x, y = _GRID_X + col * _PITCH, _GRID_Y + row * _PITCH
        box = (x, y, x + _CELL - 1, y + _CELL - 1)
        if shown.startswith("F"):
            bar(image, box)
            draw_text(image, (x + 4, y + 2), shown[1:], fill=0, scale=2)
        elif shown.startswith("~"):
            draw.rectangle(box, outline=1)
            draw.rectangle((x + 2, y + 2, x + _CELL - 3, y + _CELL - 3), outline=1)
            draw_text(image, (x + 3, y + 5), fit(shown, _CELL))
        else:
            draw.rectangle(box, outline=1)
            draw_text(image, (x + 4, y + 2), shown[:1], scale=2)


def _panel(image: Image.Image, draw: ImageDraw.ImageDraw, row: int, text: str,
           inverted: bool = False) -> None:
    y = BODY_Y + row * LINE_H
    text = fit(text, WIDTH - _PANEL_X)
    if inverted:
        _highlight(image, _PANEL_X, y, text, _PANEL_X + text_width(text) - 1)
    else:
        draw_text(image, (_PANEL_X, y), text)


# Translators: QLANET's status lines; each is a line of the box's OLED screen (21
# characters; Japanese 16 full-width).
def qlanet(m: dict[str, Any]) -> Image.Image:
    """The public board: the grid left; costs (the camp to play inverted), fixed
    planets per camp and the last move right."""
    image, draw = _canvas()
    turn = m["turn"]
    _bar(image, draw, _("Camp {camp} to play").format(camp=turn) if turn is not None else "QLANET",
         # Translators: QLANET's move number at the right of the title bar (short).
         _("mv {number}").format(number=m["number"]))
    _planet_grid(image, draw, m["planets"])
    for camp in (0, 1):
        # Translators: a camp's total cost beside the planet grid, 12 characters with a
        # three-digit cost (Polish "O0 koszt 100").
        _panel(image, draw, camp, _("C{camp} cost {cost}").format(camp=camp, cost=m["costs"][camp]), inverted=camp == turn)
    # Translators: beside the planet grid, 12 characters a line: planets fixed for camp
    # 0 and camp 1; "last:" heads the last move, on the line below it.
    _panel(image, draw, 2, _("fixed {zero}:{one}").format(zero=m["fixed"][0], one=m["fixed"][1]))
    if m.get("last"):
        _panel(image, draw, 4, _("last:"))
        _panel(image, draw, 5, m["last"])
    return image


# Translators: QLANET's end screen: who won, in large letters (about 10 characters), and its
# title.
def qlanet_end(m: dict[str, Any]) -> Image.Image:
    """The reveal: the true board left, who won and why right; then the story."""
    if m.get("page"):
        return _story_page(m)
    image, draw = _canvas()
    _bar(image, draw, _("Game over: the truth"))
    _planet_grid(image, draw, m["planets"])
    winners = m["winners"]
    _panel(image, draw, 0, _("C{camp} WINS").format(camp=winners[0]) if len(winners) == 1
           else _("SHARED WIN"),
           inverted=True)
    for row, line in enumerate(clip(wrap(m["reason"], WIDTH - _PANEL_X), 2), 1):
        _panel(image, draw, row, line)
    for camp in (0, 1):
        _panel(image, draw, 3 + camp, _("C{camp} cost {cost}").format(camp=camp, cost=m["costs"][camp]))
    # Translators: the end screen's hint beside the planet grid, 11 characters at most:
    # DOWN shows the story of the game, OK leaves.
    hint = _("▼ story OK") if m.get("pages", 1) > 1 else "OK"
    draw_text(image, (WIDTH - text_width(hint), HINT_Y), hint)
    return image


def _ket_lines(code: str, width: int) -> list[str]:
    """A ket such as ``|00>+|01>+|10>-|11>`` (or a list of generators) cut between
    terms to fit ``width`` pixels."""
    terms = re.findall(r"[+-]?\|[01]+>", code) or code.split(" ")
    lines = [""]
    for term in terms:
        sep = "" if term[0] in "+-|" or not lines[-1] else " "
        if lines[-1] and text_width(lines[-1] + sep + term) > width:
            lines.append("")
            sep = ""
        lines[-1] += sep + term
    return lines


def _secret_head(secret: dict[str, Any]) -> str:
    return "+".join(map(str, secret["planets"])) + (f" {secret['bell']}" if secret["bell"] else "")


# Translators: The screen with a camp's secret; each line is a line of the box's OLED screen
# (21 characters; Japanese 16 full-width).
def qlanet_secret(m: dict[str, Any]) -> Image.Image:
    """One camp's own view and the codes of the pairs and groups it knows (its
    secret): beside the grid while they fit there, else on the whole screen."""
    image, draw = _canvas()
    _bar(image, draw, _("Camp {camp} secret").format(camp=m["camp"]), f"#{m['input']}")
    secrets = m["pairs"]
    panel: list[tuple[str, bool]] = []
    for secret in secrets:
        panel.append((_secret_head(secret), True))
        panel += [(line, False) for line in _ket_lines(secret["code"], WIDTH - _PANEL_X)]
    if len(panel) <= ROWS and all(text_width(t) <= WIDTH - _PANEL_X for t, _head in panel):
        _planet_grid(image, draw, m["planets"])
        if not secrets:  # two short lines where a language needs more than 11 columns
            for row, line in enumerate(clip(wrap(_("no secret"), WIDTH - _PANEL_X), 2)):
                _panel(image, draw, row, line)
        for row, (text, head) in enumerate(panel):
            _panel(image, draw, row, text, inverted=head)
        return image
    rows: list[tuple[str, bool]] = []  # the grid would not leave room: words only
    for secret in secrets:
        head = _secret_head(secret) + ":"
        kets = _ket_lines(secret["code"], WIDTH - text_width(head + " "))
        if len(kets) == 1:
            rows.append((f"{head} {kets[0]}", False))
        else:
            rows.append((head, True))
            rows += [(line, False) for line in _ket_lines(secret["code"], WIDTH)]
    for row, (text, head) in enumerate(clip(rows, ROWS)):
        if head:
            _highlight(image, 1, BODY_Y + row * LINE_H, text, text_width(text))
        else:
            draw_text(image, (0, BODY_Y + row * LINE_H), text)
    return image


_QR_SIDE = HEIGHT  # the lit square the code sits in: its quiet zone, the panel's height
_QR_TEXT_X = _QR_SIDE + 3


def web_address(m: dict[str, Any]) -> Image.Image:
    """The web page's address: its QR code (dark on a lit square at the left, each
    module 2x2 pixels, see ``qr.py``) and the address in words beside it."""
    from . import qr

    image, draw = _canvas()
    rows = qr.modules(m["url"])
    width = WIDTH - _QR_TEXT_X
    if rows is not None:
        draw.rectangle((0, 0, _QR_SIDE - 1, _QR_SIDE - 1), fill=1)
        at = (_QR_SIDE - len(rows) * qr.MODULE) // 2
        for y, row in enumerate(rows):
            for x, dark in enumerate(row):
                if dark == "1":
                    draw.rectangle((at + x * qr.MODULE, at + y * qr.MODULE,
                                    at + (x + 1) * qr.MODULE - 1, at + (y + 1) * qr.MODULE - 1),
                                   fill=0)
        left = _QR_TEXT_X
    else:  # too long for a code the panel can show: the words alone, across it
        left, width = 0, WIDTH
    lines = [m["title"]] + _address_lines(m["url"], width)
    for row, line in enumerate(clip(lines, BODY_LINES + 1)):
        draw_text(image, (left, row * LINE_H), fit(line, width))
    _hint(image, m.get("hint", ""))
    return image


def _address_lines(url: str, width: int) -> list[str]:
    """``url`` without its scheme and final slash, broken after a dot or a hyphen or
    before a colon into lines of at most ``width`` pixels."""
    text = re.sub(r"^[a-z]+://", "", url).rstrip("/")
    lines = [""]
    for piece in re.findall(r"[^.:-]*[.-]|:?[^.:-]+|:", text):
        if lines[-1] and text_width(lines[-1] + piece) > width:
            lines.append("")
        lines[-1] += piece
    return lines


LAYOUTS: dict[str, Callable[[dict[str, Any]], Image.Image]] = {
    "menu": menu, "text": text_screen, "status": status, "roll": roll, "card": card,
    "error": error, "undo": undo, "end": end, "qno": qno, "circuit": circuit,
    "qno_end": qno_end, "qlanet": qlanet, "qlanet_end": qlanet_end,
    "qlanet_secret": qlanet_secret, "web_address": web_address,
}


def render(model: dict[str, Any]) -> Image.Image:
    """The OLED image for a screen model."""
    return LAYOUTS[model["screen"]](model)
