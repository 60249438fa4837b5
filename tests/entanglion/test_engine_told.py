"""Facts of the engine the box tells, each pinned by the rule it follows: what the log
records of Quantum Gates' keep, of a Quantum Shuffle drawn, of a Quantum Tunnel used on
the ground, of an event deck found empty; the words of Qubit Interconnect's refusals;
and Dilution Refrigerator's discard for both ships under team scope."""

from __future__ import annotations

import pytest

from companion.games.entanglion import IllegalAction

from helpers import RING, M, R, at, choose, detected, entries, game, play

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


# -- the words of a refusal: what the box shows a player who taps the wrong thing -----

ALL_BUT_LAST = ["physical_qubits", "qubit_interconnect", "dilution_refrigerator",
                "quantum_programming", "quantum_error_correction", "control_infrastructure",
                "magnetic_shielding"]


def _refusal(g, act):
    with pytest.raises(IllegalAction) as caught:
        g.push(act)
    return str(caught.value)


def test_a_won_game_refuses_the_next_input_and_says_it_is_over():
    """Retrieving the eighth component wins; the player whose turn it would be is told so
    rather than allowed to play on."""
    g = game(ships=at("OMEGA_ONE"), components={**dict.fromkeys(RING), "OMEGA_ONE": "quantum_gates"},
             ship_components={M: ALL_BUT_LAST[:4], R: ALL_BUT_LAST[4:]},
             hands={M: ["X", "H", "H"], R: ["X", "H", "H"]}, dice=[8])
    play(g, "retrieve")
    assert g.state.status == "won"
    for ship in (M, R):
        assert _refusal(g, {"do": "navigate", "player": ship, "card": "X"}) == (
            "the game is over (won)")


def test_a_lost_game_refuses_the_next_input_and_says_it_is_over():
    g = detected(["bennett"], detection=11)
    assert g.state.status == "lost"
    assert _refusal(g, {"do": "navigate", "player": R, "card": "H"}) == "the game is over (lost)"


def test_a_choice_without_a_value_and_a_choice_with_no_prompt_are_told_apart():
    g = game(ships=at("ZERO"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["CNOT", "SWAP"], ship_components={M: ["quantum_gates"]})
    assert _refusal(g, {"do": "choose", "player": M, "value": "X"}) == "there is nothing to choose"
    play(g, "exchange", "X")
    assert _refusal(g, {"do": "choose", "player": M}) == "choose needs a value or an index"


def test_qubit_interconnect_names_the_card_missing_and_the_hand_it_is_missing_from():
    g = game(ships=at("PSI_PLUS"), ship_components={M: [QI]},
             hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]})
    assert _refusal(g, {"do": "interconnect", "player": M, "give": "CNOT", "take": "SWAP"}) == (
        "Mercurial has no CNOT to give (hand: X, H, H)")
    assert _refusal(g, {"do": "interconnect", "player": M, "give": "X", "take": "H"}) == (
        "Rubicon has no H to give (hand: CNOT, SWAP, SWAP)")


@pytest.mark.parametrize("card", ["PROBE", "TELEPORT"])
def test_a_card_that_is_not_an_engine_card_to_play_is_named_so(card):
    """The PROBE is an engine card but is never played; an unknown word is not one at all:
    both get the same answer, not the hand's."""
    g = game()
    assert _refusal(g, {"do": "navigate", "player": M, "card": card}) == (
        f"{card!r} is not an engine card to play (X, H, CNOT or SWAP)")


def test_a_card_not_in_hand_is_told_with_the_hand_or_that_it_is_empty():
    g = game(hands={M: ["X", "H", "CNOT"], R: ["X", "H", "SWAP"]})
    assert _refusal(g, {"do": "navigate", "player": M, "card": "SWAP"}) == (
        "Mercurial has no SWAP in hand (hand: X, H, CNOT)")
    g = game(hands={M: [], R: ["X", "H", "SWAP"]}, stack=[])
    assert _refusal(g, {"do": "exchange", "player": M, "card": "H"}) == (
        "Mercurial has no H in hand (hand: empty)")


def test_an_unknown_action_is_told_with_the_actions_there_are():
    from companion.games.entanglion.engine import ACTIONS
    assert _refusal(game(), {"do": "teleport", "player": M}) == (
        f"unknown action 'teleport' (one of {', '.join(ACTIONS)})")


@pytest.mark.parametrize("do", ["navigate", "exchange"])
def test_a_card_named_in_lower_case_is_the_same_card_and_a_missing_one_is_told(do):
    """A phone or a typed scenario may write "h": it is the H card, recorded as such."""
    g = game(hands={M: ["X", "H", "CNOT"], R: ["X", "H", "SWAP"]}, stack=["H", "H"])
    assert _refusal(g, {"do": do, "player": M}) == f"{do} needs a card"
    play(g, do, "h")
    assert g.inputs[-1]["card"] == "H"
    assert entries(g, "action")[-1] == {"type": "action", "player": M, "do": do, "card": "H"}


def test_retrieve_away_from_an_entanglion_planet_is_told_where_it_works():
    for ships in (at("ZERO"), ("PLUS", "MINUS")):
        g = game(ships=ships)
        assert _refusal(g, {"do": "retrieve", "player": M}) == (
            "retrieve needs both ships orbiting the same Entanglion planet")


def test_passing_while_an_action_is_open_is_refused_in_words():
    assert _refusal(game(), {"do": "pass", "player": M}) == (
        "players may not pass while they can act")


@pytest.mark.parametrize("typed, card", [("Heisenberg", "heisenberg"),
                                         ("The Mechanic", "the_mechanic")])
def test_an_event_named_as_the_card_prints_it_is_that_event_and_a_missing_one_is_told(typed, card):
    """Events are written as on the card ("The Mechanic") or as the log writes them."""
    g = game(ships=at("PHI_PLUS"), held={M: [card]}, dice=[3])
    assert _refusal(g, {"do": "event", "player": M}) == "event needs a card"
    play(g, "event", typed)
    assert g.inputs[-1]["card"] == card
    assert entries(g, "action")[-1] == {"type": "action", "player": M, "do": "event", "card": card}


def test_malformed_inputs_are_told_what_is_wrong_with_them():
    g = game(ships=at("PSI_PLUS"), ship_components={M: [QI]})
    assert _refusal(g, "navigate") == "an input must be an object, not 'navigate'"
    assert _refusal(g, {"do": "navigate", "player": "venus", "card": "X"}) == (
        "unknown player 'venus' (mercurial or rubicon)")
    assert _refusal(g, {"do": "interconnect", "player": M, "take": "H"}) == (
        "interconnect needs a card to give")
    assert _refusal(g, {"do": "interconnect", "player": M, "give": "X"}) == (
        "interconnect needs a card to take")
    # Schrödinger is written with or without its umlaut; it is never held, so never played
    assert _refusal(g, {"do": "event", "player": M, "card": "Schrödinger"}) == (
        "Mercurial does not hold Schrödinger")


def test_qubit_interconnect_takes_the_cards_in_lower_case_too():
    g = game(ships=at("PSI_PLUS"), ship_components={M: [QI]},
             hands={M: ["X", "H", "H"], R: ["CNOT", "SWAP", "SWAP"]})
    play(g, "interconnect", give="x", take="cnot")
    assert (g.inputs[-1]["give"], g.inputs[-1]["take"]) == ("X", "CNOT")
    assert sorted(g.state.hands[M]) == ["CNOT", "H", "H"]


def test_a_choice_by_index_picks_that_option_and_a_wrong_index_is_told_the_range():
    g = game(ships=at("ZERO"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["CNOT", "SWAP"], ship_components={M: ["quantum_gates"]})
    play(g, "exchange", "X")
    options = g.pending["options"]
    for wrong in (len(options), -1, "0", True):
        assert _refusal(g, {"do": "choose", "player": M, "index": wrong}) == (
            f"choice index must be 0-{len(options) - 1}, not {wrong!r}")
    g.push({"do": "choose", "player": M, "index": 0})  # the first option is index 0
    assert entries(g, "keep")[-1]["card"] == options[0]


def test_a_choice_with_both_a_value_and_an_index_is_the_value():
    g = game(ships=at("ZERO"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["CNOT", "SWAP"], ship_components={M: ["quantum_gates"]})
    play(g, "exchange", "X")
    assert g.pending["options"] == ["CNOT", "SWAP"]
    g.push({"do": "choose", "player": M, "value": "SWAP", "index": 0})
    assert entries(g, "keep")[-1]["card"] == "SWAP"


@pytest.mark.parametrize("do", ["retrieve", "pass"])
def test_another_input_during_a_prompt_is_told_whose_choice_is_awaited_whatever_it_carries(do):
    """An index belongs to a choice: on any other input it is not read as one."""
    g = game(ships=at("ZERO"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["CNOT", "SWAP"], ship_components={M: ["quantum_gates"]})
    play(g, "exchange", "X")
    assert _refusal(g, {"do": do, "player": M, "index": 9}) == (
        "waiting for Mercurial to choose (quantum_gates)")


def test_the_hint_re_deals_a_game_between_inputs_and_in_the_middle_of_one():
    """The hint reads the engine's input in progress (none between inputs) to re-deal what
    the players cannot see; the engine must say "none" once an input is complete."""
    from companion.games.entanglion import hint

    g = game(ships=at("ZERO"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             stack=["CNOT", "SWAP"], ship_components={M: ["quantum_gates"]})
    play(g, "navigate", "H")  # a whole input: nothing in progress
    w = hint.world(g, hint._Public(g), hint.Rng(1))
    assert w.state.pos == g.state.pos and w.legal_actions() == g.legal_actions()
    play(g, "exchange", "H")  # Rubicon has no Quantum Gates: Mercurial's turn again
    play(g, "exchange", "X")  # stops at Quantum Gates' choice
    w = hint.world(g, hint._Public(g), hint.Rng(1))
    assert w.pending == g.pending
    w.push({"do": "choose", "player": M, "value": w.pending["options"][0]})
    assert w.pending is None and w.state.turn_player == R
