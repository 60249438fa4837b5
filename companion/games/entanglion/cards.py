"""Entanglion's cards, components and detection track, as data.

Short texts are our own summaries for the OLED and the log, not the printed wording.
"""

from __future__ import annotations

from ...i18n import N_
from .board import CNOT, H, PROBE, SWAP, X

# Engine stack: 24 cards. PROBE goes under the other 23 at setup.
ENGINE_COUNTS = {H: 8, CNOT: 7, X: 5, SWAP: 3, PROBE: 1}
ENGINE_CARDS = tuple(ENGINE_COUNTS)
HAND_SIZE = 3

BENNETT = "bennett"
BIT_FLIP_ERROR = "bit_flip_error"
HEISENBERG = "heisenberg"
QUANTUM_SHUFFLE = "quantum_shuffle"
QUANTUM_TUNNEL = "quantum_tunnel"
SCHRODINGER = "schrodinger"
SPOOKY_ACTION = "spooky_action"
THE_MECHANIC = "the_mechanic"
WAVE_FUNCTION_COLLAPSE = "wave_function_collapse"

EVENTS = (
    BENNETT,
    BIT_FLIP_ERROR,
    HEISENBERG,
    QUANTUM_SHUFFLE,
    QUANTUM_TUNNEL,
    SCHRODINGER,
    SPOOKY_ACTION,
    THE_MECHANIC,
    WAVE_FUNCTION_COLLAPSE,
)
# "Keep this card in your hand until you wish to play it"; the rest resolve at once.
KEPT_EVENTS = frozenset({BENNETT, HEISENBERG, QUANTUM_TUNNEL, THE_MECHANIC})
# Played as the Event action. Quantum Tunnel is kept but free: the engine offers it
# whenever a defence roll is due.
ACTION_EVENTS = frozenset({BENNETT, HEISENBERG, THE_MECHANIC})

# Translators: A card's effect, one sentence on the card screen and the page.
EVENT_TEXT = {
    BENNETT: N_("Move one component between the ships (Event action)."),
    BIT_FLIP_ERROR: N_("Detection token to the first 4."),
    HEISENBERG: N_("Roll d8, both ships jump around the ring; no defences (Event action)."),
    QUANTUM_SHUFFLE: N_("Rebuild the event deck, then draw again."),
    QUANTUM_TUNNEL: N_("Skip one orbital or ground defence roll (free)."),
    SCHRODINGER: N_("Detection +1."),
    SPOOKY_ACTION: N_("One of your components teleports to a free planet."),
    THE_MECHANIC: N_("Draw 3 engine cards, play up to 2, no orbital defences (Event action)."),
    WAVE_FUNCTION_COLLAPSE: N_("Detection -2."),
}

PHYSICAL_QUBITS = "physical_qubits"
QUBIT_INTERCONNECT = "qubit_interconnect"
DILUTION_REFRIGERATOR = "dilution_refrigerator"
QUANTUM_GATES = "quantum_gates"
QUANTUM_PROGRAMMING = "quantum_programming"
QUANTUM_ERROR_CORRECTION = "quantum_error_correction"
CONTROL_INFRASTRUCTURE = "control_infrastructure"
MAGNETIC_SHIELDING = "magnetic_shielding"

COMPONENTS = (
    PHYSICAL_QUBITS,
    QUBIT_INTERCONNECT,
    DILUTION_REFRIGERATOR,
    QUANTUM_GATES,
    QUANTUM_PROGRAMMING,
    QUANTUM_ERROR_CORRECTION,
    CONTROL_INFRASTRUCTURE,
    MAGNETIC_SHIELDING,
)
HINDRANCES = frozenset({DILUTION_REFRIGERATOR, CONTROL_INFRASTRUCTURE})

# Translators: A component's effect, one sentence on the card screen and the page.
COMPONENT_TEXT = {
    PHYSICAL_QUBITS: N_("When detected in orbit, choose each ship's Centarious planet."),
    QUBIT_INTERCONNECT: N_("Start of turn, ships together: trade one engine card (free)."),
    DILUTION_REFRIGERATOR: N_("Hindrance: hand limit 2; discard one on retrieval."),
    QUANTUM_GATES: N_("Exchange: draw 2, keep 1."),
    QUANTUM_PROGRAMMING: N_("No orbital defences on planets without a component."),
    QUANTUM_ERROR_CORRECTION: N_("+1 to defence rolls."),
    CONTROL_INFRASTRUCTURE: N_("Hindrance: -1 to defence rolls."),
    MAGNETIC_SHIELDING: N_("May re-roll the Entanglion die once."),
}

# Detection-rate track, spaces 1..12; the last space is X (the game is lost).
TRACK = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, "X")
LAST_SPACE = len(TRACK)  # 12
BIT_FLIP_SPACE = 6  # the first "4"
START_SPACES = (1, 2, 4)  # easy "1", easy "2" (first 2), challenging "3" (first 3)


def track_value(space: int) -> int | str:
    return TRACK[space - 1]


def pretty(name: str) -> str:
    """``quantum_tunnel`` -> ``Quantum Tunnel``; ``PHI_PLUS`` -> ``PHI PLUS``."""
    if name.isupper():
        return name.replace("_", " ")
    return name.replace("_", " ").title().replace("Schrodinger", "Schrödinger")
