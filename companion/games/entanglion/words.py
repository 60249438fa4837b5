"""Entanglion's proper names in the table's language: planets, components, events.

The Polish edition keeps the names printed on the board and cards; the Czech edition
translates most of them; a Japanese table reads the proposals in the translators'
notes (``docs/translating.md``). Either way the choice lives in the catalogs: the
code only marks the English names and asks for them here.
"""

from __future__ import annotations

from ...i18n import NC_, N_, for_catalog
from .cards import pretty

_, _ngettext, pgettext = for_catalog("entanglion")


# Translators: The cards', planets' and galaxies' names as your edition prints them (the
# full name; the OLED's short forms have the context "short").
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


# The card names glossed on the card screen, marked in their own context (the catalogs
# need each literal).
_GLOSSED = (
    # Translators: "gloss" is the card's name in your words, shown under the name as
    # printed where your edition keeps the printed English name (21 characters); where
    # you translate the name itself, give the same words as the name.
    NC_("gloss", "Physical Qubits"),
    NC_("gloss", "Qubit Interconnect"),
    NC_("gloss", "Dilution Refrigerator"),
    NC_("gloss", "Quantum Gates"),
    NC_("gloss", "Quantum Programming"),
    NC_("gloss", "Quantum Error Correction"),
    NC_("gloss", "Control Infrastructure"),
    NC_("gloss", "Magnetic Shielding"),
    NC_("gloss", "Bennett"),
    NC_("gloss", "Bit Flip Error"),
    NC_("gloss", "Heisenberg"),
    NC_("gloss", "Quantum Shuffle"),
    NC_("gloss", "Quantum Tunnel"),
    NC_("gloss", "Schrödinger"),
    NC_("gloss", "Spooky Action"),
    NC_("gloss", "The Mechanic"),
    NC_("gloss", "Wave Function Collapse"),
)


def name(key: str) -> str:
    """A planet's, component's or event's full name, in the current language."""
    return _(NAMES[key]) if key in NAMES else pretty(key)


# Translators: "short" is a component's name where a line has little room (the status
# screen, the summaries, menus): about 14 characters; "Quantum Gates" is also the
# card's full name, which an edition may keep as printed while the short one is yours.
PART = {  # component names that fit a menu line
    "physical_qubits": NC_("short", "Phys. Qubits"),
    "qubit_interconnect": NC_("short", "Interconnect"),
    "dilution_refrigerator": NC_("short", "Refrigerator"),
    "quantum_gates": NC_("short", "Quantum Gates"),
    "quantum_programming": NC_("short", "Programming"),
    "quantum_error_correction": NC_("short", "Error Correct."),
    "control_infrastructure": NC_("short", "Control Infra."),
    "magnetic_shielding": NC_("short", "Mag. Shielding"),
}


def part(component: str) -> str:
    """A component's short name, in the current language."""
    return pgettext("short", PART[component])


def gloss(key: str) -> str:
    """A card's name in the table's own words, for the card screen to show under the
    printed name where the edition keeps that name in English (the Polish edition
    glosses it); "" where the name is already the table's words."""
    if key not in NAMES or NAMES[key] not in _GLOSSED:
        return ""
    own = pgettext("gloss", NAMES[key])
    return "" if own in (NAMES[key], name(key)) else own
