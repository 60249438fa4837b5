"""Entanglion's proper names in the table's language: planets, components, events.

The Polish edition keeps the names printed on the board and cards; the Czech edition
translates most of them; a Japanese table reads the proposals in the translators'
notes (``docs/translating.md``). Either way the choice lives in the catalogs: the
code only marks the English names and asks for them here.
"""

from __future__ import annotations

from ...i18n import N_, for_catalog
from .cards import pretty

_ = for_catalog("entanglion")[0]


NAMES = {  # full names of planets, components and events (the card screens, set-up)
    "ZERO": N_("ZERO"), "ONE": N_("ONE"), "PLUS": N_("PLUS"), "MINUS": N_("MINUS"),
    "PHI_PLUS": N_("PHI PLUS"), "PHI_MINUS": N_("PHI MINUS"), "PSI_PLUS": N_("PSI PLUS"),
    "PSI_MINUS": N_("PSI MINUS"), "OMEGA_ZERO": N_("OMEGA ZERO"), "OMEGA_ONE": N_("OMEGA ONE"),
    "OMEGA_TWO": N_("OMEGA TWO"), "OMEGA_THREE": N_("OMEGA THREE"),
    "physical_qubits": N_("Physical Qubits"), "qubit_interconnect": N_("Qubit Interconnect"),
    "dilution_refrigerator": N_("Dilution Refrigerator"),
    "quantum_gates": N_("Quantum Gates"), "quantum_programming": N_("Quantum Programming"),
    "quantum_error_correction": N_("Quantum Error Correction"),
    "control_infrastructure": N_("Control Infrastructure"),
    "magnetic_shielding": N_("Magnetic Shielding"),
    "bennett": N_("Bennett"), "bit_flip_error": N_("Bit Flip Error"),
    "heisenberg": N_("Heisenberg"), "quantum_shuffle": N_("Quantum Shuffle"),
    "quantum_tunnel": N_("Quantum Tunnel"), "schrodinger": N_("Schrödinger"),
    "spooky_action": N_("Spooky Action"), "the_mechanic": N_("The Mechanic"),
    "wave_function_collapse": N_("Wave Function Collapse"),
}


def name(key: str) -> str:
    """A planet's, component's or event's full name, in the current language."""
    return _(NAMES[key]) if key in NAMES else pretty(key)


PART = {  # component names that fit a menu line
    "physical_qubits": N_("Phys. Qubits"), "qubit_interconnect": N_("Interconnect"),
    "dilution_refrigerator": N_("Refrigerator"), "quantum_gates": N_("Quantum Gates"),
    "quantum_programming": N_("Programming"), "quantum_error_correction": N_("Error Correct."),
    "control_infrastructure": N_("Control Infra."), "magnetic_shielding": N_("Mag. Shielding"),
}


def part(component: str) -> str:
    """A component's short name, in the current language."""
    return _(PART[component])
