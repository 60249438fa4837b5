"""Is a seeded random choice really random? Chi-square checks for the chance tests.

Each game owns its chance (dice, shuffles, random picks) through a generator kept in
its state. The chance tests play one situation twice with one seed
(:func:`same_for_same_seed`), then over a fixed range of seeds, and count the
outcomes; :func:`assert_spread` asks whether those counts fit the rule's
probabilities. The seeds are fixed, so a test never flickers: it can only change its
verdict when the engine's random stream changes. The threshold ``P_MIN`` is 1 in
10,000: a correct engine fails a check only if its counts are rarer than that (so a
rewrite that reorders its random draws trips a check with probability 1e-4 per
check), while a rule bent to a fixed or lopsided choice gives p-values far below it.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Callable, Hashable, Iterable, Mapping

P_MIN = 1e-4


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom.

    The regularised upper incomplete gamma Q(df/2, x/2): a series below a + 1, a
    continued fraction (modified Lentz) above, both to double precision.
    """
    if df <= 0:
        raise ValueError("df must be positive")
    if x <= 0:
        return 1.0
    a, z = df / 2, x / 2
    log_front = -z + a * math.log(z) - math.lgamma(a)
    if z < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(log_front) * h


def chi_square(observed: Mapping[Hashable, int], probabilities: Mapping[Hashable, float]
               ) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of counts against probabilities.

    An outcome the rule does not allow (not in ``probabilities``, or probability 0)
    is a failure of its own: :func:`assert_spread` reports it before any p-value.
    """
    total = sum(observed.values())
    cells = [k for k, p in probabilities.items() if p > 0]
    stat = sum((observed.get(k, 0) - total * probabilities[k]) ** 2 / (total * probabilities[k])
               for k in cells)
    df = len(cells) - 1
    return stat, df, chi2_sf(stat, df)


def assert_spread(outcomes: Iterable[Hashable], probabilities: Mapping[Hashable, float],
                  what: str, min_expected: float = 5) -> None:
    """Counts of ``outcomes`` fit ``probabilities`` (chi-square, p >= ``P_MIN``)."""
    counts = Counter(outcomes)
    total = sum(counts.values())
    total_p = sum(probabilities.values())
    assert abs(total_p - 1) < 1e-9, f"{what}: probabilities add up to {total_p}"
    impossible = {k: n for k, n in counts.items() if probabilities.get(k, 0) <= 0}
    assert not impossible, f"{what}: outcomes the rule does not allow: {impossible}"
    low = min(total * p for p in probabilities.values() if p > 0)
    # The chi-square approximation needs a few expected counts per cell: a test
    # with too few seeds would pass anything, so it is refused here.
    assert low >= min_expected, (
        f"{what}: {total} samples are too few (expected {low:.1f} in a cell)")
    stat, df, p = chi_square(counts, probabilities)
    assert p >= P_MIN, (
        f"{what}: counts {dict(sorted(counts.items(), key=str))} do not fit the rule "
        f"{dict(probabilities)} (chi-square {stat:.1f}, {df} df, p = {p:.2e} < {P_MIN})")


def same_for_same_seed(make: Callable[[int], Any], read: Callable[[Any], Any],
                       seed: int = 7) -> None:
    """``read(make(seed))`` comes out the same twice for one seed: the chance is in the
    seed and the state, nowhere else (the spread checks say it is not a constant)."""
    assert read(make(seed)) == read(make(seed)), f"seed {seed} gave two different results"


def uniform(outcomes: Iterable[Hashable]) -> dict[Hashable, float]:
    """Equal probabilities over the distinct ``outcomes`` given."""
    keys = list(dict.fromkeys(outcomes))
    return {k: 1 / len(keys) for k in keys}


def proportional(counts: Mapping[Hashable, int]) -> dict[Hashable, float]:
    """Probabilities proportional to ``counts`` (e.g. card types in a deck)."""
    total = sum(counts.values())
    return {k: n / total for k, n in counts.items() if n}
