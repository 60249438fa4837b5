"""Every kind of chance in QNO is seeded and really random.

The engine owns two: the random dealer (ruling 16) and H outcomes (a fair coin,
ruling 12). The cards themselves are the players' chance; in the simulator and the
tests the ``Table`` stands in for them, so its shuffles (the deck, a start gate
shuffled back under ruling 1's reshuffle option, and the discards reshuffled into a
new pile) are checked too. For each: the same seed gives the same result, and a
fixed range of seeds gives a spread that fits (chi-square, ``spread.py``).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from qno_helpers import dealt

from companion.games.qno import Qno
from companion.games.qno.cards import full_deck, parse
from companion.games.qno.table import Table
from spread import assert_spread, proportional, same_for_same_seed

SEEDS = range(400)


def kind(card: str) -> str:
    """A card's state, or "gate": 25 cards of each state and 12 gates in the deck."""
    state, _ = parse(card)
    return state or "gate"


DECK_KINDS = proportional({"00": 25, "01": 25, "10": 25, "11": 25, "gate": 12})


@pytest.mark.parametrize("players", [3, 5])
def test_random_dealer_is_any_seat_and_the_next_seat_starts(players):
    def make(seed: int) -> Qno:
        return Qno(seed, {"players": players, "first_player": "random"})

    same_for_same_seed(make, lambda g: g.log)
    games = [make(seed) for seed in SEEDS]
    dealers = [next(e["player"] for e in g.log if e["type"] == "dealer") for g in games]
    assert_spread(dealers, {p: 1 / players for p in range(1, players + 1)}, "dealer")
    assert all(g.state.turn == d % players + 1 for g, d in zip(games, dealers))


@pytest.mark.parametrize("qubit, outcomes", [(0, ("10", "11")), (1, ("00", "10"))])
def test_h_outcome_is_a_fair_coin(qubit, outcomes):
    def outcome(seed: int) -> str:
        g = dealt([["H", "00_1"], ["00_2", "00_3"]], "10_5", seed=seed)
        g.push({"do": "play", "card": "H", "qubit": qubit})
        g.push({"do": "choose", "value": outcomes[0]})  # the guess does not matter
        (reveal,) = [e for e in g.log if e["type"] == "reveal"]
        return reveal["result"]

    same_for_same_seed(outcome, lambda r: r)
    assert_spread([outcome(seed) for seed in SEEDS], {o: 0.5 for o in outcomes},
                  f"H on qubit {qubit} of |10>")


def test_table_deck_is_shuffled():
    same_for_same_seed(lambda seed: Table(3, seed), lambda t: t.pile)
    tables = [Table(3, seed) for seed in SEEDS]
    assert_spread([kind(t.next_card()) for t in tables], DECK_KINDS, "top card of the deck")
    assert_spread([kind(t.pile[0]) for t in tables], DECK_KINDS, "bottom card of the deck")


def follow(table: Table, *entries: dict) -> Table:
    """Let the table follow log entries as it follows an engine's log."""
    table.follow(SimpleNamespace(log=list(entries)))
    return table


def test_table_reshuffles_the_discards_into_a_new_pile():
    def reshuffled(seed: int) -> Table:
        t = Table(2, seed)
        t.discard, t.pile = full_deck(), []  # every card played, in deck order
        return follow(t, {"type": "reshuffle", "count": 111})

    same_for_same_seed(reshuffled, lambda t: t.pile)
    tables = [reshuffled(seed) for seed in SEEDS]
    assert all(t.discard == [full_deck()[-1]] and len(t.pile) == 111 for t in tables)
    weights = proportional({"00": 25, "01": 25, "10": 25, "11": 25, "gate": 11})
    assert_spread([kind(t.next_card()) for t in tables], weights, "top card after a reshuffle")


def test_table_shuffles_a_start_gate_back_in_under_the_reshuffle_ruling():
    def turned(seed: int) -> Table:
        t = Table(2, seed)
        t.pile = sorted(t.pile, key=kind)  # a known order: the gates on top
        return follow(t, {"type": "start_gate", "card": "X", "how": "reshuffle"})

    same_for_same_seed(turned, lambda t: t.pile)
    assert_spread([kind(turned(seed).next_card()) for seed in SEEDS], DECK_KINDS,
                  "top card after a start gate is shuffled back")
