"""``companion scenario``: JSON scenario in, report out; exit 0 / 2 / 3."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "first-game.json"

REPORT_KEYS = {"status", "turn", "ships", "detection", "components", "hands", "held_events",
               "engine_control", "engine_stack", "engine_discard", "event_deck",
               "event_discard", "pending", "log", "error"}

BASE = {
    "seed": 7,
    "setup": {"first_player": "mercurial", "ships": {"mercurial": "ZERO", "rubicon": "ZERO"},
              "hands": {"mercurial": ["X", "H", "H"], "rubicon": ["CNOT", "SWAP", "X"]}},
}


def run(capsys, tmp_path, data=None, text=None):
    path = tmp_path / "scenario.json"
    path.write_text(text if text is not None else json.dumps(data), encoding="utf-8")
    code = cli.main(["scenario", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_first_game_example_exits_0_with_a_full_report(capsys):
    code = cli.main(["scenario", str(EXAMPLE)])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    rep = json.loads(out)
    assert REPORT_KEYS <= set(rep)
    assert rep["error"] is None and rep["pending"] is None
    assert rep["status"] == "playing"
    assert rep["ships"] == {"mercurial": "ONE", "rubicon": "ONE"}
    assert rep["detection"]["space"] == 2
    assert rep["components"]["mercurial"] == ["quantum_gates"]
    assert rep["held_events"]["rubicon"] == ["heisenberg"]
    assert rep["engine_control"] == []
    assert rep["turn"] == {"player": "mercurial", "number": 5}
    assert [e for e in rep["log"] if e["type"] == "action"][-1]["card"] == "H"


def test_compact_output_is_one_line(capsys):
    assert cli.main(["scenario", str(EXAMPLE), "--compact"]) == 0
    out, _ = capsys.readouterr()
    assert out.count("\n") == 1 and json.loads(out)["status"] == "playing"


def test_illegal_action_exits_3_with_the_state_before_it(capsys, tmp_path):
    first = {"player": "mercurial", "do": "navigate", "card": "H"}
    bad = {"player": "mercurial", "do": "navigate", "card": "X"}  # Rubicon's turn now
    code, out, err = run(capsys, tmp_path, {**BASE, "actions": [first, bad]})
    assert code == 3
    rep = json.loads(out)
    assert rep["error"]["index"] == 1
    assert rep["error"]["action"] == bad
    assert "Rubicon" in rep["error"]["reason"]
    assert "action 1" in err and err.count("\n") == 1

    code, out, _ = run(capsys, tmp_path, {**BASE, "actions": [first]})
    assert code == 0
    before = json.loads(out)
    assert {k: v for k, v in rep.items() if k != "error"} == \
        {k: v for k, v in before.items() if k != "error"}
    assert rep["ships"] == {"mercurial": "PLUS", "rubicon": "ZERO"}


def test_illegal_first_action_prints_the_set_up_state(capsys, tmp_path):
    code, out, _ = run(capsys, tmp_path, {**BASE, "actions": [{"do": "retrieve"}]})
    rep = json.loads(out)
    assert code == 3 and rep["error"]["index"] == 0 and rep["error"]["reason"]
    assert rep["turn"] == {"player": "mercurial", "number": 1}
    assert rep["hands"]["mercurial"] == ["X", "H", "H"]


def test_action_failing_half_way_prints_the_state_before_it(capsys, tmp_path):
    # The orbital roll (1) detects; the next forced die (5) cannot be a Centarious result.
    data = {"seed": 1, "dice": [1, 5],
            "setup": {"first_player": "mercurial",
                      "ships": {"mercurial": "PHI_PLUS", "rubicon": "PHI_PLUS"},
                      "hands": {"mercurial": ["X", "H", "H"], "rubicon": ["H", "H", "H"]}},
            "actions": [{"player": "mercurial", "do": "navigate", "card": "X"}]}
    code, out, _ = run(capsys, tmp_path, data)
    rep = json.loads(out)
    assert code == 3 and rep["error"]["index"] == 0
    assert rep["ships"] == {"mercurial": "PHI_PLUS", "rubicon": "PHI_PLUS"}
    assert rep["hands"]["mercurial"] == ["X", "H", "H"]
    assert rep["engine_control"] == [] and rep["detection"]["space"] == 1
    assert [e for e in rep["log"] if e["type"] in ("action", "roll")] == []


@pytest.mark.parametrize("text", [
    "{not json",                                                   # invalid JSON
    "[1, 2]",                                                      # not an object
    json.dumps({**BASE, "players": 2}),                            # unknown top-level key
    json.dumps({**BASE, "game": "chess"}),                         # unknown game
    json.dumps({**BASE, "options": {"double_event": "yes"}}),      # bad option value
    json.dumps({**BASE, "options": {"no_such_option": 1}}),        # unknown option
    json.dumps({"setup": {"hands": {"mercurial": ["H", "H", "H"], "rubicon": ["H"]},
                          "engine_stack": ["H", "H", "H", "H", "H"]}}),  # 9 H
    json.dumps({**BASE, "setup": {"detection_space": 12}}),         # bad setup value
    json.dumps({**BASE, "actions": ["navigate"]}),                 # action not an object
    json.dumps({**BASE, "actions": [{"card": "H"}]}),              # action without "do"
    json.dumps({**BASE, "actions": {"do": "retrieve"}}),           # actions not a list
    json.dumps({**BASE, "seed": "seven"}),
    json.dumps({**BASE, "dice": [9]}),                             # not a die result
])
def test_malformed_scenario_exits_2_with_one_line_on_stderr(capsys, tmp_path, text):
    code, out, err = run(capsys, tmp_path, text=text)
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1 and len(err.strip()) > 10
    assert "Traceback" not in err


def test_missing_file_exits_2(capsys, tmp_path):
    code = cli.main(["scenario", str(tmp_path / "nope.json")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "nope.json" in err


def test_python_m_companion_reads_stdin():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "companion", "scenario", "-"],
                          input=EXAMPLE.read_text(encoding="utf-8"), capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["ships"] == {"mercurial": "ONE", "rubicon": "ONE"}
    assert rep["held_events"]["rubicon"] == ["heisenberg"]


def test_text_of_a_qlanet_scenario_is_one_line_not_a_traceback(capsys):
    code = cli.main(["scenario", str(ROOT / "examples" / "qlanet-combo.json"), "--text"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "--text narrates Entanglion and QNO" in err and len(err.strip().splitlines()) == 1
    assert cli.main(["scenario", str(ROOT / "examples" / "qlanet-combo.json")]) == 0
