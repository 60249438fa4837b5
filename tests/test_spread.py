"""The chi-square helper behind the chance tests gives textbook values and verdicts."""

from __future__ import annotations

import math

import pytest

from spread import assert_spread, chi2_sf, proportional, uniform


@pytest.mark.parametrize("x, df, p", [
    (3.841458820694124, 1, 0.05),      # the 95% points of statistics tables
    (5.991464547107979, 2, 0.05),
    (11.070497693516351, 5, 0.05),
    (66.33865, 49, 0.05),
    (2.0, 2, math.exp(-1)),            # df 2: exp(-x/2) exactly
    (0.5, 4, math.exp(-0.25) * 1.25),  # df 4: exp(-x/2) (1 + x/2)
    (0.0, 3, 1.0),
    (200.0, 3, 3.6e-43),
])
def test_chi2_sf_matches_tables(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-4)


def test_a_fair_spread_passes_and_a_lopsided_one_fails():
    assert_spread(["a"] * 100 + ["b"] * 96 + ["c"] * 104, uniform("abc"), "fair")
    with pytest.raises(AssertionError, match="do not fit"):
        assert_spread(["a"] * 150 + ["b"] * 75 + ["c"] * 75, uniform("abc"), "lopsided")
    with pytest.raises(AssertionError, match="does not allow"):
        assert_spread(["a"] * 10 + ["d"], uniform("abc"), "impossible outcome")
    with pytest.raises(AssertionError, match="too few"):
        assert_spread(["a", "b", "c"], uniform("abc"), "three samples")


def test_proportional_weights():
    assert proportional({"H": 8, "X": 0, "SWAP": 2}) == {"H": 0.8, "SWAP": 0.2}
