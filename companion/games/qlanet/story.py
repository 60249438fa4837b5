"""The story of one game of QLANET, told from its log (a pure function of the replayed
game and, optionally, its journal record; see ``entanglion/story.py``)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from ...i18n import N_, for_catalog
from ..common import duration, played_seconds

_, ngettext, pgettext = for_catalog("qlanet")


def story(g: Any, record: Any = None) -> dict[str, Any]:
    plays: Counter[str] = Counter()
    measured = [0, 0]
    secrets = [0, 0]
    discards = 0
    for e in g.log:
        t = e["type"]
        if t == "play":
            plays[e["card"]] += 1
        elif t == "discard":
            discards += 1
        elif t == "measure":
            measured[e["result"]] += 1
        elif t == "bell":
            secrets[e["player"]] += 1
    s = g.state
    over = next((e for e in reversed(g.log) if e["type"] == "game_over"), None)
    seconds = played_seconds(record)
    return {
        "game": "qlanet", "status": record.status if record is not None else s.status,
        "winners": list(s.winners),
        "reasons": dict(over["reasons"]) if over else {},
        "moves": s.turn_number, "seconds": seconds, "time": duration(seconds),
        "costs": list(s.costs), "fixed": [s.fixed.count(0), s.fixed.count(1)],
        "measured": measured, "secrets": secrets, "discards": discards,
        "favourite": plays.most_common(1)[0][0] if plays else None,
    }


def _winners(st: dict[str, Any]) -> str:
    w = st["winners"]
    return "camps 0 and 1 shared the win" if len(w) == 2 else f"camp {w[0]} won" if w else ""


def line(st: dict[str, Any]) -> str:
    parts = [x for x in (_winners(st), st["time"]) if x]
    parts.append(f"costs {st['costs'][0]}/{st['costs'][1]}, fixed "
                 f"{st['fixed'][0]}:{st['fixed'][1]}")
    return ", ".join(parts)


# Translators: The story's pages on the OLED after a game ("The story" is their title); each
# line is a line of the box's OLED screen (21 characters; Japanese 16 full-width).
def pages(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The story on the box's screen, in the table's language (``text`` and
    ``aggregate`` are the operator's English summaries)."""
    moves = ngettext("{n} move", "{n} moves", st["moves"]).format(n=st["moves"])
    lines = [moves + (f", {st['time']}" if st["time"] else ""),
             _("Costs C0 {a} C1 {b}").format(a=st["costs"][0], b=st["costs"][1]),
             _("Fixed C0 {a} C1 {b}").format(a=st["fixed"][0], b=st["fixed"][1]),
             _("BM secrets {a}:{b}").format(a=st["secrets"][0], b=st["secrets"][1]),
             _("M fixed 0:{a} 1:{b}").format(a=st["measured"][0], b=st["measured"][1])]
    return [{"title": _("The story"), "lines": lines}]


# Translators: Why a QLANET game ended, a few words after the winner on the OLED and the
# page (about 16 characters).
def reason_text(reason: str) -> str:
    """Why a camp won, in the table's language. The log keeps the engine's English
    (``line 1-5-9``, ``five fixed``, ``move cap 60``, ``cost cap 150``)."""
    kind, _sep, rest = reason.rpartition(" ")
    if reason == "five fixed":
        return _("five fixed")
    if kind == "line":
        return _("line {planets}").format(planets=rest)
    if kind == "move cap":
        return _("move cap {n}").format(n=rest)
    if kind == "cost cap":
        return _("cost cap {n}").format(n=rest)
    return reason


# Translators: A game's status in the story and on the page (one word).
STATUS = {"won": N_("won"), "playing": N_("playing"), "abandoned": N_("abandoned")}


# Translators: The lines of a game's story in the CLI and on the past-games page (the page
# wraps a long line).
def text(st: dict[str, Any]) -> list[str]:
    """The whole story in lines, for ``companion games show`` and the web page (in the
    language in use: English for the command)."""
    # Looked up first: an older Babel would extract the literal inside _()'s subscript.
    status = STATUS.get(st["status"])
    status = _(status) if status else st["status"]
    w = st["winners"]
    first = _("Result: {status}").format(status=status)
    if w:
        first += _(", {winners}").format(winners=_("camps 0 and 1 shared the win")
                                          if len(w) == 2 else
                                          _("camp {camp} won").format(camp=w[0]))
    out = [first]
    out += [_("  camp {camp}: {why}").format(camp=c, why=reason_text(why))
            for c, why in sorted(st["reasons"].items())]
    moves = _("Moves: {moves}").format(moves=st["moves"])
    if st["time"]:
        # Translators: continues "Moves: 40".
        moves += _(", played for {time}").format(time=st["time"])
    out += [moves,
            _("Costs: camp 0 {zero}, camp 1 {one}").format(zero=st["costs"][0],
                                                           one=st["costs"][1]),
            _("Planets fixed: camp 0 {zero}, camp 1 {one}").format(zero=st["fixed"][0],
                                                                   one=st["fixed"][1]),
            _("Measurements fixed {zero} planets to 0, {one} to 1").format(
                zero=st["measured"][0], one=st["measured"][1]),
            _("BM secrets: camp 0 {zero}, camp 1 {one}").format(zero=st["secrets"][0],
                                                                one=st["secrets"][1]),
            _("Discards: {n}").format(n=st["discards"])]
    if st["favourite"]:
        out.append(_("Card played most: {card}").format(card=st["favourite"]))
    return out


def aggregate(stories: Iterable[dict[str, Any]]) -> list[str]:
    stories = list(stories)
    done = [st for st in stories if st["status"] == "won"]
    out = [f"QLANET: {len(stories)} game{'s' * (len(stories) != 1)}, {len(done)} finished"]
    if done:
        wins = Counter(w for st in done for w in st["winners"])
        shared = sum(len(st["winners"]) == 2 for st in done)
        out.append(f"Wins: camp 0 {wins[0]}, camp 1 {wins[1]} ({shared} shared)")
        out.append(f"Average moves: {sum(st['moves'] for st in done) / len(done):.1f}")
    return out
