"""A pulled plug at random moments: SIGKILL the simulator mid-game, many times.

Each round runs a scripted game in ``companion sim`` and kills it (no clean-up, as a
power cut) after a random number of commands. Every progress line the simulator
printed came after that command's outcome was on screen, so the last one says how
many inputs players had seen. After the kill the journal must open intact, hold at
least those inputs, and a resumed session must equal the uninterrupted game at the
same point. Every eighth round the real daemon (``companion run``, mock GPIO) is then
started on what the kill left: it must come up and resume that game. CI runs a bounded
number of rounds; ``COMPANION_LONG=1`` runs 200.
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import time

import pytest

from companion.games.entanglion import Entanglion
from companion.journal import Journal
from companion.registry import Registry, default_sim_path
from companion.session import Session
from simscript import COMPANION, record_game

SEED = 3  # a long game (113 inputs, won)
LONG = os.environ.get("COMPANION_LONG") == "1"
ROUNDS = 200 if LONG else 16
PROGRESS = re.compile(r"^\d+: .* \(inputs (\d+)\)$")


@pytest.fixture(scope="module")
def game():
    return record_game(SEED)


def kill_at(tmp, commands, stop_after: int, delay: float) -> int:
    """Run the script, SIGKILL after ``stop_after`` progress lines; inputs last shown."""
    script = tmp / "script.txt"
    script.write_text("\n".join(commands) + "\n")
    lines = []
    with open(script) as stdin:
        proc = subprocess.Popen(
            COMPANION + ["sim", "--script", "-", "--state-dir", str(tmp / "state"),
                         "--seed", str(SEED)],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        while len(lines) < stop_after:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        lines += proc.stdout.read().splitlines()  # printed before it died
    shown = [int(m.group(1)) for m in map(PROGRESS.match, (x.strip() for x in lines)) if m]
    return shown[-1] if shown else 0


def daemon_resumes(tmp) -> str:
    """Start ``companion run`` on the state a kill left; returns its READY status line."""
    config = tmp / "config.toml"
    config.write_text('[oled]\ndriver = "none"\n[reader]\nkind = "none"\n[leds]\n'
                      f'sink = "none"\n[paths]\nstate_dir = "{tmp / "state"}"\n')
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp / "notify"))
        sock.settimeout(60)
        proc = subprocess.Popen(COMPANION + ["run", "--config", str(config)], cwd=tmp,
                                env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock",
                                     "NOTIFY_SOCKET": str(tmp / "notify")},
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            while "READY=1" not in (message := sock.recv(4096).decode()):
                pass
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
    return next(line[7:] for line in message.splitlines() if line.startswith("STATUS="))


def test_sigkill_at_random_points_loses_nothing_shown(game, tmp_path):
    commands, states = game
    rnd = random.Random(2026)
    registry = Registry.load(default_sim_path())
    points = []
    for round_ in range(ROUNDS):
        tmp = tmp_path / str(round_)
        tmp.mkdir()
        stop_after = rnd.randrange(len(commands) + 1)
        shown = kill_at(tmp, commands, stop_after, rnd.random() * 0.003)
        db = tmp / "state" / "journal.db"
        if not db.exists():  # killed before the journal was created: nothing was shown
            assert shown == 0
            continue
        with sqlite3.connect(db) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        journal = Journal(db)
        games = journal.games()
        if not games:
            assert shown == 0
            journal.close()
            continue
        record = journal.load(games[0].id)
        kept = len(Journal.effective_inputs(record.entries))
        assert kept >= shown, f"round {round_}: {shown} inputs were shown, {kept} kept"
        if record.status == "playing":
            session = Session(journal, registry)  # what the box does at power-on
            game = session.game
        else:  # finished before the kill: it stays queryable and replays the same
            game = Entanglion.replay(record.seed, record.options, record.setup, (),
                                     Journal.effective_inputs(record.entries))
        assert game.to_dict()["state"] == states[kept], f"round {round_}"
        points.append(kept)
        journal.close()
        if round_ % 8 == 0:  # the box powered on again: the daemon resumes that game
            status = daemon_resumes(tmp)
            if record.status == "playing":
                assert status.startswith(f"Game #{record.id}: "), status
            with Journal(db) as again:  # and changed nothing by starting
                assert len(Journal.effective_inputs(again.load(record.id).entries)) == kept
    # The kills really were spread over the game.
    assert len(set(points)) >= min(ROUNDS, 8) // 2
