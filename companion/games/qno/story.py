"""The story of one game of QNO, told from its log (a pure function of the replayed
game and, optionally, its journal record; see ``entanglion/story.py``)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from ...i18n import N_, for_catalog
from ..common import duration, played_seconds, rate
from .cards import GATES

_, ngettext, pgettext = for_catalog("qno")

PENALTIES = ("h_penalty", "caught", "draw_two")


def story(g: Any, record: Any = None) -> dict[str, Any]:
    guesses = right = calls = caught = gates = 0
    penalty: Counter[str] = Counter()
    for e in g.log:
        t = e["type"]
        if t == "reveal":
            guesses += 1
            right += e["right"]
        elif t == "call":
            calls += 1
        elif t == "caught":
            caught += 1
        elif t == "play" and e["card"] in GATES:  # an H resolves by a reveal, not a "gate"
            gates += 1
        elif t == "must_draw" and e["reason"] in PENALTIES:
            penalty[e["reason"]] += e["count"]
    s = g.state
    over = next((e for e in reversed(g.log) if e["type"] == "game_over"), None)
    seconds = played_seconds(record)
    return {
        "game": "qno", "status": record.status if record is not None else s.status,
        "winners": list(s.winners), "reason": over["reason"] if over else None,
        "players": g.players, "turns": s.turn_number, "seconds": seconds,
        "time": duration(seconds), "gates": gates, "guesses": guesses, "right": right,
        "calls": calls, "caught": caught, "penalty": dict(penalty),
        "state": s.top_state,
    }


def line(st: dict[str, Any]) -> str:
    parts = [f"{st['players']} players"]
    if st["winners"]:
        parts.insert(0, " and ".join(f"P{w}" for w in st["winners"]) + " won")
    if st["time"]:
        parts.append(st["time"])
    parts.append(f"{st['gates']} gates, H guessed {st['right']}/{st['guesses']}")
    return ", ".join(parts)


# Translators: The story's pages on the OLED after a game ("The story" is their title); each
# line is a line of the box's OLED screen (21 characters; Japanese 16 full-width).
def pages(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The story on the box's screen, in the table's language (``text`` and
    ``aggregate`` are the operator's English summaries)."""
    turns = ngettext("{n} turn", "{n} turns", st["turns"]).format(n=st["turns"])
    lines = [turns + (f", {st['time']}" if st["time"] else ""),
             _("Gates played: {n}").format(n=st["gates"]),
             _("H guessed {right} of {n}").format(right=st["right"], n=st["guesses"]),
             _("QNO! calls {n}").format(n=st["calls"]),
             _("Caught {n}x").format(n=st["caught"])]
    return [{"title": _("The story"), "lines": lines}]


# Translators: A game's status in the story and on the page (one word).
STATUS = {"won": N_("won"), "playing": N_("playing"), "abandoned": N_("abandoned")}
# Translators: Why a player drew penalty cards, in the story's list (about 18 characters).
PENALTY = {"h_penalty": N_("H missed"), "caught": N_("caught without QNO!"),
           "draw_two": N_("Draw Two")}


# Translators: The lines of a game's story in the CLI and on the past-games page (the page
# wraps a long line).
def text(st: dict[str, Any]) -> list[str]:
    """The whole story in lines, for ``companion games show`` and the web page (in the
    language in use: English for the command)."""
    # Looked up first: an older Babel would extract the literal inside _()'s subscript.
    status = STATUS.get(st["status"])
    status = _(status) if status else st["status"]
    first = _("Result: {status}").format(status=status)
    if st["winners"]:  # not "won, won by P2"
        # Translators: {players} is a list such as "P2".
        first = _("Result: won by {players}").format(
            players=_(", ").join(f"P{w}" for w in st["winners"]))
    if st["reason"]:
        first += f" ({_(st['reason'])})"
    second = _("Players: {players}, turns: {turns}").format(players=st["players"],
                                                             turns=st["turns"])
    if st["time"]:
        # Translators: continues "Players: 3, turns: 40".
        second += _(", played for {time}").format(time=st["time"])
    out = [first, second,
           _("Gates played: {gates}, the circuit ends in |{state}>").format(
               gates=st["gates"], state=st["state"]),
           _("H guesses: {right} right of {guesses}").format(right=st["right"],
                                                             guesses=st["guesses"]),
           _("QNO! calls: {calls}; caught without it: {caught}").format(
               calls=st["calls"], caught=st["caught"])]
    if st["penalty"]:
        out.append(_("Penalty cards: {list}").format(list=_(", ").join(
            f"{_(PENALTY[k]) if k in PENALTY else k} {n}" for k, n in st["penalty"].items())))
    return out


def aggregate(stories: Iterable[dict[str, Any]]) -> list[str]:
    stories = list(stories)
    done = [st for st in stories if st["status"] == "won"]
    out = [f"QNO: {len(stories)} game{'s' * (len(stories) != 1)}, {len(done)} finished"]
    if done:
        out.append(f"Average turns: {sum(st['turns'] for st in done) / len(done):.1f}")
        guesses = sum(st["guesses"] for st in done)
        out.append(f"H guesses: {rate(sum(st['right'] for st in done), guesses)}"
                   .replace("won", "right"))
        firsts = Counter(st["winners"][0] == 1 for st in done if st["winners"])
        out.append(f"The first player won {firsts[True]} of {sum(firsts.values())}")
    return out
