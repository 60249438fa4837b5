"""SVG drawn on the box: the Entanglion board and small plots, as strings.

No plotting stack (a Pi Zero 2 W has 512 MB): a few hundred lines of SVG text are all a
browser needs. Every piece of text is escaped; every number is ours. The board is
drawn from ``games/entanglion/board.py``'s planets and paths, so it cannot disagree
with the rules engine; only the positions on the page are chosen here, after the
printed board (the Entanglion ring clockwise from OMEGA ZERO at the top left; the
single-ship galaxies Centarious and Superious beside it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from ..games.entanglion import board, words
from .. import i18n
from ..games.common import GAMES, ui_for
from ..i18n import _
from ..games.entanglion.cards import TRACK

BLUE, RED, GREY, INK = "#3b82f6", "#ef4444", "#9ca3af", "#e5e7eb"

WIDTH, HEIGHT = 640, 420
_RING_CENTRE, _RING_RADIUS = (450.0, 200.0), 150.0

LABEL = {board.ZERO: "|0⟩", board.ONE: "|1⟩", board.PLUS: "|+⟩", board.MINUS: "|−⟩",
         board.OMEGA_ZERO: "Ω0", board.OMEGA_ONE: "Ω1", board.OMEGA_TWO: "Ω2",
         board.OMEGA_THREE: "Ω3", board.PHI_PLUS: "Φ+", board.PHI_MINUS: "Φ−",
         board.PSI_PLUS: "Ψ+", board.PSI_MINUS: "Ψ−"}


def _layout() -> dict[str, tuple[float, float]]:
    at = {board.ZERO: (60.0, 110.0), board.ONE: (60.0, 290.0),
          board.PLUS: (190.0, 110.0), board.MINUS: (190.0, 290.0)}
    cx, cy = _RING_CENTRE
    for i, planet in enumerate(board.RING):  # OMEGA ZERO top left, then clockwise
        angle = math.radians(-112.5 + 45 * i)
        at[planet] = (round(cx + _RING_RADIUS * math.cos(angle), 1),
                      round(cy + _RING_RADIUS * math.sin(angle), 1))
    return at


AT = _layout()


def _t(x: float, y: float, text: str, cls: str = "", size: int = 12,
       anchor: str = "middle") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"'
            f'{f" class={chr(34)}{cls}{chr(34)}" if cls else ""} fill="{INK}">{escape(text)}</text>')


def _path(p: board.Path) -> list[str]:
    (x1, y1), (x2, y2) = AT[p.a], AT[p.b]
    dx, dy = x2 - x1, y2 - y1
    n = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / n * 3, dx / n * 3  # two ship colours side by side
    out = []
    for ship in p.ships:
        shift = 0.0 if len(p.ships) == 1 else (1 if ship == board.MERCURIAL else -1)
        colour, dash = (BLUE, "") if ship == board.MERCURIAL else (RED, ' stroke-dasharray="7 4"')
        out.append(f'<line class="path {ship}" data-path="{p.id}" x1="{x1 + ox * shift:.1f}" '
                   f'y1="{y1 + oy * shift:.1f}" x2="{x2 + ox * shift:.1f}" '
                   f'y2="{y2 + oy * shift:.1f}" stroke="{colour}" stroke-width="2"{dash}/>')
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    out.append(_t(mx + ox * 4, my + oy * 4 + 4, "/".join(p.cards), "card", 11))
    return out


def entanglion_board(snap: Mapping[str, Any]) -> str:
    """The board with both ships, the components on planets and the detection track."""
    return "".join(entanglion_board_parts(snap))


def entanglion_board_parts(snap: Mapping[str, Any]) -> list[str]:
    """The board's SVG in pieces that stay put: the same number in every position,
    each planet with what is on it in one piece, so a move changes two pieces (the
    page is sent those only; see :mod:`.patch`)."""
    ships = snap.get("ships") or {}
    parts = (snap.get("components") or {}).get("planets") or {}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT + 70}" '
           f'role="img" aria-label="{escape(_("The Entanglion board"))}" class="board">']
    out.append(_t(AT[board.ZERO][0], 70, _("Centarious"), "galaxy", 13))
    out.append(_t(AT[board.PLUS][0], 70, _("Superious"), "galaxy", 13))
    out.append(_t(_RING_CENTRE[0], 22, "Entanglion", "galaxy", 14))
    # CNOT entry (grey): the Centarious ship's CNOT with the other ship in Superious.
    for (centre, sup), bell in board.CNOT_ENTRY.items():
        (x1, y1), (x2, y2) = AT[sup], AT[bell]
        out.append(f'<line class="path cnot" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                   f'stroke="{GREY}" stroke-width="1.5" stroke-dasharray="2 4"/>')
        out.append(_t(x1 + (x2 - x1) * 0.3, y1 + (y2 - y1) * 0.3 - 4,
                      f"CNOT ({LABEL[centre]})", "card", 10))
    for p in board.OUTSIDE_PATHS + board.ENTANGLION_PATHS:
        out += _path(p)
    for planet in board.PLANETS:
        x, y = AT[planet]
        here = [s for s in board.SHIPS if ships.get(s) == planet]
        piece = (f'<g class="planet" data-planet="{planet}">'
                 f'<circle cx="{x}" cy="{y}" r="20" fill="#1f2937" stroke="{INK}" '
                 f'stroke-width="{3 if here else 1}"/>'
                 + _t(x, y + 5, LABEL[planet], "name", 15) + "</g>")
        if planet in parts:
            piece += (f'<g class="component" data-planet="{planet}">'
                      f'<rect x="{x - 9}" y="{y - 36}" width="18" height="10" rx="2" '
                      f'fill="#facc15"/><title>{escape(_pretty(parts[planet]))}</title></g>')
        for i, ship in enumerate(here):
            dx = -14 if ship == board.MERCURIAL else 14
            colour = BLUE if ship == board.MERCURIAL else RED
            piece += (f'<circle class="ship {ship}" data-planet="{planet}" cx="{x + dx}" '
                      f'cy="{y + 24}" r="8" fill="{colour}" stroke="#fff" stroke-width="1.5">'
                      f'<title>{ship.capitalize()}</title></circle>')
        out.append(piece)
    out += _track(snap.get("detection") or {}, HEIGHT + 10)
    out.append("</svg>")
    return out


def _pretty(name: str) -> str:
    """A component's name as the table's language prints it."""
    return words.name(name)


def _track(detection: Mapping[str, Any], y: float) -> list[str]:
    space = detection.get("space")
    out = [_t(10, y + 30, _("Detection"), "galaxy", 13, "start")]
    step = (WIDTH - 100) / len(TRACK)
    for i, value in enumerate(TRACK, 1):
        x = 90 + (i - 1) * step
        on = i == space
        fill = "#f59e0b" if on else ("#7f1d1d" if value == "X" else "#374151")
        out.append(f'<g class="track{" token" if on else ""}" data-space="{i}">'
                   f'<rect x="{x:.1f}" y="{y + 10}" width="{step - 4:.1f}" height="30" rx="4" '
                   f'fill="{fill}"/>' + _t(x + (step - 4) / 2, y + 31, str(value), "", 14) + "</g>")
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
    setup screen uses (in the table's language); an option with no setup screen keeps
    its name from the rules."""
    ui = ui_for("entanglion")
    own = i18n.for_catalog("entanglion")[0]
    key = "start_space" if group == "difficulty" else group
    step = next((s for s in ui.SETUP_STEPS if s.key == key), None)
    if step is None:
        return group.replace("_", " "), lambda k: k.replace("_", " ")
    labels = {str(v): own(label) for label, v in step.choices}
    if key == "start_space":  # stats count it as "start space N"
        labels = {f"start space {v}": text for v, text in labels.items()}
    return own(step.title), lambda k: labels.get(k, k)
