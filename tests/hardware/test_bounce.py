"""Real switches bounce: the default debounce gives one press per tap with 50 ms of
contact chatter on every edge, and keeps both presses of a quick double press.

Bouncing edges go through gpiozero's MockFactory pins into ``GpioButtons`` and the
``Classifier`` (``bench/bounce.py`` measures the same over every setting)."""

from __future__ import annotations

import random

import pytest

from bench.bounce import (DOUBLE, GOAL_BOUNCE, bouncing_edges, double_press_kept,
                          one_press_per_tap, presses)
from companion.config.schema import ButtonsConfig

DEFAULT = ButtonsConfig().debounce
TRIALS = 60


def test_the_bounce_model_ends_at_the_new_level_within_the_bounce_time():
    rnd = random.Random(3)
    for _ in range(200):
        edges = bouncing_edges(1.0, True, 0.05, rnd)
        assert edges[0] == (1.0, True) and edges[-1][1] is True
        assert all(1.0 <= t <= 1.05 for t, _ in edges)
        assert all(a[1] != b[1] for a, b in zip(edges, edges[1:]))


def test_the_default_gives_one_press_per_tap_at_50_ms_of_bounce():
    assert one_press_per_tap(GOAL_BOUNCE, DEFAULT, TRIALS)


def test_the_old_30_ms_default_did_not():
    """The measurement can fail: at 30 ms a 50 ms bounce makes extra presses."""
    assert not one_press_per_tap(GOAL_BOUNCE, 0.03, TRIALS)


def test_the_default_keeps_both_presses_of_a_quick_double_press():
    assert double_press_kept(DOUBLE, GOAL_BOUNCE, DEFAULT, TRIALS)
    assert double_press_kept(0.05, GOAL_BOUNCE, DEFAULT, TRIALS)


@pytest.mark.parametrize("button", ["OK", "BACK"])  # BACK acts on release (hold = undo)
def test_taps_without_bounce_are_counted_exactly(button):
    rnd = random.Random(1)
    taps = [(i * 0.3, i * 0.3 + 0.1) for i in range(10)]
    assert presses(taps, 0.0, DEFAULT, rnd, button) == 10


@pytest.mark.parametrize("button", ["OK", "BACK"])
def test_a_quick_series_of_taps_loses_none(button):
    """50 ms down, 50 ms up, ten times: each settle must not push the next window out."""
    rnd = random.Random(2)
    taps = [(i * 0.1, i * 0.1 + 0.05) for i in range(10)]
    assert presses(taps, 0.0, DEFAULT, rnd, button) == 10
