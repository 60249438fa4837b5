"""QLANET's eight card types as data: names, costs, which take two planets.

A card is its short name, the same string the tag registry stores (``"CX0"``). Hands
are face up, so a card in hand is public. Costs follow the rules text and the app
(docs/rules/qlanet.md); CX0/CX1 cost 3 unless the ``cx_cost`` option says 2 (ruling C1).
"""

from __future__ import annotations

X, H, Z, M, CX0, CX1, SW, BM = "X", "H", "Z", "M", "CX0", "CX1", "SW", "BM"
CARDS = (X, H, Z, M, CX0, CX1, SW, BM)  # the canonical order everywhere

COSTS = {X: 6, H: 3, Z: 2, M: 10, CX0: 3, CX1: 3, SW: 4, BM: 8}
ONE_PLANET = (X, H, Z, M)
TWO_PLANET = (CX0, CX1, SW, BM)
# CX cards care which planet comes first (the control); SW and BM do not.
ORDERED = (CX0, CX1)

# The physical deck of ruling D2's "deck" refill: 6 of each type.
DECK_COUNTS = dict.fromkeys(CARDS, 6)

NAMES = {
    X: "X (swap 0 and 1)",
    H: "H (swap + with 0 and - with 1)",
    Z: "Z (swap + and -)",
    M: "M (measure: fix the planet)",
    CX0: "CX0 (if the first planet is 0, flip the second)",
    CX1: "CX1 (if the first planet is 1, flip the second)",
    SW: "SW (swap two planets)",
    BM: "BM (Bell measurement: entangle two planets with a secret code)",
}


def cost(card: str, options: dict) -> int:
    """What a card adds to its player's running total under these options."""
    if card in ORDERED:
        return options["cx_cost"]
    return COSTS[card]


def planets_needed(card: str) -> int:
    return 2 if card in TWO_PLANET else 1
