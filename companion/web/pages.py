"""The past games' pages, drawn on the box as HTML: the list of games, one game's page
(its move list, the position on show, the analysis after the game, the downloads), a
position alone (what the page's script swaps in when a move is clicked) and the page
for a game that is not there.

Every page works without JavaScript (a move is a link to ``?at=N``); ``replay.js``
only saves the round trip of a whole page and adds the arrow keys. Every text is
escaped here, every number is ours; the words are the table's language.
"""

from __future__ import annotations

import importlib
from html import escape
from typing import Any, Mapping, Sequence

from .. import i18n
from ..i18n import N_, _, ngettext
from . import svg
from ..games.entanglion.story import _pct  # noqa: PLC2701 - the story's own "31%"
from .replay import Replay

# Words inside f-strings: marked here (the extractor does not read into an f-string).
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_PAGES = N_("Pages")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_LIVE_GAME = N_("Live game")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_PAST_GAMES = N_("Past games")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_NOT_FOUND = N_("Not found")
W_THE_LIST = N_("The list of past games")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_NO_GAMES_YET = N_("No games yet.")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_GAME_TITLE = N_("Game #{id}: {game}")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_NEWER_GAMES = N_("Newer games")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_OLDER_GAMES = N_("Older games")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_THE_STORY = N_("The game's story")
W_DOWNLOAD_RECORD = N_("Download the record (a scenario file)")
W_DOWNLOAD_CIRCUIT = N_("Download the circuit (OpenQASM 2)")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_MOVES = N_("Moves")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_ODDS = N_("Odds")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_THE_CIRCUIT_SO_FAR = N_("The circuit so far")
W_ANALYSIS = N_("The analysis after the game")
W_NO_DECISION = N_("No decision to weigh in this game.")
# Translators: A heading or link of the past-games pages (the browser wraps a long one).
W_TURNING_POINTS = N_("Turning points")
W_ALL_AS_GOOD = N_("Every choice was as good as the search’s best.")
# Translators: the axis of the win-chance chart: the game's inputs, first to last
W_INPUT = N_("input")

CHART_W, CHART_H = 480, 180
TURNING_POINTS = 3  # the costliest choices marked on the chart
TURNING_COST = 0.05  # a choice that cost less than this (5 points) is not one


def _page(title: str, body: str) -> str:
    lang = escape(i18n.language())
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{escape(title)}</title><link rel="stylesheet" href="/replay.css">'
            # theme.js (the live page's): a theme chosen there holds here too
            '<link rel="icon" href="data:,"><script src="/theme.js" defer></script>'
            '<script src="/replay.js" defer></script></head>'
            f'<body><header><nav aria-label="{escape(_(W_PAGES))}">'
            f'<a href="/">{escape(_(W_LIVE_GAME))}</a> '
            f'<a href="/games">{escape(_(W_PAST_GAMES))}</a></nav></header>'
            f"<main>{body}</main></body></html>")


# Translators: A game's status in the list of past games (one word).
def _status(status: str) -> str:
    return {"playing": _("playing"), "won": _("won"), "lost": _("lost"),
            "setup": _("setting up"), "abandoned": _("abandoned")}.get(status, status)


def _story_module(game: str) -> Any:
    return importlib.import_module(f"companion.games.{game}.story")


# Translators: The heading of the page for an unknown address.
def not_found(why: str) -> str:
    """The page for a game id that names no game (or a path that names no page)."""
    return _page(_("Not found"), f'<h1>{escape(_(W_NOT_FOUND))}</h1>'
                 f"<p>{escape(why)}</p>"
                 f'<p><a href="/games">{escape(_(W_THE_LIST))}</a></p>')


# ---------------------------------------------------------------------- the list


# Translators: The list of past games: its heading and each game's line.
def games_list(rows: Sequence[Mapping[str, Any]], page: int, more: bool) -> str:
    """``rows``: dicts of id, title, status, turns, date and line (the story's line, or
    None for a game that does not replay), newest first."""
    out = [f'<h1>{escape(_(W_PAST_GAMES))}</h1>']
    if not rows:
        out.append(f'<p>{escape(_(W_NO_GAMES_YET))}</p>')
    else:
        out.append('<ol class="games" reversed>')
        for g in rows:
            told = g["line"] if g["line"] is not None else _("(does not replay)")
            turns = ngettext("{n} turn", "{n} turns", g["turns"]).format(n=g["turns"])
            title = _(W_GAME_TITLE).format(id=g["id"], game=g["title"])
            out.append(
                f'<li><a href="/game/{g["id"]}">{escape(title)}</a> '
                f'<span class="result">{escape(_status(g["status"]))}, {escape(turns)}, '
                f'{escape(g["date"])}</span><br><span class="line">{escape(told)}</span></li>')
        out.append("</ol>")
    pager = []
    if page > 1:
        pager.append(f'<a href="/games?page={page - 1}" rel="prev">{escape(_(W_NEWER_GAMES))}</a>')
    if more:
        pager.append(f'<a href="/games?page={page + 1}" rel="next">{escape(_(W_OLDER_GAMES))}</a>')
    if pager:
        out.append(f'<nav class="pager">{" ".join(pager)}</nav>')
    return _page(_("Past games"), "".join(out))


# ---------------------------------------------------------------------- one game


def game_page(r: Replay, at: int, analysis: Mapping[str, Any] | None) -> str:
    """The page of one game with position ``at`` on show (0: as set up)."""
    last = len(r.positions) - 1
    head = _(W_GAME_TITLE).format(id=r.id, game=r.title)
    out = [f'<h1>{escape(head)}</h1>',
           f'<p class="result">{escape(_status(r.status))}']
    if r.story is not None:
        out.append(f" · {escape(_story_module(r.game).line(r.story))}")
    out.append("</p>")
    out.append(_downloads(r))
    out.append(f'<div class="replay" data-game="{r.id}" data-last="{last}">'
               f'<section id="position" aria-live="polite">{position(r, at)}</section>'
               f"{_moves(r, at)}</div>")
    if r.game == "entanglion" and r.finished:
        out.append(analysis_section(r.id, analysis))
    if r.story is not None and r.over:
        lines = _story_module(r.game).text(r.story)
        out.append(f'<section class="story"><h2>{escape(_(W_THE_STORY))}</h2>'
                   + "".join(f"<p>{escape(line.strip())}</p>" for line in lines) + "</section>")
    return _page(head, "".join(out))


def _downloads(r: Replay) -> str:
    if not r.over:
        wait = _("The record can be downloaded once the game is over.")
        return f'<p class="downloads">{escape(wait)}</p>'
    links = [f'<a href="/game/{r.id}/record.json" download="game-{r.id}.json">'
             f'{escape(_(W_DOWNLOAD_RECORD))}</a>']
    if r.game == "qno":
        links.append(f'<a href="/game/{r.id}/circuit.qasm" download="qno-game-{r.id}.qasm">'
                     f'{escape(_(W_DOWNLOAD_CIRCUIT))}</a>')
    return f'<p class="downloads">{" · ".join(links)}</p>'


def _moves(r: Replay, at: int) -> str:
    """The move list: set-up, then every input in the log's words, each a link to the
    position after it; the one on show is ``aria-current``."""
    def item(n: int, lines: Sequence[str]) -> str:
        current = ' aria-current="step"' if n == at else ""
        return (f'<li value="{n}"><a href="?at={n}" data-at="{n}"{current}>'
                + "<br>".join(escape(line) for line in lines) + "</a></li>")

    out = [f'<nav class="moves" aria-label="{escape(_(W_MOVES))}">'
           f'<h2>{escape(_(W_MOVES))}</h2><ol start="0">',
           # Translators: the first entry of a past game's move list (before any input)
           item(0, [_("Set-up")] + r.setup)]
    for n, move in enumerate(r.moves, 1):
        for heading in move["turn"]:
            out.append(f'<li class="turn" aria-hidden="true">{escape(heading)}</li>')
        out.append(item(n, move["lines"]))
    out.append("</ol></nav>")
    return "".join(out)


def position(r: Replay, at: int) -> str:
    """The position after ``at`` inputs, with the steps to the others."""
    last = len(r.positions) - 1
    p = r.positions[at]
    where = (_("As set up, before the first input") if at == 0 else
             _("After input {n} of {last}").format(n=at, last=last))

    def step(label: str, to: int, key: str) -> str:
        if to == at or not 0 <= to <= last:
            return f'<span class="step off" aria-hidden="true">{escape(label)}</span>'
        return f'<a class="step" href="?at={to}" data-at="{to}" data-key="{key}">{escape(label)}</a>'

    # Translators: the steps through a past game: to its set-up, one input back, one
    # input on, to its end
    first, back, on, end = _("First"), _("Back"), _("Next"), _("Last")
    out = [f'<h2 data-at="{at}">{escape(where)}</h2><p class="steps">',
           step(first, 0, "Home"), step(back, at - 1, "ArrowLeft"),
           step(on, at + 1, "ArrowRight"), step(end, last, "End"), "</p>",
           _PICTURES[r.game](p)]
    return "".join(out)


def _facts(rows: Sequence[tuple[str, str]]) -> str:
    return '<dl class="facts">' + "".join(
        f"<div><dt>{escape(k)}</dt><dd>{escape(v)}</dd></div>" for k, v in rows) + "</dl>"


def _named(name: str) -> str:
    """A component, event or planet in the words of Entanglion's catalog."""
    own = i18n.for_catalog("entanglion")[0]
    spaced = str(name).replace("_", " ")
    return own(spaced.title() if any(c.islower() for c in spaced) else spaced)


SHIP = {"mercurial": "Mercurial", "rubicon": "Rubicon"}


# Translators: The facts of an Entanglion game on its past-game page: a label, then its
# value.
def _entanglion(p: Mapping[str, Any]) -> str:
    board = svg.entanglion_board(p)
    d, decks = p["detection"], p["decks"]
    rows = [(_("Status"), _status(p["status"])),
            (_("Turn {number}").format(number=p["turn"]["number"]),
             SHIP.get(p["turn"]["player"], "—")),
            (_("Detection"), _("space {space} (value {value})").format(**d)),
            (_("Engine control"), f'{p["engine_control"]["count"]}/{p["engine_control"]["of"]}'),
            (_("Engine stack"), ngettext("{n} card", "{n} cards", decks["engine"]).format(
                n=decks["engine"])),
            (_("Event deck"), ngettext("{n} card", "{n} cards", decks["events"]).format(
                n=decks["events"]))]
    for ship, name in SHIP.items():
        rows.append((_("{ship} carries").format(ship=name),
                     ", ".join(map(_named, p["components"][ship])) or _("none")))
        if p.get("hands"):
            rows.append((_("{ship}'s hand").format(ship=name),
                         " ".join(p["hands"][ship]) or _("empty")))
        if p["events"][ship]:
            rows.append((_("{ship}'s events").format(ship=name),
                         ", ".join(map(_named, p["events"][ship]))))
    q = p["quantum"]
    rows.append((_("Behind the board: two qubits"),
                 _("The ships are in the state {state}.").format(state=q["state"])))
    out = f'<div class="board-holder">{board}</div>' + _facts(rows)
    if p.get("odds"):
        out += (f'<h3>{escape(_(W_ODDS))}</h3><ul class="odds">' + "".join(
            f'<li>{escape(o["move"])}: {round(100 * o["chance"])}%</li>' for o in p["odds"])
            + "</ul>")
    return out


# Translators: The facts of a QNO game on its past-game page: a label, then its value.
def _qno(p: Mapping[str, Any]) -> str:
    winners = f' (P{", P".join(map(str, p["winners"]))})' if p["winners"] else ""
    top = p["top"]
    rows = [(_("Status"), _status(p["status"]) + winners),
            (_("Turn {number}").format(number=p["turn"]["number"]),
             _("Player {player}").format(player=p["turn"]["player"])),
            (_("Direction"), _("clockwise") if p["turn"]["direction"] > 0 else _("anticlockwise")),
            (_("Top state"), f'|{top["state"]}⟩'),
            (_("Value to match"), _("any") if top["value"] is None else str(top["value"])),
            (_("Cards in hand"), "  ".join(f"P{i}: {n}" for i, n in enumerate(p["counts"], 1)))]
    return (_facts(rows) + f'<h3>{escape(_(W_THE_CIRCUIT_SO_FAR))}</h3>'
            f'<pre class="circuit">{escape(p["circuit"])}</pre>')


# Translators: The facts of a QLANET game on its past-game page: a label, then its value.
def _qlanet(p: Mapping[str, Any]) -> str:
    camps = _("camp 0: {zero}  camp 1: {one}")
    winners = ", ".join(_("camp {camp}").format(camp=c) for c in p["winners"])
    rows = [(_("Status"), _status(p["status"]) + (f" ({winners})" if winners else "")),
            (_("Move {number}").format(number=p["turn"]["number"]),
             "—" if p["turn"]["player"] is None else _("Camp {camp}").format(
                 camp=p["turn"]["player"])),
            (_("Costs"), camps.format(zero=p["costs"][0], one=p["costs"][1])),
            (_("Cards in hand"), camps.format(zero=p["hand_sizes"][0], one=p["hand_sizes"][1])),
            (_("Deck"), ngettext("{n} card", "{n} cards", p["deck_size"]).format(
                n=p["deck_size"]))]
    out = _facts(rows) + _grid(_("The board"), p["planets"])
    if p.get("reveal"):
        out += _grid(_("Revealed"), p["reveal"]["planets"])
    return out


# Translators: A planet's name for screen readers on the page's QLANET grid.
def _grid(title: str, planets: Sequence[Mapping[str, Any]]) -> str:
    cells = []
    for q in planets:
        shown = f'⟷ {q["entangled_with"]}' if q["shown"] == "entangled" else q["shown"]
        small = _("planet {planet}").format(planet=q["planet"]) + (
            f' {q["bell"]}' if q.get("bell") else "")
        cells.append(f'<div data-planet="{q["planet"]}">{escape(str(shown))}'
                     f"<small>{escape(small)}</small></div>")
    return f'<h3>{escape(title)}</h3><div class="qlanet-grid">{"".join(cells)}</div>'


_PICTURES = {"entanglion": _entanglion, "qno": _qno, "qlanet": _qlanet}


# ---------------------------------------------------------------------- the analysis


def turning_points(analysis: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The costliest choices (at most :data:`TURNING_POINTS`, each costing at least
    :data:`TURNING_COST` of the chance to win), in the order they were made."""
    def cost(d: Mapping[str, Any]) -> float:
        return 0.0 if d["same"] else d["best_win"] - (d["played_win"] or 0.0)

    costly = sorted((d for d in analysis["decisions"] if cost(d) >= TURNING_COST),
                    key=cost, reverse=True)[:TURNING_POINTS]
    return sorted(costly, key=lambda d: d["input"])


def analysis_section(game_id: int, analysis: Mapping[str, Any] | None) -> str:
    title = f'<h2>{escape(_(W_ANALYSIS))}</h2>'
    if analysis is None:
        return (f'<section class="analysis">{title}<p>'
                + escape(_("The box weighs every decision of a finished game while nobody "
                           "plays; the analysis shows here once it is done.")) + "</p></section>")
    decisions = analysis["decisions"]
    if not decisions:
        return (f'<section class="analysis">{title}<p>'
                f'{escape(_(W_NO_DECISION))}</p></section>')
    marked = turning_points(analysis)
    out = [f'<section class="analysis">{title}', chart(game_id, decisions, marked)]
    if marked:
        out.append(f'<h3>{escape(_(W_TURNING_POINTS))}</h3><ol class="turning">')
        for d in marked:
            out.append(f'<li><a href="?at={d["input"]}" data-at="{d["input"]}">' + escape(
                _("Turn {turn}: {played} ({mine}) vs {best} ({theirs})").format(
                    turn=d["turn"], played=d["played"], mine=_pct(d["played_win"]),
                    best=d["best"], theirs=_pct(d["best_win"]))) + "</a></li>")
        out.append("</ol>")
    else:
        out.append(f'<p>{escape(_(W_ALL_AS_GOOD))}</p>')
    out.append("</section>")
    return "".join(out)


def chart(game_id: int, decisions: Sequence[Mapping[str, Any]],
          marked: Sequence[Mapping[str, Any]]) -> str:
    """The chance to win at each decision (played well from there), 0-100%, along the
    game's inputs; every point links to the position where that choice was made, the
    turning points larger and red."""
    left, right, top, bottom = 40, 12, 12, 30
    w, h = CHART_W - left - right, CHART_H - top - bottom
    last = max(d["input"] for d in decisions) or 1

    def x(d: Mapping[str, Any]) -> float:
        return left + d["input"] / last * w

    def y(win: float) -> float:
        return top + h - win * h

    label = _("Chance to win at each decision (played well from there)")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CHART_W} {CHART_H}" '
           f'class="chart" role="img" aria-label="{escape(label)}">',
           f"<title>{escape(label)}</title>"]
    for pct in (0, 50, 100):
        out.append(f'<line x1="{left}" y1="{y(pct / 100):.1f}" x2="{left + w}" '
                   f'y2="{y(pct / 100):.1f}" class="grid"/>'
                   f'<text x="{left - 6}" y="{y(pct / 100) + 4:.1f}" text-anchor="end">'
                   f"{pct}%</text>")
    out.append(f'<text x="{left + w / 2}" y="{CHART_H - 6}" text-anchor="middle">'
               f'{escape(_(W_INPUT))}</text>')
    points = " ".join(f"{x(d):.1f},{y(d['best_win']):.1f}" for d in decisions)
    out.append(f'<polyline points="{points}" class="win"/>')
    turning = {d["input"] for d in marked}
    for d in decisions:
        big = d["input"] in turning
        tip = _("Turn {turn}: {played} ({mine}) vs {best} ({theirs})").format(
            turn=d["turn"], played=d["played"], mine=_pct(d["played_win"]), best=d["best"],
            theirs=_pct(d["best_win"]))
        out.append(f'<a href="/game/{game_id}?at={d["input"]}" data-at="{d["input"]}">'
                   f'<circle cx="{x(d):.1f}" cy="{y(d["best_win"]):.1f}" '
                   f'r="{6 if big else 3}" class="{"turning" if big else "point"}">'
                   f"<title>{escape(tip)}</title></circle></a>")
    out.append("</svg>")
    return "".join(out)
