"""The seeded generator every engine keeps in its state: its sequence is part of the
journal format (a game replays from its seed and inputs), so it is pinned here."""

import pytest

from companion.chance import below, next64, seed_state, shuffle


def test_draws_are_pinned_for_a_seed():
    state, out = seed_state(2026), []
    for n in (2, 8, 23, 1000):
        state, value = below(state, n)
        out.append(value)
    assert out == [1, 5, 14, 186] and state == 8709371129873692734


def test_a_shuffle_is_pinned_for_a_seed():
    items = list(range(10))
    assert shuffle(seed_state(7), items) == 10372713005361028292
    assert items == [8, 1, 5, 9, 0, 4, 3, 2, 6, 7]


def test_below_is_next64_with_rejection_for_any_range():
    # A range over 2**63 rejects almost half the draws: the redraw path is exercised.
    assert below(seed_state(0), 2**63 + 1) == (4354685564936845354, 7960286522194355700)
    state = seed_state(99)
    for n in (1, 6, 63, 64, 65, 10**6):
        expected_state, value = next64(state)
        limit = (1 << 64) - ((1 << 64) % n)
        while value >= limit:
            expected_state, value = next64(expected_state)
        assert below(state, n) == (expected_state, value % n)
        state = expected_state


@pytest.mark.parametrize("n", [0, -1])
def test_an_empty_range_is_refused(n):
    with pytest.raises(ValueError):
        below(1, n)
