"""Every story's counts agree with the game's own log: random games of each game, the
story's numbers counted again here, entry by entry, in the simplest way."""

from __future__ import annotations

import random

import pytest

from companion.games.entanglion import Entanglion
from companion.games.entanglion import story as entanglion_story
from companion.games.qlanet import story as qlanet_story
from companion.games.qlanet.engine import Qlanet
from companion.games.qlanet import ui as qlanet_ui
from companion.games.qno import story as qno_story
from companion.games.qno.cards import GATES
from companion.games.qno.engine import Qno
from companion.games.qno.table import Table


def _count(log, kind, **match):
    return sum(1 for e in log if e["type"] == kind and all(e.get(k) == v for k, v in match.items()))


@pytest.mark.parametrize("seed", range(12))
def test_qno_story_counts_every_gate_played_h_included(seed):
    g = Qno(seed, {"players": 2 + seed % 4, "hands": ("tracked", "honour")[seed % 2]})
    table = Table.of(g, seed)
    while g.status == "playing" and len(g.inputs) < 2000:
        g.push(table.choose(g))
    st = qno_story.story(g)
    plays = [e["card"] for e in g.log if e["type"] == "play"]
    assert st["gates"] == sum(card in GATES for card in plays)
    assert st["guesses"] == _count(g.log, "reveal")
    assert st["right"] == _count(g.log, "reveal", right=True)
    assert st["calls"] == _count(g.log, "call") and st["caught"] == _count(g.log, "caught")
    shown = qno_story.pages(st)[0]["lines"]
    assert f"Gates played: {st['gates']}" in shown


def test_qno_an_h_and_a_cnot_are_two_gates():
    g = Qno(1, {"players": 2})
    g.log = [{"type": "play", "player": 1, "card": "H"}, {"type": "reveal", "right": True},
             {"type": "play", "player": 2, "card": "CNOT"}, {"type": "gate"}]
    assert qno_story.story(g)["gates"] == 2


@pytest.mark.parametrize("seed", range(12))
def test_qlanet_story_counts_and_no_card_to_take_after_the_win(seed):
    g = Qlanet(seed, {"hand_size": 3 + seed % 4})
    rnd = random.Random(seed)
    while g.status == "playing" and len(g.inputs) < 500:
        before = len(g.log)
        g.push(rnd.choice(g.legal_actions()))
        if g.status != "playing":  # the winning move's notices: nobody takes a card now
            lines = [line for n in qlanet_ui.notices(g, g.log[before:])
                     for line in n.get("details", n.get("lines", []))]
            assert not any("take a" in line for line in lines), lines
    st = qlanet_story.story(g)
    assert st["discards"] == _count(g.log, "discard")
    assert st["measured"] == [_count(g.log, "measure", result=0),
                              _count(g.log, "measure", result=1)]
    assert st["secrets"] == [_count(g.log, "bell", player=0), _count(g.log, "bell", player=1)]
    assert st["moves"] == g.state.turn_number


@pytest.mark.parametrize("seed", range(12))
def test_entanglion_story_counts(seed):
    g = Entanglion(seed, {"start_space": (1, 2, 4)[seed % 3]})
    rnd = random.Random(seed)
    from companion.games.entanglion.hint import Rng, greedy_action
    rng = Rng(seed)
    while g.status == "playing" and len(g.inputs) < 400:
        g.push(greedy_action(g, rng) if rnd.random() < 0.8 else rnd.choice(g.legal_actions()))
    st = entanglion_story.story(g)
    checks = [e for e in g.log if e["type"] == "roll" and e["purpose"] in entanglion_story.CHECKS
              and e.get("result") is not None]
    assert st["rolls"] == len(checks)
    assert st["failed"] == sum(e["result"] == "detected" for e in checks)
    assert st["parts"] == _count(g.log, "retrieved") - _count(g.log, "teleported")
    assert sum(map(len, st["retrieved"].values())) == _count(g.log, "retrieved")
    assert st["turns"] == max(e["number"] for e in g.log if e["type"] == "turn")
