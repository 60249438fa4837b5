"""What the journal's safety costs: the checksum chain and the mark per input, and the
checks at open on a 1,000-game journal.

    .venv/bin/python -m bench.journal [--games 1000] [--inputs 100] [--dir DIR]

Per input it times ``record()`` (an fsynced commit, so the disk dominates) and, apart,
the two additions: hashing the entry into the chain and rewriting the mark. Then it
fills a journal with ``--games`` finished games and times ``integrity_check`` (run
after an unclean shutdown), ``quick_check`` (after a clean one), a full open and the
checksum verification of every game (what ``doctor`` does).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from companion import journal as jm
from companion.journal import Journal

ACTION = {"card": "H", "do": "navigate", "player": "mercurial"}


def per_call(fn, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--inputs", type=int, default=100)
    parser.add_argument("--dir", help="where to build the journals (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "journal.db"
        with Journal(path) as j:
            gid = j.new_game("entanglion", 1, {})
            samples = []
            for n in range(200):
                start = time.perf_counter()
                j.record(gid, ACTION, turns=n, status="playing")
                samples.append(time.perf_counter() - start)
            chain = per_call(lambda: jm._link(123456789, 42, "input",
                                              '{"card":"H","do":"navigate"}', 1.5e9), 20000)
            mark = per_call(lambda: j._write_mark(j._db, clean=False, game=gid), 2000)
        print(f"record(): median {statistics.median(samples) * 1e3:.2f} ms per input "
              f"(fsynced commit) in {tmp}")
        print(f"  of which the chain hash: {chain * 1e6:.1f} us; the mark rewrite "
              f"(two indexed reads and a pwrite, no fsync): {mark * 1e6:.1f} us")

        big = Path(tmp) / "big.db"
        with Journal(big) as j:
            with j._transaction() as db:  # one transaction: filling is not what is measured
                for g in range(args.games):
                    cur = db.execute(
                        "INSERT INTO games (game, seed, options, created, updated, status,"
                        " turns, inputs, activity) VALUES ('entanglion', ?, '{}', 1.0, 1.0,"
                        " 'won', ?, ?, ?)", (g, args.inputs, args.inputs, g + 1))
                    gid = cur.lastrowid
                    head = jm._root((gid, "entanglion", g, "{}", None, None, 1.0))
                    for seq in range(1, args.inputs + 1):
                        action = jm._dump({**ACTION, "n": seq}, "action")
                        head = jm._link(head, seq, "input", action, 1.0)
                        db.execute("INSERT INTO entries VALUES (?, ?, 'input', ?, 1.0, ?)",
                                   (gid, seq, action, head))
                    db.execute("UPDATE games SET head = ? WHERE id = ?", (head, gid))
        size = big.stat().st_size
        with Journal(big) as j:
            integrity = per_call(lambda: j._db.execute("PRAGMA integrity_check").fetchall(), 3)
            quick = per_call(lambda: j._db.execute("PRAGMA quick_check").fetchall(), 3)
            start = time.perf_counter()
            problems = j.verify()
            verify = time.perf_counter() - start
        assert not problems
        start = time.perf_counter()
        Journal(big).close()
        clean_open = time.perf_counter() - start
        Path(f"{big}.mark").unlink()  # no mark: opened as after an unclean shutdown
        start = time.perf_counter()
        Journal(big).close()
        unclean_open = time.perf_counter() - start
        print(f"{args.games} games x {args.inputs} inputs ({size / 1e6:.1f} MB): "
              f"integrity_check {integrity * 1e3:.0f} ms, quick_check {quick * 1e3:.0f} ms; "
              f"open after a clean close {clean_open * 1e3:.0f} ms, after an unclean one "
              f"{unclean_open * 1e3:.0f} ms; every game's checksums {verify * 1e3:.0f} ms")
        print(f"(os: {os.uname().machine})")


if __name__ == "__main__":
    main()
