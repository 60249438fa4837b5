"""Small builders shared by the QLANET tests, and a dense 512-amplitude simulator.

Card names and view icons are typed as plain strings (not imported from the engine)
so a renamed constant in the engine shows up as a failing test. The dense simulator
is an independent check of the stabilizer engine: plain state-vector arithmetic.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from companion.games.qlanet import Qlanet, view

# The app's opening with the centre shown: mirrored pairs, 0 in the middle.
OPENING = ["+", "+", "-", "-", "0", "-", "-", "+", "+"]
HANDS = [["X", "H", "Z", "M"], ["X", "H", "Z", "M"]]
BELLS = ("Phi+", "Phi-", "Psi+", "Psi-")
BELL_KETS = {"Phi+": "|00>+|11>", "Phi-": "|00>-|11>", "Psi+": "|01>+|10>", "Psi-": "|01>-|10>"}


def game(planets: list[str] | None = None, *, hands: list[list[str]] | None = None,
         first: int = 0, hidden: Iterable[int] = (), costs: list[int] | None = None,
         forced: Iterable[Any] = (), options: dict[str, Any] | None = None,
         seed: int = 0, deck: list[str] | None = None) -> Qlanet:
    """A game with a pinned board (nothing hidden unless asked), hands and first camp.

    BM follows the Born rule here unless ``options`` say otherwise: these tests check
    the physics move by move, which the Born rule shows plainly (the default rule,
    ``uniform_secret``, adds a secret Pauli and has tests of its own)."""
    options = {"bm_outcome": "born", **(options or {})}
    setup: dict[str, Any] = {
        "first_player": first,
        "planets": list(planets or OPENING),
        "hidden": list(hidden),
        "hands": [list(h) for h in (hands or HANDS)],
    }
    if costs is not None:
        setup["costs"] = list(costs)
    if deck is not None:
        setup["deck"] = list(deck)
    return Qlanet(seed, options, setup, forced)


def play(g: Qlanet, card: str, *planets: int, player: int | None = None) -> list[dict]:
    act: dict[str, Any] = {"do": "play", "card": card, "planets": list(planets)}
    if player is not None:
        act["player"] = player
    return g.push(act)


def shown(g: Qlanet, viewer: Any = "spectator") -> list[str]:
    return [e["shown"] for e in view(g, viewer)]


def at(g: Qlanet, planet: int, viewer: Any = "truth") -> dict[str, Any]:
    return view(g, viewer)[planet - 1]


def gift(g: Qlanet, player: int, cards: list[str]) -> None:
    """Replace a camp's hand (test set-up between moves; the state is plain data)."""
    g.state.hands[player] = list(cards)


# ---------------------------------------------------------------- dense simulator

N = 9
DIM = 1 << N
R2 = 1 / math.sqrt(2)
SINGLE = {"0": (1.0, 0.0), "1": (0.0, 1.0), "+": (R2, R2), "-": (R2, -R2)}


class Dense:
    """The 9 planets as 512 real amplitudes; planet q is bit q - 1 of the index."""

    def __init__(self, states: list[str]):
        singles = [SINGLE[s[-1]] for s in states]  # "F0" is the state 0
        self.v = [math.prod(singles[q][(i >> q) & 1] for q in range(N)) for i in range(DIM)]

    def x(self, q: int) -> None:
        b = 1 << q
        self.v = [self.v[i ^ b] for i in range(DIM)]

    def z(self, q: int) -> None:
        b = 1 << q
        self.v = [-a if i & b else a for i, a in enumerate(self.v)]

    def h(self, q: int) -> None:
        b = 1 << q
        v = self.v
        self.v = [R2 * (v[i ^ b] - v[i]) if i & b else R2 * (v[i] + v[i ^ b])
                  for i in range(DIM)]

    def cx(self, c: int, t: int, when: int = 1) -> None:
        bt = 1 << t
        self.v = [self.v[i ^ bt] if ((i >> c) & 1) == when else self.v[i]
                  for i in range(DIM)]

    def swap(self, a: int, b: int) -> None:
        def sw(i: int) -> int:
            if ((i >> a) ^ (i >> b)) & 1:
                return i ^ (1 << a) ^ (1 << b)
            return i
        self.v = [self.v[sw(i)] for i in range(DIM)]

    def pauli(self, xmask: int, zmask: int, sign: int = 0) -> list[float]:
        """(-1)^sign X^x Z^z applied to the state (a new vector)."""
        s = -1.0 if sign else 1.0
        out = [0.0] * DIM
        for i, a in enumerate(self.v):
            if a:
                out[i ^ xmask] = a * s * (-1.0 if (i & zmask).bit_count() & 1 else 1.0)
        return out

    def project(self, xmask: int, zmask: int, outcome: int) -> float:
        """Project onto the (-1)^outcome eigenspace of X^x Z^z; returns its probability."""
        pv = self.pauli(xmask, zmask, outcome)
        half = [(a + b) / 2 for a, b in zip(self.v, pv)]
        p = sum(a * a for a in half)
        if p > 1e-12:
            n = math.sqrt(p)
            self.v = [a / n for a in half]
        return p

    def stabilised_by(self, g: int) -> bool:
        x, z, s = g & 511, (g >> 9) & 511, (g >> 18) & 1
        pv = self.pauli(x, z, s)
        return all(abs(a - b) < 1e-9 for a, b in zip(self.v, pv))

    def norm(self) -> float:
        return sum(a * a for a in self.v)


def dense_step(d: Dense, entries: list[dict[str, Any]], g: Qlanet) -> None:
    """Apply one move's log entries to the dense state (outcomes from the engine)."""
    for e in entries:
        if e["type"] == "play":
            card, qs = e["card"], [p - 1 for p in e["planets"]]
            if card == "X":
                d.x(qs[0])
            elif card == "Z":
                d.z(qs[0])
            elif card == "H":
                d.h(qs[0])
            elif card == "CX1":
                d.cx(qs[0], qs[1], 1)
            elif card == "CX0":
                d.cx(qs[0], qs[1], 0)
            elif card == "SW":
                d.swap(qs[0], qs[1])
        elif e["type"] == "measure":
            p = d.project(0, 1 << (e["planet"] - 1), e["result"])
            assert p > 1e-9, "the engine produced an impossible measurement result"
        elif e["type"] == "bell":
            a, b = (p - 1 for p in e["planets"])
            bell = g.state.bells[-1]
            rx, rz = {"Phi+": (0, 0), "Phi-": (1, 0), "Psi+": (0, 1), "Psi-": (1, 1)}[bell["measured"]]
            mask = (1 << a) | (1 << b)
            assert d.project(mask, 0, rx) > 1e-9, "impossible XX outcome"
            assert d.project(0, mask, rz) > 1e-9, "impossible ZZ outcome"
            if bell["code"] != bell["measured"]:
                kx, kz = {"Phi+": (0, 0), "Phi-": (1, 0), "Psi+": (0, 1), "Psi-": (1, 1)}[bell["code"]]
                if kx != rx:
                    d.z(b)
                if kz != rz:
                    d.x(b)
