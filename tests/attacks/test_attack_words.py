"""What the box says after a tidy-up went wrong: the right cause, no guessing."""

from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace

from companion import recovery
from companion.journal import Loss


def test_run_names_the_state_directory_not_the_hardware(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the state directory should be\n")
    conf = tmp_path / "config.toml"
    conf.write_text(f'[paths]\nstate_dir = "{blocker}/state"\n')
    result = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(conf)],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert result.returncode == 2  # a folder to fix, not a fault a restart mends
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert "cannot use the state directory" in lines[0] and str(blocker) in lines[0]
    assert "hardware" not in lines[0]


def test_a_lost_game_is_not_blamed_on_a_power_loss_the_box_cannot_know_of(tmp_path):
    session = SimpleNamespace(game_id=None, game=None)
    told = recovery._told(Loss(writes=3, game=2, inputs=5, game_lost=True), session,
                          tmp_path / "journal.db")
    assert told[0] == "Journal rewound"
    assert "power" not in " ".join(told).lower() and "#2" in told[1]
