"""What a browser may see of the box: a pure function of the session.

The snapshot is built on the game thread right after the OLED and LEDs are drawn, so
a page shows exactly what the box shows. It is the *only* thing the web server ever
sends about a game, which makes the secret guarantee one place to hold and test:

* Entanglion is cooperative: hands (in a virtual-deck game), components and ships are
  open; the order of the engine stack and the event deck is not sent (counts only).
* QNO: the box never sees the hands; only counts, the top card and the circuit.
* QLANET: the public board (``knowledge.view(game, "spectator")``), costs and moves.
  Hands are dealt face up, so the hands and each card drawn are public (the shared OLED
  shows them); never a BM code, the hidden truth or the deck order, until the end-of-game
  reveal. The shared OLED is withheld while a camp peeks at its secret on it, and
  while it shows the web pairing PIN (a screen marked ``private``).

Two fields come from the games' own pure functions: ``odds`` (Entanglion: a list of
``{"move": str, "chance": float}`` for the legal moves a die decides, from what the
players can know) and ``story`` (a list of sentences once a game has ended). The page
shows each when it is present.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from PIL import Image

from .. import i18n
from . import stats

LOG_LINES = 40  # the page's log: the latest lines only, so a snapshot stays small


def oled_png(image: Image.Image | None) -> str | None:
    """The OLED frame as a base64 PNG (a 128x64 1-bit PNG is a few hundred bytes)."""
    if image is None:
        return None
    out = io.BytesIO()
    image.convert("1").save(out, format="PNG", optimize=True)
    return base64.b64encode(out.getvalue()).decode("ascii")


def build(session: Any, image: Image.Image | None = None) -> dict[str, Any]:
    """The public picture of ``session``; ``image`` is the OLED frame (or None)."""
    peeking = session.peek is not None
    screen = session.screen()
    hidden = peeking or bool(screen.get("private"))  # a secret or the pairing PIN on show
    out: dict[str, Any] = {
        "mode": session.mode,
        "language": i18n.language(),  # the page follows the box's language
        "game": None,
        "game_id": session.game_id,
        "screen": None if hidden else screen,
        "oled": None if hidden else oled_png(image),
        "peeking": peeking,
        "menu": None,
        "odds": None,
        "story": None,
    }
    if not hidden:
        menu = session._current_menu()  # noqa: SLF001 - the prompt the OLED shows
        if menu is not None:
            out["menu"] = {"title": menu["title"], "text": list(menu["text"]),
                           "items": [i.label for i in menu["items"]]}
    if session.mode == "game" and session.game is not None:
        name = session.ui.NAME
        out["game"] = name
        out.update(GAMES[name](session.game))
    return out


def _entanglion(g: Any) -> dict[str, Any]:
    from ..games.entanglion.board import SHIPS
    from ..games.entanglion.cards import track_value
    from ..games.entanglion.explain import explain
    from ..games.entanglion.quantum import describe

    s = g.state
    virtual = s.options.get("deck") == "virtual"
    gate = next((e for e in reversed(g.log)
                 if e["type"] == "action" and e["do"] == "navigate"), None)
    moved = next((e for e in reversed(g.log) if e["type"] == "move"), None)
    return {
        "status": s.status,
        "inputs": len(g.inputs),  # changes with every input and undo (a hint goes stale)
        "turn": {"player": s.turn_player, "number": s.turn_number},
        "ships": {ship: s.pos[i] for i, ship in enumerate(SHIPS)},
        "detection": {"space": s.detection, "value": track_value(s.detection)},
        "components": {"planets": {p: c for p, c in s.planet_components.items() if c},
                       **{ship: list(s.ship_components[ship]) for ship in SHIPS}},
        "engine_control": {"count": len(s.engine_control), "of": 6,
                           "cards": [{"card": c, "ship": ship} for c, ship in s.engine_control]},
        "hands": {ship: list(s.hands[ship]) for ship in SHIPS} if virtual else None,
        "events": {ship: list(s.held_events[ship]) for ship in SHIPS},
        "decks": {"engine": len(s.engine_stack), "events": len(s.event_deck)},
        "quantum": {
            "state": describe(tuple(s.pos)),
            "last_gate": explain(gate) if gate else None,
            "last_move": explain(moved) if moved else None,
        },
        "log": [explain(e) for e in g.log[-LOG_LINES:]],
        "end": stats.entanglion_end(g.log) if s.status in ("won", "lost") else None,
        "odds": _entanglion_odds(g),
        "story": _story("entanglion", g),
    }


def _entanglion_odds(g: Any) -> list[dict[str, Any]] | None:
    """The legal moves a die decides, labelled as the box's move menu labels them."""
    from ..games.entanglion import odds, ui

    if g.state.status != "playing" or g.pending:
        return None
    acts = [a for a in g.legal_actions() if a["do"] != "interconnect"]
    out = [{"move": ui._action_item(g, a, o).label,  # noqa: SLF001 - the menu's words
            "chance": float(o.chance)}
           for a, o in zip(acts, odds.moves(g, acts)) if o is not None and o.chance is not None]
    return out or None


def _story(name: str, g: Any) -> list[str] | None:
    """The story of a finished game, as ``companion games show`` tells it."""
    import importlib

    if g.state.status in ("playing", "setup"):
        return None
    told = importlib.import_module(f"companion.games.{name}.story")
    return told.text(told.story(g))


def _qno(g: Any) -> dict[str, Any]:
    from ..games.qno import circuit
    from ..games.qno.explain import narrate

    s = g.state
    # Only the log part of the narration (the circuit has its own panel); the
    # recent entries only, so a long game costs no more per refresh than a short one.
    from ..games.qno.ui import card_label

    lines = list(narrate({"log": g.log[-LOG_LINES:], "pending": None, "circuit_text": ""},
                         card_label))
    lines = lines[:-1] if lines and lines[-1] == "Circuit:" else lines
    return {
        "status": s.status,
        "winners": list(s.winners),
        "turn": {"player": s.turn, "number": s.turn_number, "direction": s.direction},
        "top": {"state": s.top_state, "value": s.top_value,
                "card": s.discard[-1] if s.discard else None},
        "counts": list(s.counts),
        "circuit": circuit.text(s.circuit),
        "qasm": circuit.qasm(s.circuit, f"QNO game {g.seed}"),
        "log": lines[-LOG_LINES:],
        "story": _story("qno", g),
    }


def _qlanet(g: Any) -> dict[str, Any]:
    from ..games.qlanet.knowledge import view

    s = g.state
    over = s.status != "playing" and s.status != "setup"
    out = {
        "status": s.status,
        "winners": list(s.winners),
        "turn": {"player": s.turn_player, "number": s.turn_number},
        "costs": list(s.costs),
        "hand_sizes": [len(h) for h in s.hands],
        "deck_size": len(s.deck),
        "planets": view(g, "spectator"),
        "log": [line for e in g.log[-LOG_LINES:] if (line := _qlanet_line(e))],
        "reveal": None,
    }
    if over:  # the end-of-game reveal: the truth is public now
        out["reveal"] = {"planets": view(g, "truth"), "bells": [dict(b) for b in s.bells]}
        out["story"] = _story("qlanet", g)
    return out


# Translators: A camp's name on the page ("Camp 0").
def _qlanet_line(e: dict[str, Any]) -> str | None:
    """A public log line; the deal and the refills (told on the OLED, which the page
    shows) and the reveal give none."""
    t, who = e["type"], i18n._("Camp {camp}").format(camp=e.get("player"))
    if t == "turn":
        return i18n._("-- Move {number}: {who} --").format(number=e["number"], who=who)
    if t == "play":
        return i18n._("{who} plays {card} on planet {planets} (cost {cost}, total {total}).").format(
            who=who, card=e["card"], planets=_both(e["planets"]), cost=e["cost"],
            total=e["total"])
    if t == "discard":
        return i18n._("{who} discards {card} (cost {cost}, total {total}).").format(
            who=who, card=e["card"], cost=e["cost"], total=e["total"])
    if t == "measure":
        return i18n._("{who} measures planet {planet}: {result}.").format(
            who=who, planet=e["planet"], result=e["result"])
    if t == "bell":
        return i18n._("{who} makes a Bell measurement of planets {planets}.").format(
            who=who, planets=_both(e["planets"]))
    if t == "reshuffle":
        return i18n.ngettext("The deck is reshuffled ({n} card).",
                             "The deck is reshuffled ({n} cards).", e["cards"]).format(
                                 n=e["cards"])
    if t == "game_over":
        return i18n._("Game over: won by camp {camps}.").format(camps=_both(e["winners"]))
    return None


# Translators: Two names joined on the page ("Mercurial and Rubicon").
def _both(items: Any) -> str:
    """Two planets or camps: "1 and 5" in the table's language."""
    return i18n._("{a} and {b}").format(a=items[0], b=items[1]) if len(items) == 2 else \
        str(items[0]) if items else ""


GAMES = {"entanglion": _entanglion, "qno": _qno, "qlanet": _qlanet}
