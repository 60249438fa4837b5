"""The journal's salvage (companion/journal/salvaging.py) on hand-made damage: a lost
tail, a smashed page, a broken index, nothing readable. The attacks on a real game
(bit flips, repairs, a game that no longer replays) are in tests/reliability."""

from __future__ import annotations

import os
import sqlite3

import pytest

from companion.journal import Journal, JournalError, salvage


def _three_games(path, entries=40):
    with Journal(path) as j:
        for g in range(3):
            gid = j.new_game("entanglion", g, {"o": g}, {"s": g})
            for n in range(entries):
                j.record(gid, {"n": n, "pad": "x" * 200}, turns=n, status="playing")
        j.record(1, {"n": "end"}, turns=99, status="won", reason="all parts")


def found_damaged(path) -> None:
    """The journal at ``path`` is found damaged: at open, or by the whole-file check of
    the first idle checkpoint, after which the next open says so."""
    try:
        journal = Journal(path)
    except JournalError as exc:
        assert exc.damaged
        return
    try:
        journal.checkpoint()
        assert journal.checked(30) is not None
    finally:
        journal.close()
    with pytest.raises(JournalError, match="a check of the last run found damage") as e:
        Journal(path)
    assert e.value.damaged


@pytest.mark.parametrize("cut", ["tail", "page"])
def test_salvage_keeps_a_readable_prefix_and_the_damaged_file(tmp_path, cut):
    path = tmp_path / "journal.db"
    _three_games(path)
    data = bytearray(path.read_bytes())
    if cut == "tail":
        del data[-3 * 4096:]
    else:
        data[5 * 4096:5 * 4096 + 200] = b"\xff" * 200
    path.write_bytes(bytes(data))
    found_damaged(path)
    data = path.read_bytes()  # as the box left it
    journal, report = salvage(path)
    account = str(report)
    with journal:
        assert "journal.db.damaged-1" in account and "\n" not in account
        assert (tmp_path / "journal.db.damaged-1").read_bytes() == data
        for summary in journal.games():
            record = journal.load(summary.id)
            seqs = [e.seq for e in record.entries]
            assert seqs == list(range(1, len(seqs) + 1))  # a prefix, no holes
            assert all(e.action["n"] == i for i, e in enumerate(record.entries[:40]))
            assert record.inputs == len(Journal.effective_inputs(record.entries))
            assert record.options == {"o": summary.id - 1}
    assert Journal(path).games()  # the new journal opens as any other


def test_salvage_reads_around_a_broken_index_and_trims_what_the_engine_refuses(tmp_path):
    path = tmp_path / "journal.db"
    _three_games(path, entries=10)
    with sqlite3.connect(path) as db:
        page = db.execute("SELECT rootpage FROM sqlite_master"
                          " WHERE name = 'sqlite_autoindex_entries_1'").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    at = (page - 1) * size
    data[at + 8:at + size] = b"\xee" * (size - 8)  # the index only
    path.write_bytes(bytes(data))
    found_damaged(path)

    def replays(game, seed, options, setup, inputs):  # an engine that stops after 7
        return all(i.get("n") == k for k, i in enumerate(inputs)) and len(inputs) <= 7

    journal, report = salvage(path, replays)
    account = str(report)
    with journal:
        games = journal.games()
        assert len(games) == 3
        for summary in games:
            inputs = Journal.effective_inputs(journal.load(summary.id).entries)
            # Read past the index, trimmed; but a finished game whose every entry
            # verifies is kept as it is, not replayed (it replayed when it was played).
            kept = [*range(10), "end"] if summary.id == 1 else list(range(7))
            assert [i["n"] for i in inputs] == kept
            # A trimmed unfinished game can be resumed; a finished one is not reopened.
            assert summary.status == ("won" if summary.id == 1 else "playing")
        assert "kept up to entry 7" in account


def test_salvage_of_nothing_readable_is_an_empty_journal(tmp_path):
    path = tmp_path / "journal.db"
    path.write_bytes(os.urandom(8192))
    journal, report = salvage(path)
    with journal:
        assert journal.games() == [] and "nothing in it was readable" in str(report)
    assert (tmp_path / "journal.db.damaged-1").exists()
    path.write_bytes(os.urandom(8192))
    salvage(path)[0].close()
    assert (tmp_path / "journal.db.damaged-2").exists()  # an earlier one is never replaced
