"""The authoritative QNO rules engine (the default rulings of docs/rules/qno.md).

One type, :class:`Qno`, with the same shape as the Entanglion engine: ``push`` an
input (``IllegalAction`` and no change if the rules refuse it), ``pop`` to undo,
``check``, ``legal_actions``, ``awaiting``, ``pending``, and an exact JSON form.
Players are numbered 1..n. Inputs are plain dicts; ``player`` may be left out and
means the player the box is waiting for::

    {"do": "play", "card": "01_7"}         {"do": "play", "card": "X", "qubit": 0}
    {"do": "draw"}                           (cannot play: draw instead)
    {"do": "take", "card": "10_skip"}        a card dealt or drawn (tracked hands)
    {"do": "turn_up", "card": "00_3"}        the start card
    {"do": "choose", "value": 1}             answers ``pending`` (qubit, H guess)
    {"do": "pass"}                           keep a drawn card (drawn_card=may_play)
    {"do": "call", "player": 2}              QNO! (qno_call=call_or_catch)
    {"do": "catch", "target": 2}             an uncalled QNO! is caught

Prompts (``pending``) are ``take`` (tap the cards dealt or drawn, one by one),
``turn_up`` (the start card), ``qubit`` (the target of X or H, the control of CNOT),
``guess`` (after H: which way did it fall? the outcome is committed first) and
``drawn`` (play the card just drawn, or keep it).

Chance: the engine draws only H outcomes (and a random dealer if asked); ``forced``
is a list of H outcomes, 0 or 1 (the H'd qubit's reading), used before the
generator. Cards are the players' chance: they come in as inputs.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from ...chance import below, seed_state
from ..snapshots import SnapshotEngine
from . import circuit
from .cards import (
    DRAW_TWO, HAND_SIZE, REVERSE, SKIP, CNOT, H, X, full_deck, is_card, parse,
)
from .options import OptionError, make_options
from .state import State

ACTIONS = ("play", "draw", "take", "turn_up", "choose", "pass", "call", "catch")


class QnoError(Exception):
    """Base of the engine's errors."""


class IllegalAction(QnoError):
    """An input the rules do not allow now; nothing changed. ``str()`` says why."""


class SetupError(QnoError):
    """A game cannot be set up as asked (bad options or forced outcomes)."""


def playable(card: str, top_state: str | None, top_value: str | None) -> bool:
    """Gates always; otherwise the same effective state or the same value."""
    state, value = parse(card)
    return state is None or state == top_state or (top_value is not None and value == top_value)


class Qno(SnapshotEngine):
    """A game of QNO from the deal to the win."""

    game = "qno"
    illegal = IllegalAction

    def __init__(self, seed: int = 0, options: dict[str, Any] | None = None,
                 setup: dict[str, Any] | None = None, forced: Iterable[int] = ()):
        try:
            opts = make_options(options)
        except OptionError as exc:
            raise SetupError(str(exc)) from None
        forced = list(forced)
        for f in forced:
            if f not in (0, 1) or type(f) is not int:
                raise SetupError(f"forced H outcomes must be 0 or 1, not {f!r}")
        if setup:
            raise SetupError("QNO takes no setup values: the deal comes in as 'take' inputs")
        self.seed = seed
        self.setup: dict[str, Any] = {}
        self.state = State(opts, seed_state(seed), forced)
        self.log: list[dict[str, Any]] = []
        self.inputs: list[dict[str, Any]] = []
        self._history: list[tuple[State, int]] = []
        self._deal()

    # ------------------------------------------------------------------ public API

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def pending(self) -> dict[str, Any] | None:
        return self.state.pending

    @property
    def players(self) -> int:
        return self.state.options["players"]

    @property
    def tracked(self) -> bool:
        return self.state.options["hands"] == "tracked"

    def awaiting(self) -> int | None:
        """The player whose input is awaited (a prompt first, else the mover)."""
        s = self.state
        if s.status == "won":
            return None
        return s.pending["player"] if s.pending else s.turn

    def undo_refusal(self) -> str | None:
        """Why the last input may not be taken back at the table (None: it may).

        The engine itself can always ``pop``; players must not undo a revealed H
        outcome, or they could guess again knowing the answer."""
        if any(e["type"] == "reveal" for e in self.last_entries()):
            return "An H outcome was shown: no undo"
        return None

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal input now (plays of gates without a qubit: a prompt follows)."""
        s = self.state
        if s.status == "won":
            return []
        p = self.awaiting()
        out: list[dict[str, Any]] = []
        pend = s.pending
        if pend is not None:
            kind = pend["kind"]
            if kind in ("take", "turn_up"):
                out = [{"player": p, "do": kind, "card": c} for c in sorted(self._takeable())]
            elif kind in ("qubit", "guess"):
                out = [{"player": p, "do": "choose", "value": v} for v in pend["options"]]
            elif kind == "drawn":
                out = [{"player": p, "do": "play", "card": c} for c in self._candidates(p)
                       if self._reason({"player": p, "do": "play", "card": c}) is None]
                out.append({"player": p, "do": "pass"})
        else:
            out = [{"player": p, "do": "play", "card": c} for c in self._candidates(p)
                   if playable(c, s.top_state, s.top_value)]
            if self._draw_reason(p) is None:
                out.append({"player": p, "do": "draw"})
        out += self._call_actions()
        return out

    def hand(self, player: int) -> list[str] | None:
        """A tracked hand (never shown on the shared screen); None in honour mode."""
        s = self.state
        return None if s.hands is None else list(s.hands[player - 1])

    def next_player(self, player: int, steps: int = 1) -> int:
        n = self.players
        return (player - 1 + steps * self.state.direction) % n + 1

    # ----------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "setup": {},
                "state": self.state.to_dict(), "inputs": [dict(i) for i in self.inputs],
                "log": [dict(e) for e in self.log]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Qno":
        g = cls.__new__(cls)
        g.seed = data["seed"]
        g.setup = {}
        g.state = State.from_dict(data["state"])
        g.log = [dict(e) for e in data["log"]]
        g.inputs = [dict(i) for i in data["inputs"]]
        g._history = []
        return g

    # ------------------------------------------------------------ validation

    def _normalise(self, action: Any) -> dict[str, Any]:
        if not isinstance(action, dict):
            raise IllegalAction(f"an input must be an object, not {action!r}")
        do = action.get("do")
        if do not in ACTIONS:
            raise IllegalAction(f"unknown action {do!r} (one of {', '.join(ACTIONS)})")
        act = dict(action)
        player = act.get("player")
        if player is None:
            if do == "catch":
                act.pop("player", None)
            else:
                act["player"] = self.awaiting()
        elif type(player) is not int or not 1 <= player <= self.players:
            raise IllegalAction(f"unknown player {player!r} (1-{self.players})")
        if do in ("play", "take", "turn_up"):
            card = act.get("card")
            if not is_card(card):
                raise IllegalAction(f"{card!r} is not a QNO card")
        if do == "choose":
            pend = self.state.pending
            if pend is not None and pend["kind"] in ("qubit", "guess"):
                options = pend["options"]
                if "index" in act and "value" not in act:
                    i = act.pop("index")
                    if type(i) is not int or not 0 <= i < len(options):
                        raise IllegalAction(f"choice index must be 0-{len(options) - 1}")
                    act["value"] = options[i]
        return act

    def _reason(self, act: dict[str, Any]) -> str | None:
        s = self.state
        if s.status == "won":
            return "The game is over"
        do, p = act["do"], act.get("player")
        if do in ("call", "catch"):
            return self._call_reason(act)
        pend = s.pending
        if pend is not None and p != pend["player"]:
            return f"Player {pend['player']} is up"
        if pend is None and p != s.turn:
            return f"Player {s.turn} is up"
        kind = pend["kind"] if pend else None
        if do in ("take", "turn_up"):
            if kind != do:
                return "No card is being dealt or drawn" if do == "take" else \
                    "The start card is already up"
            if self._takeable()[act["card"]] <= 0:
                return f"Every {act['card']} is already in play"
            return None
        if do == "choose":
            if kind not in ("qubit", "guess"):
                return "Nothing to choose"
            if act.get("value") not in pend["options"]:
                return f"Choose one of {pend['options']}"
            return None
        if do == "pass":
            return None if kind == "drawn" else "Pass only after drawing (play or draw)"
        if kind not in (None, "drawn"):
            return {"take": "Tap the cards you draw first", "turn_up": "Turn up the start card",
                    "qubit": "Choose the qubit first", "guess": "Guess the outcome first"}[kind]
        if do == "draw":
            return "Play the drawn card or keep it" if kind == "drawn" else self._draw_reason(p)
        # play
        card = act["card"]
        state, _ = parse(card)
        if kind == "drawn" and pend["card"] is not None and card != pend["card"]:
            return "Only the card just drawn may be played"
        if s.hands is not None:
            if card not in s.hands[p - 1]:
                return "That card is not in your hand (tap cards as you draw them)"
        elif s.unseen.get(card, 0) <= 0:
            return f"Every {card} is already on the discard pile"
        if not playable(card, s.top_state, s.top_value):
            want = f"|{s.top_state}>" + (f" or {s.top_value}" if s.top_value else "")
            return f"Does not match {want}"
        qubit = act.get("qubit")
        if qubit is not None and (state is not None or qubit not in (0, 1) or type(qubit) is not int):
            return "A qubit (0 or 1) goes only with a gate card"
        return None

    def _draw_reason(self, p: int) -> str | None:
        s = self.state
        if not (self.tracked and s.options["must_play"]):
            return None  # honour system, or free drawing
        if any(playable(c, s.top_state, s.top_value) for c in s.hands[p - 1]):
            return "You can play a card, so you must"
        return None

    def _takeable(self) -> Counter:
        return Counter({c: n for c, n in self.state.unseen.items() if n > 0})

    def _candidates(self, p: int) -> list[str]:
        s = self.state
        pend = s.pending
        if pend is not None and pend.get("card") is not None:
            return [pend["card"]]
        if s.hands is not None:
            return sorted(set(s.hands[p - 1]))
        return sorted(c for c, n in s.unseen.items() if n > 0)

    def _call_reason(self, act: dict[str, Any]) -> str | None:
        s = self.state
        if s.options["qno_call"] != "call_or_catch":
            return "The box announces QNO! by itself"
        if act["do"] == "call":
            p = act["player"]
            if s.uncalled == p:
                return None
            if p == s.turn and s.counts[p - 1] == 2 and s.pending is None and s.called != p:
                return None  # calling as they play the penultimate card
            return "Nothing to call"
        target = act.get("target")
        if s.uncalled is None or target != s.uncalled:
            return "Nobody to catch"
        if act.get("player") == target:
            return "Call it, do not catch yourself"
        return None

    def _call_actions(self) -> list[dict[str, Any]]:
        s = self.state
        if s.options["qno_call"] != "call_or_catch":
            return []
        out = []
        if s.uncalled is not None:
            out.append({"player": s.uncalled, "do": "call"})
            out.append({"do": "catch", "target": s.uncalled})
        elif self._call_reason({"do": "call", "player": s.turn}) is None:
            out.append({"player": s.turn, "do": "call"})
        return out

    # ------------------------------------------------------------ doing

    def _log(self, type_: str, **data: Any) -> dict[str, Any]:
        entry = {"type": type_, **data}
        self.log.append(entry)
        return entry

    def _perform(self, act: dict[str, Any]) -> None:
        s, do = self.state, act["do"]
        if do in ("play", "draw") and s.uncalled is not None:
            s.uncalled = None  # the next move closes the window to catch
        if do == "call":
            s.uncalled = None
            s.called = act["player"]
            self._log("call", player=act["player"])
        elif do == "catch":
            target = act["target"]
            s.uncalled = None
            self._log("caught", player=target, by=act.get("player"))
            self._queue_draw(target, 2, "caught")
            self._settle()
        elif do == "take":
            self._take(act["card"])
        elif do == "turn_up":
            self._turn_up(act["card"])
        elif do == "choose":
            if s.pending["kind"] == "qubit":
                self._resolve_gate(act["value"])
            else:
                self._reveal(act["value"])
        elif do == "pass":
            s.pending = None
            self._log("keep", player=act["player"])
            self._end_turn(act["player"], skip=False, played=False)
        elif do == "draw":
            self._draw_instead(act["player"])
        else:
            self._play(act["player"], act["card"], act.get("qubit"))

    # -- setup -----------------------------------------------------------------------

    def _deal(self) -> None:
        s = self.state
        n = self.players
        s.unseen = dict(Counter(full_deck()))
        s.pile = len(full_deck())
        s.counts = [0] * n
        if s.options["first_player"] == "random":
            s.rng, dealer = below(s.rng, n)
            s.turn = (dealer + 1) % n + 1  # the player after the dealer starts
            self._log("dealer", player=dealer + 1)
        else:
            s.turn = 1
        self._log("setup", players=n, hands=s.options["hands"], first=s.turn)
        if self.tracked:
            s.hands = [[] for _ in range(n)]
        for p in range(n):
            self._queue_draw(p + 1, HAND_SIZE, "deal")
        s.after_draws = {"then": "turn_up"}
        self._settle()

    def _turn_up(self, card: str) -> None:
        s = self.state
        state, value = parse(card)
        s.pending = None
        if state is None:
            self._log("start_gate", card=card, how=s.options["start_gate"])
            s.pending = {"kind": "turn_up", "player": s.turn}
            return
        self._remove_unseen(card)
        s.pile -= 1
        s.discard.append(card)
        s.top_state, s.top_value = state, value
        for q in circuit.changes("00", state):
            s.circuit.append({"op": "x", "qubit": q, "why": "prep"})
        s.status = "playing"
        self._log("start", card=card, state=state)
        first = s.turn
        if value in (SKIP, REVERSE, DRAW_TWO) and s.options["start_action"] == "apply":
            if value == SKIP:
                s.turn = self.next_player(first)
                self._log("skip", player=first)
            elif value == REVERSE:
                s.direction = -1
                self._log("reverse", direction=-1)
            else:
                self._queue_draw(first, 2, "draw_two")
        s.after_draws = {"then": "begin"}
        self._settle()

    # -- draws -----------------------------------------------------------------------

    def _queue_draw(self, player: int, count: int, reason: str) -> None:
        self.state.draws.append([player, count, reason])
        self._log("must_draw", player=player, count=count, reason=reason)

    def _settle(self) -> None:
        """Take queued draws (honour mode: counted at once; tracked: a ``take`` prompt
        per card), refilling an empty pile; then do what waits on them."""
        s = self.state
        while s.draws and s.status != "won":
            player, count, reason = s.draws[0]
            if count <= 0:
                s.draws.pop(0)
                continue
            if s.pile <= 0 and not self._refill_pile():
                return
            if s.pile <= 0:
                self._log("no_cards", player=player, missing=count)
                s.draws.pop(0)
                continue
            if self.tracked:
                s.pending = {"kind": "take", "player": player, "count": count, "reason": reason}
                return
            taken = min(count, s.pile)
            s.pile -= taken
            s.counts[player - 1] += taken
            s.draws[0][1] -= taken
            self._log("drew", player=player, count=taken, reason=reason)
        s.pending = None
        if s.status == "won":
            return
        after, s.after_draws = s.after_draws, None
        if after is None:
            return
        then = after["then"]
        if then == "turn_up":
            s.pending = {"kind": "turn_up", "player": s.turn}
        elif then == "begin":
            self._begin_turn()
        elif then == "end_turn":
            self._end_turn(after["player"], after["skip"], after["played"], after.get("had"))
        elif then == "advance":
            self._advance(after["player"], after["skip"])
        elif then == "drawn":
            self._after_drawing(after["player"], after.get("card"))

    def _refill_pile(self) -> bool:
        """The pile is empty: reshuffle the discards (or end the game). False: over."""
        s = self.state
        if s.options["empty_pile"] == "fewest_cards":
            low = min(s.counts)
            s.winners = [i + 1 for i, c in enumerate(s.counts) if c == low]
            s.status, s.pending, s.draws = "won", None, []
            self._log("game_over", winners=s.winners, reason="draw pile empty: fewest cards")
            return False
        under = s.discard[:-1]
        if under:
            del s.discard[:-1]
            s.pile += len(under)
            for c in under:
                s.unseen[c] = s.unseen.get(c, 0) + 1
            self._log("reshuffle", count=len(under))
        return True

    def _take(self, card: str) -> None:
        s = self.state
        player, _, reason = s.draws[0]
        self._remove_unseen(card)
        s.pile -= 1
        s.hands[player - 1].append(card)
        s.counts[player - 1] += 1
        s.draws[0][1] -= 1
        self._log("drew", player=player, count=1, reason=reason, card=card)
        if s.after_draws and s.after_draws["then"] == "drawn" and reason == "draw":
            s.after_draws["card"] = card
        self._settle()

    def _remove_unseen(self, card: str) -> None:
        s = self.state
        s.unseen[card] -= 1
        if not s.unseen[card]:
            del s.unseen[card]

    def _draw_instead(self, p: int) -> None:
        s = self.state
        self._log("draw", player=p)
        self._queue_draw(p, 1, "draw")
        if s.options["drawn_card"] == "may_play":
            s.after_draws = {"then": "drawn", "player": p}
        else:
            s.after_draws = {"then": "end_turn", "player": p, "skip": False,
                             "played": False, "had": s.counts[p - 1]}
        self._settle()

    def _after_drawing(self, p: int, card: str | None) -> None:
        s = self.state
        if (card is None and self.tracked) or (
                card is not None and not playable(card, s.top_state, s.top_value)):
            self._end_turn(p, skip=False, played=False)  # nothing drawn, or it cannot go
            return
        s.pending = {"kind": "drawn", "player": p, "card": card}

    # -- playing ---------------------------------------------------------------------

    def _play(self, p: int, card: str, qubit: int | None) -> None:
        s = self.state
        state, value = parse(card)
        s.pending = None
        if s.hands is not None:
            s.hands[p - 1].remove(card)
        self._remove_unseen_if_honour(card)
        s.counts[p - 1] -= 1
        s.discard.append(card)
        self._log("play", player=p, card=card)
        if s.options["win_check"] == "on_empty" and s.counts[p - 1] == 0:
            # The GUI's rule: the hand emptying wins before the card resolves.
            self._win(p)
            return
        if state is None:
            s.gate = {"player": p, "card": card}
            if qubit is None:
                s.pending = {"kind": "qubit", "player": p, "gate": card, "options": [0, 1]}
            else:
                self._resolve_gate(qubit)
            return
        if state != s.top_state:
            for q in circuit.changes(s.top_state, state):
                s.circuit.append({"op": "x", "qubit": q, "why": "value"})
        s.top_state, s.top_value = state, value
        self._action(p, value)

    def _remove_unseen_if_honour(self, card: str) -> None:
        if self.state.hands is None:
            self._remove_unseen(card)

    def _action(self, p: int, value: str | None) -> None:
        """The played card's action, if any; then the turn ends."""
        self._finish_play(p, self._effect(p, value))

    def _finish_play(self, p: int, skip: bool) -> None:
        """Take the draws the play caused, then end the turn. An empty hand with no
        draw of its own to come has already won: others' draws cannot change that."""
        s = self.state
        if s.counts[p - 1] == 0 and not any(d[0] == p for d in s.draws):
            self._win(p)
            return
        s.after_draws = {"then": "end_turn", "player": p, "skip": skip, "played": True}
        self._settle()

    def _effect(self, p: int, value: str | None) -> bool:
        """Reverse, Skip or Draw Two acting for ``p``; True if the next seat is skipped."""
        s = self.state
        if value == SKIP:
            self._log("skip", player=self.next_player(p))
            return True
        if value == REVERSE:
            s.direction = -s.direction
            self._log("reverse", direction=s.direction)
            return self.players == 2 and s.options["two_player_reverse"] == "skip"
        if value == DRAW_TWO:
            self._queue_draw(self.next_player(p), 2, "draw_two")
        return False

    def _resolve_gate(self, qubit: int) -> None:
        s = self.state
        p, card = s.gate["player"], s.gate["card"]
        s.pending = None
        old = s.top_state
        if card == X:
            new = circuit.apply_x(old, qubit)
            s.circuit.append({"op": "x", "qubit": qubit, "why": "played"})
            self._gate_done(p, card, qubit, old, new)
        elif card == CNOT:
            new = circuit.apply_cnot(old, qubit)
            s.circuit.append({"op": "cx", "control": qubit, "target": 1 - qubit})
            self._gate_done(p, card, qubit, old, new)
        else:
            # H: the outcome is committed now, before the guess, and shown after it.
            if s.forced:
                outcome = s.forced.pop(0)
            else:
                s.rng, outcome = below(s.rng, 2)
            s.gate = {"player": p, "card": H, "qubit": qubit, "from": old, "outcome": outcome}
            s.circuit.append({"op": "h", "qubit": qubit})
            s.circuit.append({"op": "measure", "result": None})
            self._log("measured", player=p, qubit=qubit, superposition=circuit.superposition(old, qubit))
            s.pending = {"kind": "guess", "player": p, "qubit": qubit,
                         "options": list(circuit.h_outcomes(old, qubit))}

    def _gate_done(self, p: int, card: str, qubit: int, old: str, new: str) -> None:
        s = self.state
        s.gate = None
        s.top_state, s.top_value = new, None
        self._log("gate", player=p, card=card, qubit=qubit, before=old, after=new)
        self._finish_play(p, skip=False)

    def _reveal(self, guess: str) -> None:
        s = self.state
        g = s.gate
        p = g["player"]
        result = circuit.h_outcomes(g["from"], g["qubit"])[g["outcome"]]
        s.circuit[-1] = {"op": "measure", "result": result}
        right = guess == result
        s.gate, s.pending = None, None
        s.top_state, s.top_value = result, None
        self._log("reveal", player=p, guess=guess, result=result, right=right)
        if right:
            self._queue_draw(self.next_player(p), 4, "h_reward")
        else:
            self._queue_draw(p, 1, "h_penalty")
        self._finish_play(p, skip=False)

    # -- turns -----------------------------------------------------------------------

    def _end_turn(self, p: int, skip: bool, played: bool, had: int | None = None) -> None:
        """After a play resolved (or a draw): the win, QNO!, and the next seat.

        ``had`` is the drawer's count before drawing (to see whether a card came)."""
        s = self.state
        if played:
            if s.counts[p - 1] == 0:
                self._win(p)
                return
            if s.counts[p - 1] == 1:
                self._log("qno", player=p)
                if s.options["qno_call"] == "call_or_catch" and s.called != p:
                    s.uncalled = p
        s.called = None
        if not played:
            drew = had is not None and s.counts[p - 1] > had
            if s.options["drawn_card"] == "draw_until_playable" and drew:
                return  # the same player draws again or plays
            if s.options["retrigger_actions"] and s.top_value in (SKIP, REVERSE, DRAW_TWO):
                # The original fires the action on top again for whoever drew.
                self._log("retrigger", player=p, action=s.top_value)
                skip = self._effect(p, s.top_value)
                s.after_draws = {"then": "advance", "player": p, "skip": skip}
                self._settle()
                return
        self._advance(p, skip)

    def _advance(self, p: int, skip: bool) -> None:
        self.state.turn = self.next_player(p, 2 if skip else 1)
        self._begin_turn()

    def _begin_turn(self) -> None:
        s = self.state
        s.turn_number += 1
        self._log("turn", player=s.turn, number=s.turn_number)

    def _win(self, p: int) -> None:
        s = self.state
        s.winners = [p]
        s.status, s.pending, s.draws, s.after_draws, s.gate = "won", None, [], None, None
        s.uncalled = None
        self._log("game_over", winners=[p], reason="empty hand")
