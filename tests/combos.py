"""Option combinations for the random-game property tests.

Each game's property test plays some games under a random value of every ruling. A
random sample is only as good as what it happens to hold, so each test also checks
that its sample meets every pair of rulings in every pair of their values: any two
rulings that interact have then been played together, whichever values matter.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, Iterable, Mapping


def random_options(rulings: Mapping[str, Any], seed: str) -> dict[str, Any]:
    """A value for every ruling, drawn from ``seed`` (the same seed, the same values)."""
    rnd = random.Random(seed)
    return {name: rnd.choice(choice.allowed) for name, choice in rulings.items()}


def missing_pairs(rulings: Mapping[str, Any], samples: Iterable[dict[str, Any]]
                  ) -> list[tuple[tuple[str, Any], tuple[str, Any]]]:
    """Pairs of (ruling, value) that no sample holds together."""
    seen = set()
    for options in samples:
        items = sorted((k, repr(v)) for k, v in options.items())
        seen.update(itertools.combinations(items, 2))
    out = []
    for a, b in itertools.combinations(sorted(rulings), 2):
        for va, vb in itertools.product(rulings[a].allowed, rulings[b].allowed):
            if ((a, repr(va)), (b, repr(vb))) not in seen:
                out.append(((a, va), (b, vb)))
    return out
