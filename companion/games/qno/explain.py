"""A QNO game in sentences, from its report: English for ``companion scenario --text``,
the table's language on the web page (which passes the box's card names)."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from ...i18n import N_, for_catalog
from .cards import label

_, ngettext, pgettext = for_catalog("qno")


REASONS = {  # Translators: why a player draws; {n} is the number of cards
    "draw": N_("  Player {player} draws {n}."),
    "draw_two": N_("  Player {player} draws {n} (Draw Two)."),
    "h_reward": N_("  Player {player} draws {n} (H guessed right)."),
    "h_penalty": N_("  Player {player} draws {n} (H guessed wrong)."),
    "caught": N_("  Player {player} draws {n} (caught without QNO!)."),
}


# Translators: How the box knows the hands (the set-up's choice), in a sentence of the
# page's log.
HANDS = {"tracked": N_("tracked"), "honour": N_("on honour")}
DETAIL = {
    "skip": N_("  Player {player} is skipped."), "reverse": N_("  Direction reversed."),
    "reshuffle": N_("  Discards reshuffled into a new pile ({count})."),
    "qno": N_("  QNO! Player {player} has one card."),
    "call": N_("  Player {player} calls QNO!"),
    "caught": N_("  Player {player} is caught without QNO!"),
    "no_cards": N_("  No cards left to draw for player {player}."),
    "retrigger": N_("  {action} fires again."),
}


# Translators: A sentence of the page's log: the start card turned up.
def narrate(result: dict[str, Any], label: Callable[[str], str] = label) -> Iterator[str]:
    """The log in sentences; ``label`` names a card (the page passes the box's own,
    whose action words are in the table's language)."""
    for e in result["log"]:
        t, p = e["type"], e.get("player")
        if t == "setup":
            yield _("{players} players, hands {hands}; player {first} starts.").format(
                players=e["players"], hands=_(HANDS.get(e["hands"], e["hands"])),
                first=e["first"])
        elif t == "start_gate":
            yield _("{card} turned up: a gate cannot start ({how}).").format(
                card=e["card"], how=e["how"])
        elif t == "start":
            yield _("Start card {card}.").format(card=label(e["card"]))
        elif t == "turn":
            yield _("Turn {number}: player {player}.").format(number=e["number"], player=p)
        elif t == "play":
            yield _("  Player {player} plays {card}.").format(player=p, card=label(e["card"]))
        elif t == "draw":
            yield _("  Player {player} cannot play and draws.").format(player=p)
        elif t == "drew" and e["reason"] != "deal":
            # Looked up first: an older Babel would extract a literal inside _()'s subscript.
            why = REASONS.get(e["reason"], REASONS["draw"])
            yield _(why).format(player=p, n=e["count"])
        elif t == "gate":
            yield _("  {card} on q{qubit}: |{before}> becomes |{after}>.").format(
                card=e["card"], qubit=e["qubit"], before=e["before"], after=e["after"])
        elif t == "measured":
            yield _("  H on q{qubit} makes {state}; measured.").format(
                qubit=e["qubit"], state=e["superposition"])
        elif t == "reveal":
            yield (_("  It reads |{result}>; player {player} guessed |{guess}>: right.")
                   if e["right"] else
                   _("  It reads |{result}>; player {player} guessed |{guess}>: wrong.")
                   ).format(result=e["result"], player=p, guess=e["guess"])
        elif t in DETAIL:
            yield _(DETAIL[t]).format(player=p, count=e.get("count"), action=e.get("action"))
        elif t == "game_over":
            why = e["reason"]
            yield _("Game over: player(s) {players} win ({reason}).").format(
                # Translators: between the items of a list on one line (Japanese: 、).
                players=_(", ").join(map(str, e["winners"])), reason=_(why))
    if result["pending"]:
        yield _("Waiting for player {player}: {kind}.").format(
            player=result["pending"]["player"], kind=result["pending"]["kind"])
    yield "Circuit:"
    yield from result["circuit_text"].splitlines()
