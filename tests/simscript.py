"""Scripted games for the end-to-end tests: an AutoPlayer game recorded as commands."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.autoplay import AutoPlayer
from companion.session import SessionConfig
from companion.sim import build

COMPANION = [sys.executable, "-m", "companion"]


def record_game(seed: int, taps: bool = True, options: dict[str, Any] | None = None,
                limit: int = 5000, game: str = "entanglion") -> tuple[list[str], dict[int, dict[str, Any]]]:
    """Play a game in-process; returns its commands and the engine state after each
    number of accepted inputs (what a resumed game must equal)."""
    with tempfile.TemporaryDirectory() as tmp:
        sim, journal = build(Path(tmp), None, seed, SessionConfig(), None)
        player = AutoPlayer(seed, taps=taps, options=options, game=game)
        commands: list[str] = []
        states: dict[int, dict[str, Any]] = {}
        try:
            while len(commands) < limit:
                cmd = player.next_command(sim.box.session)
                if cmd is None:
                    break
                commands.append(cmd)
                sim.run(cmd)
                g = sim.box.session.game
                if g is not None:
                    states[len(g.inputs)] = g.to_dict()["state"]
        finally:
            journal.close()
    return commands, states


def run_sim(args: list[str], script: str, **kw: Any) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(COMPANION + ["sim", "--script", "-", *args], input=script,
                          capture_output=True, text=True, env=env, timeout=120, **kw)
