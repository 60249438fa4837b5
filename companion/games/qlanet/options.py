"""Game options: hand size, refills, the opening, and every ruling the sources leave open.

This is the one place each decision point of QLANET (``C1`` and ``D1``..``D16`` of
``docs/rules/qlanet.md``, which explains each) is defined. Defaults are the
recommended rulings. Rulings that real quantum mechanics settles (D7 H on entangled
planets, D8 entanglement made by CX, D9 phase kick-back, D10 entanglement swapping)
are not options: the simulator is the physics. Options are plain JSON values so a
game's options travel with its state and its journal.
"""

from __future__ import annotations

from typing import Any

from ...i18n import NC_
from ..rulings import Choice, OptionError, make
from ..rulings import describe as describe_rulings

__all__ = ["RULINGS", "Choice", "OptionError", "make_options", "describe"]


RULINGS: dict[str, Choice] = {
    "hand_size": Choice(
        4, (3, 4, 5, 6),
        "D1. Cards each player holds face up (the app's lobby setting; 4 in the text).",
        words=(NC_("ruling", "hand size"), {}),
    ),
    "refill": Choice(
        "supply", ("supply", "deck"),
        "D2. supply: every refill is one of the 8 card types at random, equally likely "
        "(an endless open supply; the device says which card to take). deck: a "
        "shuffled deck of 6 of each type (48); played and discarded cards go to a "
        "discard pile that is reshuffled when the deck runs out.",
        words=(NC_("ruling", "refills"), {
            "supply": NC_("ruling", "open supply"),
            "deck": NC_("ruling", "shuffled deck")}),
    ),
    "cx_cost": Choice(
        3, (3, 2),
        "C1. Cost of CX0 and CX1: 3 (rules text and app card) or 2 (the old web page).",
        words=(NC_("ruling", "CX cost"), {}),
    ),
    "opening": Choice(
        "hidden_centre", ("hidden_centre", "public_centre"),
        "D3. hidden_centre: the four mirrored pairs (1&9, 2&8, 3&7, 4&6) are each + or "
        "- at random, and the centre (5) is 0, 1, + or - at random, known to nobody "
        "but the device (as in the app). public_centre: the centre is a public random "
        "+ or - like the rest.",
        words=(NC_("ruling", "opening"), {
            "hidden_centre": NC_("ruling", "hidden centre"),
            "public_centre": NC_("ruling", "public centre")}),
    ),
    "first_player": Choice(
        "random", ("random", 0, 1),
        "D4. random: the device draws the first camp and announces it. 0 or 1: that "
        "camp starts (the app's opening shows player 0 to move).",
        words=(NC_("ruling", "first camp"), {
            "random": NC_("ruling", "random")}),
    ),
    "two_planet_targets": Choice(
        "any", ("any", "adjacent"),
        "D5. any: a two-planet card takes any two different planets; for CX the first "
        "is the control. adjacent: house rule, the two must be side by side in the "
        "grid (not diagonal).",
        words=(NC_("ruling", "two-planet cards"), {
            "any": NC_("ruling", "any two"),
            "adjacent": NC_("ruling", "side by side")}),
    ),
    "fixed_planets": Choice(
        "untargetable", ("untargetable", "cx_control"),
        "D6. untargetable: no card may target a fixed planet. cx_control: a fixed "
        "planet may still be the control (first planet) of CX0/CX1, which is "
        "physically harmless: it flips the target or not and stays fixed.",
        words=(NC_("ruling", "fixed planets"), {
            "untargetable": NC_("ruling", "untargetable"),
            "cx_control": NC_("ruling", "CX control")}),
    ),
    "bm_outcome": Choice(
        "uniform_secret", ("uniform_secret", "born"),
        "D11. uniform_secret (default): the pair ends in one of the four Bell states "
        "with equal chance whatever the inputs (a secret Pauli after the measurement), "
        "so the entangled state is a secret code only the BM player knows, as the rules "
        "call it. born: BM is a plain Bell measurement; the code follows the Born rule, "
        "so a pair made from planets known to be 0/1 (or +/-) shows everyone the parity "
        "(or the phase) half of the code, and only the other half stays secret.",
        words=(NC_("ruling", "BM outcome"), {
            "uniform_secret": NC_("ruling", "secret code"),
            "born": NC_("ruling", "Born rule")}),
    ),
    "no_legal_play": Choice(
        "discard_pay", ("discard_pay", "discard_free"),
        "D12. With no legal play the player discards one card of their choice without "
        "effect and refills. discard_pay: they also pay its cost, so a stuck player "
        "cannot keep the turn for ever. discard_free: no cost.",
        words=(NC_("ruling", "no legal play"), {
            "discard_pay": NC_("ruling", "discard and pay"),
            "discard_free": NC_("ruling", "discard free")}),
    ),
    "simultaneous_win": Choice(
        "non_mover", ("non_mover", "both"),
        "D13. If both camps meet a win condition after the same turn (impossible "
        "under the default rulings, possible only from a set-up board): non_mover: "
        "the player who did not move wins. both: both win (a shared win).",
        words=(NC_("ruling", "double win"), {
            "non_mover": NC_("ruling", "non-mover wins"),
            "both": NC_("ruling", "both win")}),
    ),
    "move_cap": Choice(
        None, (None, 40, 60, 80, 100, 200),
        "D14. None: no limit. A number: after that many moves without a winner the "
        "game ends: more planets fixed to your camp wins, then the lower total, "
        "else both win (a draw).",
        words=(NC_("ruling", "move limit"), {
            None: NC_("ruling", "no limit")}),
    ),
    "cost_cap": Choice(
        None, (None, 100, 150, 200, 300),
        "D14. None: no limit. A number: once both totals have reached it without a "
        "winner the game ends as for move_cap.",
        words=(NC_("ruling", "cost limit"), {
            None: NC_("ruling", "no limit")}),
    ),
    "secret_pairs": Choice(
        "hidden", ("hidden", "entangled"),
        "D15/D16. What a viewer who lacks a pair's code sees on two planets surely "
        "entangled with each other. hidden: '?' (as the app shows the opponent). "
        "entangled: the entangled icon and the partner, without the code.",
        words=(NC_("ruling", "secret pairs"), {
            "hidden": NC_("ruling", "hidden"),
            "entangled": NC_("ruling", "shown entangled")}),
    ),
}


def make_options(given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Complete options dict with defaults; raises OptionError on unknown keys or values."""
    return make(RULINGS, given)


def describe() -> str:
    """All options with defaults and documentation, for ``companion rules``."""
    return describe_rulings(RULINGS)
