"""Building QNO games in exact positions: deal named cards, turn a named start card."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.qno import Qno
from companion.games.qno.cards import full_deck

def dealt(hands: list[list[str]], start: str | list[str], forced=(), seed: int = 0,
          **options: Any) -> Qno:
    """A tracked game where player i holds exactly ``hands[i]`` (any size: the deal
    of five is taken, then the hands are set) and ``start`` was turned up (a list:
    gates first). Its undo history starts after the deal."""
    g = Qno(seed, {"players": len(hands), **options}, None, forced)
    while g.pending["kind"] == "take":
        g.push({"do": "take", "card": next(iter(g.state.unseen))})
    s = g.state
    for h in s.hands:
        for c in h:
            s.unseen[c] = s.unseen.get(c, 0) + 1
    for h in hands:
        for c in h:
            s.unseen[c] -= 1
            assert s.unseen[c] >= 0, f"too many {c}"
    s.unseen = {c: n for c, n in s.unseen.items() if n}
    s.hands = [list(h) for h in hands]
    s.counts = [len(h) for h in hands]
    s.pile = sum(s.unseen.values())
    g.inputs.clear()
    g._history.clear()
    for c in [start] if isinstance(start, str) else start:
        g.push({"do": "turn_up", "card": c})
    return g


def conserved(g: Qno) -> bool:
    """Every one of the 112 cards is somewhere, exactly once."""
    s = g.state
    where = Counter(s.discard) + Counter(s.unseen)
    if s.hands is not None:
        for h in s.hands:
            where += Counter(h)
        if [len(h) for h in s.hands] != s.counts or sum(s.unseen.values()) != s.pile:
            return False
    else:
        if sum(s.unseen.values()) != s.pile + sum(s.counts):
            return False
    return where == Counter(full_deck())
