"""QNO's options: the table size, how much the box knows, and every ruling.

Rulings are numbered as in ``docs/rules/qno.md``, which explains each of them.
Defaults are its recommended rulings. The original's crashes and hangs (a gate start
card, an empty draw pile) are bugs, not rulings, and have no option. Rulings 10-13
(Draw Two without stacking, the H reward and penalty, any fair coin for H, matching
the new state after a gate) have one sensible reading and are fixed.
"""

from __future__ import annotations

from typing import Any

from ...i18n import NC_
from ..rulings import Choice, OptionError, make
from ..rulings import describe as describe_rulings

__all__ = ["RULINGS", "Choice", "OptionError", "make_options", "describe"]

RULINGS: dict[str, Choice] = {
    # -- set-up and modes ---------------------------------------------------------------
    "players": Choice(
        2, (2, 3, 4, 5, 6),
        "15. Number of players: 2-4 as the original; 5 and 6 are allowed (the 112-card "
        "deck copes).",
        words=(NC_("ruling", "players"), {}),
    ),
    "hands": Choice(
        "tracked", ("tracked", "honour"),
        "4. tracked: players tap every card they are dealt or draw, so the box knows each "
        "hand (and never shows it) and enforces 'must play if able'. honour: only plays "
        "are tapped; the box counts cards, and drawing while able to play is on the "
        "players' honour.",
        words=(NC_("ruling", "hands"), {
            "tracked": NC_("ruling", "tracked"),
            "honour": NC_("ruling", "on honour")}),
    ),
    # -- rulings ------------------------------------------------------------------------
    "start_gate": Choice(
        "bury", ("bury", "reshuffle"),
        "1. A gate turned up as the start card: bury it in the middle of the draw pile "
        "and turn the next card; reshuffle: shuffle the whole draw pile and turn again.",
        words=(NC_("ruling", "gate start card"), {
            "bury": NC_("ruling", "buried"),
            "reshuffle": NC_("ruling", "reshuffled")}),
    ),
    "start_action": Choice(
        "apply", ("apply", "ignore"),
        "2. An action start card: apply it to player 1 at once (Skip: player 1 is "
        "skipped; Draw Two: player 1 draws 2 and then plays; Reverse: play runs "
        "descending and player 1 still starts); ignore: it is a plain card.",
        words=(NC_("ruling", "action start card"), {
            "apply": NC_("ruling", "applies"),
            "ignore": NC_("ruling", "plain card")}),
    ),
    "drawn_card": Choice(
        "turn_ends", ("turn_ends", "may_play", "draw_until_playable"),
        "3. A player who cannot play draws 1 and the turn ends; may_play: they may play "
        "the drawn card at once if it fits; draw_until_playable: they keep drawing until "
        "they can play (the GUI's rule).",
        words=(NC_("ruling", "drawn card"), {
            "turn_ends": NC_("ruling", "turn ends"),
            "may_play": NC_("ruling", "may play it"),
            "draw_until_playable": NC_("ruling", "draw until able")}),
    ),
    "must_play": Choice(
        True, (True, False),
        "4. Must play if able (enforced when hands are tracked). False: a player may "
        "draw instead of playing (the GUI's 'free drawing').",
        words=(NC_("ruling", "must play if able"), {
            True: NC_("ruling", "yes"),
            False: NC_("ruling", "free drawing")}),
    ),
    "retrigger_actions": Choice(
        False, (False, True),
        "5. False: an action acts once, when played. True: the original's behaviour, "
        "where every player who draws instead of playing fires the action on top again.",
        words=(NC_("ruling", "actions act"), {
            False: NC_("ruling", "once"),
            True: NC_("ruling", "on every draw")}),
    ),
    "win_check": Choice(
        "after_resolution", ("after_resolution", "on_empty"),
        "6. after_resolution: the played card resolves fully (an H guess and its reward "
        "or penalty, a Draw Two) before the mover's empty hand wins. on_empty: the GUI's "
        "rule, the hand emptying wins at once and a last gate is not resolved.",
        words=(NC_("ruling", "win check"), {
            "after_resolution": NC_("ruling", "after resolving"),
            "on_empty": NC_("ruling", "on empty hand")}),
    ),
    "qno_call": Choice(
        "auto", ("auto", "call_or_catch"),
        "7. auto: the box announces QNO! when a player drops to 1 card. call_or_catch: "
        "the player must call it before the next play or draw; anyone who catches an "
        "uncalled QNO makes them draw 2.",
        words=(NC_("ruling", "QNO call"), {
            "auto": NC_("ruling", "by the box"),
            "call_or_catch": NC_("ruling", "call or catch")}),
    ),
    "empty_pile": Choice(
        "reshuffle", ("reshuffle", "fewest_cards"),
        "8. reshuffle: when a draw finds the pile empty, every discard except the top "
        "card is shuffled into a new pile (the box keeps the effective top state). "
        "fewest_cards: the game ends and the fewest cards in hand wins (ties share).",
        words=(NC_("ruling", "empty pile"), {
            "reshuffle": NC_("ruling", "reshuffle"),
            "fewest_cards": NC_("ruling", "fewest cards win")}),
    ),
    "two_player_reverse": Choice(
        "no_effect", ("no_effect", "skip"),
        "9. With two players a Reverse only flips the direction, so the opponent still "
        "moves next; skip: UNO's rule, a Reverse acts as a Skip.",
        words=(NC_("ruling", "Reverse for two"), {
            "no_effect": NC_("ruling", "no effect"),
            "skip": NC_("ruling", "acts as Skip")}),
    ),
    "first_player": Choice(
        "player1", ("player1", "random"),
        "16. player1 starts; random: the box draws a dealer and the player after the "
        "dealer starts.",
        words=(NC_("ruling", "first player"), {
            "player1": NC_("ruling", "player 1"),
            "random": NC_("ruling", "random")}),
    ),
}


def make_options(given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Complete options dict with defaults; raises OptionError on unknown keys or values."""
    return make(RULINGS, given)


def describe() -> str:
    """All options with defaults and documentation, for ``companion rules``."""
    return describe_rulings(RULINGS)
