"""The Entanglion board: planets, galaxies and every navigation path.

The board graph exists only as artwork; this is the transcription checked against
two-qubit quantum mechanics (see ``quantum.py`` and its cross-check test). A ship
*position* is the pair ``(mercurial_planet, rubicon_planet)``; inside Entanglion both
ships always share one planet.

Only data and one pure function live here: :func:`navigate` answers "where do the two
ships end up when this engine card is played for this ship?". Everything else
(defences, decks, events) is the engine's business.
"""

from __future__ import annotations

from typing import NamedTuple

MERCURIAL = "mercurial"  # blue, solid line
RUBICON = "rubicon"  # red, dashed line
SHIPS = (MERCURIAL, RUBICON)


OTHER = {MERCURIAL: RUBICON, RUBICON: MERCURIAL}  # a lookup, for the hot paths


def other(ship: str) -> str:
    return RUBICON if ship == MERCURIAL else MERCURIAL


ZERO, ONE, PLUS, MINUS = "ZERO", "ONE", "PLUS", "MINUS"
PHI_PLUS, PHI_MINUS, PSI_PLUS, PSI_MINUS = "PHI_PLUS", "PHI_MINUS", "PSI_PLUS", "PSI_MINUS"
OMEGA_ZERO, OMEGA_ONE, OMEGA_TWO, OMEGA_THREE = "OMEGA_ZERO", "OMEGA_ONE", "OMEGA_TWO", "OMEGA_THREE"

CENTARIOUS = (ZERO, ONE)
SUPERIOUS = (PLUS, MINUS)
# Clockwise from OMEGA ZERO as printed; Heisenberg and Spooky Action count along it
# (errata: a roll of 1 is OMEGA ONE, a roll of 8 is OMEGA ZERO).
RING = (OMEGA_ZERO, OMEGA_ONE, PSI_MINUS, PHI_MINUS, OMEGA_THREE, OMEGA_TWO, PHI_PLUS, PSI_PLUS)
ENTANGLION = RING
BELL = (PHI_PLUS, PHI_MINUS, PSI_PLUS, PSI_MINUS)
PLANETS = CENTARIOUS + SUPERIOUS + RING

GALAXY = {p: "centarious" for p in CENTARIOUS}
GALAXY.update({p: "superious" for p in SUPERIOUS})
GALAXY.update({p: "entanglion" for p in RING})

PRINTED_NAME = {p: p.replace("_", " ") for p in PLANETS}

X, H, CNOT, SWAP, PROBE = "X", "H", "CNOT", "SWAP", "PROBE"
GATES = (X, H, CNOT, SWAP)  # the engine cards that can be played; PROBE never stays in a hand


class Path(NamedTuple):
    id: str
    a: str
    b: str
    cards: tuple[str, ...]
    ships: tuple[str, ...]  # which ship's card may traverse it (line colour)


_BOTH = (MERCURIAL, RUBICON)
_M = (MERCURIAL,)
_R = (RUBICON,)

# Paths outside Entanglion between single-ship planets (each ship moves on its own).
# ZERO-ONE by CNOT exists too, but only when the other ship is on ONE: see navigate().
OUTSIDE_PATHS = (
    Path("C1", ZERO, ONE, (X,), _BOTH),
    Path("C3", ZERO, PLUS, (H,), _BOTH),
    Path("C4", ONE, MINUS, (H,), _BOTH),
)

# The 13 paths inside Entanglion (both ships move together, whoever plays).
ENTANGLION_PATHS = (
    Path("E1", PSI_PLUS, PHI_PLUS, (X,), _BOTH),
    Path("E2", PSI_MINUS, PHI_MINUS, (X,), _BOTH),
    Path("E3", PHI_PLUS, OMEGA_TWO, (H,), _BOTH),
    Path("E4", PSI_MINUS, OMEGA_ONE, (H,), _BOTH),
    Path("E5", OMEGA_ZERO, OMEGA_THREE, (SWAP,), _BOTH),
    Path("E6", OMEGA_ZERO, PSI_PLUS, (H,), _R),
    Path("E7", OMEGA_ZERO, PHI_MINUS, (H,), _M),
    Path("E8", PSI_PLUS, OMEGA_THREE, (H,), _M),
    Path("E9", PHI_MINUS, OMEGA_THREE, (H,), _R),
    Path("E10", OMEGA_ZERO, OMEGA_ONE, (X,), _R),
    Path("E11", OMEGA_ONE, OMEGA_THREE, (X,), _M),
    Path("E12", OMEGA_ZERO, OMEGA_TWO, (X, CNOT), _M),
    Path("E13", OMEGA_TWO, OMEGA_THREE, (X, CNOT), _R),
)

# Grey lines. Entry: the ship in Centarious plays CNOT while the other is in Superious.
CNOT_ENTRY = {
    (ZERO, PLUS): PHI_PLUS,
    (ZERO, MINUS): PHI_MINUS,
    (ONE, PLUS): PSI_PLUS,
    (ONE, MINUS): PSI_MINUS,
}
# Exit from a Bell planet: (where the CNOT player's ship goes, where the other goes).
CNOT_EXIT = {planet: pair for pair, planet in CNOT_ENTRY.items()}

Position = tuple[str, str]  # (mercurial's planet, rubicon's planet)


# The 24 legal positions: 16 outside (each ship on its own) + 8 inside (together).
POSITIONS: tuple[Position, ...] = tuple(
    [(m, r) for m in CENTARIOUS + SUPERIOUS for r in CENTARIOUS + SUPERIOUS]
    + [(p, p) for p in RING])


def is_legal_position(pos: Position) -> bool:
    m, r = pos
    if m not in GALAXY or r not in GALAXY:
        return False
    if GALAXY[m] == "entanglion" or GALAXY[r] == "entanglion":
        return m == r
    return True


def _along(paths: tuple[Path, ...], planet: str, card: str, ship: str) -> str | None:
    for path in paths:
        if card in path.cards and ship in path.ships:
            if path.a == planet:
                return path.b
            if path.b == planet:
                return path.a
    return None


def _compute(card: str, ship: str, pos: Position, phase_kickback: bool) -> Position:
    m, r = pos
    mine, theirs = (m, r) if ship == MERCURIAL else (r, m)

    def as_position(new_mine: str, new_theirs: str) -> Position:
        return (new_mine, new_theirs) if ship == MERCURIAL else (new_theirs, new_mine)

    if GALAXY[m] == "entanglion":
        if card == CNOT and m in CNOT_EXIT:
            return as_position(*CNOT_EXIT[m])
        dest = _along(ENTANGLION_PATHS, m, card, ship)
        return (dest, dest) if dest else pos

    if card == SWAP:
        return (r, m)
    if card == CNOT:
        if GALAXY[mine] == "centarious" and GALAXY[theirs] == "superious":
            dest = CNOT_ENTRY[(mine, theirs)]
            return (dest, dest)
        if GALAXY[mine] == "centarious" and theirs == ONE:
            return as_position(ONE if mine == ZERO else ZERO, theirs)
        if phase_kickback and mine == MINUS and GALAXY[theirs] == "superious":
            # Physics, not the printed board (ruling Q13): the control is kicked.
            return as_position(mine, MINUS if theirs == PLUS else PLUS)
        return pos
    dest = _along(OUTSIDE_PATHS, mine, card, ship)
    return as_position(dest, theirs) if dest else pos


def _table(phase_kickback: bool) -> dict[tuple[str, str, Position], Position]:
    return {
        (card, ship, pos): _compute(card, ship, pos, phase_kickback)
        for card in GATES
        for ship in SHIPS
        for pos in POSITIONS
    }


class _Tables(dict):
    """Ruling cnot_phase_kickback -> its table, each built on first use: one lookup per
    move on the engine's hot path. Built when first asked for, not at import, so a test
    that runs a changed ``_compute`` (a mutant, docs/mutation.md) sees the table it makes."""

    def __missing__(self, phase_kickback: bool) -> dict[tuple[str, str, Position], Position]:
        table = self[phase_kickback] = _table(phase_kickback)
        return table


NAVIGATION = _Tables()


def navigate(card: str, ship: str, pos: Position, phase_kickback: bool = False) -> Position:
    """Where the ships are after ``card`` is played for ``ship`` from ``pos``.

    Returns ``pos`` itself when the card has no effect (no path for that card and
    ship colour). ``pos`` must be one of :data:`POSITIONS`.
    """
    return NAVIGATION[bool(phase_kickback)][(card, ship, pos)]


def destinations(planet: str, ship: str) -> dict[str, str]:
    """Card -> planet reachable inside Entanglion from ``planet`` by ``ship``'s card."""
    out = {}
    for card in GATES:
        dest = navigate(card, ship, (planet, planet))
        if dest[0] == dest[1] and dest[0] != planet:
            out[card] = dest[0]
    return out
