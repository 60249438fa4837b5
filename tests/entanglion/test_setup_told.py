"""Set-up, told and dealt: every set-up a scenario file or a test can give is either
played or refused in words that name what is wrong, and a seed always deals the same game.

The second matters beyond tests: a journal keeps a game as its seed, options and
inputs, and replays them after a power cut; a seed that dealt differently after an
update would resume somebody's game as another. The deals below are the engine's own
generator (``companion.games.entanglion.chance``), the same on every machine and Python.
"""

from __future__ import annotations

import pytest

from companion.games.entanglion import Entanglion
from companion.games.entanglion.engine import SetupError

from helpers import RING, M, R

# Seed 0: the plain deal. Seed 40: a tie for first player (6 and 6), rolled again; Rubicon
# starts, and the ships begin on two planets. Each: the whole set-up log (components
# placed, the rolls), the hands and both decks, top card first.
DEALT = {0: {'log': [{'type': 'setup',
              'components': {'OMEGA_ZERO': 'dilution_refrigerator',
                             'OMEGA_ONE': 'control_infrastructure',
                             'PSI_MINUS': 'physical_qubits',
                             'PHI_MINUS': 'quantum_gates',
                             'OMEGA_THREE': 'quantum_programming',
                             'OMEGA_TWO': 'qubit_interconnect',
                             'PHI_PLUS': 'quantum_error_correction',
                             'PSI_PLUS': 'magnetic_shielding'},
              'detection': 1},
             {'type': 'roll',
              'player': 'mercurial',
              'die': 'd8',
              'raw': 4,
              'modifier': 0,
              'modified': 4,
              'purpose': 'first player',
              'result': 'first'},
             {'type': 'roll',
              'player': 'rubicon',
              'die': 'd8',
              'raw': 2,
              'modifier': 0,
              'modified': 2,
              'purpose': 'first player',
              'result': 'second'},
             {'type': 'roll',
              'player': 'mercurial',
              'die': 'centarious',
              'raw': 1,
              'modifier': 0,
              'modified': 1,
              'purpose': 'ship placement',
              'result': 'ONE'},
             {'type': 'roll',
              'player': 'rubicon',
              'die': 'centarious',
              'raw': 1,
              'modifier': 0,
              'modified': 1,
              'purpose': 'ship placement',
              'result': 'ONE'},
             {'type': 'draw', 'player': 'mercurial', 'card': 'CNOT'},
             {'type': 'draw', 'player': 'mercurial', 'card': 'SWAP'},
             {'type': 'draw', 'player': 'mercurial', 'card': 'X'},
             {'type': 'draw', 'player': 'rubicon', 'card': 'SWAP'},
             {'type': 'draw', 'player': 'rubicon', 'card': 'H'},
             {'type': 'draw', 'player': 'rubicon', 'card': 'H'},
             {'type': 'turn', 'player': 'mercurial', 'number': 1}],
     'hands': {'mercurial': ['CNOT', 'SWAP', 'X'], 'rubicon': ['SWAP', 'H', 'H']},
     'engine_stack': ['CNOT', 'X', 'H', 'X', 'CNOT', 'H', 'X', 'CNOT', 'H', 'X', 'H', 'SWAP',
                      'CNOT', 'H', 'H', 'CNOT', 'CNOT', 'PROBE'],
     'event_deck': ['bit_flip_error', 'the_mechanic', 'spooky_action', 'schrodinger',
                    'heisenberg', 'quantum_shuffle', 'bennett', 'wave_function_collapse',
                    'quantum_tunnel']},
 40: {'log': [{'type': 'setup',
               'components': {'OMEGA_ZERO': 'qubit_interconnect',
                              'OMEGA_ONE': 'physical_qubits',
                              'PSI_MINUS': 'magnetic_shielding',
                              'PHI_MINUS': 'control_infrastructure',
                              'OMEGA_THREE': 'dilution_refrigerator',
                              'OMEGA_TWO': 'quantum_gates',
                              'PHI_PLUS': 'quantum_programming',
                              'PSI_PLUS': 'quantum_error_correction'},
               'detection': 1},
              {'type': 'roll',
               'player': 'mercurial',
               'die': 'd8',
               'raw': 6,
               'modifier': 0,
               'modified': 6,
               'purpose': 'first player',
               'result': 'tie'},
              {'type': 'roll',
               'player': 'rubicon',
               'die': 'd8',
               'raw': 6,
               'modifier': 0,
               'modified': 6,
               'purpose': 'first player',
               'result': 'tie'},
              {'type': 'roll',
               'player': 'mercurial',
               'die': 'd8',
               'raw': 2,
               'modifier': 0,
               'modified': 2,
               'purpose': 'first player',
               'result': 'second'},
              {'type': 'roll',
               'player': 'rubicon',
               'die': 'd8',
               'raw': 8,
               'modifier': 0,
               'modified': 8,
               'purpose': 'first player',
               'result': 'first'},
              {'type': 'roll',
               'player': 'rubicon',
               'die': 'centarious',
               'raw': 0,
               'modifier': 0,
               'modified': 0,
               'purpose': 'ship placement',
               'result': 'ZERO'},
              {'type': 'roll',
               'player': 'mercurial',
               'die': 'centarious',
               'raw': 1,
               'modifier': 0,
               'modified': 1,
               'purpose': 'ship placement',
               'result': 'ONE'},
              {'type': 'draw', 'player': 'rubicon', 'card': 'SWAP'},
              {'type': 'draw', 'player': 'rubicon', 'card': 'CNOT'},
              {'type': 'draw', 'player': 'rubicon', 'card': 'X'},
              {'type': 'draw', 'player': 'mercurial', 'card': 'CNOT'},
              {'type': 'draw', 'player': 'mercurial', 'card': 'X'},
              {'type': 'draw', 'player': 'mercurial', 'card': 'H'},
              {'type': 'turn', 'player': 'rubicon', 'number': 1}],
      'hands': {'mercurial': ['CNOT', 'X', 'H'], 'rubicon': ['SWAP', 'CNOT', 'X']},
      'engine_stack': ['SWAP', 'CNOT', 'H', 'CNOT', 'H', 'X', 'H', 'SWAP', 'CNOT', 'X', 'CNOT',
                       'H', 'H', 'CNOT', 'X', 'H', 'H', 'PROBE'],
      'event_deck': ['bit_flip_error', 'wave_function_collapse', 'heisenberg', 'spooky_action',
                     'bennett', 'quantum_shuffle', 'the_mechanic', 'schrodinger',
                     'quantum_tunnel']}}


@pytest.mark.parametrize("seed", sorted(DEALT))
def test_a_seed_deals_the_same_game_as_it_always_has(seed):
    g = Entanglion(seed=seed)
    s = g.state
    assert g.log == DEALT[seed]["log"]
    assert s.hands == DEALT[seed]["hands"]
    assert s.engine_stack == DEALT[seed]["engine_stack"]
    assert s.event_deck == DEALT[seed]["event_deck"]
    assert s.planet_components == g.log[0]["components"] and s.detection == 1
    assert (s.turn_player, s.turn_number, s.status) == (g.log[-1]["player"], 1, "playing")


def test_a_game_made_without_a_seed_is_seed_0s():
    """A game made without a seed, as a scenario file without one (docs/scenarios.md), is
    seed 0's."""
    assert Entanglion().to_dict() == Entanglion(seed=0).to_dict()
    assert Entanglion().log == DEALT[0]["log"]


ALL_EMPTY_BUT_ONE = {p: None for p in RING[:-1]}

REFUSED = [
    ({"setup": {"colour": "red", "bonus": 1}}, "unknown setup key(s): bonus, colour"),
    ({"setup": {"first_player": "venus"}}, "setup.first_player must be mercurial or rubicon"),
    ({"setup": {"ships": {M: "ZERO"}}}, "setup.ships must give a planet for mercurial and rubicon"),
    ({"setup": {"ships": ["ZERO", "ZERO"]}}, "setup.ships must give a planet for mercurial and rubicon"),
    ({"setup": {"ships": {M: "ZERO", R: 1}}}, "setup.ships must give a planet for mercurial and rubicon"),
    ({"setup": {"ships": {M: "PHI_PLUS", R: "ZERO"}}},
     "setup.ships ('PHI_PLUS', 'ZERO') is not a board position (inside Entanglion both ships "
     "share one planet)"),
    ({"setup": {"detection_space": 12}}, "setup.detection_space must be 1-11"),
    ({"setup": {"detection_space": 0}}, "setup.detection_space must be 1-11"),
    ({"setup": {"detection_space": 2.0}}, "setup.detection_space must be 1-11"),
    ({"setup": {"detection_space": True}}, "setup.detection_space must be 1-11"),
    ({"setup": {"hands": {"venus": []}}}, "setup.hands must map mercurial/rubicon to lists of names"),
    ({"setup": {"hands": {M: "XHC"}}}, "setup.hands must map mercurial/rubicon to lists of names"),
    ({"setup": {"held_events": []}}, "setup.held_events must map mercurial/rubicon to lists of names"),
    ({"setup": {"ship_components": {M: [1]}}},
     "setup.ship_components must map mercurial/rubicon to lists of names"),
    ({"setup": {"engine_stack": "H"}}, "setup.engine_stack must be a list of card names (top card first)"),
    ({"setup": {"event_deck": [None]}}, "setup.event_deck must be a list of card names (top card first)"),
    ({"setup": {"components": {"ZERO": "quantum_gates"}}},
     "setup.components must map Entanglion planets to components"),
    ({"setup": {"components": {"PHI_PLUS": 3}}}, "setup.components must map Entanglion planets to components"),
    ({"setup": {"components": []}}, "setup.components must map Entanglion planets to components"),
    ({"setup": {"components": {"PHI_PLUS": "warp_drive"}}}, "unknown component 'warp_drive'"),
    ({"setup": {"components": {"PHI_PLUS": "quantum_gates"}, "ship_components": {M: ["quantum_gates"]}}},
     "too many 'quantum_gates' among the components given (the game has 1)"),
    ({"setup": {"components": ALL_EMPTY_BUT_ONE}}, "8 components left for 1 free planets"),
    ({"setup": {"hands": {M: ["PROBE", "H", "H"]}}}, "PROBE cannot start in a hand"),
    ({"setup": {"hands": {M: ["TOFFOLI"]}}}, "unknown engine card 'TOFFOLI'"),
    ({"setup": {"hands": {M: ["SWAP", "SWAP"]}, "engine_stack": ["SWAP", "SWAP"]}},
     "too many 'SWAP' among the engine cards given (the game has 3)"),
    ({"setup": {"held_events": {M: ["schrodinger"]}}}, "only kept events can start in hand, not ['schrodinger']"),
    ({"setup": {"event_deck": ["bennett", "bennett"]}},
     "too many 'bennett' among the event cards given (the game has 1)"),
    ({"setup": {"event_deck": ["warp"]}}, "unknown event card 'warp'"),
    ({"dice": [9]}, "forced dice must be whole numbers 0-8, not 9"),
    ({"dice": ["1"]}, "forced dice must be whole numbers 0-8, not '1'"),
    ({"dice": [0]}, "forced die value 0 cannot be a d8 result (1-8) for first player"),
    ({"setup": {"first_player": M}, "dice": [2]},
     "forced die value 2 cannot be a centarious result (0-1) for ship placement"),
    ({"options": {"dice": "loaded"}}, "option 'dice' must be one of 'auto', 'manual', not 'loaded'"),
]


@pytest.mark.parametrize("given, told", REFUSED, ids=[t for _, t in REFUSED])
def test_a_set_up_that_cannot_be_played_is_refused_in_words(given, told):
    with pytest.raises(SetupError) as caught:
        Entanglion(**given)
    assert str(caught.value) == told


def test_a_set_up_given_in_any_case_is_the_cards_it_names_and_the_rest_is_dealt_around_it():
    g = Entanglion(seed=3, setup={
        "first_player": R, "ships": {M: "PLUS", R: "MINUS"}, "detection_space": 4,
        "hands": {M: ["x", "h", "Cnot"]}, "engine_stack": ["swap", "H"],
        "held_events": {R: ["Heisenberg"]}, "event_deck": ["BENNETT"],
        "components": {"PHI_PLUS": "quantum_gates", "PSI_PLUS": None},
        "ship_components": {R: ["magnetic_shielding"]}})
    s = g.state
    assert (s.turn_player, s.pos, s.detection) == (R, ("PLUS", "MINUS"), 4)
    # the stack given is the top of the deck, so Rubicon's hand, dealt, begins with it
    assert s.hands[M] == ["X", "H", "CNOT"] and s.hands[R][:2] == ["SWAP", "H"]
    assert len(s.hands[R]) == 3 and s.engine_stack[-1] == "PROBE"
    assert sorted(s.hands[M] + s.hands[R] + s.engine_stack) == sorted(
        ["H"] * 8 + ["CNOT"] * 7 + ["X"] * 5 + ["SWAP"] * 3 + ["PROBE"])
    assert s.held_events == {M: [], R: ["heisenberg"]}
    assert s.event_deck[0] == "bennett" and len(s.event_deck) == 8
    # Quantum Shuffle goes in with three cards beneath it, under the cards given on top
    assert s.event_deck[-4] == "quantum_shuffle"
    assert s.planet_components["PHI_PLUS"] == "quantum_gates" and s.planet_components["PSI_PLUS"] is None
    placed = [c for c in s.planet_components.values() if c]
    assert len(placed) == 7 and "magnetic_shielding" not in placed
    assert s.ship_components == {M: [], R: ["magnetic_shielding"]}
    # nothing rolled (first player and ships given); Rubicon's three cards drawn, logged
    assert [e["type"] for e in g.log] == ["setup", "draw", "draw", "draw", "turn"]
