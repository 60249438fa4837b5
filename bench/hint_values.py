"""The table the hint scores a cut-off playout with: the share of games the greedy
policy goes on to win from a position, by components aboard, detection space and
whether the ships orbit a planet still holding a component.

Seeded greedy games from set-up to the end at the three start spaces (in turn); every
resting position (no prompt pending) of a game counts once per game for its cell. The
table is printed as the Python literal ``companion/games/entanglion/values.py`` holds.

    python bench/hint_values.py                 # 30,000 games (about a minute here)
    python bench/hint_values.py --games 3000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.entanglion import Entanglion, hint, values  # noqa: E402

MIN_GAMES = 30  # a cell seen in fewer games takes its neighbours' figure


def measure(games: int) -> dict[tuple[int, int, int], list[int]]:
    """Cell -> [games won, games that passed through it]."""
    seen: dict[tuple[int, int, int], list[int]] = {}
    for seed in range(1, games + 1):
        g = Entanglion(seed, {"start_space": (1, 2, 4)[seed % 3]}).playout_copy()
        rng = hint.Rng(seed)
        cells = set()
        while g.state.status == "playing" and len(cells) < hint.PLAYOUT_CAP:
            if not g.pending:
                cells.add(values.cell(g.state))
            g.push(hint.greedy_action(g, rng))
        won = g.state.status == "won"
        for c in cells:
            tally = seen.setdefault(c, [0, 0])
            tally[0] += won
            tally[1] += 1
    return seen


def table(seen: dict[tuple[int, int, int], list[int]]) -> list[list[list[int]]]:
    """Percent won per [at a component][aboard][detection - 1]. A thin cell takes the
    figure of the same cell at the other 'at a component' value, else the one a space
    lower on the track (never-reached cells: the next space down, or 0)."""
    out = [[[0] * values.SPACES for _ in range(values.ABOARD)] for _ in range(2)]
    for at in (0, 1):
        for aboard in range(values.ABOARD):
            for space in range(1, values.SPACES + 1):
                won, n = seen.get((at, aboard, space), (0, 0))
                if n < MIN_GAMES:
                    other = seen.get((1 - at, aboard, space), (0, 0))
                    won, n = (won + other[0], n + other[1])
                if n >= MIN_GAMES:
                    out[at][aboard][space - 1] = round(100 * won / n)
                elif space > 1:
                    out[at][aboard][space - 1] = out[at][aboard][space - 2]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30_000)
    args = ap.parse_args()
    seen = measure(args.games)
    assert sum(n for _, n in seen.values()) > 0  # games were played and counted
    rows = table(seen)
    print("WON = (")
    for at, name in ((0, "elsewhere"), (1, "at a planet holding a component")):
        print(f"    (  # {name}: aboard 0..{values.ABOARD - 1}, spaces 1..{values.SPACES}")
        for row in rows[at]:
            print("        (" + ", ".join(f"{v:3d}" for v in row) + "),")
        print("    ),")
    print(")")


if __name__ == "__main__":
    main()
