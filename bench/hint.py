"""How good are the hints? Full Entanglion games played by three policies at each
difficulty, with win rates and 95% confidence intervals (Wilson score interval).

- random: uniform over the legal inputs;
- greedy: the hint's own playout policy on its own (retrieve when possible, fly towards
  the nearest component, ...: ``hint.greedy_action``);
- hint: the best input of ``hint.hints`` at every decision with more than one input.

Every game is seeded (game seed = policy seed = game number), so a run repeats exactly.
The hint plays with a reduced budget (``--budget``, engine inputs per decision) to keep
the run short; both cores are used (``--jobs``).

    python bench/hint.py                   # 200 games per policy and difficulty
    python bench/hint.py --games 40 --budget 1000
    python bench/hint.py --rate            # playout inputs per second on one core, and
                                           # the Zero 2 W budget it implies
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.entanglion import Entanglion, hint  # noqa: E402
from companion.hintrate import positions  # noqa: E402

DIFFICULTIES = {1: "easy 1", 2: "easy 2", 4: "challenging 3"}  # start_space: name
POLICIES = ("random", "greedy", "hint")
PER_CORE_FACTOR = 12  # how many times slower a Zero 2 W core is (docs/performance.md)


def play(job: tuple[str, int, int, int]) -> tuple[str, int, bool, int]:
    """One full game: (policy, start space, won, inputs)."""
    policy, space, seed, budget = job
    g = Entanglion(seed, {"start_space": space})
    rng = hint.Rng(seed)
    while g.status == "playing" and len(g.inputs) < hint.PLAYOUT_CAP:
        acts = g.legal_actions()
        if policy == "random" or len(acts) == 1:
            act = acts[rng.below(len(acts))]
        elif policy == "greedy":
            act = hint.greedy_action(g, rng)
        else:
            act = hint.hints(g, budget, seed=rng.seed())[0]["action"]
        g.push(act)
    return policy, space, g.status == "won", len(g.inputs)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a win rate (Wilson score)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(seconds: float = 10.0, budget: int = 5000) -> float:
    """Engine inputs per second the search gets through on one core: whole hints at
    fresh positions of seeded games (a hint overshoots its budget by at most the last
    round, so this is a slight underestimate)."""
    games = positions(64)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        hint.hints(games[done // budget % len(games)], budget, seed=done)
        done += budget
    return done / (time.perf_counter() - start)


def default_times(count: int = 20) -> list[float]:
    """Seconds one hint with the box's default budget takes here, at ``count`` positions."""
    out = []
    for i, g in enumerate(positions(count)):
        start = time.perf_counter()
        hint.hints(g, seed=i)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per policy and difficulty")
    ap.add_argument("--budget", type=int, default=2000,
                    help="engine inputs per hint (the box's default is %d)" % hint.DEFAULT_BUDGET)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--policies", default=",".join(POLICIES))
    ap.add_argument("--spaces", default=",".join(map(str, DIFFICULTIES)),
                    help="difficulties to play, as start spaces (1, 2, 4)")
    ap.add_argument("--rate", action="store_true", help="measure the search's speed only")
    args = ap.parse_args()
    if args.rate:
        r = rate()
        print(f"search: {r:,.0f} engine inputs/s on one core here")
        print(f"Zero 2 W (per-core factor {PER_CORE_FACTOR}): {r / PER_CORE_FACTOR / 1000:.1f} "
              f"inputs/ms (hint.PI_INPUTS_PER_MS = {hint.PI_INPUTS_PER_MS})")
        took = sorted(default_times())
        mean, worst = sum(took) / len(took), took[-1]
        print(f"default budget ({hint.DEFAULT_BUDGET} inputs): {mean * 1000:.0f} ms here "
              f"(slowest of {len(took)}: {worst * 1000:.0f} ms), so about "
              f"{mean * PER_CORE_FACTOR * 1000:.0f} ms (slowest {worst * PER_CORE_FACTOR * 1000:.0f}"
              f" ms) on a Zero 2 W")
        return
    policies = args.policies.split(",")
    spaces = [int(s) for s in args.spaces.split(",")]
    jobs = [(p, space, seed, args.budget) for space in spaces for p in policies
            for seed in range(1, args.games + 1)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(play, jobs, chunksize=1)
    took = time.perf_counter() - start
    print(f"{args.games} games per cell, hint budget {args.budget} inputs per decision, "
          f"{args.jobs} processes, {took:.0f} s")
    print("| difficulty | policy | won | win rate | 95% CI | inputs per game |")
    print("|---|---|---|---|---|---|")
    for space in spaces:
        name = DIFFICULTIES[space]
        for p in policies:
            cell = [r for r in results if r[0] == p and r[1] == space]
            wins = sum(r[2] for r in cell)
            low, high = wilson(wins, len(cell))
            inputs = sum(r[3] for r in cell) / len(cell)
            print(f"| {name} (space {space}) | {p} | {wins}/{len(cell)} | "
                  f"{wins / len(cell):.1%} | {low:.1%}-{high:.1%} | {inputs:.0f} |")


if __name__ == "__main__":
    main()
