"""QNO's 112 cards as data.

A card is a short string, the same one the tag registry stores as the card's name:

* a state card is ``"<state>_<value>"``: ``"01_7"``, ``"10_skip"``, ``"11_draw_two"``;
* a gate card is its gate: ``"H"``, ``"X"``, ``"CNOT"``.

States are two-qubit basis kets written ``|q1 q0>`` (Qiskit order: q0 is the right
digit). Values are ``"0"``-``"9"`` or one of the three actions.
"""

from __future__ import annotations

STATES = ("00", "01", "10", "11")
NUMBERS = tuple(str(n) for n in range(10))
DRAW_TWO, SKIP, REVERSE = "draw_two", "skip", "reverse"
ACTIONS = (DRAW_TWO, SKIP, REVERSE)
VALUES = NUMBERS + ACTIONS
H, X, CNOT = "H", "X", "CNOT"
GATES = (H, X, CNOT)

# Per state: one 0, two each of 1-9 and of each action (25); four of each gate.
STATE_COUNTS = {value: 1 if value == "0" else 2 for value in VALUES}
GATE_COUNT = 4
HAND_SIZE = 5

# Card colours follow the state (as in the original and its GUI).
COLOUR_NAMES = {"00": "red", "01": "yellow", "10": "green", "11": "blue"}

VALUE_LABEL = {DRAW_TWO: "+2", SKIP: "Skip", REVERSE: "Rev"}


def state_card(state: str, value: str) -> str:
    return f"{state}_{value}"


def _split(card: str) -> tuple[str | None, str]:
    if card in GATES:
        return None, card
    state, sep, value = card.partition("_")
    if not sep or state not in STATES or value not in VALUES:
        raise ValueError(f"not a QNO card: {card!r}")
    return state, value


def parse(card: str) -> tuple[str | None, str]:
    """``"01_7"`` -> ``("01", "7")``; ``"CNOT"`` -> ``(None, "CNOT")``.

    Raises ``ValueError`` for a name that is not a QNO card.
    """
    try:
        return _PARSED[card]
    except (KeyError, TypeError):
        return _split(card)  # raises the error that says why


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in _PARSED


def is_gate(card: str) -> bool:
    return card in GATES


def full_deck() -> list[str]:
    """All 112 cards in a fixed order (the engine shuffles a copy)."""
    deck = [state_card(s, v) for s in STATES for v, n in STATE_COUNTS.items() for _ in range(n)]
    deck += [g for g in GATES for _ in range(GATE_COUNT)]
    return deck


CARD_NAMES = tuple(dict.fromkeys(full_deck()))  # each distinct card once, deck order
_PARSED = {card: _split(card) for card in CARD_NAMES}  # parse() is on the hot path
COUNTS = {card: full_deck().count(card) for card in CARD_NAMES}


def ket(state: str) -> str:
    return f"|{state}>"


def label(card: str) -> str:
    """Short words for a screen: ``"|01> 7"``, ``"|10> Skip"``, ``"CNOT"``."""
    state, value = parse(card)
    if state is None:
        return value
    return f"{ket(state)} {VALUE_LABEL.get(value, value)}"
