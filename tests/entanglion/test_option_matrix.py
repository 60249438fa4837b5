"""Entanglion's rulings played together: each non-default ruling with those it meets.

Every combination of the rulings that act in one situation, with the dice and the
decks given, against an expectation written from docs/rules/entanglion.md (rulings
Q2, Q4, Q7, Q8, Q9, Q14). The random games of test_property.py vary every ruling at
once; these pin what each combination must do.
"""

from __future__ import annotations

import itertools

import pytest

from helpers import M, R, RING, at, entries, game, play, rolls, six_slot_game

QEC, CI = "quantum_error_correction", "control_infrastructure"


@pytest.mark.parametrize("clears, double, order, floor", list(itertools.product(
    (True, False), (True, False), ("jump_raise_event", "jump_event_raise"),
    ("clamp", "no_effect"))))
def test_detected_as_slot_six_fills(clears, double, order, floor):
    """Rubicon's X fills slot 6 and is detected on OMEGA ZERO (d8 1, Centarious 0):
    the detection event is Wave Function Collapse with the rate at space 2, and the
    next event is Schrodinger (+1)."""
    g = six_slot_game(events=["wave_function_collapse", "schrodinger"], dice=[1, 0],
                      detection=2, options={
                          "detection_event_clears_engine_control": clears,
                          "double_event": double, "detection_order": order,
                          "wave_function_collapse_floor": floor})
    for card in ("CNOT", "CNOT", "CNOT", "SWAP", "SWAP"):
        play(g, "navigate", card)
    play(g, "navigate", "X")
    assert g.state.pos == at("ZERO")
    # Q9: the rate goes up one space before the event, or after it. Q14: Wave Function
    # Collapse goes down two spaces, clamped at space 1, or does nothing below it.
    if order == "jump_raise_event":
        space = 3 - 2  # 2 -> 3 -> 1: no floor reached either way
    else:
        space = (1 if floor == "clamp" else 2) + 1
    # Q7: the detection event clears engine control, or leaves it full. Q8: a sixth
    # slot filled this turn still brings the end-of-turn event (two events), or only
    # if engine control is still full.
    second = double or not clears
    assert g.state.detection == space + second
    causes = [e["cause"] for e in entries(g, "quantum_event")]
    assert causes == ["orbital detection", "engine control full"][:1 + second]
    assert g.state.engine_control == []  # whichever event came last cleared it
    assert g.state.turn_player == M


@pytest.mark.parametrize("scope, all_rolls, holder, comp", list(itertools.product(
    ("ship", "team"), (False, True), (M, R), (QEC, CI))))
def test_heisenberg_roll_modifiers(scope, all_rolls, holder, comp):
    """Q4 decides whether Quantum Error Correction (+1) or Control Infrastructure (-1)
    modify a Heisenberg roll at all; Q2 whether the other ship's component counts."""
    g = game(held={M: ["heisenberg"]}, ship_components={holder: [comp]}, dice=[3],
             options={"component_scope": scope, "modifiers_on_all_rolls": all_rolls})
    play(g, "event", "heisenberg")
    applies = all_rolls and (holder == M or scope == "team")
    modifier = (1 if comp == QEC else -1) if applies else 0
    (roll,) = rolls(g)
    assert roll["modifier"] == modifier
    assert g.state.pos == at(RING[(3 + modifier) % len(RING)])


@pytest.mark.parametrize("scope, all_rolls, holder", list(itertools.product(
    ("ship", "team"), (False, True), (M, R))))
def test_orbital_defence_modifiers(scope, all_rolls, holder):
    """A defence roll is modified whatever Q4 says; Q2 decides whose component counts.
    Mercurial arrives at PSI PLUS at detection value 3 (space 4) and rolls 3."""
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             components={"PSI_PLUS": "qubit_interconnect"}, detection=4,
             ship_components={holder: [QEC]}, dice=[3, 0], events=["heisenberg"],
             options={"component_scope": scope, "modifiers_on_all_rolls": all_rolls})
    play(g, "navigate", "X")
    applies = holder == M or scope == "team"
    (roll, *_) = rolls(g)
    assert roll["modifier"] == (1 if applies else 0)
    assert (g.state.pos == at("PSI_PLUS")) == applies  # 3+1 beats 3; 3 alone does not
    assert g.state.detection == (4 if applies else 5)
