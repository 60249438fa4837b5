"""Every kind of chance the Entanglion engine owns is seeded and really random.

For each one (the dice, component placement, the engine stack and event deck at
set-up, the engine reshuffle, the Quantum Shuffle rebuild, Spooky Action's pick) the
same seed gives the same result, and a fixed range of seeds gives a spread that fits
the rule (a chi-square test, see ``spread.py``). Everything else in each situation is
pinned (dice forced, decks given), so the seed only reaches the chance under test.
"""

from __future__ import annotations

from collections import Counter

from companion.games.entanglion import Entanglion

from helpers import (
    COMPONENTS, ENGINE_COUNTS, EVENTS, M, R, RING, at, detected, entries, game, play, rolls,
)
from spread import assert_spread, proportional, same_for_same_seed, uniform

SEEDS = range(400)


# ------------------------------------------------------------------------ set-up


def setups():
    return [Entanglion(seed) for seed in SEEDS]


def test_setup_dice_are_fair_and_seeded():
    games = setups()
    same_for_same_seed(Entanglion, lambda g: g.log)
    first = [rolls(g, "first player")[0] for g in games]  # Mercurial's first d8
    assert_spread([e["raw"] for e in first], uniform(range(1, 9)), "first-player d8")
    starters = [g.state.turn_player for g in games]
    assert_spread(starters, uniform((M, R)), "first player")
    places = [e["raw"] for g in games for e in rolls(g, "ship placement")]
    assert_spread(places, uniform((0, 1)), "Centarious die")


def test_components_are_placed_at_random():
    games = setups()
    same_for_same_seed(Entanglion, lambda g: g.state.planet_components)
    for planet in RING:
        assert_spread([g.state.planet_components[planet] for g in games], uniform(COMPONENTS),
                      f"component on {planet}")
    # Each pair's planets are independent too: the component on OMEGA ZERO says
    # nothing about its clockwise neighbour beyond "not the same one".
    pairs = [(g.state.planet_components["OMEGA_ZERO"], g.state.planet_components["OMEGA_ONE"])
             for g in games]
    assert_spread(pairs, uniform((a, b) for a in COMPONENTS for b in COMPONENTS if a != b),
                  "components on OMEGA ZERO and OMEGA ONE")


def test_engine_stack_is_shuffled_above_probe():
    games = setups()
    same_for_same_seed(Entanglion, lambda g: g.state.engine_stack)
    weights = proportional({c: n for c, n in ENGINE_COUNTS.items() if c != "PROBE"})
    # The first card dealt was the top of the shuffled 23; the one above PROBE is its last.
    firsts = [entries(g, "draw")[0]["card"] for g in games]
    assert_spread(firsts, weights, "first engine card dealt")
    assert_spread([g.state.engine_stack[-2] for g in games], weights, "card above PROBE")
    assert all(g.state.engine_stack[-1] == "PROBE" for g in games)


def test_event_deck_is_shuffled_around_quantum_shuffle():
    games = setups()
    same_for_same_seed(Entanglion, lambda g: g.state.event_deck)
    others = [e for e in EVENTS if e != "quantum_shuffle"]
    assert_spread([g.state.event_deck[0] for g in games], uniform(others), "top event card")
    assert_spread([g.state.event_deck[-1] for g in games], uniform(others), "bottom event card")


# ------------------------------------------------------------------ during play


def spooky_pick(seed: int) -> str:
    """Mercurial holds three components and draws Spooky Action on a detection; all
    dice are forced, so only the face-down pick is left to chance."""
    free = ("OMEGA_ONE", "PHI_MINUS", "OMEGA_THREE")
    components = dict.fromkeys(free)
    components.update(zip([p for p in RING if p not in free], [
        "physical_qubits", "qubit_interconnect", "dilution_refrigerator",
        "magnetic_shielding", "quantum_programming"]))
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
             components=components, seed=seed, events=["spooky_action"], dice=[1, 0, 3],
             ship_components={M: ["quantum_gates", "quantum_error_correction",
                                  "control_infrastructure"]})
    play(g, "navigate", "X")  # PHI PLUS -> PSI PLUS, which holds a component: detected
    (moved,) = entries(g, "teleported")
    assert moved["planet"] == "OMEGA_THREE"  # roll 3: the third free planet
    return moved["component"]


def test_spooky_action_picks_one_of_the_ships_components_at_random():
    same_for_same_seed(spooky_pick, lambda c: c)
    picks = [spooky_pick(seed) for seed in range(300)]
    assert_spread(picks, uniform(["quantum_gates", "quantum_error_correction",
                                  "control_infrastructure"]), "Spooky Action's pick")


def reshuffled(seed: int) -> list[str]:
    """The new engine stack made when the exchanges below draw the last card."""
    g = game(hands={M: ["X", "X", "X"], R: ["X", "X", "H"]}, dice=[8], seed=seed,
             stack=["PROBE"] + ["H"] * 7 + ["CNOT"] * 7 + ["SWAP"] * 3)
    while not entries(g, "reshuffle", deck="engine"):
        play(g, "exchange", g.state.hands[g.state.turn_player][0])
    return list(g.state.engine_stack)


def test_engine_reshuffle_is_random_with_probe_anywhere():
    same_for_same_seed(reshuffled, lambda s: s)
    stacks = [reshuffled(seed) for seed in range(300)]
    content = Counter(stacks[0])
    assert all(Counter(s) == content for s in stacks), "the discard pile differs by seed"
    assert content["PROBE"] == 1 and len(stacks[0]) == 18
    assert_spread([s.index("PROBE") for s in stacks], uniform(range(18)), "PROBE's place")
    assert_spread([s[0] for s in stacks], proportional(content), "top card after a reshuffle")


def quantum_shuffle_draw(seed: int) -> str:
    """The event drawn after Quantum Shuffle rebuilds the deck (deck and discard)."""
    g = detected(["quantum_shuffle"], seed=seed)
    names = [e["card"] for e in entries(g, "event")]
    assert names[0] == "quantum_shuffle" and len(names) == 2
    return names[1]


def test_quantum_shuffle_rebuild_is_random():
    same_for_same_seed(quantum_shuffle_draw, lambda c: c)
    draws = [quantum_shuffle_draw(seed) for seed in SEEDS]
    assert_spread(draws, uniform(e for e in EVENTS if e != "quantum_shuffle"),
                  "event drawn after Quantum Shuffle")


def test_orbital_die_is_fair():
    def roll(seed: int) -> int:
        g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "H"], R: ["H", "H", "H"]},
                 seed=seed, events=["bennett"])
        play(g, "navigate", "X")
        (e,) = rolls(g, "orbital defence")
        return e["raw"]

    same_for_same_seed(roll, lambda r: r)
    assert_spread([roll(seed) for seed in SEEDS], uniform(range(1, 9)), "orbital d8")
