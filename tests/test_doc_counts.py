"""docs/mutation.md's table of default and long counts is what the tests play: each
figure is read from the test module that plays it (without importing it)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")


def _row(test: str) -> str:
    m = re.search(rf"^\| `{re.escape(test)}[^|]*` \| ([^|]+) \| ([^|]+) \|$", TABLE, re.M)
    assert m, f"docs/mutation.md has no row for {test}"
    return m.group(1)


def _numbers(text: str) -> list[int]:
    return [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", text)]


def _constant(path: str, name: str):
    """The literal (or the bounded run's side of ``A if LONG else B``) bound to ``name``."""
    for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name
                                                for t in node.targets):
            value = node.value
            if isinstance(value, ast.IfExp):
                value = value.orelse
            return ast.literal_eval(value)
    raise AssertionError(f"{path} has no {name}")


def test_the_property_counts_are_the_tests():
    games, parts, size = _numbers(_row("tests/entanglion/test_property.py::test_random_games"))
    path = "tests/entanglion/test_property.py"
    assert (games, size) == (_constant(path, "DEFAULT_GAMES"), _constant(path, "PART_GAMES"))
    assert parts == -(-games // size)
    source = (ROOT / path).read_text(encoding="utf-8")
    (examples,) = _numbers(_row("tests/entanglion/test_property.py::test_hypothesis_games"))
    assert f"max_examples=200 if LONG else {examples}," in source

    games, parts, size = _numbers(_row("tests/qno/test_qno_property.py::test_random_games"))
    path = "tests/qno/test_qno_property.py"
    assert (games, size) == (_constant(path, "DEFAULT_GAMES"), _constant(path, "PART_GAMES"))
    assert parts == -(-games // size)

    path = "tests/qlanet/test_qlanet_property.py"
    assert _numbers(_row(path)) == [_constant(path, "DEFAULT_GAMES")]


def test_the_screen_counts_are_the_tests():
    english, translated = _numbers(_row("tests/test_no_cut_text.py"))
    source = (ROOT / "tests" / "test_no_cut_text.py").read_text(encoding="utf-8")
    assert f'== "1" else {english}))' in source
    assert "max(1, GAMES // 4)" in source and translated == english // 4
