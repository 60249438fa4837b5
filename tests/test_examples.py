"""Every file in examples/ plays cleanly and produces what its ``expect`` says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.json"))


def test_there_are_examples():
    assert any(p.name == "first-game.json" for p in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_plays_as_expected(path):
    data = scenario.load(path.read_text(encoding="utf-8"), path.name)
    assert data.get("description"), "an example says what it shows"
    status, result = scenario.run(data, path.name)
    assert status == scenario.EXIT_OK, result["error"]
    for key, expected in data.get("expect", {}).items():
        assert result[key] == expected, f"{path.name}: {key}"
    json.dumps(result)


def test_first_game_reproduces_the_rule_book():
    data = json.loads((EXAMPLES[0].parent / "first-game.json").read_text(encoding="utf-8"))
    _, result = scenario.run(data)
    assert result["ships"] == {"mercurial": "ONE", "rubicon": "ONE"}
    assert result["detection"] == {"space": 2, "value": 2}
    assert result["components"]["mercurial"] == ["quantum_gates"]
    assert result["held_events"]["rubicon"] == ["heisenberg"]
    assert result["engine_control"] == []
