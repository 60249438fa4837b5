"""The state directory attacked as a careless tidy-up or a hostile local user would: the
lock file deleted under a running box, symbolic links planted where the box writes, the
WAL deleted while the simulator waits for input.

Every attack must fail: no second writer gets in, no link is followed (its target is
untouched and the refusal is one clear line), and no accepted input is lost."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from simscript import COMPANION, record_game

from companion import language, recovery, statelock
from companion.journal import Journal, JournalError
from companion.registry import sim_registry
from companion.session import SessionConfig

ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def sim(state: Path, script: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(COMPANION + ["sim", "--script", "-", "--state-dir", str(state)],
                          input=script, capture_output=True, text=True, env=ENV, timeout=60)


def refusal(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 2, out.stdout
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1, out.stderr
    return out.stderr


# ------------------------------------------------------------------ the lock


def test_deleting_the_lock_file_does_not_let_a_second_writer_in(tmp_path):
    state = tmp_path / "state"
    with statelock.acquire(state, "sim"):
        (state / statelock.LOCK_NAME).unlink()  # a tidy-up of "stale" files
        with pytest.raises(statelock.Locked, match="is in use by"):
            statelock.acquire(state, "run")
        assert "is in use by" in refusal(sim(state, "press ok\n"))
    with statelock.acquire(state, "run"):  # released: the next one gets in
        pass


def test_a_tidy_up_under_a_running_simulator_leaves_its_game_alone(tmp_path):
    """The attack of the report: delete S/lock while a simulator plays, start a second
    one. It is refused, and the first one's game goes on and resumes whole."""
    state = tmp_path / "state"
    commands, _ = record_game(6)
    first = subprocess.Popen(COMPANION + ["sim", "--script", "-", "--state-dir", str(state),
                                          "--seed", "6"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ENV)
    try:
        for cmd in commands[:20]:
            first.stdin.write(cmd + "\n")
            first.stdin.flush()
            assert first.stdout.readline()
        (state / statelock.LOCK_NAME).unlink()
        assert "is in use by" in refusal(sim(state, "press ok\n" * 5))
        for cmd in commands[20:40]:
            first.stdin.write(cmd + "\n")
            first.stdin.flush()
            last = first.stdout.readline()
        inputs = int(last.rsplit("(inputs ", 1)[1].rstrip(")\n"))
    finally:
        first.stdin.close()
        first.wait(30)
    with Journal(state / "journal.db") as journal:
        assert [g.inputs for g in journal.games()] == [inputs]  # one game, nothing interleaved
        journal.unfinished()  # verifies its checksum chain


def test_the_lock_file_as_a_symbolic_link_is_refused_and_not_written(tmp_path):
    state, target = tmp_path / "state", tmp_path / "precious.txt"
    state.mkdir()
    target.write_text("keep me")
    (state / statelock.LOCK_NAME).symlink_to(target)
    with pytest.raises(OSError, match="symbolic link"):
        statelock.acquire(state, "sim")
    err = refusal(sim(state, "press ok\n"))
    assert "symbolic link" in err and str(state / "lock") in err
    assert target.read_text() == "keep me"


def test_run_names_the_state_directory_not_the_hardware(tmp_path):
    from bench.harness import child_env, write_config

    state, target = tmp_path / "state", tmp_path / "precious.txt"
    state.mkdir()
    target.write_text("keep me")
    (state / statelock.LOCK_NAME).symlink_to(target)
    config = write_config(tmp_path / "config.toml", state_dir=state)
    out = subprocess.run(COMPANION + ["run", "--config", str(config)], capture_output=True,
                         text=True, env=child_env(GPIOZERO_PIN_FACTORY="mock"), timeout=60)
    err = refusal(out)
    assert "cannot use the state directory" in err and "symbolic link" in err
    assert "hardware" not in err and target.read_text() == "keep me"


# ------------------------------------------------------------------ files the box writes


@pytest.mark.parametrize("name", ["journal.db.mark", "journal.db", "journal.db-wal"])
def test_journal_files_as_symbolic_links_are_refused_untouched(tmp_path, name):
    state, target = tmp_path / "state", tmp_path / "precious.txt"
    state.mkdir()
    target.write_text("keep me")
    (state / name).symlink_to(target)
    with pytest.raises(JournalError, match="symbolic link") as caught:
        Journal(state / "journal.db")
    assert not caught.value.damaged  # nothing to salvage: a salvage would move it aside
    err = refusal(sim(state, "press ok\n"))
    assert "symbolic link" in err
    assert target.read_text() == "keep me"


def test_a_link_to_a_missing_file_is_not_created_through(tmp_path):
    state, target = tmp_path / "state", tmp_path / "made-through-the-link"
    state.mkdir()
    (state / "journal.db.mark").symlink_to(target)
    assert "symbolic link" in refusal(sim(state, "press ok\n"))
    assert not target.exists()


def test_the_language_file_as_a_symbolic_link_is_neither_read_nor_written(tmp_path, caplog):
    state, target = tmp_path / "state", tmp_path / "precious.txt"
    state.mkdir()
    target.write_text("pl\n")  # a valid code: it must still not be taken from a link
    (state / language.FILE).symlink_to(target)
    assert language.saved(state) is None
    assert "symbolic link" in caplog.text
    (state / f".{language.FILE}.tmp").symlink_to(target)
    with pytest.raises(OSError, match="symbolic link"):
        language.save(state, "ja")
    assert target.read_text() == "pl\n"


def test_salvage_files_as_symbolic_links_are_refused(tmp_path):
    from companion.journal import salvage

    state, target = tmp_path / "state", tmp_path / "precious.txt"
    state.mkdir()
    target.write_text("keep me")
    Journal(state / "journal.db").close()
    (state / "journal.db.salvage-report").symlink_to(target)
    with pytest.raises(JournalError, match="symbolic link"):
        salvage(state / "journal.db")
    assert target.read_text() == "keep me"
    assert (state / "journal.db").exists()  # the journal stays in place


# ------------------------------------------------------------------ the WAL


def test_a_wal_deleted_under_an_idle_simulator_loses_nothing(tmp_path):
    """The simulator checkpoints a few seconds after the last input, as the daemon does:
    a WAL deleted (or damaged) while it waits for a typed line costs no input."""
    state = tmp_path / "state"
    commands, states = record_game(6)
    proc = subprocess.Popen(COMPANION + ["sim", "--script", "-", "--state-dir", str(state),
                                         "--seed", "6"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ENV)
    wal = state / "journal.db-wal"
    try:
        for cmd in commands[:30]:
            proc.stdin.write(cmd + "\n")
            proc.stdin.flush()
            last = proc.stdout.readline()
        inputs = int(last.rsplit("(inputs ", 1)[1].rstrip(")\n"))
        assert inputs > 5 and wal.stat().st_size > 0
        deadline = time.monotonic() + 15
        while wal.stat().st_size and time.monotonic() < deadline:
            time.sleep(0.1)
        assert wal.stat().st_size == 0, "the simulator did not checkpoint when idle"
        wal.unlink()
    finally:
        proc.send_signal(signal.SIGKILL)  # and then a pulled plug
        proc.wait()
    session = recovery.open_session(state / "journal.db", sim_registry(), SessionConfig())
    try:
        assert session.overlay is None or "Journal" not in session.overlay.get("title", "")
        assert len(session.game.inputs) == inputs
        assert session.game.to_dict()["state"] == states[inputs]
    finally:
        session.journal.close()


def test_a_rewind_alert_does_not_claim_a_power_loss(tmp_path):
    """The box cannot tell a pulled plug from a deleted WAL: the alert says what it knows."""
    running, path = tmp_path / "running", tmp_path / "after" / "journal.db"
    path.parent.mkdir()
    with Journal(running / "journal.db") as journal:
        journal.abandon(journal.new_game("entanglion", 1, {}))
        journal.checkpoint()  # game 1 is in the file; game 2 below only in the WAL
        journal.new_game("entanglion", 2, {})
        for suffix in ("", ".mark"):  # what is left if the WAL goes, then the box stops
            path.with_name(f"journal.db{suffix}").write_bytes(
                (running / f"journal.db{suffix}").read_bytes())
    session = recovery.open_session(path, sim_registry(), SessionConfig())
    try:
        text = " ".join([session.overlay["title"], *session.overlay["lines"]])
        assert session.overlay["title"] == "Journal rewound" and "#2" in text, text
        assert "power" not in text.lower()
    finally:
        session.journal.close()

