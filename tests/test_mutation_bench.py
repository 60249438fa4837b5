"""bench/mutation.py's set-up stays true: the modules it mutates and the tests it runs
exist, its list of equivalent mutants parses, and the option-pair check of the
property tests finds a pair that is missing."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from combos import missing_pairs, random_options
from companion.games.rulings import Choice

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutation", ROOT / "bench" / "mutation.py")
mutation = importlib.util.module_from_spec(_spec)
sys.modules["mutation"] = mutation
_spec.loader.exec_module(mutation)


@pytest.mark.parametrize("game", sorted(mutation.GAMES))
def test_each_game_names_modules_and_tests_that_exist(game):
    spec = mutation.GAMES[game]
    assert "engine.py" in spec["mutate"]
    for name in spec["mutate"]:
        assert (ROOT / "companion" / "games" / game / name).is_file()
    assert spec["tests"][0].startswith(f"tests/{game}")
    for path in spec["tests"]:
        assert (ROOT / path).exists()
    assert "tests/test_examples.py" in spec["tests"]
    for test in spec.get("deselect", ()):  # a renamed test would quietly run again
        path, _, name = test.partition("::")
        assert f"def {name}(" in (ROOT / path).read_text(encoding="utf-8"), test


def test_the_equivalent_list_parses_and_names_mutated_modules():
    modules = {f"companion.games.{game}.{name[:-3]}"
               for game, spec in mutation.GAMES.items() for name in spec["mutate"]}
    for name, why in mutation.equivalents().items():
        assert any(name.startswith(m + ".") for m in modules), name
        assert "__mutmut_" in name and why


@pytest.mark.parametrize("line", ["no reason here", "a.b__mutmut_1 :", "two words : why"])
def test_a_malformed_equivalent_line_is_refused_with_its_line(tmp_path, line):
    path = tmp_path / "eq.txt"
    path.write_text(f"# comment\n\n{line}\n")
    with pytest.raises(ValueError, match=r"eq.txt:3: expected"):
        mutation.equivalents(path)


def test_the_score_counts_equivalents_out_and_timeouts_as_caught():
    counts = {"total": 10, "killed": 6, "timeout": 1, "survived": 3, "equivalent": 2,
              "suspicious": 0, "no tests": 0, "not run": 0}
    line = mutation.score_line("qno", counts)
    assert "score 70.0% raw, 87.5% after triage" in line


def test_missing_pairs_finds_what_a_sample_lacks():
    rulings = {"a": Choice(1, (1, 2), ""), "b": Choice("x", ("x", "y"), ""),
               "c": Choice(False, (False, True), "")}
    full = [{"a": a, "b": b, "c": c} for a in (1, 2) for b in ("x", "y") for c in (False, True)]
    assert missing_pairs(rulings, full) == []
    assert missing_pairs(rulings, full[:-1]) == []  # every pair still met elsewhere
    lacking = [o for o in full if not (o["a"] == 2 and o["b"] == "y")]
    assert missing_pairs(rulings, lacking) == [(("a", 2), ("b", "y"))]
    assert random_options(rulings, "s") == random_options(rulings, "s")


def _load_order():
    spec = importlib.util.spec_from_file_location("mutation_order", ROOT / "bench" / "mutation_conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Item:
    def __init__(self, nodeid, obj=None):
        self.nodeid, self.obj = nodeid, obj


def test_a_mutant_runs_its_quickest_tests_first_and_caps_hypothesis(tmp_path, monkeypatch):
    from hypothesis import given, settings, strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.integers())
    def slow(x):
        pass

    order = _load_order()
    items = [_Item("t.py::slow", slow), _Item("t.py::new"), _Item("t.py::quick")]
    (tmp_path / "mutmut-stats.json").write_text(
        '{"duration_by_test": {"t.py::slow": 9.0, "t.py::quick": 0.5}}')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMPANION_MUTATION_EXAMPLES", "7")
    order.pytest_collection_modifyitems(None, None, items)
    assert [i.nodeid for i in items] == ["t.py::new", "t.py::quick", "t.py::slow"]
    assert slow._hypothesis_internal_use_settings.max_examples == 7
    monkeypatch.chdir(ROOT)  # no recording yet: the order is left alone
    items = [_Item("b"), _Item("a")]
    order.pytest_collection_modifyitems(None, None, items)
    assert [i.nodeid for i in items] == ["b", "a"]


def test_the_projection_costs_a_mutant_left_at_the_rate_survivors_came(tmp_path, monkeypatch):
    monkeypatch.setattr(mutation, "WORK", tmp_path)
    folder = tmp_path / "qno" / "mutants" / "companion" / "games" / "qno"
    folder.mkdir(parents=True)
    f = "companion.games.qno.engine.x_f"
    codes = {f"{f}__mutmut_{i}": 1 for i in range(3)} | {f"{f}__mutmut_3": 0, f"{f}__mutmut_4": None}
    took = {f"{f}__mutmut_{i}": 2.0 for i in range(3)} | {f"{f}__mutmut_3": 40.0}
    (folder / "engine.py.meta").write_text(json.dumps(
        {"exit_code_by_key": codes, "durations_by_key": took}))
    (tmp_path / "qno" / "mutants" / "mutmut-stats.json").write_text(json.dumps(
        {"duration_by_test": {"t1": 14400.0, "t2": 3600.0}, "tests_by_mangled_function_name": {f: ["t1", "t2"]}}))
    line = mutation.timing("qno")
    # 1 in 4 survived: the one left costs 1/4 x (its tests: 18,000 s) + 3/4 x 2 s
    assert "1 min of tests for 4 mutants (killed 2.0 s, survived 40.0 s" in line
    assert "1 not run: about 1.3 h of one job" in line and "(25.0%)" in line
