"""The authoritative QLANET rules engine.

One type, :class:`Qlanet`, in the spirit of python-chess's ``Board``: ``push`` an
input, ``pop`` to undo it, ask ``legal_actions()``, ``check()`` an input for the
reason it is illegal, and ``to_dict``/``from_dict`` for an exact JSON form. QLANET
never needs a prompt, so ``pending`` is always None. Players are camps ``0`` and
``1``; planets are numbered 1-9 row by row from the top left::

    1 2 3
    4 5 6
    7 8 9

Inputs are plain dicts (``player`` may be left out: it is then the awaited camp)::

    {"player": 0, "do": "play", "card": "H", "planets": [5]}
    {"player": 0, "do": "play", "card": "CX0", "planets": [4, 5]}   # control, target
    {"player": 1, "do": "discard", "card": "BM"}   # only when no card can be played (D12)

A turn (docs/rules/qlanet.md): play one card (its effect on the real 9-qubit state and every
viewer's knowledge), add its cost to the player's total, refill one card, check both
camps for a win, then the lower total moves next (a tie: the same player again).
Legality never depends on hidden information: only hands, fixed flags and options.

Set-up (``setup``; every key optional, the rest is drawn from the seed)::

    {"first_player": 0,
     "planets": ["+", "+", "-", "-", "0", "-", "-", "+", "+"],   # also "1", "F0", "F1"
     "hidden": [5],            # planets whose state nobody knows (default: the opening's)
     "hands": [["X", "H", "Z", "M"], ["BM", "SW", "CX0", "CX1"]],  # hand_size cards each
     "deck": ["M", "X"],       # refill "deck" only: the top of the deck, top first
     "costs": [0, 0]}          # running totals to start from

``forced`` pins chance during play: a list consumed in order, one item per chance
event, whatever the hidden state (so a scenario can be written without knowing it):

* M: ``0`` or ``1``, the measurement result (an impossible one is an IllegalAction);
* BM: ``"Phi+"``, ``"Phi-"``, ``"Psi+"`` or ``"Psi-"``, the Bell measurement's outcome;
  with ``bm_outcome: "uniform_secret"`` a second item follows, the pair's final code;
* every refill: a card name (with a deck it must be in the deck; it is taken out);
* ``None`` for any of them: let chance decide that one.

A forced item of the wrong kind refuses the input (IllegalAction, nothing changed).
Chance draws never depend on hidden information either: every M draws one coin and
every BM two (plus one for a uniform code) whether or not the outcome is certain, so
games that differ only in a hidden outcome keep the same refills.

The log is public until the game ends: a BM is logged without its code. Entries::

    setup {first_player, planets (public icons), hands, costs}   turn {player, number}
    play {player, card, planets, cost, total}   discard {player, card, cost, total}
    measure {player, planet, result}   bell {player, planets}   refill {player, card}
    reshuffle {cards}   game_over {winners, reasons: {"0": "line 1-5-9" | "five fixed"
    | "move cap 60" | "cost cap 150"}}   reveal {planets: the true view, bells: codes}
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ...chance import below, seed_state, shuffle
from ..snapshots import SnapshotEngine
from . import quantum as qm
from .cards import (
    BM,
    CARDS,
    CX0,
    CX1,
    DECK_COUNTS,
    ORDERED,
    SW,
    TWO_PLANET,
    H,
    M,
    X,
    Z,
    cost,
    planets_needed,
)
from .knowledge import view as knowledge_view
from .options import OptionError, make_options
from .state import VIEWERS, State

ACTIONS = ("play", "discard")
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINE_MASKS = tuple((sum(1 << q for q in line), line) for line in LINES)
MIRROR_PAIRS = ((0, 8), (1, 7), (2, 6), (3, 5))  # point-symmetric about the centre
CENTRE = 4
BELLS = ("Phi+", "Phi-", "Psi+", "Psi-")
SETUP_STATES = ("0", "1", "+", "-", "F0", "F1")
FIVE = 5
SETUP_KEYS = ("first_player", "planets", "hidden", "hands", "deck", "costs")
_FORCED_KINDS = {
    "measure": "a measurement result (0 or 1)",
    "bell": "a Bell state (Phi+, Phi-, Psi+ or Psi-)",
    "card": f"a card ({', '.join(CARDS)})",
}
_GATES = {X: qm.apply_x, H: qm.apply_h, Z: qm.apply_z}
_TWO_GATES = {CX0: qm.apply_cx0, CX1: qm.apply_cx, SW: qm.apply_swap}


class QlanetError(Exception):
    """Base of the engine's errors."""


class IllegalAction(QlanetError):
    """An input the rules do not allow now; nothing changed. ``str()`` says why."""


class SetupError(QlanetError):
    """A game cannot be set up as asked (bad options, set-up or forced values)."""


def _is_int(v: Any) -> bool:
    return type(v) is int


def _adjacent(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, 3), divmod(b, 3)
    return abs(ra - rb) + abs(ca - cb) == 1


def _distinct(cards: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def _forced_item_ok(item: Any) -> bool:
    return item is None or (_is_int(item) and item in (0, 1)) or item in BELLS or item in CARDS


class Qlanet(SnapshotEngine):
    """A game of QLANET from the opening to the win."""

    game = "qlanet"
    illegal = IllegalAction

    def __init__(self, seed: int = 0, options: dict[str, Any] | None = None,
                 setup: dict[str, Any] | None = None, forced: Iterable[Any] = ()):
        try:
            opts = make_options(options)
        except OptionError as exc:
            raise SetupError(str(exc)) from None
        forced = list(forced)
        for item in forced:
            if not _forced_item_ok(item):
                raise SetupError(f"forced outcomes are 0/1, a Bell state ({', '.join(BELLS)}), "
                                 f"a card ({', '.join(CARDS)}) or null, not {item!r}")
        if not _is_int(seed):
            raise SetupError(f"the seed must be a whole number, not {seed!r}")
        self.seed = seed
        self.setup = dict(setup or {})
        self.forced = forced[:]  # as given, for replay; the state holds what is left
        self.state = State(opts, seed_state(seed), forced)
        self.log: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None  # QLANET asks no questions mid-turn
        self.inputs: list[dict[str, Any]] = []  # accepted inputs, for replay
        self._history: list[tuple[State, int]] = []
        self._setup()

    # ------------------------------------------------------------------ public API

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def turn_player(self) -> int | None:
        return self.state.turn_player

    @property
    def winners(self) -> list[int]:
        return list(self.state.winners)

    def awaiting(self) -> int | None:
        """The camp whose input is awaited, None once the game is over."""
        return self.state.turn_player if self.state.status == "playing" else None

    def view(self, viewer: Any) -> list[dict[str, Any]]:
        """The board as ``viewer`` (0, 1, "spectator", "truth") may see it; see knowledge."""
        return knowledge_view(self, viewer)

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal input for the awaited camp.

        CX0/CX1 list both orders of two planets (the first is the control); SW and BM,
        which do not care, list each pair once, lower planet first. Discards appear
        only when no card can be played.
        """
        s = self.state
        if s.status != "playing":
            return []
        p = s.turn_player
        out = [{"player": p, "do": "play", "card": card, "planets": [q + 1 for q in t]}
               for card in _distinct(s.hands[p]) for t in self._targets(card)]
        if not out:
            out = [{"player": p, "do": "discard", "card": c} for c in _distinct(s.hands[p])]
        return out

    def can_play(self, player: int | None = None) -> bool:
        """Whether the camp (default: the awaited one) has any legal play."""
        s = self.state
        p = s.turn_player if player is None else player
        return any(self._has_target(card) for card in _distinct(s.hands[p]))

    # ----------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """Exact JSON form: state (chance and the true board included), inputs and log;
        ``Qlanet.replay(seed, state.options, setup, forced, inputs)`` rebuilds it."""
        return {
            "game": self.game, "seed": self.seed, "setup": _copy(self.setup),
            "forced": _copy(self.forced), "state": self.state.to_dict(), "pending": self.pending,
            "inputs": _copy(self.inputs), "log": _copy(self.log),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Qlanet":
        g = cls.__new__(cls)
        g.seed = data["seed"]
        g.setup = _copy(data.get("setup") or {})
        g.forced = _copy(data.get("forced") or [])
        g.state = State.from_dict(data["state"])
        g.log = _copy(data["log"])
        g.pending = data.get("pending")
        g.inputs = _copy(data["inputs"])
        g._history = []
        return g

    # ------------------------------------------------------------ validation

    def _normalise(self, action: Any) -> dict[str, Any]:
        if not isinstance(action, dict):
            raise IllegalAction(f"an input must be an object, not {action!r}")
        do = action.get("do")
        if do not in ACTIONS:
            raise IllegalAction(f"unknown action {do!r} (play or discard)")
        act = dict(action)
        player = act.get("player")
        if player is None:
            act["player"] = self.awaiting()
        elif not _is_int(player) or player not in (0, 1):
            raise IllegalAction(f"unknown player {player!r} (camp 0 or 1)")
        card = act.get("card")
        if not isinstance(card, str):
            raise IllegalAction(f"{do} needs a card")
        act["card"] = card.strip().upper()
        if do == "play":
            planets = act.get("planets")
            if _is_int(planets):
                planets = [planets]
            if not isinstance(planets, list) or not all(_is_int(p) for p in planets):
                raise IllegalAction("play needs planets: a list of planet numbers 1-9")
            act["planets"] = list(planets)
        elif "planets" in act:
            raise IllegalAction("a discarded card has no effect, so it takes no planets")
        return act

    def _reason(self, act: dict[str, Any]) -> str | None:
        s = self.state
        if s.status != "playing":
            return f"the game is over ({self._result_text()})"
        player, card = act["player"], act["card"]
        if player != s.turn_player:
            return f"it is camp {s.turn_player}'s turn"
        if card not in CARDS:
            return f"{card!r} is not a QLANET card ({', '.join(CARDS)})"
        hand = s.hands[player]
        if card not in hand:
            return f"camp {player} has no {card} in hand (hand: {', '.join(hand) or 'empty'})"
        if act["do"] == "discard":
            if self.can_play(player):
                return ("a card can still be played: discarding is only for when none can "
                        "(ruling D12)")
            return None
        return self._target_reason(card, act["planets"])

    def _target_reason(self, card: str, planets: list[int]) -> str | None:
        s, opts = self.state, self.state.options
        need = planets_needed(card)
        if len(planets) != need:
            if need == 1:
                return f"{card} takes one planet"
            return f"{card} takes two planets" + (
                " (the control first, then the target)" if card in ORDERED else "")
        for p in planets:
            if not 1 <= p <= 9:
                return f"planets are numbered 1-9, not {p}"
        if need == 2 and planets[0] == planets[1]:
            return f"{card} needs two different planets"
        cx_control = opts["fixed_planets"] == "cx_control"
        for i, p in enumerate(planets):
            f = s.fixed[p - 1]
            if f is None or (i == 0 and card in ORDERED and cx_control):
                continue
            if cx_control:
                return (f"planet {p} is fixed (F{f}): a fixed planet can only be the "
                        "control (first planet) of CX0 or CX1")
            return f"planet {p} is fixed (F{f}): no card can target a fixed planet"
        if need == 2 and opts["two_planet_targets"] == "adjacent" and not _adjacent(
                planets[0] - 1, planets[1] - 1):
            return (f"planets {planets[0]} and {planets[1]} are not side by side "
                    "(option two_planet_targets)")
        return None

    def _targets(self, card: str) -> list[tuple[int, ...]]:
        """Legal 0-based targets of a card: singles, or pairs (ordered for CX only)."""
        s, opts = self.state, self.state.options
        free = [q for q in range(9) if s.fixed[q] is None]
        if card not in TWO_PLANET:
            return [(q,) for q in free]
        controls = range(9) if card in ORDERED and opts["fixed_planets"] == "cx_control" else free
        adjacent = opts["two_planet_targets"] == "adjacent"
        out = []
        for a in controls:
            for b in free:
                if a == b or (card not in ORDERED and b < a and a in free):
                    continue
                if adjacent and not _adjacent(a, b):
                    continue
                out.append((a, b))
        return out

    def _has_target(self, card: str) -> bool:
        return bool(self._targets(card))

    def _result_text(self) -> str:
        w = self.state.winners
        if len(w) == 2:
            return "both camps won"
        return f"camp {w[0]} won" if w else "not started"

    # ------------------------------------------------------------------ set-up

    def _setup(self) -> None:
        s, su = self.state, self.setup
        unknown = set(su) - set(SETUP_KEYS)
        if unknown:
            raise SetupError(f"unknown setup key(s): {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(SETUP_KEYS)})")
        opts = s.options
        size = opts["hand_size"]

        first = su.get("first_player", opts["first_player"])
        if first == "random":
            s.rng, first = below(s.rng, 2)
        elif not _is_int(first) or first not in (0, 1):
            raise SetupError(f"setup.first_player must be 0 or 1, not {first!r}")

        if "planets" in su:
            planets = su["planets"]
            if (not isinstance(planets, list) or len(planets) != 9 or not all(
                    isinstance(p, str) and p.upper() in SETUP_STATES for p in planets)):
                raise SetupError("setup.planets must list 9 states, planet 1 first, each one "
                                 f"of {', '.join(SETUP_STATES)}")
            planets = [p.upper() for p in planets]
        else:
            planets = [""] * 9
            for a, b in MIRROR_PAIRS:
                s.rng, i = below(s.rng, 2)
                planets[a] = planets[b] = "+-"[i]
            if opts["opening"] == "hidden_centre":
                s.rng, i = below(s.rng, 4)
                planets[CENTRE] = ("0", "1", "+", "-")[i]
            else:
                s.rng, i = below(s.rng, 2)
                planets[CENTRE] = "+-"[i]
        default_hidden = [CENTRE + 1] if opts["opening"] == "hidden_centre" else []
        hidden = su.get("hidden", default_hidden)
        if (not isinstance(hidden, list) or not all(_is_int(p) and 1 <= p <= 9 for p in hidden)
                or len(set(hidden)) != len(hidden)):
            raise SetupError("setup.hidden must list different planet numbers 1-9")
        for p in hidden:
            if planets[p - 1].startswith("F"):
                raise SetupError(f"planet {p} is fixed, so it cannot be hidden")

        s.fixed = [int(p[1]) if p.startswith("F") else None for p in planets]
        true_states = [p[1] if p.startswith("F") else p for p in planets]
        s.truth = qm.product_state(true_states)
        seen = [None if q + 1 in hidden else st for q, st in enumerate(true_states)]
        s.knowledge = {v: qm.product_state(seen) for v in VIEWERS}

        costs = su.get("costs", [0, 0])
        if (not isinstance(costs, list) or len(costs) != 2
                or not all(_is_int(c) and c >= 0 for c in costs)):
            raise SetupError("setup.costs must be two whole numbers, camp 0's first")
        s.costs = list(costs)

        hands = su.get("hands")
        if hands is not None:
            if (not isinstance(hands, list) or len(hands) != 2 or not all(
                    isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands)):
                raise SetupError("setup.hands must be two lists of cards, camp 0's first")
            hands = [[c.strip().upper() for c in h] for h in hands]
            for camp, h in enumerate(hands):
                bad = [c for c in h if c not in CARDS]
                if bad:
                    raise SetupError(f"unknown card(s) {bad} in setup.hands (cards: "
                                     f"{', '.join(CARDS)})")
                if len(h) != size:
                    raise SetupError(f"camp {camp}'s hand has {len(h)} cards; hand_size is {size}")
        top = su.get("deck")
        if top is not None and opts["refill"] != "deck":
            raise SetupError("setup.deck needs the option refill: deck")
        if opts["refill"] == "deck":
            top = top or []
            if not isinstance(top, list) or not all(isinstance(c, str) for c in top):
                raise SetupError("setup.deck must be a list of cards, top card first")
            top = [c.strip().upper() for c in top]
            rest = dict(DECK_COUNTS)
            for c in (hands[0] + hands[1] if hands else []) + top:
                if c not in rest:
                    raise SetupError(f"unknown card {c!r} in setup.deck")
                rest[c] -= 1
                if rest[c] < 0:
                    raise SetupError(f"too many {c} in setup hands and deck (the deck has "
                                     f"{DECK_COUNTS[c]})")
            pile = [c for c in CARDS for _ in range(rest[c])]
            s.rng = shuffle(s.rng, pile)
            s.deck = top + pile
        if hands is None:
            hands = [[], []]
            for camp in (0, 1):
                for _ in range(size):
                    hands[camp].append(self._draw_card())
        s.hands = hands

        s.status = "playing"
        s.turn_player = first
        s.turn_number = 1
        self._log("setup", first_player=first,
                  planets=[e["shown"] for e in knowledge_view(s, "spectator")],
                  hands=[h[:] for h in hands], costs=s.costs[:])
        self._log("turn", player=first, number=1)

    # ------------------------------------------------------------------ chance

    def _forced(self, kind: str, what: str) -> Any:
        """The next forced outcome for a chance event of this kind, or None."""
        s = self.state
        if not s.forced:
            return None
        item = s.forced.pop(0)
        if item is None:
            return None
        ok = {"measure": _is_int(item) and item in (0, 1), "bell": item in BELLS,
              "card": item in CARDS}[kind]
        if not ok:
            raise IllegalAction(f"forced outcome {item!r} for {what} is not "
                                f"{_FORCED_KINDS[kind]}")
        return item

    def _reshuffle_if_empty(self) -> None:
        """An empty deck takes the discards back, shuffled (deck refill only)."""
        s = self.state
        if not s.deck:
            s.deck, s.discard = s.discard, []
            s.rng = shuffle(s.rng, s.deck)
            self._log("reshuffle", cards=len(s.deck))

    def _draw_card(self) -> str:
        s = self.state
        if s.options["refill"] == "deck":
            self._reshuffle_if_empty()
            return s.deck.pop(0)
        s.rng, i = below(s.rng, len(CARDS))
        return CARDS[i]

    def _refill(self, player: int) -> None:
        s = self.state
        if s.options["refill"] == "deck":
            self._reshuffle_if_empty()  # before the forced card is looked for
            forced = self._forced("card", f"camp {player}'s refill")
            if forced is not None:
                if forced not in s.deck:
                    raise IllegalAction(f"forced refill {forced} is not in the deck")
                s.deck.remove(forced)
                card = forced
            else:
                card = self._draw_card()
        else:
            card = self._draw_card()  # always drawn, so forcing never shifts later chance
            card = self._forced("card", f"camp {player}'s refill") or card
        s.hands[player].append(card)
        self._log("refill", player=player, card=card)

    # ------------------------------------------------------------------ turns

    def _perform(self, act: dict[str, Any]) -> None:
        s = self.state
        player, card = act["player"], act["card"]
        price = cost(card, s.options)
        if act["do"] == "discard":
            if s.options["no_legal_play"] == "discard_free":
                price = 0
            self._log("discard", player=player, card=card, cost=price,
                      total=s.costs[player] + price)
        else:
            planets = act["planets"]
            self._log("play", player=player, card=card, planets=list(planets), cost=price,
                      total=s.costs[player] + price)
            self._resolve(player, card, [p - 1 for p in planets])
        s.hands[player].remove(card)
        s.discard.append(card)
        s.costs[player] += price
        self._refill(player)
        self._end_of_turn(player)

    def _resolve(self, player: int, card: str, qs: list[int]) -> None:
        s = self.state
        lists = [s.truth] + [s.knowledge[v] for v in VIEWERS]
        if card in _GATES:
            for gens in lists:
                _GATES[card](gens, qs[0])
        elif card in _TWO_GATES:
            for gens in lists:
                _TWO_GATES[card](gens, qs[0], qs[1])
        elif card == M:
            self._measure(player, qs[0])
        elif card == BM:
            self._bell(player, qs[0], qs[1])

    def _measure(self, player: int, q: int) -> None:
        s = self.state
        s.rng, coin = below(s.rng, 2)
        forced = self._forced("measure", f"M on planet {q + 1}")
        try:
            r = qm.measure_z(s.truth, q, forced, coin)
        except qm.Impossible:
            raise IllegalAction(f"forced result {forced} for M on planet {q + 1} cannot "
                                f"happen: the planet is certainly {1 - forced}") from None
        for v in VIEWERS:  # everyone sees the result
            qm.measure_z(s.knowledge[v], q, r)
        s.fixed[q] = r
        self._log("measure", player=player, planet=q + 1, result=r)

    def _bell(self, player: int, a: int, b: int) -> None:
        s = self.state
        s.rng, coin_xx = below(s.rng, 2)
        s.rng, coin_zz = below(s.rng, 2)
        what = f"BM on planets {a + 1} and {b + 1}"
        forced = self._forced("bell", what)
        fx, fz = qm.BELL[forced] if forced else (None, None)
        xx, zz = qm.xq(a) | qm.xq(b), qm.zq(a) | qm.zq(b)
        try:
            rx = qm.measure(s.truth, xx, fx, coin_xx)
            rz = qm.measure(s.truth, zz, fz, coin_zz)
        except qm.Impossible:
            raise IllegalAction(f"forced outcome {forced} for {what} cannot happen from "
                                "these planets' states") from None
        mine = s.knowledge[str(player)]
        others = [s.knowledge[v] for v in VIEWERS if v != str(player)]
        qm.measure(mine, xx, rx)
        qm.measure(mine, zz, rz)
        for gens in others:  # they know a Bell measurement happened, not its outcome
            qm.measure(gens, xx, learn=False)
            qm.measure(gens, zz, learn=False)
        measured = code = qm.BELL_NAMES[(rx, rz)]
        if s.options["bm_outcome"] == "uniform_secret":
            s.rng, k = below(s.rng, 4)
            code = self._forced("bell", f"the secret code of {what}") or BELLS[k]
            kx, kz = qm.BELL[code]
            for gens in (s.truth, mine):  # a secret Pauli on b turns the outcome into code
                if kx != rx:
                    qm.apply_z(gens, b)
                if kz != rz:
                    qm.apply_x(gens, b)
            for gens in others:
                qm.forget(gens, qm.xq(b))
                qm.forget(gens, qm.zq(b))
        s.bells.append({"player": player, "planets": [a + 1, b + 1], "code": code,
                        "measured": measured})
        self._log("bell", player=player, planets=[a + 1, b + 1])

    def _end_of_turn(self, mover: int) -> None:
        s = self.state
        reasons = {c: self._win_reason(c) for c in (0, 1)}
        winners = [c for c in (0, 1) if reasons[c]]
        if len(winners) == 2 and s.options["simultaneous_win"] == "non_mover":
            winners = [1 - mover]
        if winners:
            self._end(winners, {str(c): reasons[c] for c in winners})
            return
        cap = self._cap_reached()
        if cap:
            count = [s.fixed.count(0), s.fixed.count(1)]
            if count[0] != count[1]:
                winners = [0 if count[0] > count[1] else 1]
            elif s.costs[0] != s.costs[1]:
                winners = [0 if s.costs[0] < s.costs[1] else 1]
            else:
                winners = [0, 1]
            self._end(winners, {str(c): cap for c in winners})
            return
        other = 1 - mover
        # Lower total moves next; on a tie the player who just moved goes again.
        s.turn_player = other if s.costs[other] < s.costs[mover] else mover
        s.turn_number += 1
        self._log("turn", player=s.turn_player, number=s.turn_number)

    def _win_reason(self, camp: int) -> str | None:
        mask = 0
        for q, f in enumerate(self.state.fixed):
            if f == camp:
                mask |= 1 << q
        for line_mask, line in LINE_MASKS:
            if mask & line_mask == line_mask:
                return "line " + "-".join(str(q + 1) for q in line)
        if mask.bit_count() >= FIVE:
            return "five fixed"
        return None

    def _cap_reached(self) -> str | None:
        s, opts = self.state, self.state.options
        if opts["move_cap"] is not None and s.turn_number >= opts["move_cap"]:
            return f"move cap {opts['move_cap']}"
        cc = opts["cost_cap"]
        if cc is not None and min(s.costs) >= cc:
            return f"cost cap {cc}"
        return None

    def _end(self, winners: list[int], reasons: dict[str, str]) -> None:
        s = self.state
        s.status = "won"
        s.winners = winners
        s.turn_player = None
        self._log("game_over", winners=list(winners), reasons=reasons)
        # The end-of-game reveal: the true board and every secret code.
        self._log("reveal", planets=knowledge_view(s, "truth"), bells=[dict(b) for b in s.bells])

    def _log(self, type_: str, **data: Any) -> dict[str, Any]:
        entry = {"type": type_, **data}
        self.log.append(entry)
        return entry


def _copy(value: Any) -> Any:
    # Through JSON: a deep copy that is also exactly what the journal will hold, and
    # the C codec is many times faster than a recursive copy in Python.
    return json.loads(json.dumps(value))
