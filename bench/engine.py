"""How fast is the Entanglion engine? Complete random games per second on one core.

Each game starts from its own seed; a seeded random player picks uniformly among
``legal_actions()`` (prompts included) until the game is won or lost, in two modes:

- ``playout``: what the co-pilot's look-ahead uses, a ``playout_copy()`` of the new
  game (the engine's own legal actions trusted, no log, no undo history) with the
  collector tuned by ``playout_gc()``;
- ``validated``: the full input path every input at the table takes (normalised,
  checked, logged, undoable).

For scale, the same run times python-chess's random-game loop (uniform over its
legal moves until the game ends) and prints the ratio in inputs (moves) per second;
without the optional ``chess`` package (``pip install '.[bench]'``) it says so.
Times are CPU seconds of this process (the machine may be shared); each figure is
the median of several runs, the modes interleaved so that load hits them alike. It
prints which build it measured: pure Python, or the optional compiled engine that
``python -m companion.compile_engine`` builds from the same sources.

    python bench/engine.py [--games 300] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import machine, median  # noqa: E402

from companion.games import compiled  # noqa: E402
from companion.games.entanglion import Entanglion  # noqa: E402
from companion.games.snapshots import playout_gc  # noqa: E402

try:
    import chess
except ImportError:  # optional: only the comparison needs it
    chess = None


def play_entanglion(seed: int, playout: bool) -> tuple[str, int]:
    chooser = random.Random(seed)
    game = Entanglion(seed=seed)
    if playout:
        game = game.playout_copy()
    steps = 0
    while game.status == "playing":
        game.push(chooser.choice(game.legal_actions()))
        steps += 1
    return game.status, steps


def play_validated(seed: int) -> tuple[str, int]:
    return play_entanglion(seed, playout=False)


def play_playout(seed: int) -> tuple[str, int]:
    return play_entanglion(seed, playout=True)


def play_chess(seed: int) -> tuple[str, int]:
    chooser = random.Random(seed)
    board = chess.Board()
    steps = 0
    while not board.is_game_over():
        board.push(chooser.choice(list(board.legal_moves)))
        steps += 1
    return board.result(), steps


def run(play: Callable[[int], tuple[str, int]], first_seed: int, games: int
        ) -> tuple[float, int, dict[str, int]]:
    outcomes: dict[str, int] = {}
    steps = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        status, n = play(seed)
        steps += n
        outcomes[status] = outcomes.get(status, 0) + 1
    return time.process_time() - start, steps, outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="Entanglion games per run")
    parser.add_argument("--runs", type=int, default=5, help="runs (the median is reported)")
    args = parser.parse_args()
    modes = ["playout", "validated"] + (["chess"] if chess is not None else [])
    games = {"playout": args.games, "validated": args.games, "chess": max(args.games // 10, 5)}
    games_per_s: dict[str, list[float]] = {m: [] for m in modes}
    inputs_per_s: dict[str, list[float]] = {m: [] for m in modes}
    inputs_per_game: dict[str, float] = {}
    outcomes: dict[str, dict[str, int]] = {m: {} for m in modes}
    for r in range(args.runs):
        line = []
        for mode in modes:
            n = games[mode]
            if mode == "playout":
                with playout_gc():
                    elapsed, steps, seen = run(play_playout, r * n, n)
            else:
                elapsed, steps, seen = run(play_validated if mode == "validated" else play_chess,
                                           r * n, n)
            games_per_s[mode].append(n / elapsed)
            inputs_per_s[mode].append(steps / elapsed)
            inputs_per_game[mode] = inputs_per_game.get(mode, 0) + steps / (n * args.runs)
            for k, v in seen.items():
                outcomes[mode][k] = outcomes[mode].get(k, 0) + v
            line.append(f"{mode} {n / elapsed:6.0f} games/s {steps / elapsed:7.0f} inputs/s")
        print(f"run {r + 1}: " + "; ".join(line), flush=True)
    print(f"machine: {machine()}")
    print(f"build: {compiled.describe()}")
    for mode in ("playout", "validated"):
        print(f"{mode}: {median(games_per_s[mode]):.0f} games/s ({median(inputs_per_s[mode]):.0f} "
              f"inputs/s, {inputs_per_game[mode]:.1f} inputs a game, outcomes "
              f"{outcomes[mode]})")
    print("goal: playout >= 1000 games/s")
    if chess is None:
        print("python-chess: not installed (pip install '.[bench]'), no comparison")
    else:
        c = median(inputs_per_s["chess"])
        print(f"python-chess {chess.__version__}: {median(games_per_s['chess']):.1f} random "
              f"games/s, {c:.0f} moves/s ({inputs_per_game['chess']:.1f} moves a game); "
              f"Entanglion inputs/s per chess move/s: playout "
              f"{median(inputs_per_s['playout']) / c:.2f}x, validated "
              f"{median(inputs_per_s['validated']) / c:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
