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


def test_no_replacement_is_drawn_when_dilution_refrigerator_keeps_the_hand_at_two():
    """With Dilution Refrigerator the hand limit is 2: after playing one of two cards the
    hand is short by one, so exactly one card is drawn before the check."""
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H"], R: ["H", "H", "H"]},
             ship_components={M: ["dilution_refrigerator"]}, detection=5)
    _place_probe(g, 0)
    o = odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"})
    assert o.probe == Fraction(3, 8)
    g.state.hands[M] = ["X", "H", "SWAP"]  # at the limit of 3 (no Refrigerator) ...
    g.state.ship_components[M] = []
    assert odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"}).probe == Fraction(3, 8)
    g.state.ship_components[M] = ["dilution_refrigerator"]  # ... over the limit of 2
    o = odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"})
    assert (o.probe, o.chance) == (0, Fraction(5, 8))


# ------------------------------------------------------------------ what an Odds tells


def test_an_orbital_check_tells_its_planet_and_modifier():
    g = game(ships=at("PHI_PLUS"), hands=HANDS, detection=6,
             ship_components={M: ["quantum_error_correction"]})
    o = odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"})
    # Space 6: beat 4; +1: 4 or more wins (5 in 8).
    assert (o.purpose, o.player, o.beat, o.modifier, o.need, o.chance) == (
        "orbital defence", M, 4, 1, 4, Fraction(5, 8))
    assert o.extra == {"planet": "PSI_PLUS"}  # X on Mercurial: |01>+|10>


def test_a_check_is_for_the_player_named_in_the_input():
    """Rubicon retrieving on Mercurial's turn (as the box asks for each ship's action)
    rolls with Rubicon's own modifier."""
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             ship_components={R: ["control_infrastructure"]})
    assert g.state.turn_player == M
    o = odds.moves(g, [{"player": R, "do": "retrieve"}, {"do": "retrieve"}])
    assert [(x.player, x.modifier, x.chance) for x in o] == [
        (R, -1, Fraction(3, 8)), (M, 0, Fraction(4, 8))]


@pytest.mark.parametrize("all_rolls, modifier", [(False, 0), (True, 1)])
def test_heisenberg_lands_on_each_ring_planet_one_time_in_eight(all_rolls, modifier):
    """The die picks one of the eight ring planets, each 1 in 8 whatever the modifier
    (ruling Q4 applies it to Heisenberg too: it shifts the ring, not the spread);
    Magnetic Shielding may re-roll it."""
    g = game(ships=at("PHI_PLUS"), held={M: ["heisenberg", "the_mechanic"]},
             ship_components={M: ["quantum_error_correction", "magnetic_shielding"]},
             options={"modifiers_on_all_rolls": all_rolls})
    o = odds.action_odds(g, {"player": M, "do": "event", "card": "heisenberg"})
    assert o == odds.Odds("heisenberg", M, None, {p: Fraction(1, 8) for p in RING},
                          modifier=modifier, reroll=True)
    assert odds.action_odds(g, {"player": M, "do": "event", "card": "the_mechanic"}) is None


# ------------------------------------------------------------------ prompts


def test_a_probe_rolled_by_hand_needs_more_than_3_whatever_the_track():
    """Space 8 (track 5), the PROBE on top, dice by hand, Quantum Error Correction: the
    PROBE's roll needs a modified 4 (a face of 3 or more: 6 in 8), and Quantum Tunnel
    does not cover a PROBE."""
    g = game(ships=at("PHI_PLUS"), hands=HANDS, detection=8, stack=["PROBE"],
             held={M: ["quantum_tunnel"]}, ship_components={M: ["quantum_error_correction"]},
             options={"dice": "manual"})
    play(g, "navigate", "X")
    assert (g.pending["kind"], g.pending["purpose"]) == ("roll", "probe")
    o = odds.prompt_odds(g)
    assert (o.purpose, o.beat, o.modifier, o.need, o.chance, o.tunnel) == (
        "probe", 3, 1, 3, Fraction(6, 8), False)
    assert o.outcomes == {"no effect": Fraction(6, 8), "detected": Fraction(2, 8)}
    assert [odds.answer_odds(g, face) for face in (2, 3)] == [0, 1]


def test_heisenbergs_die_by_hand_has_nothing_to_win():
    g = game(ships=at("PHI_PLUS"), held={M: ["heisenberg"]}, options={"dice": "manual"})
    play(g, "event", "heisenberg")
    assert (g.pending["kind"], g.pending["purpose"]) == ("roll", "heisenberg")
    assert odds.prompt_odds(g) is None
    assert all(odds.answer_odds(g, face) is None for face in range(1, 9))
    assert all(e["odds"] is None for e in odds.legal(g))


def test_a_tunnel_offered_after_a_failed_roll_cannot_undo_accepting_it():
    """Ruling Q10 after_failure: the roll failed; accepting it is a sure detection."""
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             held={M: ["quantum_tunnel"]}, dice=[2],
             options={"tunnel_timing": "after_failure"})
    play(g, "retrieve")
    assert g.pending["kind"] == "quantum_tunnel" and g.pending["options"] == ["use", "accept"]
    assert odds.answer_odds(g, "accept") == 0
    assert odds.answer_odds(g, "use") is None


@pytest.mark.parametrize("raw, kept", [(3, 0), (4, 1)])
def test_keeping_a_shielded_roll_counts_its_modifier(raw, kept):
    """Space 6 (beat 4) with Quantum Error Correction: a kept 3 makes 4 (fails), a kept
    4 makes 5 (wins); the re-roll needs a face of 4 or more (5 in 8). The box lists
    both answers with those chances."""
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             ship_components={M: ["magnetic_shielding", "quantum_error_correction"]},
             dice=[raw])
    play(g, "retrieve")
    assert g.pending["kind"] == "magnetic_shielding"
    assert odds.answer_odds(g, "keep") == kept
    assert [(e["action"]["value"], e["odds"]) for e in odds.legal(g)] == [
        ("keep", float(kept)), ("reroll", 5 / 8)]


def test_a_die_entered_by_hand_counts_its_modifier():
    """Space 6 (beat 4) with Quantum Error Correction: a face of 4 makes 5 and wins, a
    face of 3 makes 4 and fails."""
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             ship_components={M: ["quantum_error_correction"]}, options={"dice": "manual"})
    play(g, "retrieve")
    assert [odds.answer_odds(g, face) for face in (3, 4)] == [0, 1]
