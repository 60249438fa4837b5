"""Physical deck mode: every draw is a 'draw' prompt answered with the card drawn."""

from __future__ import annotations

import pytest

from companion.games.entanglion import Entanglion, IllegalAction
from helpers import M, R, game

PHYSICAL = {"deck": "physical"}


def choose(g: Entanglion, value) -> None:
    g.push({"do": "choose", "value": value})


def test_the_deal_asks_for_each_card_drawn():
    g = Entanglion(5, PHYSICAL, {"first_player": M, "ships": {M: "ZERO", R: "ZERO"}})
    assert g.pending["kind"] == "draw" and g.pending["deck"] == "engine"
    assert g.pending["player"] == M
    assert g.pending["options"] == ["H", "CNOT", "X", "SWAP", "PROBE"]
    for card in ("SWAP", "SWAP", "SWAP"):
        choose(g, card)
    # All three SWAPs are out: the stack no longer offers one.
    assert g.pending["player"] == R and "SWAP" not in g.pending["options"]
    for card in ("X", "H", "H"):
        choose(g, card)
    assert g.pending is None
    assert g.state.hands == {M: ["SWAP", "SWAP", "SWAP"], R: ["X", "H", "H"]}
    assert len(g.state.engine_stack) == 18


def test_a_replacement_draw_is_asked_after_navigation():
    g = game(options=PHYSICAL)
    g.push({"do": "navigate", "card": "X"})
    assert g.pending["kind"] == "draw" and g.pending["player"] == M
    choose(g, "CNOT")
    assert g.state.hands[M] == ["H", "CNOT", "CNOT"]
    assert g.state.pos == ("ONE", "ZERO") and g.turn_player == R


def test_a_card_not_left_in_the_stack_is_refused():
    g = game(options=PHYSICAL, stack=["X", "X", "X"])
    g.push({"do": "exchange", "card": "H"})
    assert g.pending["kind"] == "draw"
    with pytest.raises(IllegalAction, match="not one of the options"):
        choose(g, "QUBIT")


def test_a_probe_drawn_early_is_a_probe():
    g = game(options=PHYSICAL, dice=[1])
    g.push({"do": "exchange", "card": "H"})
    choose(g, "PROBE")
    assert g.state.detection == 2 and "PROBE" in g.state.engine_discard
    assert g.pending["kind"] == "draw" and "PROBE" not in g.pending["options"]
    choose(g, "H")
    assert g.state.hands[M] == ["X", "CNOT", "H"]


def test_event_draws_are_asked_too():
    g = game(options=PHYSICAL, ships=("PHI_PLUS", "PHI_PLUS"),
             hands={M: ["CNOT", "H", "X"], R: ["X", "H", "SWAP"]}, dice=[1, 0])
    g.push({"do": "navigate", "card": "X"})  # PHI+ -> PSI+: orbital defence, detected
    while g.pending and g.pending["deck"] == "engine":
        choose(g, g.pending["options"][0])
    assert g.pending["kind"] == "draw" and g.pending["deck"] == "event"
    assert "quantum_shuffle" in g.pending["options"]
    choose(g, "schrodinger")
    assert [e["card"] for e in g.log if e["type"] == "event"] == ["schrodinger"]


def test_undo_and_replay_in_physical_mode():
    g = game(options=PHYSICAL)
    g.push({"do": "navigate", "card": "X"})
    choose(g, "SWAP")
    again = Entanglion.replay(g.seed, PHYSICAL, g.setup, (), g.inputs)
    assert again.to_dict()["state"] == g.to_dict()["state"]
    g.pop()
    assert g.pending["kind"] == "draw"
    g.pop()
    assert g.state.hands[M] == ["X", "H", "CNOT"]
