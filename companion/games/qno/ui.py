"""How QNO meets the box: screens, prompts, tag taps and LEDs for this game.

The same contract as ``games.entanglion.ui`` (the session is game-agnostic). The
shared OLED never shows a hand, although with tracked hands the box knows them all:
what it shows is public at the table anyway (the effective top, counts, whose turn).
The H outcome is committed before the guess and appears only after it, and nothing
on screen, LEDs or sound differs with the hidden outcome until then.
"""

from __future__ import annotations

from typing import Any

from ..common import Item, Step
from . import circuit
from .cards import GATES, HAND_SIZE, is_card, ket, label
from .engine import IllegalAction, Qno
from .story import pages as story_pages
from .story import story

__all__ = ["IllegalAction", "Item", "Step", "story"]  # the session uses these from here

NAME = "qno"
TITLE = "QNO"

SETUP_STEPS = (
    Step("players", "Players", tuple((f"{n} players", n) for n in (2, 3, 4, 5, 6))),
    Step("hands", "Hands", (("Tap every card drawn", "tracked"),
                            ("Tap plays only", "honour"))),
)

VALUE_WORDS = {"draw_two": "Draw Two", "skip": "Skip", "reverse": "Reverse"}
REASON = {"deal": "deal", "draw": "draw", "draw_two": "Draw Two", "h_reward": "H guessed",
          "h_penalty": "H missed", "caught": "caught: no QNO!"}
CIRCUIT_WINDOW = 12  # columns on one OLED page


def who(p: int | None) -> str:
    return f"P{p}" if p else "Box"


def value_text(value: str | None) -> str:
    return "gate" if value is None else VALUE_WORDS.get(value, value)


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


def undo_block(g: Qno) -> str | None:
    return g.undo_refusal()


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
           "reason": result_reason(g) or "", "turns": s.turn_number,
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
    return f"Setup {index}/{setup_total(g.state.options, g)}"


def _setup_index(g: Qno) -> int:
    """The number of the setup screen a pending deal or start-card prompt is: every
    input so far dealt a card or turned one up; honour hands add the deal screen."""
    gates = sum(1 for e in g.log if e["type"] == "start_gate")
    return len(SETUP_STEPS) + len(g.inputs) + gates + (0 if _tracked(g.state.options) else 1) + 1


def _text(title: str, *lines: str, hint: str = "OK next") -> dict[str, Any]:
    return {"screen": "text", "title": title, "lines": list(lines), "hint": hint}


def notices(g: Qno, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What players need to read after an input (never a hand)."""
    out: list[dict[str, Any]] = []
    lines: list[str] = []
    tracked = g.tracked

    def screen(model: dict[str, Any]) -> None:
        if lines:  # what happened before it comes first
            out.append(_text("What happened", *lines))
            lines.clear()
        out.append(model)

    for e in entries:
        t = e["type"]
        p = e.get("player")
        if t == "setup" and not tracked:
            out.append(_text("Deal", f"Deal 5 cards to each of {e['players']} players",
                             f"{who(e['first'])} starts", *lines, hint="OK next")
                       | {"right": _setup_counter(g, len(SETUP_STEPS) + 1)})
            lines.clear()
        elif t == "dealer":
            lines.append(f"Dealer: {who(p)}")
        elif t == "start_gate":
            how = ("Bury it in the pile" if e["how"] == "bury" else "Shuffle it into the pile")
            screen(_text("A gate", f"{e['card']} cannot start.", how, "and turn the next card")
                   | {"right": _setup_counter(g, _setup_index(g) - 1)})
        elif t == "start":
            lines.append(f"Start: {label(e['card'])}")
        elif t == "skip":
            lines.append(f"{who(p)} is skipped")
        elif t == "reverse":
            lines.append("Reverse: play runs " + ("up" if e["direction"] > 0 else "down"))
        elif t == "must_draw" and e["reason"] not in ("deal", "draw"):
            lines.append(f"{who(p)} draws {e['count']} ({REASON[e['reason']]})")
        elif t == "gate":
            lines.append(f"{e['card']} q{e['qubit']}: |{e['before']}> -> |{e['after']}>")
        elif t == "measured":
            screen(_text("H: measured", f"{who(p)}'s H on q{e['qubit']}:",
                             e["superposition"], "Outcome fixed, hidden.", hint="OK guess"))
        elif t == "reveal":
            mark = "Right!" if e["right"] else "Wrong"
            screen(_text(f"H fell |{e['result']}>", f"{who(p)} guessed |{e['guess']}>: "
                             f"{mark}"))
        elif t == "reshuffle":
            screen(_text("Draw pile empty", "Keep the top card;",
                             f"shuffle the other {e['count']}", "into a new draw pile"))
        elif t == "no_cards":
            lines.append(f"No cards left: {who(p)} draws {e['missing']} fewer")
        elif t == "qno":
            screen(_text("QNO!", f"{who(p)} has one card left"))
        elif t == "caught":
            lines.append(f"{who(p)} did not call QNO!")
        elif t == "call":
            lines.append(f"{who(p)} calls QNO!")
        elif t == "retrigger":
            lines.append(f"{VALUE_WORDS[e['action']]} fires again")
    if lines:
        out.append(_text("What happened", *lines))
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


def _qubit_items(g: Qno, p: dict[str, Any]) -> list[Item]:
    s = g.state
    top = s.top_state
    items = []
    for q in (1, 0):  # q1 first: it is the left digit of the ket
        where = "left" if q == 1 else "right"
        if p["gate"] == "X":
            text = f"q{q} {where}: → |{circuit.apply_x(top, q)}>"
        elif p["gate"] == "CNOT":
            text = f"control q{q}: → |{circuit.apply_cnot(top, q)}>"
        else:
            a, b = circuit.h_outcomes(top, q)
            text = f"q{q} {where}: |{a}>/|{b}>"
        items.append(Item(text, {"player": p["player"], "do": "choose", "value": q}))
    return items


def prompt_menu(g: Qno) -> dict[str, Any]:
    model = _prompt(g)
    return model if "right" in model else {**model, **_bar(g)}


def _prompt(g: Qno) -> dict[str, Any]:
    p = g.pending
    assert p is not None
    kind, pl = p["kind"], p["player"]
    if kind == "take":
        n = p["count"]
        more = f"{n} more cards" if n > 1 else "1 more card"
        if p["reason"] == "deal":
            return {"title": f"Deal {who(pl)}", "right": _setup_counter(g, _setup_index(g)),
                    "text": [f"{who(pl)}: {more}", "Take the top card", "and tap it on a pad"],
                    "items": []}
        return {"title": f"{who(pl)}: draw {n}", "text": ["Take the top card",
                                                          "and tap it on a pad"], "items": []}
    if kind == "turn_up":
        return {"title": "Start", "right": _setup_counter(g, _setup_index(g)),
                "text": ["Turn up the top card", "and tap it"], "items": []}
    if kind == "qubit":
        title = "Which control?" if p["gate"] == "CNOT" else f"{p['gate']} on which qubit?"
        return {"title": f"{who(pl)}: {title}", "text": [f"Top |{g.state.top_state}>"],
                "items": _qubit_items(g, p)}
    if kind == "guess":
        return {"title": f"{who(pl)}: guess", "text": [f"H on q{p['qubit']}: which way?"],
                "items": [Item(ket(o), {"player": pl, "do": "choose", "value": o})
                          for o in p["options"]]}
    if kind == "drawn":
        return {"title": f"{who(pl)}: drew a card", "text": ["Tap it to play it, or"],
                "items": [Item("Keep it", {"player": pl, "do": "pass"})]}
    raise ValueError(f"unknown prompt {kind!r}")


def action_menu(g: Qno, only: str | None = None) -> dict[str, Any]:
    """The moves buttons can make (plays are taps: a menu would show the hand)."""
    items = []
    for a in g.legal_actions():
        if a["do"] == "draw":
            items.append(Item("Draw a card", a))
        elif a["do"] == "call":
            items.append(Item(f"{who(a['player'])} calls QNO!", a))
        elif a["do"] == "catch":
            items.append(Item(f"Catch {who(a['target'])}: no QNO!", a))
    return {"title": f"{who(g.state.turn)}: your move",
            "text": ["Tap a card to play it"], "items": items, **_bar(g)}


def button(g: Qno, name: str) -> dict[str, Any] | str:
    return "Tap a card, or OK for moves"


# ------------------------------------------------------------------ tags


def tag_action(g: Qno, card: Any, seat_: int | None, pad: int,
               exchange: bool = False) -> dict[str, Any] | str:
    p = g.awaiting()
    if p is None:
        return "The game is over"
    name = card.name
    pend = g.pending
    kind = pend["kind"] if pend else None
    if kind == "turn_up":
        return {"player": p, "do": "turn_up", "card": name}
    if kind == "take":
        return {"player": p, "do": "take", "card": name}
    if seat_ is not None and seat_ != p:
        return f"Pad {pad} is {who(seat_)}'s; {who(p)} is up"
    if kind in ("qubit", "guess"):
        return "Choose with UP/DOWN, OK"
    return {"player": p, "do": "play", "card": name}


def card_from_tag(card: Any) -> bool:
    return card.game == NAME and card.kind in ("state", "gate") and is_card(card.name) \
        and (card.kind == "gate") == (card.name in GATES)


# ------------------------------------------------------------------ LEDs


def leds(g: Qno) -> dict[str, Any]:
    s = g.state
    return {"game": NAME, "state": s.top_state, "seat": s.turn if s.status == "playing" else None,
            "players": g.players, "result": "won" if s.status == "won" else None}
