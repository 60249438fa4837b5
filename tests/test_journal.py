"""The durable game journal: round trips, undo replay, resume choice, file safety, hard kills."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.journal import Entry, GameRecord, GameSummary, Journal, JournalError

ROOT = Path(__file__).resolve().parents[1]
NAV = {"player": "mercurial", "do": "navigate", "card": "H"}


class Clock:
    """A fake clock: every call is one second later (or earlier, to mimic a Pi booting
    with its time set back)."""

    def __init__(self, start: float = 1000.0, step: float = 1.0):
        self.t, self.step = start, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.db", now=Clock()) as j:
        yield j


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_round_trip(tmp_path):
    path = tmp_path / "journal.db"
    with Journal(path, now=Clock()) as j:
        gid = j.new_game("entanglion", 42, {"events": True}, setup={"first": "rubicon"},
                         meta={"players": ["ann", "bob"]})
        assert not j._db.in_transaction
        assert j.record(gid, NAV, turns=1, status="playing") == 1
        assert not j._db.in_transaction
        assert j.record(gid, {"player": "rubicon", "do": "exchange"}, turns=2, status="won",
                        reason="all components retrieved") == 2
        assert not j._db.in_transaction
        rec = j.load(gid)
    assert isinstance(rec, GameRecord) and isinstance(rec, GameSummary)
    assert (rec.id, rec.game, rec.seed) == (gid, "entanglion", 42)
    assert rec.options == {"events": True}
    assert rec.setup == {"first": "rubicon"} and rec.meta == {"players": ["ann", "bob"]}
    assert (rec.created, rec.updated, rec.finished) == (1001.0, 1003.0, 1003.0)
    assert (rec.status, rec.turns, rec.inputs) == ("won", 2, 2)
    assert rec.reason == "all components retrieved"
    assert rec.entries == [Entry(1, "input", NAV, 1002.0),
                           Entry(2, "input", {"player": "rubicon", "do": "exchange"}, 1003.0)]


def test_defaults_and_canonical_json(journal):
    gid = journal.new_game("entanglion", 1, {})
    journal.record(gid, NAV, turns=0, status="playing")
    rec = journal.load(gid)
    assert rec.setup is None and rec.meta is None and rec.finished is None and rec.reason is None
    stored = journal._db.execute("SELECT action FROM entries").fetchone()[0]
    assert stored == '{"card":"H","do":"navigate","player":"mercurial"}'


def test_actions_that_would_not_replay_identically_are_refused(journal):
    gid = journal.new_game("entanglion", 1, {})
    for bad in ({"cards": ("H", "X")}, {1: "int key"}, {"x": float("nan")}):
        with pytest.raises(ValueError):
            journal.record(gid, bad, turns=1, status="playing")
    with pytest.raises(TypeError):
        journal.record(gid, ["not", "a", "dict"], turns=1, status="playing")
    with pytest.raises(ValueError):
        journal.new_game("entanglion", 1, {"pair": (1, 2)})
    assert journal.load(gid).entries == [] and len(journal.games()) == 1


@pytest.mark.parametrize("kinds, expected", [
    ("", []),
    ("ab", ["a", "b"]),
    ("abuc", ["a", "c"]),
    ("abuu", []),                 # undo of everything
    ("auub", ["b"]),              # an extra undo is ignored and does not eat a later input
    ("uuu", []),
    ("abcuudue", ["a", "e"]),
])
def test_effective_inputs(kinds, expected):
    entries = [Entry(i, "undo", None, 0.0) if k == "u" else Entry(i, "input", {"k": k}, 0.0)
               for i, k in enumerate(kinds, 1)]
    assert Journal.effective_inputs(entries) == [{"k": k} for k in expected]


def test_undo_is_recorded_and_history_kept(journal):
    gid = journal.new_game("entanglion", 3, {})
    journal.record(gid, {"k": "a"}, turns=1, status="playing")
    journal.record(gid, {"k": "b"}, turns=2, status="playing")
    assert journal.record_undo(gid, turns=1, status="playing") == 3
    assert journal.record_undo(gid, turns=0, status="playing") == 4
    assert journal.record_undo(gid, turns=0, status="playing") == 5   # nothing left to undo
    journal.record(gid, {"k": "c"}, turns=1, status="playing")
    rec = journal.load(gid)
    assert [e.kind for e in rec.entries] == ["input", "input", "undo", "undo", "undo", "input"]
    assert all(e.action is None for e in rec.entries if e.kind == "undo")
    assert Journal.effective_inputs(rec.entries) == [{"k": "c"}]
    assert rec.inputs == 1 and journal.games()[0].inputs == 1 and rec.turns == 1


def test_games_newest_first_even_if_the_clock_goes_back(tmp_path):
    with Journal(tmp_path / "j.db", now=Clock(start=5000.0, step=-10.0)) as j:
        a = j.new_game("entanglion", 1, {})
        b = j.new_game("entanglion", 2, {"events": False})
        c = j.new_game("solitaire", 3, {})
        j.record(a, NAV, turns=1, status="lost", reason="detected")
        j.record(b, NAV, turns=1, status="playing")
        j.record_undo(b, turns=0, status="playing")
        summaries = j.games()
        assert [s.id for s in summaries] == [c, b, a]
        assert [s.id for s in j.games(limit=2)] == [c, b]
        assert j.games(limit=0) == []
    sc, sb, sa = summaries
    assert sa == GameSummary(a, "entanglion", 4990.0, 4960.0, 4960.0, "lost", 1, "detected", 1)
    assert (sb.status, sb.finished, sb.turns, sb.inputs) == ("playing", None, 0, 0)
    assert (sc.game, sc.created, sc.updated, sc.inputs) == ("solitaire", 4970.0, 4970.0, 0)


def test_unfinished_picks_latest_playing(tmp_path):
    # The clock runs backwards: the choice must follow the order of writes, not timestamps.
    with Journal(tmp_path / "j.db", now=Clock(start=5000.0, step=-1.0)) as j:
        assert j.unfinished() is None
        a = j.new_game("entanglion", 1, {})
        b = j.new_game("entanglion", 2, {})
        for status in ("won", "lost"):
            g = j.new_game("entanglion", 9, {})
            j.record(g, NAV, turns=1, status=status)
        j.abandon(j.new_game("entanglion", 9, {}))
        assert j.unfinished().id == b
        j.record(a, NAV, turns=1, status="playing")
        rec = j.unfinished()
        assert rec.id == a and Journal.effective_inputs(rec.entries) == [NAV]
        s = j.new_game("solitaire", 5, {})
        assert j.unfinished().id == s
        assert j.unfinished("entanglion").id == a
        assert j.unfinished("chess") is None
        j.abandon(a)
        j.abandon(b)
        assert j.unfinished("entanglion") is None
        assert j.load(a).status == "abandoned" and j.load(a).finished is not None


def test_writes_to_finished_or_unknown_games_raise(journal):
    won = journal.new_game("entanglion", 1, {})
    journal.record(won, NAV, turns=1, status="won")
    abandoned = journal.new_game("entanglion", 1, {})
    journal.abandon(abandoned)
    for gid in (won, abandoned, 999):
        with pytest.raises(JournalError, match=str(journal.path)):
            journal.record(gid, NAV, turns=2, status="playing")
        if gid != won:
            with pytest.raises(JournalError):
                journal.record_undo(gid, turns=0, status="playing")
        with pytest.raises(JournalError):
            journal.abandon(gid)
    with pytest.raises(JournalError, match="no game 999"):
        journal.load(999)
    assert len(journal.load(won).entries) == 1 and journal.load(abandoned).entries == []
    assert journal.load(won).status == "won"
    assert not journal._db.in_transaction


def test_undo_reopens_a_won_or_lost_game(journal):
    # The input that ended a game may have been a mistake (a mis-entered die).
    for end in ("won", "lost"):
        gid = journal.new_game("entanglion", 1, {})
        journal.record(gid, NAV, turns=3, status=end, reason="why")
        journal.record_undo(gid, turns=2, status="playing")
        rec = journal.load(gid)
        assert (rec.status, rec.finished, rec.reason, rec.inputs) == ("playing", None, None, 0)
        assert journal.unfinished().id == gid


def test_bad_status_and_turns_are_refused(journal):
    gid = journal.new_game("entanglion", 1, {})
    with pytest.raises(ValueError, match="status"):
        journal.record(gid, NAV, turns=1, status="draw")
    with pytest.raises(ValueError, match="turns"):
        journal.record_undo(gid, turns=-1, status="playing")
    assert journal.load(gid).entries == []


def test_pragmas_are_really_set(journal):
    db = journal._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2


def test_file_and_directory_modes(tmp_path):
    path = tmp_path / "state" / "companion" / "journal.db"
    with Journal(path) as j:
        j.record(j.new_game("entanglion", 1, {}), NAV, turns=1, status="playing")
        assert mode(path.parent) == 0o700
        assert mode(path) == 0o600
        assert mode(str(path) + "-wal") == 0o600
    assert mode(path) == 0o600
    loose = tmp_path / "loose.db"
    loose.touch(mode=0o644)
    os.chmod(loose, 0o644)
    Journal(loose).close()
    assert mode(loose) == 0o600


def test_reopen_after_close_sees_everything(tmp_path):
    path = tmp_path / "j.db"
    j = Journal(path, now=Clock())
    gid = j.new_game("entanglion", 7, {"events": True})
    for turn in range(1, 6):
        j.record(gid, {"n": turn}, turns=turn, status="playing")
    j.record_undo(gid, turns=4, status="playing")
    before = j.load(gid)
    j.close()
    j.close()  # twice is harmless
    with pytest.raises(JournalError, match="closed"):
        j.games()
    with Journal(path) as again:
        assert again.load(gid) == before
        assert again.unfinished() == before
        assert again.games() == [GameSummary(*[getattr(before, f) for f in
                                               GameSummary.__dataclass_fields__])]


def test_opening_a_current_journal_writes_nothing_to_it(tmp_path):
    # The box starts with the journal it closed: no page to write, no fsync to wait
    # for on the card before the game is back on the screen.
    path = tmp_path / "j.db"
    with Journal(path, now=Clock()) as j:
        j.new_game("entanglion", 7, {"events": True})
    before = path.read_bytes()
    with Journal(path) as again:
        wal = Path(f"{path}-wal")
        assert not wal.exists() or wal.stat().st_size == 0
        assert again.unfinished() is not None
    assert path.read_bytes() == before
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 2


@pytest.mark.parametrize("content", [
    # Fixed noise: each xdist worker collects the parameters and they must agree.
    random.Random(4096).randbytes(4096),
    b"SQLite format 3\x00" + b"\x00" * 20,
    b"{\"not\": \"a database\"}\n",
])
def test_garbage_file_is_a_journal_error(tmp_path, content):
    path = tmp_path / "journal.db"
    path.write_bytes(content)
    with pytest.raises(JournalError, match=f"journal {path} is not readable: "):
        Journal(path)


@pytest.mark.parametrize("cut", ["header only", "first page only", "half", "last page lost"])
def test_truncated_journal_is_a_journal_error(tmp_path, cut):
    path = tmp_path / "journal.db"
    with Journal(path) as j:
        gid = j.new_game("entanglion", 1, {})
        for turn in range(30):
            j.record(gid, {"n": turn, "pad": "x" * 400}, turns=turn, status="playing")
    data = path.read_bytes()  # closing checkpointed the WAL into the file
    page = 4096
    keep = {"header only": 100, "first page only": page, "half": len(data) // 2,
            "last page lost": len(data) - page}[cut]
    assert len(data) >= 4 * page
    path.write_bytes(data[:keep])
    with pytest.raises(JournalError, match=f"journal {path} is not readable: "):
        Journal(path)


def test_damage_is_told_apart_from_what_salvage_must_not_touch(tmp_path):
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"\x13" * 4096)
    with pytest.raises(JournalError) as broken:
        Journal(garbage)
    assert broken.value.damaged
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(JournalError) as theirs:
        Journal(foreign)
    assert not theirs.value.damaged


def test_newer_schema_and_foreign_database_are_refused(tmp_path):
    newer = tmp_path / "newer.db"
    Journal(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version=3")
    with pytest.raises(JournalError, match=f"journal {newer} .*schema version 3 is newer"):
        Journal(newer)
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(JournalError, match="not a companion journal"):
        Journal(foreign)


def test_unusable_directory_is_a_journal_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("I am a file, not a directory")
    with pytest.raises(JournalError, match=f"journal {blocker / 'sub' / 'j.db'} is not readable"):
        Journal(blocker / "sub" / "j.db")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores permissions")
def test_read_only_directory_is_a_journal_error(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        with pytest.raises(JournalError, match="is not readable"):
            Journal(locked / "j.db")
    finally:
        locked.chmod(0o700)


CHILD = r"""
import sys
from companion.journal import Journal
journal = Journal(sys.argv[1])
resumed = journal.unfinished("soak")
gid = resumed.id if resumed else journal.new_game("soak", 1, {})
print("ready", gid, flush=True)
for n in range(1_000_000):
    seq = journal.record(gid, {"n": n}, turns=n, status="playing")
    print(seq, flush=True)  # only after record() has returned
"""


def test_durability_across_hard_kills(tmp_path):
    path = tmp_path / "journal.db"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        str(ROOT), os.environ.get("PYTHONPATH")]))}
    rng = random.Random(20240611)
    printed: set[int] = set()
    gids = set()
    for _ in range(6):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], cwd=ROOT, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert select.select([child.stdout], [], [], 15)[0], "child never started"
            ready = child.stdout.readline().split()
            assert ready[:1] == [b"ready"], child.stderr.read().decode()
            gids.add(int(ready[1]))
            time.sleep(rng.uniform(0.0, 0.2))
            os.kill(child.pid, signal.SIGKILL)
            out = child.stdout.read()
        finally:
            child.kill()
            child.wait()
        assert child.returncode == -signal.SIGKILL
        complete = out.split(b"\n")[:-1]  # the last piece may be a half-written line
        printed.update(int(line) for line in complete)

    assert len(gids) == 1, "every round resumes the same unfinished game"
    assert printed, "no kill landed while inputs were being recorded"
    with Journal(path) as j:
        assert j._db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rec = j.load(gids.pop())
        seqs = [e.seq for e in rec.entries]
        assert printed <= set(seqs)
        assert seqs == list(range(1, len(seqs) + 1))
        assert rec.inputs == len(seqs) and rec.status == "playing"
    assert json.loads(json.dumps(rec.entries[0].action)) == {"n": 0}


def test_a_flipped_schema_version_is_damage_but_a_real_newer_schema_is_not(tmp_path):
    path = tmp_path / "journal.db"
    with Journal(path) as j:
        j.new_game("entanglion", 1, {})
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=514")  # one flipped bit of the header's field
    with pytest.raises(JournalError, match="schema version 514 is newer") as flipped:
        Journal(path)
    assert flipped.value.damaged and "\n" not in str(flipped.value)
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE games ADD COLUMN future TEXT")  # what a newer program does
    with pytest.raises(JournalError) as newer:
        Journal(path)
    assert not newer.value.damaged


def test_old_finished_games_move_to_the_archive_and_are_still_listed(tmp_path, monkeypatch):
    """Past KEEP_FINISHED finished games the oldest move to journal.db.archive at idle
    checkpoints: the journal stays bounded, and games(), load() and `companion games`
    still see every one, with its entries and checksums."""
    from companion.journal import store

    monkeypatch.setattr(store, "KEEP_FINISHED", 3)
    monkeypatch.setattr(store, "ARCHIVE_BATCH", 2)
    path = tmp_path / "journal.db"
    with Journal(path) as j:
        ids = []
        for g in range(8):
            gid = j.new_game("entanglion", g, {"o": g})
            j.record(gid, {"n": g}, turns=1, status="playing")
            if g < 7:
                j.record(gid, {"n": "end"}, turns=2, status="won")
            ids.append(gid)
        before = [(g.id, g.status, g.inputs) for g in j.games()]
        for _ in range(4):  # a few idle checkpoints, a batch each
            j._dirty = True
            j.checkpoint()
        with sqlite3.connect(path) as raw:
            here = [row[0] for row in raw.execute("SELECT id FROM games ORDER BY id")]
        assert here == ids[4:]  # 3 finished kept, and the one in play
        assert [(g.id, g.status, g.inputs) for g in j.games()] == before
        assert [g.id for g in j.games(limit=6)] == ids[::-1][:6]
        assert j.load(ids[0]).entries[0].action == {"n": 0}  # from the archive, verified
        assert j.unfinished().id == ids[-1]
    assert oct(os.stat(f"{path}.archive").st_mode & 0o777) == "0o600"
    with Journal(path, readonly=True) as j:  # as `companion games` reads it
        assert [g.id for g in j.games()] == ids[::-1] and j.verify() == []
    listing = subprocess.run([sys.executable, "-m", "companion", "games", "--state-dir",
                              str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert listing.returncode == 0, listing.stderr
    assert [int(line.split()[0]) for line in listing.stdout.splitlines()[1:]] == ids[::-1]


def test_the_whole_file_check_waits_for_idle_and_is_owed_until_it_runs(tmp_path):
    """Open costs the same at any size: after an unclean stop the full integrity check
    runs at the first idle checkpoint; a run that never idles passes it on."""
    path = tmp_path / "journal.db"
    Journal(path).close()
    Path(f"{path}.mark").unlink()  # as a kill leaves it: no clean mark
    for _ in range(2):  # closed without an idle checkpoint: still owed at the next open
        journal = Journal(path)
        assert journal.check == "integrity_check" and journal.checked() is None
        journal.close()
    journal = Journal(path)
    journal.checkpoint()  # the first idle checkpoint runs it
    assert journal.checked(30) is None
    journal.close()
    with Journal(path) as journal:
        assert journal.check == "quick_check"  # paid: a clean close again


def test_a_notice_read_rewrites_the_mark_a_full_rewrite_would(journal):
    """Reading a notice changes only the count read in the mark: what is written then
    is what the mark rebuilt from the database would say, and the count survives a
    reopen; a read of an entry that is not the last is not written."""
    from companion.journal.store import Mark

    gid = journal.new_game("entanglion", 42, {})
    seq = journal.record(gid, NAV, turns=1, status="playing")
    journal.mark_read(gid, seq, 2)
    written = Mark.decode(journal.mark_path.read_bytes())
    journal._write_mark(journal._db, clean=False, game=gid)  # from the database
    assert Mark.decode(journal.mark_path.read_bytes()) == written
    assert (written.game, written.seq, written.read, written.clean) == (gid, seq, 2, False)
    journal.mark_read(gid, seq - 1, 5)  # an older entry: ignored
    assert journal.read_mark() == (gid, seq, 2)
    seq = journal.record(gid, NAV, turns=2, status="playing")  # a new entry: none read
    assert journal.read_mark() == (gid, seq, 0)
    journal.mark_read(gid, seq, 1)
    assert Mark.decode(journal.mark_path.read_bytes()).read == 1


def test_a_mark_that_cannot_be_written_is_told_and_costs_no_input(journal, caplog):
    """The mark only adds detection: a card that refuses its write (here a read-only
    descriptor) is logged, and inputs and notice reads go on being committed."""
    import logging

    gid = journal.new_game("entanglion", 42, {})
    fd = journal._mark_fd
    journal._mark_fd = os.open(journal.mark_path, os.O_RDONLY)
    try:
        with caplog.at_level(logging.WARNING, logger="companion.journal.store"):
            seq = journal.record(gid, NAV, turns=1, status="playing")
            journal.mark_read(gid, seq, 1)
        assert caplog.text.count("not written") == 2
        assert [e.seq for e in journal.load(gid).entries] == [seq]
    finally:
        os.close(journal._mark_fd)
        journal._mark_fd = fd
    journal.record(gid, NAV, turns=2, status="playing")  # the mark is written again
    assert Path(journal.mark_path).read_bytes().startswith(b"companion-mark 1 ")
