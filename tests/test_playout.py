"""Playout mode (``playout_copy()``) against the normal engine, for all three games.

A playout copy trusts its inputs, logs nothing and keeps no undo history, so it is
only right if it reaches exactly the states the validated engine reaches. Random
games are played in both with the same choices and compared after every step:
state, prompt, status, whose input is awaited and the legal actions. Entanglion runs
``PLAYOUT_GAMES`` games (every 4th with a random value for every ruling, so physical
decks, manual dice and every ruling's branches come up); ``COMPANION_LONG=1`` plays
ten times as many.
"""

from __future__ import annotations

import gc
import importlib
import os
import random
from typing import Any

import pytest

from companion.games.entanglion import Entanglion
from companion.games.entanglion.options import RULINGS
from companion.games.snapshots import playout_gc

LONG = os.environ.get("COMPANION_LONG") == "1"
PLAYOUT_GAMES = 2000 if LONG else 200
STEP_LIMIT = 5000
GAMES = ("entanglion", "qno", "qlanet")


def _options(i: int) -> dict[str, Any] | None:
    if i % 4 != 3:
        return None
    rnd = random.Random(f"playout-options-{i}")
    return {name: rnd.choice(choice.allowed) for name, choice in RULINGS.items()}


def _seen(g: Any) -> tuple[Any, ...]:
    state = g.state.to_dict()
    return (state, g.pending, g.status, g.awaiting(), g.legal_actions())


def _play_both(game: Any, playout: Any, rnd: random.Random) -> int:
    """Same random choices in both; they must agree after every step."""
    steps = 0
    while steps < STEP_LIMIT:
        assert _seen(playout) == _seen(game), f"modes differ after {steps} steps"
        legal = game.legal_actions()
        if not legal:
            return steps
        act = rnd.choice(legal)
        game.push(act)
        assert playout.push(act) == []
        steps += 1
    return steps


def _engine(name: str) -> Any:
    return importlib.import_module(f"companion.games.{name}").ENGINE


@pytest.mark.parametrize("part", range(4))
def test_entanglion_playouts_reach_the_validated_states(part):
    share = PLAYOUT_GAMES // 4
    for i in range(part * share, (part + 1) * share):
        game = Entanglion(i, _options(i))
        assert _play_both(game, game.playout_copy(), random.Random(i)) < STEP_LIMIT


@pytest.mark.parametrize("name", GAMES)
def test_a_playout_from_mid_game_and_mid_prompt_matches(name):
    # A copy taken anywhere, a prompt and its interrupted input included.
    found_prompt = False
    for seed in range(40):
        game = _engine(name)(seed)
        rnd = random.Random(seed)
        for _ in range(rnd.randrange(1, 60)):
            if not game.legal_actions():
                break
            game.push(rnd.choice(game.legal_actions()))
        found_prompt |= game.pending is not None
        _play_both(game, game.playout_copy(), rnd)
    assert found_prompt or name == "qlanet"  # QLANET never prompts


@pytest.mark.parametrize("name", GAMES)
def test_a_playout_leaves_the_original_alone(name):
    game = _engine(name)(3)
    rnd = random.Random(3)
    for _ in range(20):
        game.push(rnd.choice(game.legal_actions()))
    before = game.to_dict()
    playout = game.playout_copy()
    while playout.legal_actions():
        playout.push(rnd.choice(playout.legal_actions()))
    assert game.to_dict() == before
    game.pop()  # the original's undo history is intact
    assert len(game.inputs) == 19


@pytest.mark.parametrize("name", GAMES)
def test_a_playout_keeps_no_log_inputs_or_undo(name):
    game = _engine(name)(5)
    playout = game.playout_copy()
    rnd = random.Random(5)
    for _ in range(30):
        if not playout.legal_actions():
            break
        playout.push(rnd.choice(playout.legal_actions()))
    assert playout.log == [] and playout.inputs == []
    with pytest.raises(type(game).illegal):
        playout.pop()


def test_a_playout_copy_of_a_finished_game_has_no_legal_actions():
    game = Entanglion(1)
    rnd = random.Random(1)
    while game.legal_actions():
        game.push(rnd.choice(game.legal_actions()))
    playout = game.playout_copy()
    assert playout.status == game.status and playout.legal_actions() == []
    assert playout.awaiting() is None


def test_playout_gc_restores_the_collectors_thresholds():
    before = gc.get_threshold()
    with playout_gc():
        assert gc.get_threshold()[0] > before[0]
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), playout_gc():
        raise RuntimeError("a playout that fails")
    assert gc.get_threshold() == before
