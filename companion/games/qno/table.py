"""The physical table, for the simulator, the autoplayer and the tests.

The box never sees the shuffled deck, so a simulated game needs a world to draw
from: a real (seeded) shuffle, the true hands and the discard pile. The table
follows the engine's log to move cards the way players would, and answers the
engine's card prompts with the top card of its pile. It is not part of the rules
engine and the box does not use it.
"""

from __future__ import annotations

from typing import Any

from ...chance import below, seed_state, shuffle
from .cards import full_deck, parse
from .engine import Qno, playable


class Table:
    def __init__(self, players: int, seed: int = 0):
        self.rng = seed_state(seed ^ 0x7AB1E)
        self.pile = full_deck()
        self.rng = shuffle(self.rng, self.pile)
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.discard: list[str] = []
        self._seen = 0  # engine log entries already followed

    def next_card(self) -> str:
        """What the next player to draw would pick up."""
        return self.pile[-1]

    def _from_pile(self, card: str | None = None) -> str:
        """The named card (a player may tap any card) or the top one."""
        if card is not None and card in self.pile:
            # The copy nearest the top: the one a player drawing it would pick up.
            del self.pile[len(self.pile) - 1 - self.pile[::-1].index(card)]
            return card
        return self.pile.pop()

    def follow(self, g: Qno) -> None:
        """Move cards as the players would for every new log entry."""
        for e in g.log[self._seen:]:
            t = e["type"]
            if t == "drew":
                for _ in range(e["count"]):
                    self.hands[e["player"] - 1].append(self._from_pile(e.get("card")))
            elif t == "start_gate":
                card = self._from_pile(e["card"])
                if e["how"] == "bury":
                    self.pile.insert(len(self.pile) // 2, card)
                else:
                    self.pile.append(card)
                    self.rng = shuffle(self.rng, self.pile)
            elif t == "start":
                self.discard.append(self._from_pile(e["card"]))
            elif t == "play":
                hand = self.hands[e["player"] - 1]
                if e["card"] in hand:
                    hand.remove(e["card"])
                elif e["card"] in self.pile:  # honour mode: a tap the table did not expect
                    self._from_pile(e["card"])
                self.discard.append(e["card"])
            elif t == "reshuffle":
                under, self.discard = self.discard[:-1], self.discard[-1:]
                self.pile = under + self.pile
                self.rng = shuffle(self.rng, self.pile)
        self._seen = len(g.log)

    @classmethod
    def of(cls, g: Qno, seed: int = 0) -> "Table":
        """The table that matches ``g`` now (rebuilt from its log, so undo is fine)."""
        table = cls(g.players, seed)
        table.follow(g)
        return table

    def choose(self, g: Qno) -> dict[str, Any]:
        """A random legal input, answering card prompts with the real cards."""
        self.follow(g)
        s, p = g.state, g.awaiting()
        pend = s.pending
        if pend is not None and pend["kind"] in ("take", "turn_up"):
            return {"player": p, "do": pend["kind"], "card": self.next_card()}
        hand = self.hands[p - 1]
        if pend is not None and pend["kind"] in ("qubit", "guess"):
            options = g.legal_actions()
        else:
            # Only cards really in this player's hand (honour mode trusts any tap);
            # after a draw (may_play), only the card just drawn.
            drawn = pend is not None
            cards = sorted(set(hand[-1:] if drawn else hand))
            options = [{"player": p, "do": "play", "card": c} for c in cards
                       if g.check({"player": p, "do": "play", "card": c}) is None]
            if drawn:
                options.append({"player": p, "do": "pass"})
            elif not options or not any(playable(c, s.top_state, s.top_value) for c in hand):
                # Play if able even where the box cannot enforce it (honour, free draw).
                if g.check({"player": p, "do": "draw"}) is None:
                    options.append({"player": p, "do": "draw"})
            if s.options["qno_call"] == "call_or_catch":
                options += [a for a in g.legal_actions() if a["do"] in ("call", "catch")]
        self.rng, i = below(self.rng, len(options))
        return options[i]


def random_game(players: int, seed: int, options: dict[str, Any] | None = None,
                limit: int = 20000) -> Qno:
    """Play a whole game with random legal choices (raises if it does not end)."""
    g = Qno(seed, {"players": players, **(options or {})})
    table = Table(players, seed)
    for _ in range(limit):
        if g.status == "won":
            table.follow(g)
            return g
        g.push(table.choose(g))
    raise RuntimeError(f"QNO game seed {seed} did not end in {limit} inputs")


def in_hand(table: Table, card: str) -> bool:
    return any(card in h for h in table.hands)


__all__ = ["Table", "random_game", "parse"]
