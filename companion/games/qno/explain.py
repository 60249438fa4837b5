"""A QNO game in plain English, from its report (``companion scenario --text``)."""

from __future__ import annotations

from typing import Any, Iterator

from .cards import label

REASONS = {"deal": "is dealt", "draw": "draws", "draw_two": "draws (Draw Two)",
           "h_reward": "draws (H guessed right)", "h_penalty": "draws (H guessed wrong)",
           "caught": "draws (caught without QNO!)"}


def narrate(result: dict[str, Any]) -> Iterator[str]:
    for e in result["log"]:
        t, p = e["type"], e.get("player")
        if t == "setup":
            yield f"{e['players']} players, hands {e['hands']}; player {e['first']} starts."
        elif t == "start_gate":
            yield f"{e['card']} turned up: a gate cannot start ({e['how']})."
        elif t == "start":
            yield f"Start card {label(e['card'])}."
        elif t == "turn":
            yield f"Turn {e['number']}: player {p}."
        elif t == "play":
            yield f"  Player {p} plays {label(e['card'])}."
        elif t == "draw":
            yield f"  Player {p} cannot play and draws."
        elif t == "drew" and e["reason"] != "deal":
            yield f"  Player {p} {REASONS[e['reason']]} {e['count']}."
        elif t == "gate":
            yield f"  {e['card']} on q{e['qubit']}: |{e['before']}> becomes |{e['after']}>."
        elif t == "measured":
            yield f"  H on q{e['qubit']} makes {e['superposition']}; measured."
        elif t == "reveal":
            yield (f"  It reads |{e['result']}>; player {p} guessed |{e['guess']}>: "
                   f"{'right' if e['right'] else 'wrong'}.")
        elif t in ("skip", "reverse", "reshuffle", "qno", "call", "caught", "no_cards",
                   "retrigger"):
            detail = {"skip": f"player {p} is skipped", "reverse": "direction reversed",
                      "reshuffle": f"discards reshuffled into a new pile ({e.get('count')})",
                      "qno": f"QNO! player {p} has one card", "call": f"player {p} calls QNO!",
                      "caught": f"player {p} is caught without QNO!",
                      "no_cards": f"no cards left to draw for player {p}",
                      "retrigger": f"{e.get('action')} fires again"}[t]
            yield f"  {detail[0].upper()}{detail[1:]}."
        elif t == "game_over":
            yield f"Game over: player(s) {', '.join(map(str, e['winners']))} win ({e['reason']})."
    if result["pending"]:
        yield f"Waiting for player {result['pending']['player']}: {result['pending']['kind']}."
    yield "Circuit:"
    yield from result["circuit_text"].splitlines()
