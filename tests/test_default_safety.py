"""No default can hurt: random games of every game, played through the session, and at
every menu and prompt as it appears, the pre-selected item is checked against what the
game says, worked out here on its own (not from the items' own risk marks):

- never a kept failed roll while Magnetic Shielding's re-roll is free, nor a re-roll
  that throws a success away, nor a Quantum Tunnel left unused on a failed roll;
- never a move that takes the ships out of Entanglion (in the move menu, The
  Mechanic's plays, anywhere), and every input that does so was confirmed on a
  "Leave Entanglion?" screen first, whether chosen from a menu or tapped;
- never an input with no effect (a card moving nothing, a Bennett with nothing
  aboard) while one with an effect is offered;
- never a roll more likely lost than won while an input without such a roll is offered;
- never QNO's "Draw a card" while a card can be played;
- never undo, end, leave or switch off.

The move menu pre-selects its Hint (harmless: it only shows the hint), so there the
same checks apply to the first of its inputs as well. ``COMPANION_LONG=1`` plays ten
times as many games.
"""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import pytest
from test_no_cut_text import REG, MemoryJournal, event, options_for

from companion.autoplay import AutoPlayer
from companion.games.entanglion import board, odds
from companion.games.entanglion.board import GALAXY
from companion.session import Session, SessionConfig

GAMES = {"entanglion": 30, "qno": 20, "qlanet": 15}
LONG = 10 if os.environ.get("COMPANION_LONG") == "1" else 1
NEVER = {"undo", "confirm_end", "end", "power_off", "leave"}


def _leaves(g: Any, card: str, player: str) -> bool:
    s = g.state
    dest = board.navigate(card, player, s.pos, s.options["cnot_phase_kickback"])
    return GALAXY[s.pos[0]] == "entanglion" and GALAXY[dest[0]] != "entanglion"


def _moves_nothing(g: Any, card: str, player: str) -> bool:
    s = g.state
    return board.navigate(card, player, s.pos, s.options["cnot_phase_kickback"]) == s.pos


def _engine_input(g: Any, act: Any) -> dict[str, Any] | None:
    """The engine input an item plays (a prompt's answer by its value), None if none."""
    if not isinstance(act, dict) or "do" not in act:
        return None
    if act["do"] == "choose" and "index" in act:
        return {**act, "value": g.pending["options"][act["index"]]}
    return act


def _no_effect(g: Any, act: dict[str, Any]) -> bool:
    s = g.state
    if act["do"] == "navigate":
        return _moves_nothing(g, act["card"], act["player"])
    if act["do"] == "event" and act["card"] == "bennett":
        return not any(s.ship_components.values())
    if act["do"] == "choose" and g.pending["kind"] == "mechanic" and act["value"] != "stop":
        return _moves_nothing(g, act["value"], act["player"])
    return False


def _long_shot(g: Any, act: dict[str, Any]) -> bool:
    if act["do"] == "choose":
        chance = odds.answer_odds(g, act["value"]) if g.pending["kind"] == "quantum_tunnel" \
            else None
    else:
        o = odds.action_odds(g, act)
        chance = None if o is None else o.chance
    return chance is not None and chance < Fraction(1, 2)


def _out(g: Any, act: dict[str, Any]) -> bool:
    if act["do"] == "navigate":
        return _leaves(g, act["card"], act["player"])
    return act["do"] == "choose" and g.pending["kind"] == "mechanic" \
        and act["value"] != "stop" and _leaves(g, act["value"], act["player"])


def entanglion_faults(g: Any, items: list[Any], chosen: Any) -> list[str]:
    """What is wrong with ``chosen`` as the pre-selected item among ``items``."""
    faults = []
    act = chosen.action
    if isinstance(act, dict) and act.get("title") == "Leave Entanglion?":
        faults.append("a move out of Entanglion pre-selected")
    act = _engine_input(g, act)
    inputs = [a for a in (_engine_input(g, i.action) for i in items) if a is not None]
    if act is None:
        return faults
    p = g.pending
    if p and p["kind"] == "magnetic_shielding" and p.get("purpose") in odds.CHECKS:
        failed = odds.answer_odds(g, "keep") == 0
        if (act["value"] == "keep") == failed:
            faults.append("kept a failed roll" if failed else "re-rolled a success")
    if p and p["kind"] == "quantum_tunnel" and act["value"] == "accept":
        faults.append("a failed roll accepted while the Tunnel could save it")
    if _out(g, act):
        faults.append("leaves Entanglion")
    if _no_effect(g, act) and any(not _no_effect(g, a) for a in inputs):
        faults.append("no effect while an input with one is offered")
    if _long_shot(g, act) and any(not _long_shot(g, a) and not _no_effect(g, a)
                                  and not _out(g, a) for a in inputs):
        faults.append("a long shot while a safer input is offered")
    return faults


def faults(s: Session) -> list[str]:
    """What is wrong with the pre-selected item of the menu on show (none: nothing)."""
    menu = s._current_menu()
    if menu is None or not menu["items"] or s.mode != "game":
        return []
    items = menu["items"]
    chosen = items[s.cursor]
    act = chosen.action
    if isinstance(act, dict) and act.get("session") in NEVER:
        return [f"pre-selects {act['session']}"]
    g = s.game
    if s.ui.NAME == "qno":
        if isinstance(act, dict) and act.get("do") == "draw" and \
                any(a["do"] == "play" for a in g.legal_actions()):
            return ["QNO: draws while a card can be played"]
        return []
    if s.ui.NAME != "entanglion":
        return []
    out = entanglion_faults(g, items, chosen)
    if isinstance(act, dict) and act.get("menu") == "hint":  # the move menu: its first input
        first = next((i for i in items if _engine_input(g, i.action) is not None or (
            isinstance(i.action, dict) and i.action.get("menu") == "confirm")), None)
        if first is not None:
            out += [f"first input: {f}" for f in entanglion_faults(g, items, first)]
    return out


def _went_out(entries: list[dict[str, Any]]) -> bool:
    """Whether these log entries moved the ships out of Entanglion by a card."""
    return any(e["type"] == "move" and e["cause"] in board.GATES
               and GALAXY[e["from"][0]] == "entanglion" and GALAXY[e["to"][0]] != "entanglion"
               for e in entries)


@pytest.mark.parametrize("game", list(GAMES))
def test_no_pre_selected_item_can_hurt_and_every_way_out_asks(game):
    checked, wrong, unasked, asked = 0, [], [], 0
    for i in range(GAMES[game] * LONG):
        journal = MemoryJournal()
        session = Session(journal, REG, SessionConfig(qno_pads={}), seed_source=lambda: i)
        player = AutoPlayer(i, taps=bool(i % 2), game=game, options=options_for(game, i))
        last = None
        for _step in range(20000):
            shown = session.screen()
            if shown.get("screen") == "menu" and last not in ("press up", "press down"):
                checked += 1
                wrong += [(game, i, shown["title"], shown["items"][shown["cursor"]], f)
                          for f in faults(session)]
            command = player.next_command(session)
            if command is None:
                break
            g = session.game
            asking = shown.get("title") == "Leave Entanglion?"
            asked += asking
            before = len(g.inputs) if g is not None else -1
            logged = len(g.log) if g is not None else 0
            session.handle(event(command, game))
            last = command
            if game == "entanglion" and g is not None and len(g.inputs) == before + 1 \
                    and _went_out(g.log[logged:]) and not asking:
                unasked.append((i, g.inputs[-1]))
        else:
            pytest.fail(f"{game} game {i} did not end")
    assert not wrong, f"{len(wrong)} harmful defaults, e.g. {wrong[:5]}"
    assert not unasked, f"left Entanglion without asking: {unasked[:5]}"
    assert checked > 300 * LONG  # thousands over the three games
    if game == "entanglion":
        assert asked  # the confirmation was met (so the check above could fail)
