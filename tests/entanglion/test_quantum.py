"""Cross-check of the board transcription against two-qubit quantum mechanics.

Every one of the 168 moves (24 positions x X/H/CNOT for each ship + SWAP) is
computed as a matrix product and compared with ``board.navigate``. They agree
everywhere except the four phase-kickback cases (docs/rules/entanglion.md, ruling Q13).
"""

from __future__ import annotations

from math import isclose, sqrt

import pytest

from companion.games.entanglion import board, quantum
from companion.games.entanglion.quantum import (
    apply,
    concurrence,
    describe,
    gate_matrix,
    position_of,
    quantum_move,
    state_vector,
)

M, R = board.MERCURIAL, board.RUBICON
S = 1 / sqrt(2)


def _moves() -> list[tuple[str, str, tuple[str, str]]]:
    """The 168 distinct moves; SWAP is ship-independent so it is played once."""
    out = []
    for pos in board.POSITIONS:
        for card in ("X", "H", "CNOT"):
            for ship in (M, R):
                out.append((card, ship, pos))
        out.append(("SWAP", M, pos))
    return out


MOVES = _moves()
MOVE_IDS = [f"{c}-{s}-{p[0]}-{p[1]}" for c, s, p in MOVES]

# The only disagreements (phase kickback, ruling Q13). (card, player, from) -> (board, physics)
KICKBACK = {
    ("CNOT", R, ("PLUS", "MINUS")): (("PLUS", "MINUS"), ("MINUS", "MINUS")),
    ("CNOT", M, ("MINUS", "PLUS")): (("MINUS", "PLUS"), ("MINUS", "MINUS")),
    ("CNOT", M, ("MINUS", "MINUS")): (("MINUS", "MINUS"), ("MINUS", "PLUS")),
    ("CNOT", R, ("MINUS", "MINUS")): (("MINUS", "MINUS"), ("PLUS", "MINUS")),
}


def close(u, v, tol: float = 1e-12) -> bool:
    return len(u) == len(v) and all(abs(a - b) <= tol for a, b in zip(u, v))


# --- states -----------------------------------------------------------------------


def test_move_count() -> None:
    assert len(MOVES) == 168 == len(set(MOVES))


@pytest.mark.parametrize(
    "planet, yaml",
    [
        # the Entanglion planets' states, rounded to 4 places
        ("PHI_PLUS", (0.7071, 0, 0, 0.7071)),
        ("PHI_MINUS", (0.7071, 0, 0, -0.7071)),
        ("PSI_PLUS", (0, 0.7071, 0.7071, 0)),
        ("PSI_MINUS", (0, 0.7071, -0.7071, 0)),
        ("OMEGA_ZERO", (0.5, -0.5, 0.5, 0.5)),
        ("OMEGA_ONE", (-0.5, 0.5, 0.5, 0.5)),
        ("OMEGA_TWO", (0.5, 0.5, 0.5, -0.5)),
        ("OMEGA_THREE", (0.5, 0.5, -0.5, 0.5)),
    ],
)
def test_entanglion_state_vectors(planet: str, yaml: tuple[float, ...]) -> None:
    vec = state_vector((planet, planet))
    assert close(vec, yaml, tol=1e-4)
    # exact values, not the rounded ones
    assert all(a == 0 or isclose(abs(a), S) or abs(a) == 0.5 for a in vec)


@pytest.mark.parametrize(
    "pos, expected",
    [
        (("ZERO", "ZERO"), (1, 0, 0, 0)),
        (("ZERO", "ONE"), (0, 1, 0, 0)),
        (("ONE", "ZERO"), (0, 0, 1, 0)),
        (("ONE", "ONE"), (0, 0, 0, 1)),
        (("ZERO", "PLUS"), (S, S, 0, 0)),
        (("PLUS", "ZERO"), (S, 0, S, 0)),
        (("ONE", "MINUS"), (0, 0, S, -S)),
        (("MINUS", "ONE"), (0, S, 0, -S)),
        (("PLUS", "MINUS"), (0.5, -0.5, 0.5, -0.5)),
        (("MINUS", "MINUS"), (0.5, -0.5, -0.5, 0.5)),
    ],
)
def test_product_state_vectors(pos: tuple[str, str], expected: tuple[float, ...]) -> None:
    """Mercurial is the left qubit: |m>|r>."""
    assert close(state_vector(pos), expected)


@pytest.mark.parametrize("pos", board.POSITIONS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_every_position_normalised_and_identifiable(pos: tuple[str, str]) -> None:
    vec = state_vector(pos)
    assert isclose(sum(a * a for a in vec), 1.0)
    assert position_of(vec) == pos
    assert position_of(tuple(-a for a in vec)) == pos  # global phase -1


def test_position_of_rejects_off_board_states() -> None:
    assert position_of((0.6, 0.8, 0.0, 0.0)) is None
    assert position_of((0.5, 0.5, 0.5, 0.5 + 1e-6)) is None


@pytest.mark.parametrize("planet", board.RING)
def test_entanglion_states_maximally_entangled(planet: str) -> None:
    a00, a01, a10, a11 = state_vector((planet, planet))
    assert isclose(2 * abs(a00 * a11 - a01 * a10), 1.0)
    assert isclose(concurrence(state_vector((planet, planet))), 1.0)


@pytest.mark.parametrize("pos", [p for p in board.POSITIONS if p[0] not in board.RING])
def test_product_states_not_entangled(pos: tuple[str, str]) -> None:
    assert abs(concurrence(state_vector(pos))) < 1e-12


# --- gates -------------------------------------------------------------------------


def _matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


IDENTITY = [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]


@pytest.mark.parametrize("card", ["X", "H", "CNOT", "SWAP"])
@pytest.mark.parametrize("ship", [M, R])
def test_gates_are_orthogonal_involutions(card: str, ship: str) -> None:
    g = gate_matrix(card, ship)
    transpose = [list(col) for col in zip(*g)]
    assert all(close(row, ref) for row, ref in zip(_matmul(g, transpose), IDENTITY))
    assert all(close(row, ref) for row, ref in zip(_matmul(g, g), IDENTITY))


def test_swap_is_ship_independent() -> None:
    assert gate_matrix("SWAP", M) == gate_matrix("SWAP", R)


@pytest.mark.parametrize(
    "card, ship, before, after",
    [
        # X and H act on the player's own qubit
        ("X", M, (1, 0, 0, 0), (0, 0, 1, 0)),
        ("X", R, (1, 0, 0, 0), (0, 1, 0, 0)),
        ("H", M, (1, 0, 0, 0), (S, 0, S, 0)),
        ("H", R, (1, 0, 0, 0), (S, S, 0, 0)),
        # CNOT: player's ship is the target, the other ship the control
        ("CNOT", M, (0, 1, 0, 0), (0, 0, 0, 1)),  # |01> -> |11>
        ("CNOT", M, (0, 0, 1, 0), (0, 0, 1, 0)),  # |10> unchanged
        ("CNOT", R, (0, 0, 1, 0), (0, 0, 0, 1)),  # |10> -> |11>
        ("CNOT", R, (0, 1, 0, 0), (0, 1, 0, 0)),  # |01> unchanged
        ("SWAP", M, (0, 1, 0, 0), (0, 0, 1, 0)),
    ],
)
def test_gate_action_on_basis(card: str, ship: str, before, after) -> None:
    assert close(apply(gate_matrix(card, ship), before), after)


def test_gate_matrix_rejects_non_gates() -> None:
    with pytest.raises(ValueError):
        gate_matrix("PROBE", M)
    with pytest.raises(ValueError):
        gate_matrix("X", "enterprise")


# --- the cross-check ---------------------------------------------------------------


@pytest.mark.parametrize("card, ship, pos", MOVES, ids=MOVE_IDS)
def test_board_matches_physics(card: str, ship: str, pos: tuple[str, str]) -> None:
    physics = quantum_move(card, ship, pos)
    assert physics is not None, "the 24 positions must be closed under every move"
    on_board = board.navigate(card, ship, pos)
    if (card, ship, pos) in KICKBACK:
        expected_board, expected_physics = KICKBACK[(card, ship, pos)]
        assert on_board == expected_board == pos  # the printed board: no effect
        assert physics == expected_physics  # physics: the other ship is kicked
    else:
        assert on_board == physics
    assert board.navigate(card, ship, pos, phase_kickback=True) == physics


def test_disagreements_are_exactly_the_documented_four() -> None:
    disagree = {
        (card, ship, pos): (board.navigate(card, ship, pos), quantum_move(card, ship, pos))
        for card, ship, pos in MOVES
        if board.navigate(card, ship, pos) != quantum_move(card, ship, pos)
    }
    assert disagree == KICKBACK
    # the rule behind them: CNOT, both ships in Superious, player's ship on MINUS
    for card, ship, (m, r) in disagree:
        mine, theirs = (m, r) if ship == M else (r, m)
        assert card == "CNOT" and mine == "MINUS" and theirs in ("PLUS", "MINUS")


def test_kickback_board_agrees_with_physics_everywhere() -> None:
    assert all(
        board.navigate(card, ship, pos, phase_kickback=True) == quantum_move(card, ship, pos)
        for card, ship, pos in MOVES
    )


def test_swap_physics_ship_independent() -> None:
    for pos in board.POSITIONS:
        assert quantum_move("SWAP", M, pos) == quantum_move("SWAP", R, pos)
        assert board.navigate("SWAP", M, pos) == board.navigate("SWAP", R, pos)


def test_reachable_from_zero_zero_is_exactly_the_board() -> None:
    seen = {("ZERO", "ZERO")}
    frontier = list(seen)
    while frontier:
        pos = frontier.pop()
        for card in ("X", "H", "CNOT", "SWAP"):
            for ship in (M, R):
                nxt = quantum_move(card, ship, pos)
                assert nxt is not None
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
    assert seen == set(board.POSITIONS)


# --- text ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pos, text",
    [
        (("PHI_PLUS", "PHI_PLUS"), "PHI+ = (|00>+|11>)/sqrt2"),
        (("PHI_MINUS", "PHI_MINUS"), "PHI- = (|00>-|11>)/sqrt2"),
        (("PSI_PLUS", "PSI_PLUS"), "PSI+ = (|01>+|10>)/sqrt2"),
        (("PSI_MINUS", "PSI_MINUS"), "PSI- = (|01>-|10>)/sqrt2"),
        (("OMEGA_ZERO", "OMEGA_ZERO"), "OMEGA0 = (|00>-|01>+|10>+|11>)/2"),
        (("OMEGA_ONE", "OMEGA_ONE"), "OMEGA1 = (|00>-|01>-|10>-|11>)/2"),  # sign normalised
        (("OMEGA_TWO", "OMEGA_TWO"), "OMEGA2 = (|00>+|01>+|10>-|11>)/2"),
        (("OMEGA_THREE", "OMEGA_THREE"), "OMEGA3 = (|00>+|01>-|10>+|11>)/2"),
        (("ZERO", "PLUS"), "|0>|+> = (|00>+|01>)/sqrt2"),
        (("ONE", "ONE"), "|1>|1> = |11>"),
        (("MINUS", "ZERO"), "|->|0> = (|00>-|10>)/sqrt2"),
        (("PLUS", "MINUS"), "|+>|-> = (|00>-|01>+|10>-|11>)/2"),
    ],
)
def test_describe(pos: tuple[str, str], text: str) -> None:
    assert describe(pos) == text


@pytest.mark.parametrize("pos", board.POSITIONS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_describe_is_short_ascii(pos: tuple[str, str]) -> None:
    text = describe(pos)
    assert text.isascii() and len(text) <= 36


def test_ket_sign_normalisation_and_fallback() -> None:
    assert quantum.ket((0.0, -S, S, 0.0)) == "(|01>-|10>)/sqrt2"
    assert quantum.ket((0.6, 0.0, 0.0, -0.8)) == "0.6|00>-0.8|11>"
