"""Rule options (rulings Q1-Q20, docs/rules/entanglion.md#options-and-rulings).

Options that pin an event or component are exercised with that event or component in
test_events.py / test_components.py; the rest of their behaviour is pinned here.
"""

from __future__ import annotations

import re

import pytest

from companion.games.entanglion import Entanglion, IllegalAction, SetupError
from companion.games.entanglion.options import RULINGS, make_options

from helpers import M, R, at, choose, entries, game, play, rolls

# Which ruling(s) each option implements (typed from docs/rules/entanglion.md).
Q_NUMBERS = {
    "start_space": ["Q11"],
    "dice": [],
    "deck": [],
    "spooky_action_count": ["Q1"],
    "component_scope": ["Q2", "Q20"],
    "bit_flip_error": ["Q3"],
    "modifiers_on_all_rolls": ["Q4"],
    "mechanic_fills_slots": ["Q5"],
    "quantum_shuffle_gathers": ["Q6"],
    "detection_event_clears_engine_control": ["Q7"],
    "double_event": ["Q8"],
    "detection_order": ["Q9"],
    "tunnel_timing": ["Q10"],
    "bennett_dilution_refrigerator": ["Q12"],
    "cnot_phase_kickback": ["Q13"],
    "wave_function_collapse_floor": ["Q14"],
    "interconnect_anywhere": ["Q15"],
    "heisenberg_from_outside": ["Q16"],
    "event_hand_limit": ["Q17"],
    "quantum_programming": ["Q18"],
    "quantum_programming_on_cnot_entry": ["Q19"],
}

# The recommended rulings (docs/rules/entanglion.md) are the defaults.
RECOMMENDED = {
    "start_space": 1, "dice": "auto", "deck": "virtual", "spooky_action_count": "unoccupied",
    "component_scope": "ship", "bit_flip_error": "set", "modifiers_on_all_rolls": False,
    "mechanic_fills_slots": False, "quantum_shuffle_gathers": "deck_and_discard",
    "detection_event_clears_engine_control": True, "double_event": True,
    "detection_order": "jump_raise_event", "tunnel_timing": "before_roll",
    "bennett_dilution_refrigerator": "rebalance", "cnot_phase_kickback": False,
    "wave_function_collapse_floor": "clamp", "interconnect_anywhere": True,
    "heisenberg_from_outside": True, "event_hand_limit": None,
    "quantum_programming": "no_component", "quantum_programming_on_cnot_entry": True,
}

ALLOWED = [(name, value) for name, c in RULINGS.items() for value in c.allowed]


def bad_values(name):
    allowed = RULINGS[name].allowed
    candidates = ["nonsense", -1, 99, 2.5, [], {}]
    # a bool must not pass for 0/1 and 0/1 must not pass for a bool
    if any(type(a) is bool for a in allowed):
        candidates += [0, 1, "true", None]
    if any(type(a) is int and type(a) is not bool for a in allowed):
        candidates += [True, "2"]
    if None not in allowed:
        candidates.append(None)
    return [v for v in candidates
            if not any(v == a and type(v) is type(a) for a in allowed)]


BAD = [(name, value) for name in RULINGS for value in bad_values(name)]


def test_every_option_is_listed_here():
    assert set(RULINGS) == set(Q_NUMBERS)


def test_defaults_are_the_recommended_rulings():
    assert {name: c.default for name, c in RULINGS.items()} == RECOMMENDED
    assert make_options() == RECOMMENDED
    assert Entanglion(seed=0).state.options == RECOMMENDED


@pytest.mark.parametrize("name, value", ALLOWED)
def test_each_allowed_value_is_accepted(name, value):
    g = Entanglion(seed=0, options={name: value})
    assert g.state.options[name] == value
    assert type(g.state.options[name]) is type(value)


@pytest.mark.parametrize("name, value", BAD)
def test_bad_values_are_rejected(name, value):
    with pytest.raises(SetupError, match=name):
        Entanglion(seed=0, options={name: value})


@pytest.mark.parametrize("options", [{"no_such_option": True}, {"Double_Event": True},
                                     {"double_event": True, "dbl_event": False}])
def test_unknown_options_are_rejected(options):
    with pytest.raises(SetupError, match="unknown"):
        Entanglion(seed=0, options=options)


@pytest.mark.parametrize("name", sorted(RULINGS))
def test_doc_mentions_its_ruling(name):
    doc = RULINGS[name].doc
    assert len(doc) > 20
    for q in Q_NUMBERS[name]:
        assert re.search(rf"\b{q}\b", doc), (name, q)


def test_every_ruling_has_an_option():
    docs = " ".join(c.doc for c in RULINGS.values())
    for n in range(1, 21):
        assert re.search(rf"\bQ{n}\b", docs), f"Q{n}"


# ------------------------------------------------------------- Q13 kickback

@pytest.mark.parametrize("ships, player, kickback, after", [
    (("MINUS", "PLUS"), M, True, ("MINUS", "MINUS")),
    (("MINUS", "MINUS"), M, True, ("MINUS", "PLUS")),
    (("PLUS", "MINUS"), R, True, ("MINUS", "MINUS")),
    (("MINUS", "MINUS"), R, True, ("PLUS", "MINUS")),
    (("PLUS", "MINUS"), M, True, ("PLUS", "MINUS")),    # player's ship on PLUS: nothing
    (("PLUS", "PLUS"), M, True, ("PLUS", "PLUS")),
    (("MINUS", "ZERO"), M, True, ("MINUS", "ZERO")),    # other ship not in Superious
    (("MINUS", "PLUS"), M, False, ("MINUS", "PLUS")),   # default: the board, no path
    (("MINUS", "MINUS"), R, False, ("MINUS", "MINUS")),
])
def test_q13_cnot_phase_kickback(ships, player, kickback, after):
    hands = {M: ["H", "H", "H"], R: ["H", "H", "H"]}
    hands[player] = ["CNOT", "H", "H"]
    g = game(first=player, ships=ships, hands=hands, options={"cnot_phase_kickback": kickback})
    play(g, "navigate", "CNOT")
    assert g.state.pos == after
    assert g.state.engine_control == [["CNOT", player]]
    assert rolls(g) == []


# -------------------------------------------------- other rulings' behaviour

ARRIVE = dict(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]})


@pytest.mark.parametrize("clears", [True, False])
def test_q7_detection_event_clears_engine_control(clears):
    g = game(**ARRIVE, dice=[1, 0], events=["heisenberg"],
             options={"detection_event_clears_engine_control": clears})
    play(g, "navigate", "X")
    assert g.state.engine_control == ([] if clears else [["X", M]])


@pytest.mark.parametrize("order, status, detection", [
    ("jump_raise_event", "lost", 12),      # X reached before the event is drawn
    ("jump_event_raise", "playing", 10),   # Wave Function Collapse first: 11 -> 9 -> 10
])
def test_q9_detection_order(order, status, detection):
    g = game(**ARRIVE, detection=11, dice=[1, 0], events=["wave_function_collapse"],
             options={"detection_order": order})
    play(g, "navigate", "X")
    assert g.state.status == status and g.state.detection == detection
    assert g.state.pos == at("ZERO")


def test_q10_tunnel_after_failure_option_offers_it_after_a_failed_roll():
    g = game(**ARRIVE, held={M: ["quantum_tunnel"]}, dice=[1, 0],
             options={"tunnel_timing": "after_failure"})
    play(g, "navigate", "X")
    assert g.pending["kind"] == "quantum_tunnel"
    assert rolls(g, "orbital defence")[0]["result"] == "detected"
    choose(g, "use")
    assert g.state.pos == at("PSI_PLUS") and g.state.detection == 1


def test_q10_tunnel_after_failure_not_offered_after_success():
    g = game(**ARRIVE, held={M: ["quantum_tunnel"]}, dice=[8],
             options={"tunnel_timing": "after_failure"})
    play(g, "navigate", "X")
    assert g.pending is None and g.state.held_events[M] == ["quantum_tunnel"]


def test_q10_tunnel_after_failure_on_retrieve():
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"},
             held={M: ["quantum_tunnel"]}, dice=[1], options={"tunnel_timing": "after_failure"})
    play(g, "retrieve")
    assert g.pending["kind"] == "quantum_tunnel"
    choose(g, g.pending["options"][0])  # use
    assert g.state.ship_components[M] == ["quantum_gates"] and g.state.detection == 1


@pytest.mark.parametrize("limit, kept", [(None, True), (1, False), (2, True)])
def test_q17_event_hand_limit(limit, kept):
    g = game(**ARRIVE, held={M: ["heisenberg"]}, dice=[1, 0], events=["bennett"],
             options={"event_hand_limit": limit})
    play(g, "navigate", "X")
    assert ("bennett" in g.state.held_events[M]) == kept
    assert ("bennett" in g.state.event_discard) == (not kept)


@pytest.mark.parametrize("limit", [None, 1])
def test_q17_a_quantum_event_is_logged_with_its_cause_and_whether_the_card_is_kept(limit):
    """The log tells the orbital detection's Quantum Event (who, why) and the card drawn:
    kept, or (Q17) discarded for the event hand limit, which the entry names."""
    g = game(**ARRIVE, held={M: ["heisenberg"]}, dice=[1, 0], events=["bennett"],
             options={"event_hand_limit": limit})
    play(g, "navigate", "X")
    assert entries(g, "quantum_event") == [
        {"type": "quantum_event", "player": M, "cause": "orbital detection"}]
    kept = {"type": "event", "player": M, "card": "bennett", "kept": True}
    refused = {"type": "event", "player": M, "card": "bennett", "kept": False,
               "note": "event hand limit"}
    assert entries(g, "event") == [kept if limit is None else refused]


def q18_game(option):
    # Mercurial holds Quantum Programming; PSI PLUS has had no component since setup.
    return game(**ARRIVE, components={"PSI_PLUS": None}, ship_components={M: ["quantum_programming"]},
                dice=[8], options={"quantum_programming": option})


@pytest.mark.parametrize("option, checked", [("no_component", False), ("retrieved_here", True)])
def test_q18_quantum_programming_wording(option, checked):
    g = q18_game(option)
    play(g, "navigate", "X")
    assert bool(rolls(g, "orbital defence")) == checked


def test_q18_retrieved_here_covers_planets_emptied_by_retrieval():
    g = game(ships=at("PSI_PLUS"), hands={M: ["X", "H", "H"], R: ["X", "H", "H"]},
             components={"PSI_PLUS": "quantum_gates"}, ship_components={M: ["quantum_programming"]},
             dice=[8, 8], options={"quantum_programming": "retrieved_here"})
    play(g, "retrieve")                  # Mercurial retrieves Quantum Gates (8)
    play(g, "navigate", "X")             # Rubicon: PSI PLUS -> PHI PLUS, rolls 8
    n = len(g.log)
    play(g, "navigate", "X")             # Mercurial: back to PSI PLUS, bypass
    assert g.state.pos == at("PSI_PLUS")
    assert rolls(g, since=n) == [] and g.state.forced == []
    assert entries(g, "bypass", since=n)


def test_manual_dice_become_roll_prompts():
    g = game(**ARRIVE, options={"dice": "manual"}, events=["heisenberg"])
    play(g, "navigate", "X")
    p = g.pending
    assert p["kind"] == "roll" and p["player"] == M and p["options"] == list(range(1, 9))
    choose(g, 1)
    assert g.pending["kind"] == "roll" and g.pending["options"] == [0, 1]
    choose(g, 1)
    assert g.state.pos == at("ONE") and g.state.detection == 2
    assert g.pending is None
    with pytest.raises(IllegalAction, match="nothing to choose"):
        g.push({"player": R, "do": "choose", "value": 1})


def test_forced_dice_come_before_manual_prompts():
    g = game(**ARRIVE, options={"dice": "manual"}, dice=[8])
    play(g, "navigate", "X")
    assert g.pending is None and rolls(g)[0]["raw"] == 8
