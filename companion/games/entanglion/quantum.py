"""A tiny two-qubit model of the Entanglion board.

The printed board is the authority for play; this module only *explains* it. Each
ship is one qubit, an engine card is a gate, and every board position is a state
vector. Playing a card as a matrix product lands on exactly the planet the board
shows, so the test suite uses this model to check the transcription in
``board.py``. The one known difference is phase kickback (CNOT with both ships in
Superious and the player's ship on MINUS), which the board leaves out; see
``board.navigate(..., phase_kickback=True)``.

Conventions: basis |Mercurial Rubicon>, amplitudes ordered |00>, |01>, |10>, |11>
(Mercurial is the left qubit). A card acts on the player's own qubit; for CNOT the
player's ship is the target and the other ship the control. Everything is real, so
"equal up to global phase" means equal up to a sign.
"""

from __future__ import annotations

from math import isclose, sqrt

from .board import (
    CNOT,
    H,
    MERCURIAL,
    MINUS,
    OMEGA_ONE,
    OMEGA_THREE,
    OMEGA_TWO,
    OMEGA_ZERO,
    ONE,
    PHI_MINUS,
    PHI_PLUS,
    PLUS,
    POSITIONS,
    PSI_MINUS,
    PSI_PLUS,
    RUBICON,
    SWAP,
    X,
    ZERO,
    Position,
)

Qubit = tuple[float, float]
Vector = tuple[float, float, float, float]
Matrix = list[list[float]]

TOLERANCE = 1e-9

S = 1 / sqrt(2)  # 1/sqrt(2)
Q = 0.5  # 1/2

# Single-ship (one-qubit) states outside Entanglion.
SINGLE: dict[str, Qubit] = {
    ZERO: (1.0, 0.0),
    ONE: (0.0, 1.0),
    PLUS: (S, S),
    MINUS: (S, -S),
}

# Entanglion planets: one entangled two-qubit state shared by both ships.
ENTANGLED: dict[str, Vector] = {
    PHI_PLUS: (S, 0.0, 0.0, S),
    PHI_MINUS: (S, 0.0, 0.0, -S),
    PSI_PLUS: (0.0, S, S, 0.0),
    PSI_MINUS: (0.0, S, -S, 0.0),
    OMEGA_ZERO: (Q, -Q, Q, Q),
    OMEGA_ONE: (-Q, Q, Q, Q),
    OMEGA_TWO: (Q, Q, Q, -Q),
    OMEGA_THREE: (Q, Q, -Q, Q),
}

# Short names for describe(); product states use the one-qubit symbols.
SHORT_NAME: dict[str, str] = {
    PHI_PLUS: "PHI+",
    PHI_MINUS: "PHI-",
    PSI_PLUS: "PSI+",
    PSI_MINUS: "PSI-",
    OMEGA_ZERO: "OMEGA0",
    OMEGA_ONE: "OMEGA1",
    OMEGA_TWO: "OMEGA2",
    OMEGA_THREE: "OMEGA3",
}
SYMBOL: dict[str, str] = {ZERO: "0", ONE: "1", PLUS: "+", MINUS: "-"}

_BASIS = ("00", "01", "10", "11")


def kron(a: Qubit, b: Qubit) -> Vector:
    """|a>|b> with ``a`` the left (Mercurial) qubit."""
    return (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])


def state_vector(pos: Position) -> Vector:
    """The two-qubit state of a board position (mercurial_planet, rubicon_planet)."""
    m, r = pos
    if m in ENTANGLED or r in ENTANGLED:
        if m != r:
            raise ValueError(f"not a board position: {pos!r}")
        return ENTANGLED[m]
    return kron(SINGLE[m], SINGLE[r])


# --- gates -------------------------------------------------------------------

_I2: Matrix = [[1.0, 0.0], [0.0, 1.0]]
_X2: Matrix = [[0.0, 1.0], [1.0, 0.0]]
_H2: Matrix = [[S, S], [S, -S]]


def _kron_matrix(a: Matrix, b: Matrix) -> Matrix:
    """a (x) b for 2x2 matrices; ``a`` acts on the left (Mercurial) qubit."""
    return [[a[i // 2][j // 2] * b[i % 2][j % 2] for j in range(4)] for i in range(4)]


def _permutation(f: dict[int, int]) -> Matrix:
    """Matrix sending basis state |i> to |f(i)> (indices 0..3 = |00>..|11>)."""
    out = [[0.0] * 4 for _ in range(4)]
    for i in range(4):
        out[f[i]][i] = 1.0
    return out


def _on_ship(single: Matrix, ship: str) -> Matrix:
    if ship == MERCURIAL:
        return _kron_matrix(single, _I2)
    if ship == RUBICON:
        return _kron_matrix(_I2, single)
    raise ValueError(f"unknown ship: {ship!r}")


# CNOT: target = the player's ship, control = the other ship. Index = 2*m + r.
_CNOT_MERCURIAL_TARGET = _permutation({i: i ^ (2 if i & 1 else 0) for i in range(4)})
_CNOT_RUBICON_TARGET = _permutation({i: i ^ (1 if i & 2 else 0) for i in range(4)})
_SWAP = _permutation({0: 0, 1: 2, 2: 1, 3: 3})


def gate_matrix(card: str, ship: str) -> Matrix:
    """The real 4x4 matrix of ``card`` played for ``ship`` (a fresh copy)."""
    if ship not in (MERCURIAL, RUBICON):
        raise ValueError(f"unknown ship: {ship!r}")
    if card == X:
        m = _on_ship(_X2, ship)
    elif card == H:
        m = _on_ship(_H2, ship)
    elif card == CNOT:
        m = _CNOT_MERCURIAL_TARGET if ship == MERCURIAL else _CNOT_RUBICON_TARGET
    elif card == SWAP:
        m = _SWAP
    else:
        raise ValueError(f"not a gate card: {card!r}")
    return [row[:] for row in m]


def apply(matrix: Matrix, vec: Vector) -> Vector:
    """matrix @ vec."""
    a, b, c, d = (sum(row[j] * vec[j] for j in range(4)) for row in matrix)
    return (a, b, c, d)


# --- back to the board -------------------------------------------------------


def _same(u: Vector, v: Vector, sign: float) -> bool:
    return all(abs(x - sign * y) <= TOLERANCE for x, y in zip(u, v))


def position_of(vec: Vector) -> Position | None:
    """The board position whose state is ``vec`` up to a sign, else None."""
    for pos in POSITIONS:
        ref = state_vector(pos)
        if _same(vec, ref, 1.0) or _same(vec, ref, -1.0):
            return pos
    return None


def quantum_move(card: str, ship: str, pos: Position) -> Position | None:
    """Where physics sends the ships when ``card`` is played for ``ship`` from ``pos``."""
    return position_of(apply(gate_matrix(card, ship), state_vector(pos)))


def concurrence(vec: Vector) -> float:
    """Entanglement of a real pure two-qubit state: 0 = product, 1 = maximal."""
    return 2 * abs(vec[0] * vec[3] - vec[1] * vec[2])


# --- text --------------------------------------------------------------------


def ket(vec: Vector) -> str:
    """Compact ASCII ket, global sign chosen so the first nonzero amplitude is +.

    Equal-magnitude superpositions print as "(|00>+|11>)/sqrt2" or "(...)/2";
    anything else falls back to decimal coefficients.
    """
    terms = [(amp, label) for amp, label in zip(vec, _BASIS) if abs(amp) > TOLERANCE]
    if not terms:
        return "0"
    if terms[0][0] < 0:
        terms = [(-amp, label) for amp, label in terms]
    mag = abs(terms[0][0])
    k = len(terms)
    if all(isclose(abs(a), mag, abs_tol=TOLERANCE) for a, _ in terms) and isclose(
        mag * sqrt(k), 1.0, abs_tol=TOLERANCE
    ):
        body = "".join(("-" if a < 0 else "+") + f"|{label}>" for a, label in terms).lstrip("+")
        if k == 1:
            return body
        return f"({body})/" + ("2" if k == 4 else f"sqrt{k}")
    text = ""
    for a, label in terms:
        text += ("-" if a < 0 else "+") + f"{abs(a):.3g}|{label}>"
    return text.lstrip("+")


def name(pos: Position) -> str:
    """Short label: "PHI+", "OMEGA0", or a product like "|0>|+>"."""
    m, r = pos
    if m in SHORT_NAME:
        return SHORT_NAME[m]
    return f"|{SYMBOL[m]}>|{SYMBOL[r]}>"


def describe(pos: Position) -> str:
    """One line for the display, e.g. "PHI+ = (|00>+|11>)/sqrt2"."""
    return f"{name(pos)} = {ket(state_vector(pos))}"

