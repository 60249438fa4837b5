"""Seeded chance that lives in a game's state.

Engines keep one integer (the generator state) in their plain-data state, so a game
replays bit for bit from its seed and inputs on any machine and any Python version
(``random.Random`` promises neither a stable algorithm nor a small state). The
generator is SplitMix64: tiny, fast in pure Python and good enough for dice and
shuffles. Functions are pure: they take the state and return ``(new_state, value)``.
"""

from __future__ import annotations

from typing import MutableSequence, TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def seed_state(seed: int) -> int:
    """Generator state for a user-facing seed (any int, negative included)."""
    return seed & _MASK


def next64(state: int) -> tuple[int, int]:
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Uniform integer in ``range(n)``; rejection sampling keeps it unbiased."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next64(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: MutableSequence[T]) -> int:
    """Fisher-Yates shuffle in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
