"""The circuit's drawing and its OpenQASM export, card names that are not cards, and
the engine's JSON form and undo rule: what the mutation run found no test pinning."""

from __future__ import annotations

import pytest

from companion.games.qno import Qno, circuit
from companion.games.qno.cards import is_gate, label, parse
from qno_helpers import dealt

OPS = [{"op": "x", "qubit": 0, "why": "prep"}, {"op": "x", "qubit": 1, "why": "value"},
       {"op": "cx", "control": 1, "target": 0}, {"op": "h", "qubit": 1},
       {"op": "measure", "result": "10"}, {"op": "x", "qubit": 0, "why": "played"},
       {"op": "measure", "result": None}]


def test_text_draws_q0_on_top_one_column_per_step():
    assert circuit.text(OPS) == (
        "q0: --X-----+-----M0-X--M?-\n"
        "q1: -----X--*--H--M1----M?-")  # |10>: q1 read 1, q0 read 0 (Qiskit order)
    assert circuit.text([]) == "q0: --\nq1: --"


def test_x_gates_of_one_state_change_share_a_column_played_ones_do_not():
    x = [{"op": "x", "qubit": q, "why": why} for q, why in (
        (0, "prep"), (1, "prep"), (1, "played"), (0, "played"), (1, "value"), (0, "value"),
        (1, "value"))]
    assert circuit.columns(x) == [("X", "X"), ("", "X"), ("X", ""), ("X", "X"), ("", "X")]
    assert circuit.columns(x[:1]) == [("X", "")]  # the last op: nothing after it to pair
    assert circuit.columns(x[:2]) == [("X", "X")]  # a pair that ends the circuit
    assert circuit.columns([{"op": "h", "qubit": 0}, {"op": "cx", "control": 0, "target": 1}]
                           ) == [("H", ""), ("*", "+")]


def test_qasm_gives_each_measurement_its_own_register():
    assert circuit.qasm(OPS, "game 7").splitlines() == [
        "// game 7", "OPENQASM 2.0;", 'include "qelib1.inc";', "qreg q[2];",
        "creg m1[2];", "creg m2[2];",
        "x q[0];  // prep", "x q[1];  // value", "cx q[1],q[0];", "h q[1];",
        "barrier q[0],q[1];", "measure q -> m1;  // read |10>",
        "x q[0];  // played", "barrier q[0],q[1];", "measure q -> m2;"]
    assert circuit.qasm([]) == 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\n'


def test_a_tracked_hand_is_a_copy_and_an_honour_hand_is_unknown():
    g = dealt([["00_1", "H"], ["00_3"]], "00_5")
    hand = g.hand(1)
    assert hand == ["00_1", "H"] and g.hand(2) == ["00_3"]
    hand.append("X")
    assert g.hand(1) == ["00_1", "H"]
    assert Qno(0, {"players": 2, "hands": "honour"}).hand(1) is None
    assert [is_gate(c) for c in ("H", "X", "CNOT", "00_1")] == [True, True, True, False]


def test_labels_name_the_state_and_the_value():
    assert [label(c) for c in ("01_7", "10_0", "11_skip", "00_draw_two", "H")] == [
        "|01> 7", "|10> 0", "|11> Skip", "|00> +2", "H"]


@pytest.mark.parametrize("name", ["00_zz", "02_7", "007", "00_", "_7", "00_draw", "h", ""])
def test_a_name_that_is_not_a_card_is_refused_by_name(name):
    with pytest.raises(ValueError, match=f"^not a QNO card: {name!r}$"):
        parse(name)


def test_json_form_names_its_game_and_round_trips_with_a_working_undo():
    g = dealt([["00_1", "00_2"], ["00_3"]], "00_5")
    g.push({"do": "play", "card": "00_1"})
    d = g.to_dict()
    assert sorted(d) == ["game", "inputs", "log", "seed", "setup", "state"]
    assert d["game"] == "qno" and d["setup"] == {}
    h = Qno.from_dict(d)
    assert h.setup == {} and h.to_dict() == d
    h.push({"do": "play", "card": "00_3"})
    h.pop()  # the copy keeps its own undo history from here on
    assert h.to_dict() == d


def test_undo_is_refused_only_after_an_h_outcome_was_shown():
    g = dealt([["H", "00_1", "00_2"], ["00_3"]], "00_5", forced=[0])
    assert g.undo_refusal() is None
    g.push({"do": "play", "card": "00_1"})
    assert g.undo_refusal() is None  # a plain play may be taken back
    g = dealt([["H", "00_1"], ["00_3"]], "00_5", forced=[0])
    g.push({"do": "play", "card": "H", "qubit": 0})
    assert g.undo_refusal() is None  # the outcome is committed, not shown yet
    g.push({"do": "choose", "value": "00"})
    assert g.undo_refusal() == "An H outcome was shown: no undo"


def test_who_may_call_qno_and_what_the_others_are_told():
    g = dealt([["00_1", "00_2"], ["00_3", "00_4"]], "00_5")
    assert g.check({"player": 1, "do": "call"}) == "The box announces QNO! by itself"
    g = dealt([["00_1", "00_2", "00_6"], ["00_3", "00_4"]], "00_5", qno_call="call_or_catch")
    assert g.check({"player": 1, "do": "call"}) == "Nothing to call"  # three cards
    assert g.check({"player": 2, "do": "call"}) == "Nothing to call"  # not their turn
    g.push({"do": "play", "card": "00_1"})  # 1 holds two now; 2 is up with two
    assert g.check({"player": 1, "do": "call"}) == "Nothing to call"
    assert g.check({"player": 2, "do": "call"}) is None  # calling as the penultimate goes
    g.push({"player": 2, "do": "call"})
    assert g.check({"player": 2, "do": "call"}) == "Nothing to call"  # called already


@pytest.mark.parametrize("state, qubit, told", [
    ("00", 0, "(|00>+|01>)/sqrt2"), ("01", 0, "(|00>-|01>)/sqrt2"),
    ("00", 1, "(|00>+|10>)/sqrt2"), ("11", 1, "(|01>-|11>)/sqrt2")])
def test_h_tells_the_superposition_it_makes(state, qubit, told):
    # H|0> = (|0>+|1>)/sqrt2 and H|1> = (|0>-|1>)/sqrt2 on the measured qubit
    assert circuit.superposition(state, qubit) == told


def test_a_saved_game_names_its_seed_and_replays_to_the_same_h_outcomes():
    # The H outcomes come from the seed: a saved game replays only if it keeps it.
    opts = {"players": 2, "hands": "honour"}
    g = Qno(7, opts)
    g.push({"do": "turn_up", "card": "00_5"})
    for p, qubit in ((1, 0), (2, 1), (1, 1)):  # honour hands: draws are counted at once
        g.push({"player": p, "do": "play", "card": "H", "qubit": qubit})
        g.push({"do": "choose", "value": g.pending["options"][0]})
    d = g.to_dict()
    assert d["seed"] == 7
    again = Qno(d["seed"], opts)
    for act in d["inputs"]:
        again.push(act)
    assert again.to_dict() == d
