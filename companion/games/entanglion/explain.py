"""Plain-English narration of the engine's log: what happened, and why.

One short sentence per log entry, for ``companion scenario --text``, bug reports and,
later, the messages on the box's screen. Pure functions of the log entries.
"""

from __future__ import annotations

from typing import Any, Iterable

from .cards import EVENTS, pretty, track_value


def _ship(name: str | None) -> str:
    return name.capitalize() if name else "The box"


def _where(pos: list[str]) -> str:
    m, r = pos
    if m == r:
        return f"both ships at {pretty(m)}"
    return f"Mercurial at {pretty(m)}, Rubicon at {pretty(r)}"


def _roll(e: dict[str, Any]) -> str:
    who = _ship(e["player"])
    if e["die"] == "centarious":
        return f"{who} rolls the Centarious die: {e['raw']} -> {pretty(e['result'])}."
    text = f"{who} rolls the d8 for {e['purpose']}: {e['raw']}"
    if "reroll" in e:
        text += f", re-rolls (Magnetic Shielding): {e['reroll']}"
    if e["modifier"]:
        text += f", {e['modifier']:+d} -> {e['modified']}"
    if "beat" in e:
        text += f" (needs more than {e['beat']})"
    result = e.get("result")
    if result is None:
        return text + "."
    if e["purpose"] == "first player":
        return f"{text}: {'a tie, roll again' if result == 'tie' else 'goes ' + result}."
    if e["purpose"] in ("heisenberg", "spooky action"):
        return f"{text} -> {pretty(result)}."
    return f"{text}: {result}."


def explain(e: dict[str, Any]) -> str:
    """One sentence for one log entry."""
    t, who = e["type"], _ship(e.get("player"))
    if t == "setup":
        return f"Set-up: detection rate starts at space {e['detection']}."
    if t == "turn":
        return f"-- Turn {e['number']}: {who} --"
    if t == "action":
        do, card = e["do"], e.get("card")
        if do == "navigate":
            return f"{who} plays {card}."
        if do == "exchange":
            return f"{who} exchanges {card}."
        if do == "retrieve":
            return f"{who} sends an away team to retrieve the component."
        if do == "event":
            return f"{who} plays {pretty(card)}."
        return f"{who} passes (nothing else is possible)."
    if t == "move":
        cause = e["cause"]
        if cause == "orbital detection":
            return f"Detected! Evasive jump: {_where(e['to'])}."
        return f"{pretty(cause) if cause.islower() else cause}: {_where(e['to'])}."
    if t == "no_effect":
        card = e["card"]
        return f"{pretty(card) if card.islower() else card} has no effect here."
    if t == "draw":
        if e["card"] is None:
            return f"{who} cannot draw: no engine cards left ({e.get('note', '')})."
        return f"{who} draws {e['card']}."
    if t == "roll":
        return _roll(e)
    if t == "detection":
        value = track_value(e["space"])
        reason = pretty(e["reason"]) if e["reason"] in EVENTS else e["reason"]
        return f"Detection rate -> space {e['space']} (value {value}): {reason}."
    if t == "quantum_event":
        return f"Quantum event ({e['cause']})."
    if t == "event":
        card = pretty(e["card"])
        if "defence" in e:
            return f"{who} plays Quantum Tunnel: no {e['defence']} defence roll."
        if e.get("kept"):
            return f"{who} draws {card} and keeps it."
        return f"{who} draws {card}{' (discarded: ' + e['note'] + ')' if 'note' in e else ''}."
    if t == "engine_control_cleared":
        return "Engine control is cleared."
    if t == "retrieved":
        return f"{who} retrieves {pretty(e['component'])} from {pretty(e['planet'])}."
    if t == "teleported":
        return f"{pretty(e['component'])} teleports from {who}'s ship to {pretty(e['planet'])}."
    if t == "transfer":
        return (f"Bennett: {pretty(e['component'])} moves from {_ship(e['from'])} "
                f"to {_ship(e['to'])}.")
    if t == "keep":
        return f"{who} keeps {e['card']}, discards {', '.join(e['discarded']) or 'nothing'}."
    if t == "discard":
        return f"{who} discards {e['card']} ({e['reason']})."
    if t == "bypass":
        return f"{pretty(e['by'])}: no orbital defence at {pretty(e['planet'])}."
    if t == "interconnect":
        return f"Qubit Interconnect: {who} gives {e['give']} and takes {e['take']}."
    if t == "reshuffle":
        return f"The {e['deck']} deck is reshuffled ({e['cards']} cards)."
    if t == "game_over":
        return f"Game over: {e['status'].upper()}, {e['reason']}."
    return f"{t}: {e}"  # pragma: no cover - every type above; keeps new types visible


def narrate(log: Iterable[dict[str, Any]]) -> list[str]:
    return [explain(e) for e in log]
