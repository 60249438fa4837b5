"""How QNO meets the box: screens, prompts, tag taps and LEDs for this game.

The same contract as ``games.entanglion.ui`` (the session is game-agnostic). The
shared OLED never shows a hand, although with tracked hands the box knows them all:
what it shows is public at the table anyway (the effective top, counts, whose turn).
The H outcome is committed before the guess and appears only after it, and nothing
on screen, LEDs or sound differs with the hidden outcome until then.
"""

from __future__ import annotations

import re
from typing import Any

from ...i18n import N_, for_catalog
from ..common import SAFE, WASTED, Item, Step
from . import circuit
from .cards import DRAW_TWO, GATES, HAND_SIZE, REVERSE, SKIP, is_card, ket, label, parse
from .engine import IllegalAction, Qno
from .story import pages as story_pages
from .story import story

_, ngettext, pgettext = for_catalog("qno")

__all__ = ["IllegalAction", "Item", "Step", "story"]  # the session uses these from here

NAME = "qno"
TITLE = "QNO"

# Labels are English marked for the catalogs (N_); the session translates them when
# shown. Each table size is its own label: Polish and Czech word 2-4 and 5-6 apart.
# Translators: The set-up's questions and answers; each answer is an item of an OLED menu
# (20 characters; Japanese 16 full-width).
SETUP_STEPS = (
    Step("players", N_("Players"), ((N_("2 players"), 2), (N_("3 players"), 3),
                                    (N_("4 players"), 4), (N_("5 players"), 5),
                                    (N_("6 players"), 6))),
    Step("hands", N_("Hands"), ((N_("Tap every card drawn"), "tracked"),
                                (N_("Tap plays only"), "honour"))),
)

# Translators: Action cards' names as the QNO edition prints them, on the OLED (about 12
# characters).
VALUE_WORDS = {"draw_two": N_("Draw Two"), "skip": N_("Skip"), "reverse": N_("Reverse")}
# Translators: Why a player drew penalty cards, on an OLED line (about 16 characters).
REASON = {"draw_two": N_("Draw Two"), "h_reward": N_("H guessed"), "h_penalty": N_("H missed"),
          "caught": N_("caught: no QNO!")}  # why a player draws (a deal or a draw goes unsaid)
# Translators: short card values after a ket, as in "|10> Skip" and "|01> Rev" (Reverse).
SHORT_VALUE = {SKIP: N_("Skip"), REVERSE: N_("Rev")}
# Translators: Why a QNO game ended, on an OLED line (about 16 characters).
GAME_OVER = {"empty hand": N_("empty hand"),
             "draw pile empty: fewest cards": N_("draw pile empty: fewest cards")}
CIRCUIT_WINDOW = 12  # columns on one OLED page

# Why the engine refuses an input, as its ``check`` words it (English, with the
# placeholders named here): the screens show it in the table's language. The
# longer form of a pair comes first, so it wins the match.
# Translators: Why the box refused an input; each is a line of the box's OLED screen (21
# characters; Japanese 16 full-width).
REFUSALS = (
    N_("The game is over"), N_("Player {player} is up"),
    N_("No card is being dealt or drawn"), N_("The start card is already up"),
    N_("Every {card} is already in play"), N_("Nothing to choose"),
    N_("Choose one of {options}"), N_("Pass only after drawing (play or draw)"),
    N_("Tap the cards you draw first"), N_("Turn up the start card"),
    N_("Choose the qubit first"), N_("Guess the outcome first"),
    N_("Play the drawn card or keep it"), N_("Only the card just drawn may be played"),
    N_("That card is not in your hand (tap cards as you draw them)"),
    N_("Every {card} is already on the discard pile"),
    N_("Does not match {ket} or {value}"), N_("Does not match {ket}"),
    N_("A qubit (0 or 1) goes only with a gate card"), N_("You can play a card, so you must"),
    N_("The box announces QNO! by itself"), N_("Nothing to call"), N_("Nobody to catch"),
    N_("Call it, do not catch yourself"), N_("An H outcome was shown: no undo"),
)
_REFUSAL_PATTERNS = tuple(
    (re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(t))), t) for t in REFUSALS)


# Translators: Who acts when the box does it (the box itself), at the start of an OLED line.
def who(p: int | None) -> str:
    """A seat as P1-P6 in every language (as the QNO screen labels the counts), or the
    box itself."""
    return f"P{p}" if p else _("Box")


def said(table: dict[str, str], key: str) -> str:
    """A word from one of the tables above in the table's language (else the key)."""
    return _(table[key]) if key in table else key


def value_text(value: str | None) -> str:
    """The top card's value on the resting screen, where 10 characters fit."""
    if value is None:
        return pgettext("top card", "gate")
    if value == DRAW_TWO:
        return pgettext("top card", "Draw Two")
    if value == SKIP:
        return pgettext("top card", "Skip")
    if value == REVERSE:
        return pgettext("top card", "Reverse")
    return value


def card_label(card: str) -> str:
    """A card in a few characters (``label``), its action word in the table's language."""
    state, value = parse(card)
    if state is None or value not in SHORT_VALUE:
        return label(card)
    return f"{ket(state)} {said(SHORT_VALUE, value)}"


def refusal_text(reason: str) -> str:
    """An engine refusal in the table's language (as it came when not one of ours)."""
    for pattern, template in _REFUSAL_PATTERNS:
        found = pattern.fullmatch(reason)
        if found:
            words = found.groupdict()
            if "card" in words and is_card(words["card"]):
                words["card"] = card_label(words["card"])
            if "value" in words:
                words["value"] = value_text(words["value"])
            return _(template).format(**words)
    return reason


def reason_text(reason: str | None) -> str:
    """Why the game ended, in the table's language (the log keeps the English key)."""
    return said(GAME_OVER, reason) if reason else ""


# ------------------------------------------------------------------ games


def new_game(seed: int, options: dict[str, Any]) -> Qno:
    return Qno(seed, options)


def replay(seed: int, options: dict[str, Any], setup: dict[str, Any],
           inputs: list[dict[str, Any]]) -> Qno:
    return Qno.replay(seed, options, setup, (), inputs)


def turns(g: Qno) -> int:
    return g.state.turn_number


def result_reason(g: Qno) -> str | None:
    for e in reversed(g.log):
        if e["type"] == "game_over":
            return e["reason"]
    return None


def status_line(g: Qno) -> str:
    s = g.state
    if s.status == "won":
        return f"{', '.join(who(w) for w in s.winners)} won after {s.turn_number} turns"
    if s.status == "setup":
        return "dealing"
    counts = " ".join(f"{who(i + 1)}:{c}" for i, c in enumerate(s.counts))
    return f"turn {s.turn_number}, {who(s.turn)} to play on |{s.top_state}>, cards {counts}"


# The undo notice: what the undone input did. Translators: {player} is P1-P6 or the box.
_UNDONE = {
    "play": N_("{player}: played {card}"), "draw": N_("{player}: drew a card"),
    "take": N_("{player}: took {card}"), "turn_up": N_("{player}: turned up {card}"),
    "choose": N_("{player}: chose {value}"), "pass": N_("{player}: kept the card"),
    "call": N_("{player}: called QNO!"), "catch": N_("{player}: caught P{target}"),
}


def describe(act: dict[str, Any]) -> str:
    """An input in words (the undo notice), in the table's language."""
    do = act.get("do")
    if do not in _UNDONE:
        return who(act.get("player"))
    card = act.get("card")
    return _(_UNDONE[do]).format(
        player=who(act.get("player")), card=card_label(card) if isinstance(card, str) else "",
        value=act.get("value", ""), target=act.get("target", ""))


def undo_block(g: Qno) -> str | None:
    refusal = g.undo_refusal()
    return None if refusal is None else refusal_text(refusal)


def seat(config: Any, pad: int) -> int | None:
    """The player a reader pad belongs to (None: shared by everyone)."""
    return getattr(config, "qno_pads", {}).get(pad)


# ------------------------------------------------------------------ screens


def status(g: Qno, page: int = 0) -> dict[str, Any]:
    """The resting screen; UP/DOWN pages through the circuit, newest first."""
    s = g.state
    cols = circuit.columns(s.circuit)
    windows = max(1, -(-len(cols) // CIRCUIT_WINDOW))
    page %= windows + 1
    if page:
        return circuit_screen(cols, page - 1)
    return {
        "screen": "qno", "turn": who(s.turn), "number": s.turn_number,
        "state": s.top_state, "value": value_text(s.top_value),
        "direction": s.direction,
        "counts": list(s.counts), "current": s.turn, "pile": s.pile,
        "discards": len(s.discard),
    }


def circuit_screen(cols: list[tuple[str, str]], back: int = 0) -> dict[str, Any]:
    """``back`` windows before the newest columns."""
    end = max(0, len(cols) - back * CIRCUIT_WINDOW)
    start = max(0, end - CIRCUIT_WINDOW)
    return {"screen": "circuit", "columns": [list(c) for c in cols[start:end]],
            "first": start + 1, "last": end, "total": len(cols)}


def end_screen(g: Qno, page: int = 0, told: dict[str, Any] | None = None) -> dict[str, Any]:
    """Who won, then (UP/DOWN) the story of the game."""
    s = g.state
    more = story_pages(told) if told else []
    page %= 1 + len(more)
    out = {"screen": "qno_end", "winners": [who(w) for w in s.winners],
           "reason": reason_text(result_reason(g)), "turns": s.turn_number,
           "state": s.top_state, "gates": len(circuit.columns(s.circuit)),
           "page": page, "pages": 1 + len(more)}
    if page:
        out.update(more[page - 1])
    return out


# ------------------------------------------------------------------ setup counter


def setup_total(options: dict[str, Any], g: Qno | None = None) -> int:
    """Setup screens: the two menus, the deal (a card tapped at a time with tracked
    hands, else one screen), the start card (two more for each gate turned up)."""
    players = options.get("players", 2)
    gates = 0 if g is None else sum(1 for e in g.log if e["type"] == "start_gate")
    return len(SETUP_STEPS) + (HAND_SIZE * players if _tracked(options) else 1) + 1 + 2 * gates


def _tracked(options: dict[str, Any]) -> bool:
    return options.get("hands", "tracked") == "tracked"


def _setup_counter(g: Qno, index: int) -> str:
    return _("Setup {index}/{total}").format(index=index,
                                              total=setup_total(g.state.options, g))


def _setup_index(g: Qno) -> int:
    """The number of the setup screen a pending deal or start-card prompt is: every
    input so far dealt a card or turned one up; honour hands add the deal screen."""
    gates = sum(1 for e in g.log if e["type"] == "start_gate")
    return len(SETUP_STEPS) + len(g.inputs) + gates + (0 if _tracked(g.state.options) else 1) + 1


# Translators: The hint at the foot of an OLED notice: OK shows the next one (a line of the
# box's OLED screen (21 characters; Japanese 16 full-width)).
def _text(title: str, *lines: str, hint: str | None = None) -> dict[str, Any]:
    return {"screen": "text", "title": title, "lines": list(lines),
            "hint": _("OK next") if hint is None else hint}


# Translators: The notices after a move ("What happened" is their title); each is a line of
# the box's OLED screen (21 characters; Japanese 16 full-width). A sentence split over two
# lines keeps its order ("Keep the top card;" / "into a new draw pile").
def notices(g: Qno, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What players need to read after an input (never a hand)."""
    out: list[dict[str, Any]] = []
    lines: list[str] = []
    tracked = g.tracked

    # Translators: The title of the notices after a move (a title bar).
    def screen(model: dict[str, Any]) -> None:
        if lines:  # what happened before it comes first
            out.append(_text(_("What happened"), *lines))
            lines.clear()
        out.append(model)

    for e in entries:
        t = e["type"]
        p = e.get("player")
        if t == "setup" and not tracked:
            out.append(_text(_("Deal"),
                             ngettext("Deal {cards} cards to each of {n} player",
                                      "Deal {cards} cards to each of {n} players",
                                      e["players"]).format(cards=HAND_SIZE, n=e["players"]),
                             _("{player} starts").format(player=who(e["first"])), *lines)
                       | {"right": _setup_counter(g, len(SETUP_STEPS) + 1)})
            lines.clear()
        elif t == "dealer":
            lines.append(_("Dealer: {player}").format(player=who(p)))
        elif t == "start_gate":
            how = (_("Bury it in the pile") if e["how"] == "bury"
                   else _("Shuffle it into the pile"))
            screen(_text(_("A gate"), _("{card} cannot start.").format(card=e["card"]), how,
                         _("and turn the next card"))
                   | {"right": _setup_counter(g, _setup_index(g) - 1)})
        elif t == "start":
            lines.append(_("Start: {card}").format(card=card_label(e["card"])))
        elif t == "skip":
            lines.append(_("{player} is skipped").format(player=who(p)))
        elif t == "reverse":
            lines.append(_("Reverse: play runs up") if e["direction"] > 0
                         else _("Reverse: play runs down"))
        elif t == "must_draw" and e["reason"] not in ("deal", "draw"):
            lines.append(_("{player} draws {count} ({reason})").format(
                player=who(p), count=e["count"], reason=said(REASON, e["reason"])))
        elif t == "gate":
            lines.append(f"{e['card']} q{e['qubit']}: |{e['before']}> -> |{e['after']}>")
        elif t == "measured":
            screen(_text(_("H: measured"),
                         _("{player}'s H on q{qubit}:").format(player=who(p), qubit=e["qubit"]),
                         e["superposition"], _("Outcome fixed, hidden."), hint=_("OK guess")))
        elif t == "reveal":
            mark = _("Right!") if e["right"] else _("Wrong")
            screen(_text(_("H fell {ket}").format(ket=ket(e["result"])),
                         _("{player} guessed {ket}: {mark}").format(
                             player=who(p), ket=ket(e["guess"]), mark=mark)))
        elif t == "reshuffle":
            screen(_text(_("Draw pile empty"), _("Keep the top card;"),
                         ngettext("shuffle the other {n}", "shuffle the other {n}",
                                  e["count"]).format(n=e["count"]),
                         _("into a new draw pile")))
        elif t == "no_cards":
            lines.append(_("No cards left: {player} draws {n} fewer").format(
                player=who(p), n=e["missing"]))
        elif t == "qno":
            screen(_text("QNO!", _("{player} has one card left").format(player=who(p))))
        elif t == "caught":
            lines.append(_("{player} did not call QNO!").format(player=who(p)))
        elif t == "call":
            lines.append(_("{player} calls QNO!").format(player=who(p)))
        elif t == "retrigger":
            lines.append(_("{action} fires again").format(action=said(VALUE_WORDS, e["action"])))
    if lines:
        out.append(_text(_("What happened"), *lines))
    bar = _bar(g)  # the turn as the input left it, as on the resting screen after them
    return [model if "right" in model else {**model, **bar} for model in out]


def _bar(g: Qno) -> dict[str, Any]:
    """The resting screen's title bar, kept by the turn's other screens (a set-up step
    shows its counter instead): only the screen's own part of the panel changes."""
    s = g.state
    if s.status != "playing":
        return {}
    return {"bar": {"turn": who(s.turn), "number": s.turn_number}}


# ------------------------------------------------------------------ prompts and menus


# Translators: Which qubit a CNOT controls, as an item of an OLED menu (20 characters;
# Japanese 16 full-width) (q0, q1 as printed on the cards).
def _qubit_items(g: Qno, p: dict[str, Any]) -> list[Item]:
    s = g.state
    top = s.top_state
    items = []
    for q in (1, 0):  # q1 first: it is the left digit of the ket
        where = _("q1 left") if q == 1 else _("q0 right")
        if p["gate"] == "X":
            text = f"{where}: → {ket(circuit.apply_x(top, q))}"
        elif p["gate"] == "CNOT":
            text = _("control q{qubit}: → {ket}").format(
                qubit=q, ket=ket(circuit.apply_cnot(top, q)))
        else:
            a, b = circuit.h_outcomes(top, q)
            text = f"{where}: {ket(a)}/{ket(b)}"
        items.append(Item(text, {"player": p["player"], "do": "choose", "value": q}))
    return items


def prompt_menu(g: Qno) -> dict[str, Any]:
    model = _prompt(g)
    return model if "right" in model else {**model, **_bar(g)}


# Translators: The lines of a prompt (deal, draw, turn up a card); each is a line of the
# box's OLED screen (21 characters; Japanese 16 full-width). "Take the top card" / "and tap
# it on a pad" is one sentence over two lines.
def _prompt(g: Qno) -> dict[str, Any]:
    p = g.pending
    assert p is not None
    kind, pl = p["kind"], p["player"]
    if kind == "take":
        n = p["count"]
        take = [_("Take the top card"), _("and tap it on a pad")]
        if p["reason"] == "deal":
            more = ngettext("{player}: {n} more card", "{player}: {n} more cards", n)
            return {"title": _("Deal {player}").format(player=who(pl)),
                    "right": _setup_counter(g, _setup_index(g)),
                    "text": [more.format(player=who(pl), n=n), *take], "items": []}
        return {"title": _("{player}: draw {n}").format(player=who(pl), n=n), "text": take,
                "items": []}
    if kind == "turn_up":
        return {"title": _("Start"), "right": _setup_counter(g, _setup_index(g)),
                "text": [_("Turn up the top card"), _("and tap it")], "items": []}
    if kind == "qubit":
        title = (_("{player}: which control?") if p["gate"] == "CNOT"
                 else _("{player}: {gate} on which qubit?"))
        return {"title": title.format(player=who(pl), gate=p["gate"]),
                "text": [_("Top {ket}").format(ket=ket(g.state.top_state))],
                "items": _qubit_items(g, p)}
    if kind == "guess":
        return {"title": _("{player}: guess").format(player=who(pl)),
                "text": [_("H on q{qubit}: which way?").format(qubit=p["qubit"])],
                "items": [Item(ket(o), {"player": pl, "do": "choose", "value": o})
                          for o in p["options"]]}
    if kind == "drawn":
        return {"title": _("{player}: drew a card").format(player=who(pl)),
                # Translators: continued by the menu item below it ("Keep it"): tap the
                # drawn card to play it, or keep it.
                "text": [_("Tap it to play it, or")],
                "items": [Item(_("Keep it"), {"player": pl, "do": "pass"})]}
    raise ValueError(f"unknown prompt {kind!r}")


# Translators: The action menu's title and items; each is an item of an OLED menu (20
# characters; Japanese 16 full-width).
def action_menu(g: Qno, only: str | None = None) -> dict[str, Any]:
    """The moves buttons can make (plays are taps: a menu would show the hand)."""
    items = []
    acts = g.legal_actions()
    # A card that could be played (tracked hands; unknown hands may hold one) makes a
    # draw the regrettable default: "Back to the game" is pre-selected instead.
    playable = any(a["do"] == "play" for a in acts)
    for a in acts:
        if a["do"] == "draw":
            items.append(Item(_("Draw a card"), a, (), WASTED if playable else SAFE))
        elif a["do"] == "call":
            items.append(Item(_("{player} calls QNO!").format(player=who(a["player"])), a))
        elif a["do"] == "catch":
            items.append(Item(_("Catch {player}: no QNO!").format(player=who(a["target"])), a))
    return {"title": _("{player}: your move").format(player=who(g.state.turn)),
            "text": [_("Tap a card to play it")], "items": items, **_bar(g)}


def button(g: Qno, name: str) -> dict[str, Any] | str:
    return _("Tap a card, or OK for moves")


# ------------------------------------------------------------------ tags


# Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width): a
# card tapped after the end.
def tag_action(g: Qno, card: Any, seat_: int | None, pad: int,
               exchange: bool = False) -> dict[str, Any] | str:
    """The input a tapped card makes, or why it cannot (in the table's language)."""
    p = g.awaiting()
    if p is None:
        return _("The game is over")
    name = card.name
    pend = g.pending
    kind = pend["kind"] if pend else None
    if kind in ("turn_up", "take"):
        act = {"player": p, "do": kind, "card": name}
    elif seat_ is not None and seat_ != p:
        return _("Pad {pad} is {owner}'s; {player} is up").format(pad=pad, owner=who(seat_),
                                                                  player=who(p))
    elif kind in ("qubit", "guess"):
        return _("Choose with UP/DOWN, OK")
    else:
        act = {"player": p, "do": "play", "card": name}
    reason = g.check(act)
    return act if reason is None else refusal_text(reason)


def card_from_tag(card: Any) -> bool:
    return card.game == NAME and card.kind in ("state", "gate") and is_card(card.name) \
        and (card.kind == "gate") == (card.name in GATES)


# ------------------------------------------------------------------ LEDs


def leds(g: Qno) -> dict[str, Any]:
    s = g.state
    return {"game": NAME, "state": s.top_state, "seat": s.turn if s.status == "playing" else None,
            "players": g.players, "result": "won" if s.status == "won" else None}
