"""Facts of the engine the box tells, each pinned by the rule it follows: what the log
records of Quantum Gates' keep, of a Quantum Shuffle drawn, of a Quantum Tunnel used on
the ground, of an event deck found empty; the words of Qubit Interconnect's refusals;
and Dilution Refrigerator's discard for both ships under team scope."""

from __future__ import annotations

import pytest

from companion.games.entanglion import IllegalAction

from helpers import M, R, at, choose, detected, entries, game, play

QI = "qubit_interconnect"


def test_quantum_gates_asks_which_drawn_card_to_keep_and_logs_the_other():
    g = game(ships=at("ZERO"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["CNOT", "SWAP"], ship_components={M: ["quantum_gates"]})
    play(g, "exchange", "X")
    assert g.pending["kind"] == "quantum_gates" and g.pending["drawn"] == ["CNOT", "SWAP"]
    choose(g, "SWAP")
    assert entries(g, "keep") == [
        {"type": "keep", "player": M, "card": "SWAP", "discarded": ["CNOT"]}]
    assert sorted(g.state.hands[M]) == ["H", "H", "SWAP"]


def test_a_quantum_shuffle_drawn_is_logged_as_not_kept_by_its_drawer():
    g = detected(["quantum_shuffle"])
    assert entries(g, "event")[0] == {"type": "event", "player": M, "card": "quantum_shuffle",
                                      "kept": False}


def test_an_event_deck_found_empty_is_rebuilt_from_the_discard_before_the_draw():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             events=["bennett"], dice=[1, 0])
    s = g.state
    s.event_discard, s.event_deck = s.event_deck, []
    play(g, "navigate", "X")
    kinds = [e["type"] for e in g.log if e["type"] in ("quantum_event", "reshuffle", "event")]
    assert kinds == ["quantum_event", "reshuffle", "event"]
    assert entries(g, "reshuffle")[0] == {"type": "reshuffle", "deck": "event", "cards": 9}


@pytest.mark.parametrize("timing", ["before_roll", "after_failure"])
def test_a_quantum_tunnel_used_on_a_retrieval_is_logged_as_the_ground_defence(timing):
    """Ruling Q10 either way: declared before the roll, or cancelling a failed one."""
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"},
             held={M: ["quantum_tunnel"]}, dice=[1], options={"tunnel_timing": timing})
    play(g, "retrieve")
    assert g.pending["kind"] == "quantum_tunnel" and g.pending["defence"] == "ground"
    choose(g, "use")
    assert entries(g, "event") == [
        {"type": "event", "player": M, "card": "quantum_tunnel", "defence": "ground"}]


def test_qubit_interconnect_refusals_say_why_in_the_games_words():
    g = game(ships=("ZERO", "ONE"), ship_components={M: [QI]},
             hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]})
    with pytest.raises(IllegalAction, match="^Qubit Interconnect needs both ships on the same planet$"):
        play(g, "interconnect", give="X", take="CNOT")
    g = game(ships=at("ZERO"), ship_components={M: [QI]},
             hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]},
             options={"interconnect_anywhere": False})
    with pytest.raises(IllegalAction, match=r"^Qubit Interconnect works only inside Entanglion "
                                            r"\(option interconnect_anywhere\)$"):
        play(g, "interconnect", give="X", take="CNOT")
    g = game(ships=at("PSI_PLUS"), ship_components={M: [QI]},
             hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]})
    play(g, "interconnect", give="X", take="CNOT")
    with pytest.raises(IllegalAction, match="^Qubit Interconnect trades once a turn$"):
        play(g, "interconnect", give="H", take="SWAP")


@pytest.mark.parametrize("retriever", [M, R])
def test_dilution_refrigerator_under_team_scope_limits_both_hands(retriever):
    """Team scope: the component counts for both ships, so both hands drop to 2 at once
    (the retriever's first)."""
    g = game(ships=at("PSI_PLUS"), components={"PSI_PLUS": "dilution_refrigerator"},
             hands={M: ["X", "H", "CNOT"], R: ["H", "SWAP", "H"]}, dice=[8], first=retriever,
             options={"component_scope": "team"})
    play(g, "retrieve")
    asked = []
    while g.pending is not None and g.pending["kind"] == "discard":
        asked.append(g.pending["player"])
        choose(g, g.pending["options"][0])
    assert asked == [retriever, R if retriever == M else M]
    assert len(g.state.hands[M]) == len(g.state.hands[R]) == 2


def test_an_orbital_detection_jump_is_logged_as_the_detected_players_move():
    g = detected(["bennett"])
    assert entries(g, "move", cause="orbital detection") == [
        {"type": "move", "player": M, "cause": "orbital detection",
         "from": ["PSI_PLUS", "PSI_PLUS"], "to": ["ZERO", "ZERO"]}]


def test_quantum_programming_skipping_an_orbital_check_is_logged_with_its_planet():
    """Arriving at an Entanglion planet whose component is gone, Quantum Programming
    skips the orbital check: the log says who, by what, and where."""
    from companion.games.entanglion import board

    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "SWAP"], R: ["H", "X", "CNOT"]},
             components={"OMEGA_TWO": None, "PHI_PLUS": "quantum_gates"},
             ship_components={R: ["quantum_programming"]}, first=R)
    free = [a for a in g.legal_actions() if a["do"] == "navigate"
            and g.state.planet_components.get(board.navigate(a["card"], R, g.state.pos)[0],
                                              "none") is None]
    assert free
    dest = board.navigate(free[0]["card"], R, g.state.pos)[0]
    g.push(free[0])
    assert entries(g, "bypass") == [
        {"type": "bypass", "player": R, "by": "quantum_programming", "planet": dest}]


@pytest.mark.parametrize("timing", ["before_roll", "after_failure"])
def test_a_quantum_tunnel_used_on_arrival_is_logged_as_the_orbital_defence(timing):
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             held={M: ["quantum_tunnel"]}, dice=[1], options={"tunnel_timing": timing})
    play(g, "navigate", "X")
    assert g.pending["kind"] == "quantum_tunnel" and g.pending["defence"] == "orbital"
    choose(g, "use")
    assert entries(g, "event") == [
        {"type": "event", "player": M, "card": "quantum_tunnel", "defence": "orbital"}]
