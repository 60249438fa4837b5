"""Salvage keeps every input whose entry verifies: harmless damage is repaired, an index
that lies is outvoted by the table, and a game that verifies but no longer replays is
trimmed to what replays, with one alert (not one at every start).

Each case starts from the same evening: a finished game, then one left 39 inputs in."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion import recovery
from companion.journal import Journal, salvage
from companion.registry import sim_registry
from companion.session import SessionConfig
from journal_rig import an_evening

INPUTS = 39


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> tuple[Path, int, dict]:
    """A closed journal: a won game, then one at 39 inputs. (dir, game id, its state)"""
    state = tmp_path_factory.mktemp("evening")
    sim, journal = an_evening(state, INPUTS)
    s = sim.box.session
    result = (state, s.game_id, s.game.to_dict()["state"])
    sim.stop_checkpoints()
    journal.close()
    return result


@pytest.fixture
def copy(evening, tmp_path) -> tuple[Path, int, dict]:
    state, gid, game = evening
    shutil.copy(state / "journal.db", tmp_path / "journal.db")
    return tmp_path / "journal.db", gid, game


def edit(path: Path, sql: str, *args) -> None:
    with sqlite3.connect(path) as db:
        db.execute(sql, args)
    sqlite3.connect(path).close()


def start(path: Path):
    """The box's start on ``path``: (the alert shown or None, the session)."""
    session = recovery.open_session(path, sim_registry(), SessionConfig())
    recovery.shown(path)
    return session.overlay, session


def resumes_whole(path: Path, gid: int, game: dict) -> dict | None:
    alert, session = start(path)
    try:
        assert session.game_id == gid and len(session.game.inputs) == INPUTS
        assert session.game.to_dict()["state"] == game
        return alert
    finally:
        session.journal.close()


@pytest.mark.parametrize("at", ["at + 1e-6", "12345.678"])  # a few bits, or many
def test_a_timestamp_off_by_a_microsecond_costs_no_input(copy, at):
    path, gid, game = copy
    edit(path, f"UPDATE entries SET at = {at} WHERE game_id = ? AND seq = 1", gid)
    alert = resumes_whole(path, gid, game)
    assert alert["title"] == "Journal repaired" and "nothing lost" in " ".join(alert["lines"])


@pytest.mark.parametrize("seq", [1, 20, INPUTS])
def test_a_damaged_checksum_is_recomputed_from_the_entry_it_covers(copy, seq):
    path, gid, game = copy
    edit(path, "UPDATE entries SET chain = (chain | 4096) - (chain & 4096) WHERE game_id = ? AND seq = ?",
         gid, seq)
    resumes_whole(path, gid, game)


@pytest.mark.parametrize("where", ['"do":"', '"do"'])  # a letter of a move; a quote
def test_one_flipped_bit_in_an_action_is_put_back(copy, where):
    path, gid, game = copy
    with sqlite3.connect(path) as db:
        action = db.execute("SELECT action FROM entries WHERE game_id = ? AND seq = 7",
                            (gid,)).fetchone()[0]
    at = action.index(where) + len(where) - 1 if where.endswith('"do"') else \
        action.index(where) + len(where)
    flipped = action[:at] + chr(ord(action[at]) ^ 2) + action[at + 1:]  # one bit
    edit(path, "UPDATE entries SET action = ? WHERE game_id = ? AND seq = 7", flipped, gid)
    resumes_whole(path, gid, game)


def test_two_damaged_neighbours_are_not_guessed(copy):
    """Two entries in a row that do not verify: nothing confirms either, so the game is
    kept up to the entry before them and the table is told."""
    path, gid, _ = copy
    edit(path, "UPDATE entries SET at = 12345.678 WHERE game_id = ? AND seq IN (10, 11)",
         gid)
    alert, session = start(path)
    try:
        assert alert["title"] == "Journal repaired" and "lost some moves" in \
            " ".join(alert["lines"])
        assert session.game_id == gid and len(session.game.inputs) <= 9
    finally:
        session.journal.close()


def index_pages(path: Path) -> list[int]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        try:
            pages = [row[0] for row in db.execute(
                "SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_entries_1'")]
        except sqlite3.Error:  # SQLite built without dbstat: the root page
            pages = [db.execute("SELECT rootpage FROM sqlite_master WHERE name ="
                                " 'sqlite_autoindex_entries_1'").fetchone()[0]]
    return [(page - 1) * size for page in pages], size


def test_a_flipped_bit_in_the_index_loses_nothing_the_table_holds(copy, tmp_path):
    """The index is redundant: whatever one bit in it says, every entry the table scan
    verifies is kept (each entry is taken from whichever source fits the chain)."""
    path, gid, game = copy
    starts, size = index_pages(path)
    pristine = path.read_bytes()
    rng = random.Random(28)
    work = tmp_path / "flip"
    for trial in range(40):
        work.mkdir()
        data = bytearray(pristine)
        at = rng.choice(starts) + rng.randrange(size)
        data[at] ^= 1 << rng.randrange(8)
        (work / "journal.db").write_bytes(bytes(data))
        journal, report = salvage(work / "journal.db", recovery.replays)
        try:
            kept = journal.load(gid)
            assert kept.inputs == INPUTS, (trial, at, report)
        finally:
            journal.close()
        shutil.rmtree(work)


def interleave(path: Path, gid: int) -> None:
    """What two writers on one journal leave: a game whose chain verifies (each appended
    after the other's last entry) but whose inputs no longer make one game."""
    with Journal(path) as journal:
        record = journal.load(gid)
        foreign = [e.action for e in record.entries[5:9]]
        for action in foreign:  # moves from earlier in the game: the engine refuses them
            journal.record(gid, action, turns=record.turns, status="playing")


def test_a_game_that_verifies_but_does_not_replay_is_trimmed_and_told_once(copy):
    path, gid, game = copy
    interleave(path, gid)
    alert, session = start(path)
    try:
        assert alert["title"] == "Journal repaired", alert
        assert "lost some moves" in " ".join(alert["lines"])
        assert session.game_id == gid and len(session.game.inputs) >= INPUTS
        assert session.game.to_dict()["state"] == game or len(session.game.inputs) > INPUTS
    finally:
        session.journal.close()
    alert, session = start(path)  # the next start: the trimmed game, no alert, no error
    try:
        assert alert is None and session.game_id == gid
        assert len(session.game.inputs) >= INPUTS
    finally:
        session.journal.close()


def test_salvage_replays_only_the_games_that_need_it(copy):
    path, gid, _ = copy
    with Journal(path) as journal:
        seeds = {g.id: journal.load(g.id).seed for g in journal.games()}
    edit(path, "UPDATE entries SET at = at + 1e-6 WHERE game_id = ? AND seq = 3", gid)
    replayed = []

    def counting(game, *args):
        replayed.append(args[0])  # the seed
        return recovery.replays(game, *args)

    journal, report = salvage(path, counting)
    journal.close()
    assert len(seeds) == 2 and set(replayed) == {seeds[gid]}  # the won game is intact
    assert report.games == 2 and not report.losses
