"""Game options: difficulty, dice mode, and every ruling where the sources disagree.

This is the one place each disputed point (``Q1``..``Q20`` of
``docs/rules/entanglion.md``, which explains each) is defined. Defaults are the
recommended rulings. Options are plain JSON values so a game's options travel with
its state and its journal.
"""

from __future__ import annotations

from typing import Any

from ...i18n import NC_
from ..rulings import Choice, OptionError, make
from ..rulings import describe as describe_rulings
from .cards import START_SPACES

__all__ = ["RULINGS", "Choice", "OptionError", "make_options", "describe"]


RULINGS: dict[str, Choice] = {
    # -- set-up and modes (not disputed) --------------------------------------------
    "start_space": Choice(
        1, START_SPACES,
        "Q11. Difficulty: detection track start space. Easy '1' = space 1, easy '2' = "
        "space 2 (the first 2), challenging '3' = space 4 (the first 3).",
        words=(NC_("ruling", "difficulty"), {
            1: NC_("ruling", "easy, track at 1"),
            2: NC_("ruling", "easy, track at 2"),
            4: NC_("ruling", "hard, track at 3")}),
    ),
    "dice": Choice(
        "auto", ("auto", "manual"),
        "auto: the engine rolls. manual: players roll real dice and every roll becomes "
        "a 'roll' prompt answered with the number shown.",
        words=(NC_("ruling", "dice"), {
            "auto": NC_("ruling", "box rolls"),
            "manual": NC_("ruling", "real dice")}),
    ),
    "deck": Choice(
        "virtual", ("virtual", "physical"),
        "virtual: the engine shuffles and deals; players take the named card from an "
        "open supply. physical: players shuffle and draw real cards, and every draw "
        "becomes a 'draw' prompt answered with the card drawn (the box trusts the "
        "card: a PROBE drawn early is a PROBE).",
        words=(NC_("ruling", "cards"), {
            "virtual": NC_("ruling", "box deals"),
            "physical": NC_("ruling", "real cards")}),
    ),
    # -- rulings ----------------------------------------------------------------------
    "spooky_action_count": Choice(
        "unoccupied", ("unoccupied", "all_planets"),
        "Q1. unoccupied: list the planets without a component clockwise, starting with "
        "the one after OMEGA ZERO and ending with OMEGA ZERO; roll r picks entry "
        "(r-1) mod n (equals the errata count when all are free). all_planets: count "
        "like Heisenberg; if that planet holds a component, go on clockwise to the "
        "next free one.",
        words=(NC_("ruling", "Spooky Action count"), {
            "unoccupied": NC_("ruling", "free planets"),
            "all_planets": NC_("ruling", "all planets")}),
    ),
    "component_scope": Choice(
        "ship", ("ship", "team"),
        "Q2 and Q20. ship: a component helps or hinders only actions and rolls of the "
        "player whose ship holds it (for orbital detection: the navigating player). "
        "team: house rule, components on either ship apply to both players.",
        words=(NC_("ruling", "components help"), {
            "ship": NC_("ruling", "own ship"),
            "team": NC_("ruling", "both ships")}),
    ),
    "bit_flip_error": Choice(
        "set", ("set", "only_lower"),
        "Q3. set: the token goes to the first 4 (space 6) even when that raises it. "
        "only_lower: it never raises the rate.",
        words=(NC_("ruling", "Bit Flip Error"), {
            "set": NC_("ruling", "sets the track"),
            "only_lower": NC_("ruling", "only lowers")}),
    ),
    "modifiers_on_all_rolls": Choice(
        False, (False, True),
        "Q4. False: Quantum Error Correction (+1) and Control Infrastructure (-1) modify "
        "only defence checks (orbital, ground, PROBE). True: also Heisenberg and Spooky "
        "Action rolls. Magnetic Shielding may re-roll any Entanglion-die roll either way.",
        words=(NC_("ruling", "roll modifiers"), {
            False: NC_("ruling", "defence only"),
            True: NC_("ruling", "all rolls")}),
    ),
    "mechanic_fills_slots": Choice(
        False, (False, True),
        "Q5. False: cards played with The Mechanic move the ship and go to the engine "
        "discard; they fill no engine-control slot and draw no replacement. True: they "
        "go into engine control; cards beyond slot 6 go to the discard; still at most "
        "one end-of-turn event.",
        words=(NC_("ruling", "Mechanic's cards"), {
            False: NC_("ruling", "to the discard"),
            True: NC_("ruling", "fill slots")}),
    ),
    "quantum_shuffle_gathers": Choice(
        "deck_and_discard", ("deck_and_discard", "all_events"),
        "Q6. deck_and_discard: rebuild from the draw pile and the event discard; events "
        "held in hands stay there. all_events: held events go back into the deck too.",
        words=(NC_("ruling", "Quantum Shuffle"), {
            "deck_and_discard": NC_("ruling", "deck and discard"),
            "all_events": NC_("ruling", "all events")}),
    ),
    "detection_event_clears_engine_control": Choice(
        True, (False, True),
        "Q7. Every quantum event, including one caused by orbital detection, clears "
        "engine control to the engine discard.",
        words=(NC_("ruling", "detection event"), {
            True: NC_("ruling", "clears engine"),
            False: NC_("ruling", "keeps engine")}),
    ),
    "double_event": Choice(
        True, (False, True),
        "Q8. True: if slot 6 was filled this turn, the end-of-turn event happens even "
        "when a detection event already cleared engine control (two events). False: "
        "only if engine control is still full at the end of the turn.",
        words=(NC_("ruling", "double event"), {
            True: NC_("ruling", "allowed"),
            False: NC_("ruling", "never")}),
    ),
    "detection_order": Choice(
        "jump_raise_event", ("jump_raise_event", "jump_event_raise"),
        "Q9. Orbital detection: jump to the Centarious planet, raise the rate (reaching "
        "X loses at once, before the event), then the quantum event. The alternative "
        "draws the event before raising the rate.",
        words=(NC_("ruling", "detection order"), {
            "jump_raise_event": NC_("ruling", "raise, then event"),
            "jump_event_raise": NC_("ruling", "event, then raise")}),
    ),
    "tunnel_timing": Choice(
        "before_roll", ("before_roll", "after_failure"),
        "Q10. before_roll: Quantum Tunnel must be declared before the defence die is "
        "rolled (the engine asks then). after_failure: house rule, it may cancel a "
        "failed roll instead.",
        words=(NC_("ruling", "Quantum Tunnel"), {
            "before_roll": NC_("ruling", "before the roll"),
            "after_failure": NC_("ruling", "after a failure")}),
    ),
    "bennett_dilution_refrigerator": Choice(
        "rebalance", ("rebalance", "next_draw"),
        "Q12. rebalance: when Bennett moves the Dilution Refrigerator, the receiver "
        "discards down to 2 at once and the giver draws back up to 3 at once. "
        "next_draw: hands only adjust through later replacement draws.",
        words=(NC_("ruling", "Bennett and fridge"), {
            "rebalance": NC_("ruling", "hands at once"),
            "next_draw": NC_("ruling", "on later draws")}),
    ),
    "cnot_phase_kickback": Choice(
        False, (False, True),
        "Q13. False: the board is the authority; CNOT with both ships in Superious does "
        "nothing. True: physics; from MINUS it flips the other ship PLUS<->MINUS.",
        words=(NC_("ruling", "CNOT kickback"), {
            False: NC_("ruling", "as the board"),
            True: NC_("ruling", "as physics")}),
    ),
    "wave_function_collapse_floor": Choice(
        "clamp", ("clamp", "no_effect"),
        "Q14. clamp: -2 spaces but never below space 1. no_effect: the card does "
        "nothing when it would go below space 1.",
        words=(NC_("ruling", "Collapse below 1"), {
            "clamp": NC_("ruling", "stops at 1"),
            "no_effect": NC_("ruling", "no effect")}),
    ),
    "interconnect_anywhere": Choice(
        True, (False, True),
        "Q15. True: Qubit Interconnect works whenever both ships orbit the same planet, "
        "in any galaxy. False: only inside Entanglion.",
        words=(NC_("ruling", "Qubit Interconnect"), {
            True: NC_("ruling", "any galaxy"),
            False: NC_("ruling", "Entanglion only")}),
    ),
    "heisenberg_from_outside": Choice(
        True, (False, True),
        "Q16. True: Heisenberg may be played from outside Entanglion (and to the planet "
        "the ships are already on, which moves nothing); never an orbital check. False: "
        "only while inside Entanglion.",
        words=(NC_("ruling", "Heisenberg outside"), {
            True: NC_("ruling", "allowed"),
            False: NC_("ruling", "not allowed")}),
    ),
    "event_hand_limit": Choice(
        None, (None, 1, 2, 3, 4),
        "Q17. None: no limit on kept event cards (they cannot be traded; only the "
        "holder plays them on their own turn). A number: a kept event beyond it is "
        "discarded instead.",
        words=(NC_("ruling", "events kept"), {
            None: NC_("ruling", "no limit")}),
    ),
    "quantum_programming": Choice(
        "no_component", ("no_component", "retrieved_here"),
        "Q18. no_component (English book): no orbital check when arriving at a planet "
        "that holds no component. retrieved_here (Czech text): only planets whose "
        "component has been retrieved.",
        words=(NC_("ruling", "Quantum Programming"), {
            "no_component": NC_("ruling", "no component"),
            "retrieved_here": NC_("ruling", "retrieved here")}),
    ),
    "quantum_programming_on_cnot_entry": Choice(
        True, (False, True),
        "Q19. True: Quantum Programming also covers arrival by CNOT entry.",
        words=(NC_("ruling", "Programming on CNOT"), {
            True: NC_("ruling", "covered"),
            False: NC_("ruling", "not covered")}),
    ),
}


def make_options(given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Complete options dict with defaults; raises OptionError on unknown keys or values."""
    return make(RULINGS, given)


def describe() -> str:
    """All options with defaults and documentation, for ``companion rules``/docs."""
    return describe_rulings(RULINGS)
