"""SVG drawn on the box: the Entanglion board and small plots, as strings.

No plotting stack (a Pi Zero 2 W has 512 MB): a few hundred lines of SVG text are all a
browser needs. Every piece of text is escaped; every number is ours. The board is
drawn from ``games/entanglion/board.py``'s planets and paths, so it cannot disagree
with the rules engine; only the positions on the page are chosen here, after the
printed board: Centarious (|0⟩ above |1⟩) beside Superious (|+⟩ above |−⟩), and the
Entanglion ring clockwise from OMEGA ZERO at the top left. The page is portrait, the
ring below the single-ship galaxies, so that a phone held upright shows the board at
its full width: every text is at least :data:`SMALLEST` units, 12 CSS pixels when the
board is 390 pixels wide.

Edge labels are placed once, at import, by :func:`_place_labels`: each on the first
spot along its own line that covers no planet, no ship marker and no other label or
line, and is nearer its own line than any other (tests/web check the drawing again).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from ..games.entanglion import board, words
from .. import i18n
from ..games.common import GAMES, ui_for
from ..i18n import _
from ..games.entanglion.cards import TRACK
from ..games.entanglion.options import RULINGS
from ..games.rulings import say

BLUE, RED, GREY, INK = "#3b82f6", "#ef4444", "#9ca3af", "#e5e7eb"
# Ship markers: white letters on these pass 4.5:1 (the line colours above do not).
MARKER = {board.MERCURIAL: "#1d4ed8", board.RUBICON: "#b91c1c"}
LETTER = {board.MERCURIAL: "M", board.RUBICON: "R"}
LINE = {board.MERCURIAL: (BLUE, ""), board.RUBICON: (RED, ' stroke-dasharray="7 4"')}

WIDTH, HEIGHT = 480, 728  # the board; the detection track below it
SMALLEST = 16  # units: 12 CSS px at 366 px wide (a 390 px phone less its margins)
_RING_CENTRE = (240.0, 496.0)
OUTER_R = 26  # the single-ship planets' circles
PILL_W, PILL_H, BELL_H = 104, 64, 84  # Entanglion planets: name, component, CNOT way in
MARKER_R = 12

LABEL = {board.ZERO: "|0⟩", board.ONE: "|1⟩", board.PLUS: "|+⟩", board.MINUS: "|−⟩",
         board.OMEGA_ZERO: "Ω0", board.OMEGA_ONE: "Ω1", board.OMEGA_TWO: "Ω2",
         board.OMEGA_THREE: "Ω3", board.PHI_PLUS: "Φ+", board.PHI_MINUS: "Φ−",
         board.PSI_PLUS: "Ψ+", board.PSI_MINUS: "Ψ−"}
CNOT_IN = {bell: (centre, sup) for (centre, sup), bell in board.CNOT_ENTRY.items()}


def _layout() -> dict[str, tuple[float, float]]:
    at = {board.ZERO: (80.0, 95.0), board.ONE: (80.0, 225.0),
          board.PLUS: (270.0, 95.0), board.MINUS: (270.0, 225.0)}
    # The ring as the printed board draws it, an octagon (wider spaced than a circle
    # at the top and bottom, where the pills sit side by side), clockwise from OMEGA ZERO.
    cx, cy = _RING_CENTRE
    spots = ((-90, -170), (90, -170), (170, -70), (170, 70), (90, 170), (-90, 170),
             (-170, 70), (-170, -70))
    for planet, (dx, dy) in zip(board.RING, spots):
        at[planet] = (cx + dx, cy + dy)
    return at


AT = _layout()
Box = tuple[float, float, float, float]  # left, top, right, bottom


def text_width(text: str, size: float) -> float:
    """A generous width of ``text`` at ``size`` (wide East Asian characters take an
    em, the rest 0.62 em: wider than system-ui's average, so boxes never undershoot)."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else 0.62 * size
               for c in text)


def shape(planet: str) -> Box:
    """The planet's drawn outline (a circle's square, a pill's rectangle)."""
    x, y = AT[planet]
    if planet in board.RING:
        h = BELL_H if planet in CNOT_IN else PILL_H
        return (x - PILL_W / 2, y - h / 2, x + PILL_W / 2, y + h / 2)
    return (x - OUTER_R, y - OUTER_R, x + OUTER_R, y + OUTER_R)


def marker_at(planet: str, ship: str) -> tuple[float, float]:
    """Where a ship's lettered marker sits on a planet: Mercurial at the top left,
    Rubicon at the top right (both may be there)."""
    left, top, right, _bottom = shape(planet)
    side = -1 if ship == board.MERCURIAL else 1
    if planet in board.RING:
        return ((left if side < 0 else right) + 2 * -side, top + 2)
    x, y = AT[planet]
    return (x + side * OUTER_R * 0.8, y - OUTER_R * 0.8)


def _t(x: float, y: float, text: str, cls: str = "", size: int = 12,
       anchor: str = "middle", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"'
            f'{f" class={chr(34)}{cls}{chr(34)}" if cls else ""}{extra} fill="{INK}">'
            f'{escape(text)}</text>')


def _wrap(text: str, size: float, width: float) -> list[str]:
    """Words on lines no wider than ``width``; a word wider than that is broken with
    a hyphen (Polish "Programowanie" on a planet)."""
    words: list[str] = []
    for word in text.split():
        while text_width(word, size) > width:
            cut = max(i for i in range(1, len(word))
                      if i == 1 or text_width(word[:i] + "-", size) <= width)
            words.append(word[:cut] + "-")
            word = word[cut:]
        words.append(word)
    lines: list[str] = []
    for word in words:
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


# ------------------------------------------------------------- label placement

def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _grow(b: Box, by: float) -> Box:
    return (b[0] - by, b[1] - by, b[2] + by, b[3] + by)


def _seg_dist(px: float, py: float, seg: tuple[float, float, float, float]) -> float:
    x1, y1, x2, y2 = seg
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy or 1)))
    return math.hypot(px - x1 - t * dx, py - y1 - t * dy)


def _seg_hits_box(seg: tuple[float, float, float, float], b: Box) -> bool:
    """Whether a segment crosses a box (sampled finely: the board is small)."""
    x1, y1, x2, y2 = seg
    steps = max(2, int(math.hypot(x2 - x1, y2 - y1) / 2))
    return any(b[0] <= x1 + (x2 - x1) * i / steps <= b[2]
               and b[1] <= y1 + (y2 - y1) * i / steps <= b[3] for i in range(steps + 1))


def obstacles() -> list[Box]:
    """What no label may cover: every planet and every spot a ship marker may take."""
    out = [shape(p) for p in board.PLANETS]
    for planet in board.PLANETS:
        for ship in board.SHIPS:
            x, y = marker_at(planet, ship)
            out.append((x - MARKER_R, y - MARKER_R, x + MARKER_R, y + MARKER_R))
    return out


def lines() -> dict[str, tuple[float, float, float, float]]:
    """Every line drawn between planets, by id (``C2``: ZERO-ONE by CNOT)."""
    out = {p.id: (*AT[p.a], *AT[p.b]) for p in board.OUTSIDE_PATHS + board.ENTANGLION_PATHS}
    (x1, y1), (x2, y2) = AT[board.ZERO], AT[board.ONE]
    out["C2"] = (x1 + _CNOT_SHIFT, y1, x2 + _CNOT_SHIFT, y2)
    return out


_CNOT_SHIFT = 16  # the grey ZERO-ONE CNOT line runs beside the X line


def _place_labels(texts: Mapping[str, str], fixed: Sequence[Box] = ()
                  ) -> dict[str, tuple[float, float]]:
    """Each line's label centre: the first candidate spot along it (middle first, then
    outwards, either side) clear of planets, markers, other labels and other lines,
    and nearer its own line than any other by a margin."""
    segs = lines()
    taken: list[Box] = list(fixed)
    blocked = obstacles()
    out = {}
    for pid, text in texts.items():
        w, h = text_width(text, SMALLEST), SMALLEST
        x1, y1, x2, y2 = segs[pid]
        n = math.hypot(x2 - x1, y2 - y1)
        nx, ny = -(y2 - y1) / n, (x2 - x1) / n
        found = None
        for t in sorted((i / 40 for i in range(4, 37)), key=lambda t: abs(t - 0.5)):
            for side in (1, -1):
                for gap in (4, 8, 12, 18):
                    reach = abs(nx) * w / 2 + abs(ny) * h / 2 + gap  # box edge to line
                    cx = x1 + (x2 - x1) * t + side * nx * reach
                    cy = y1 + (y2 - y1) * t + side * ny * reach
                    b = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                    if b[0] < 0 or b[2] > WIDTH or b[1] < 0 or b[3] > HEIGHT:
                        continue
                    if any(_overlap(_grow(b, 2), o) for o in blocked + taken):
                        continue
                    own = _seg_dist(cx, cy, segs[pid])
                    if any(q != pid and (_seg_hits_box(s, _grow(b, 2))
                                         or _seg_dist(cx, cy, s) < own + 6)
                           for q, s in segs.items()):
                        continue
                    found = (cx, cy)
                    break
                if found:
                    break
            if found:
                break
        if found is None:
            raise ValueError(f"no clear spot for the label of {pid}")
        out[pid] = found
        taken.append((found[0] - w / 2, found[1] - h / 2, found[0] + w / 2, found[1] + h / 2))
    return out


def _edge_texts() -> dict[str, str]:
    out = {p.id: "/".join(p.cards) for p in board.OUTSIDE_PATHS + board.ENTANGLION_PATHS}
    out["C2"] = "CNOT"
    return out


_GALAXY_CAPTIONS = ((AT[board.ZERO][0], 40.0), (AT[board.PLUS][0], 40.0),
                    (240.0, _RING_CENTRE[1] - 220))
LABEL_AT = _place_labels(_edge_texts(), [
    (x - 60, y - SMALLEST, x + 60, y + 4) for x, y in _GALAXY_CAPTIONS])


# ------------------------------------------------------------------- the board

def _edge_label(pid: str, text: str) -> str:
    x, y = LABEL_AT[pid]
    return _t(x, y + SMALLEST * 0.35, text, "edge", SMALLEST, extra=f' data-for="{pid}"')


def _path(p: board.Path) -> list[str]:
    (x1, y1), (x2, y2) = AT[p.a], AT[p.b]
    dx, dy = x2 - x1, y2 - y1
    n = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / n * 3, dx / n * 3  # two ship colours side by side
    out = []
    for ship in p.ships:
        shift = 0.0 if len(p.ships) == 1 else (1 if ship == board.MERCURIAL else -1)
        colour, dash = LINE[ship]
        out.append(f'<line class="path {ship}" data-path="{p.id}" x1="{x1 + ox * shift:.1f}" '
                   f'y1="{y1 + oy * shift:.1f}" x2="{x2 + ox * shift:.1f}" '
                   f'y2="{y2 + oy * shift:.1f}" stroke="{colour}" stroke-width="2.5"{dash}/>')
    out.append(_edge_label(p.id, "/".join(p.cards)))
    return out


def _legend() -> list[str]:
    """The ships, their markers and their lines, top right."""
    out = []
    for i, ship in enumerate(board.SHIPS):
        y = 60 + 44 * i
        colour, dash = LINE[ship]
        out.append(_marker(ship, 352, y))
        out.append(_t(370, y + 6, ship.capitalize(), "legend", SMALLEST, "start"))
        out.append(f'<line class="path {ship}" x1="340" y1="{y + 20}" x2="470" y2="{y + 20}" '
                   f'stroke="{colour}" stroke-width="2.5"{dash}/>')
    out.append(f'<line class="path cnot" x1="340" y1="168" x2="470" y2="168" '
               f'stroke="{GREY}" stroke-width="2" stroke-dasharray="2 4"/>')
    out.append(_t(340, 160, "CNOT", "legend", SMALLEST, "start"))
    return out


def _marker(ship: str, x: float, y: float, planet: str = "") -> str:
    where = f' data-planet="{planet}"' if planet else ""
    return (f'<g class="ship {ship}"{where}><circle cx="{x:.1f}" cy="{y:.1f}" r="{MARKER_R}" '
            f'fill="{MARKER[ship]}" stroke="#fff" stroke-width="1.5"/>'
            f'<text x="{x:.1f}" y="{y + 5.5:.1f}" font-size="{SMALLEST}" text-anchor="middle" '
            f'font-weight="bold" class="letter" fill="#fff">{LETTER[ship]}</text>'
            f'<title>{escape(ship.capitalize())}</title></g>')


def _planet(planet: str, here: Sequence[str], component: str | None) -> str:
    from ..games.entanglion.ui import part

    x, y = AT[planet]
    left, top, right, bottom = shape(planet)
    width = 3 if here else 1.2
    attrs = f'fill="#1f2937" stroke="{INK}" stroke-width="{width}"'
    if planet in board.RING:
        body = (f'<rect class="planet-shape" x="{left}" y="{top}" width="{PILL_W}" '
                f'height="{bottom - top}" rx="14" {attrs}/>'
                + _t(x, top + 20, LABEL[planet], "name", 18, extra=' font-weight="bold"'))
        if component:
            lines_ = _wrap(part(component), SMALLEST, PILL_W - 8)[:2]
            body += "".join(_t(x, top + 40 + 18 * i, line, "component", SMALLEST)
                            for i, line in enumerate(lines_))
            body += f'<title>{escape(_pretty(component))}</title>'
        if planet in CNOT_IN:
            centre, sup = CNOT_IN[planet]
            body += _t(x, bottom - 8, f"CNOT {LABEL[centre]}{LABEL[sup]}", "way-in", SMALLEST)
    else:
        body = (f'<circle class="planet-shape" cx="{x}" cy="{y}" r="{OUTER_R}" {attrs}/>'
                + _t(x, y + 6, LABEL[planet], "name", 18, extra=' font-weight="bold"'))
    piece = f'<g class="planet" data-planet="{planet}">{body}</g>'
    if component:  # kept for the page's scripts and tests: which planet holds what
        piece += (f'<g class="component" data-planet="{planet}" '
                  f'data-component="{escape(component)}"></g>')
    for ship in here:
        piece += _marker(ship, *marker_at(planet, ship), planet=planet)
    return piece


def entanglion_board(snap: Mapping[str, Any]) -> str:
    """The board with both ships, the components on planets and the detection track."""
    return "".join(entanglion_board_parts(snap))


# Translators: The board drawing's title for screen readers on the page.
def entanglion_board_parts(snap: Mapping[str, Any]) -> list[str]:
    """The board's SVG in pieces that stay put: the same number in every position,
    each planet with what is on it in one piece, so a move changes two pieces (the
    page is sent those only; see :mod:`.patch`)."""
    ships = snap.get("ships") or {}
    parts = (snap.get("components") or {}).get("planets") or {}
    total = HEIGHT + 60  # the track below the board (its legend's note is the page's)
    # Words outside f-strings: the catalogs' extractor does not look inside them.
    label, zero_one = _("The Entanglion board"), _("CNOT between |0⟩ and |1⟩: when the "
                                                   "other ship is on |1⟩")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total}" '
           f'role="img" aria-label="{escape(label)}" class="board">']
    names = (_("Centarious"), _("Superious"), "Entanglion")
    out.append("".join(_t(x, y, name, "galaxy", SMALLEST + 1)
                       for (x, y), name in zip(_GALAXY_CAPTIONS, names)))
    out += _legend()
    (x1, y1), (x2, y2) = AT[board.ZERO], AT[board.ONE]
    out.append(f'<line class="path cnot" data-path="C2" x1="{x1 + _CNOT_SHIFT}" y1="{y1}" '
               f'x2="{x2 + _CNOT_SHIFT}" y2="{y2}" stroke="{GREY}" stroke-width="2" '
               f'stroke-dasharray="2 4"/>' + _edge_label("C2", "CNOT")
               + f'<title>{escape(zero_one)}</title>')
    for p in board.OUTSIDE_PATHS + board.ENTANGLION_PATHS:
        out.append("".join(_path(p)))
    for planet in board.PLANETS:
        here = [s for s in board.SHIPS if ships.get(s) == planet]
        out.append(_planet(planet, here, parts.get(planet)))
    out += _track(snap.get("detection") or {}, HEIGHT)
    out.append("</svg>")
    return out


def _pretty(name: str) -> str:
    """A component's name as the table's language prints it."""
    return words.name(name)


# Translators: The label of the detection track on the page's board drawing (about 10
# characters).
def _track(detection: Mapping[str, Any], y: float) -> list[str]:
    space = detection.get("space")
    out = [_t(10, y + 4, _("Detection"), "galaxy", SMALLEST + 1, "start")]
    step = (WIDTH - 20) / len(TRACK)
    for i, value in enumerate(TRACK, 1):
        x = 10 + (i - 1) * step
        on = i == space
        fill = "#f59e0b" if on else ("#7f1d1d" if value == "X" else "#374151")
        out.append(f'<g class="track{" token" if on else ""}" data-space="{i}">'
                   f'<rect x="{x:.1f}" y="{y + 14}" width="{step - 4:.1f}" height="34" rx="4" '
                   f'fill="{fill}"/>' + _t(x + (step - 4) / 2, y + 37, str(value), "", 18)
                   .replace(f'fill="{INK}"', 'fill="#fff"' if value == "X" and not on else
                            f'fill="{INK}"') + "</g>")
    return out


# ---------------------------------------------------------------------- plots


def line_plot(series: Sequence[tuple[str, str, Sequence[tuple[float, float]]]],
              title: str, x_label: str, y_label: str, width: int = 480,
              height: int = 240) -> str:
    """A small line plot: ``series`` is (name, colour, points)."""
    points = [pt for _, _, pts in series for pt in pts]
    x0, x1 = _span([x for x, _ in points])
    y0, y1 = _span([y for _, y in points])
    left, right, top, bottom = 44, 12, 28, 36
    w, h = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * w

    def sy(y: float) -> float:
        return top + h - (y - y0) / (y1 - y0) * h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'class="plot" role="img" aria-label="{escape(title)}">',
           _t(width / 2, 18, title, "title", 13),
           f'<line x1="{left}" y1="{top + h}" x2="{left + w}" y2="{top + h}" stroke="{GREY}"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + h}" stroke="{GREY}"/>',
           _t(left + w / 2, height - 6, x_label, "", 11),
           _t(left - 6, top + 4, _num(y1), "", 10, "end"),
           _t(left - 6, top + h, _num(y0), "", 10, "end"),
           _t(left, top + h + 14, _num(x0), "", 10),
           _t(left + w, top + h + 14, _num(x1), "", 10),
           f'<text x="12" y="{top + h / 2:.1f}" font-size="11" fill="{INK}" '
           f'transform="rotate(-90 12 {top + h / 2:.1f})" text-anchor="middle">'
           f'{escape(y_label)}</text>']
    for i, (name, colour, pts) in enumerate(series):
        if not pts:
            continue
        coords = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        out.append(f'<polyline class="series" data-name="{escape(name)}" points="{coords}" '
                   f'fill="none" stroke="{colour}" stroke-width="2"/>')
        out += [f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2.5" fill="{colour}"/>'
                for x, y in pts]
        out.append(_t(left + w - 4, top + 12 + 13 * i, name, "", 10, "end")
                   .replace(f'fill="{INK}"', f'fill="{colour}"'))
    out.append("</svg>")
    return "".join(out)


def bar_plot(bars: Sequence[tuple[str, float]], title: str, y_label: str,
             width: int = 480, height: int = 240, y_max: float | None = None) -> str:
    """Labelled vertical bars (labels are escaped)."""
    left, right, top, bottom = 44, 12, 28, 48
    w, h = width - left - right, height - top - bottom
    top_value = y_max if y_max is not None else max([v for _, v in bars] + [1.0])
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'class="plot" role="img" aria-label="{escape(title)}">',
           _t(width / 2, 18, title, "title", 13),
           f'<line x1="{left}" y1="{top + h}" x2="{left + w}" y2="{top + h}" stroke="{GREY}"/>',
           _t(left - 6, top + 4, _num(top_value), "", 10, "end"),
           _t(left - 6, top + h, "0", "", 10, "end"),
           f'<text x="12" y="{top + h / 2:.1f}" font-size="11" fill="{INK}" '
           f'transform="rotate(-90 12 {top + h / 2:.1f})" text-anchor="middle">'
           f'{escape(y_label)}</text>']
    slot = w / max(len(bars), 1)
    for i, (label, value) in enumerate(bars):
        bh = 0 if top_value <= 0 else h * min(value, top_value) / top_value
        x = left + i * slot + slot * 0.15
        out.append(f'<rect class="bar" x="{x:.1f}" y="{top + h - bh:.1f}" '
                   f'width="{slot * 0.7:.1f}" height="{bh:.1f}" fill="{BLUE}">'
                   f'<title>{escape(label)}: {_num(value)}</title></rect>')
        out.append(_t(x + slot * 0.35, top + h + 14, label[:14], "", 10))
    out.append("</svg>")
    return "".join(out)


def _span(values: Sequence[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 1.0
    lo, hi = min(values), max(values)
    return (lo, hi) if hi > lo else (lo - 1, hi + 1)


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.2f}"


# ---------------------------------------------------------------------- pages

GAME_COLOURS = {"entanglion": BLUE, "qno": "#22c55e", "qlanet": "#f59e0b"}


# Translators: The titles, axes and series of the charts after a game on the page (an axis
# label: about 20 characters).
def end_plots(end: Mapping[str, Any]) -> list[str]:
    """The end-of-game plots: detection space over turns, rolls against targets."""
    out = [line_plot([(_("detection space"), "#f59e0b", end["detection_over_turns"])],
                     _("Detection space over turns"), _("turn"), _("space"))]
    rolls = end["rolls"]["each"]
    if rolls:
        out.append(line_plot(
            [(_("roll"), BLUE, [(i, r["roll"]) for i, r in enumerate(rolls, 1)]),
             (_("to beat"), RED, [(i, r["target"]) for i, r in enumerate(rolls, 1)])],
            _("Defence rolls against their targets"), _("roll"), _("value")))
    return out


# Translators: The titles and axes of the past-games charts on the page (an axis label:
# about 20 characters).
def history_plots(history: Mapping[str, Any], options_shown: int = 6) -> list[str]:
    """Turns per game by game, then Entanglion's win rate by difficulty and options."""
    turns = history.get("turns") or []
    if not turns:
        return []
    by_game: dict[str, list[tuple[float, float]]] = {}
    for i, g in enumerate(turns, 1):
        by_game.setdefault(g["game"], []).append((i, g["turns"]))
    out = [line_plot([(ui_for(name).TITLE if name in GAMES else name,
                       GAME_COLOURS.get(name, GREY), pts)
                      for name, pts in sorted(by_game.items())],
                     _("Turns per game"), _("game (oldest first)"), _("turns"))]
    rates = history.get("win_rate") or {}
    groups = (["difficulty"] if "difficulty" in rates else []) + \
        [k for k in sorted(rates) if k != "difficulty"][:options_shown]
    for group in groups:
        cells = rates[group]
        title, value = _option_words(group)
        out.append(bar_plot([(f"{value(k)} ({c['played']})", c["rate"] * 100)
                             for k, c in cells.items()],
                            _("Entanglion win rate by {group}").format(group=title),
                            _("% won"), y_max=100))
    return out


def _option_words(group: str) -> tuple[str, Callable[[str], str]]:
    """An Entanglion option of the win-rate charts, and its values, in the words its
    setup screen uses (in the table's language); a ruling with no setup screen in its
    short words (the rulings table's)."""
    ui = ui_for("entanglion")
    own, _n, own_p = i18n.for_catalog("entanglion")
    key = "start_space" if group == "difficulty" else group
    step = next((s for s in ui.SETUP_STEPS if s.key == key), None)
    if step is None and key in RULINGS:
        words = {str(v): say(RULINGS[key], v, own_p)[1] for v in RULINGS[key].allowed}
        return own_p("ruling", RULINGS[key].words[0]), lambda k: words.get(k, k)
    if step is None:  # an option this version no longer knows (an old journal)
        return group.replace("_", " "), lambda k: k.replace("_", " ")
    labels = {str(v): own(label) for label, v in step.choices}
    if key == "start_space":  # stats count it as "start space N"
        labels = {f"start space {v}": text for v, text in labels.items()}
    return own(step.title), lambda k: labels.get(k, k)
