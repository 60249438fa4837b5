"""The four actions, defences, decks, detection, setup and undo.

Expected values come from the rules as docs/rules/entanglion.md states them (the
board, the track, set-up, turns, decks and the rulings), not from the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from companion import scenario
from companion.games.entanglion import Entanglion, IllegalAction, SetupError

from helpers import (
    COMPONENTS, EVENTS, M, R, RING, TRACK, all_engine_cards, at, choose, empty_planet_setup,
    entries, full_engine_deck, game, play, rolls, six_slot_game,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "first-game.json"


def hand_with(card: str) -> list[str]:
    return [card, "H", "H"] if card != "H" else ["H", "H", "H"]


# --------------------------------------------------------------------- navigate

# (ships before, player, card, ships after); each row is a rules-book move or no-move.
NAVIGATION = [
    # outside Entanglion the card moves only the player's ship
    (("ZERO", "ZERO"), M, "X", ("ONE", "ZERO")),
    (("ZERO", "ZERO"), R, "X", ("ZERO", "ONE")),
    (("ZERO", "ONE"), M, "H", ("PLUS", "ONE")),
    (("ONE", "ZERO"), M, "H", ("MINUS", "ZERO")),
    (("PLUS", "ZERO"), M, "H", ("ZERO", "ZERO")),
    (("ZERO", "MINUS"), R, "H", ("ZERO", "ONE")),
    (("ZERO", "ONE"), M, "SWAP", ("ONE", "ZERO")),
    (("PLUS", "ONE"), R, "SWAP", ("ONE", "PLUS")),
    (("ZERO", "ONE"), M, "CNOT", ("ONE", "ONE")),      # flips: the other ship is on ONE
    (("ONE", "ONE"), R, "CNOT", ("ONE", "ZERO")),
    # CNOT exit from a Bell planet: player's ship to Centarious, other to Superious
    (at("PHI_PLUS"), M, "CNOT", ("ZERO", "PLUS")),
    (at("PHI_PLUS"), R, "CNOT", ("PLUS", "ZERO")),
    (at("PSI_MINUS"), R, "CNOT", ("MINUS", "ONE")),
    (at("PHI_MINUS"), M, "CNOT", ("ZERO", "MINUS")),
]
NO_EFFECT = [
    (("ZERO", "ZERO"), M, "CNOT"),      # other ship not on ONE
    (("PLUS", "ZERO"), M, "X"),         # no PLUS-MINUS path
    (("PLUS", "MINUS"), R, "X"),
    (("ZERO", "ZERO"), M, "SWAP"),      # same planet: nothing to exchange
    (("PLUS", "ZERO"), M, "CNOT"),      # only the Centarious ship can enter
    (("MINUS", "MINUS"), M, "CNOT"),    # Q13 default: the board has no path
    (("ONE", "PLUS"), R, "X"),
    (at("PHI_PLUS"), M, "SWAP"),        # SWAP inside only OMEGA ZERO <-> OMEGA THREE
    (at("OMEGA_ONE"), M, "CNOT"),
    (at("OMEGA_ONE"), R, "CNOT"),
    (at("OMEGA_ZERO"), R, "CNOT"),
    (at("OMEGA_THREE"), M, "CNOT"),
    (at("OMEGA_TWO"), M, "SWAP"),
]


@pytest.mark.parametrize("ships, player, card, after", NAVIGATION)
def test_navigate_moves_plays_into_engine_control_and_draws_replacement(ships, player, card, after):
    hands = {M: ["H", "H", "H"], R: ["H", "H", "H"]}
    hands[player] = hand_with(card)
    g = game(first=player, ships=ships, hands=hands, stack=["SWAP"], dice=[8])
    play(g, "navigate", card)
    s = g.state
    assert s.pos == after
    assert s.engine_control == [[card, player]]
    assert sorted(s.hands[player]) == sorted(hand_with(card)[1:] + ["SWAP"])
    assert rolls(g) == [] and s.forced == [8]  # no orbital check: no Entanglion arrival
    assert s.turn_player != player


@pytest.mark.parametrize("ships, player, card", NO_EFFECT)
def test_navigate_with_no_matching_path_still_fills_a_slot_and_draws(ships, player, card):
    hands = {M: ["H", "H", "H"], R: ["H", "H", "H"]}
    hands[player] = hand_with(card)
    g = game(first=player, ships=ships, hands=hands, stack=["SWAP"], dice=[8])
    play(g, "navigate", card)
    s = g.state
    assert s.pos == ships
    assert s.engine_control == [[card, player]]
    assert len(s.hands[player]) == 3 and "SWAP" in s.hands[player]
    assert entries(g, "no_effect", card=card)
    assert entries(g, "move") == []
    assert rolls(g) == [] and s.forced == [8]  # no re-check when the planet doesn't change


def test_engine_control_records_the_ship_each_card_was_played_for():
    g = game(ships=("ZERO", "ZERO"), hands={M: ["X", "H", "H"], R: ["X", "H", "H"]})
    play(g, "navigate", "X")
    play(g, "navigate", "H")
    assert g.state.engine_control == [["X", M], ["H", R]]


# ------------------------------------------------------------ orbital defences

# (ships before, player, card, Entanglion planet reached)
ARRIVALS = [
    (at("PHI_PLUS"), M, "X", "PSI_PLUS"),
    (at("PHI_PLUS"), R, "H", "OMEGA_TWO"),
    (at("OMEGA_ZERO"), M, "SWAP", "OMEGA_THREE"),
    (at("OMEGA_ZERO"), R, "X", "OMEGA_ONE"),
    (at("OMEGA_ZERO"), M, "CNOT", "OMEGA_TWO"),
    (("ZERO", "PLUS"), M, "CNOT", "PHI_PLUS"),      # CNOT entry
    (("MINUS", "ONE"), R, "CNOT", "PSI_MINUS"),     # CNOT entry by Rubicon
]


@pytest.mark.parametrize("ships, player, card, planet", ARRIVALS)
def test_orbital_defence_evaded_when_roll_exceeds_track_value(ships, player, card, planet):
    hands = {M: ["H", "H", "H"], R: ["H", "H", "H"]}
    hands[player] = hand_with(card)
    g = game(first=player, ships=ships, hands=hands, detection=4, dice=[4])  # value 3
    play(g, "navigate", card)
    (roll,) = rolls(g)
    assert (roll["purpose"], roll["player"], roll["raw"], roll["result"]) == (
        "orbital defence", player, 4, "evaded")
    assert g.state.pos == at(planet)
    assert g.state.detection == 4
    assert entries(g, "quantum_event") == []
    assert g.state.engine_control == [[card, player]]


@pytest.mark.parametrize("ships, player, card, planet", ARRIVALS)
@pytest.mark.parametrize("centarious, landing", [(0, "ZERO"), (1, "ONE")])
def test_orbital_detection_jumps_raises_draws_event_and_clears_control(
        ships, player, card, planet, centarious, landing):
    hands = {M: ["H", "H", "H"], R: ["H", "H", "H"]}
    hands[player] = hand_with(card)
    g = game(first=player, ships=ships, hands=hands, detection=4, dice=[3, centarious],
             events=["heisenberg"])
    play(g, "navigate", card)
    s = g.state
    d8, jump = rolls(g)
    assert (d8["purpose"], d8["raw"], d8["result"]) == ("orbital defence", 3, "detected")
    assert jump["die"] == "centarious" and jump["raw"] == centarious
    assert s.pos == (landing, landing)  # both ships jump together
    assert s.detection == 5
    assert [e["cause"] for e in entries(g, "quantum_event")] == ["orbital detection"]
    assert s.held_events[player] == ["heisenberg"]  # drawn by the detected player
    assert s.engine_control == []
    assert s.engine_discard == [card]
    # order (Q9): jump, raise, event
    types = [e["type"] for e in g.log if e["type"] in ("move", "detection", "quantum_event")]
    assert types == ["move", "move", "detection", "quantum_event"]


@pytest.mark.parametrize("space, value", sorted(TRACK.items()))
def test_track_value_is_the_orbital_threshold(space, value):
    def attempt(roll: int) -> str:
        g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
                 detection=space, dice=[roll, 0], events=["heisenberg"])
        play(g, "navigate", "X")
        return rolls(g, "orbital defence")[0]["result"]

    assert attempt(value) == "detected"
    if value < 8:
        assert attempt(value + 1) == "evaded"


def test_no_orbital_check_when_staying_on_the_same_entanglion_planet():
    g = game(ships=at("PHI_PLUS"), hands={M: ["SWAP", "H", "H"], R: ["H", "H", "H"]}, dice=[1, 0])
    play(g, "navigate", "SWAP")
    assert rolls(g) == [] and g.state.forced == [1, 0] and g.state.detection == 1


def test_cnot_entry_triggers_the_orbital_check_and_exit_does_not():
    g = game(ships=("ZERO", "PLUS"), hands={M: ["CNOT", "H", "H"], R: ["CNOT", "H", "H"]},
             dice=[5, 6])
    play(g, "navigate", "CNOT")
    assert g.state.pos == at("PHI_PLUS")
    assert [r["purpose"] for r in rolls(g)] == ["orbital defence"]
    n = len(g.log)
    play(g, "navigate", "CNOT")  # Rubicon exits
    assert g.state.pos == ("PLUS", "ZERO")
    assert rolls(g, since=n) == [] and g.state.forced == [6]


def test_failed_orbital_check_then_staying_in_orbit_needs_no_recheck():
    # Arrive (evaded), then the next card doesn't move: no new roll.
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["SWAP", "H", "H"]}, dice=[8, 1])
    play(g, "navigate", "X")
    n = len(g.log)
    play(g, "navigate", "SWAP")
    assert rolls(g, since=n) == [] and g.state.forced == [1]


# ------------------------------------------------------------------- retrieve

def test_retrieve_success_puts_component_on_the_retrievers_ship():
    g = game(first=R, ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"},
             detection=6, dice=[5])  # value 4
    play(g, "retrieve")
    s = g.state
    assert s.ship_components[R] == ["quantum_gates"] and s.ship_components[M] == []
    assert s.planet_components["OMEGA_ONE"] is None
    assert s.detection == 6 and s.pos == at("OMEGA_ONE")
    (roll,) = rolls(g)
    assert (roll["purpose"], roll["raw"], roll["result"]) == ("ground defence", 5, "retrieved")
    assert entries(g, "retrieved", player=R, component="quantum_gates", planet="OMEGA_ONE")
    assert s.engine_control == [] and s.turn_player == M


def test_retrieve_failure_raises_detection_and_ships_stay():
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"},
             detection=6, dice=[4])  # value 4: not greater
    play(g, "retrieve")
    s = g.state
    assert s.ship_components == {M: [], R: []}
    assert s.planet_components["OMEGA_ONE"] == "quantum_gates"
    assert s.detection == 7 and s.pos == at("OMEGA_ONE")
    assert entries(g, "quantum_event") == []  # ground detection is no quantum event
    assert rolls(g)[0]["result"] == "detected"


@pytest.mark.parametrize("where, kwargs", [
    ("no component", dict(ships=at("OMEGA_ONE"),
                          **empty_planet_setup("OMEGA_ONE", parked_on=R))),
    ("ships apart", dict(ships=("ZERO", "PLUS"))),
    ("outside Entanglion", dict(ships=("ZERO", "ZERO"))),
])
def test_retrieve_is_illegal_without_a_component_here(where, kwargs):
    g = game(**kwargs)
    before = g.to_dict()
    assert g.check({"player": M, "do": "retrieve"})
    assert {"player": M, "do": "retrieve"} not in g.legal_actions()
    with pytest.raises(IllegalAction):
        play(g, "retrieve")
    assert g.to_dict() == before


# ------------------------------------------------------------------- exchange

def test_exchange_discards_one_and_draws_one_without_filling_a_slot():
    g = game(hands={M: ["X", "H", "CNOT"], R: ["H", "H", "H"]}, stack=["SWAP", "X"])
    play(g, "exchange", "H")
    s = g.state
    assert sorted(s.hands[M]) == ["CNOT", "SWAP", "X"]
    assert s.engine_discard == ["H"]
    assert s.engine_control == []
    assert s.engine_stack[0] == "X"
    assert s.turn_player == R and rolls(g) == []


# --------------------------------------------------------- passing / illegal input

def test_players_may_not_pass():
    g = game()
    before = g.to_dict()
    assert all(a["do"] != "pass" for a in g.legal_actions())
    with pytest.raises(IllegalAction, match="pass"):
        play(g, "pass")
    assert g.to_dict() == before


@pytest.mark.parametrize("action, words", [
    ({"player": R, "do": "navigate", "card": "X"}, "Mercurial"),       # not their turn
    ({"player": M, "do": "navigate", "card": "SWAP"}, "SWAP"),         # not in hand
    ({"player": M, "do": "exchange", "card": "SWAP"}, "SWAP"),
    ({"player": M, "do": "navigate", "card": "Y"}, "Y"),               # unknown card
    ({"player": M, "do": "navigate", "card": "PROBE"}, "PROBE"),
    ({"player": M, "do": "navigate"}, "card"),
    ({"player": M, "do": "choose", "value": "keep"}, "nothing to choose"),
    ({"player": M, "do": "event", "card": "heisenberg"}, "Heisenberg"),  # not held
    ({"player": M, "do": "event", "card": "teleport"}, "teleport"),
    ({"player": M, "do": "fly"}, "fly"),
    ({"player": "venus", "do": "retrieve"}, "venus"),
    ("navigate", "object"),
])
def test_illegal_input_raises_readable_error_and_changes_nothing(action, words):
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, dice=[8])
    before = g.to_dict()
    with pytest.raises(IllegalAction) as info:
        g.push(action)
    message = str(info.value)
    assert words.lower() in message.lower() and len(message) > 10
    assert g.to_dict() == before
    assert g.check(action) == message


def test_illegal_choice_while_a_prompt_is_pending_changes_nothing():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             ship_components={M: ["magnetic_shielding"]}, dice=[2, 7])
    play(g, "navigate", "X")
    assert g.pending["kind"] == "magnetic_shielding"
    before = g.to_dict()
    for bad in ({"player": M, "do": "navigate", "card": "H"},          # must answer first
                {"player": R, "do": "choose", "value": "keep"},        # not Rubicon's prompt
                {"player": M, "do": "choose", "value": "maybe"}):      # not an option
        with pytest.raises(IllegalAction):
            g.push(bad)
        assert g.to_dict() == before


# ---------------------------------------------------- engine control (6 slots)

def test_sixth_slot_triggers_quantum_event_at_end_of_turn_and_clears_control():
    g = six_slot_game(events=["heisenberg"])
    for card in ("CNOT", "CNOT", "CNOT", "SWAP", "SWAP"):
        play(g, "navigate", card)
        assert entries(g, "quantum_event") == []
    assert len(g.state.engine_control) == 5
    play(g, "navigate", "CNOT")  # Rubicon fills slot 6
    (qe,) = entries(g, "quantum_event")
    assert qe["player"] == R and qe["cause"] == "engine control full"
    assert g.state.held_events[R] == ["heisenberg"]
    assert g.state.engine_control == []
    assert sorted(g.state.engine_discard) == ["CNOT"] * 4 + ["SWAP"] * 2
    # the event comes after the action and before the next turn starts
    types = [e["type"] for e in g.log]
    assert types.index("quantum_event") < len(types) - 1 - types[::-1].index("turn")


@pytest.mark.parametrize("double, expected", [(True, ["heisenberg", "the_mechanic"]),
                                              (False, ["heisenberg"])])
def test_detection_on_the_turn_slot_six_fills_gives_two_events(double, expected):
    g = six_slot_game(events=["heisenberg", "the_mechanic"], dice=[1, 0],
                      options={"double_event": double})
    for card in ("CNOT", "CNOT", "CNOT", "SWAP", "SWAP"):
        play(g, "navigate", card)
    play(g, "navigate", "X")  # Rubicon: OMEGA ONE -> OMEGA ZERO, detected (6th slot)
    assert g.state.pos == at("ZERO")
    assert g.state.held_events[R] == expected
    causes = [e["cause"] for e in entries(g, "quantum_event")]
    assert causes == ["orbital detection", "engine control full"][:len(expected)]
    assert g.state.engine_control == []


# ------------------------------------------------------- detection, loss and win

def test_reaching_x_loses_immediately_and_ends_input():
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"},
             detection=11, dice=[2])
    play(g, "retrieve")
    assert g.state.detection == 12 and g.state.status == "lost" and g.status == "lost"
    assert entries(g, "game_over", status="lost")
    assert g.legal_actions() == []
    assert g.state.turn_player == M  # no further turn started
    with pytest.raises(IllegalAction, match="over"):
        play(g, "navigate", "X", player=M)
    with pytest.raises(IllegalAction, match="over"):
        play(g, "navigate", "X", player=R)


def test_orbital_detection_reaching_x_loses_before_the_event():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             detection=11, dice=[3, 1], events=["wave_function_collapse"])
    play(g, "navigate", "X")
    assert g.state.status == "lost" and g.state.detection == 12
    assert entries(g, "quantum_event") == []
    assert g.state.event_deck[0] == "wave_function_collapse"


def test_eighth_component_wins_immediately():
    planet = "PSI_PLUS"
    g = game(ships=at(planet), components={planet: "magnetic_shielding"},
             ship_components={M: ["quantum_gates", "physical_qubits", "quantum_programming",
                                  "quantum_error_correction"],
                              R: ["qubit_interconnect", "dilution_refrigerator",
                                  "control_infrastructure"]}, dice=[8])
    play(g, "retrieve")
    assert g.state.status == "won"
    assert entries(g, "game_over", status="won")
    assert sorted(g.state.ship_components[M] + g.state.ship_components[R]) == sorted(COMPONENTS)
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction):
        play(g, "exchange", "X", player=R)


def test_the_end_of_a_game_is_logged_with_its_cause():
    """The log's last entry says how the game ended and why: lost when the detection
    rate reached X, won when all eight components are aboard (the box retells it)."""
    lost = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"},
                detection=11, dice=[2])
    play(lost, "retrieve")
    won = game(ships=at("PSI_PLUS"), components={"PSI_PLUS": "magnetic_shielding"},
               ship_components={M: ["quantum_gates", "physical_qubits", "quantum_programming",
                                    "quantum_error_correction"],
                                R: ["qubit_interconnect", "dilution_refrigerator",
                                    "control_infrastructure"]}, dice=[8])
    play(won, "retrieve")
    assert lost.log[-1] == {"type": "game_over", "status": "lost",
                            "reason": "the detection rate reached X"}
    assert won.log[-1] == {"type": "game_over", "status": "won",
                           "reason": "all eight components are aboard"}


def test_seven_components_do_not_win():
    g = game(ships=at("PSI_PLUS"), components={"PSI_PLUS": "quantum_gates",
                                               "PHI_PLUS": "magnetic_shielding"},
             ship_components={M: ["physical_qubits", "quantum_programming",
                                  "quantum_error_correction"],
                              R: ["qubit_interconnect", "dilution_refrigerator",
                                  "control_infrastructure"]}, dice=[8])
    play(g, "retrieve")
    assert g.state.status == "playing"
    assert entries(g, "game_over") == []


# ------------------------------------------------------------------- set-up

@pytest.mark.parametrize("start, space", [(1, 1), (2, 2), (4, 4)])
def test_start_space_option(start, space):
    assert Entanglion(seed=1, options={"start_space": start}).state.detection == space


@pytest.mark.parametrize("bad", [0, 3, 5, 12, "2", None, 2.0, True])
def test_other_start_spaces_are_rejected(bad):
    with pytest.raises(SetupError):
        Entanglion(seed=1, options={"start_space": bad})


@pytest.mark.parametrize("seed", range(12))
def test_setup_by_the_rules(seed):
    g = Entanglion(seed=seed)
    s = g.state
    assert s.status == "playing" and s.turn_number == 1
    assert set(s.planet_components) == set(RING)
    assert sorted(s.planet_components.values()) == sorted(COMPONENTS)
    assert s.ship_components == {M: [], R: []}
    assert all(len(s.hands[p]) == 3 for p in (M, R))
    assert "PROBE" not in s.hands[M] + s.hands[R]
    assert s.engine_stack[-1] == "PROBE" and len(s.engine_stack) == 18
    assert all_engine_cards(g) == full_engine_deck()
    assert len(s.event_deck) == 9 and sorted(s.event_deck) == sorted(EVENTS)
    assert s.event_deck[5] == "quantum_shuffle"
    assert s.held_events == {M: [], R: []}
    assert s.pos[0] in ("ZERO", "ONE") and s.pos[1] in ("ZERO", "ONE")
    assert s.detection == 1 and s.engine_control == []
    first = [e for e in rolls(g, "first player")]
    assert len(first) >= 2
    m, r = first[-2]["raw"], first[-1]["raw"]
    assert m != r and s.turn_player == (M if m > r else R)
    placement = rolls(g, "ship placement")
    assert [e["player"] for e in placement] == [s.turn_player, R if s.turn_player == M else M]
    assert {e["player"]: e["result"] for e in placement} == {M: s.pos[0], R: s.pos[1]}


def test_setup_seeds_differ():
    layouts = {tuple(Entanglion(seed=n).state.planet_components.values()) for n in range(8)}
    stacks = {tuple(Entanglion(seed=n).state.engine_stack) for n in range(8)}
    assert len(layouts) > 1 and len(stacks) > 1


def test_first_player_tie_is_rerolled_and_first_player_places_first():
    g = Entanglion(seed=5, dice=[5, 5, 3, 7, 1, 0])
    first = rolls(g, "first player")
    assert [(e["player"], e["raw"]) for e in first] == [(M, 5), (R, 5), (M, 3), (R, 7)]
    assert g.state.turn_player == R
    placement = rolls(g, "ship placement")
    assert [(e["player"], e["raw"]) for e in placement] == [(R, 1), (M, 0)]
    assert g.state.pos == ("ZERO", "ONE")
    # Rubicon also draws first
    draws = entries(g, "draw")
    assert [d["player"] for d in draws] == [R, R, R, M, M, M]


def test_same_seed_same_setup():
    assert Entanglion(seed=42).to_dict() == Entanglion(seed=42).to_dict()


def test_setup_given_stack_and_event_deck_go_on_top():
    g = game(stack=["SWAP", "SWAP", "PROBE", "X"], events=["bennett", "schrodinger"])
    s = g.state
    assert s.engine_stack[:4] == ["SWAP", "SWAP", "PROBE", "X"]
    assert s.engine_stack.count("PROBE") == 1 and len(s.engine_stack) == 18
    assert all_engine_cards(g) == full_engine_deck()
    assert s.event_deck[:2] == ["bennett", "schrodinger"]
    assert s.event_deck[-4] == "quantum_shuffle"  # rest built with 3 under Quantum Shuffle
    assert sorted(s.event_deck) == sorted(EVENTS)


@pytest.mark.parametrize("setup", [
    {"first_player": "venus"},
    {"ships": {M: "PHI_PLUS", R: "ZERO"}},                  # apart inside Entanglion
    {"ships": {M: "ZERO"}},
    {"ships": {M: "ZERO", R: "PLUTO"}},
    {"hands": {M: ["PROBE", "H", "H"]}},
    {"hands": {M: ["Y", "H", "H"]}},
    {"hands": {M: ["SWAP", "SWAP"], R: ["SWAP"]}, "engine_stack": ["SWAP"]},  # 4 SWAP
    {"held_events": {M: ["schrodinger"]}},                  # only kept events in hand
    {"held_events": {M: ["bennett"]}, "event_deck": ["bennett"]},
    {"components": {"ZERO": "quantum_gates"}},              # not an Entanglion planet
    {"components": {"PSI_PLUS": "quantum_gates"}, "ship_components": {M: ["quantum_gates"]}},
    {"components": {"PSI_PLUS": "warp_drive"}},
    {"detection_space": 12},
    {"detection_space": 0},
    {"turn": 3},                                            # unknown key
])
def test_impossible_setups_are_rejected(setup):
    with pytest.raises(SetupError):
        Entanglion(seed=0, setup=setup)


@pytest.mark.parametrize("dice", [[9], [-1], ["3"], [2.0]])
def test_forced_dice_must_be_die_results(dice):
    with pytest.raises(SetupError):
        Entanglion(seed=0, dice=dice)


def test_forced_die_that_does_not_fit_the_die_is_illegal():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]}, dice=[1, 5])
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="centarious"):
        play(g, "navigate", "X")  # the 5 cannot be a Centarious result
    assert g.to_dict() == before


# ---------------------------------------------------------------------- PROBE

@pytest.mark.parametrize("raw, raised", [(1, True), (3, True), (4, False), (8, False)])
def test_probe_drawn_on_navigate_rolls_and_is_replaced(raw, raised):
    g = game(ships=("ZERO", "ZERO"), hands={M: ["SWAP", "H", "H"], R: ["H", "H", "H"]},
             stack=["PROBE", "X"], detection=2, dice=[raw])
    play(g, "navigate", "SWAP")
    s = g.state
    (roll,) = rolls(g)
    assert roll["purpose"] == "probe" and roll["player"] == M
    assert s.detection == (3 if raised else 2)
    assert sorted(s.hands[M]) == ["H", "H", "X"]
    assert s.engine_discard == ["PROBE"]
    assert [d["card"] for d in entries(g, "draw")] == ["PROBE", "X"]
    assert entries(g, "quantum_event") == []


def test_probe_drawn_on_exchange():
    g = game(hands={M: ["SWAP", "H", "H"], R: ["H", "H", "H"]}, stack=["PROBE", "X"], dice=[2])
    play(g, "exchange", "SWAP")
    assert g.state.detection == 2
    assert sorted(g.state.hands[M]) == ["H", "H", "X"]
    assert sorted(g.state.engine_discard) == ["PROBE", "SWAP"]


def test_probe_drawn_during_setup_deal():
    g = Entanglion(seed=0, setup={"first_player": M, "ships": {M: "ZERO", R: "ZERO"},
                                  "engine_stack": ["H", "PROBE", "X", "X"]}, dice=[1])
    assert g.state.detection == 2
    assert g.state.hands[M] == ["H", "X", "X"]
    assert g.state.engine_discard == ["PROBE"]


@pytest.mark.parametrize("component, raw, raised", [
    ("quantum_error_correction", 3, False),
    ("quantum_error_correction", 2, True),
    ("control_infrastructure", 4, True),
    ("control_infrastructure", 5, False),
])
def test_probe_roll_uses_component_modifiers(component, raw, raised):
    g = game(hands={M: ["SWAP", "H", "H"], R: ["H", "H", "H"]}, stack=["PROBE", "X"],
             ship_components={M: [component]}, dice=[raw])
    play(g, "navigate", "SWAP")
    assert g.state.detection == (2 if raised else 1)


def test_probe_can_lose_the_game():
    g = game(hands={M: ["SWAP", "H", "H"], R: ["H", "H", "H"]}, stack=["PROBE", "X"],
             detection=11, dice=[1])
    play(g, "navigate", "SWAP")
    assert g.state.status == "lost"
    assert all_engine_cards(g) == full_engine_deck()


# ---------------------------------------------------------------- reshuffle

def exhaust_stack(g: Entanglion) -> None:
    """Exchange until the first engine stack has been drawn to the end."""
    for _ in range(40):
        if entries(g, "reshuffle", deck="engine"):
            return
        play(g, "exchange", g.state.hands[g.state.turn_player][0])
    raise AssertionError("engine stack never ran out")


def test_empty_engine_stack_reshuffles_the_discard_into_a_new_stack():
    g = game(hands={M: ["X", "X", "X"], R: ["X", "X", "H"]}, dice=[8])
    exhaust_stack(g)
    s = g.state
    assert len(entries(g, "reshuffle", deck="engine")) == 1
    assert all_engine_cards(g) == full_engine_deck()
    assert len(s.hands[M]) == 3 and len(s.hands[R]) == 3
    assert len(s.engine_stack) >= 17  # the whole discard (minus at most PROBE) is the new stack


def test_reshuffle_includes_probe_anywhere_in_the_new_stack():
    """PROBE, the last card of the first stack, goes into the reshuffle (not to the bottom)."""
    places = set()
    for seed in range(10):
        g = game(hands={M: ["X", "X", "X"], R: ["X", "X", "H"]}, dice=[8, 8], seed=seed)
        exhaust_stack(g)
        at = next(i for i, e in enumerate(g.log)
                  if e["type"] == "reshuffle" and e["deck"] == "engine")
        assert g.log[at - 2] == {"type": "draw", "player": g.log[at - 2]["player"],
                                 "card": "PROBE"}
        drawn_since = [e["card"] for e in g.log[at:] if e["type"] == "draw"]
        new_stack = drawn_since + g.state.engine_stack  # the reshuffled stack, top first
        assert new_stack.count("PROBE") == 1
        places.add(new_stack.index("PROBE") == len(new_stack) - 1)
    assert False in places  # not put back at the bottom


# --------------------------------------------------------------------- undo

def scripted_game() -> Entanglion:
    return game(ships=("ZERO", "PLUS"), hands={M: ["CNOT", "H", "X"], R: ["X", "H", "SWAP"]},
                seed=11)


def test_pop_restores_the_exact_previous_state():
    g = scripted_game()
    snapshots = [g.to_dict()]
    for act in ({"do": "navigate", "card": "CNOT"}, {"do": "exchange", "card": "SWAP"},
                {"do": "navigate", "card": "X"}, {"do": "navigate", "card": "H"}):
        play(g, **act)
        snapshots.append(g.to_dict())
        while g.pending:
            choose(g, g.pending["options"][-1])
            snapshots.append(g.to_dict())
    assert len(g.inputs) == len(snapshots) - 1
    for expected in reversed(snapshots[:-1]):
        g.pop()
        assert g.to_dict() == expected
    with pytest.raises(IllegalAction):
        g.pop()


def test_pop_then_push_repeats_the_same_dice_and_draws():
    g = scripted_game()
    before = g.to_dict()
    first = play(g, "navigate", "CNOT")  # entry: seeded orbital roll (maybe detection)
    after = g.to_dict()
    assert g.pop()["card"] == "CNOT"
    assert g.to_dict() == before
    assert play(g, "navigate", "CNOT") == first
    assert g.to_dict() == after


def test_pop_undoes_a_choice_back_to_the_prompt():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             ship_components={M: ["magnetic_shielding"]}, dice=[2, 7])
    play(g, "navigate", "X")
    at_prompt = g.to_dict()
    choose(g, "reroll")
    assert g.pending is None
    g.pop()
    assert g.to_dict() == at_prompt and g.pending["kind"] == "magnetic_shielding"


def test_to_dict_round_trips_through_json():
    g = scripted_game()
    play(g, "navigate", "CNOT")
    data = json.loads(json.dumps(g.to_dict()))
    assert Entanglion.from_dict(data).to_dict() == g.to_dict()


def test_a_saved_game_names_its_game_and_seed():
    """A saved game says which game it is (the journal and the CLI tell the three games
    apart by it) and keeps the seed that decides its dice and shuffles."""
    g = game(seed=11)
    data = g.to_dict()
    assert data["game"] == "entanglion" and data["seed"] == 11
    assert Entanglion.from_dict(json.loads(json.dumps(data))).to_dict()["game"] == "entanglion"


def test_from_dict_at_a_prompt_continues_identically():
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             ship_components={M: ["magnetic_shielding"]}, dice=[2], seed=4)
    play(g, "navigate", "X")
    copy = Entanglion.from_dict(json.loads(json.dumps(g.to_dict())))
    assert copy.pending == g.pending
    choose(g, "reroll")
    choose(copy, "reroll")
    assert copy.to_dict()["state"] == g.to_dict()["state"]
    assert copy.log == g.log


def test_pass_only_when_nothing_else_is_possible():
    g = game(hands={M: [], R: ["H", "H", "H"]})
    assert g.legal_actions() == [{"player": M, "do": "pass"}]
    play(g, "pass")
    assert g.state.turn_player == R and g.state.turn_number == 2


# --------------------------------------------------------------- first game

def test_first_game_example():
    data = scenario.load(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))
    status, rep = scenario.run(data, str(EXAMPLE))
    assert status == 0 and rep["error"] is None
    assert rep["ships"] == {M: "ONE", R: "ONE"}
    assert rep["detection"] == {"space": 2, "value": 2}
    assert rep["components"][M] == ["quantum_gates"] and rep["components"][R] == []
    assert rep["components"]["planets"]["PHI_PLUS"] is None
    assert rep["held_events"] == {M: [], R: ["heisenberg"]}
    assert rep["engine_control"] == []
    assert Counter(rep["engine_discard"]) == Counter({"H": 2, "CNOT": 1})
    # Mercurial drew X after the H, Rubicon drew H after the CNOT (rule book), then SWAP
    assert sorted(rep["hands"][M]) == ["H", "X", "X"]
    assert sorted(rep["hands"][R]) == ["SWAP", "SWAP", "X"]  # H drawn, then played
    assert rep["turn"]["player"] == M and rep["status"] == "playing"
