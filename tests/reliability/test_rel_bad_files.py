"""Broken files on the SD card: the tag registry, the config and the journal.

Each case starts the real ``companion run`` (mock GPIO, no OLED, no co-processor)
under a notify socket. The rule: a clear message, and the daemon either comes up
(READY) having recovered - the journal at its newest consistent state, the damaged
file kept beside it - or refuses to start with exit 2. It never comes up having
quietly dropped a game.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys

import pytest

from bench.harness import NotifySocket, child_env, game_in_progress, write_config
from companion.journal import Journal

SEED, INPUTS = 3, 60  # an unfinished game of 60 inputs (seed 3 plays 113 to its end)


def start(config, notify):
    env = child_env(GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1",
                    NOTIFY_SOCKET=notify.path)
    return subprocess.Popen([sys.executable, "-m", "companion", "run", "--config",
                             str(config)], env=env, cwd=config.parent,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_until_ready(tmp_path):
    """Start the daemon; once READY, stop it. Returns (READY status, stderr)."""
    config = tmp_path / "config.toml"
    notify = NotifySocket(tmp_path / f"notify-{len(list(tmp_path.glob('notify*')))}")
    proc = start(config, notify)
    try:
        try:
            _, message = notify.wait(lambda m: "READY=1" in m.splitlines(), 60)
        except TimeoutError:
            proc.kill()
            out, err = proc.communicate(30)
            raise AssertionError(f"never READY (exit {proc.returncode}): {err}")
        proc.send_signal(signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            # A stop that hangs must say where: the daemon's faulthandler prints every
            # thread's stack on SIGABRT.
            proc.send_signal(signal.SIGABRT)
            out, err = proc.communicate(timeout=30)
            raise AssertionError(f"no stop 30 s after SIGTERM; its threads:\n{err}")
        assert proc.returncode == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        notify.close()
    assert "Traceback" not in err, err
    status = next(line[7:] for line in message.splitlines() if line.startswith("STATUS="))
    return status, err


def run_until_exit(tmp_path):
    notify = NotifySocket(tmp_path / "notify-x")
    proc = start(tmp_path / "config.toml", notify)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        notify.close()
    return proc.returncode, err


@pytest.fixture
def box(tmp_path):
    """A box with an unfinished game; returns (state dir, the game's inputs)."""
    state = tmp_path / "state"
    game_id, _ = game_in_progress(state, seed=SEED, inputs=INPUTS)
    write_config(tmp_path / "config.toml", state_dir=state)
    with Journal(state / "journal.db") as journal:
        inputs = Journal.effective_inputs(journal.load(game_id).entries)
    assert game_id == 1 and len(inputs) == INPUTS
    return state, inputs


# ------------------------------------------------------------------ the tag registry


@pytest.mark.parametrize("name, content", [
    ("tags.json", b'{"tags": {"04E10101010000": {"game": "entangl'),  # cut short
    ("tags.toml", random.Random(1).randbytes(300)),
    ("tags.json", b"\xff\xfe{}"),
])
def test_a_broken_tag_registry_keeps_the_game_and_says_so(tmp_path, box, name, content):
    state, _ = box
    registry = tmp_path / name
    registry.write_bytes(content)
    write_config(tmp_path / "config.toml", state_dir=state, registry=str(registry))
    status, err = run_until_ready(tmp_path)
    assert status.startswith("Game #1: ")  # the game is resumed; buttons play it
    assert str(registry) in err  # the log names the file
    assert registry.read_bytes() == content  # kept as it was, for fixing


# ------------------------------------------------------------------ the config file


@pytest.mark.parametrize("content", [
    b"[buttons]\nok = 5\nback = ",  # cut short mid-line
    random.Random(2).randbytes(200),
    b"[buttons]\nhold_time = \"long\"\n",
])
def test_a_broken_config_refuses_to_start_with_exit_2(tmp_path, box, content):
    config = tmp_path / "config.toml"
    config.write_bytes(content)
    code, err = run_until_exit(tmp_path)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(config) in lines[0], err


# ------------------------------------------------------------------ the journal


def corrupt(path, how: str) -> None:
    data = bytearray(path.read_bytes())
    rnd = random.Random(how)
    if how == "garbage":
        data = bytearray(rnd.randbytes(len(data)))
    elif how == "header only":
        del data[100:]
    elif how == "half":
        del data[len(data) // 2:]
    elif how == "last page lost":
        del data[-4096:]
    elif how == "bit flips":
        for _ in range(12):
            i = rnd.randrange(4096, len(data))
            data[i] ^= 1 << rnd.randrange(8)
    elif how == "page smashed":
        data[4096 * 2:4096 * 2 + 300] = b"\xff" * 300
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["garbage", "header only", "half", "last page lost",
                                 "bit flips", "page smashed"])
def test_a_damaged_journal_is_salvaged_and_kept(tmp_path, box, how):
    state, inputs = box
    corrupt(state / "journal.db", how)
    status, err = run_until_ready(tmp_path)
    assert "was damaged; it is kept as journal.db.damaged-1" in err, err
    assert (state / "journal.db.damaged-1").exists()  # never deleted
    with Journal(state / "journal.db") as journal:  # the new one opens cleanly
        games = journal.games()
        if games:
            kept = Journal.effective_inputs(journal.load(games[-1].id).entries)
            assert kept == inputs[:len(kept)]  # a prefix: nothing invented
            if kept and games[-1].status == "playing":
                assert status.startswith(f"Game #{games[-1].id}: ")  # resumed there
    print(f"{how}: {games[-1].inputs if games else 'no'} of {len(inputs)} inputs kept")


def test_a_torn_wal_resumes_at_the_last_whole_commit(tmp_path, box):
    """Power cut mid-write: the WAL ends in a partial frame. SQLite's own recovery
    drops it; the game resumes at the newest commit that is whole."""
    state, inputs = box
    db = state / "journal.db"
    # A copy of the journal as it is on disk while a box is running: WAL not yet
    # checkpointed (sqlite3's backup of an open connection is taken mid-life).
    live = Journal(db)
    raw = sqlite3.connect(db)
    raw.execute("PRAGMA wal_autocheckpoint=0")
    snapshot_db = db.read_bytes()
    for n in range(5):
        live.record_undo(1, turns=1, status="playing")
    wal = (state / "journal.db-wal").read_bytes()
    raw.close()
    live._db.close()  # no checkpoint: the WAL stays as a power cut would leave it
    live._db = None
    (state / "journal.db").write_bytes(snapshot_db)
    (state / "journal.db-wal").write_bytes(wal[:len(wal) - 1000])  # the last frame torn
    (state / "journal.db-shm").unlink(missing_ok=True)
    status, err = run_until_ready(tmp_path)
    assert "damaged" not in err
    with Journal(db) as journal:
        kept = journal.load(1).entries
    assert INPUTS <= len(kept) < INPUTS + 5  # the torn commit is gone, the rest kept


def test_a_journal_from_a_newer_version_refuses_to_start(tmp_path, box):
    state, _ = box
    with sqlite3.connect(state / "journal.db") as db:
        db.execute("PRAGMA user_version=99")
        # A newer program changes the schema too (the same schema under a newer number
        # is a flipped header bit, which is salvaged).
        db.execute("ALTER TABLE games ADD COLUMN players TEXT")
    code, err = run_until_exit(tmp_path)
    assert code == 2 and "schema version 99 is newer" in err
    assert not list(state.glob("journal.db.damaged*"))  # not ours to touch


def test_another_programs_database_refuses_to_start(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    with sqlite3.connect(state / "journal.db") as db:
        db.execute("CREATE TABLE photos (x)")
    write_config(tmp_path / "config.toml", state_dir=state)
    code, err = run_until_exit(tmp_path)
    assert code == 2 and "not a companion journal" in err
    assert (state / "journal.db").exists()


@pytest.mark.parametrize("how", ["garbled action", "not UTF-8", "schema text", "rewritten"])
def test_damage_quick_check_misses_is_salvaged_and_the_box_starts(tmp_path, box, how):
    """Rows that SQLite finds sound but that do not decode, or do not match their
    checksums: the box salvages instead of tracing back, and resumes what is sound."""
    state, inputs = box
    with sqlite3.connect(state / "journal.db") as db:
        if how == "garbled action":
            db.execute("""UPDATE entries SET action = '{"card":"H"' WHERE seq = 3""")
        elif how == "not UTF-8":
            db.execute("UPDATE entries SET action = CAST(x'7b22ff227d' AS TEXT) WHERE seq = 3")
        elif how == "rewritten":  # parses, means something else: only the chain sees it
            db.execute("""UPDATE entries SET action = '{"do":"pass"}' WHERE seq = 3""")
        else:
            db.execute("PRAGMA writable_schema=ON")
            db.execute("UPDATE sqlite_master SET sql = replace(sql, 'kind TEXT', 'kind TEXT(')"
                       " WHERE name = 'entries'")
    status, err = run_until_ready(tmp_path)
    assert "kept as journal.db.damaged-1" in err, err
    assert status.startswith("Game #1: "), status  # resumed where it is still sound
    with Journal(state / "journal.db") as journal:
        kept = Journal.effective_inputs(journal.load(1).entries)
    assert kept == inputs[:len(kept)] and len(kept) == (INPUTS if how == "schema text" else 2)


def test_a_registry_nested_thousands_deep_only_disables_tapping(tmp_path, box):
    state, _ = box
    registry = tmp_path / "tags.json"
    registry.write_text('{"version": 1, "tags": ' + "[" * 50_000 + "]" * 50_000 + "}")
    write_config(tmp_path / "config.toml", state_dir=state, registry=str(registry))
    status, err = run_until_ready(tmp_path)
    assert status.startswith("Game #1: ") and "nested too deeply" in err


def test_a_second_box_on_one_state_directory_is_refused(tmp_path, box):
    import os

    from companion import statelock

    state, _ = box
    with statelock.acquire(state, "sim"):
        code, err = run_until_exit(tmp_path)
    assert code == 2 and f"in use by pid {os.getpid()} (companion sim)" in err
    assert len(err.strip().splitlines()) == 1, err


def test_enrolment_is_refused_while_another_process_holds_the_state_directory(tmp_path, box):
    """enroll writes the tag registry beside the journal: one writer at a time, as run and
    sim; the refusal is one line naming the holder, and the holder's files are untouched."""
    import os

    from companion import statelock

    state, _ = box
    before = (state / "journal.db").read_bytes()
    env = child_env(GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    with statelock.acquire(state, "run"):
        out = subprocess.run([sys.executable, "-m", "companion", "enroll", "--config",
                              str(tmp_path / "config.toml")], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert f"in use by pid {os.getpid()} (companion run)" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert (state / "journal.db").read_bytes() == before
