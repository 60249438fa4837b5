"""What the journal's safety costs: per input (time, the chain, the mark, bytes written),
at open and resume after an unclean stop whatever the journal's size, a salvage of a
1,000-game journal, and the inputs each kind of damage still keeps.

    .venv/bin/python -m bench.journal [--games 1000] [--inputs 100] [--dir DIR]

Per input it times ``record()`` (an fsynced commit, so the disk dominates) and, apart,
the two additions: hashing the entry into the chain and rewriting the mark; and counts
the bytes each commit hands the kernel to write (``wchar`` of /proc/self/io: the WAL
frames and the mark), then what the idle checkpoint adds. Then it fills journals of 1
and ``--games`` finished games (the last one left unfinished) and measures, on each,
the open and resume after an unclean stop (no mark: a kill), the whole-file checks the
first idle checkpoint runs, and a salvage with one damaged entry. Last, the salvage
cases of the attack suite on a real 39-input game: inputs kept by each.

Every figure comes with a check that it measured what it says (the bench fails loudly
otherwise).
"""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from companion import journal as jm
from companion.journal import Journal
from companion.journal import store

try:
    from bench.common import machine
except ImportError:  # run as a file
    from common import machine  # type: ignore[no-redef]

ACTION = {"card": "H", "do": "navigate", "player": "mercurial"}


def per_call(fn, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def written() -> int:
    """Bytes this process has passed to write calls so far."""
    with open("/proc/self/io") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("wchar:"))


def per_input(tmp: Path) -> None:
    path = tmp / "journal.db"
    with Journal(path) as j:
        gid = j.new_game("entanglion", 1, {})
        j.checkpoint()
        samples, before = [], written()
        for n in range(200):
            start = time.perf_counter()
            j.record(gid, ACTION, turns=n, status="playing")
            samples.append(time.perf_counter() - start)
        per_commit = (written() - before) / 200
        wal = Path(f"{path}-wal").stat().st_size
        assert wal > 0 and j.load(gid).inputs == 200, "the inputs were not committed"
        before = written()
        j.checkpoint()
        folded = written() - before
        assert Path(f"{path}-wal").stat().st_size == 0, "the checkpoint did not run"
        page = j._db.execute("PRAGMA page_size").fetchone()[0]
        chain = per_call(lambda: store._link(123456789, 42, "input",
                                          '{"card":"H","do":"navigate"}', 1.5e9), 20000)
        mark = per_call(lambda: j._write_mark(j._db, clean=False, game=gid), 2000)
    print(f"record(): median {statistics.median(samples) * 1e3:.2f} ms per input "
          f"(fsynced commit) in {tmp}")
    print(f"  of which the chain hash: {chain * 1e6:.1f} us; the mark rewrite "
          f"(two indexed reads and a pwrite, no fsync): {mark * 1e6:.1f} us")
    print(f"  bytes written per input: {per_commit:,.0f} per commit (WAL frames of "
          f"{page}-byte pages, and the mark), {wal / 200:,.0f} of WAL; the idle "
          f"checkpoint of 200 inputs then writes {folded / 1e3:,.1f} KB "
          f"({folded / 200:,.0f} per input)")


def fill(path: Path, games: int, inputs: int) -> int:
    """A journal of ``games`` finished games of ``inputs`` inputs, the last one left
    unfinished, closed as a kill leaves it (no mark). Returns the unfinished game's id."""
    with Journal(path) as j:
        with j._transaction() as db:  # one transaction: filling is not what is measured
            for g in range(games):
                cur = db.execute(
                    "INSERT INTO games (game, seed, options, created, updated, status,"
                    " turns, inputs, activity) VALUES ('entanglion', ?, '{}', 1.0, 1.0,"
                    " ?, ?, ?, ?)", (g, "won" if g < games - 1 else "playing", inputs,
                                     inputs, g + 1))
                gid = cur.lastrowid
                head = store._root((gid, "entanglion", g, "{}", None, None, 1.0))
                for seq in range(1, inputs + 1):
                    action = store._dump({**ACTION, "n": seq}, "action")
                    head = store._link(head, seq, "input", action, 1.0)
                    db.execute("INSERT INTO entries VALUES (?, ?, 'input', ?, 1.0, ?)",
                               (gid, seq, action, head))
                db.execute("UPDATE games SET head = ? WHERE id = ?", (head, gid))
    Path(f"{path}.mark").unlink()
    return gid


def cpu(fn) -> tuple[float, object]:
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def at_size(tmp: Path, games: int, inputs: int) -> None:
    path = tmp / f"j{games}.db"
    gid = fill(path, games, inputs)
    size = path.stat().st_size

    def resume() -> Journal:
        j = Journal(path)
        record = j.unfinished()
        assert record is not None and record.id == gid and len(record.entries) == inputs
        return j

    opened, j = cpu(resume)
    assert j.loss is None
    check = j.check
    checked, damage = cpu(lambda: (j.checkpoint(), getattr(j, "checked", lambda: None)())[1])
    assert damage is None and check == "integrity_check", "not the check after a kill"
    j.close()
    quick = per_call(lambda: sqlite3.connect(path).execute("PRAGMA quick_check").fetchall(),
                     1)
    # A salvage: one entry of one finished game damaged (a changed time).
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET at = 2.5 WHERE game_id = 1 AND seq = 3")
    replayed = []

    def replays(game, seed, options, setup, inputs):  # the engine is not measured here
        replayed.append(seed)
        return True

    salvaged, (j, report) = cpu(lambda: jm.salvage(path, replays))
    with j:
        assert len(j.games()) == games, report  # it salvaged, and kept every game
        kept = j.load(1).inputs
    print(f"{games} game(s) x {inputs} inputs ({size / 1e6:.1f} MB): open and resume after "
          f"a kill {opened * 1e3:.0f} ms CPU (no whole-file check); the idle check "
          f"(integrity_check, its own thread) {checked * 1e3:.0f} ms, quick_check "
          f"{quick * 1e3:.0f} ms; salvage of one damaged entry {salvaged:.2f} s CPU "
          f"({len(set(replayed))} game(s) replayed; the damaged game kept {kept} of "
          f"{inputs} inputs)")


def salvage_cases(tmp: Path) -> None:
    """The salvage cases of tests/reliability/test_rel_salvage.py: inputs kept."""
    from companion import recovery
    from companion.autoplay import AutoPlayer
    from companion.registry import sim_registry
    from companion.session import SessionConfig
    from companion.sim import build

    logging.disable(logging.CRITICAL)  # each case logs its damage: not the figures
    state = tmp / "evening"
    sim, journal = build(state, None, 5, SessionConfig(), None)
    player = AutoPlayer(5)
    while not (sim.box.session.mode == "game" and len(sim.box.session.game.inputs) >= 39):
        sim.run(player.next_command(sim.box.session))
    gid = sim.box.session.game_id
    getattr(sim, "stop_checkpoints", lambda: None)()
    journal.close()
    pristine = (state / "journal.db").read_bytes()

    def kept(damage) -> int:
        case = tmp / "case"
        shutil.rmtree(case, ignore_errors=True)
        case.mkdir()
        (case / "journal.db").write_bytes(pristine)
        damage(case / "journal.db")
        session = recovery.open_session(case / "journal.db", sim_registry(), SessionConfig())
        try:
            return len(session.game.inputs) if session.game_id == gid else 0
        finally:
            session.journal.close()

    def sql(statement):
        def damage(path):
            with sqlite3.connect(path) as db:
                db.execute(statement, (gid,))
        return damage

    def index_bit(rng):
        def damage(path):
            with sqlite3.connect(path) as db:
                size = db.execute("PRAGMA page_size").fetchone()[0]
                pages = [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name ="
                                                  " 'sqlite_autoindex_entries_1'")]
            data = bytearray(path.read_bytes())
            data[(rng.choice(pages) - 1) * size + rng.randrange(size)] ^= 1 << rng.randrange(8)
            path.write_bytes(bytes(data))
            jm.salvage(path, recovery.replays)[0].close()  # as a found damage would
            jm.salvage_told(path)
        return damage

    def interleaved(path):
        with Journal(path) as j:
            record = j.load(gid)
            for entry in record.entries[5:9]:
                j.record(gid, entry.action, turns=record.turns, status="playing")

    cases = [
        ("a time 1 us off in entry 1", sql("UPDATE entries SET at = at + 1e-6 WHERE"
                                           " game_id = ? AND seq = 1")),
        ("a damaged checksum in entry 20", sql("UPDATE entries SET chain = chain + 1 WHERE"
                                               " game_id = ? AND seq = 20")),
        ("a changed move in entry 7", sql("""UPDATE entries SET action = '{"do":"pass"}'"""
                                          " WHERE game_id = ? AND seq = 7")),
    ]
    for label, damage in cases:
        print(f"  salvage, {label}: kept {kept(damage)} of 39 inputs")
    rng = random.Random(28)
    flips = [kept(index_bit(rng)) for _ in range(40)]
    print(f"  salvage, one bit flipped in the entries index (40 trials): kept "
          f"{min(flips)}-{max(flips)} of 39 inputs")
    print(f"  salvage, a game interleaved by a second writer (4 foreign inputs after "
          f"39): kept {kept(interleaved)} (its longest replayable prefix)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--inputs", type=int, default=100)
    parser.add_argument("--dir", help="where to build the journals (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        per_input(Path(tmp))
        for games in (1, args.games):
            at_size(Path(tmp), games, args.inputs)
        salvage_cases(Path(tmp))
    print(f"({machine()})")


if __name__ == "__main__":
    main()
