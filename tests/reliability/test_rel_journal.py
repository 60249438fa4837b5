"""The journal under attack: bit flips in the file, its index pages and its WAL, a kill
at every step of a salvage, a commit that reports failure after landing, and a restart
at every notice of a game's setup.

The rule for every flip: the box comes up, and either resumes the very game it had (the
same state) or tells the table what it lost with an alert. A quietly different game,
or a traceback, fails. ``COMPANION_LONG=1`` runs thousands of flips.
"""

from __future__ import annotations

import collections
import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.journal import salvaging as journal_module
from companion import recovery
from companion.autoplay import AutoPlayer
from companion.games.common import GAMES
from companion.journal import Journal, JournalError
from companion.registry import sim_registry
from companion.session import Session, SessionConfig
from companion.sim import build
from journal_rig import an_evening, play

LONG = os.environ.get("COMPANION_LONG") == "1"
FLIPS = 3000 if LONG else 100  # per kind of target
REPAIRED, REWOUND = "Journal repaired", "Journal rewound"


def evening(state: Path) -> tuple[int, dict, int]:
    """A finished game, then one left at 40 inputs by a pulled plug (the journal is not
    closed). Returns (unfinished game id, its state, inputs)."""
    sim, journal = an_evening(state, 40)
    s = sim.box.session
    snapshot = (s.game_id, s.game.to_dict()["state"], len(s.game.inputs))
    for suffix in ("", "-wal", ".mark"):  # the files as a power cut leaves them
        shutil.copy(f"{state}/journal.db{suffix}", f"{state}/cut.db{suffix}")
    journal.close()
    return snapshot


@pytest.fixture(scope="module")
def crashed(tmp_path_factory):
    state = tmp_path_factory.mktemp("evening")
    return state, evening(state)


def restore(src: Path, dst: Path, cut: bool) -> Path:
    for old in dst.glob("journal.db*"):
        old.unlink()
    for suffix in ("", "-wal", ".mark"):
        name = f"{src}/{'cut' if cut else 'journal'}.db{suffix}"
        if os.path.exists(name):
            shutil.copy(name, f"{dst}/journal.db{suffix}")
    return dst / "journal.db"


def outcome(path: Path, expected: tuple[int, dict, int]) -> str:
    """'identical', or the alert title after checking it names the loss; fails otherwise."""
    session = recovery.open_session(path, sim_registry(), SessionConfig())
    try:
        gid, state, inputs = expected
        alert = session.overlay
        same = session.game_id == gid and session.game is not None and \
            session.game.to_dict()["state"] == state
        if alert is None or alert.get("title") not in (REPAIRED, REWOUND):
            assert same, "the game changed and the table was not told"
            return "identical"
        text = " ".join(alert["lines"])
        assert "lost" in text or "Kept" in text or "Nothing in it" in text, text
        if session.game is not None and session.game_id == gid:
            assert len(session.game.inputs) <= inputs  # never more than was played
        return alert["title"]
    finally:
        session.journal.close()


def flip(path: Path, rng: random.Random, start: int = 0, end: int | None = None) -> str:
    """Flip one random bit of ``path`` (within [start, end)); returns where, for a report."""
    data = bytearray(path.read_bytes())
    end = len(data) if end is None else end
    if end <= start:
        return ""
    at, bit = rng.randrange(start, end), rng.randrange(8)
    data[at] ^= 1 << bit
    path.write_bytes(bytes(data))
    return f"{path.name}@{at}.{bit}"


def index_pages(path: Path) -> list[int]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        root = db.execute("SELECT rootpage FROM sqlite_master"
                          " WHERE name = 'sqlite_autoindex_entries_1'").fetchone()[0]
        pages = [row[0] for row in db.execute(
            "SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_entries_1'")] \
            if _has_dbstat(db) else [root]
    return pages


def _has_dbstat(db) -> bool:
    try:
        db.execute("SELECT 1 FROM dbstat LIMIT 1")
        return True
    except sqlite3.Error:
        return False


@pytest.mark.parametrize("target", ["file", "file x3", "index", "wal"])
def test_bit_flips_resume_identically_or_are_told(crashed, tmp_path, target):
    source, expected = crashed
    rng = random.Random(f"flips-{target}")
    kinds: collections.Counter[str] = collections.Counter()
    pages = index_pages(source / "journal.db") if target == "index" else []
    with sqlite3.connect(f"file:{source}/journal.db?mode=ro", uri=True) as db:
        size = db.execute("PRAGMA page_size").fetchone()[0]
    for trial in range(FLIPS):
        path = restore(source, tmp_path, cut=target == "wal")
        if target.startswith("file"):
            where = [flip(path, rng) for _ in range(3 if target.endswith("x3") else 1)]
        elif target == "index":
            page = rng.choice(pages)
            where = [flip(path, rng, (page - 1) * size, page * size)]
        else:
            where = [flip(Path(f"{path}-wal"), rng)]
        damaged = path.read_bytes()
        try:
            kinds[outcome(path, expected)] += 1
        except BaseException:
            # Keep what failed: the journal differs from run to run (its timestamps).
            keep = Path(os.environ.get("COMPANION_FLIP_KEEP", tmp_path.parent))
            (keep / f"flip-failure-{target.replace(' ', '')}-{trial}.db").write_bytes(damaged)
            print(f"{target}: trial {trial} failed after flipping {where}")
            raise
    print(f"{target}: {FLIPS} flips: {dict(kinds)}")
    assert sum(kinds.values()) == FLIPS


def test_a_lost_wal_is_told_with_what_was_lost(crashed, tmp_path):
    source, expected = crashed
    path = restore(source, tmp_path, cut=True)
    Path(f"{path}-wal").unlink()  # deleted under the box, then the power went
    session = recovery.open_session(path, sim_registry(), SessionConfig())
    try:
        assert session.overlay["title"] == REWOUND
        assert any("lost" in line for line in session.overlay["lines"])
    finally:
        session.journal.close()


@pytest.mark.parametrize("step", range(1, 9))
def test_a_kill_at_any_step_of_a_salvage_is_finished_at_the_next_start(crashed, tmp_path,
                                                                        monkeypatch, step):
    source, expected = crashed
    path = restore(source, tmp_path, cut=False)
    with sqlite3.connect(path) as db:  # damage the content: a row that does not decode
        db.execute("UPDATE entries SET action = '{\"card\":\"H\"' WHERE game_id = ? AND seq = 3",
                   (expected[0],))
    calls = [0]
    real_replace, real_sync = os.replace, journal_module._fsync_dir

    def dying(real):
        def call(*args):
            calls[0] += 1
            if calls[0] == step:
                raise SystemExit("killed")  # nothing after this point runs
            return real(*args)
        return call

    monkeypatch.setattr(journal_module.os, "replace", dying(real_replace))
    monkeypatch.setattr(journal_module, "_fsync_dir", dying(real_sync))
    try:
        recovery.open_session(path, sim_registry(), SessionConfig()).journal.close()
        killed = False
    except SystemExit:
        killed = True
    monkeypatch.undo()
    for leftover in tmp_path.glob("journal.db.salvage*"):  # the kill left these behind
        assert leftover.name in ("journal.db.salvage-new", "journal.db.salvage-report",
                                 "journal.db.salvage-tmp", "journal.db.salvage")
    session = recovery.open_session(path, sim_registry(), SessionConfig())
    recovery.shown(path)
    try:
        if killed:
            assert session.overlay is not None and session.overlay["title"] == REPAIRED
        with Journal(path, readonly=True) as j:
            games = j.games()
        assert len(games) == 2 and games[-1].status == "won"  # the finished game kept
        assert session.game_id == expected[0] and len(session.game.inputs) == 2
        assert not list(tmp_path.glob("journal.db.salvage*"))
        assert len(list(tmp_path.glob("journal.db.damaged-*"))) >= 1
    finally:
        session.journal.close()


class LateFsync(Journal):
    """A commit whose fsync reports an error after the write landed (or before)."""

    landed = True

    def _commit(self, db):
        if self.landed:
            db.execute("COMMIT")
        raise sqlite3.OperationalError("disk I/O error")


@pytest.mark.parametrize("landed", [True, False])
def test_a_reported_commit_failure_is_checked_before_the_table_is_told(tmp_path, landed):
    with Journal(tmp_path / "j.db") as j:
        gid = j.new_game("entanglion", 1, {})
    j = LateFsync(tmp_path / "j.db")
    j.landed = landed
    try:
        if landed:
            assert j.record(gid, {"do": "x"}, turns=1, status="playing") == 1
        else:
            with pytest.raises(JournalError):
                j.record(gid, {"do": "x"}, turns=1, status="playing")
    finally:
        j.close()
    with Journal(tmp_path / "j.db") as again:
        assert len(again.load(gid).entries) == (1 if landed else 0)


def drive_to_game(path: Path, game: str) -> tuple[Session, list]:
    """A new game of ``game`` through the menus; returns the session and its notices."""
    session = Session(Journal(path), sim_registry(), SessionConfig(), lambda: 11)
    from companion.inputs import OK, Press
    item = next(i for i, it in enumerate(session._main_menu()["items"])
                if it.action.get("new") == game)
    session.cursor = item
    session.handle(Press(OK))
    while session.mode == "setup":
        session.handle(Press(OK))
    return session, list(session.notices)


@pytest.mark.parametrize("game", GAMES)
def test_a_restart_during_setup_resumes_at_its_step(tmp_path, game):
    from companion.inputs import OK, Press
    path = tmp_path / "journal.db"
    first, notices = drive_to_game(path, game)
    assert notices or game != "entanglion", "Entanglion shows its guided setup"
    for read in range(len(notices) + 1):
        # The power goes now: a new session on the same journal (not closed).
        again = Session(Journal(path), sim_registry(), SessionConfig())
        assert again.game_id == first.game_id
        assert again.notices[0]["title"].endswith("resumed")
        assert again.notices[1:] == notices[read:], f"after {read} read"
        again.journal.close()
        if read < len(notices):
            first.anim = 0
            first.handle(Press(OK))
    first.journal.close()


def test_a_mid_game_restart_shows_the_last_notices_again(tmp_path):
    from companion.inputs import OK, Press
    sim, journal = build(tmp_path, None, 3, SessionConfig(), None)
    player = AutoPlayer(3)
    while True:  # to an input whose outcome takes more than one notice
        play(sim, player, len(sim.box.session.game.inputs) + 1 if sim.box.session.game
             else 1)
        s = sim.box.session
        if len(s.notices) >= 2 and s.game.inputs:
            break
        while s.notices or s.overlay:
            s.anim = 0
            s.handle(Press(OK))
    shown = list(s.notices)
    s.anim = 0
    s.handle(Press(OK))  # the table reads the first
    again = Session(Journal(tmp_path / "journal.db"), sim_registry(), SessionConfig())
    try:
        assert again.notices[1:] == shown[1:]
        assert again.game.to_dict()["state"] == s.game.to_dict()["state"]
    finally:
        again.journal.close()
        journal.close()


SALVAGE_CHILD = r"""
import sys
from pathlib import Path
from companion import recovery
from companion.registry import sim_registry
from companion.session import SessionConfig
print("go", flush=True)
session = recovery.open_session(Path(sys.argv[1]), sim_registry(), SessionConfig())
print("shown", flush=True)  # a box's screen would show its alerts now
recovery.shown(Path(sys.argv[1]))
session.journal.close()
"""


def test_real_kills_during_a_salvage_never_lose_the_games(crashed, tmp_path):
    """SIGKILL at random moments of a start that salvages: the next start always has both
    games and the damaged file kept, and tells the table unless the killed one had."""
    import signal
    import subprocess
    import sys
    import time

    source, expected = crashed
    rng = random.Random("salvage-kills")
    for round_ in range(12 if LONG else 4):
        for old in tmp_path.glob("journal.db*"):
            old.unlink()
        path = restore(source, tmp_path, cut=False)
        with sqlite3.connect(path) as db:
            db.execute("UPDATE entries SET action = '{' WHERE game_id = ? AND seq = 5",
                       (expected[0],))
        child = subprocess.Popen([sys.executable, "-c", SALVAGE_CHILD, str(path)],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            assert child.stdout.readline() == b"go\n"
            time.sleep(rng.uniform(0.0, 0.4))
            child.send_signal(signal.SIGKILL)
        finally:
            child.wait()
        finished = b"shown" in child.stdout.read()  # then its alert was shown by it
        session = recovery.open_session(path, sim_registry(), SessionConfig())
        try:
            with Journal(path, readonly=True) as j:
                assert len(j.games()) == 2, f"round {round_}"
            assert session.game_id == expected[0] and len(session.game.inputs) == 4
            if not finished:
                assert session.overlay is not None and session.overlay["title"] == REPAIRED
            assert list(tmp_path.glob("journal.db.damaged-*"))
        finally:
            session.journal.close()
