"""What a position is worth to the hint when a playout is cut off: the share of games
the hint's greedy policy went on to win from such positions.

A position's cell: components aboard (0-7), the detection space (1-11; at 12 the game
is lost) and whether the ships orbit a planet that still holds a component (they can
try to retrieve it now). The figures are measured, not guessed: ``bench/hint_values.py``
plays 30,000 seeded greedy games at the three start spaces and prints this table.

Pure: a table and a look-up.
"""

from __future__ import annotations

from typing import Any

ABOARD = 8  # 0..7 components aboard (at 8 the game is won)
SPACES = 11  # detection spaces 1..11 (at 12 the game is lost)

# Percent won, [at a planet holding a component][aboard][space - 1].
WON: tuple[tuple[tuple[int, ...], ...], ...] = (
    (  # elsewhere: aboard 0..7, spaces 1..11
        ( 62,  42,  27,  14,   9,   4,   3,   2,   1,   0,   0),
        ( 69,  50,  37,  21,  14,   6,   4,   3,   2,   1,   0),
        ( 76,  60,  47,  31,  21,  10,   7,   4,   3,   2,   0),
        ( 80,  70,  59,  42,  32,  17,  12,   7,   4,   2,   0),
        ( 84,  78,  70,  57,  47,  28,  20,  11,   7,   4,   0),
        ( 95,  91,  85,  74,  63,  43,  32,  19,  13,   6,   0),
        ( 98,  96,  94,  89,  80,  66,  53,  35,  22,  10,   0),
        ( 99,  99,  98,  97,  94,  87,  80,  67,  48,  27,   4),
    ),
    (  # at a planet holding a component: aboard 0..7, spaces 1..11
        ( 66,  46,  32,  17,  10,   4,   3,   1,   1,   0,   0),
        ( 73,  55,  41,  25,  16,   8,   5,   2,   1,   1,   0),
        ( 78,  65,  53,  36,  26,  13,   8,   4,   2,   1,   0),
        ( 83,  75,  65,  50,  39,  22,  15,   7,   4,   1,   0),
        ( 94,  89,  81,  68,  57,  34,  23,  12,   7,   2,   0),
        ( 98,  95,  92,  84,  73,  56,  41,  23,  12,   3,   0),
        ( 99,  98,  98,  96,  90,  79,  68,  47,  28,   9,   0),
        (100, 100, 100, 100, 100,  98,  96,  89,  75,  48,  20),
    ),
)


def cell(s: Any) -> tuple[int, int, int]:
    """(at a planet holding a component, components aboard, detection space)."""
    planets = s.planet_components
    at = planets.get(s.pos[0]) is not None and s.pos[0] == s.pos[1]
    return int(at), sum(map(len, s.ship_components.values())), s.detection


def worth(s: Any) -> float:
    """The chance to win from state ``s`` (a game still being played)."""
    at, aboard, space = cell(s)
    return WON[at][min(aboard, ABOARD - 1)][min(max(space, 1), SPACES) - 1] / 100
