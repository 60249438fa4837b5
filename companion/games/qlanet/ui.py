"""How QLANET meets the box: the public board, the move menus, the private channel.

The same contract as ``games.qno.ui`` (the session is game-agnostic). A move is a tap
and a few menus: tap a gate card from the hand of the camp to play, pick its planet
(two planets for CX0, CX1, SW and BM: for CX the first is the control), then confirm.
Every choice offered comes from ``legal_actions()``, which never depends on a hidden
state, and every label shows the *spectator* view.

Hidden information (docs/rules/qlanet.md): everything on the shared OLED and the LEDs is
built from ``view(g, "spectator")`` and the public log, so two games that differ only
in a hidden outcome look the same until a public event reveals it. The BM owner's
secret goes to :func:`private_screen`: a camp's own small OLED when the box has one,
otherwise a peek on the shared screen (EXCHANGE, then hold EXCHANGE) after a warning.
When the game ends everything is revealed: the end screen shows the true board.

Board cells are short strings everywhere (screens, LEDs): ``"0" "1" "+" "-" "?"``,
``"F0"``/``"F1"`` for a fixed planet, ``"~6"`` for a planet known to be entangled
with planet 6.
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_, for_catalog
from ...inputs import EXCHANGE
from ..common import Item, Step, wrap
from .cards import CARDS, ORDERED, TWO_PLANET, cost
from .engine import LINES, IllegalAction, Qlanet
from .knowledge import view
from .options import RULINGS
from .story import pages as story_pages
from .story import reason_text, story

_, ngettext, pgettext = for_catalog("qlanet")

__all__ = ["IllegalAction", "Item", "Step", "story"]  # the session uses these from here

NAME = "qlanet"
TITLE = "QLANET"
SEATS = (0, 1)

# Labels are English marked for the catalogs (N_); the session translates them when
# shown. Each hand size is its own label: Polish and Czech word 2-4 and 5-6 apart.
# Translators: The set-up's answers for the hand size; each is an item of an OLED menu (20
# characters; Japanese 16 full-width).
HAND_SIZES = {3: N_("3 cards each"), 4: N_("4 cards each"), 5: N_("5 cards each"),
              6: N_("6 cards each")}
# Translators: The set-up's questions and answers for the opening and the hand; each is an
# item of an OLED menu (20 characters; Japanese 16 full-width).
SETUP_STEPS = (
    Step("opening", N_("Centre"), ((N_("Hidden centre"), "hidden_centre"),
                                   (N_("Public centre"), "public_centre"))),
    Step("hand_size", N_("Hand"), tuple((HAND_SIZES[n], n)
                                        for n in RULINGS["hand_size"].allowed),
         RULINGS["hand_size"].default),
)

MENU = "qlanet"  # the kind of every menu this module opens
LOG_LINES = 4  # moves on the second status page


# Translators: Who acts: the box itself, or a camp, at the start of an OLED line.
def camp(p: int | None) -> str:
    return _("Box") if p is None else _("Camp {camp}").format(camp=p)


def short(p: int) -> str:
    return f"C{p}"


def cell(entry: dict[str, Any]) -> str:
    """One planet of a knowledge view as a board cell string."""
    shown = entry["shown"]
    if shown == "entangled":
        return f"~{entry['entangled_with']}"
    return shown


def cells(g: Qlanet, viewer: Any = "spectator") -> list[str]:
    return [cell(e) for e in view(g, viewer)]


# Translators: A card and the planet it was played on, on an OLED line (about 16
# characters).
def where(card: str, planets: list[int]) -> str:
    """``H on 5``, ``CX0 4->5`` (control first), ``SW 4<>5``, ``BM 4+5``."""
    if len(planets) == 1:
        return _("{card} on {planet}").format(card=card, planet=planets[0])
    a, b = planets
    sign = "->" if card in ORDERED else "<>" if card == "SW" else "+"
    return f"{card} {a}{sign}{b}"


# ------------------------------------------------------------------ games


def new_game(seed: int, options: dict[str, Any]) -> Qlanet:
    return Qlanet(seed, options)


def replay(seed: int, options: dict[str, Any], setup: dict[str, Any] | None,
           inputs: list[dict[str, Any]]) -> Qlanet:
    return Qlanet.replay(seed, options, setup, (), inputs)


def turns(g: Qlanet) -> int:
    return g.state.turn_number


def _game_over(g: Qlanet) -> dict[str, Any] | None:
    for e in reversed(g.log):
        if e["type"] == "game_over":
            return e
    return None


def result_reason(g: Qlanet) -> str | None:
    e = _game_over(g)
    if e is None:
        return None
    return "; ".join(f"camp {c}: {why}" for c, why in sorted(e["reasons"].items()))


def status_line(g: Qlanet) -> str:
    s = g.state
    if s.status == "won":
        who = " and ".join(camp(w) for w in s.winners)
        return f"{who} won after {s.turn_number} moves ({result_reason(g)})"
    return (f"move {s.turn_number}, {camp(s.turn_player)} to play, costs "
            f"{s.costs[0]}/{s.costs[1]}, fixed {s.fixed.count(0)}/{s.fixed.count(1)}")


def describe(act: dict[str, Any]) -> str:
    """An input in words (the undo notice)."""
    if act["do"] == "discard":
        return _("{camp}: discard {card}").format(camp=short(act["player"]), card=act["card"])
    return f"{short(act['player'])}: {where(act['card'], act['planets'])}"


def undo_block(g: Qlanet) -> str | None:
    """No undo after a measurement or a Bell measurement: the result (or the owner's
    secret) has been seen, and undoing would let a camp take back what it learned.
    The refusal depends only on the card played, which is public."""
    last = g.inputs[-1] if g.inputs else None
    if last and last.get("card") == "M" and last["do"] == "play":
        return _("An M result was shown: no undo")
    if last and last.get("card") == "BM" and last["do"] == "play":
        return _("A BM secret was made: no undo")
    return None


def seat(config: Any, pad: int) -> int | None:
    """Every pad is shared: the camp to play taps its cards anywhere."""
    return None


# ------------------------------------------------------------------ screens


# Translators: The status lines under the OLED's title in play; each is a line of the box's
# OLED screen (21 characters; Japanese 16 full-width).
def status(g: Qlanet, page: int = 0) -> dict[str, Any]:
    """The resting screen: the public board; DOWN shows the hands and recent moves."""
    s = g.state
    page %= 2
    if page:
        lines = [f"{short(c)}: {' '.join(s.hands[c])}" for c in SEATS]
        moves = [_move_text(e) for e in g.log if e["type"] in ("play", "discard")]
        lines += moves[-LOG_LINES:] or [_("no moves yet")]
        return {"screen": "text", "title": _("Hands and last moves"), "lines": lines,
                "hint": "UP/DOWN"}
    last = next((e for e in reversed(g.log) if e["type"] in ("play", "discard")), None)
    return {
        "screen": "qlanet", "turn": s.turn_player, "number": s.turn_number,
        "planets": cells(g), "costs": list(s.costs),
        "fixed": [s.fixed.count(0), s.fixed.count(1)],
        "last": _move_text(last) if last else "",
    }


# Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width): a
# camp discards a card.
def _move_text(e: dict[str, Any]) -> str:
    p = short(e["player"])
    if e["type"] == "discard":
        return _("{camp} drop {card}").format(camp=p, card=e["card"])
    return f"{p} {where(e['card'], e['planets'])}"


def _win_line(g: Qlanet) -> list[int]:
    """The planets of a winning line (for the LEDs), or []."""
    s = g.state
    for w in s.winners:
        for line in LINES:
            if all(s.fixed[q] == w for q in line):
                return [q + 1 for q in line]
    return []


def end_screen(g: Qlanet, page: int = 0, told: dict[str, Any] | None = None
               ) -> dict[str, Any]:
    """The reveal: the true board (the device's own view), winners and why; then
    (UP/DOWN) the story of the game."""
    s = g.state
    e = _game_over(g) or {"winners": list(s.winners), "reasons": {}}
    more = story_pages(told) if told else []
    page %= 1 + len(more)
    out = {"screen": "qlanet_end", "winners": list(e["winners"]),
           "reason": "; ".join(reason_text(e["reasons"][str(w)]) for w in e["winners"]
                               if str(w) in e["reasons"]),
           "costs": list(s.costs), "moves": s.turn_number, "planets": cells(g, "truth"),
           "page": page, "pages": 1 + len(more)}
    if page:
        out.update(more[page - 1])
    return out


def setup_total(options: dict[str, Any], g: Qlanet | None = None) -> int:
    """The two menus and the opening screen."""
    return len(SETUP_STEPS) + 1


def private_screen(g: Qlanet, seat_: int) -> dict[str, Any]:
    """What camp ``seat_`` alone may see: its own view of the board and the codes of
    the entangled pairs and groups it knows (its BM secrets and what follows).

    ``input`` changes with every accepted input, so a private OLED redraws after every
    move, not only when its secret changed (its activity tells the table nothing)."""
    own = view(g, seat_ if g.status == "playing" else "truth")
    pairs = [{"planets": e["group"], "code": e["code"], "bell": e["bell"]} for e in own
             if e["code"] and e["group"][0] == e["planet"]]
    return {"screen": "qlanet_secret", "camp": seat_, "input": len(g.inputs),
            "planets": [cell(e) for e in own], "pairs": pairs}


# Translators: The warning before a camp's secret is shown; each is a line of the box's OLED
# screen (21 characters; Japanese 16 full-width).
def peek_warning(g: Qlanet, seat_: int) -> dict[str, Any]:
    other = 1 - seat_
    return {"screen": "text", "title": _("{camp}'s secret").format(camp=camp(seat_)),
            "lines": [_("{camp}: look away!").format(camp=camp(other)),
                      # Translators: one sentence over two screen lines of 21
                      # characters: hold the EXCHANGE button to show the secret, let go
                      # to hide it again.
                      _("Hold EXCHANGE to show,"), _("let go to hide it."),
                      _("OK: back to the game")], "hint": ""}


# Translators: The hint at the foot of an OLED notice: OK shows the next one (a line of the
# box's OLED screen (21 characters; Japanese 16 full-width)).
def _text(title: str, *lines: str, hint: str | None = None) -> dict[str, Any]:
    return {"screen": "text", "title": title, "lines": list(lines),
            "hint": _("OK next") if hint is None else hint}


# Translators: The notices after a move ("What happened" is their title); each is a line of
# the box's OLED screen (21 characters; Japanese 16 full-width).
def notices(g: Qlanet, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What players read after an input: the move, a measurement, the card to take."""
    out: list[dict[str, Any]] = []
    lines: list[str] = []
    title = _("What happened")
    opening = False
    over = any(e["type"] == "game_over" for e in entries)
    for e in entries:
        t, p = e["type"], e.get("player")
        if t == "refill" and over:
            continue  # the engine refills before it sees the win: nobody takes that card
        if t == "setup":
            title, opening = _("Start"), True
            lines += [_("{camp} takes {cards}").format(camp=short(c), cards=" ".join(e["hands"][c]))
                      for c in SEATS]
            lines.append(_("{camp} starts").format(camp=camp(e["first_player"])))
            if "?" in e["planets"]:
                lines.append(_("Nobody knows planet ?"))
        elif t == "play":
            lines.append(f"{short(p)}: {where(e['card'], e['planets'])} "
                         f"(+{e['cost']}={e['total']})")
        elif t == "discard":
            lines.append(_("{camp} discards {card} (+{cost}={total})").format(
                camp=short(p), card=e["card"], cost=e["cost"], total=e["total"]))
        elif t == "measure":
            lines.append(_("Planet {planet} fixed: F{result}").format(planet=e["planet"],
                                                                     result=e["result"]))
        elif t == "bell":
            a, b = e["planets"]
            lines.append(_("{a}+{b}: secret of {camp}").format(a=a, b=b, camp=short(p)))
        elif t == "refill":
            lines.append(_("{camp}: take a {card}").format(camp=short(p), card=e["card"]))
        elif t == "reshuffle":
            lines.append(ngettext("Shuffle {n} played card", "Shuffle {n} played cards",
                                  e["cards"]).format(n=e["cards"]))
        elif t == "turn" and e["number"] > 1:
            lines.append(_("Next: {camp}").format(camp=camp(p)))
        elif t == "reveal":
            out.append(_text(title, *lines))
            lines, title, opening = [], _("Secrets revealed"), False
            for b in e["bells"]:
                a, c = b["planets"]
                lines.append(f"{short(b['player'])} BM {a}+{c}: {b['code']}")
            lines += [f"{'+'.join(map(str, p['group']))}: {p['code']}" for p in e["planets"]
                      if p.get("group") and p["group"][0] == p["planet"] and
                      len(p["group"]) > 2]
            if not lines:
                lines.append(_("No BM was played"))
    if lines:
        text = _text(title, *lines)
        if opening:
            total = setup_total(g.state.options)
            text["right"] = _("Setup {index}/{total}").format(index=total, total=total)
        if sum(len(wrap(line)) for line in lines) > 5:  # the rest a press of DOWN away
            text.update(lines=_fit(lines), details=lines, hint=_("▼ more  OK"))
        out.append(text)
    return out


# Translators: The last line of a list cut short (a line of the box's OLED screen (21
# characters; Japanese 16 full-width)).
def _fit(lines: list[str]) -> list[str]:
    kept: list[str] = []
    for line in lines:
        if sum(len(wrap(x)) for x in kept + [line]) > 4:
            break
        kept.append(line)
    return kept + [_("+{n} more: DOWN").format(n=len(lines) - len(kept))]


# ------------------------------------------------------------------ menus


# Translators: The question that picks a planet for a card; each is a line of the box's OLED
# screen (21 characters; Japanese 16 full-width).
def _pick_menu(g: Qlanet, card: str, chosen: list[int], acts: list[dict[str, Any]],
               board: list[str] | None = None) -> dict[str, Any]:
    """Choose the next planet for ``card``: the ones ``acts`` allow after ``chosen``.

    CX lists ordered pairs (the first is the control); SW and BM list each pair once,
    lower planet first, but a player may pick them in either order. ``board`` (the
    public cells) is read once for the whole tree of menus."""
    p = g.awaiting()
    board = board or cells(g)
    n = len(chosen)
    ordered = card not in TWO_PLANET or card in ORDERED

    def fits(a: dict[str, Any], q: int) -> bool:
        want = chosen + [q]
        if ordered:
            return a["planets"][:n + 1] == want
        return set(want) <= set(a["planets"])

    if card not in TWO_PLANET:
        what = _("which planet?")
    elif card in ORDERED:
        what = _("control?") if n == 0 else _("target of {planet}?").format(planet=chosen[0])
    else:
        what = _("first planet?") if n == 0 else _("{planet} and which?").format(
            planet=chosen[0])
    need = 2 if card in TWO_PLANET else 1
    items = []
    for q in range(1, 10):
        matching = [a for a in acts if fits(a, q)] if q not in chosen else []
        if not matching:
            continue
        planets = chosen + [q]
        if len(planets) < need:
            nxt = _pick_menu(g, card, planets, matching, board)  # only those acts go on
        else:
            nxt = _confirm_menu(g, matching[0])
        items.append(Item(_("Planet {planet}  {cell}").format(planet=q, cell=board[q - 1]), nxt,
                          tuple(str(x) for x in planets)))
    return {"menu": MENU, "title": f"{short(p)} {card}: {what}", "text": [], "items": items}


# Translators: The menu that confirms a card; each is an item of an OLED menu (20
# characters; Japanese 16 full-width).
def _confirm_menu(g: Qlanet, act: dict[str, Any]) -> dict[str, Any]:
    s = g.state
    p = act["player"]
    price = cost(act["card"], s.options)
    targets = tuple(str(q) for q in act["planets"])
    return {"menu": MENU, "title": f"{short(p)}: {where(act['card'], act['planets'])}?",
            "text": [_cost_line(price, s.costs[p])],
            "items": [Item(_("Play it"), act, targets), Item(_("Cancel"), {"session": "keep"})]}


def _cost_line(price: int, total: int) -> str:
    return _("Cost {cost}: total {total}").format(cost=price, total=total + price)


# Translators: The menu that confirms a discard; each is an item of an OLED menu (20
# characters; Japanese 16 full-width).
def _discard_menu(g: Qlanet, act: dict[str, Any]) -> dict[str, Any]:
    s = g.state
    p = act["player"]
    price = cost(act["card"], s.options) if s.options["no_legal_play"] == "discard_pay" else 0
    return {"menu": MENU, "title": _("{camp}: discard {card}?").format(camp=short(p),
                                                                     card=act["card"]),
            "text": [_("No card can be played"), _cost_line(price, s.costs[p])],
            "items": [Item(_("Discard it"), act), Item(_("Cancel"), {"session": "keep"})]}


# Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width): a
# card chosen after the end.
def card_menu(g: Qlanet, card: str) -> dict[str, Any] | str:
    """What choosing ``card`` from the awaited camp's hand leads to (or why not)."""
    p = g.awaiting()
    if p is None:
        return _("The game is over")
    hand = g.state.hands[p]
    if card not in hand:
        return _("{camp} has no {card} (hand: {hand})").format(camp=camp(p), card=card,
                                                               hand=" ".join(hand))
    acts = [a for a in g.legal_actions() if a["card"] == card]
    if not acts:
        return _("{card} has no planet it may target now").format(card=card)
    if acts[0]["do"] == "discard":
        return _discard_menu(g, acts[0])
    return _pick_menu(g, card, [], acts)


def prompt_menu(g: Qlanet) -> dict[str, Any]:
    raise ValueError("QLANET never asks mid-turn")  # g.pending is always None


# Translators: The action menu's items and title; each is an item of an OLED menu (20
# characters; Japanese 16 full-width).
def action_menu(g: Qlanet, only: str | None = None) -> dict[str, Any]:
    """The hand of the camp to play: choosing a card leads to its planet menus, so the
    buttons alone can play the whole game."""
    p = g.awaiting()
    items = []
    if p is not None:
        for card in dict.fromkeys(g.state.hands[p]):
            nxt = card_menu(g, card)
            if isinstance(nxt, dict):
                discard = nxt["items"][0].action.get("do") == "discard"
                verb = _("Discard {card} ({cost})") if discard else _("Play {card} ({cost})")
                items.append(Item(verb.format(card=card, cost=cost(card, g.state.options)), nxt))
    return {"title": _("{camp}: your move").format(camp=camp(p)),
            "text": [_("Tap a card, or choose")], "items": items}


# Translators: The secret button's screens; each is a line of the box's OLED screen (21
# characters; Japanese 16 full-width).
def button(g: Qlanet, name: str) -> dict[str, Any] | str:
    """EXCHANGE opens the peek at a camp's secret; RETRIEVE has no use here."""
    if name == EXCHANGE:
        return {"menu": "peek", "title": _("Peek at a secret"), "text": [_("Whose?")],
                "items": [Item(_("{camp}'s secret").format(camp=camp(c)),
                               {"session": "peek", "seat": c})
                          for c in SEATS]}
    return _("Tap a card, or OK for moves")


# ------------------------------------------------------------------ tags


# Translators: A line of the box's OLED screen (21 characters; Japanese 16 full-width): a
# card tapped after the end.
def tag_action(g: Qlanet, card: Any, seat_: int | None, pad: int,
               exchange: bool = False) -> dict[str, Any] | str:
    """A tapped gate card opens its planet menu (an error string if it cannot)."""
    p = g.awaiting()
    if p is None:
        return _("The game is over")
    if seat_ is not None and seat_ != p:
        return _("Pad {pad} is {owner}'s; {player} is up").format(pad=pad, owner=camp(seat_),
                                                                  player=camp(p))
    return card_menu(g, card.name.upper())


def card_from_tag(card: Any) -> bool:
    return card.game == NAME and card.kind == "gate" and card.name.upper() in CARDS


# ------------------------------------------------------------------ LEDs


def leds(g: Qlanet) -> dict[str, Any]:
    s = g.state
    won = s.status == "won"
    return {"game": NAME, "planets": cells(g, "truth" if won else "spectator"),
            "turn": s.turn_player, "result": "won" if won else None,
            "winners": list(s.winners), "line": _win_line(g)}
