"""JSON round trips, replay, undo, copies and the report."""

from __future__ import annotations

import json
import random

import pytest
from qlanet_helpers import game, play

from companion.games.qlanet import IllegalAction, Qlanet
from companion.games.qlanet.report import report


def pick(g: Qlanet, rnd: random.Random) -> dict:
    """A random card first, then a random legal target for it (games stay short)."""
    legal = g.legal_actions()
    card = rnd.choice(sorted({a["card"] for a in legal}))
    return rnd.choice([a for a in legal if a["card"] == card])


def random_game(seed: int, moves: int, options=None) -> Qlanet:
    g = Qlanet(seed, options)
    rnd = random.Random(seed)
    while g.status == "playing" and len(g.inputs) < moves:
        g.push(pick(g, rnd))
    return g


def through_json(g: Qlanet) -> Qlanet:
    return Qlanet.from_dict(json.loads(json.dumps(g.to_dict())))


@pytest.mark.parametrize("seed", range(6))
def test_json_round_trip_is_exact_and_play_continues_the_same(seed):
    options = {"refill": "deck", "bm_outcome": "uniform_secret"} if seed % 2 else \
        {"bm_outcome": "born"}
    g = random_game(seed, 15, options)
    copy = through_json(g)
    assert copy.to_dict() == g.to_dict()
    assert copy.state == g.state and copy.log == g.log and copy.inputs == g.inputs
    rnd = random.Random(99)
    while g.status == "playing":
        act = pick(g, rnd)
        assert g.push(act) == copy.push(act)
    assert copy.to_dict() == g.to_dict() and g.status == "won"
    assert through_json(g).to_dict() == g.to_dict()


def test_replay_equals_the_live_game():
    setup = {"first_player": 1, "planets": ["+", "0", "-", "1", "+", "0", "-", "1", "+"],
             "hidden": [5], "hands": [["BM", "M", "X", "Z"], ["CX0", "H", "SW", "M"]]}
    forced = ["X", "Psi-", None, 1]  # H's refill, BM, BM's refill, M
    options = {"cx_cost": 2, "bm_outcome": "born"}  # "Psi-": the Bell measurement's result
    g = Qlanet(11, options, setup, forced)
    play(g, "H", 5)
    play(g, "BM", 1, 5)
    play(g, "M", 1)
    assert g.state.forced == [] and g.state.fixed[0] == 1
    rnd = random.Random(3)
    while g.status == "playing":
        g.push(pick(g, rnd))
    r = Qlanet.replay(11, options, setup, forced, g.inputs)
    assert r.to_dict() == g.to_dict()
    d = json.loads(json.dumps(g.to_dict()))  # everything replay needs is in the JSON
    again = Qlanet.replay(d["seed"], d["state"]["options"], d["setup"], d["forced"], d["inputs"])
    assert again.to_dict() == g.to_dict()
    assert g.log[-1]["type"] == "reveal" and g.log[-2]["type"] == "game_over"


def test_inputs_are_stored_normalised():
    g = game()
    play(g, "z", 1)
    assert g.inputs == [{"do": "play", "card": "Z", "planets": [1], "player": 0}]


def test_pop_restores_exactly_back_to_the_start():
    g = Qlanet(5, {"refill": "deck"})
    fresh = g.to_dict()
    rnd = random.Random(5)
    seen = [g.to_dict()]
    while g.status == "playing":
        g.push(pick(g, rnd))
        seen.append(g.to_dict())
    inputs = list(g.inputs)
    for expected in reversed(seen[:-1]):
        last = g.inputs[-1]
        assert g.pop() == last
        assert g.to_dict() == expected
    assert g.to_dict() == fresh
    with pytest.raises(IllegalAction, match="nothing to undo"):
        g.pop()
    for act in inputs:  # forward again: the same chance comes back
        g.push(act)
    assert g.to_dict() == seen[-1]


def test_refused_input_changes_nothing():
    g = game(["0"] * 9, forced=[1, "X"])  # 1 cannot be the result of M on a 0
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="cannot happen"):
        play(g, "M", 3)
    assert g.to_dict() == before
    with pytest.raises(IllegalAction, match="nothing to undo"):
        g.pop()


def test_copy_is_independent():
    g = random_game(2, 10)
    c = g.copy()
    assert c.to_dict() == g.to_dict()
    c.push(c.legal_actions()[0])
    assert c.to_dict() != g.to_dict()


def test_report():
    g = game(["+", "+", "-", "-", "1", "-", "-", "+", "+"], hidden=[5],
             hands=[["BM", "Z", "Z", "Z"], ["Z"] * 4], forced=["Phi-"])
    play(g, "BM", 1, 5)
    r = report(g)
    json.dumps(r)  # plain JSON
    assert r["game"] == "qlanet" and r["seed"] == 0 and r["status"] == "playing"
    assert r["winner"] == [] and r["turn"] == {"player": 1, "number": 2}
    assert r["costs"] == [8, 0] and len(r["hands"]) == 2 and r["pending"] is None
    assert [p["shown"] for p in r["planets"]] == ["?", "+", "-", "-", "?", "-", "-", "+", "+"]
    assert r["truth"]["planets"][0]["bell"] == "Phi-"
    assert r["truth"]["bells"] == [{"player": 0, "planets": [1, 5], "code": "Phi-",
                                    "measured": "Phi-"}]
    assert len(r["truth"]["stabilizers"]) == 9
    assert {"-X...X....", "+Z...Z...."} <= set(r["truth"]["stabilizers"])  # Phi- on 1, 5
    assert r["log"] == g.log and r["error"] is None
    err = {"index": 3, "action": {"do": "x"}, "reason": "unknown action 'x'"}
    assert report(g, err)["error"] == err
