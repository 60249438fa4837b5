"""A clone shares the fields in ``state.SHARED`` with the state it came from, and that
state is the undo snapshot and the base a prompt's answer re-runs from. So no input
may change a shared field in place: after every input of many random games (every
ruling varied on a quarter of them, so events, Bennett, Spooky Action, Quantum
Shuffle and physical decks all come up) the state before it must be exactly as it
was, and so must the base of an interrupted input."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from companion.games.entanglion import Entanglion
from companion.games.entanglion.options import RULINGS
from companion.games.entanglion.state import SHARED, State

GAMES = 120


def _options(i: int):
    if i % 4 != 3:
        return None
    rnd = random.Random(f"sharing-options-{i}")
    return {name: rnd.choice(choice.allowed) for name, choice in RULINGS.items()}


@pytest.mark.parametrize("part", range(2))
def test_an_input_never_changes_the_state_before_it(part):
    for i in range(part * GAMES // 2, (part + 1) * GAMES // 2):
        g = Entanglion(i, _options(i))
        rnd = random.Random(i)
        while g.legal_actions():
            before_state = g.state
            before = before_state.to_dict()
            base = g._inflight[0] if g._inflight else None
            base_dict = base.to_dict() if base else None
            g.push(rnd.choice(g.legal_actions()))
            assert before_state.to_dict() == before, f"game {i}, input {len(g.inputs)}"
            if base is not None:
                assert base.to_dict() == base_dict, f"game {i}, input {len(g.inputs)}"


def test_shared_fields_are_state_fields():
    names = {f for f in State.__slots__}
    assert set(SHARED) <= names


def test_a_clone_sets_every_field_to_an_equal_value():
    # clone() sets the slots one by one: a field added to State and forgotten there
    # would be missing from every clone.
    g = Entanglion(7)
    rnd = random.Random(7)
    for _ in range(40):
        g.push(rnd.choice(g.legal_actions()))
    c = g.state.clone()
    for f in fields(State):
        assert getattr(c, f.name) == getattr(g.state, f.name), f.name
    assert c.to_dict() == g.state.to_dict()
