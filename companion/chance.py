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
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # SplitMix64's two multipliers

T = TypeVar("T")


def seed_state(seed: int) -> int:
    """Generator state for a user-facing seed (any int, negative included)."""
    return seed & _MASK


def next64(state: int) -> tuple[int, int]:
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Uniform integer in ``range(n)``; rejection sampling keeps it unbiased."""
    # next64 written out: every die and shuffle of every game goes through here.
    limit = _LIMITS[n] if 0 < n < _SMALL else _limit(n)
    s = state & _MASK  # the same draws, and 64-bit words throughout for a compiled build
    while True:
        s = (s + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        z ^= z >> 31
        if z <= limit:
            return s, z % n


def _limit(n: int) -> int:
    """The largest draw kept for ``n``: one below the largest multiple of ``n`` that fits
    in 64 bits (draws above it are redrawn, so every value of ``z % n`` is as likely)."""
    if n <= 0:
        raise ValueError("n must be positive")
    return (1 << 64) - ((1 << 64) % n) - 1


_SMALL = 64  # dice and the decks' shuffles: their limits are looked up, not recomputed
_LIMITS = (0,) + tuple(_limit(n) for n in range(1, _SMALL))


def shuffle(state: int, items: MutableSequence[T]) -> int:
    """Fisher-Yates shuffle in place; returns the new generator state."""
    # below() written out: a game's reshuffles make most of its draws.
    s = state & _MASK
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n < _SMALL else _limit(n)
        while True:
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            if z <= limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return s
