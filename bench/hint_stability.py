"""Can a player trust the hint? Its top pick at the box's default budget against a
reference search at ten times the budget (another seed), over a fixed set of positions
from whole seeded games.

The positions: every ``--every``-th decision with more than one input of seeded games
played by the hint's own greedy policy (the way a team new to the game plays, who
mostly fly to the nearest component), until ``--positions`` are collected. A position
counts where the reference is sure enough to be a yardstick: its top pick's estimate is
more than ``--margin`` points above its second. The bench prints the share of those
positions where the default search picks the same input, and asserts it judged every
position (the default set holds 120).

    python bench/hint_stability.py                 # 120 positions, both cores
    python bench/hint_stability.py --positions 40     # a quick look while iterating
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.entanglion import Entanglion, hint  # noqa: E402


def positions(count: int, every: int = 3) -> list[tuple[int, int]]:
    """(game seed, inputs played) of ``count`` positions, each a decision with a choice."""
    out: list[tuple[int, int]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        g = Entanglion(seed, {"start_space": (1, 2, 4)[seed % 3]})
        rng = hint.Rng(seed)
        k = 0
        while g.status == "playing" and len(out) < count:
            if not g.pending and len(hint.candidates(g)) > 1:
                k += 1
                if k % every == 0:
                    out.append((seed, len(g.inputs)))
            g.push(hint.greedy_action(g, rng))
    return out


def position(seed: int, upto: int) -> Entanglion:
    g = Entanglion(seed, {"start_space": (1, 2, 4)[seed % 3]})
    rng = hint.Rng(seed)
    while len(g.inputs) < upto:
        g.push(hint.greedy_action(g, rng))
    return g


def judge(job: tuple[int, int, int, int]) -> tuple[bool, float]:
    """(the default's top pick is the reference's, the reference's margin in points)."""
    seed, upto, budget, factor = job
    g = position(seed, upto)
    mine = hint.hints(g, budget, seed=upto)
    ref = hint.hints(g, budget * factor, seed=upto + 10_007)
    scored = [h for h in ref if h["win"] is not None]
    margin = 100 * (scored[0]["win"] - scored[1]["win"]) if len(scored) > 1 else 100.0
    return mine[0]["action"] == ref[0]["action"], margin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=120)
    ap.add_argument("--budget", type=int, default=hint.DEFAULT_BUDGET)
    ap.add_argument("--factor", type=int, default=10)
    ap.add_argument("--margin", type=float, default=5.0)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    start = time.perf_counter()
    found = positions(args.positions, args.every)
    jobs = [(seed, upto, args.budget, args.factor) for seed, upto in found]
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(judge, jobs, chunksize=1)
    clear = [same for same, margin in results if margin > args.margin]
    assert len(results) == args.positions  # every position was judged
    print(f"{len(results)} positions from {len({s for s, _ in found})} seeded games, budget "
          f"{args.budget} inputs, reference {args.factor}x; {time.perf_counter() - start:.0f} s")
    print(f"all positions: top pick agrees in {sum(s for s, _ in results)}/{len(results)}"
          f" ({sum(s for s, _ in results) / len(results):.0%})")
    print(f"reference margin > {args.margin:g} points: {sum(clear)}/{len(clear)} agree "
          f"({sum(clear) / max(1, len(clear)):.0%})")
    for wider in (10, 20):
        some = [same for same, margin in results if margin > wider]
        print(f"  (margin > {wider} points: {sum(some)}/{len(some)})")


if __name__ == "__main__":
    main()
