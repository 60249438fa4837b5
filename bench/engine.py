"""How fast is the Entanglion engine? Complete random games per second on one core.

Each game starts from its own seed; a seeded random player picks uniformly among
``legal_actions()`` (prompts included) and pushes through the full, validated input
path until the game is won or lost. Prints the median of several runs.

    python bench/engine.py [--games 300] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import machine, median  # noqa: E402

from companion.games.entanglion import Entanglion  # noqa: E402


def play(seed: int) -> tuple[str, int]:
    chooser = random.Random(seed)
    game = Entanglion(seed=seed)
    steps = 0
    while game.status == "playing":
        game.push(chooser.choice(game.legal_actions()))
        steps += 1
    return game.status, steps


def run(first_seed: int, games: int) -> tuple[float, int, dict[str, int]]:
    outcomes: dict[str, int] = {}
    steps = 0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        status, n = play(seed)
        steps += n
        outcomes[status] = outcomes.get(status, 0) + 1
    return time.perf_counter() - start, steps, outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per run")
    parser.add_argument("--runs", type=int, default=5, help="runs (the median is reported)")
    args = parser.parse_args()
    rates, steps_total, outcomes_total = [], 0, {}
    for r in range(args.runs):
        elapsed, steps, outcomes = run(r * args.games, args.games)
        rates.append(args.games / elapsed)
        steps_total += steps
        for k, v in outcomes.items():
            outcomes_total[k] = outcomes_total.get(k, 0) + v
        print(f"run {r + 1}: {args.games / elapsed:7.0f} games/s  "
              f"{steps / elapsed:8.0f} inputs/s", flush=True)
    games = args.games * args.runs
    print(f"machine: {machine()}")
    print(f"engine: {median(rates):.0f} complete random games/s (median of {args.runs} runs "
          f"of {args.games}); mean {steps_total / games:.1f} inputs per game; "
          f"outcomes {outcomes_total}; goal >= 1000 games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
