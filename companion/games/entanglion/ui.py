"""How Entanglion meets the box: screens, menus, tag taps and LEDs for this game.

The session is game-agnostic; it asks this module what the game looks like and what
a tap or a menu choice means. Everything here is a pure function of the engine (and
of the session's small view choices such as a menu cursor), producing the plain
*screen models* that ``companion.views.oled`` draws and the LED model that
``companion.views.leds`` lights. Words on screen are ours, in the game's terms, and
written to fit: a menu item holds 20 characters, a line 21.

Players never do arithmetic: every item and prompt that leads to a roll says the
lowest face that wins and the chance (``odds.py``), the status screen shows the value
to beat large and what to do next. After an input at most three screens need an OK
(the decisive roll, a summary, one card); the summary keeps every detail a press of
DOWN away, and each screen carries the LED picture as of what it has told.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable

from ...inputs import RETRIEVE
from ..common import Item, Step
from . import board, hint, odds
from .board import GALAXY, MERCURIAL, PROBE, RUBICON, SHIPS
from .cards import (
    COMPONENT_TEXT, COMPONENTS, EVENT_TEXT, EVENTS, HAND_SIZE, LAST_SPACE, pretty,
    track_value,
)
from .engine import Entanglion, IllegalAction
from .explain import explain
from .story import pages as story_pages
from .story import story
from ...views.font import wrap

__all__ = ["IllegalAction", "Item", "Step", "story"]  # the session uses these from here

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
EVENT_SHORT = {  # event names that fit a line with a few words around them
    "bennett": "Bennett", "bit_flip_error": "Bit Flip Error", "heisenberg": "Heisenberg",
    "quantum_shuffle": "Q. Shuffle", "quantum_tunnel": "Tunnel", "schrodinger": "Schrödinger",
    "spooky_action": "Spooky Action", "the_mechanic": "The Mechanic",
    "wave_function_collapse": "W.F. Collapse",
}
PURPOSE = {
    "orbital defence": "Orbital defence", "ground defence": "Ground defence",
    "probe": "PROBE", "heisenberg": "Heisenberg", "spooky action": "Spooky Action",
    "first player": "First player", "ship placement": "Ship placement",
    "orbital detection jump": "Evasive jump",
}
ROLL_WORD = {"orbital defence": "Orbital", "ground defence": "Ground", "probe": "PROBE",
             "heisenberg": "Heisenberg", "spooky action": "Spooky"}
WHY = {  # why the detection rate moved, in a few letters
    "orbital defence": "orbital", "ground defence": "ground", "probe": "PROBE",
    "schrodinger": "Schrödinger", "bit_flip_error": "Bit Flip", "wave_function_collapse":
    "W.F. Collapse",
}
WIN_WORD = {"orbital defence": "evade", "ground defence": "retrieve", "probe": "escape"}

SETUP_STEPS = (
    Step("start_space", "Difficulty", (
        ("Easy: track at 1", 1), ("Easy: track at 2", 2), ("Hard: track at 3", 4))),
    Step("deck", "Cards", (("Box deals (virtual)", "virtual"), ("Real cards", "physical"))),
    Step("dice", "Dice", (("Box rolls", "auto"), ("Real dice", "manual"))),
)
PLACEMENTS = len(COMPONENTS)  # one setup screen per component put on its planet


def who(ship: str | None) -> str:
    return ship.capitalize() if ship else "Box"


def where(pos: Iterable[str]) -> str:
    m, r = pos
    return SHORT[m] if m == r else f"M{SHORT[m]} R{SHORT[r]}"


def card_name(name: str) -> str:
    return name if name.isupper() else pretty(name)


def chance_text(p: Fraction, one_die: bool = True) -> str:
    """A chance as eighths when it is one roll of the d8 ("3/8"), else (a re-roll, a
    PROBE that may come first) a percentage that never rounds a possible outcome to 0%
    or a doubtful one to 100%."""
    if one_die and (p * 8).denominator == 1:
        return f"{p * 8}/8"
    return f"{min(99, max(1, round(float(p) * 100)))}%"


def target_text(o: odds.Odds) -> str:
    """The number to beat and the chance, e.g. "5+ 4/8" (a sure or hopeless roll says so)."""
    if o.chance == 1:
        return "sure"
    if not o.chance:
        return "0/8"  # no face is enough
    chance = chance_text(o.chance, one_die=not o.reroll and not o.probe)
    return f"{o.need}+ {chance}" if o.need is not None else chance


def need_text(o: odds.Odds) -> str:
    """``target_text`` said in words where it names a face: "need 5+ 4/8"."""
    target = target_text(o)
    return f"need {target}" if "+" in target else target


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


# ------------------------------------------------------------------ setup counter


def setup_total(options: dict[str, Any], g: Entanglion | None = None) -> int:
    """How many setup screens there are: the option menus, one per component placed,
    the start (detection, first player, ships), then the deal (one screen, or a draw
    prompt per card with real cards); real dice add a prompt per setup roll (two more
    for every tied first-player roll, known once it happens)."""
    manual = options.get("dice") == "manual"
    total = len(SETUP_STEPS) + PLACEMENTS + 1
    total += 2 * HAND_SIZE if options.get("deck") == "physical" else 1
    if manual:
        ties = 0 if g is None else sum(1 for e in g.log if e["type"] == "roll" and
                                       e["purpose"] == "first player" and e["result"] == "tie")
        total += 4 + ties  # two per tie round: one entry for each ship
    return total


def _setup_counter(g: Entanglion, index: int) -> str:
    return f"Setup {index}/{setup_total(g.state.options, g)}"


def _in_setup(g: Entanglion, upto: int) -> bool:
    return not any(e["type"] == "turn" for e in g.log[:upto])


# ------------------------------------------------------------------ screens


ROWS_PER_PAGE = 5


def status(g: Entanglion, page: int = 0) -> dict[str, Any]:
    """The resting screen. UP/DOWN pages through where each component is and the
    events each player holds."""
    s = g.state
    p = s.turn_player
    rows = [f"{SHORT[pl]:<7}{PART[c]}" for pl, c in s.planet_components.items() if c]
    for ship in SHIPS:
        rows += [f"{who(ship):<10}{PART[c]}" for c in s.ship_components[ship]]
    for ship in SHIPS:
        rows += [f"{who(ship)[:1]} holds {EVENT_SHORT[e]}" for e in s.held_events[ship]]
    pages = 1 + -(-len(rows) // ROWS_PER_PAGE)
    page %= pages
    if page:
        chunk = rows[(page - 1) * ROWS_PER_PAGE:page * ROWS_PER_PAGE]
        return {"screen": "text", "title": f"Turn {s.turn_number}: where",
                "right": f"{page}/{pages - 1}", "lines": chunk, "hint": "UP/DOWN"}
    m, r = s.pos
    ships = f"Ships at {SHORT[m]}" if m == r else f"M {SHORT[m]}  R {SHORT[r]}"
    hand = " ".join(s.hands[p]) if s.options["deck"] == "virtual" else \
        f"{len(s.hands[p])} cards"
    aboard = sum(len(c) for c in s.ship_components.values())
    events = [EVENT_SHORT[e] for e in s.held_events[p]]
    parts = f"Parts {aboard}/8"
    if events:
        listed = f"{parts}  {', '.join(events)}"
        parts = listed if len(listed) <= 21 else f"{parts}, {len(events)} events"
    return {
        "screen": "status",
        "turn": who(p), "number": s.turn_number,
        "detection": {"space": s.detection, "value": track_value(s.detection)},
        "ships": ships, "engine_control": len(s.engine_control),
        "hand": f"Hand {hand}" if hand else "Hand empty",
        "parts": parts, "next": _next_step(g),
    }


def _next_step(g: Entanglion) -> str:
    """What the player to move can do now, in words."""
    act = {"player": g.state.turn_player, "do": "retrieve"}
    if g.check(act) is None:
        return f"RETRIEVE: {need_text(odds.action_odds(g, act))}"
    return "Tap a card; OK: moves"


def end_screen(g: Entanglion, page: int = 0, told: dict[str, Any] | None = None
               ) -> dict[str, Any]:
    """The result, then (UP/DOWN) the story of the game on pages."""
    s = g.state
    more = story_pages(told) if told else []
    page %= 1 + len(more)
    out = {
        "screen": "end", "result": s.status, "reason": result_reason(g) or "",
        "turns": s.turn_number, "parts": sum(len(c) for c in s.ship_components.values()),
        "detection": {"space": s.detection, "value": track_value(s.detection)},
        "page": page, "pages": 1 + len(more),
        "time": told.get("time") if told else None,
    }
    if page:
        out.update(more[page - 1])
    return out


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
        "need": None if e.get("beat") is None else odds.need(e["beat"], e.get("modifier", 0)),
        "result": result, "frame": None,
    }


# ------------------------------------------------------------------ notices


class _Board:
    """The LED picture as the log tells it, entry by entry, so each notice can show the
    board as of what it has told and no later."""

    def __init__(self, g: Entanglion, entries: list[dict[str, Any]], earlier: int):
        s = g.state
        self.pos: tuple[str, str] | None = s.pos if s.status != "setup" else None
        self.detection: int | None = s.detection
        self.comps = dict(s.planet_components)
        self.turn = s.turn_player
        self.number = s.turn_number
        self.result = s.status if s.status in ("won", "lost") else None
        # Wind back from the state after the entries to the state before them.
        for e in reversed(entries):
            t = e["type"]
            if t == "move":
                self.pos = tuple(e["from"])  # type: ignore[assignment]
            elif t == "retrieved":
                self.comps[e["planet"]] = e["component"]
            elif t == "teleported":
                self.comps[e["planet"]] = None
            elif t == "game_over":
                self.result = None
            elif t == "setup":
                self.pos, self.detection, self.turn = None, None, None
                self.comps = dict.fromkeys(self.comps)
            elif t == "roll" and e["purpose"] == "ship placement":
                self.pos = None
        if any(e["type"] in ("detection", "setup") for e in entries):
            self.detection = _detection_before(g, earlier)
        if any(e["type"] == "turn" for e in entries):
            before = next((e for e in reversed(g.log[:earlier]) if e["type"] == "turn"), None)
            self.turn = before["player"] if before else None
            self.number = before["number"] if before else 0
        self._given = g.setup.get("ships")  # a scenario set-up may place the ships itself
        self._ships: dict[str, str] = {}  # ship placement rolls so far (real dice: one an input)
        if any(e["type"] == "roll" and e["purpose"] == "ship placement" for e in entries):
            self._ships = {e["player"]: e["result"] for e in g.log[:earlier]
                           if e["type"] == "roll" and e["purpose"] == "ship placement"}

    def apply(self, e: dict[str, Any]) -> None:
        t = e["type"]
        if t == "move":
            self.pos = tuple(e["to"])  # type: ignore[assignment]
        elif t == "detection":
            self.detection = e["space"]
        elif t == "retrieved":
            self.comps[e["planet"]] = None
        elif t == "teleported":
            self.comps[e["planet"]] = e["component"]
        elif t == "turn":
            self.turn, self.number = e["player"], e["number"]
        elif t == "game_over":
            self.result = e["status"]
        elif t == "setup":
            self.comps = dict(e["components"])
            self.detection = e["detection"]
            if self._given:
                self.pos = (self._given[MERCURIAL], self._given[RUBICON])
        elif t == "roll" and e["purpose"] == "ship placement":
            self._ships[e["player"]] = e["result"]
            if len(self._ships) == 2:
                self.pos = (self._ships[MERCURIAL], self._ships[RUBICON])

    def bar(self) -> dict[str, Any]:
        """The title bar of the turn as of what has been told (none in set-up): the
        same on every screen of that turn as on the resting screen."""
        if self.turn is None or self.result is not None:
            return {}
        return {"bar": {"turn": who(self.turn), "number": self.number}}

    def model(self, placed: list[str] | None = None, highlight: str = "") -> dict[str, Any]:
        if placed is not None:  # placing components: only those already announced
            return {"ships": {}, "components": placed, "detection": None, "result": None,
                    "turn": None, "highlight": [highlight]}
        ships = dict(zip(SHIPS, self.pos)) if self.pos else {}
        comps = [p for p, c in self.comps.items() if c and (self.pos is None or p not in self.pos)]
        return {
            "ships": ships, "components": comps,
            "detection": None if self.detection is None else min(self.detection, LAST_SPACE),
            "result": self.result, "turn": self.turn if self.result is None else None,
        }


def _detection_before(g: Entanglion, earlier: int) -> int | None:
    for e in reversed(g.log[:earlier]):
        if e["type"] == "detection":
            return e["space"]
        if e["type"] == "setup":
            return e["detection"]
    return None


def _text(title: str, lines: list[str], hint: str = "OK next", **extra: Any) -> dict[str, Any]:
    return {"screen": "text", "title": title, "lines": lines, "hint": hint, **extra}


SUMMARY_LINES = 5  # a text screen holds five lines above its hint


class _Notices:
    """Turns one input's log entries into at most three screens to acknowledge."""

    def __init__(self, g: Entanglion, entries: list[dict[str, Any]]):
        self.g = g
        self.entries = entries
        self.earlier = len(g.log) - len(entries)
        self.board = _Board(g, entries, self.earlier)
        self.physical = g.state.options["deck"] == "physical"
        self.out: list[dict[str, Any]] = []

    # -------------------------------------------------------------- set-up

    def setup_screens(self, upto: int) -> None:
        """The guided set-up: each component, the start, the deal (as each is known)."""
        g = self.g
        # Every input before the first turn answered a set-up prompt (a die or a card).
        index = len(SETUP_STEPS) + PLACEMENTS + len(g.inputs)
        deal: dict[str, list[str]] = {}
        placed: list[str] = []
        for k, e in enumerate(self.entries[:upto]):
            self.board.apply(e)
            t = e["type"]
            if t == "setup":
                comps = [(pl, c) for pl, c in e["components"].items() if c]
                for i, (planet, comp) in enumerate(comps, 1):
                    placed.append(planet)
                    self.out.append(_text("Parts", [f"Put {pretty(comp)}", f"on {pretty(planet)}"],
                                          right=_setup_counter(g, len(SETUP_STEPS) + i),
                                          leds=self.board.model(list(placed), planet)))
            if t == "setup" and "ships" in g.setup or (
                    t == "roll" and e["purpose"] == "ship placement" and self.board.pos):
                index += 1
                self.out.append(_text("Start", self._start_lines(self.earlier + k),
                                      right=_setup_counter(g, index), leds=self.board.model()))
            elif t == "draw" and not self.physical and e["card"] not in (None, PROBE):
                deal.setdefault(e["player"], []).append(e["card"])
        if deal:
            index += 1
            self.out.append(_text("Deal", [f"{who(p)} take {', '.join(c)}" for p, c in deal.items()],
                                  right=_setup_counter(g, index), leds=self.board.model()))

    def _start_lines(self, upto: int) -> list[str]:
        """Detection, who starts (and the rolls that said so), where the ships are."""
        lines = [f"Detection: space {self.board.detection}"]
        rolls = [e["raw"] for e in self.g.log[:upto + 1]
                 if e["type"] == "roll" and e["purpose"] == "first player"]
        if len(rolls) >= 2:
            ties = len(rolls) // 2 - 1
            lines.append(f"First roll M {rolls[-2]} R {rolls[-1]}" +
                         (f", {ties} tie{'s' * (ties > 1)}" if ties else ""))
        lines.append(f"{who(self.g.state.turn_player)} starts")
        if self.board.pos:
            m, r = self.board.pos
            lines.append(f"Ships: both {SHORT[m]}" if m == r else
                         f"Ships: M {SHORT[m]}, R {SHORT[r]}")
        return lines

    # -------------------------------------------------------------- play

    def play_screens(self, entries: list[dict[str, Any]]) -> None:
        """The decisive roll, a summary of everything, and the one card to read."""
        roll = next((e for e in entries if e["type"] == "roll"
                     and e["purpose"] in ("orbital defence", "ground defence")), None) or \
            next((e for e in entries if e["type"] == "roll" and e["die"] == "d8"
                  and e["purpose"] in ("probe", "heisenberg", "spooky action")), None)
        card, card_event = self._card(entries)
        lines: list[tuple[int, str]] = []  # (priority, line): 1 must stay, 3 may go
        takes: dict[str, list[str]] = {}
        roll_leds = roll_bar = None
        title = "What happened"
        before = self.board.detection
        for e in entries:
            self.board.apply(e)
            if e is roll:
                roll_leds, roll_bar = self.board.model(), self.board.bar()
            t, p = e["type"], e.get("player")
            if t == "action":
                title = _action_title(e)
            elif t == "move":
                cause = e["cause"]
                if cause == "orbital detection":
                    lines.append((2, f"Jump to {where(e['to'])}"))
                else:
                    lines.append((2, f"{cause if cause.isupper() else pretty(cause)}: "
                                     f"{where(e['to'])}"))
            elif t == "no_effect":
                lines.append((3, f"{card_name(e['card'])}: no effect"))
            elif t == "draw":
                if e["card"] is None:
                    lines.append((2, "No engine cards left"))
                elif not self.physical and e["card"] != PROBE:
                    takes.setdefault(p, []).append(e["card"])
            elif t == "roll" and e["die"] == "d8":
                lines.append((1, _roll_line(e)))
            elif t == "detection":
                lines.append((1, f"Det {before}→{e['space']} {WHY.get(e['reason'], e['reason'])}"))
                before = e["space"]
            elif t == "event":
                short = EVENT_SHORT[e["card"]]
                shown = e is card_event  # its card follows
                if "defence" in e:
                    lines.append((2, f"{short}: no {e['defence']} roll"))
                elif e.get("kept"):
                    lines.append((1, f"{short}: keep it"))
                elif "note" in e:
                    lines.append((3 if shown else 2, f"{short}: discarded"))
                else:
                    lines.append((3 if shown else 2, f"Event: {short}"))
            elif t == "engine_control_cleared":
                lines.append((3, "Engine slots cleared"))
            elif t == "retrieved":
                lines.append((1, f"{PART[e['component']]} aboard"))
            elif t == "teleported":
                lines.append((2, f"{PART[e['component']]}→{SHORT[e['planet']]}"))
            elif t == "transfer":
                lines.append((2, f"{PART[e['component']]} {who(e['from'])[:1]}→"
                                 f"{who(e['to'])[:1]}"))
            elif t == "keep":
                lines.append((2, f"Kept {e['card']}, drop {' '.join(e['discarded'])}"))
                for c in e["discarded"]:
                    if c in takes.get(p, []):
                        takes[p].remove(c)
            elif t == "discard":
                lines.append((1, f"{who(p)}: drop {e['card']}"))
            elif t == "bypass":
                lines.append((3, "Programming: no roll"))
            elif t == "interconnect":
                title = "Qubit Interconnect"
                lines.append((1, f"{who(p)} gives {e['give']}"))
                lines.append((1, f"and takes {e['take']}"))
            elif t == "reshuffle":
                if e["deck"] == "engine":
                    lines += [(1, "Shuffle the engine"), (1, "discard: new stack")] \
                        if self.physical else [(3, "Engine deck shuffled")]
                else:
                    lines += [(1, "Rebuild event deck:"), (1, "3, Q. Shuffle, rest")] \
                        if self.physical else [(3, "Event deck rebuilt")]
        pending = self.g.pending
        if pending and pending["kind"] in ("quantum_gates", "mechanic"):
            for c in pending.get("drawn", []):  # chosen from the prompt, not taken yet
                if c in takes.get(pending["player"], []):
                    takes[pending["player"]].remove(c)
        lines += [(1, f"{who(p)} take {', '.join(cards)}") for p, cards in takes.items() if cards]
        final, bar = self.board.model(), self.board.bar()
        if roll is not None:
            self.out.append({**_roll_screen(roll), "leds": roll_leds or final,
                             **(roll_bar if roll_bar is not None else bar)})
        summary = _fit_lines(lines)
        details = [explain(e) for e in entries if e["type"] not in ("action", "turn")]
        # Details when the summary left something out or a roll or event has more to say.
        more = len(summary) < len(lines) or any(
            e["type"] in ("roll", "event", "detection") for e in entries)
        if summary:
            self.out.append(_text(title, summary, "▼ more  OK" if more else "OK", leds=final,
                                  summary=True, **bar,
                                  **({"details": details} if more else {})))
        if card is not None:
            self.out.append({**card, "leds": final, **bar})

    def _card(self, entries: list[dict[str, Any]]
              ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """The one card worth a screen (a component retrieved, else an event drawn),
        and the event entry it shows (None for a component)."""
        for e in entries:
            if e["type"] == "retrieved":
                return _card_screen("component", e["component"], "Retrieved!",
                                    f"aboard {who(e['player'])}"), None
        for e in entries:
            if e["type"] == "event" and "defence" not in e:  # a Tunnel used is a line
                footer = (f"{who(e['player'])} keeps it" if e.get("kept") else
                          "discarded (hand limit)" if "note" in e else "happens now")
                return _card_screen("event", e["card"], f"{who(e['player'])} draws",
                                    footer), e
        return None, None


def _action_title(e: dict[str, Any]) -> str:
    """"Mercurial plays H", "Rubicon retrieves" (the player's initial if it is long)."""
    card = e.get("card")
    verb = {"navigate": f"plays {card}", "exchange": f"exchanges {card}",
            "retrieve": "retrieves", "pass": "passes",
            "event": f"plays {EVENT_SHORT.get(card or '', card)}"}[e["do"]]
    title = f"{who(e['player'])} {verb}"
    return title if len(title) <= 21 else f"{who(e['player'])[:1]}. {verb}"


def _roll_line(e: dict[str, Any]) -> str:
    """One roll in a line: "Orbital 2→6+1: evaded"."""
    value = f"{e['raw']}→{e['reroll']}" if "reroll" in e else str(e["raw"])
    if e.get("modifier"):
        value += f"{e['modifier']:+d}"
    result = e["result"]
    if e["purpose"] in ("heisenberg", "spooky action"):
        result = SHORT.get(result, result)
    elif result == "detected":
        result = "DETECTED" if e["purpose"] != "probe" else "detected"
    return f"{ROLL_WORD.get(e['purpose'], e['purpose'])} {value}: {result}"


def _fit_lines(lines: list[tuple[int, str]]) -> list[str]:
    """The lines that fit a summary screen, dropping the least important first."""
    kept = list(lines)
    for level in (3, 2):  # the earliest first: later lines tell where things ended up
        while sum(len(wrap(line)) for _, line in kept) > SUMMARY_LINES and \
                any(p == level for p, _ in kept):
            del kept[next(i for i, (p, _) in enumerate(kept) if p == level)]
    while sum(len(wrap(line)) for _, line in kept) > SUMMARY_LINES:
        del kept[-1]  # only a very busy input: the details have it all
    return [line for _, line in kept]


def notices(g: Entanglion, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The screens that tell players what an input did: the guided set-up, or at most
    three (roll, summary, card). Each carries ``leds``: the board as of what it has told."""
    n = _Notices(g, entries)
    # Set-up may be spread over several inputs (real dice, real cards): it lasts until
    # the first turn entry, which comes with the deal.
    first_turn = next((i for i, e in enumerate(entries) if e["type"] == "turn"), None)
    if _in_setup(g, n.earlier):
        upto = len(entries) if first_turn is None else first_turn + 1
        n.setup_screens(upto)
        rest = entries[upto:]
        if rest:
            n.play_screens(rest)
    else:
        n.play_screens(entries)
    return n.out


# ------------------------------------------------------------------ prompts and menus


def _roll_face(g: Entanglion, p: dict[str, Any], value: int) -> str:
    """A die face as a menu item, with what it would do."""
    if p["die"] != "d8":
        return f"{value}: {SHORT['ONE' if value else 'ZERO']}"
    chance = odds.answer_odds(g, value)
    if chance is None:
        return str(value)
    if chance == 1:
        return f"{value}: {WIN_WORD[p['purpose']]}"
    if chance:  # a Magnetic Shielding re-roll follows
        return f"{value}: fail, re-roll {chance_text(chance)}"
    return f"{value}: {_fail_word(p['purpose'])}"


def _fail_word(purpose: str) -> str:
    return "detected" if purpose == "probe" else "DETECTED"  # a PROBE is a lesser blow


def _need_line(o: odds.Odds) -> str:
    return f"Need {o.need}+ to {WIN_WORD[o.purpose]}" if o.need <= 8 else "No face is enough"


def _option_label(g: Entanglion, kind: str, value: Any) -> tuple[str, tuple[str, ...]]:
    p = g.pending
    if kind == "roll":
        return _roll_face(g, p, value), ()
    if kind == "magnetic_shielding":
        chance = odds.answer_odds(g, value)
        if value == "keep":
            if chance is None:
                return f"Keep the {p['raw']}", ()
            return (f"Keep: {WIN_WORD[p['purpose']]}" if chance else
                    f"Keep: {_fail_word(p['purpose'])}"), ()
        return ("Re-roll" if chance is None else f"Re-roll: {chance_text(chance)}"), ()
    if kind == "quantum_tunnel":
        if value == "use":
            return "Use Tunnel: no roll", ()
        if value == "accept":
            return "Accept: detected", ()
        return f"Roll: {target_text(odds.prompt_odds(g))}", ()
    if kind == "physical_qubits":
        m, r = value[MERCURIAL], value[RUBICON]
        return f"M to {SHORT[m]}, R to {SHORT[r]}", tuple(dict.fromkeys((m, r)))
    if kind == "bennett":
        return (f"{PART[value['component']]} {who(value['from'])[:1]}→"
                f"{who(value['to'])[:1]}"), ()
    if kind == "mechanic":
        if value == "stop":
            return "Stop", ()
        dest = board.navigate(value, p["player"], g.state.pos,
                              g.state.options["cnot_phase_kickback"])
        return f"{value} → {'no effect' if dest == g.state.pos else where(dest)}", \
            tuple(dict.fromkeys(dest))
    return (EVENT_SHORT[value] if value in EVENT_SHORT else card_name(value)), ()


_PROMPT_TITLE = {
    "roll": "roll", "magnetic_shielding": "Magnetic Shielding",
    "quantum_tunnel": "Quantum Tunnel?", "physical_qubits": "Physical Qubits",
    "bennett": "Bennett", "mechanic": "The Mechanic", "quantum_gates": "Quantum Gates",
    "discard": "discard", "draw": "draw",
}


def _prompt_text(g: Entanglion, p: dict[str, Any]) -> list[str]:
    k = p["kind"]
    o = odds.prompt_odds(g)
    purpose = PURPOSE.get(p.get("purpose", ""), p.get("purpose"))
    if k == "roll":
        die = "d8" if p["die"] == "d8" else "Centarious"
        lines = [f"{who(p['player'])}: roll {die}", f"for {purpose}"]
        return lines + ([_need_line(o)] if o is not None else [])
    if k == "magnetic_shielding":
        lines = [f"{ROLL_WORD.get(p['purpose'], purpose)} roll: {p['raw']}"]
        return lines + ([_need_line(o)] if o is not None else [])
    if k == "quantum_tunnel":
        if p["options"] == ["use", "accept"]:
            return [f"{p['defence'].capitalize()} roll failed:", "use the Tunnel?"]
        return [f"{p['defence'].capitalize()} defence due", "Tunnel skips the roll"]
    if k == "physical_qubits":
        return ["Detected! Choose where", "the ships jump"]
    if k == "bennett":
        return ["Move one component"]
    if k == "mechanic":
        return [f"Play {p['plays'] + 1} of 2: {' '.join(p['drawn'])}"]
    if k == "quantum_gates":
        return [f"Drew {' '.join(p['drawn'])}: keep one"]
    if k == "discard":
        return [f"Hand limit {p['limit']}: tap or", "choose a card"]
    if k == "draw":
        return [f"{who(p['player'])} draws:", "tap it or choose"]
    return []


def prompt_menu(g: Entanglion) -> dict[str, Any]:
    """The pending decision as a menu (title, context lines, items)."""
    p = g.pending
    assert p is not None
    items = []
    for i, value in enumerate(p["options"]):
        label, targets = _option_label(g, p["kind"], value)
        items.append(Item(label, {"player": p["player"], "do": "choose", "index": i}, targets))
    model: dict[str, Any] = {"title": _PROMPT_TITLE[p["kind"]], "text": _prompt_text(g, p),
                             "items": items}
    if _in_setup(g, len(g.log)):  # a setup roll or draw: the counter goes on
        started = g.state.status != "setup"  # ships placed: the start screen was shown
        index = len(SETUP_STEPS) + PLACEMENTS + len(g.inputs) + 1 + started
        model.update(title=model["title"].capitalize(), right=_setup_counter(g, index))
    else:
        model.update(_bar(g))
        if model["title"][0].islower():
            model["title"] = f"{who(p['player'])}: {model['title']}"
    return model


def _rank(g: Entanglion, act: dict[str, Any], o: odds.Odds | None) -> tuple[float, float]:
    """Most useful first: retrieve, then moves to a component, other moves inside
    Entanglion (likelier first), events, moves outside it, trades, exchanges (a move
    into Entanglion that will more likely be detected than not comes after them),
    moves doing nothing; a move that leaves Entanglion comes last and asks first."""
    s = g.state
    do = act["do"]
    chance = -float(o.chance) if o is not None and o.chance is not None else -1.0
    if do == "retrieve":
        return (0, chance)
    if do == "navigate":
        dest = board.navigate(act["card"], act["player"], s.pos, s.options["cnot_phase_kickback"])
        if dest == s.pos:
            return (7, 0)
        if _leaves(s.pos, dest):
            return (8, 0)
        if GALAXY[dest[0]] != "entanglion":
            return (4, 0)
        if chance > -0.5:  # a roll more likely failed than not: never the first item
            return (6.5, chance)
        return (1 if s.planet_components.get(dest[0]) else 2, chance)
    if do == "event":
        return (3, 0)
    if do == "interconnect":
        return (5, 0)
    return (6, 0)


def _leaves(before: tuple[str, str], after: tuple[str, str]) -> bool:
    return GALAXY[before[0]] == "entanglion" and GALAXY[after[0]] != "entanglion"


def _action_item(g: Entanglion, act: dict[str, Any], o: odds.Odds | None) -> Item:
    s, do = g.state, act["do"]
    if do == "navigate":
        dest = board.navigate(act["card"], act["player"], s.pos, s.options["cnot_phase_kickback"])
        targets = tuple(dict.fromkeys(dest))
        if dest == s.pos:
            return Item(f"{act['card']}: no effect", act, targets)
        label = f"{act['card']} → {where(dest)}"
        if o is not None:
            label += f" {target_text(o)}"
        elif dest[0] == dest[1] and GALAXY[dest[0]] == "entanglion" and dest[0] != s.pos[0]:
            label += " safe"
        if _leaves(s.pos, dest):
            confirm = {"menu": "confirm", "title": "Leave Entanglion?",
                       "text": [f"{act['card']} takes the ships", f"out to {where(dest)}"],
                       "items": [Item("No, stay", {"session": "keep"}),
                                 Item("Yes, leave", act, targets)]}
            return Item(label, confirm, targets)
        return Item(label, act, targets)
    if do == "exchange":
        return Item(f"Exchange {act['card']}", act)
    if do == "retrieve":
        return Item(f"Retrieve {need_text(o)}", act, (s.pos[0],))
    if do == "event":
        return Item(f"Play {EVENT_SHORT[act['card']]}", act)
    return Item("Pass", act)


def _interconnect_item(g: Entanglion, trades: list[dict[str, Any]]) -> Item:
    other_ship = RUBICON if trades[0]["player"] == MERCURIAL else MERCURIAL
    menu = {"menu": "interconnect", "title": "Qubit Interconnect",
            "text": [f"Trade with {who(other_ship)}", "Free; then your move"],
            "items": [Item(f"Give {a['give']}, get {a['take']}", a) for a in trades]}
    return Item("Qubit Interconnect", menu)


def action_menu(g: Entanglion, only: str | None = None) -> dict[str, Any]:
    """Every legal action as a menu item, the most useful first (buttons alone can
    play the whole game): a roll's item says the face it needs and the chance."""
    acts = [a for a in g.legal_actions() if only is None or a["do"] == only]
    trades = [a for a in acts if a["do"] == "interconnect"]
    ranked = []
    plays = [a for a in acts if a["do"] != "interconnect"]
    for a, o in zip(plays, odds.moves(g, plays)):
        ranked.append((_rank(g, a, o), len(ranked), _action_item(g, a, o)))
    if trades:
        ranked.append(((5, 0), len(ranked), _interconnect_item(g, trades)))
    items = [item for _, _, item in sorted(ranked, key=lambda r: (r[0], r[1]))]
    if only is None and len(acts) > 1:
        items.append(Item("Hint", _HintMenu(g)))  # last: the autoplayer never opens it
    title = f"{who(g.turn_player)}: " + ("exchange" if only == "exchange" else "your move")
    text: list[str] = []
    if only == "exchange":
        text = ["Tap a card or choose"]
    elif g.check({"player": g.turn_player, "do": "retrieve"}) is None:
        text = [f"Here: {PART[g.state.planet_components[g.state.pos[0]]]}"]
    return {"title": title, "text": text, "items": items, **_bar(g)}


def _bar(g: Entanglion) -> dict[str, Any]:
    """The resting screen's title bar, kept by the menus of the turn (see ``bar`` in
    the OLED views): only the screen's own part of the panel changes."""
    s = g.state
    if s.status != "playing":
        return {}
    return {"bar": {"turn": who(s.turn_player), "number": s.turn_number}}


# ------------------------------------------------------------------ hints


class _HintMenu(dict):
    """The Hint menu of the move menu. The look-ahead takes about a second on the box,
    so it runs only when the menu is opened (its text or items are first read)."""

    def __init__(self, g: Entanglion):
        super().__init__(menu="hint", title="Hint")
        self._game = g

    def __missing__(self, key: str) -> Any:
        if key not in ("text", "items"):
            raise KeyError(key)
        self.update(hint_menu(self._game))
        return self[key]


def hint_menu(g: Entanglion, budget: int | None = None) -> dict[str, Any]:
    """The best input and the next best with their estimated chances to win; choosing
    one plays it. Seeded by the position, so asking twice gives the same answer."""
    found = hint.hints(g, budget or hint.DEFAULT_BUDGET, seed=len(g.inputs))
    items = [Item(hint_label(g, h["action"], h["win"]), h["action"]) for h in found[:2]]
    return {"menu": "hint", "title": "Hint", "text": ["Chance to win if you:"],
            "items": items + [Item("Back", {"session": "keep"})]}


def hint_label(g: Entanglion, act: dict[str, Any], win: float) -> str:
    """``H → PHI+ 72%``: a turn's input in at most 20 characters with its chance."""
    chance = f" {round(win * 100)}%"
    do = act["do"]
    if do == "navigate":
        s = g.state
        dest = board.navigate(act["card"], act["player"], s.pos, s.options["cnot_phase_kickback"])
        names = ([f"{act['card']}: no effect"] if dest == s.pos else
                 [f"{act['card']} → {where(dest)}", f"{act['card']}→{where(dest)}"])
    elif do == "exchange":
        names = [f"Exchange {act['card']}", f"Exch. {act['card']}"]
    elif do == "retrieve":
        names = ["Retrieve"]
    elif do == "event":
        names = [f"Play {EVENT_SHORT[act['card']]}", EVENT_SHORT[act["card"]]]
    elif do == "interconnect":
        names = [f"Trade {act['give']}>{act['take']}"]
    else:
        names = ["Pass"]
    return next((n for n in names if len(n + chance) <= 20), names[-1]) + chance


# ------------------------------------------------------------------ tags


def tag_action(g: Entanglion, card: Any, seat: str | None, pad: int,
               exchange: bool) -> dict[str, Any] | str:
    """What tapping ``card`` on ``pad`` (belonging to ``seat``, None = shared) means.

    Returns an engine input, an error string, a screen model (an info card) or a
    menu (a move out of Entanglion asks first).
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
    act = {"player": p, "do": "exchange" if exchange else "navigate", "card": name}
    if not exchange and g.check(act) is None:
        item = _action_item(g, act, odds.action_odds(g, act))
        if isinstance(item.action, dict) and "menu" in item.action:
            return item.action  # leaving Entanglion: asked first
    return act


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
    result = s.status if s.status in ("won", "lost") else None
    return {
        "ships": ships,
        "components": [p for p, c in s.planet_components.items()
                       if c and p not in s.pos],
        "detection": min(s.detection, LAST_SPACE),
        "result": result,
        "turn": s.turn_player if result is None and s.status == "playing" else None,
    }

