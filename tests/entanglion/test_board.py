"""Board transcription tests.

The expected data below is typed in by hand from the board tables of
docs/rules/entanglion.md (#the-board), deliberately *not*
derived from board.py, so a slip in the board's path list shows up here.
Planet names are written as plain strings for the same reason.
"""

from __future__ import annotations

import pytest

from companion.games.entanglion import board
from companion.games.entanglion.board import navigate

M, R = board.MERCURIAL, board.RUBICON
SHIPS = (M, R)
OUTSIDE = ("ZERO", "ONE", "PLUS", "MINUS")
CENTARIOUS = ("ZERO", "ONE")
SUPERIOUS = ("PLUS", "MINUS")
INSIDE = (
    "OMEGA_ZERO", "OMEGA_ONE", "PSI_MINUS", "PHI_MINUS",
    "OMEGA_THREE", "OMEGA_TWO", "PHI_PLUS", "PSI_PLUS",
)  # fmt: skip
GATES = ("X", "H", "CNOT", "SWAP")


def at(mine: str, theirs: str, ship: str) -> tuple[str, str]:
    """Position with the player's ship on ``mine`` and the other ship on ``theirs``."""
    return (mine, theirs) if ship == M else (theirs, mine)


# --- planets and positions ----------------------------------------------------


def test_planets_and_galaxies() -> None:
    assert set(board.CENTARIOUS) == {"ZERO", "ONE"}
    assert set(board.SUPERIOUS) == {"PLUS", "MINUS"}
    assert set(board.ENTANGLION) == set(INSIDE)
    assert len(board.PLANETS) == len(set(board.PLANETS)) == 12


def test_positions_are_the_24_legal_pairs() -> None:
    expected = {(m, r) for m in OUTSIDE for r in OUTSIDE} | {(p, p) for p in INSIDE}
    assert len(board.POSITIONS) == 24
    assert set(board.POSITIONS) == expected
    assert all(board.is_legal_position(p) for p in board.POSITIONS)
    assert not board.is_legal_position(("OMEGA_ZERO", "ZERO"))
    assert not board.is_legal_position(("PHI_PLUS", "PSI_PLUS"))


def test_a_ship_in_entanglion_is_never_alone_there_whichever_ship_it_is() -> None:
    """Inside Entanglion both ships share one planet: a pair with either ship inside and
    the other outside (or elsewhere inside) is no position, Rubicon's side as Mercurial's."""
    legal = {(m, r) for m in OUTSIDE for r in OUTSIDE} | {(p, p) for p in INSIDE}
    for m in board.PLANETS:
        for r in board.PLANETS:
            assert board.is_legal_position((m, r)) == ((m, r) in legal), (m, r)
    assert not board.is_legal_position(("ZERO", "OMEGA_ZERO"))
    assert not board.is_legal_position(("PLUTO", "ZERO"))


# --- ring (Heisenberg / Spooky Action) ------------------------------------------


def test_ring_clockwise_order() -> None:
    assert board.RING == INSIDE


@pytest.mark.parametrize(
    "roll, planet",
    [
        (1, "OMEGA_ONE"),
        (2, "PSI_MINUS"),
        (3, "PHI_MINUS"),
        (4, "OMEGA_THREE"),
        (5, "OMEGA_TWO"),
        (6, "PHI_PLUS"),
        (7, "PSI_PLUS"),
        (8, "OMEGA_ZERO"),
    ],
)
def test_ring_roll(roll: int, planet: str) -> None:
    assert board.RING[roll % 8] == planet


# --- the Entanglion lookup table (#where-each-card-takes-the-ships-inside-entanglion)
# Cell: a planet name = both ships go there; a (mercurial, rubicon) pair = CNOT exit;
# STAY = no movement.

STAY = None
#   planet         X(M)           X(R)           H(M)           H(R)           CNOT(M)              CNOT(R)              SWAP
TABLE = [
    ("PHI_PLUS",    "PSI_PLUS",    "PSI_PLUS",    "OMEGA_TWO",   "OMEGA_TWO",   ("ZERO", "PLUS"),    ("PLUS", "ZERO"),    STAY),
    ("PHI_MINUS",   "PSI_MINUS",   "PSI_MINUS",   "OMEGA_ZERO",  "OMEGA_THREE", ("ZERO", "MINUS"),   ("MINUS", "ZERO"),   STAY),
    ("PSI_PLUS",    "PHI_PLUS",    "PHI_PLUS",    "OMEGA_THREE", "OMEGA_ZERO",  ("ONE", "PLUS"),     ("PLUS", "ONE"),     STAY),
    ("PSI_MINUS",   "PHI_MINUS",   "PHI_MINUS",   "OMEGA_ONE",   "OMEGA_ONE",   ("ONE", "MINUS"),    ("MINUS", "ONE"),    STAY),
    ("OMEGA_ZERO",  "OMEGA_TWO",   "OMEGA_ONE",   "PHI_MINUS",   "PSI_PLUS",    "OMEGA_TWO",         STAY,                "OMEGA_THREE"),
    ("OMEGA_ONE",   "OMEGA_THREE", "OMEGA_ZERO",  "PSI_MINUS",   "PSI_MINUS",   STAY,                STAY,                STAY),
    ("OMEGA_TWO",   "OMEGA_ZERO",  "OMEGA_THREE", "PHI_PLUS",    "PHI_PLUS",    "OMEGA_ZERO",        "OMEGA_THREE",       STAY),
    ("OMEGA_THREE", "OMEGA_ONE",   "OMEGA_TWO",   "PSI_PLUS",    "PHI_MINUS",   STAY,                "OMEGA_TWO",         "OMEGA_ZERO"),
]  # fmt: skip
COLUMNS = [("X", M), ("X", R), ("H", M), ("H", R), ("CNOT", M), ("CNOT", R), ("SWAP", M), ("SWAP", R)]


def _table_cases() -> list:
    cases = []
    for planet, *cells in TABLE:
        cells.append(cells[-1])  # SWAP is the same whoever plays it
        for (card, ship), cell in zip(COLUMNS, cells):
            if cell is STAY:
                expected = (planet, planet)
            elif isinstance(cell, str):
                expected = (cell, cell)
            else:
                expected = cell
            cases.append(pytest.param(planet, card, ship, expected, id=f"{planet}-{card}-{ship}"))
    return cases


def test_table_covers_every_entanglion_planet() -> None:
    assert sorted(row[0] for row in TABLE) == sorted(INSIDE)


@pytest.mark.parametrize("planet, card, ship, expected", _table_cases())
def test_entanglion_table(planet: str, card: str, ship: str, expected: tuple[str, str]) -> None:
    assert navigate(card, ship, (planet, planet)) == expected


@pytest.mark.parametrize("planet", INSIDE)
@pytest.mark.parametrize("ship", SHIPS)
def test_destinations_match_table(planet: str, ship: str) -> None:
    row = next(r for r in TABLE if r[0] == planet)
    cells = dict(zip(COLUMNS, row[1:] + (row[-1],)))
    expected = {
        card: cells[(card, ship)]
        for card in GATES
        if isinstance(cells[(card, ship)], str)  # moves within Entanglion only
    }
    assert board.destinations(planet, ship) == expected


# --- every Entanglion path in both directions (#paths-inside-entanglion) ------------

ENTANGLION_PATHS = [
    # id,    a,             b,             cards,             ships
    ("E1",  "PSI_PLUS",    "PHI_PLUS",    ("X",),            (M, R)),
    ("E2",  "PSI_MINUS",   "PHI_MINUS",   ("X",),            (M, R)),
    ("E3",  "PHI_PLUS",    "OMEGA_TWO",   ("H",),            (M, R)),
    ("E4",  "PSI_MINUS",   "OMEGA_ONE",   ("H",),            (M, R)),
    ("E5",  "OMEGA_ZERO",  "OMEGA_THREE", ("SWAP",),         (M, R)),
    ("E6",  "OMEGA_ZERO",  "PSI_PLUS",    ("H",),            (R,)),
    ("E7",  "OMEGA_ZERO",  "PHI_MINUS",   ("H",),            (M,)),
    ("E8",  "PSI_PLUS",    "OMEGA_THREE", ("H",),            (M,)),
    ("E9",  "PHI_MINUS",   "OMEGA_THREE", ("H",),            (R,)),
    ("E10", "OMEGA_ZERO",  "OMEGA_ONE",   ("X",),            (R,)),
    ("E11", "OMEGA_ONE",   "OMEGA_THREE", ("X",),            (M,)),
    ("E12", "OMEGA_ZERO",  "OMEGA_TWO",   ("X", "CNOT"),     (M,)),
    ("E13", "OMEGA_TWO",   "OMEGA_THREE", ("X", "CNOT"),     (R,)),
]  # fmt: skip


def _path_cases(paths: list, *, allowed: bool) -> list:
    cases = []
    for pid, a, b, cards, ships in paths:
        for card in cards:
            for ship in SHIPS:
                if (ship in ships) != allowed:
                    continue
                for src, dst in ((a, b), (b, a)):
                    cases.append(pytest.param(src, dst, card, ship, id=f"{pid}-{card}-{ship}-{src}"))
    return cases


@pytest.mark.parametrize("src, dst, card, ship", _path_cases(ENTANGLION_PATHS, allowed=True))
def test_entanglion_path_both_directions(src: str, dst: str, card: str, ship: str) -> None:
    assert navigate(card, ship, (src, src)) == (dst, dst)


@pytest.mark.parametrize("src, dst, card, ship", _path_cases(ENTANGLION_PATHS, allowed=False))
def test_single_colour_path_refuses_other_ship(src: str, dst: str, card: str, ship: str) -> None:
    """A blue-only (red-only) line can't be used by Rubicon's (Mercurial's) card."""
    assert navigate(card, ship, (src, src)) != (dst, dst)


def test_entanglion_path_list_matches_board() -> None:
    ours = {(p[0], frozenset((p[1], p[2])), p[3], frozenset(p[4])) for p in ENTANGLION_PATHS}
    theirs = {
        (p.id, frozenset((p.a, p.b)), tuple(p.cards), frozenset(p.ships))
        for p in board.ENTANGLION_PATHS
    }
    assert ours == theirs


@pytest.mark.parametrize(
    "planet, card, mercurial_goes, rubicon_goes",
    [
        # H on OMEGA ZERO: blue line to PHI MINUS, red line to PSI PLUS.
        ("OMEGA_ZERO", "H", "PHI_MINUS", "PSI_PLUS"),
        # Red-only X path OMEGA ZERO - OMEGA ONE; Mercurial's X takes the blue arc instead.
        ("OMEGA_ZERO", "X", "OMEGA_TWO", "OMEGA_ONE"),
        ("OMEGA_ONE", "X", "OMEGA_THREE", "OMEGA_ZERO"),
        ("OMEGA_THREE", "X", "OMEGA_ONE", "OMEGA_TWO"),
        ("OMEGA_TWO", "X", "OMEGA_ZERO", "OMEGA_THREE"),
        ("PSI_PLUS", "H", "OMEGA_THREE", "OMEGA_ZERO"),
        ("PHI_MINUS", "H", "OMEGA_ZERO", "OMEGA_THREE"),
        ("OMEGA_THREE", "H", "PSI_PLUS", "PHI_MINUS"),
    ],
)
def test_colour_restrictions(planet: str, card: str, mercurial_goes: str, rubicon_goes: str) -> None:
    assert navigate(card, M, (planet, planet)) == (mercurial_goes, mercurial_goes)
    assert navigate(card, R, (planet, planet)) == (rubicon_goes, rubicon_goes)


@pytest.mark.parametrize("planet", INSIDE)
@pytest.mark.parametrize("ship", SHIPS)
def test_x_and_h_always_move_inside_entanglion(planet: str, ship: str) -> None:
    for card in ("X", "H"):
        dest = navigate(card, ship, (planet, planet))
        assert dest[0] == dest[1] != planet


@pytest.mark.parametrize("planet", INSIDE)
@pytest.mark.parametrize("ship", SHIPS)
def test_swap_inside_entanglion_only_on_omega_zero_three(planet: str, ship: str) -> None:
    expected = {"OMEGA_ZERO": "OMEGA_THREE", "OMEGA_THREE": "OMEGA_ZERO"}.get(planet, planet)
    assert navigate("SWAP", ship, (planet, planet)) == (expected, expected)


# --- CNOT into and out of Entanglion (#cnot-into-and-out-of-entanglion) ------------

ENTRY = [
    # lead ship on, other ship on, both go to
    ("ZERO", "PLUS", "PHI_PLUS"),
    ("ZERO", "MINUS", "PHI_MINUS"),
    ("ONE", "PLUS", "PSI_PLUS"),
    ("ONE", "MINUS", "PSI_MINUS"),
]


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize("lead, other_on, planet", ENTRY)
def test_cnot_entry(lead: str, other_on: str, planet: str, ship: str) -> None:
    assert navigate("CNOT", ship, at(lead, other_on, ship)) == (planet, planet)


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize("centarious", CENTARIOUS)
@pytest.mark.parametrize("superious", SUPERIOUS)
def test_superious_ship_cannot_enter(centarious: str, superious: str, ship: str) -> None:
    pos = at(superious, centarious, ship)
    assert navigate("CNOT", ship, pos) == pos


EXIT = [
    # Bell planet, player's ship goes to, other ship goes to
    ("PHI_PLUS", "ZERO", "PLUS"),
    ("PHI_MINUS", "ZERO", "MINUS"),
    ("PSI_PLUS", "ONE", "PLUS"),
    ("PSI_MINUS", "ONE", "MINUS"),
]


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize("planet, mine, theirs", EXIT)
def test_cnot_exit(planet: str, mine: str, theirs: str, ship: str) -> None:
    assert navigate("CNOT", ship, (planet, planet)) == at(mine, theirs, ship)


def test_cnot_exit_errata_example() -> None:
    # Errata: both on PHI PLUS, CNOT on Mercurial -> Mercurial to ZERO, Rubicon to PLUS.
    assert navigate("CNOT", M, ("PHI_PLUS", "PHI_PLUS")) == ("ZERO", "PLUS")


def test_entry_and_exit_tables() -> None:
    assert board.CNOT_ENTRY == {(c, s): p for c, s, p in ENTRY}
    assert board.CNOT_EXIT == {p: (m, t) for p, m, t in EXIT}


@pytest.mark.parametrize(
    "planet, ship, expected",
    [
        ("OMEGA_ZERO", M, "OMEGA_TWO"),
        ("OMEGA_ZERO", R, "OMEGA_ZERO"),
        ("OMEGA_ONE", M, "OMEGA_ONE"),
        ("OMEGA_ONE", R, "OMEGA_ONE"),
        ("OMEGA_TWO", M, "OMEGA_ZERO"),
        ("OMEGA_TWO", R, "OMEGA_THREE"),
        ("OMEGA_THREE", M, "OMEGA_THREE"),
        ("OMEGA_THREE", R, "OMEGA_TWO"),
    ],
)
def test_cnot_on_omega_never_exits(planet: str, ship: str, expected: str) -> None:
    assert navigate("CNOT", ship, (planet, planet)) == (expected, expected)


# --- outside Entanglion (#paths-outside-entanglion) -----------------------------------


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize("theirs", OUTSIDE)
@pytest.mark.parametrize("mine, expected", [("ZERO", "ONE"), ("ONE", "ZERO"), ("PLUS", "PLUS"), ("MINUS", "MINUS")])
def test_x_outside(mine: str, expected: str, theirs: str, ship: str) -> None:
    """X flips ZERO<->ONE for the player's ship only; no PLUS-MINUS path."""
    assert navigate("X", ship, at(mine, theirs, ship)) == at(expected, theirs, ship)


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize("theirs", OUTSIDE)
@pytest.mark.parametrize(
    "mine, expected", [("ZERO", "PLUS"), ("PLUS", "ZERO"), ("ONE", "MINUS"), ("MINUS", "ONE")]
)
def test_h_outside(mine: str, expected: str, theirs: str, ship: str) -> None:
    """H: ZERO<->PLUS and ONE<->MINUS for the player's ship only (no ZERO-MINUS, ONE-PLUS)."""
    assert navigate("H", ship, at(mine, theirs, ship)) == at(expected, theirs, ship)


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize("m", OUTSIDE)
@pytest.mark.parametrize("r", OUTSIDE)
def test_swap_outside_exchanges_ships(m: str, r: str, ship: str) -> None:
    assert navigate("SWAP", ship, (m, r)) == (r, m)


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize(
    "mine, theirs, expected_mine",
    [
        ("ZERO", "ZERO", "ZERO"),
        ("ONE", "ZERO", "ONE"),
        ("ZERO", "ONE", "ONE"),
        ("ONE", "ONE", "ZERO"),
    ],
)
def test_cnot_in_centarious_flips_only_if_other_on_one(
    mine: str, theirs: str, expected_mine: str, ship: str
) -> None:
    assert navigate("CNOT", ship, at(mine, theirs, ship)) == at(expected_mine, theirs, ship)


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize("mine", SUPERIOUS)
@pytest.mark.parametrize("theirs", SUPERIOUS)
def test_cnot_both_in_superious_does_nothing_on_the_board(mine: str, theirs: str, ship: str) -> None:
    pos = at(mine, theirs, ship)
    assert navigate("CNOT", ship, pos) == pos


@pytest.mark.parametrize("ship", SHIPS)
@pytest.mark.parametrize(
    "mine, theirs, expected_theirs",
    [
        ("PLUS", "PLUS", "PLUS"),
        ("PLUS", "MINUS", "MINUS"),
        ("MINUS", "PLUS", "MINUS"),
        ("MINUS", "MINUS", "PLUS"),
    ],
)
def test_cnot_phase_kickback_option(mine: str, theirs: str, expected_theirs: str, ship: str) -> None:
    """With phase_kickback=True the player's MINUS ship kicks the other PLUS<->MINUS."""
    assert navigate("CNOT", ship, at(mine, theirs, ship), phase_kickback=True) == at(
        mine, expected_theirs, ship
    )


# --- global properties --------------------------------------------------------------


@pytest.mark.parametrize("phase_kickback", [False, True])
@pytest.mark.parametrize("pos", board.POSITIONS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_every_move_is_its_own_inverse(pos: tuple[str, str], phase_kickback: bool) -> None:
    for card in GATES:
        for ship in SHIPS:
            once = navigate(card, ship, pos, phase_kickback=phase_kickback)
            assert once in board.POSITIONS
            assert navigate(card, ship, once, phase_kickback=phase_kickback) == pos, (card, ship)
