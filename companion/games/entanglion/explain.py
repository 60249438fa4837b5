"""Plain narration of the engine's log: what happened, and why.

One short sentence per log entry, for ``companion scenario --text``, bug reports and
the details pages of the box's notices (in the table's language there). Pure
functions of the log entries.
"""

from __future__ import annotations

from typing import Any, Iterable

from ...i18n import N_, for_catalog
from .cards import EVENTS, track_value
from .words import name

_ = for_catalog("entanglion")[0]

# Translators: What a roll was for, in a sentence of the page's log.
PURPOSES = {  # what a roll was for, inside a sentence
    "orbital defence": N_("orbital defence"), "ground defence": N_("ground defence"),
    "probe": "PROBE", "heisenberg": N_("Heisenberg"), "spooky action": N_("Spooky Action"),
    "first player": N_("first player"), "ship placement": N_("ship placement"),
    "orbital detection jump": N_("evasive jump"),
}
# Translators: A roll's outcome, one word in a sentence of the page's log.
RESULTS = {
    "detected": N_("detected"), "evaded": N_("evaded"), "retrieved": N_("retrieved"),
    "no effect": N_("no effect"),
}
# Translators: A defence check named in a sentence of the page's log.
REASONS = {  # why the detection rate moved, or why a card was discarded
    "orbital defence": N_("orbital defence"), "ground defence": N_("ground defence"),
    "probe": "PROBE", "dilution refrigerator": N_("Dilution Refrigerator"),
}


def _word(table: dict[str, str], key: str) -> str:
    return _(table[key]) if key in table else key


# Translators: The box itself as the one who acts, in a sentence of the page's log.
def _ship(ship: str | None) -> str:
    return ship.capitalize() if ship else _("The box")


def _card(card: str) -> str:
    """An engine card as printed (X, CNOT) or an event's name."""
    return card if card.isupper() else name(card)


def _where(pos: list[str]) -> str:
    m, r = pos
    if m == r:
        return _("both ships at {planet}").format(planet=name(m))
    return _("Mercurial at {m}, Rubicon at {r}").format(m=name(m), r=name(r))


# Translators: Who goes first after the opening roll, a sentence of the page's log.
def _roll(e: dict[str, Any]) -> str:
    who = _ship(e["player"])
    if e["die"] == "centarious":
        return _("{ship} rolls the Centarious die: {face} -> {planet}.").format(
            ship=who, face=e['raw'], planet=name(e['result']))
    text = _("{ship} rolls the d8 for {purpose}: {face}").format(
        ship=who, purpose=_word(PURPOSES, e['purpose']), face=e['raw'])
    if "reroll" in e:
        text += _(", re-rolls (Magnetic Shielding): {face}").format(face=e['reroll'])
    if e["modifier"]:
        text += f", {e['modifier']:+d} -> {e['modified']}"
    if "beat" in e:
        text += _(" (needs more than {beat})").format(beat=e['beat'])
    result = e.get("result")
    if result is None:
        return text + "."
    if e["purpose"] == "first player":
        if result == "tie":
            return _("{roll}: a tie, roll again.").format(roll=text)
        return (_("{roll}: goes first.") if result == "first" else
                _("{roll}: goes second.")).format(roll=text)
    if e["purpose"] in ("heisenberg", "spooky action"):
        return f"{text} -> {name(result)}."
    return f"{text}: {_word(RESULTS, result)}."


# Translators: The sentences of the page's log, one per input (the page wraps a long one).
def explain(e: dict[str, Any]) -> str:
    """One sentence for one log entry."""
    t, who = e["type"], _ship(e.get("player"))
    if t == "setup":
        return _("Set-up: detection rate starts at space {space}.").format(space=e['detection'])
    if t == "turn":
        return _("-- Turn {number}: {ship} --").format(number=e['number'], ship=who)
    if t == "action":
        do, card = e["do"], e.get("card")
        if do == "navigate":
            return _("{ship} plays {card}.").format(ship=who, card=card)
        if do == "exchange":
            return _("{ship} exchanges {card}.").format(ship=who, card=card)
        if do == "retrieve":
            return _("{ship} sends an away team to retrieve the component.").format(ship=who)
        if do == "event":
            return _("{ship} plays {card}.").format(ship=who, card=name(card))
        return _("{ship} passes (nothing else is possible).").format(ship=who)
    if t == "move":
        cause = e["cause"]
        if cause == "orbital detection":
            return _("Detected! Evasive jump: {where}.").format(where=_where(e['to']))
        return f"{_card(cause)}: {_where(e['to'])}."
    if t == "no_effect":
        return _("{card} has no effect here.").format(card=_card(e["card"]))
    if t == "draw":
        if e["card"] is None:
            return _("{ship} cannot draw: no engine cards left.").format(ship=who)
        return _("{ship} draws {card}.").format(ship=who, card=e['card'])
    if t == "roll":
        return _roll(e)
    if t == "detection":
        value = track_value(e["space"])
        reason = name(e["reason"]) if e["reason"] in EVENTS else _word(REASONS, e["reason"])
        return _("Detection rate -> space {space} (value {value}): {reason}.").format(
            space=e['space'], value=value, reason=reason)
    if t == "quantum_event":
        return _("Quantum event.")
    if t == "event":
        card = name(e["card"])
        if "defence" in e:
            return (_("{ship} plays Quantum Tunnel: no orbital defence roll.")
                    if e["defence"] == "orbital" else
                    _("{ship} plays Quantum Tunnel: no ground defence roll.")).format(ship=who)
        if e.get("kept"):
            return _("{ship} draws {card} and keeps it.").format(ship=who, card=card)
        if "note" in e:
            return _("{ship} draws {card} (discarded: hand limit).").format(ship=who, card=card)
        return _("{ship} draws {card}.").format(ship=who, card=card)
    if t == "engine_control_cleared":
        return _("Engine control is cleared.")
    if t == "retrieved":
        return _("{ship} retrieves {component} from {planet}.").format(
            ship=who, component=name(e['component']), planet=name(e['planet']))
    if t == "teleported":
        return _("{component} teleports from {ship}'s ship to {planet}.").format(
            component=name(e['component']), ship=who, planet=name(e['planet']))
    if t == "transfer":
        return _("Bennett: {component} moves from {giver} to {taker}.").format(
            component=name(e['component']), giver=_ship(e['from']), taker=_ship(e['to']))
    if t == "keep":
        return _("{ship} keeps {card}, discards {discarded}.").format(
            ship=who, card=e['card'], discarded=', '.join(e['discarded']) or _("nothing"))
    if t == "discard":
        return _("{ship} discards {card} ({reason}).").format(
            ship=who, card=e['card'], reason=_word(REASONS, e['reason']))
    if t == "bypass":
        return _("{component}: no orbital defence at {planet}.").format(
            component=name(e['by']), planet=name(e['planet']))
    if t == "interconnect":
        return _("Qubit Interconnect: {ship} gives {give} and takes {take}.").format(
            ship=who, give=e['give'], take=e['take'])
    if t == "reshuffle":
        return (_("The engine deck is reshuffled ({n} cards).") if e["deck"] == "engine" else
                _("The event deck is reshuffled ({n} cards).")).format(n=e['cards'])
    if t == "game_over":
        return (_("Game over: WON, {reason}.") if e["status"] == "won" else
                _("Game over: LOST, {reason}.")).format(reason=_(str(e["reason"])))
    return f"{t}: {e}"  # pragma: no cover - every type above; keeps new types visible


def narrate(log: Iterable[dict[str, Any]]) -> list[str]:
    return [explain(e) for e in log]
