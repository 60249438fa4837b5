"""End to end through the simulator's input path: scripts of presses and taps run by
``companion sim --script`` in a separate process, as a player at the box would."""

from __future__ import annotations

import json
import os
import signal
import subprocess

from simscript import COMPANION, record_game, run_sim

from companion.games.entanglion import Entanglion
from companion.journal import Journal
from companion.registry import Registry, default_sim_path
from companion.session import Session, SessionConfig
from companion.sim import build

WIN_SEED, LOSS_SEED = 6, 2  # AutoPlayer wins with seed 6 and loses with seed 2


def final_state(state_dir) -> tuple[Journal, object]:
    journal = Journal(state_dir / "journal.db")
    record = journal.load(journal.games()[0].id)
    game = Entanglion.replay(record.seed, record.options, record.setup, (),
                             Journal.effective_inputs(record.entries))
    return journal, record, game


def test_a_scripted_game_to_a_win(tmp_path):
    commands, states = record_game(WIN_SEED)
    script = "\n".join(commands + ["press back", "expect status won", "expect screen end"])
    out = run_sim(["--state-dir", str(tmp_path / "s"), "--seed", str(WIN_SEED),
                   "--frames", str(tmp_path / "f")], script)
    assert out.returncode == 0, out.stderr
    journal, record, game = final_state(tmp_path / "s")
    assert record.status == "won" and game.status == "won"
    assert game.to_dict()["state"] == states[max(states)]
    frames = sorted((tmp_path / "f").glob("oled-*.png"))
    leds = (tmp_path / "f" / "leds.jsonl").read_text().splitlines()
    assert len(frames) > len(commands) // 2 and len(leds) > 10
    assert all(len(json.loads(line)) == 25 for line in leds)  # the board and the turn pixel
    journal.close()
    listing = subprocess.run(COMPANION + ["games", "--state-dir", str(tmp_path / "s")],
                             capture_output=True, text=True)
    assert listing.returncode == 0 and " won " in listing.stdout
    # A journal game exports as a scenario that replays to the same end.
    export = subprocess.run(COMPANION + ["games", "export", str(record.id), "--state-dir",
                                         str(tmp_path / "s")], capture_output=True, text=True)
    assert export.returncode == 0, export.stderr
    replayed = subprocess.run(COMPANION + ["scenario", "-"], input=export.stdout,
                              capture_output=True, text=True)
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["status"] == "won"
    missing = subprocess.run(COMPANION + ["games", "export", "99", "--state-dir",
                                          str(tmp_path / "s")], capture_output=True, text=True)
    assert missing.returncode == 2 and "no game 99" in missing.stderr


def test_a_buttons_only_game_to_a_loss(tmp_path):
    commands, states = record_game(LOSS_SEED, taps=False)
    assert not any(c.startswith("tap") for c in commands)
    script = "\n".join(commands + ["press back", "expect status lost", "expect text LOST",
                                   "press ok", "expect screen menu"])
    out = run_sim(["--state-dir", str(tmp_path), "--seed", str(LOSS_SEED)], script)
    assert out.returncode == 0, out.stderr
    journal, record, game = final_state(tmp_path)
    assert record.status == "lost" and game.state.detection == 12
    journal.close()


def test_a_killed_game_resumes_exactly(tmp_path):
    commands, states = record_game(WIN_SEED)
    # Cut where the next command is a tap: taps act the same whatever was on screen,
    # and menus, cursors and notices are not part of a game, so they do not resume.
    cut = next(i for i in range(len(commands) // 2, len(commands))
               if commands[i].startswith("tap") and commands[i - 1] != "press exchange")
    proc = subprocess.Popen(COMPANION + ["sim", "--script", "-", "--state-dir", str(tmp_path),
                                         "--seed", str(WIN_SEED)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    for cmd in commands[:cut]:
        proc.stdin.write(cmd + "\n")
        proc.stdin.flush()
        assert proc.stdout.readline(), "the simulator stopped early"
    proc.send_signal(signal.SIGKILL)  # a pulled plug: no clean-up runs
    proc.wait()
    rest = "\n".join(commands[cut:] + ["press back", "expect status won"])
    out = run_sim(["--state-dir", str(tmp_path), "--seed", str(WIN_SEED)], rest)
    assert out.returncode == 0, out.stderr
    journal, record, game = final_state(tmp_path)
    assert game.to_dict()["state"] == states[max(states)]
    assert len(journal.games()) == 1  # the same game went on
    journal.close()


def _play_to_detection(tmp_path, seed):
    """Run seed's game until a tap made an orbital defence roll fail."""
    commands, _ = record_game(seed)
    sim, journal = build(tmp_path, None, seed, SessionConfig(), None)
    for cmd in commands:
        g = sim.box.session.game
        before = g.to_dict()["state"] if g else None
        log_len = len(g.log) if g else 0
        sim.run(cmd)
        g = sim.box.session.game
        if cmd.startswith("tap") and not g.pending and any(
                e["type"] == "detection" and e["reason"] == "orbital defence"
                for e in g.log[log_len:]):
            return sim, journal, cmd, before
    journal.close()
    return None


def test_undo_of_a_navigation_that_raised_detection(tmp_path):
    found = None
    for seed in range(1, 30):
        found = _play_to_detection(tmp_path / str(seed), seed)
        if found:
            break
    assert found, "no game with a detected navigation"
    sim, journal, cmd, before = found
    g = sim.box.session.game
    after = g.to_dict()["state"]
    assert after != before  # detected: the ships jumped and the track moved
    entries = len(journal.load(sim.box.session.game_id).entries)
    sim.run("hold back")
    assert sim.box.session.screen()["screen"] == "undo"
    assert g.to_dict()["state"] == before  # ships, detection, hands, dice all back
    assert len(journal.load(sim.box.session.game_id).entries) == entries + 1
    sim.run(cmd)  # the same tap again: undo never re-rolls
    assert g.to_dict()["state"] == after
    # And a fresh session resumes the journal to exactly this.
    resumed = Session(journal, Registry.load(default_sim_path()))
    assert resumed.game.to_dict()["state"] == after
    journal.close()


def test_script_errors_exit_2_with_the_line(tmp_path):
    out = run_sim(["--state-dir", str(tmp_path)], "press ok\nfly away\n")
    assert out.returncode == 2 and "line 2" in out.stderr and "unknown command" in out.stderr
    out = run_sim(["--state-dir", str(tmp_path)], "tap 1 NOSUCHCARD\n")
    assert out.returncode == 2 and "no card named" in out.stderr
    out = run_sim(["--state-dir", str(tmp_path)], "expect screen status\n")
    assert out.returncode == 1 and "expected screen" in out.stderr


def test_a_broken_registry_exits_2(tmp_path):
    bad = tmp_path / "tags.json"
    bad.write_text("{not json")
    out = run_sim(["--state-dir", str(tmp_path), "--registry", str(bad)], "press ok\n")
    assert out.returncode == 2 and "tags.json" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
