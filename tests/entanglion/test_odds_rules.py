"""The odds shown to the players, pinned position by position against values worked out
by hand from the rules (the d8, the detection track, where the players know the PROBE
lies), not by calling the odds module's own helpers.

Track values by detection space: 1 2 2 3 3 4 4 5 5 6 7 X. A check succeeds when the
modified d8 is greater than the track value; a PROBE detects on a modified 3 or less
(3 in 8 unmodified). Each test is named by the rule it pins.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.games.entanglion import odds
from companion.games.entanglion.board import RING

from helpers import M, R, at, game, play

HANDS = {M: ["X", "H", "SWAP"], R: ["H", "H", "H"]}
CONTROL_FULL = ["H", "CNOT", "X", "SWAP", "H", "CNOT"]  # six engine slots


def _place_probe(g, index: int | None, stack_size: int = 10, discard: int | None = None,
                 reshuffled: bool = False, control: list[str] | None = None) -> None:
    """An engine stack of ``stack_size`` cards with the PROBE at ``index`` (None: in the
    discard); the other engine cards in the discard (or ``discard`` of them)."""
    s = g.state
    others = [c for c in s.engine_stack + s.engine_discard + s.engine_control if c != "PROBE"]
    s.engine_control = list(control or [])
    for c in s.engine_control:
        others.remove(c)
    stack = others[:stack_size - (index is not None)]
    rest = others[len(stack):]
    if index is not None:
        stack.insert(index, "PROBE")
    else:
        rest.insert(0, "PROBE")
    s.engine_stack = stack
    s.engine_discard = rest if discard is None else rest[:discard]
    if reshuffled:
        g.log.append({"type": "reshuffle", "deck": "engine"})


# ------------------------------------------------------------------ probe_drawn


# How many cards each input draws, so where a known PROBE is found: an exchange draws
# one (two with Quantum Gates), a navigation its one replacement (none when Dilution
# Refrigerator lowers the hand limit to 2 and the hand is already at it after the
# play), The Mechanic three; a retrieval or another event draws nothing.
@pytest.mark.parametrize("act, comps, found", [
    ({"do": "exchange", "card": "X"}, [], [1, 0, 0, 0]),
    ({"do": "exchange", "card": "X"}, ["quantum_gates"], [1, 1, 0, 0]),
    ({"do": "navigate", "card": "X"}, [], [1, 0, 0, 0]),
    ({"do": "navigate", "card": "X"}, ["dilution_refrigerator"], [0, 0, 0, 0]),
    ({"do": "event", "card": "the_mechanic"}, [], [1, 1, 1, 0]),
    ({"do": "event", "card": "heisenberg"}, [], [0, 0, 0, 0]),
    ({"do": "retrieve"}, [], [0, 0, 0, 0]),
])
def test_a_known_probe_is_drawn_by_exactly_the_cards_an_input_draws(act, comps, found):
    got = []
    for index in range(4):
        g = game(ships=at("ZERO"), hands=HANDS, ship_components={M: comps})
        _place_probe(g, index)
        got.append(odds.probe_drawn(g, {"player": M, **act}))
    assert got == found


def test_the_probe_chance_is_for_the_player_named_in_the_input():
    """Rubicon's exchange with Rubicon's Quantum Gates draws two cards, even on
    Mercurial's turn: the PROBE second in the stack is drawn."""
    g = game(ships=at("ZERO"), hands=HANDS, ship_components={R: ["quantum_gates"]})
    _place_probe(g, 1)
    assert g.state.turn_player == M
    assert odds.probe_drawn(g, {"player": R, "do": "exchange", "card": "H"}) == 1
    assert odds.probe_drawn(g, {"player": M, "do": "exchange", "card": "X"}) == 0


def test_an_unknown_probe_is_one_of_the_unseen_cards():
    """After a reshuffle, two draws from a stack of 2 surely draw it; one draw from a
    stack of 4 has 1 in 4."""
    g = game(ships=at("ZERO"), hands=HANDS, ship_components={M: ["quantum_gates"]})
    _place_probe(g, 0, stack_size=2, reshuffled=True)
    assert odds.probe_drawn(g, {"player": M, "do": "exchange", "card": "X"}) == 1
    g = game(ships=at("ZERO"), hands=HANDS)
    _place_probe(g, 0, stack_size=4, reshuffled=True)
    assert odds.probe_drawn(g, {"player": M, "do": "exchange", "card": "X"}) == Fraction(1, 4)


def test_the_discard_reshuffled_mid_draw_holds_the_card_given_up():
    """One card left, the PROBE in a discard of 10: an exchange with Quantum Gates first
    puts the card given up on the discard (11), draws the last card, then the discard
    is reshuffled into the stack and the second draw is the PROBE 1 time in 11."""
    g = game(ships=at("ZERO"), hands=HANDS, ship_components={M: ["quantum_gates"]})
    _place_probe(g, None, stack_size=1, discard=10)
    assert len(g.state.engine_discard) == 10 and "PROBE" in g.state.engine_discard
    assert odds.probe_drawn(g, {"player": M, "do": "exchange", "card": "X"}) == Fraction(1, 11)


def test_the_mechanic_reshuffles_a_discard_that_holds_the_probe():
    """Two cards left and the PROBE in a discard of 10: The Mechanic's third card comes
    from the reshuffled discard, the PROBE 1 time in 10."""
    g = game(ships=at("ZERO"), hands=HANDS)
    _place_probe(g, None, stack_size=2, discard=10)
    assert odds.probe_drawn(g, {"player": M, "do": "event", "card": "the_mechanic"}) == \
        Fraction(1, 10)


def test_a_navigation_with_full_control_discards_the_card_played_before_reshuffling():
    """Ruling Q5: with the six slots full the card played goes to the discard. The
    PROBE known on top is drawn, rolled (no effect 5 in 8 at space 5), the stack is
    empty, and the discard (10 cards, the card played and the PROBE: 12) is reshuffled
    for the replacement: the PROBE again 1 time in 12, and it moves the rate 3 in 8."""
    g = game(ships=at("PHI_PLUS"), hands=HANDS, detection=5)
    _place_probe(g, 0, stack_size=1, discard=10, control=CONTROL_FULL)
    o = odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"})
    stays = Fraction(5, 8) * (1 - Fraction(1, 12) * Fraction(3, 8))
    assert o.probe == 1 - stays
    # Without a full control the pile is 11.
    g = game(ships=at("PHI_PLUS"), hands=HANDS, detection=5)
    _place_probe(g, 0, stack_size=1, discard=10, control=CONTROL_FULL[:5])
    o = odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"})
    assert o.probe == 1 - Fraction(5, 8) * (1 - Fraction(1, 11) * Fraction(3, 8))



def test_a_probe_drawn_last_is_reshuffled_and_may_come_again_before_the_check():
    """Space 9, the PROBE known to be the last card. Navigating draws it: it detects on
    1-3 (3 in 8), moving the rate to 10. The stack is then empty, so the discard (12
    cards and the PROBE: 13) is reshuffled and the replacement is drawn from it: the
    PROBE again 1 time in 13, and again it may move the rate (to 10, or from 10 to 11,
    one short of the X). The orbital check needs more than 5, 6 or 7 on spaces 9, 10
    and 11: 3, 2 or 1 faces of 8."""
    g = game(ships=at("PHI_PLUS"), hands=HANDS, detection=9)
    _place_probe(g, 0, stack_size=1, control=CONTROL_FULL[:5])
    n = len(g.state.engine_discard) + 1
    assert g.state.engine_stack == ["PROBE"] and n == 13
    d = Fraction(3, 8)
    again = Fraction(1, n)
    at9 = (1 - d) * (1 - again * d)
    at10 = (1 - d) * again * d + d * (1 - again * d)
    at11 = d * again * d
    assert at9 + at10 + at11 == 1
    o = odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"})
    evaded = at9 * Fraction(3, 8) + at10 * Fraction(2, 8) + at11 * Fraction(1, 8)
    assert o.outcomes == {"evaded": evaded, "detected": 1 - evaded}
    assert (o.chance, o.probe) == (evaded, 1 - at9)
    assert (o.beat, o.need) == (5, 6)  # as the track stands now
