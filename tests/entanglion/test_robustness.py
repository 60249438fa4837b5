"""The referee never crashes: any input is either applied or refused with a reason,
and a refused input changes nothing."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import scenario
from companion.games.entanglion import Entanglion, IllegalAction

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 10), st.text(max_size=12),
                         st.sampled_from(["X", "H", "CNOT", "SWAP", "PROBE", "heisenberg",
                                          "bennett", "the_mechanic", "quantum_tunnel",
                                          "keep", "reroll", "use", "roll", "stop", "skip"]))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)

inputs = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"do": st.sampled_from(["navigate", "exchange", "retrieve", "event", "choose", "pass",
                                "fly", 3, None])},
        optional={"player": st.sampled_from(["mercurial", "rubicon", "Mercurial", 1, None]),
                  "card": json_values, "value": json_values, "index": json_values}),
)


def _midgame(seed: int, steps: int, options: dict | None = None) -> Entanglion:
    chooser = random.Random(seed)
    g = Entanglion(seed=seed, options=options)
    for _ in range(steps):
        if g.status != "playing":
            break
        g.push(chooser.choice(g.legal_actions()))
    return g


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 50), steps=st.integers(0, 120), garbage=st.lists(inputs, max_size=6),
       manual=st.booleans())
def test_any_input_is_applied_or_refused_without_change(seed, steps, garbage, manual):
    g = _midgame(seed, steps, {"dice": "manual"} if manual else None)
    for action in garbage:
        before = json.dumps(g.to_dict(), sort_keys=True)
        reason = g.check(action)
        try:
            g.push(action)
        except IllegalAction as exc:
            assert str(exc), "a refusal must say why"
            assert reason is not None
            assert json.dumps(g.to_dict(), sort_keys=True) == before
        else:
            assert reason is None


@settings(max_examples=200, deadline=None)
@given(data=st.dictionaries(
    st.sampled_from(["game", "seed", "options", "setup", "dice", "actions", "bogus"]),
    json_values, max_size=5))
def test_any_scenario_file_is_played_or_rejected_cleanly(data):
    text = json.dumps(data)
    try:
        loaded = scenario.load(text, "fuzz.json")
        status, result = scenario.run(loaded, "fuzz.json")
    except scenario.MalformedScenario as exc:
        assert str(exc).startswith("fuzz.json: ")
        assert "\n" not in str(exc)
    else:
        assert status in (scenario.EXIT_OK, scenario.EXIT_ILLEGAL)
        json.dumps(result)  # always printable


setup_values = st.fixed_dictionaries({}, optional={
    key: json_values for key in ("first_player", "ships", "components", "ship_components",
                                 "hands", "held_events", "engine_stack", "event_deck",
                                 "detection_space")})
names = st.sampled_from(["X", "H", "CNOT", "SWAP", "PROBE", "ZERO", "PLUS", "PHI_PLUS",
                         "heisenberg", "bennett", "quantum_gates", "mercurial", 7, None])
ship_lists = st.dictionaries(st.sampled_from(["mercurial", "rubicon", "venus"]),
                             st.lists(names, max_size=4), max_size=2)
plausible_setup = st.fixed_dictionaries({}, optional={
    "first_player": names, "ships": st.dictionaries(st.sampled_from(["mercurial", "rubicon"]),
                                                    names, max_size=2),
    "components": st.dictionaries(names, names, max_size=3), "hands": ship_lists,
    "held_events": ship_lists, "ship_components": ship_lists,
    "engine_stack": st.lists(names, max_size=6), "event_deck": st.lists(names, max_size=4),
    "detection_space": st.one_of(st.integers(-1, 13), names)})


@settings(max_examples=400, deadline=None)
@given(setup=st.one_of(setup_values, plausible_setup),
       dice=st.lists(st.one_of(st.integers(-1, 9), names), max_size=4))
def test_any_setup_is_played_or_rejected_cleanly(setup, dice):
    data = {"game": "entanglion", "seed": 1, "setup": setup, "dice": dice,
            "actions": [{"do": "navigate", "card": "H"}, {"do": "retrieve"}]}
    try:
        status, result = scenario.run(scenario.load(json.dumps(data), "s.json"), "s.json")
    except scenario.MalformedScenario as exc:
        assert str(exc).startswith("s.json: ") and "\n" not in str(exc)
    else:
        assert status in (scenario.EXIT_OK, scenario.EXIT_ILLEGAL)
        json.dumps(result)


def test_text_that_is_not_json_is_malformed():
    for text in ["", "{", "[1, 2]", "null", '{"seed": 1.5}', '{"actions": [1]}']:
        try:
            scenario.load(text, "x.json")
        except scenario.MalformedScenario as exc:
            assert str(exc).startswith("x.json: ")
        else:  # pragma: no cover - a failure message
            raise AssertionError(f"{text!r} was accepted")
