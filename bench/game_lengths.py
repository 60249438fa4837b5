"""How long are the property tests' random games? The figures behind their step limits.

Plays the very games the property tests play (their seeds, options and random
players are imported from ``tests/``), without the invariant checks, and prints the
length distribution in inputs: mean, percentiles, the longest games with their
seeds, how many pass each round number, and the limit the test uses::

    python bench/game_lengths.py [--game entanglion|qno|qlanet] [--games 30000]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path[:0] = [ROOT, HERE, os.path.join(ROOT, "tests")]
for game in ("entanglion", "qno", "qlanet"):
    sys.path.insert(0, os.path.join(ROOT, "tests", game))

from common import machine  # noqa: E402


def entanglion_lengths(seeds: range, cap: int) -> tuple[list[int], int]:
    import test_property as t

    from companion.games.entanglion import Entanglion

    out = []
    for i in seeds:
        rnd, g, n = random.Random(i), Entanglion(i, t.game_options(i)), 0
        while g.status in ("playing", "setup") and n < cap:
            g.push(rnd.choice(g.legal_actions()))
            n += 1
        out.append(n)
    return out, t.STEP_LIMIT


def qno_lengths(seeds: range, cap: int) -> tuple[list[int], int]:
    import test_qno_property as t

    from companion.games.qno import Qno
    from companion.games.qno.table import Table

    out = []
    for seed in seeds:
        players, options = t.game_setup(seed)
        g, table, n = Qno(seed, {"players": players, **options}), Table(players, seed), 0
        while g.status != "won" and n < cap:
            g.push(table.choose(g))
            n += 1
        out.append(n)
    return out, t.LIMIT


def qlanet_lengths(seeds: range, cap: int) -> tuple[list[int], int]:
    import test_qlanet_property as t

    from companion.games.qlanet import Qlanet

    out = []
    for i in seeds:
        rnd, g, n = random.Random(i), Qlanet(i, t.game_options(i)), 0
        while g.status == "playing" and n < cap:
            g.push(t.pick(g, rnd))
            n += 1
        out.append(n)
    return out, t.STEP_CAP


GAMES = {"entanglion": entanglion_lengths, "qno": qno_lengths, "qlanet": qlanet_lengths}


def report(name: str, first: int, lengths: list[int], limit: int, seconds: float) -> None:
    ranked = sorted(lengths)
    n = len(ranked)

    def pct(q: float) -> int:
        return ranked[min(n - 1, int(q * n))]

    longest = sorted(range(n), key=lambda k: -lengths[k])[:5]
    print(f"{name}: {n} games (seeds {first}-{first + n - 1}) in {seconds:.0f} s")
    print(f"  inputs per game: mean {sum(ranked) / n:.0f}, median {pct(0.5)}, p99 {pct(0.99)}, "
          f"p99.9 {pct(0.999)}, max {ranked[-1]}")
    print("  longest: " + ", ".join(f"seed {first + k} ({lengths[k]})" for k in longest))
    step = max(100, 10 ** (len(str(ranked[-1])) - 1) // 2)
    marks = range(step, ranked[-1] + step, step)
    print("  games over: " + ", ".join(f"{m}: {sum(1 for x in ranked if x > m)}" for m in marks))
    print(f"  the test's limit: {limit} inputs ({limit / ranked[-1]:.1f}x the longest)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, action="append",
                        help="only this game (repeatable; default: all three)")
    parser.add_argument("--games", type=int, default=30_000, help="games per game type")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    args = parser.parse_args()
    print(machine())
    for name in args.game or GAMES:
        t0 = time.perf_counter()
        seeds = range(args.first, args.first + args.games)
        lengths, limit = GAMES[name](seeds, cap=50 * 10_000)
        report(name, args.first, lengths, limit, time.perf_counter() - t0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
