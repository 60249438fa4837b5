"""How Entanglion meets the box: screens, menus, tag taps and LEDs for this game.

The session is game-agnostic; it asks this module what the game looks like and what
a tap or a menu choice means. Everything here is a pure function of the engine (and
of the session's small view choices such as a menu cursor), producing the plain
*screen models* that ``companion.views.oled`` draws and the LED model that
``companion.views.leds`` lights. Words on screen are ours, in the game's terms,
short enough for 21 characters a line.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterable

from ...inputs import RETRIEVE
from ..common import Item, Step
from . import board
from .board import MERCURIAL, PROBE, RUBICON, SHIPS
from .cards import (
    COMPONENT_TEXT, COMPONENTS, EVENT_TEXT, EVENTS, LAST_SPACE, pretty,
    track_value,
)
from .engine import Entanglion, IllegalAction

__all__ = ["IllegalAction", "Item", "Step"]  # the session catches IllegalAction from here

NAME = "entanglion"
TITLE = "Entanglion"

SHORT = {
    "ZERO": "|0>", "ONE": "|1>", "PLUS": "|+>", "MINUS": "|->",
    "PHI_PLUS": "PHI+", "PHI_MINUS": "PHI-", "PSI_PLUS": "PSI+", "PSI_MINUS": "PSI-",
    "OMEGA_ZERO": "OMEGA0", "OMEGA_ONE": "OMEGA1", "OMEGA_TWO": "OMEGA2",
    "OMEGA_THREE": "OMEGA3",
}
PART = {  # component names that fit a menu line
    "physical_qubits": "Phys. Qubits", "qubit_interconnect": "Interconnect",
    "dilution_refrigerator": "Refrigerator", "quantum_gates": "Quantum Gates",
    "quantum_programming": "Programming", "quantum_error_correction": "Error Correct.",
    "control_infrastructure": "Control Infra.", "magnetic_shielding": "Mag. Shielding",
}
PURPOSE = {
    "orbital defence": "Orbital defence", "ground defence": "Ground defence",
    "probe": "PROBE", "heisenberg": "Heisenberg", "spooky action": "Spooky Action",
    "first player": "First player", "ship placement": "Ship placement",
    "orbital detection jump": "Evasive jump",
}


SETUP_STEPS = (
    Step("start_space", "Difficulty", (
        ("Easy: track at 1", 1), ("Easy: track at 2", 2), ("Hard: track at 3", 4))),
    Step("deck", "Cards", (("Box deals (virtual)", "virtual"), ("Real cards", "physical"))),
    Step("dice", "Dice", (("Box rolls", "auto"), ("Real dice", "manual"))),
)


def who(ship: str | None) -> str:
    return ship.capitalize() if ship else "Box"


def where(pos: Iterable[str]) -> str:
    m, r = pos
    return SHORT[m] if m == r else f"M{SHORT[m]} R{SHORT[r]}"


def card_name(name: str) -> str:
    return name if name.isupper() else pretty(name)


# ------------------------------------------------------------------ games


def new_game(seed: int, options: dict[str, Any]) -> Entanglion:
    return Entanglion(seed, options)


def replay(seed: int, options: dict[str, Any], setup: dict[str, Any],
           inputs: list[dict[str, Any]]) -> Entanglion:
    return Entanglion.replay(seed, options, setup, (), inputs)


def turns(g: Entanglion) -> int:
    return g.state.turn_number


def status_line(g: Entanglion) -> str:
    """One line for ``systemctl status``: where the game stands."""
    s = g.state
    if s.status in ("won", "lost"):
        return f"{s.status} after {s.turn_number} turns"
    if s.status == "setup":
        return "setting up"
    return (f"turn {s.turn_number}, {who(s.turn_player)} to play, detection space "
            f"{s.detection}, {sum(len(c) for c in s.ship_components.values())}/8 components")


def undo_block(g: Entanglion) -> str | None:
    return None  # every Entanglion input may be undone (dice and decks come back too)


def seat(config: Any, pad: int) -> str | None:
    """The ship a reader pad belongs to (None: shared)."""
    return config.pads[pad]


def button(g: Entanglion, name: str) -> dict[str, Any] | str:
    """RETRIEVE retrieves; EXCHANGE opens the exchange menu (a tap then exchanges)."""
    if name == RETRIEVE:
        return {"player": g.awaiting(), "do": "retrieve"}
    model = action_menu(g, only="exchange")
    return {"menu": "exchange", **model} if model["items"] else "Nothing to exchange"


def result_reason(g: Entanglion) -> str | None:
    for e in reversed(g.log):
        if e["type"] == "game_over":
            return e["reason"]
    return None


# ------------------------------------------------------------------ screens


ROWS_PER_PAGE = 5


def status(g: Entanglion, page: int = 0) -> dict[str, Any]:
    """The resting screen. UP/DOWN pages through it and where each component is."""
    s = g.state
    rows = [f"{SHORT[p]:<7}{PART[c]}" for p, c in s.planet_components.items() if c]
    for ship in SHIPS:
        rows += [f"{who(ship):<10}{PART[c]}" for c in s.ship_components[ship]]
    pages = 1 + -(-len(rows) // ROWS_PER_PAGE)
    page %= pages
    if page:
        chunk = rows[(page - 1) * ROWS_PER_PAGE:page * ROWS_PER_PAGE]
        return {"screen": "text", "title": f"Components {page}/{pages - 1}", "lines": chunk,
                "hint": "UP/DOWN more"}
    p = s.turn_player
    virtual = s.options["deck"] == "virtual"
    return {
        "screen": "status",
        "turn": who(p), "number": s.turn_number,
        "detection": {"space": s.detection, "value": track_value(s.detection)},
        "ships": {who(ship): SHORT[s.pos[i]] for i, ship in enumerate(SHIPS)},
        "engine_control": len(s.engine_control),
        "hand": list(s.hands[p]) if virtual else None,
        "hand_count": len(s.hands[p]),
        "events": [pretty(e) for e in s.held_events[p]],
        "parts": {who(ship): len(s.ship_components[ship]) for ship in SHIPS},
        "parts_left": sum(1 for c in s.planet_components.values() if c),
    }


def end_screen(g: Entanglion) -> dict[str, Any]:
    s = g.state
    return {
        "screen": "end", "result": s.status, "reason": result_reason(g) or "",
        "turns": s.turn_number,
        "detection": {"space": s.detection, "value": track_value(s.detection)},
        "parts": sum(len(c) for c in s.ship_components.values()),
    }


def _card_screen(kind: str, name: str, title: str, footer: str) -> dict[str, Any]:
    text = EVENT_TEXT[name] if kind == "event" else COMPONENT_TEXT[name]
    return {"screen": "card", "kind": kind, "title": title, "name": pretty(name),
            "text": text, "footer": footer}


def _roll_screen(e: dict[str, Any]) -> dict[str, Any]:
    centarious = e["die"] == "centarious"
    result = e.get("result")
    if centarious or e["purpose"] in ("heisenberg", "spooky action"):
        result = SHORT.get(result, result)
    elif result == "detected":
        result = "DETECTED"
    return {
        "screen": "roll", "player": who(e["player"]),
        "die": e["die"], "purpose": PURPOSE.get(e["purpose"], e["purpose"]),
        "value": e.get("reroll", e["raw"]), "modifier": e.get("modifier", 0),
        "modified": e.get("modified", e["raw"]), "beat": e.get("beat"),
        "result": result, "frame": None,
    }


class _Notices:
    """Turns one input's log entries into the screens that tell players about it."""

    def __init__(self, g: Entanglion):
        self.g = g
        self.out: list[dict[str, Any]] = []
        self.lines: list[str] = []
        self.title = "What happened"
        self.takes: dict[str, list[str]] = {}
        self.in_setup = False  # between the setup entry and the first turn

    def flush(self) -> None:
        for ship, cards in self.takes.items():
            self.lines.append(f"{who(ship)} take {', '.join(cards)}")
        self.takes = {}
        if self.lines:
            self.out.append({"screen": "text", "title": self.title, "lines": self.lines,
                             "hint": "OK next"})
        self.lines, self.title = [], "What happened"

    def section(self, title: str) -> None:
        """Start a new text screen when the subject changes (setup steps)."""
        if title != self.title:
            self.flush()
            self.title = title

    def screen(self, model: dict[str, Any]) -> None:
        self.flush()
        self.out.append(model)

    def add(self, e: dict[str, Any]) -> None:
        t, p = e["type"], e.get("player")
        physical = self.g.state.options["deck"] == "physical"
        if t in ("setup", "turn"):
            self.in_setup = t == "setup"
        if t == "setup":
            placed = [(pl, c) for pl, c in e["components"].items() if c]
            for i, (planet, comp) in enumerate(placed, 1):
                self.out.append({
                    "screen": "text", "title": f"Setup: parts {i}/{len(placed)}",
                    "lines": [f"Put {pretty(comp)}", f"on {pretty(planet)}"],
                    "hint": "OK next", "highlight": [planet]})
            self.out.append({"screen": "text", "title": "Setup: detection",
                             "lines": ["Detection token on", f"space {e['detection']} "
                                       f"(value {track_value(e['detection'])})"],
                             "hint": "OK next"})
        elif t == "roll":
            if e["purpose"] == "first player":
                if e["player"] == RUBICON:
                    self.section("Setup: first player")
                    self.lines.append(f"Mercurial {self.last_m} Rubicon {e['raw']}")
                    self.lines.append("Tie: roll again" if e["result"] == "tie" else
                                      f"{who(self.g.state.turn_player)} starts")
                else:
                    self.last_m = e["raw"]
            elif e["purpose"] == "ship placement":
                self.section("Setup: ships")
                self.lines.append(f"{who(p)} rolls {e['raw']}: {SHORT[e['result']]}")
            else:
                self.screen(_roll_screen(e))
        elif t == "move":
            self.lines.append(f"{e['cause'] if e['cause'].isupper() else pretty(e['cause'])}:"
                              f" {where(e['to'])}")
        elif t == "no_effect":
            self.lines.append(f"{card_name(e['card'])}: no effect")
        elif t == "draw":
            if e["card"] is None:
                self.lines.append("No engine cards left")
            elif not physical and e["card"] != PROBE:
                if self.in_setup:
                    self.section("Setup: deal")
                self.takes.setdefault(p, []).append(e["card"])
            elif e["card"] == PROBE:
                self.lines.append(f"{who(p)} draws PROBE!")
        elif t == "detection":
            self.flush()
            reason = pretty(e["reason"]) if e["reason"] in EVENTS else e["reason"]
            self.lines.append(f"Detection: {e['value']} (space {e['space']})")
            self.lines.append(f"({reason})")
            self.flush()
        elif t == "quantum_event":
            self.lines.append(f"Quantum event! ({e['cause']})")
        elif t == "event":
            if "defence" in e:
                self.screen(_card_screen("event", e["card"], "Event played",
                                         f"no {e['defence']} roll"))
            else:
                kept = e.get("kept")
                footer = (f"{who(p)} keeps it" if kept else
                          "discarded (hand limit)" if "note" in e else "happens now")
                self.screen(_card_screen("event", e["card"], f"{who(p)} draws", footer))
        elif t == "engine_control_cleared":
            self.lines.append("Engine control cleared")
        elif t == "retrieved":
            self.screen(_card_screen("component", e["component"], "Retrieved!",
                                     f"aboard {who(p)}"))
        elif t == "teleported":
            self.lines.append(f"{PART[e['component']]} -> {SHORT[e['planet']]}")
        elif t == "transfer":
            self.lines.append(f"{PART[e['component']]}: {who(e['from'])[:1]}->"
                              f"{who(e['to'])[:1]}")
        elif t == "keep":
            self.lines.append(f"Keep {e['card']}, discard {', '.join(e['discarded'])}")
        elif t == "discard":
            self.lines.append(f"{who(p)} discards {e['card']}")
        elif t == "bypass":
            self.lines.append("Programming: no roll")
        elif t == "interconnect":
            self.lines.append(f"Traded {e['give']} for {e['take']}")
        elif t == "reshuffle":
            if e["deck"] == "engine":
                self.lines.append("Shuffle engine discard" if physical
                                  else "Engine stack reshuffled")
            else:
                self.lines += (["Rebuild events: 3 down,", "Shuffle on them, rest"]
                               if physical else ["Event deck rebuilt"])
        # turn, action and game_over need no notice: the status and end screens show them


def notices(g: Entanglion, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    n = _Notices(g)
    # Setup may be spread over several inputs (real dice, real cards): it lasts until
    # the first turn entry. That entry is near the start, so this stops early.
    earlier = len(g.log) - len(entries)
    n.in_setup = not any(e["type"] == "turn" for e in itertools.islice(g.log, earlier))
    for e in entries:
        n.add(e)
    n.flush()
    return n.out


# ------------------------------------------------------------------ prompts and menus


def _option_label(kind: str, value: Any) -> tuple[str, tuple[str, ...]]:
    if kind == "roll":
        return str(value), ()
    if kind == "magnetic_shielding":
        return ("Keep the roll" if value == "keep" else "Re-roll"), ()
    if kind == "quantum_tunnel":
        return {"use": "Use Quantum Tunnel", "roll": "Roll the die",
                "accept": "Accept the roll"}[value], ()
    if kind == "physical_qubits":
        m, r = value[MERCURIAL], value[RUBICON]
        return f"M to {SHORT[m]}, R to {SHORT[r]}", tuple(dict.fromkeys((m, r)))
    if kind == "qubit_interconnect":
        return ("Skip" if value == "skip" else
                f"Give {value['give']}, take {value['take']}"), ()
    if kind == "bennett":
        return (f"{PART[value['component']]} {who(value['from'])[:1]}->"
                f"{who(value['to'])[:1]}"), ()
    if kind == "mechanic" and value == "stop":
        return "Stop", ()
    return card_name(value), ()


_PROMPT_TITLE = {
    "roll": "roll", "magnetic_shielding": "Magnetic Shielding",
    "quantum_tunnel": "Quantum Tunnel?", "physical_qubits": "Physical Qubits",
    "qubit_interconnect": "Qubit Interconnect", "bennett": "Bennett",
    "mechanic": "The Mechanic", "quantum_gates": "Quantum Gates", "discard": "discard",
    "draw": "draw",
}


def _prompt_text(p: dict[str, Any]) -> list[str]:
    k = p["kind"]
    if k == "roll":
        die = "the d8 (1-8)" if p["die"] == "d8" else "Centarious (0/1)"
        return [f"Roll {die}", f"for {PURPOSE.get(p['purpose'], p['purpose'])}"]
    if k == "magnetic_shielding":
        return [f"Rolled {p['raw']} ({PURPOSE.get(p['purpose'], p['purpose'])})"]
    if k == "quantum_tunnel":
        return [f"{p['defence'].capitalize()} defence roll due"]
    if k == "physical_qubits":
        return ["Detected! Choose where", "the ships jump"]
    if k == "qubit_interconnect":
        return ["Trade one engine card?"]
    if k == "bennett":
        return ["Move one component"]
    if k == "mechanic":
        return [f"Play {p['plays'] + 1} of 2: {' '.join(p['drawn'])}"]
    if k == "quantum_gates":
        return [f"Drew {' '.join(p['drawn'])}: keep one"]
    if k == "discard":
        return [f"Hand limit {p['limit']}: tap or", "choose a card"]
    if k == "draw":
        return [f"Tap the {'engine card' if p['deck'] == 'engine' else 'event'}",
                "you drew, or choose"]
    return []


def prompt_menu(g: Entanglion) -> dict[str, Any]:
    """The pending decision as a menu (title, context lines, items)."""
    p = g.pending
    assert p is not None
    title = _PROMPT_TITLE[p["kind"]]
    if title[0].islower():
        title = f"{who(p['player'])}: {title}"
    items = []
    for i, value in enumerate(p["options"]):
        label, targets = _option_label(p["kind"], value)
        items.append(Item(label, {"player": p["player"], "do": "choose", "index": i}, targets))
    return {"title": title, "text": _prompt_text(p), "items": items}


def _action_label(g: Entanglion, act: dict[str, Any]) -> Item:
    s, do = g.state, act["do"]
    if do == "navigate":
        dest = board.navigate(act["card"], act["player"], s.pos, s.options["cnot_phase_kickback"])
        arrow = "no effect" if dest == s.pos else where(dest)
        return Item(f"{act['card']} -> {arrow}", act, tuple(dict.fromkeys(dest)))
    if do == "exchange":
        return Item(f"Exchange {act['card']}", act)
    if do == "retrieve":
        return Item(f"Retrieve {PART[s.planet_components[s.pos[0]]]}", act, (s.pos[0],))
    if do == "event":
        return Item(f"Play {pretty(act['card'])}", act)
    return Item("Pass", act)


def action_menu(g: Entanglion, only: str | None = None) -> dict[str, Any]:
    """Every legal action as a menu item (buttons alone can play the whole game)."""
    acts = [a for a in g.legal_actions() if only is None or a["do"] == only]
    title = f"{who(g.turn_player)}: " + ("exchange" if only == "exchange" else "your move")
    text = ["Tap a card or choose"] if only == "exchange" else []
    return {"title": title, "text": text, "items": [_action_label(g, a) for a in acts]}


# ------------------------------------------------------------------ tags


def tag_action(g: Entanglion, card: Any, seat: str | None, pad: int,
               exchange: bool) -> dict[str, Any] | str:
    """What tapping ``card`` on ``pad`` (belonging to ``seat``, None = shared) means.

    Returns an engine input, an error string, or a screen model (an info card).
    """
    if card.kind == "component":
        where_ = next((who(s) for s in SHIPS if card.name in g.state.ship_components[s]), None)
        if where_ is None:
            where_ = next((SHORT[p] for p, c in g.state.planet_components.items()
                           if c == card.name), "off the board")
        return _card_screen("component", card.name, "Component", f"now: {where_}")
    p = g.awaiting()
    if p is None:
        return "The game is over"
    if seat is not None and seat != p:
        return f"Pad {pad} is {who(seat)}'s; {who(p)} is up"
    name = card.name.upper() if card.kind == "engine" else card.name
    if g.pending:
        kind = g.pending["kind"]
        if kind not in ("draw", "mechanic", "quantum_gates", "discard"):
            return "Choose with UP/DOWN, OK"
        if name not in g.pending["options"]:
            return f"{card_name(name)} is not a choice here"
        return {"player": p, "do": "choose", "value": name}
    if card.kind == "event":
        return {"player": p, "do": "event", "card": name}
    if card.kind != "engine":
        return f"{card.kind} cards do nothing here"
    if name == PROBE:
        return "PROBE is never played"
    return {"player": p, "do": "exchange" if exchange else "navigate", "card": name}


def card_from_tag(card: Any) -> bool:
    """Whether a registry card belongs to this game and is one we know."""
    return card.game == NAME and (
        (card.kind == "engine" and card.name.upper() in ("X", "H", "CNOT", "SWAP", PROBE))
        or (card.kind == "event" and card.name in EVENTS)
        or (card.kind == "component" and card.name in COMPONENTS))


# ------------------------------------------------------------------ LEDs


def leds(g: Entanglion) -> dict[str, Any]:
    s = g.state
    ships = dict(zip(SHIPS, s.pos)) if s.status != "setup" else {}
    return {
        "ships": ships,
        "components": [p for p, c in s.planet_components.items()
                       if c and p not in s.pos],
        "detection": min(s.detection, LAST_SPACE),
        "result": s.status if s.status in ("won", "lost") else None,
    }

