"""QLANET's rulings on two-planet cards played together: D5 (which pairs) with D6
(whether a fixed planet may be a CX control), for each two-planet card, against an
expectation written from docs/rules/qlanet.md. The random games of
test_qlanet_property.py vary every ruling at once; this pins each combination."""

from __future__ import annotations

import itertools

import pytest

from qlanet_helpers import game

TWO = ("CX0", "CX1", "SW", "BM")
BOARD = ["F0", "+", "+", "+", "0", "+", "+", "F1", "+"]  # planets 1 and 8 fixed


def side_by_side(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a - 1, 3), divmod(b - 1, 3)
    return abs(ra - rb) + abs(ca - cb) == 1


def allowed(card: str, a: int, b: int, targets: str, fixed: str) -> bool:
    if a == b or (targets == "adjacent" and not side_by_side(a, b)):
        return False
    if BOARD[b - 1].startswith("F"):
        return False  # a target (or either planet of SW and BM) is never fixed
    if BOARD[a - 1].startswith("F"):
        return fixed == "cx_control" and card in ("CX0", "CX1")  # only as the control
    return True


@pytest.mark.parametrize("targets, fixed", list(itertools.product(
    ("any", "adjacent"), ("untargetable", "cx_control"))))
def test_two_planet_cards_under_both_rulings(targets, fixed):
    g = game(BOARD, hands=[list(TWO), ["Z"] * 4],
             options={"two_planet_targets": targets, "fixed_planets": fixed})
    offered = {(a["card"], tuple(a["planets"])) for a in g.legal_actions()}
    for card, a, b in itertools.product(TWO, range(1, 10), range(1, 10)):
        ok = allowed(card, a, b, targets, fixed)
        assert (g.check({"do": "play", "card": card, "planets": [a, b]}) is None) == ok, \
            (card, a, b)
        # CX is ordered (control first); SW and BM are offered once per pair.
        if card in ("CX0", "CX1") or a < b:
            assert ((card, (a, b)) in offered) == ok, (card, a, b)
