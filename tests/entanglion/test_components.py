"""The eight quantum components (docs/rules/entanglion.md; rulings Q2, Q4, Q12, Q15, Q18-Q20)."""

from __future__ import annotations

import pytest

from companion.games.entanglion import IllegalAction

from helpers import (
    M, R, RING, all_engine_cards, at, choose, entries, full_engine_deck, game, play, rolls,
)

QEC, CI = "quantum_error_correction", "control_infrastructure"
MS, PQ, QP = "magnetic_shielding", "physical_qubits", "quantum_programming"
QG, DR, QI = "quantum_gates", "dilution_refrigerator", "qubit_interconnect"

ARRIVE = dict(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]})


def orbital(comps_m=(), comps_r=(), detection=4, dice=(), **kw):
    """Mercurial plays X from PHI PLUS to PSI PLUS (a planet with a component)."""
    g = game(**ARRIVE, ship_components={M: list(comps_m), R: list(comps_r)},
             components={"PSI_PLUS": "qubit_interconnect"} if QI not in (*comps_m, *comps_r)
             else None, detection=detection, dice=list(dice), events=["heisenberg"], **kw)
    play(g, "navigate", "X")
    return g


def ground(comps_m=(), comps_r=(), detection=4, dice=(), **kw):
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": QG},
             ship_components={M: list(comps_m), R: list(comps_r)}, detection=detection,
             dice=list(dice), **kw)
    play(g, "retrieve")
    return g


def probe(comps_m=(), comps_r=(), detection=4, dice=(), **kw):
    g = game(hands={M: ["SWAP", "H", "H"], R: ["H", "H", "H"]}, stack=["PROBE", "X"],
             ship_components={M: list(comps_m), R: list(comps_r)}, detection=detection,
             dice=list(dice), **kw)
    play(g, "navigate", "SWAP")
    return g


def orbital_result(g):
    return rolls(g, "orbital defence")[0]["result"]


def ground_result(g):
    return rolls(g, "ground defence")[0]["result"]


# --------------------------------------------- die modifiers (QEC, Control Infra.)

# detection space 4: track value 3; success needs a modified roll of 4+.
@pytest.mark.parametrize("comps, raw, modifier, ok", [
    ((), 3, 0, False), ((), 4, 0, True),
    ((QEC,), 3, 1, True), ((QEC,), 2, 1, False),
    ((CI,), 4, -1, False), ((CI,), 5, -1, True),
    ((QEC, CI), 3, 0, False), ((QEC, CI), 4, 0, True),
])
@pytest.mark.parametrize("check", ["orbital", "ground"])
def test_defence_roll_modifiers(check, comps, raw, modifier, ok):
    g = (orbital if check == "orbital" else ground)(comps, dice=[raw, 0])
    (entry,) = rolls(g, f"{check} defence")
    assert (entry["raw"], entry["modifier"], entry["modified"]) == (raw, modifier, raw + modifier)
    if check == "orbital":
        assert orbital_result(g) == ("evaded" if ok else "detected")
        assert g.state.detection == (4 if ok else 5)
    else:
        assert (QG in g.state.ship_components[M]) == ok
        assert g.state.detection == (4 if ok else 5)


@pytest.mark.parametrize("comps, raw, raised", [
    ((), 3, True), ((), 4, False),
    ((QEC,), 3, False), ((QEC,), 2, True),
    ((CI,), 4, True), ((CI,), 5, False),
    ((QEC, CI), 3, True), ((QEC, CI), 4, False),
])
def test_probe_roll_modifiers(comps, raw, raised):
    g = probe(comps, dice=[raw])
    assert g.state.detection == (5 if raised else 4)


@pytest.mark.parametrize("comp, raw, default_planet, all_rolls_planet", [
    (QEC, 7, "PSI_PLUS", "OMEGA_ZERO"),
    (QEC, 1, "OMEGA_ONE", "PSI_MINUS"),
    (CI, 2, "PSI_MINUS", "OMEGA_ONE"),
])
def test_modifiers_not_on_heisenberg_unless_option(comp, raw, default_planet, all_rolls_planet):
    for all_rolls, planet in ((False, default_planet), (True, all_rolls_planet)):
        g = game(held={M: ["heisenberg"]}, ship_components={M: [comp]}, dice=[raw],
                 options={"modifiers_on_all_rolls": all_rolls})
        play(g, "event", "heisenberg")
        assert g.state.pos == at(planet), all_rolls


def spooky_with(comp, raw, all_rolls):
    # Mercurial holds Quantum Gates and ``comp``; every planet but OMEGA ZERO is free
    # except PSI MINUS. Detected (raw 1 on value 2), then Spooky Action.
    others = [QI, DR, MS, PQ, QP, QEC, CI]
    others.remove(comp)
    components = dict.fromkeys(RING)
    components["PSI_MINUS"] = others[0]
    g = game(**ARRIVE, components=components,
             ship_components={M: [QG, comp], R: others[1:]}, detection=2,
             events=["spooky_action"], dice=[1, 0, raw], seed=3,
             options={"modifiers_on_all_rolls": all_rolls})
    play(g, "navigate", "X")
    return g


def test_modifiers_not_on_spooky_action_unless_option():
    # free planets clockwise after OMEGA ZERO: OMEGA_ONE, PHI_MINUS, OMEGA_THREE, ...
    g = spooky_with(QEC, 1, False)
    (roll,) = rolls(g, "spooky action")
    assert roll["modifier"] == 0 and entries(g, "teleported")[0]["planet"] == "OMEGA_ONE"
    g = spooky_with(QEC, 1, True)
    (roll,) = rolls(g, "spooky action")
    assert roll["modifier"] == 1 and entries(g, "teleported")[0]["planet"] == "PHI_MINUS"


# ------------------------------------------------------------ Magnetic Shielding

def test_magnetic_shielding_prompt_after_the_first_roll():
    g = orbital((MS,), dice=[2, 7])
    p = g.pending
    assert p["kind"] == "magnetic_shielding" and p["player"] == M
    assert sorted(p["options"]) == ["keep", "reroll"]
    assert p.get("raw") == 2
    assert g.state.forced == [7]  # the first die is rolled, the second not yet


def test_magnetic_shielding_reroll_replaces_the_first_result():
    g = orbital((MS,), dice=[2, 7])
    choose(g, "reroll")
    (entry,) = rolls(g, "orbital defence")
    assert entry["raw"] == 2 and entry["reroll"] == 7 and entry["modified"] == 7
    assert entry["result"] == "evaded" and g.state.detection == 4
    assert g.pending is None  # one re-roll per roll


def test_magnetic_shielding_reroll_replaces_even_when_worse():
    g = orbital((MS,), dice=[7, 2, 0])
    choose(g, "reroll")
    assert orbital_result(g) == "detected" and g.state.detection == 5


def test_magnetic_shielding_keep():
    g = orbital((MS,), dice=[2, 1])
    choose(g, "keep")
    (entry,) = rolls(g, "orbital defence")
    assert "reroll" not in entry and entry["modified"] == 2
    assert entry["result"] == "detected"
    # no second d8: the next forced die (1) went to the Centarious jump
    assert g.state.forced == [] and g.state.pos == at("ONE")


def test_magnetic_shielding_then_modifier():
    g = orbital((MS, QEC), dice=[1, 3])
    choose(g, "reroll")
    (entry,) = rolls(g, "orbital defence")
    assert (entry["raw"], entry["reroll"], entry["modified"], entry["result"]) == (1, 3, 4, "evaded")


@pytest.mark.parametrize("builder, purpose", [(ground, "ground defence"), (probe, "probe")])
def test_magnetic_shielding_on_ground_and_probe_rolls(builder, purpose):
    g = builder((MS,), dice=[1, 8])
    assert g.pending["kind"] == "magnetic_shielding"
    choose(g, "reroll")
    (entry,) = rolls(g, purpose)
    assert entry["reroll"] == 8 and g.state.detection == 4


def test_magnetic_shielding_on_heisenberg():
    g = game(held={M: ["heisenberg"]}, ship_components={M: [MS]}, dice=[1, 4])
    play(g, "event", "heisenberg")
    choose(g, "reroll")
    assert g.state.pos == at("OMEGA_THREE")


def test_magnetic_shielding_belongs_to_its_ship():
    g = orbital((), (MS,), dice=[2, 0])
    assert g.pending is None and orbital_result(g) == "detected"


# -------------------------------------------------------------- Physical Qubits

def test_physical_qubits_choose_where_the_ships_land():
    g = orbital((PQ,), dice=[1, 1])
    p = g.pending
    assert p["kind"] == "physical_qubits" and p["player"] == M
    expected = [{M: a, R: b} for a in ("ZERO", "ONE") for b in ("ZERO", "ONE")]
    assert sorted(p["options"], key=str) == sorted(expected, key=str)
    choose(g, {M: "ONE", R: "ZERO"})
    s = g.state
    assert s.pos == ("ONE", "ZERO")
    assert rolls(g, "orbital detection jump") == [] and s.forced == [1]  # no Centarious die
    assert s.detection == 5
    assert entries(g, "quantum_event") and s.held_events[M] == ["heisenberg"]
    assert s.engine_control == []


def test_physical_qubits_on_the_other_ship_do_not_help():  # Q20
    g = orbital((), (PQ,), dice=[1, 1])
    assert g.pending is None
    assert g.state.pos == at("ONE")


def test_physical_qubits_team_scope():
    g = orbital((), (PQ,), dice=[1, 1], options={"component_scope": "team"})
    assert g.pending["kind"] == "physical_qubits"


# ---------------------------------------------------------- Quantum Programming

def qp_game(target_empty: bool, **kw):
    # Mercurial holds QP, so one planet is free; choose which.
    comps = {"PSI_PLUS": None} if target_empty else {"PSI_PLUS": QG}
    return game(**ARRIVE, components=comps, ship_components={M: [QP]}, dice=[1, 0],
                events=["heisenberg"], **kw)


def test_quantum_programming_skips_the_check_on_a_component_free_planet():
    g = qp_game(True)
    play(g, "navigate", "X")
    assert g.state.pos == at("PSI_PLUS")
    assert rolls(g) == [] and g.state.forced == [1, 0]
    assert entries(g, "bypass")


def test_quantum_programming_does_not_help_on_a_planet_with_a_component():
    g = qp_game(False)
    play(g, "navigate", "X")
    assert orbital_result(g) == "detected" and g.state.pos == at("ZERO")


def test_quantum_programming_only_for_its_holder():
    g = game(**ARRIVE, components={"PSI_PLUS": None}, ship_components={R: [QP]},
             dice=[1, 0], events=["heisenberg"])
    play(g, "navigate", "X")
    assert orbital_result(g) == "detected"


@pytest.mark.parametrize("on_entry, checked", [(True, False), (False, True)])
def test_quantum_programming_on_cnot_entry(on_entry, checked):
    g = game(ships=("ZERO", "PLUS"), hands={M: ["CNOT", "H", "H"], R: ["H", "H", "H"]},
             components={"PHI_PLUS": None}, ship_components={M: [QP]}, dice=[8],
             options={"quantum_programming_on_cnot_entry": on_entry})
    play(g, "navigate", "CNOT")
    assert g.state.pos == at("PHI_PLUS")
    assert bool(rolls(g, "orbital defence")) == checked


# --------------------------------------------------------------- Quantum Gates

def test_quantum_gates_draw_two_keep_one():
    g = game(hands={M: ["H", "H", "CNOT"], R: ["H", "H", "H"]}, stack=["X", "SWAP", "CNOT"],
             ship_components={M: [QG]})
    play(g, "exchange", "CNOT")
    p = g.pending
    assert p["kind"] == "quantum_gates" and sorted(p["options"]) == ["SWAP", "X"]
    assert sorted(g.state.drawn) == ["SWAP", "X"]
    choose(g, "SWAP")
    s = g.state
    assert sorted(s.hands[M]) == ["H", "H", "SWAP"]
    assert sorted(s.engine_discard) == ["CNOT", "X"]
    assert s.drawn == [] and s.engine_stack[0] == "CNOT" and s.turn_player == R
    assert all_engine_cards(g) == full_engine_deck()


def test_quantum_gates_identical_draws_need_no_choice():
    g = game(hands={M: ["H", "H", "CNOT"], R: ["H", "H", "H"]}, stack=["X", "X"],
             ship_components={M: [QG]})
    play(g, "exchange", "CNOT")
    assert g.pending is None and sorted(g.state.hands[M]) == ["H", "H", "X"]


def test_quantum_gates_with_a_probe_among_the_draws():
    g = game(hands={M: ["H", "H", "CNOT"], R: ["H", "H", "H"]},
             stack=["PROBE", "X", "SWAP"], ship_components={M: [QG]}, dice=[1])
    play(g, "exchange", "CNOT")
    assert g.state.detection == 2
    assert sorted(g.pending["options"]) == ["SWAP", "X"]


def test_quantum_gates_not_on_navigate():
    g = game(hands={M: ["X", "H", "CNOT"], R: ["H", "H", "H"]}, stack=["SWAP", "X"],
             ship_components={M: [QG]})
    play(g, "navigate", "X")
    assert g.pending is None and sorted(g.state.hands[M]) == ["CNOT", "H", "SWAP"]


def test_quantum_gates_belongs_to_its_ship():
    g = game(hands={M: ["H", "H", "CNOT"], R: ["H", "H", "H"]}, stack=["X", "SWAP"],
             ship_components={R: [QG]})
    play(g, "exchange", "CNOT")
    assert g.pending is None and sorted(g.state.hands[M]) == ["H", "H", "X"]


# -------------------------------------------------------- Dilution Refrigerator

def test_dilution_refrigerator_discard_on_retrieval_then_limit_two():
    g = game(ships=at("PSI_PLUS"), components={"PSI_PLUS": DR},
             hands={M: ["X", "H", "CNOT"], R: ["H", "H", "H"]},
             stack=["SWAP", "X", "CNOT", "H"], dice=[8])
    play(g, "retrieve")
    p = g.pending
    assert p["kind"] == "discard" and p["player"] == M
    assert sorted(p["options"]) == ["CNOT", "H", "X"]
    choose(g, "CNOT")
    s = g.state
    assert sorted(s.hands[M]) == ["H", "X"] and s.engine_discard == ["CNOT"]
    assert s.ship_components[M] == [DR]
    play(g, "exchange", "H")  # Rubicon's turn, unaffected
    assert len(g.state.hands[R]) == 3
    play(g, "navigate", "X")  # Mercurial: PSI PLUS -> PHI PLUS
    s = g.state
    assert len(s.hands[M]) == 2
    assert len(entries(g, "draw", player=M)) == 1


def test_dilution_refrigerator_exchange_keeps_two():
    g = game(hands={M: ["X", "H"], R: ["H", "H", "H"]}, ship_components={M: [DR]},
             stack=["SWAP", "CNOT"])
    play(g, "exchange", "H")
    assert sorted(g.state.hands[M]) == ["SWAP", "X"]


def test_dilution_refrigerator_hand_of_one_card_kind_needs_no_choice():
    g = game(ships=at("PSI_PLUS"), components={"PSI_PLUS": DR},
             hands={M: ["H", "H", "H"], R: ["X", "X", "X"]}, dice=[8])
    play(g, "retrieve")
    assert g.pending is None and g.state.hands[M] == ["H", "H"]


def bennett_dr(option=None, giver_hand=("X", "H"), receiver_hand=("CNOT", "SWAP", "H")):
    return game(hands={M: list(giver_hand), R: list(receiver_hand)}, held={M: ["bennett"]},
                ship_components={M: [DR]}, stack=["X", "CNOT", "H"],
                options={"bennett_dilution_refrigerator": option} if option else None)


def test_the_refrigerators_discard_prompt_says_why_and_to_what_limit():  # Q12
    """Whether the Dilution Refrigerator is retrieved or handed over by Bennett, the
    player asked to discard is told why (the refrigerator) and to how many cards (the
    box shows "Hand limit 2"), and the log's discard names the refrigerator too."""
    retrieved = game(ships=at("PSI_PLUS"), components={"PSI_PLUS": DR},
                     hands={M: ["X", "H", "CNOT"], R: ["H", "H", "H"]},
                     stack=["SWAP", "X", "CNOT", "H"], dice=[8])
    play(retrieved, "retrieve")
    handed = bennett_dr()
    play(handed, "event", "bennett")
    for g, ship, card in ((retrieved, M, "CNOT"), (handed, R, "SWAP")):
        p = g.pending
        assert (p["kind"], p["player"], p["reason"], p["limit"]) == (
            "discard", ship, "dilution refrigerator", 2)
        choose(g, card)
        assert [(e["card"], e["reason"]) for e in entries(g, "discard", player=ship)] == [
            (card, "dilution refrigerator")]


def test_bennett_moving_the_refrigerator_rebalances_hands():  # Q12
    g = bennett_dr()
    play(g, "event", "bennett")
    p = g.pending
    assert p["kind"] == "discard" and p["player"] == R
    choose(g, "SWAP")
    s = g.state
    assert s.ship_components == {M: [], R: [DR]}
    assert sorted(s.hands[M]) == ["H", "X", "X"]  # giver draws back up to 3
    assert sorted(s.hands[R]) == ["CNOT", "H"]     # receiver discards to 2
    assert "SWAP" in s.engine_discard
    assert s.turn_player == R and g.pending is None


def test_bennett_refrigerator_next_draw_option():
    g = bennett_dr("next_draw")
    play(g, "event", "bennett")
    s = g.state
    assert g.pending is None and s.ship_components == {M: [], R: [DR]}
    assert len(s.hands[M]) == 2 and len(s.hands[R]) == 3
    play(g, "navigate", "H")   # Rubicon plays: 2 left, limit 2, no draw
    assert len(g.state.hands[R]) == 2
    play(g, "navigate", "X")   # Mercurial plays: 1 left, refills to 3
    assert len(g.state.hands[M]) == 3


# ----------------------------------------------------------- Qubit Interconnect

def interconnects(g):
    return [a for a in g.legal_actions() if a["do"] == "interconnect"]


def test_qubit_interconnect_trades_are_legal_inputs_at_turn_start_when_together():
    g = game(ships=at("PSI_PLUS"), hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
             ship_components={M: [QI]})
    assert g.pending is None  # no prompt: the trade is offered beside the turn's actions
    expected = [{"player": M, "do": "interconnect", "give": a, "take": b}
                for a in ("X", "H") for b in ("CNOT", "SWAP")]
    assert interconnects(g) == expected


def test_qubit_interconnect_swap_is_not_the_action():
    g = game(ships=at("PSI_PLUS"), hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
             ship_components={M: [QI]})
    play(g, "interconnect", give="x", take="CNOT")  # names are case-insensitive
    s = g.state
    assert g.pending is None
    assert sorted(s.hands[M]) == ["CNOT", "H", "H"] and sorted(s.hands[R]) == ["SWAP", "SWAP", "X"]
    assert s.turn_player == M and s.turn_number == 1
    assert entries(g, "interconnect", player=M, give="X", take="CNOT")
    assert not entries(g, "action")  # free: the turn's action is still to come
    play(g, "exchange", "CNOT")  # the same player now takes their action
    assert g.state.turn_player == R


def test_qubit_interconnect_may_be_declined():
    """A "may": the turn's own actions stay legal beside the trades, and taking one
    without trading is allowed."""
    g = game(ships=at("PSI_PLUS"), hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
             ship_components={M: [QI]})
    others = [a for a in g.legal_actions() if a["do"] != "interconnect"]
    assert {a["do"] for a in others} >= {"navigate", "exchange"}
    assert all(g.check(a) is None for a in others)
    play(g, "exchange", "X")  # no trade: Rubicon's hand is as it was
    assert g.state.hands[R] == ["CNOT", "SWAP", "SWAP"] and g.state.turn_player == R
    assert not entries(g, "interconnect")


def test_qubit_interconnect_once_a_turn_and_again_next_turn():
    g = game(ships=at("PSI_PLUS"), hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
             ship_components={M: [QI]}, options={"component_scope": "team"})
    play(g, "interconnect", give="X", take="CNOT")
    assert interconnects(g) == []
    with pytest.raises(IllegalAction, match="once a turn"):
        play(g, "interconnect", give="H", take="SWAP")
    play(g, "exchange", "H")
    assert interconnects(g)  # Rubicon's turn: team scope lends it the component


def test_qubit_interconnect_refuses_cards_not_in_hand():
    g = game(ships=at("PSI_PLUS"), hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
             ship_components={M: [QI]})
    with pytest.raises(IllegalAction, match="no SWAP to give"):
        play(g, "interconnect", give="SWAP", take="CNOT")
    with pytest.raises(IllegalAction, match="Rubicon has no H"):
        play(g, "interconnect", give="X", take="H")
    with pytest.raises(IllegalAction, match="card to take"):
        play(g, "interconnect", give="X")


def test_qubit_interconnect_answers_of_old_journals_still_replay():
    """Journals from when the trade was a prompt at every turn start hold ``choose``
    answers to it; they mean a trade, or (``skip``) nothing, and stay one input each."""
    kw = dict(ships=at("PSI_PLUS"), hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
              ship_components={M: [QI]})
    g = game(**kw)
    g.push({"do": "choose", "value": {"give": "X", "take": "CNOT"}})
    assert sorted(g.state.hands[M]) == ["CNOT", "H", "H"] and len(g.inputs) == 1
    g = game(**kw)
    g.push({"do": "choose", "value": "skip"})
    assert g.state.hands[M] == ["X", "H", "H"] and len(g.inputs) == 1 and interconnects(g) == []
    g.pop()
    assert interconnects(g)
    g.push({"do": "choose", "index": 3})  # old option order: skip, X/CNOT, X/SWAP, H/CNOT
    assert sorted(g.state.hands[R]) == ["H", "SWAP", "SWAP"]
    with pytest.raises(IllegalAction, match="nothing to choose"):
        g.push({"do": "choose", "value": "skip"})  # not once the trade is made


def test_an_old_journals_skip_keeps_the_turn_and_a_bad_answer_is_refused():
    """An old journal's "skip" to the trade prompt (by value, or as option 0 of the old
    order: skip, then each give/take pair) trades nothing and is not the turn's action:
    the same player still moves. An answer that was never one of the old options (an
    index out of range or not a number, a value that is not skip or a give/take pair,
    no answer at all) is refused in words and changes nothing; given both an index and a
    value, the value is the answer."""
    kw = dict(ships=at("PSI_PLUS"), hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
              ship_components={M: [QI]})
    skip = {"player": M, "do": "interconnect", "skip": True}
    for answer in ({"value": "skip"}, {"index": 0}):
        g = game(**kw)
        g.push({"do": "choose", **answer})
        assert g.inputs == [skip] and g.state.turn_player == M, answer
        assert g.state.hands == {M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]}
        assert not [e for e in g.log if e["type"] == "action"]
        assert {"player": M, "do": "navigate", "card": "X"} in g.legal_actions()
    # five old options: skip, X/CNOT, X/SWAP, H/CNOT, H/SWAP
    for answer in ({"index": 5}, {"index": -1}, {"index": "1"}, {"index": 1.0}, {},
                   {"value": "X"}, {"value": {"give": "X"}}, {"value": {"give": 1, "take": 2}},
                   {"value": None}):
        g = game(**kw)
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="nothing to choose"):
            g.push({"do": "choose", **answer})
        assert g.to_dict() == before, answer
    g = game(**kw)
    g.push({"do": "choose", "index": 0, "value": {"give": "X", "take": "CNOT"}})
    assert sorted(g.state.hands[M]) == ["CNOT", "H", "H"]


def test_qubit_interconnect_not_offered_when_apart():
    g = game(ships=("ZERO", "ONE"), ship_components={M: [QI]})
    assert interconnects(g) == []


def test_qubit_interconnect_outside_entanglion_option():  # Q15
    g = game(ships=("ZERO", "ZERO"), ship_components={M: [QI]})
    assert interconnects(g)
    g = game(ships=("ZERO", "ZERO"), ship_components={M: [QI]},
             options={"interconnect_anywhere": False})
    assert interconnects(g) == []
    g = game(ships=at("PSI_PLUS"), ship_components={M: [QI]},
             options={"interconnect_anywhere": False})
    assert interconnects(g)


def test_qubit_interconnect_only_for_its_holder():
    g = game(ships=at("PSI_PLUS"), ship_components={R: [QI]})
    assert interconnects(g) == [] and g.state.turn_player == M


# ----------------------------------------------------------------- scope (Q2)

@pytest.mark.parametrize("scope, ok", [("ship", False), ("team", True)])
def test_component_scope_for_modifiers(scope, ok):
    g = orbital((), (QEC,), dice=[3, 0], options={"component_scope": scope})
    assert orbital_result(g) == ("evaded" if ok else "detected")


@pytest.mark.parametrize("scope, modified", [("ship", 4), ("team", 3)])
def test_component_scope_for_hindrances(scope, modified):
    g = ground((), (CI,), dice=[4], options={"component_scope": scope})
    assert rolls(g, "ground defence")[0]["modified"] == modified


@pytest.mark.parametrize("scope, prompted", [("ship", False), ("team", True)])
def test_component_scope_for_quantum_gates(scope, prompted):
    g = game(hands={M: ["H", "H", "CNOT"], R: ["H", "H", "H"]}, stack=["X", "SWAP"],
             ship_components={R: [QG]}, options={"component_scope": scope})
    play(g, "exchange", "CNOT")
    assert (g.pending is not None) == prompted
