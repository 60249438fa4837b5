"""The hint's budget comes from this box's measured speed, kept per machine."""

from __future__ import annotations

import json

import pytest

from companion import cli, hintrate
from companion.games.entanglion import hint


@pytest.fixture(autouse=True)
def budget(monkeypatch):
    monkeypatch.setattr(hint, "DEFAULT_BUDGET", hint.DEFAULT_BUDGET)  # restored after
    monkeypatch.setattr(hintrate, "START_SECONDS", 0.02)


def test_a_kept_rate_for_this_machine_sets_the_budget(tmp_path):
    hintrate.save(tmp_path, 40.0)
    assert hintrate.start(tmp_path) == 40.0
    assert hint.DEFAULT_BUDGET == 40 * hint.DEFAULT_BUDGET_MS


@pytest.mark.parametrize("kept", [
    None,  # never measured
    '{"inputs_per_ms": 40.0, "machine": "armv7l CPython 3.9.2 python 4"}',  # another box
    '{"inputs_per_ms": -3, "machine": "%s"}',
    '{"inputs_per_ms": true, "machine": "%s"}',
    "not json",
    "[1, 2]",
])
def test_without_a_usable_kept_rate_the_box_measures_and_keeps_it(tmp_path, kept):
    if kept is not None:
        text = kept % hintrate.machine_key() if "%s" in kept else kept
        (tmp_path / hintrate.RATE_FILE).write_text(text)
    rate = hintrate.start(tmp_path)
    assert rate > 0 and hint.DEFAULT_BUDGET == hint.budget_for_ms(hint.DEFAULT_BUDGET_MS, rate)
    kept = json.loads((tmp_path / hintrate.RATE_FILE).read_text())
    assert kept["machine"] == hintrate.machine_key() and kept["inputs_per_ms"] > 0
    assert hintrate.load(tmp_path) == pytest.approx(rate, abs=0.01)
    assert (tmp_path / hintrate.RATE_FILE).stat().st_mode & 0o777 == 0o600


def test_a_state_directory_that_cannot_keep_it_still_sets_the_budget(tmp_path):
    missing = tmp_path / "not-there"
    assert hintrate.start(missing) > 0 and not missing.exists()


def test_doctor_bench_prints_the_rate_and_keeps_it(tmp_path, capsys, monkeypatch):
    state = tmp_path / "state"
    state.mkdir()
    config = tmp_path / "config.toml"
    config.write_text(f'[paths]\nstate_dir = "{state}"\n')
    monkeypatch.setattr(hintrate, "BENCH_SECONDS", 0.05)
    assert cli.main(["doctor", "--bench", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "engine inputs per ms" in out and "budget" in out
    assert hintrate.load(state) is not None
