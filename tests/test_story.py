"""The story of a game: a pure function of the replayed game and its journal record,
told on the end screen, by ``companion games`` (a line each), ``games show ID`` and
``companion stats`` (sums over every game). Also the simulator's 80x24 layout."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from simscript import COMPANION

from companion.autoplay import AutoPlayer
from companion.games.common import duration, played_seconds
from companion.games.entanglion import Entanglion
from companion.games.entanglion.story import aggregate, line, pages, story, text
from companion.journal import Entry, Journal
from companion.session import SessionConfig
from companion.sim import build


def play(state_dir: Path, seed: int, game: str = "entanglion",
         options: dict | None = None, clock: list[float] | None = None) -> None:
    """One whole game through the simulator into the journal at ``state_dir``."""
    sim, journal = build(state_dir, None, seed, SessionConfig(), None)
    if clock is not None:
        journal._now = lambda: clock.__setitem__(0, clock[0] + 20) or clock[0]
    try:
        player = AutoPlayer(seed, game=game, options=options or {})
        while (cmd := player.next_command(sim.box.session)) is not None:
            sim.run(cmd)
        sim.run("press ok")  # leave the end screen
    finally:
        journal.close()


def test_a_story_from_a_scenario_says_what_happened():
    g = Entanglion.replay(2018, None, None, [1, 1], [
        {"do": "navigate", "card": "H"}, {"do": "navigate", "card": "CNOT"}])
    st = story(g)
    assert st["status"] == "playing" and st["turns"] == 3
    assert st["rolls"] == 1 and st["failed"] == 1
    assert st["detections"]["orbital defence"] == 1 and st["seconds"] is None
    assert st["closest"] is None and st["lost_to"] is None
    assert st["detections"] == {"orbital defence": 1, "Bit Flip Error": 1}
    assert line(st) == "0/8 parts, detected 2x"
    assert text(st)[0].startswith("Result: playing")


def test_time_played_leaves_out_breaks():
    class Record:
        created = 100.0
        entries = [Entry(1, "input", {}, 130.0), Entry(2, "input", {}, 160.0),
                   Entry(3, "input", {}, 5000.0), Entry(4, "input", {}, 5060.0)]

    assert played_seconds(Record) == 30 + 30 + 60  # the 81-minute gap was a break
    assert duration(played_seconds(Record)) == "2 min" and duration(None) == ""
    assert duration(4000) == "1 h 07" and duration(20) == "<1 min"


def test_the_closest_call_is_the_least_likely_success():
    g = Entanglion(0, None, {"first_player": "mercurial",
                             "ships": {"mercurial": "OMEGA_ONE", "rubicon": "OMEGA_ONE"},
                             "components": {"OMEGA_ONE": "quantum_gates"},
                             "detection_space": 11}, [8])
    g.push({"do": "retrieve"})
    c = story(g)["closest"]
    assert c["face"] == 8 and c["need"] == 8 and c["eighths"] == 1
    assert c["purpose"] == "ground defence" and c["chance"] == "1/8"
    assert pages(story(g))[-1]["lines"] == ["Turn 1:", "Mercurial retrieved with a 8",
                                             "needing 8+ (1/8)"]


def test_games_list_show_and_stats(tmp_path):
    state = tmp_path / "s"
    clock = [1_000_000.0]
    play(state, 6, clock=clock)  # a win
    play(state, 2, clock=clock)  # a loss
    play(state, 3, game="qno", clock=clock)
    listing = subprocess.run(COMPANION + ["games", "--state-dir", str(state)],
                             capture_output=True, text=True)
    assert listing.returncode == 0, listing.stderr
    rows = listing.stdout.splitlines()
    assert rows[0].split()[-1] == "story" and len(rows) == 4
    assert "won" in rows[3] and "8/8 parts" in rows[3] and " min" in rows[3]
    assert "P" in rows[1] and "players" in rows[1]  # QNO's own line
    show = subprocess.run(COMPANION + ["games", "show", "2", "--state-dir", str(state)],
                          capture_output=True, text=True)
    assert show.returncode == 0, show.stderr
    assert "Result: lost" in show.stdout and "Lost to:" in show.stdout
    assert "Detections:" in show.stdout and "Rolls:" in show.stdout
    stats = subprocess.run(COMPANION + ["stats", "--state-dir", str(state)],
                           capture_output=True, text=True)
    assert stats.returncode == 0, stats.stderr
    out = stats.stdout
    assert "Entanglion: 2 games, 2 finished, 1/2 won (50%)" in out
    assert "easy, track at 1: 1/2 won (50%)" in out and "Most common cause of loss" in out
    assert "QNO: 1 game" in out
    missing = subprocess.run(COMPANION + ["games", "show", "--state-dir", str(state)],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "which game" in missing.stderr
    empty = subprocess.run(COMPANION + ["stats", "--state-dir", str(tmp_path / "none")],
                           capture_output=True, text=True)
    assert empty.returncode == 2 and "no journal" in empty.stderr


def test_a_game_that_no_longer_replays_is_listed_not_told(tmp_path):
    state = tmp_path / "s"
    play(state, 6)
    with Journal(state / "journal.db") as journal:
        gid = journal.new_game("entanglion", 1, {}, {})
        journal.record(gid, {"do": "navigate", "card": "PROBE"}, turns=1, status="playing")
    listing = subprocess.run(COMPANION + ["games", "--state-dir", str(state)],
                             capture_output=True, text=True)
    assert listing.returncode == 0 and "(does not replay)" in listing.stdout
    show = subprocess.run(COMPANION + ["games", "show", str(gid), "--state-dir", str(state)],
                          capture_output=True, text=True)
    assert show.returncode == 2 and "does not replay" in show.stderr


def test_aggregate_counts_options_and_causes():
    base = {"status": "lost", "turns": 10, "start_space": 4, "options": {"dice": "manual"},
            "retrieved": {}, "lost_to": "PROBE", "detections": {}}
    won = {**base, "status": "won", "turns": 20, "lost_to": None, "options": {}}
    out = aggregate([base, base, won, {**base, "status": "abandoned"}])
    assert out[0] == "Entanglion: 4 games, 3 finished, 1/3 won (33%)"
    assert "  hard, track at 3: 1/3 won (33%)" in out
    assert "  Real dice: 0/2 won (0%)" in out and "  rule book: 1/1 won (100%)" in out
    # A ruling with no setup screen by its short words, not as key=value.
    tunnel = aggregate([{**base, "options": {"tunnel_timing": "after_failure"}}])
    assert "  Quantum Tunnel: after a failure: 0/1 won (0%)" in tunnel
    assert "Most common cause of loss: PROBE (2 of 2)" in out


# ------------------------------------------------------------------ the simulator's size


@pytest.mark.parametrize("size, fits", [((80, 24), True), ((173, 37), True), ((79, 24), False),
                                        ((100, 20), False)])
def test_the_simulator_fits_the_terminal_or_says_what_it_needs(tmp_path, size, fits):
    sim, journal = build(tmp_path, None, 3, SessionConfig(), None, sleep=lambda s: None)
    try:
        for cmd in ("press ok", "press ok", "press ok", "press ok", "press back"):
            sim.run(cmd)
        text = sim.render(colour=True, size=size)
        if not fits:
            assert text.startswith("companion sim needs a terminal of at least 80x24")
            return
        from companion.views.terminal import ansi_strip

        lines = text.splitlines()
        assert len(lines) + 2 <= size[1]  # the help line and the prompt fit below
        assert all(len(ansi_strip(line)) <= size[0] for line in lines)
        assert sim.render(colour=False, size=size) != text  # letters without colour
    finally:
        journal.close()
