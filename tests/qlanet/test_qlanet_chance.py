"""Every kind of chance the QLANET engine owns is seeded and really random.

The opening (mirrored pairs, the hidden centre), the first camp, refills from the
open supply, the deck's shuffle and its reshuffle, M on a planet in superposition,
and a BM's outcome (Born rule) or secret code (uniform_secret): for each, the same
seed gives the same result, and a fixed range of seeds gives a spread that fits the
rule (chi-square, ``spread.py``). Everything else is pinned by the set-up.
"""

from __future__ import annotations

from collections import Counter

import pytest
from qlanet_helpers import BELLS, at, game, play, shown

from companion.games.qlanet import Qlanet
from spread import assert_spread, proportional, same_for_same_seed, uniform

CARDS = ("X", "H", "Z", "M", "CX0", "CX1", "SW", "BM")
SEEDS = range(400)
REST = ["0"] * 7


# ------------------------------------------------------------------ the opening


def test_opening_pairs_centre_and_first_camp_are_random():
    """D3: each mirrored pair + or - (both planets alike), the hidden centre 0, 1, + or
    -; D4: the first camp 0 or 1; all equally likely and independent of each other."""
    same_for_same_seed(Qlanet, lambda g: (g.view("truth"), g.awaiting()))
    games = [Qlanet(seed) for seed in SEEDS]
    for a, b in ((1, 9), (2, 8), (3, 7), (4, 6)):
        pair = [(g.view("truth")[a - 1]["shown"], g.view("truth")[b - 1]["shown"])
                for g in games]
        assert_spread(pair, uniform([("+", "+"), ("-", "-")]), f"planets {a} and {b}")
    assert_spread([g.view("truth")[4]["shown"] for g in games], uniform("01+-"), "hidden centre")
    assert_spread([g.awaiting() for g in games], uniform((0, 1)), "first camp")
    # Independence: planet 1 and the centre together, all eight combinations.
    both = [(g.view("truth")[0]["shown"], g.view("truth")[4]["shown"]) for g in games]
    assert_spread(both, uniform((p, c) for p in "+-" for c in "01+-"), "planet 1 with the centre")


def test_public_centre_opening_is_plus_or_minus_at_random():
    games = [Qlanet(seed, {"opening": "public_centre"}) for seed in SEEDS]
    assert_spread([g.view("spectator")[4]["shown"] for g in games], uniform("+-"), "public centre")


# ---------------------------------------------------------------------- refills


def test_supply_refills_are_any_of_the_eight_cards():
    """D2 supply: the dealt hands and every refill, each card type 1 in 8."""
    same_for_same_seed(Qlanet, lambda g: g.state.hands)
    dealt = [c for seed in range(200) for h in Qlanet(seed).state.hands for c in h]
    assert_spread(dealt, uniform(CARDS), "dealt cards")

    def refill(seed: int) -> str:
        g = game(seed=seed, hands=[["Z"] * 4, ["Z"] * 4])
        (e,) = [e for e in play(g, "Z", 1) if e["type"] == "refill"]
        return e["card"]

    same_for_same_seed(refill, lambda c: c)
    assert_spread([refill(seed) for seed in SEEDS], uniform(CARDS), "refill")


DECK = {"refill": "deck"}


def test_deck_is_shuffled_at_set_up():
    """D2 deck: 6 of each type shuffled; the hands are its top cards."""
    same_for_same_seed(lambda seed: Qlanet(seed, DECK), lambda g: g.state.deck)
    games = [Qlanet(seed, DECK) for seed in SEEDS]
    assert_spread([g.state.hands[0][0] for g in games], uniform(CARDS), "first card dealt")
    assert_spread([g.state.deck[-1] for g in games], uniform(CARDS), "bottom card of the deck")


def emptied_deck(seed: int) -> Qlanet:
    """Camp 0 to play with the deck empty and the discard pile in a fixed order."""
    g = game(seed=seed, options=DECK)
    s = g.state
    held = Counter(s.hands[0] + s.hands[1])
    s.discard = [c for c in CARDS for _ in range(6 - held[c])]  # a test set-up
    s.deck = []
    return g


def test_reshuffle_waits_for_the_refill_that_finds_the_deck_empty():
    """D2 deck, as the engine reads "reshuffled when the deck runs out": the discard
    pile is shuffled at the next refill, so the card just played goes in too."""
    g = game(options=DECK)
    s = g.state
    s.discard += s.deck[1:]  # leave one card in the deck (a test set-up)
    del s.deck[1:]
    last = s.deck[0]
    entries = play(g, "Z", 1)  # camp 0: the last card is the refill
    assert [e["type"] for e in entries] == ["play", "refill", "turn"]
    assert g.state.hands[0][-1] == last and g.state.deck == []
    discard = g.state.discard + ["X"]
    entries = play(g, "X", 2)  # camp 1 (lower total): played, then the reshuffle
    assert [e["type"] for e in entries][:3] == ["play", "reshuffle", "refill"]
    assert entries[1]["cards"] == len(discard)
    assert Counter(g.state.deck + [g.state.hands[1][-1]]) == Counter(discard)
    assert g.state.discard == []


def test_reshuffle_is_random():
    def new_deck(seed: int) -> list[str]:
        g = emptied_deck(seed)
        (e,) = [e for e in play(g, "Z", 1) if e["type"] == "refill"]
        return [e["card"]] + g.state.deck  # the reshuffled pile, top first

    same_for_same_seed(new_deck, lambda d: d)
    decks = [new_deck(seed) for seed in SEEDS]
    content = Counter(decks[0])
    assert all(Counter(d) == content for d in decks)
    assert_spread([d[0] for d in decks], proportional(content), "top card after a reshuffle")
    assert_spread([d[-1] for d in decks], proportional(content), "bottom card after a reshuffle")


# ------------------------------------------------------------------ measurements


@pytest.mark.parametrize("before", ["+", "-"])
def test_measure_in_superposition_is_a_fair_coin(before):
    def result(seed: int) -> str:
        g = game([before] + ["0"] * 8, hands=[["M", "Z", "Z", "Z"], ["Z"] * 4], seed=seed)
        play(g, "M", 1)
        return shown(g)[0]

    same_for_same_seed(result, lambda r: r)
    assert_spread([result(seed) for seed in SEEDS], uniform(["F0", "F1"]), f"M on {before}")


@pytest.mark.parametrize("a, b, outcomes", [
    ("0", "+", BELLS),               # one Z-type and one X-type input: all four
    ("0", "0", ("Phi+", "Phi-")),    # same values: the Phi pair
    ("+", "-", ("Phi-", "Psi-")),    # opposite phases: the minus pair
])
def test_bell_measurement_follows_the_born_rule(a, b, outcomes):
    """D11 born: each outcome the inputs allow is equally likely."""
    def code(seed: int) -> str:
        g = game([a, b] + REST, hands=[["BM", "Z", "Z", "Z"], ["Z"] * 4], seed=seed)
        play(g, "BM", 1, 2)
        return at(g, 1)["bell"]

    same_for_same_seed(code, lambda c: c)
    assert_spread([code(seed) for seed in SEEDS], uniform(outcomes), f"BM on {a} and {b}")


def test_uniform_secret_code_is_any_of_four_whatever_the_inputs():
    """D11 uniform_secret: from 0 and 0 (which Born allows only Phi+/Phi-) all four."""
    def code(seed: int) -> str:
        g = game(["0", "0"] + REST, hands=[["BM", "Z", "Z", "Z"], ["Z"] * 4], seed=seed,
                 options={"bm_outcome": "uniform_secret"})
        play(g, "BM", 1, 2)
        return at(g, 1)["bell"]

    same_for_same_seed(code, lambda c: c)
    assert_spread([code(seed) for seed in SEEDS], uniform(BELLS), "uniform secret code")
