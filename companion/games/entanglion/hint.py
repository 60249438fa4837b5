"""Hints: every legal input with an estimated chance to win, from honest look-ahead.

The search is Monte Carlo over *determinized* worlds. Each playout first deals a world
the players cannot tell from the real one: the engine stack and the event deck are
re-dealt from the multiset of unseen cards, and every future die comes from the hint's
own seeded generator. Nothing hidden is read: not the order of a deck, not the
engine's generator state, not dice forced in advance. What the rules make public is
kept:

- until the engine stack is first reshuffled the PROBE stays where set-up put it
  (at the bottom), as every player knows;
- Quantum Shuffle stays where it is in the event deck: set-up and every rebuild put it
  on the bottom three cards, and cards are only ever drawn from the top;
- during an interrupted input (a prompt is pending) the cards and dice already seen in
  that input stay as they were seen; only what comes after them is re-dealt. (The
  engine re-runs an interrupted input from its start, so the re-dealt state it starts
  from is arranged to deal those again. One approximation: after Quantum Shuffle rebuilt
  the event deck inside the input, an event card drawn after it may come out otherwise.)

A world is then played on by a greedy policy (:func:`greedy_action`: retrieve when it
can, fly towards the nearest component, use Quantum Tunnel and Magnetic Shielding when a
roll is likely to fail) for HORIZON inputs, and the position reached is scored by the
share of games greedy play goes on to win from such positions (:mod:`.values`, a table
measured over 30,000 games): a short playout and a smooth score tell inputs apart with
far fewer playouts than whole games won or lost. The inputs are compared in the same
worlds, and a race gives the playouts to the inputs that might still be best (see
:func:`hints`).

The budget is counted in engine inputs (every input of every playout), never in wall
time, so the same seed gives the same answer on any machine. ``budget_for_ms`` turns a
time budget on a Raspberry Pi Zero 2 W into inputs (see ``docs/performance.md`` for
the rate and how it was estimated).

Pure: no I/O, no clock, no global random state.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from ... import chance
from . import board, values
from .board import PROBE, RING, other
from .cards import (
    BENNETT, CONTROL_INFRASTRUCTURE, QUANTUM_ERROR_CORRECTION, QUANTUM_SHUFFLE, track_value,
)
from .engine import Entanglion

# Engine inputs per millisecond a Raspberry Pi Zero 2 W gets through in playouts: the
# rate measured on the development machine (bench/hint.py --rate) divided by the
# per-core factor documented in docs/performance.md (the box measures its own at start:
# this is the fallback, and the budget the benches call the default).
PI_INPUTS_PER_MS = 6
DEFAULT_BUDGET_MS = 900  # answers within a second on a Zero 2 W
PLAYOUT_CAP = 1000  # inputs; a playout that has not ended by then counts as a loss
HORIZON = 8  # inputs a playout looks ahead before its position is scored
FIRST_CHECK = 24  # rounds before an input may drop out (fewer give a poor standard error)
SURE = 2.0  # standard errors an input must trail the leader by to drop out
_BEATEN_BY = {"probe": 3}  # a PROBE detects unless the modified roll beats 3


def budget_for_ms(ms: int, rate: float | None = None) -> int:
    """The work (engine inputs) a time budget buys at ``rate`` inputs per ms (the box's
    measured rate, see :func:`use_rate`; the Zero 2 W estimate until then)."""
    return max(1, int(int(ms) * (rate or PI_INPUTS_PER_MS)))


DEFAULT_BUDGET = budget_for_ms(DEFAULT_BUDGET_MS)


def use_rate(rate: float) -> None:
    """The box measured its own rate (``companion/hintrate.py``, at start): the default
    budget is what it gets through in DEFAULT_BUDGET_MS."""
    global DEFAULT_BUDGET
    DEFAULT_BUDGET = budget_for_ms(DEFAULT_BUDGET_MS, rate)


def _playout_copy(game: Entanglion) -> Entanglion:
    """Every copy the search makes: the engine's playout mode (no log, no undo, inputs
    trusted: the search only ever pushes one of ``legal_actions()``)."""
    return game.playout_copy()


class Rng:
    """The hint's own generator (SplitMix64 from ``companion.chance``), as an object."""

    def __init__(self, seed: int):
        self.state = chance.seed_state(seed)

    def below(self, n: int) -> int:
        self.state, value = chance.below(self.state, n)
        return value

    def shuffle(self, items: list[Any]) -> None:
        self.state = chance.shuffle(self.state, items)

    def seed(self) -> int:
        self.state, value = chance.next64(self.state)
        return value


# ------------------------------------------------------------------ distances

def _distances() -> dict[str, dict[tuple[str, str], int]]:
    """For each Entanglion planet, the fewest engine cards (either ship, any card)
    that bring both ships from each position to orbit it together."""
    moves: dict[tuple[str, str], set[tuple[str, str]]] = {p: set() for p in board.POSITIONS}
    for pos in board.POSITIONS:
        for card in board.GATES:
            for ship in board.SHIPS:
                for kick in (False, True):
                    moves[pos].add(board.navigate(card, ship, pos, kick))
    back: dict[tuple[str, str], list[tuple[str, str]]] = {p: [] for p in board.POSITIONS}
    for pos, targets in moves.items():
        for t in targets:
            back[t].append(pos)
    out = {}
    for planet in RING:
        dist = {(planet, planet): 0}
        queue = deque([(planet, planet)])
        while queue:
            pos = queue.popleft()
            for prev in back[pos]:
                if prev not in dist:
                    dist[prev] = dist[pos] + 1
                    queue.append(prev)
        out[planet] = dist
    return out


_DIST = _distances()
_FAR = 99


_NEAREST: dict[tuple[str, ...], dict[tuple[str, str], int]] = {}  # a memo, filled as met


def _nearest(s: Any) -> dict[tuple[str, str], int]:
    """For each position, the cards to the nearest planet still holding a component.
    The set of such planets changes a few times a game, so each set's table is built
    once and kept (at most one per subset of the eight planets)."""
    targets = tuple(sorted(p for p, c in s.planet_components.items() if c is not None))
    table = _NEAREST.get(targets)
    if table is None:
        table = {pos: min((_DIST[t].get(pos, _FAR) for t in targets), default=_FAR)
                 for pos in board.POSITIONS}
        _NEAREST[targets] = table
    return table


# ------------------------------------------------------------------ the greedy policy

def _has(s: Any, player: str, component: str) -> bool:
    sc = s.ship_components
    return component in sc[player] or (
        s.options["component_scope"] == "team" and component in sc[other(player)])


def _modifier(s: Any, player: str) -> int:
    return _has(s, player, QUANTUM_ERROR_CORRECTION) - _has(s, player, CONTROL_INFRASTRUCTURE)


def _success(s: Any, player: str, beat: int) -> float:
    """Chance that one d8 roll with the player's modifier beats ``beat``."""
    return min(8, max(0, 8 - beat + _modifier(s, player))) / 8


def greedy_action(g: Entanglion, rng: Rng) -> dict[str, Any]:
    """A sensible input for whoever is awaited: the playout policy, and the bench's
    "simple greedy" player."""
    acts = g.legal_actions()
    if g.pending:
        return _answer(g, acts, rng)
    s = g.state
    player = s.turn_player
    near = _nearest(s)
    now = near[s.pos]
    best, best_d, worst, worst_d, heisenberg = None, now, None, -1, None
    kick = s.options["cnot_phase_kickback"]
    for act in acts:
        do = act["do"]
        if do == "retrieve":
            return act
        if do == "navigate":
            d = near[board.navigate(act["card"], player, s.pos, kick)]
            if d < best_d:
                best, best_d = act, d
            if d > worst_d:
                worst, worst_d = act, d
        elif do == "event" and act["card"] == "heisenberg":
            heisenberg = act
    if best is not None:
        return best
    if heisenberg is not None and now >= 3:
        return heisenberg
    # Nothing brings the ships closer: trade away the least useful card instead.
    for act in acts:
        if act["do"] == "exchange" and worst is not None and act["card"] == worst["card"]:
            return act
    useful = [a for a in acts if not no_effect(g, a)] or acts
    return useful[rng.below(len(useful))]


def _answer(g: Entanglion, acts: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    s, prompt = g.state, g.pending
    kind, player = prompt["kind"], prompt["player"]
    values = [a["value"] for a in acts]

    def pick(value: Any) -> dict[str, Any]:
        return acts[values.index(value)]

    if kind == "roll":  # a physical die in manual dice mode: any face, evenly
        return acts[rng.below(len(acts))]
    if kind == "draw":
        return _draw(s, prompt, acts, rng)
    if kind == "quantum_tunnel":
        if "accept" in values:  # the roll failed: the tunnel saves it
            return pick("use")
        beat = track_value(s.detection)
        return pick("use" if _success(s, player, beat) < 0.5 else "roll")
    if kind == "magnetic_shielding":
        purpose = prompt.get("purpose")
        if purpose in ("orbital defence", "ground defence", "probe"):
            beat = _BEATEN_BY.get(purpose) or track_value(s.detection)
            failed = prompt["raw"] + _modifier(s, player) <= beat
            return pick("reroll" if failed else "keep")
        return pick("keep")
    near = _nearest(s)
    kick = s.options["cnot_phase_kickback"]
    if kind == "mechanic":  # play the card that brings the ships closest, else stop
        now = near[s.pos]
        scored = [(near[board.navigate(v, player, s.pos, kick)], i)
                  for i, v in enumerate(values) if v != "stop"]
        d, i = min(scored)
        return acts[i] if d < now else pick("stop")
    if kind == "physical_qubits":
        scored = [(near[(v[board.MERCURIAL], v[board.RUBICON])], i)
                  for i, v in enumerate(values)]
        return acts[min(scored)[1]]
    return acts[rng.below(len(acts))]  # discards, Quantum Gates, Bennett


def _draw(s: Any, prompt: dict[str, Any], acts: list[dict[str, Any]], rng: Rng
          ) -> dict[str, Any]:
    """A physical draw, as likely as the unseen cards make it (the box cannot see the
    deck): Quantum Shuffle only once it is the top card of the rule-built deck."""
    deck = s.engine_stack if prompt.get("deck") == "engine" else s.event_deck
    weights = []
    for a in acts:
        card = a["value"]
        if card == QUANTUM_SHUFFLE:
            weights.append(1 if len(deck) <= 4 else 0)
        elif QUANTUM_SHUFFLE in deck and len(deck) <= 4 and deck is s.event_deck:
            weights.append(0)
        else:
            weights.append(deck.count(card))
    r = rng.below(sum(weights))
    for a, w in zip(acts, weights):
        if r < w:
            return a
        r -= w
    raise AssertionError("unreachable: r < sum(weights)")  # pragma: no cover


# ------------------------------------------------------------------ determinization

def _resample(deck: list[str], keep: set[int], rng: Rng) -> list[str]:
    """``deck`` with the cards at ``keep`` in place and all others shuffled. The loose
    cards are sorted first: only their multiset may matter, never their hidden order."""
    loose = [i for i in range(len(deck)) if i not in keep]
    cards = sorted(deck[i] for i in loose)
    rng.shuffle(cards)
    out = list(deck)
    for i, card in zip(loose, cards):
        out[i] = card
    return out


class _Public:
    """What the players know about the hidden parts, read once from the real game."""

    def __init__(self, g: Entanglion):
        self.virtual = g.state.options["deck"] == "virtual"
        self.auto_dice = g.state.options["dice"] == "auto"
        inflight = g._inflight  # an interrupted input is re-run from its start
        log_len = inflight[1] if inflight else len(g.log)
        self.probe_fixed = not any(e["type"] == "reshuffle" and e["deck"] == "engine"
                                   for e in g.log[:log_len])
        self.engine_seen: list[str] = []  # engine cards drawn so far in the input
        self.engine_reshuffled = False  # ... and whether the stack ran out on the way
        self.event_seen = 0  # event cards drawn so far in the input (before a rebuild)
        self.dice: list[int] = []  # dice rolled so far in the input
        if inflight is None:
            return
        rebuilt = False
        for e in g.log[log_len:]:
            t = e["type"]
            if t == "reshuffle" and e["deck"] == "engine":
                self.engine_reshuffled = True
            elif t == "reshuffle":
                rebuilt = True
            elif t == "draw" and e["card"] is not None:
                self.engine_seen.append(e["card"])
            elif t == "event" and "kept" in e and not rebuilt:
                self.event_seen += 1
            elif t == "roll":
                self.dice.append(e["raw"])
                if "reroll" in e:
                    self.dice.append(e["reroll"])
        if g.pending and g.pending["kind"] == "magnetic_shielding":
            self.dice.append(g.pending["raw"])  # rolled; logged once the choice is made


def _deal(s: Any, pub: _Public, rng: Rng, prefix: bool) -> None:
    """Re-deal the hidden parts of state ``s`` in place; with ``prefix`` (``s`` is the
    state an interrupted input is re-run from) so that the re-run meets again the
    cards and dice the input has shown."""
    s.rng = rng.seed()
    s.forced = list(pub.dice) if prefix and pub.auto_dice else []
    if not pub.virtual:
        return  # physical decks: the players draw; the playout answers each draw
    seen = pub.engine_seen if prefix else []
    if prefix and pub.engine_reshuffled:
        # The whole stack was drawn and the discard reshuffled into a new one: stack
        # the cards seen in the order seen on all the others, so no reshuffle (whose
        # order this generator could not repeat) happens before they are met again.
        rest = s.engine_stack + s.engine_discard
        for card in seen:
            if card in rest:
                rest.remove(card)
        s.engine_stack = seen + _resample(rest, set(), rng)
        s.engine_discard = []
    else:
        keep = set(range(min(len(seen), len(s.engine_stack))))
        if pub.probe_fixed and PROBE in s.engine_stack:
            keep.add(s.engine_stack.index(PROBE))
        s.engine_stack = _resample(s.engine_stack, keep, rng)
    keep = set(range(min(pub.event_seen if prefix else 0, len(s.event_deck))))
    if QUANTUM_SHUFFLE in s.event_deck:
        keep.add(s.event_deck.index(QUANTUM_SHUFFLE))
    s.event_deck = _resample(s.event_deck, keep, rng)


def world(g: Entanglion, pub: _Public, rng: Rng, copy: Any = _playout_copy) -> Entanglion:
    """A copy of ``g`` with everything hidden re-dealt from ``rng``; ``copy`` makes the
    copy (a logged one lets a test read what the re-dealt world did)."""
    w = copy(g)
    if w._inflight is None:
        _deal(w.state, pub, rng, prefix=False)
    else:
        base, base_len, first, answers = w._inflight
        base = base.clone()
        _deal(base, pub, rng, prefix=True)
        w._inflight = (base, base_len, first, answers)
    return w


# ------------------------------------------------------------------ the search

def playout(g: Entanglion, rng: Rng, horizon: int | None = None, cap: int = PLAYOUT_CAP
            ) -> tuple[float, int]:
    """Play ``g`` on with the greedy policy for ``horizon`` inputs (and to the end of an
    input in progress): (its worth, inputs used). The worth is 1 for a won game, 0 for a
    lost one, else what :func:`values.worth` says such a position is worth."""
    n, horizon = 0, HORIZON if horizon is None else horizon
    while g.state.status == "playing" and n < cap and (n < horizon or g.pending):
        g.push(greedy_action(g, rng))
        n += 1
    status = g.state.status
    if status == "playing" and n < cap:
        return values.worth(g.state), n
    return float(status == "won"), n


def no_effect(g: Entanglion, act: dict[str, Any]) -> bool:
    """Whether ``act`` changes nothing on the board: a card that moves neither ship (as
    a navigation or one of The Mechanic's plays), a Bennett with nothing aboard."""
    s = g.state
    do = act["do"]
    kick = s.options["cnot_phase_kickback"]
    if do == "navigate":
        return board.navigate(act["card"], act["player"], s.pos, kick) == s.pos
    if do == "event" and act["card"] == BENNETT:
        return not any(s.ship_components.values())
    if do == "choose" and g.pending and g.pending["kind"] == "mechanic":
        value = act.get("value", g.pending["options"][act.get("index", 0)])
        return value != "stop" and board.navigate(value, act["player"], s.pos, kick) == s.pos
    return False


def candidates(g: Entanglion) -> list[dict[str, Any]]:
    """The inputs the search compares: every legal one that does something (all of them
    when none does)."""
    acts = g.legal_actions()
    useful = [a for a in acts if not no_effect(g, a)]
    return useful or acts


def _race(alive: list[int], worth: list[float], rounds: list[dict[int, float]]
          ) -> list[int]:
    """The inputs still in the running after a check: those not clearly worse than the
    leader in the same worlds (their paired difference to it is less than SURE standard
    errors below zero), always at least two. Every input alive has played every round."""
    lead = max(alive, key=lambda k: (worth[k], -k))
    n = len(rounds)
    keep = []
    for k in alive:
        diffs = [o[k] - o[lead] for o in rounds]
        mean = sum(diffs) / n
        spread = math.sqrt(max(0.0, sum(d * d for d in diffs) / n - mean * mean) / (n - 1))
        keep.append((mean + SURE * spread < 0, -worth[k], k))
    keep.sort()
    return sorted(k for out, _, k in keep[:2]) + sorted(k for out, _, k in keep[2:] if not out)


def hints(g: Entanglion, budget: int = DEFAULT_BUDGET, seed: int = 0) -> list[dict[str, Any]]:
    """Every legal input now, best first: ``{"action": {...}, "win": P, "playouts": N}``,
    ``win`` descending (None, last, for an input that does nothing while another does:
    it is never searched, and never the hint).

    ``budget`` is the work in engine inputs; every searched input is tried at least once.

    The search runs in rounds. A round deals one world and plays every input still in
    the running in that same world (the same deal and dice for all: common random
    numbers, so a difference between two inputs is theirs, not the luck of the deal).
    It is a race: after FIRST_CHECK rounds, and each time the rounds have grown by half,
    an input drops out if it trails the leader in the same worlds by more than SURE
    standard errors of their paired difference (the best two always stay), so inputs
    that are clearly worse stop costing playouts and the close ones get them.

    ``win`` is the mean worth of the best input still running over every round, plus
    each input's paired difference to it over the rounds they shared: for inputs still
    running it is their own mean (so the number shown is the number ranked by); an
    input that dropped out is shown no higher than the lowest still running, to which it
    lost in the same worlds.
    """
    acts = g.legal_actions()
    if not acts:
        return []
    cands = candidates(g)
    idle = [a for a in acts if a not in cands]
    rng = Rng(seed)
    pub = _Public(g)
    n = len(cands)
    worth, stood = [0.0] * n, [0] * n
    rounds: list[dict[int, float]] = []  # each round: input -> its playout's worth
    alive = list(range(n))
    spent, check = 0, FIRST_CHECK
    while True:
        deal = rng.seed()
        outcome = {}
        for k in alive:
            r = Rng(deal)
            w = world(g, pub, r)
            w.push(cands[k])
            outcome[k], used = playout(w, r)
            worth[k] += outcome[k]
            spent += used + 1
        rounds.append(outcome)
        if spent >= budget:
            break
        if len(alive) > 2 and len(rounds) >= check:
            check = check * 3 // 2
            alive = _race(alive, worth, rounds)
            for k in alive:
                stood[k] = len(rounds)
    top = max(alive, key=lambda k: (worth[k], -k))
    base = worth[top] / len(rounds)
    est = {}
    for k in range(n):
        shared = [o for o in rounds if k in o]
        est[k] = min(1.0, max(0.0, base + sum(o[k] - o[top] for o in shared) / len(shared)))
    floor = min(est[k] for k in alive)
    for k in range(n):
        if k not in alive:
            est[k] = min(est[k], floor)
    order = sorted(range(n), key=lambda k: (-round(est[k], 3), k not in alive, -stood[k],
                                            k != top, k))
    visits = {k: sum(1 for o in rounds if k in o) for k in range(n)}
    return [{"action": cands[k], "win": round(est[k], 3), "playouts": visits[k]}
            for k in order] + [{"action": a, "win": None, "playouts": 0} for a in idle]
