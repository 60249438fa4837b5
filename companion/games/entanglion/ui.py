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

from ...i18n import NC_, N_, for_catalog
from ...inputs import RETRIEVE
from ..common import HARMFUL, LONG_SHOT, SAFE, WASTED, Item, Step, fits_menu, text_width, wrap
from . import board, hint, odds
from .board import GALAXY, MERCURIAL, PROBE, RUBICON, SHIPS
from .cards import (
    COMPONENT_TEXT, COMPONENTS, EVENT_TEXT, EVENTS, HAND_SIZE, LAST_SPACE,
    track_value,
)
from .engine import Entanglion, IllegalAction
from .explain import explain
from .setup_steps import SETUP_STEPS
from .story import pages as story_pages
from .story import story
from .words import NAMES, gloss, name, part

_, ngettext, pgettext = for_catalog("entanglion")

__all__ = ["IllegalAction", "Item", "Step", "story"]  # the session uses these from here

NAME = "entanglion"
TITLE = "Entanglion"

SHORT = {
    "ZERO": "|0>", "ONE": "|1>", "PLUS": "|+>", "MINUS": "|->",
    "PHI_PLUS": "PHI+", "PHI_MINUS": "PHI-", "PSI_PLUS": "PSI+", "PSI_MINUS": "PSI-",
    "OMEGA_ZERO": "OMEGA0", "OMEGA_ONE": "OMEGA1", "OMEGA_TWO": "OMEGA2",
    "OMEGA_THREE": "OMEGA3",
}
# The tables below hold English marked for the catalogs (N_); every use translates.
EVENT_SHORT = {  # event names that fit a line with a few words around them
    "bennett": NC_("short", "Bennett"), "bit_flip_error": NC_("short", "Bit Flip Error"),
    "heisenberg": NC_("short", "Heisenberg"), "quantum_shuffle": NC_("short", "Q. Shuffle"),
    "quantum_tunnel": NC_("short", "Tunnel"), "schrodinger": NC_("short", "Schrödinger"),
    "spooky_action": NC_("short", "Spooky Action"), "the_mechanic": NC_("short", "The Mechanic"),
    "wave_function_collapse": NC_("short", "W.F. Collapse"),
}
PURPOSE = {  # a roll's purpose as a title: short, so in its own context ("Spooky Action"
    # is also an event's full name, which Czech prints much longer)
    "orbital defence": NC_("roll", "Orbital defence"), "ground defence": NC_("roll", "Ground defence"),
    "probe": NC_("roll", "PROBE"), "heisenberg": NC_("roll", "Heisenberg"),
    "spooky action": NC_("roll", "Spooky Action"), "first player": NC_("roll", "First player"),
    "ship placement": NC_("roll", "Ship placement"),
    "orbital detection jump": NC_("roll", "Evasive jump"),
}
# Translators: Short names of the cards and checks on the OLED's crowded lines (about 12
# characters).
ROLL_WORD = {"orbital defence": N_("Orbital"), "ground defence": N_("Ground"), "probe": "PROBE",
             "heisenberg": N_("Heisenberg"), "spooky action": N_("Spooky")}
# Translators: Short names of the causes of detection on the OLED's crowded lines (about 12
# characters).
WHY = {  # why the detection rate moved, in a few letters
    "orbital defence": N_("orbital"), "ground defence": N_("ground"), "probe": "PROBE",
    "schrodinger": N_("Schrödinger"), "bit_flip_error": N_("Bit Flip"), "wave_function_collapse":
    N_("W.F. Collapse"),
}
# Translators: One word for a roll's outcome or a turn order on the OLED, after a ship or a
# roll (about 10 characters).
ROLL_RESULT = {  # a roll's outcome as the roll screen shows it
    "detected": N_("DETECTED"), "evaded": N_("evaded"), "retrieved": N_("retrieved"),
    "no effect": N_("no effect"), "tie": N_("tie"), "first": N_("first"), "second": N_("second"),
}
# Translators: What a defence roll is for, one word on the OLED's roll screen ("for evade";
# about 10 characters).
WIN_WORD = {"orbital defence": N_("evade"), "ground defence": N_("retrieve"),
            "probe": N_("escape")}

PLACEMENTS = len(COMPONENTS)  # one setup screen per component put on its planet


# Translators: Who acts when the box does it (the box itself), at the start of an OLED line.
def who(ship: str | None) -> str:
    """A ship by its name (the same in every language), or the box itself."""
    return ship.capitalize() if ship else _("Box")


def event_short(event: str) -> str:
    """An event's name where a line has little room (its own context: the full names
    are the same words in English, not in every language)."""
    return pgettext("short", EVENT_SHORT[event])


def purpose(key: str) -> str:
    """What a roll is for, as its screen's title says it."""
    return pgettext("roll", PURPOSE[key]) if key in PURPOSE else key


def _said(table: dict[str, str], key: str) -> str:
    """A word from one of the tables above (the key itself when it has none)."""
    return _(table[key]) if key in table else key


def where(pos: Iterable[str]) -> str:
    m, r = pos
    return SHORT[m] if m == r else f"M{SHORT[m]} R{SHORT[r]}"


def card_name(card: str) -> str:
    return card if card.isupper() else name(card)


def chance_text(p: Fraction, one_die: bool = True) -> str:
    """A chance as eighths when it is one roll of the d8 ("3/8"), else (a re-roll, a
    PROBE that may come first) a percentage that never rounds a possible outcome to 0%
    or a doubtful one to 100%."""
    if one_die and (p * 8).denominator == 1:
        return f"{p * 8}/8"
    return f"{min(99, max(1, round(float(p) * 100)))}%"


# Translators: A roll that cannot fail, in place of "need 4+" on an OLED line (about 6
# characters).
def target_text(o: odds.Odds) -> str:
    """The number to beat and the chance, e.g. "5+ 4/8" (a sure or hopeless roll says so)."""
    if o.chance == 1:
        return _("sure")
    if not o.chance:
        return "0/8"  # no face is enough
    chance = chance_text(o.chance, one_die=not o.reroll and not o.probe)
    return f"{o.need}+ {chance}" if o.need is not None else chance


# Translators: The face a roll must beat, on an OLED line ("need 4+"; about 10 characters).
def need_text(o: odds.Odds) -> str:
    """``target_text`` said in words where it names a face: "need 5+ 4/8"."""
    target = target_text(o)
    return _("need {target}").format(target=target) if "+" in target else target


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


# Translators: an answer to a roll prompt, as the OLED's undo notice names it
# ("Rubicon: chose re-roll"; about 14 characters).
CHOICE_WORD = {  # an answer to a prompt, as the undo notice names it
    "keep": N_("keep the roll"), "reroll": N_("re-roll"), "use": N_("use it"),
    "accept": N_("accept"), "roll": N_("roll"), "stop": N_("stop"),
}


# Translators: Stands in for a choice the box cannot name, in the OLED's undo notice
# ("Rubicon: chose an option").
def describe(act: dict[str, Any]) -> str | None:
    """The undo notice for an event or an answer, by the names the cards print; None
    for the other inputs, which the session words itself."""
    card, value, ship = act.get("card"), act.get("value"), who(act.get("player"))
    if act.get("do") == "event" and card in EVENT_SHORT:
        # Translators: the undo notice, "Rubicon: event Tunnel" (what was taken back).
        return _("{ship}: event {event}").format(ship=ship, event=event_short(card))
    if act.get("do") == "choose":
        value = value if isinstance(value, str) else None  # a dict: a move, said generally
        if value in CHOICE_WORD:
            what = _(CHOICE_WORD[value])
        elif value in EVENT_SHORT:
            what = event_short(value)
        elif value in NAMES:  # a planet or a component
            what = name(value)
        else:
            what = _("an option")
        # Translators: the undo notice, "Rubicon: chose re-roll" (what was taken back).
        return _("{ship}: chose {what}").format(ship=ship, what=what)
    return None


def undo_block(g: Entanglion) -> str | None:
    return None  # every Entanglion input may be undone (dice and decks come back too)


def seat(config: Any, pad: int) -> str | None:
    """The ship a reader pad belongs to (None: shared)."""
    return config.pads[pad]


# Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width): the
# EXCHANGE button pressed with nothing to exchange.
def button(g: Entanglion, name: str) -> dict[str, Any] | str:
    """RETRIEVE retrieves; EXCHANGE opens the exchange menu (a tap then exchanges)."""
    if name == RETRIEVE:
        return {"player": g.awaiting(), "do": "retrieve"}
    model = action_menu(g, only="exchange")
    return {"menu": "exchange", **model} if model["items"] else _("Nothing to exchange")


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
    return _("Setup {index}/{total}").format(index=index,
                                             total=setup_total(g.state.options, g))


def _in_setup(g: Entanglion, upto: int) -> bool:
    return not any(e["type"] == "turn" for e in g.log[:upto])


# ------------------------------------------------------------------ screens


ROWS_PER_PAGE = 5
LINE_PX = 128  # a status line's width in pixels (Japanese characters take 8, Latin 6)


# Translators: The status lines under the OLED's title in play; each is a line of the box's
# OLED screen (21 characters; Japanese 16 full-width).
def status(g: Entanglion, page: int = 0) -> dict[str, Any]:
    """The resting screen. UP/DOWN pages through where each component is and the
    events each player holds."""
    s = g.state
    p = s.turn_player
    rows = [f"{SHORT[pl]:<7}{part(c)}" for pl, c in s.planet_components.items() if c]
    for ship in SHIPS:
        rows += [f"{who(ship):<10}{part(c)}" for c in s.ship_components[ship]]
    for ship in SHIPS:
        rows += [_("{initial} holds {event}").format(initial=who(ship)[:1], event=event_short(e))
                 for e in s.held_events[ship]]
    pages = 1 + -(-len(rows) // ROWS_PER_PAGE)
    page %= pages
    if page:
        chunk = rows[(page - 1) * ROWS_PER_PAGE:page * ROWS_PER_PAGE]
        return {"screen": "text", "title": _("Turn {number}: where").format(number=s.turn_number),
                "right": f"{page}/{pages - 1}", "lines": chunk, "hint": "UP/DOWN"}
    m, r = s.pos
    ships = _("Ships at {planet}").format(planet=SHORT[m]) if m == r else \
        f"M {SHORT[m]}  R {SHORT[r]}"
    count = len(s.hands[p])
    if s.options["deck"] == "virtual":
        hand = _("Hand {cards}").format(cards=" ".join(s.hands[p])) if count else _("Hand empty")
    else:
        hand = ngettext("Hand {n} card", "Hand {n} cards", count).format(n=count)
    aboard = sum(len(c) for c in s.ship_components.values())
    events = [event_short(e) for e in s.held_events[p]]
    parts = _("Parts {aboard}/8").format(aboard=aboard)
    if events:
        listed = f"{parts}  {', '.join(events)}"
        parts = listed if text_width(listed) <= LINE_PX else ngettext(
            "{parts}, {n} event", "{parts}, {n} events", len(events)).format(
                parts=parts, n=len(events))
    return {
        "screen": "status",
        "turn": who(p), "number": s.turn_number,
        "detection": {"space": s.detection, "value": track_value(s.detection)},
        "ships": ships, "engine_control": len(s.engine_control),
        "hand": hand,
        "parts": parts, "next": _next_step(g),
    }


def _next_step(g: Entanglion) -> str:
    """What the player to move can do now, in words."""
    act = {"player": g.state.turn_player, "do": "retrieve"}
    if g.check(act) is None:
        return "RETRIEVE: " + need_text(odds.action_odds(g, act))
    return _("Tap a card; OK: moves")


def end_screen(g: Entanglion, page: int = 0, told: dict[str, Any] | None = None
               ) -> dict[str, Any]:
    """The result, then (UP/DOWN) the story of the game on pages."""
    s = g.state
    more = story_pages(told) if told else []
    page %= 1 + len(more)
    reason = result_reason(g) or ""
    out = {
        "screen": "end", "result": s.status, "reason": _(reason),
        "turns": s.turn_number, "parts": sum(len(c) for c in s.ship_components.values()),
        "detection": {"space": s.detection, "value": track_value(s.detection)},
        "page": page, "pages": 1 + len(more),
        "time": told.get("time") if told else None,
    }
    if page:
        out.update(more[page - 1])
    return out


def _card_screen(kind: str, key: str, title: str, footer: str) -> dict[str, Any]:
    text = EVENT_TEXT[key] if kind == "event" else COMPONENT_TEXT[key]
    return {"screen": "card", "kind": kind, "title": title, "name": name(key),
            "gloss": gloss(key), "text": _(text), "footer": footer}


def _roll_screen(e: dict[str, Any]) -> dict[str, Any]:
    centarious = e["die"] == "centarious"
    result = e.get("result")
    if centarious or e["purpose"] in ("heisenberg", "spooky action"):
        result = SHORT.get(result, result)
    elif result in ROLL_RESULT:
        result = _(ROLL_RESULT[result])
    return {
        "screen": "roll", "player": who(e["player"]),
        "die": e["die"], "purpose": purpose(e["purpose"]),
        "value": e.get("reroll", e["raw"]), "modifier": e.get("modifier", 0),
        "modified": e.get("modified", e["raw"]), "beat": e.get("beat"),
        "need": None if e.get("beat") is None else odds.need(e["beat"], e.get("modifier", 0)),
        "result": result, "alarm": e.get("result") == "detected", "frame": None,
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


# Translators: The hint at the foot of an OLED notice: OK shows the next one (a line of the
# box's OLED screen (21 characters; Japanese 16 full-width)).
def _text(title: str, lines: list[str], hint: str = "", **extra: Any) -> dict[str, Any]:
    return {"screen": "text", "title": title, "lines": lines, "hint": hint or _("OK next"),
            **extra}


# Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width): a
# ship takes cards into its hand.
def _take(ship: str | None, cards: list[str]) -> str:
    return _("{ship} take {cards}").format(ship=who(ship), cards=_(", ").join(cards))


SUMMARY_LINES = 4  # a text screen under the turn bar holds four lines above its hint


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

    # Translators: The set-up's screens; each is a line of the box's OLED screen (21
    # characters; Japanese 16 full-width). "Put {component}" and "on {planet}" are one
    # sentence over two lines.
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
                    self.out.append(_text(_("Parts"), [_("Put {component}").format(
                        component=name(comp)), _("on {planet}").format(planet=name(planet))],
                                          right=_setup_counter(g, len(SETUP_STEPS) + i),
                                          leds=self.board.model(list(placed), planet)))
            if t == "setup" and "ships" in g.setup or (
                    t == "roll" and e["purpose"] == "ship placement" and self.board.pos):
                index += 1
                self.out.append(_text(_("Start"), self._start_lines(self.earlier + k),
                                      right=_setup_counter(g, index), leds=self.board.model()))
            elif t == "draw" and not self.physical and e["card"] not in (None, PROBE):
                deal.setdefault(e["player"], []).append(e["card"])
        if deal:
            index += 1
            self.out.append(_text(_("Deal"), [_take(p, c) for p, c in deal.items()],
                                  right=_setup_counter(g, index), leds=self.board.model()))

    # Translators: The lines that say who starts and where the ships are; each is a line of
    # the box's OLED screen (21 characters; Japanese 16 full-width).
    def _start_lines(self, upto: int) -> list[str]:
        """Detection, who starts (and the rolls that said so), where the ships are."""
        lines = [_("Detection: space {space}").format(space=self.board.detection)]
        rolls = [e["raw"] for e in self.g.log[:upto + 1]
                 if e["type"] == "roll" and e["purpose"] == "first player"]
        if len(rolls) >= 2:
            ties = len(rolls) // 2 - 1
            first = _("First roll M {m} R {r}").format(m=rolls[-2], r=rolls[-1])
            if ties:
                first += ngettext(", {n} tie", ", {n} ties", ties).format(n=ties)
            lines.append(first)
        lines.append(_("{ship} starts").format(ship=who(self.g.state.turn_player)))
        if self.board.pos:
            m, r = self.board.pos
            lines.append(_("Ships: both {planet}").format(planet=SHORT[m]) if m == r else
                         _("Ships: M {m}, R {r}").format(m=SHORT[m], r=SHORT[r]))
        return lines

    # -------------------------------------------------------------- play

    # Translators: The notices after a move ("What happened" is their title); each is a line
    # of the box's OLED screen (21 characters; Japanese 16 full-width). A sentence split
    # over two lines keeps its order ("{ship} gives {card}" / "and takes {card}").
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
        title = _("What happened")
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
                if cause == "orbital detection":  # the board moved: as much as a take
                    lines.append((1, _("Jump to {where}").format(where=where(e['to']))))
                else:
                    lines.append((2, f"{card_name(cause)}: {where(e['to'])}"))
            elif t == "no_effect":
                lines.append((3, _("{card}: no effect").format(card=card_name(e['card']))))
            elif t == "draw":
                if e["card"] is None:
                    lines.append((2, _("No engine cards left")))
                elif not self.physical and e["card"] != PROBE:
                    takes.setdefault(p, []).append(e["card"])
            elif t == "roll" and e["die"] == "d8":
                lines.append((1, _roll_line(e)))
            elif t == "detection":
                lines.append((1, _("Det {before}→{after} {why}").format(
                    before=before, after=e['space'], why=_said(WHY, e['reason']))))
                before = e["space"]
            elif t == "event":
                short = event_short(e["card"])
                shown = e is card_event  # its card follows
                if "defence" in e:
                    lines.append((2, (_("{event}: no orbital roll") if e["defence"] == "orbital"
                                      else _("{event}: no ground roll")).format(event=short)))
                elif e.get("kept"):
                    lines.append((1, _("{event}: keep it").format(event=short)))
                elif "note" in e:
                    lines.append((3 if shown else 2, _("{event}: discarded").format(event=short)))
                else:
                    lines.append((3 if shown else 2, _("Event: {event}").format(event=short)))
            elif t == "engine_control_cleared":
                lines.append((3, _("Engine slots cleared")))
            elif t == "retrieved":
                lines.append((1, _("{component} aboard").format(component=part(e['component']))))
            elif t == "teleported":
                lines.append((2, f"{part(e['component'])}→{SHORT[e['planet']]}"))
            elif t == "transfer":
                lines.append((2, f"{part(e['component'])} {who(e['from'])[:1]}→"
                                 f"{who(e['to'])[:1]}"))
            elif t == "keep":
                lines.append((2, _("Kept {card}, drop {dropped}").format(
                    card=e['card'], dropped=' '.join(e['discarded']))))
                for c in e["discarded"]:
                    if c in takes.get(p, []):
                        takes[p].remove(c)
            elif t == "discard":
                lines.append((1, _("{ship}: drop {card}").format(ship=who(p), card=e['card'])))
            elif t == "bypass":
                lines.append((3, _("Programming: no roll")))
            elif t == "interconnect":
                title = name("qubit_interconnect")
                lines.append((1, _("{ship} gives {card}").format(ship=who(p), card=e['give'])))
                lines.append((1, _("and takes {card}").format(card=e['take'])))
            elif t == "reshuffle":
                if e["deck"] == "engine":
                    lines += [(1, _("Shuffle the engine")), (1, _("discard: new stack"))] \
                        if self.physical else [(3, _("Engine deck shuffled"))]
                else:
                    lines += [(1, _("Rebuild event deck:")), (1, _("3, Q. Shuffle, rest"))] \
                        if self.physical else [(3, _("Event deck rebuilt"))]
        pending = self.g.pending
        if pending and pending["kind"] in ("quantum_gates", "mechanic"):
            for c in pending.get("drawn", []):  # chosen from the prompt, not taken yet
                if c in takes.get(pending["player"], []):
                    takes[pending["player"]].remove(c)
        lines += [(1, _take(p, cards)) for p, cards in takes.items() if cards]
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
            self.out.append(_text(title, summary, _("▼ more  OK") if more else "OK", leds=final,
                                  summary=True, **bar,
                                  **({"details": details} if more else {})))
        if card is not None:
            self.out.append({**card, "leds": final, **bar})

    # Translators: The lines of the card screen after a draw or a retrieval; each is a line
    # of the box's OLED screen (21 characters; Japanese 16 full-width).
    def _card(self, entries: list[dict[str, Any]]
              ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """The one card worth a screen (a component retrieved, else an event drawn),
        and the event entry it shows (None for a component)."""
        for e in entries:
            if e["type"] == "retrieved":
                return _card_screen("component", e["component"], _("Retrieved!"),
                                    _("aboard {ship}").format(ship=who(e['player']))), None
        for e in entries:
            if e["type"] == "event" and "defence" not in e:  # a Tunnel used is a line
                ship = who(e['player'])
                footer = (_("{ship} keeps it").format(ship=ship) if e.get("kept") else
                          _("discarded (hand limit)") if "note" in e else _("happens now"))
                return _card_screen("event", e["card"], _("{ship} draws").format(ship=ship),
                                    footer), e
        return None, None


# Translators: The title of the screen that says what a ship did (a title bar: about 18
# characters).
def _action_title(e: dict[str, Any]) -> str:
    """"Mercurial plays H", "Rubicon retrieves" (the player's initial if it is long)."""
    card = e.get("card")
    if e["do"] == "event":
        card = event_short(card) if card in EVENT_SHORT else card
    verb = {"navigate": _("{ship} plays {card}"), "exchange": _("{ship} exchanges {card}"),
            "retrieve": _("{ship} retrieves"), "pass": _("{ship} passes"),
            "event": _("{ship} plays {card}")}[e["do"]]
    title = verb.format(ship=who(e['player']), card=card)
    return title if len(title) <= 21 else verb.format(ship=who(e['player'])[:1] + ".", card=card)


# Translators: A failed defence roll, one word at the end of an OLED line.
def _roll_line(e: dict[str, Any]) -> str:
    """One roll in a line: "Orbital 2→6+1: evaded"."""
    value = f"{e['raw']}→{e['reroll']}" if "reroll" in e else str(e["raw"])
    if e.get("modifier"):
        value += f"{e['modifier']:+d}"
    result = e["result"]
    if e["purpose"] in ("heisenberg", "spooky action"):
        result = SHORT.get(result, result)
    elif result == "detected" and e["purpose"] == "probe":
        result = _("detected")
    else:
        result = _said(ROLL_RESULT, result)
    return f"{_said(ROLL_WORD, e['purpose'])} {value}: {result}"


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
        return f"{value}: {SHORT['ONE' if value else 'ZERO']}"  # symbols: no words
    chance = odds.answer_odds(g, value)
    if chance is None:
        return str(value)
    if chance == 1:
        return f"{value}: {_said(WIN_WORD, p['purpose'])}"
    if chance:  # a Magnetic Shielding re-roll follows
        return _("{face}: fail, re-roll {chance}").format(face=value, chance=chance_text(chance))
    return f"{value}: {_fail_word(p['purpose'])}"


# Translators: A failed defence roll, one word on the OLED (capitals where the language has
# them: the big word of the roll screen).
def _fail_word(purpose: str) -> str:
    return _("detected") if purpose == "probe" else _("DETECTED")  # a PROBE is a lesser blow


# Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width): no
# face of the die makes the roll.
def _need_line(o: odds.Odds) -> str:
    if o.need > 8:
        return _("No face is enough")
    return _("Need {need}+ to {win}").format(need=o.need, win=_(WIN_WORD[o.purpose]))


# Translators: The choices after a defence roll; each is an item of an OLED menu (20
# characters; Japanese 16 full-width).
def _option_label(g: Entanglion, kind: str, value: Any) -> tuple[str, tuple[str, ...]]:
    p = g.pending
    if kind == "roll":
        return _roll_face(g, p, value), ()
    if kind == "magnetic_shielding":
        chance = odds.answer_odds(g, value)
        if value == "keep":
            if chance is None:
                return _("Keep the {face}").format(face=p['raw']), ()
            return _("Keep: {outcome}").format(
                outcome=_said(WIN_WORD, p['purpose']) if chance else _fail_word(p['purpose'])), ()
        return (_("Re-roll") if chance is None else
                _("Re-roll: {chance}").format(chance=chance_text(chance))), ()
    if kind == "quantum_tunnel":
        if value == "use":
            return _("Use Tunnel: no roll"), ()
        if value == "accept":
            return _("Accept: detected"), ()
        return _("Roll: {target}").format(target=target_text(odds.prompt_odds(g))), ()
    if kind == "physical_qubits":
        m, r = value[MERCURIAL], value[RUBICON]
        return _("M to {m}, R to {r}").format(m=SHORT[m], r=SHORT[r]), \
            tuple(dict.fromkeys((m, r)))
    if kind == "bennett":
        return (f"{part(value['component'])} {who(value['from'])[:1]}→"
                f"{who(value['to'])[:1]}"), ()
    if kind == "mechanic":
        if value == "stop":
            return _("Stop"), ()
        dest = board.navigate(value, p["player"], g.state.pos,
                              g.state.options["cnot_phase_kickback"])
        return f"{value} → {_('no effect') if dest == g.state.pos else where(dest)}", \
            tuple(dict.fromkeys(dest))
    return (event_short(value) if value in EVENT_SHORT else card_name(value)), ()


# Translators: What a prompt asks for, short names on an OLED line ("Bennett: discard";
# about 14 characters).
_PROMPT_TITLE = {  # a lower-case title is the player's: "Mercurial: roll"
    "roll": N_("roll"), "magnetic_shielding": N_("Magnetic Shielding"),
    "quantum_tunnel": N_("Quantum Tunnel?"), "physical_qubits": N_("Physical Qubits"),
    "bennett": N_("Bennett"), "mechanic": N_("The Mechanic"), "quantum_gates": N_("Quantum Gates"),
    "discard": N_("discard"), "draw": N_("draw"),
}
# Translators: The title of a prompt screen when the players roll, draw or discard real
# cards (a title bar).
_SETUP_PROMPT_TITLE = {"roll": N_("Roll"), "draw": N_("Draw"), "discard": N_("Discard")}


# Translators: The lines of a prompt (roll a die, draw a card); each is a line of the box's
# OLED screen (21 characters; Japanese 16 full-width). A sentence split over two lines keeps
# its order ("Orbital roll failed:" / "use the Tunnel?").
def _prompt_text(g: Entanglion, p: dict[str, Any]) -> list[str]:
    k = p["kind"]
    o = odds.prompt_odds(g)
    said = purpose(p.get("purpose", ""))
    if k == "roll":
        # Translators: the galaxy's name as your edition prints it (Czech: Centarius).
        die = "d8" if p["die"] == "d8" else _("Centarious")
        lines = [_("{ship}: roll {die}").format(ship=who(p['player']), die=die),
                 _("for {purpose}").format(purpose=said)]
        return lines + ([_need_line(o)] if o is not None else [])
    if k == "magnetic_shielding":
        word = _said(ROLL_WORD, p['purpose']) if p["purpose"] in ROLL_WORD else said
        lines = [_("{roll} roll: {face}").format(roll=word, face=p['raw'])]
        return lines + ([_need_line(o)] if o is not None else [])
    if k == "quantum_tunnel":
        orbital = p["defence"] == "orbital"
        if p["options"] == ["use", "accept"]:
            return [_("Orbital roll failed:") if orbital else _("Ground roll failed:"),
                    _("use the Tunnel?")]
        return [_("Orbital defence due") if orbital else _("Ground defence due"),
                _("Tunnel skips the roll")]
    if k == "physical_qubits":
        return [_("Detected! Choose where"), _("the ships jump")]
    if k == "bennett":
        return [_("Move one component")]
    if k == "mechanic":
        return [_("Play {n} of 2: {cards}").format(n=p['plays'] + 1, cards=' '.join(p['drawn']))]
    if k == "quantum_gates":
        return [_("Drew {cards}: keep one").format(cards=' '.join(p['drawn']))]
    if k == "discard":
        # Translators: one sentence over two screen lines ("Hand limit 3: tap or /
        # choose a card"): tap a card on a pad, or choose one in the menu below.
        return [_("Hand limit {limit}: tap or").format(limit=p['limit']), _("choose a card")]
    if k == "draw":
        # Translators: two screen lines: "Mercurial draws:" / "tap it or choose" (the
        # drawn card on a pad, or choose it in the menu below).
        return [_("{ship} draws:").format(ship=who(p['player'])), _("tap it or choose")]
    return []


# Translators: An item of an OLED menu (20 characters; Japanese 16 full-width): the menu
# item that asks the box for a hint.
def prompt_menu(g: Entanglion) -> dict[str, Any]:
    """The pending decision as a menu (title, context lines, items)."""
    p = g.pending
    assert p is not None
    items = []
    kind = p["kind"]
    for i, value in enumerate(p["options"]):
        label, targets = _option_label(g, kind, value)
        act: dict[str, Any] = {"player": p["player"], "do": "choose", "index": i}
        risk = _option_risk(g, kind, value)
        if kind == "mechanic" and value != "stop":
            act = _asking_to_leave(g, value, p["player"], act)
        items.append(Item(label, act, targets, risk))
    if kind not in ("roll", "draw") and len(items) > 1:  # (not a die or card to enter)
        items.append(Item(_("Hint"), _HintMenu(g)))
    model: dict[str, Any] = {"title": _(_PROMPT_TITLE[kind]), "text": _prompt_text(g, p),
                             "items": items}
    if _in_setup(g, len(g.log)):  # a setup roll or draw: the counter goes on
        started = g.state.status != "setup"  # ships placed: the start screen was shown
        index = len(SETUP_STEPS) + PLACEMENTS + len(g.inputs) + 1 + started
        model.update(title=_(_SETUP_PROMPT_TITLE.get(kind, _PROMPT_TITLE[kind])),
                     right=_setup_counter(g, index))
    else:
        model.update(_bar(g))
        if kind in _SETUP_PROMPT_TITLE:  # the player's own step
            model["title"] = f"{who(p['player'])}: {model['title']}"
    return model


def _option_risk(g: Entanglion, kind: str, value: Any) -> int:
    """How much OK on a prompt's answer could be regretted (``common.default_cursor``)."""
    p = g.pending
    if kind == "magnetic_shielding" and p.get("purpose") in odds.CHECKS:
        kept = odds.answer_odds(g, "keep")  # 0: the roll failed, 1: it succeeded
        return HARMFUL if (value == "keep") == (kept == 0) else SAFE
    if kind == "quantum_tunnel":
        if value == "accept":
            return HARMFUL
        if value == "roll":
            chance = odds.answer_odds(g, value)
            return LONG_SHOT if chance is not None and chance < Fraction(1, 2) else SAFE
    if kind == "mechanic" and value != "stop":
        s = g.state
        dest = board.navigate(value, p["player"], s.pos, s.options["cnot_phase_kickback"])
        return WASTED if dest == s.pos else HARMFUL if _leaves(s.pos, dest) else SAFE
    return SAFE


def _risk(g: Entanglion, act: dict[str, Any], o: odds.Odds | None) -> int:
    """How much OK on a turn's input could be regretted: a move that takes the ships out
    of Entanglion, one that does nothing, a Bennett with nothing aboard to move, a roll
    more likely lost than won (``common.default_cursor``)."""
    s = g.state
    if hint.no_effect(g, act):
        return WASTED
    if act["do"] == "navigate" and _leaves(
            s.pos, board.navigate(act["card"], act["player"], s.pos,
                                  s.options["cnot_phase_kickback"])):
        return HARMFUL
    if o is not None and o.chance is not None and o.chance < Fraction(1, 2):
        return LONG_SHOT
    return SAFE


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


# Translators: A player's possible actions; each is an item of an OLED menu (20 characters;
# Japanese 16 full-width) ("Exch." is the short form when the card's name is long).
def _action_item(g: Entanglion, act: dict[str, Any], o: odds.Odds | None) -> Item:
    s, do = g.state, act["do"]
    if do == "navigate":
        dest = board.navigate(act["card"], act["player"], s.pos, s.options["cnot_phase_kickback"])
        targets = tuple(dict.fromkeys(dest))
        if dest == s.pos:
            return Item(_("{card}: no effect").format(card=act['card']), act, targets, WASTED)
        names = [f"{act['card']} → {where(dest)}", f"{act['card']}→{where(dest)}"]
        if o is not None:
            label = _fitting(names, [f" {target_text(o)}"])
        else:  # no roll; but the card drawn in its place may be the PROBE
            probe = odds.probe_drawn(g, act)
            safe = dest[0] == dest[1] and GALAXY[dest[0]] == "entanglion" \
                and dest[0] != s.pos[0] and not probe
            label = _fitting(names, _probe_suffixes(probe) if probe else
                             # Translators: "safe" ends a 20-character menu item after a
                             # move such as "CNOT→OMEGA2" (12 characters): no roll can go
                             # wrong; 8 characters at most.
                             [" " + _("safe")] if safe else [""])
        return Item(label, _asking_to_leave(g, act["card"], act["player"], act),
                    targets, _risk(g, act, o))
    risk = _risk(g, act, o)
    if do == "exchange":
        names = [_("Exchange {card}").format(card=act['card']),
                 _("Exch. {card}").format(card=act['card'])]
        return Item(_fitting(names, _probe_suffixes(odds.probe_drawn(g, act))), act, (), risk)
    if do == "retrieve":
        return Item(_("Retrieve {need}").format(need=need_text(o)), act, (s.pos[0],), risk)
    if do == "event":
        names = [_("Play {event}").format(event=event_short(act['card'])),
                 event_short(act['card'])]
        return Item(_fitting(names, _probe_suffixes(odds.probe_drawn(g, act))), act, (), risk)
    return Item(_("Pass"), act, (), risk)


# Translators: The chance of a PROBE, after an item of the OLED menu ("PROBE 1/8").
def _probe_suffixes(p: Fraction) -> list[str]:
    """What an item adds for the chance of drawing the PROBE (nothing when none),
    longest first."""
    if not p:
        return [""]
    chance = "100%" if p == 1 else chance_text(p, one_die=False)  # (a word may not fit)
    return [" " + _("PROBE {chance}").format(chance=chance), f" P{chance}"]


def _fitting(names: list[str], suffixes: list[str]) -> str:
    """The first name with the first suffix that fit a menu item together (the most
    said first), else the shortest of both."""
    for suffix in suffixes:
        for label in names:
            if fits_menu(label + suffix):
                return label + suffix
    return names[-1] + suffixes[-1]


# Translators: The question before leaving the Entanglion galaxy: two text lines (a line of
# the box's OLED screen (21 characters; Japanese 16 full-width)) and two menu items (an item
# of an OLED menu (20 characters; Japanese 16 full-width)).
def _asking_to_leave(g: Entanglion, card: str, player: str, act: dict[str, Any]
                     ) -> dict[str, Any]:
    """``act``, or, when playing ``card`` takes the ships out of Entanglion, a menu
    that asks first (every way out asks: the move menu, a tap, The Mechanic, the Hint)."""
    s = g.state
    dest = board.navigate(card, player, s.pos, s.options["cnot_phase_kickback"])
    if not _leaves(s.pos, dest):
        return act
    targets = tuple(dict.fromkeys(dest))
    return {"menu": "confirm", "title": _("Leave Entanglion?"),
            "text": [_("{card} takes the ships").format(card=card),
                     _("out to {where}").format(where=where(dest))],
            "items": [Item(_("No, stay"), {"session": "keep"}),
                      Item(_("Yes, leave"), act, targets, HARMFUL)]}


# Translators: The Qubit Interconnect's trade, as an item of an OLED menu (20 characters;
# Japanese 16 full-width) and its second line.
def _interconnect_item(g: Entanglion, trades: list[dict[str, Any]]) -> Item:
    other_ship = RUBICON if trades[0]["player"] == MERCURIAL else MERCURIAL
    title = name("qubit_interconnect")
    menu = {"menu": "interconnect", "title": title,
            "text": [_("Trade with {ship}").format(ship=who(other_ship)),
                     _("Free; then your move")],
            "items": [Item(_("Give {give}, get {take}").format(give=a['give'], take=a['take']), a)
                      for a in trades]}
    return Item(title, menu)


# Translators: The action menu's title and lines; each is a line of the box's OLED screen
# (21 characters; Japanese 16 full-width).
def action_menu(g: Entanglion, only: str | None = None) -> dict[str, Any]:
    """Every legal action as a menu item, the most useful first (buttons alone can
    play the whole game): a roll's item says the face it needs and the chance."""
    acts = [a for a in g.legal_actions() if only is None or a["do"] == only]
    trades = [a for a in acts if a["do"] == "interconnect"]
    ranked = []
    plays = [a for a in acts if a["do"] != "interconnect"]
    for a, o in zip(plays, odds.moves(g, plays)):
        item = _action_item(g, a, o)
        ranked.append(((item.risk, *_rank(g, a, o)), len(ranked), item))
    if trades:
        ranked.append(((SAFE, 5, 0), len(ranked), _interconnect_item(g, trades)))
    # The least risky first, then the most useful (so a long shot is never on top).
    items = [item for _, _, item in sorted(ranked, key=lambda r: (r[0], r[1]))]
    if only is None and len(acts) > 1:
        # First, so pre-selected: OK, OK asks the box, and the hint's pick is one more OK.
        items.insert(0, Item(_("Hint"), _HintMenu(g)))
    title = f"{who(g.turn_player)}: " + (_("exchange") if only == "exchange" else _("your move"))
    text: list[str] = []
    if only == "exchange":
        text = [_("Tap a card or choose")]
    elif g.check({"player": g.turn_player, "do": "retrieve"}) is None:
        text = [_("Here: {component}").format(
            component=part(g.state.planet_components[g.state.pos[0]]))]
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

    # Translators: The title of the hint screen (a title bar).
    def __init__(self, g: Entanglion):
        super().__init__(menu="hint", title=_("Hint"))
        self._game = g

    def __missing__(self, key: str) -> Any:
        if key not in ("text", "items"):
            raise KeyError(key)
        self.update(hint_menu(self._game))
        return self[key]


# Translators: The hint screen's title and its way back (an item of an OLED menu (20
# characters; Japanese 16 full-width)).
def hint_menu(g: Entanglion, budget: int | None = None) -> dict[str, Any]:
    """The best input and the next best with their estimated chances to win; choosing
    one plays it. Seeded by the position, so asking twice gives the same answer."""
    found = [h for h in hint.hints(g, budget or hint.DEFAULT_BUDGET, seed=len(g.inputs))
             if h["win"] is not None]
    items = [Item(hint_label(g, h["action"], h["win"]), _hinted(g, h["action"]))
             for h in found[:2]]
    return {"menu": "hint", "title": _("Hint"), "text": [_("Chance to win if you:")],
            "items": items + [Item(_("Back"), {"session": "keep"})]}


def _hinted(g: Entanglion, act: dict[str, Any]) -> dict[str, Any]:
    """A hint's input, asking first if it takes the ships out of Entanglion."""
    if act["do"] == "navigate":
        return _asking_to_leave(g, act["card"], act["player"], act)
    if act["do"] == "choose" and g.pending["kind"] == "mechanic" and act["value"] != "stop":
        return _asking_to_leave(g, act["value"], act["player"], act)
    return act


def hint_label(g: Entanglion, act: dict[str, Any], win: float) -> str:
    """``H → PHI+ 72%``: a turn's input with its chance, in the width of a menu item
    (the longest wording that fits, in the current language)."""
    chance = f" {round(win * 100)}%"
    names = input_names(g, act)
    return next((n for n in names if fits_menu(n + chance)),
                names[-1]) + chance


# Translators: The actions as the log and the page name them ("Exch.": the short form when
# the name is long); each is an item of an OLED menu (20 characters; Japanese 16
# full-width).
def input_names(g: Entanglion, act: dict[str, Any]) -> list[str]:
    """An input in words, longest first (``H → M|+> R|1>``, ``H→M|+> R|1>``)."""
    do, card = act["do"], act.get("card")
    if do == "navigate":
        s = g.state
        dest = board.navigate(card, act["player"], s.pos, s.options["cnot_phase_kickback"])
        names = ([_("{card}: no effect").format(card=card)] if dest == s.pos else []) + [
            f"{card} → {where(dest)}", f"{card}→{where(dest)}"]
    elif do == "exchange":
        names = [_("Exchange {card}").format(card=card), _("Exch. {card}").format(card=card)]
    elif do == "retrieve":
        names = [_("Retrieve")]
    elif do == "event":
        names = [_("Play {event}").format(event=event_short(card)), event_short(card)]
    elif do == "interconnect":
        names = [_("Give {give}, get {take}").format(give=act["give"], take=act["take"]),
                 f"{act['give']}>{act['take']}"]
    elif do == "choose":  # a prompt's answer, as the prompt lists it
        names = [_option_label(g, g.pending["kind"], act["value"])[0]]
    else:
        names = [_("Pass")]
    return names


# ------------------------------------------------------------------ tags


# Translators: What a card tapped on the reader means; each is a line of the box's OLED
# screen (21 characters; Japanese 16 full-width).
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
                           if c == card.name), _("off the board"))
        return _card_screen("component", card.name, _("Component"),
                            _("now: {where}").format(where=where_))
    p = g.awaiting()
    if p is None:
        return _("The game is over")
    if seat is not None and seat != p:
        return _("Pad {pad} is {owner}'s; {ship} is up").format(pad=pad, owner=who(seat),
                                                                 ship=who(p))
    key = card.name.upper() if card.kind == "engine" else card.name
    if g.pending:
        kind = g.pending["kind"]
        if kind not in ("draw", "mechanic", "quantum_gates", "discard"):
            return _("Choose with UP/DOWN, OK")
        if key not in g.pending["options"]:
            return _("{card} is not a choice here").format(card=card_name(key))
        act = {"player": p, "do": "choose", "value": key}
        return _asking_to_leave(g, key, p, act) if kind == "mechanic" else act
    # The refusals a tap meets most, in the table's words (the engine's are English).
    if card.kind == "event":
        if key not in g.state.held_events[p]:
            return _("{ship} does not hold {event}").format(ship=who(p), event=name(key))
        return {"player": p, "do": "event", "card": key}
    if card.kind != "engine":
        return _("That card does nothing here")
    if key == PROBE:
        return _("PROBE is never played")
    if key not in g.state.hands[p]:
        return _("{ship} has no {card} in hand").format(ship=who(p), card=key)
    act = {"player": p, "do": "exchange" if exchange else "navigate", "card": key}
    if not exchange and g.check(act) is None:
        return _asking_to_leave(g, key, p, act)  # leaving Entanglion: asked first
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

