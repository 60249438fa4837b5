"""Whole-state invariants of an Entanglion game, checked after every step.

``check_invariants(g, previous_detection, new_log_entries)`` asserts what must hold
after any accepted input (or right after construction), whatever the options:

* the 24 engine cards, the 9 event cards and the 8 components are conserved, each
  card in exactly one place;
* PROBE is never held (hand, The Mechanic's draw or set-aside hand) or played;
* the ships stand on a legal position; detection is on the track and the status
  agrees with the track and the components aboard;
* hand limits (3, or 2 with the Dilution Refrigerator: over it only while the input
  that moved the refrigerator awaits a prompt, after winning by retrieving it, or under
  ruling Q12 next_draw; under it never between inputs, unless set-up dealt short
  hands or under next_draw) and engine control
  (at most 6 slots, fewer than 6 and nothing drawn or set aside between turns);
* the change of the detection space in this step is exactly what the step's
  ``detection`` log entries say, and each entry follows its card's rule;
* a pending prompt is well formed and ``legal_actions()`` offers exactly its options;
  status "setup" only while a manual-dice set-up roll is awaited;
* timing: the engine stack is never empty while the game waits for an input (it is
  reshuffled the moment its last card is drawn), except mid-way through resolving a
  PROBE that was that last card;
* the record: every log entry of the step has exactly the keys the table of log
  entries in docs/scenarios.md gives its type (``LOG_KEYS``), with values of the kinds
  it says (a ship for ``player``; for a roll, the die its purpose takes, and a result
  that agrees with the roll: a check succeeds when ``modified`` beats ``beat``), and every
  field of the state still holds the type it is declared with (a flag stays a bool
  through a JSON round trip, never a ``None``).

``Navigation`` checks the order inside one Navigate input, across its prompts: the
replacement card is drawn before any roll, bypass or event of the orbital check.

Expected numbers are written out here (from docs/rules/entanglion.md: the track, events,
components and decks) rather than taken from ``cards.py``, so a slip there shows up too.
"""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any, Iterable

from companion.games.entanglion import board

from helpers import COMPONENTS, ENGINE_COUNTS, EVENTS, KEPT, RING, SHIPS, M, R  # noqa: F401

ENGINE_SORTED = sorted(c for c, n in ENGINE_COUNTS.items() for _ in range(n))
PLAYABLE = frozenset({"H", "CNOT", "X", "SWAP"})
EVENTS_SORTED = sorted(EVENTS)
KEPT_EVENTS = frozenset(KEPT)
COMPONENTS_SORTED = sorted(COMPONENTS)
DILUTION_REFRIGERATOR = "dilution_refrigerator"
TRACK = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, "X")  # spaces 1..12
LAST_SPACE = 12
BIT_FLIP_SPACE = 6  # the first "4"
HAND_SIZE = 3
ENGINE_SLOTS = 6

# Reasons for which a detection entry moves the token exactly one space up.
PLUS_ONE_REASONS = frozenset({"probe", "orbital defence", "ground defence", "schrodinger"})
DETECTION_REASONS = PLUS_ONE_REASONS | {"bit_flip_error", "wave_function_collapse"}
PROMPT_KINDS = frozenset({
    "roll", "magnetic_shielding", "discard", "quantum_gates",
    "quantum_tunnel", "physical_qubits", "bennett", "mechanic", "draw",
})
STATUSES = frozenset({"playing", "won", "lost"})
SHIP_SET = frozenset(SHIPS)
RING_SET = frozenset(RING)
OUTSIDE = ("ZERO", "ONE", "PLUS", "MINUS")
# The 24 positions: 16 with both ships outside Entanglion, 8 with both on one planet in it.
LEGAL_POSITIONS = frozenset([(m, r) for m in OUTSIDE for r in OUTSIDE] + [(p, p) for p in RING])


# The table of log entries in docs/scenarios.md, written out: (keys always there, keys
# that may be there). An event card is either kept (or not) or used as a defence.
LOG_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(always.split()), frozenset(maybe.split()))
    for kind, always, maybe in (
        ("setup", "components detection", ""),
        ("turn", "player number", ""),
        ("action", "player do", "card"),
        ("move", "player cause from to", ""),
        ("no_effect", "player card", ""),
        ("draw", "player card", "note"),
        ("roll", "player die raw modifier modified purpose result", "reroll beat"),
        ("detection", "space value reason", ""),
        ("quantum_event", "player cause", ""),
        ("event", "player card", "kept defence note"),
        ("engine_control_cleared", "", ""),
        ("retrieved", "player component planet", ""),
        ("teleported", "player component planet", ""),
        ("transfer", "player component from to", ""),
        ("keep", "player card discarded", ""),
        ("discard", "player card reason", ""),
        ("bypass", "player by planet", ""),
        ("interconnect", "player give take", ""),
        ("reshuffle", "deck cards", ""),
        ("game_over", "status reason", ""),
    )
}
PLANETS = frozenset(OUTSIDE) | RING_SET
MOVE_CAUSES = PLAYABLE | {"heisenberg", "orbital detection"}


def _check_log_entries(entries: Iterable[dict[str, Any]]) -> None:
    for e in entries:
        kind = e.get("type")
        assert kind in LOG_KEYS, f"log entry of no documented type: {e}"
        always, maybe = LOG_KEYS[kind]
        keys = e.keys() - {"type"}
        assert always <= keys <= always | maybe, (
            f"{kind} entry with keys {sorted(keys)}, documented: {sorted(always)}"
            f"{' and maybe ' + str(sorted(maybe)) if maybe else ''}: {e}")
        if "player" in always:
            assert e["player"] in SHIP_SET, f"{kind} entry for no ship: {e}"
        if kind == "action":  # the turn's action, with the card it plays if any
            assert e["do"] in ("navigate", "exchange", "retrieve", "event", "pass"), e
            assert ("card" in e) == (e["do"] in ("navigate", "exchange", "event")), e
        elif kind == "event":
            assert ("kept" in e) != ("defence" in e), f"an event is kept or a defence: {e}"
        elif kind == "move":
            assert e["cause"] in MOVE_CAUSES, f"move caused by {e['cause']!r}: {e}"
            assert tuple(e["from"]) in LEGAL_POSITIONS and tuple(e["to"]) in LEGAL_POSITIONS, e
            assert e["from"] != e["to"], f"a move that moved nobody: {e}"
        elif kind == "no_effect":
            assert e["card"] in PLAYABLE or e["card"] in EVENTS, f"no effect of {e['card']!r}"
        elif kind == "roll":
            raw, die = e["raw"], e["die"]
            assert die in ("d8", "centarious"), f"a roll of the die {die!r}: {e}"
            assert type(raw) is int and (1 <= raw <= 8 if die == "d8" else raw in (0, 1)), e
            rolled = e.get("reroll", raw)
            assert e["modified"] == rolled + e["modifier"], f"modified is not the sum: {e}"
            _check_roll_result(e)
        elif kind == "reshuffle":
            assert e["deck"] in ("engine", "event") and type(e["cards"]) is int, e


# What each roll is for, with the die it takes and what its result may say. A check
# (``beat`` given: the track value, or 3 for a PROBE) succeeds when ``modified`` is higher.
ROLL_PURPOSES = {
    "first player": ("d8", {"first", "second", "tie"}),
    "ship placement": ("centarious", {"ZERO", "ONE"}),
    "orbital detection jump": ("centarious", {"ZERO", "ONE"}),
    "heisenberg": ("d8", RING_SET),
    "spooky action": ("d8", RING_SET),
    "probe": ("d8", {"no effect", "detected"}),
    "orbital defence": ("d8", {"evaded", "detected"}),
    "ground defence": ("d8", {"retrieved", "detected"}),
}
CHECK_SUCCESS = {"probe": "no effect", "orbital defence": "evaded",
                 "ground defence": "retrieved"}


def _check_roll_result(e: dict[str, Any]) -> None:
    purpose = e["purpose"]
    assert purpose in ROLL_PURPOSES, f"a roll for no documented purpose: {e}"
    die, results = ROLL_PURPOSES[purpose]
    assert e["die"] == die and e["result"] in results, f"{purpose} roll: {e}"
    if purpose in CHECK_SUCCESS:
        assert "beat" in e and (purpose != "probe" or e["beat"] == 3), e  # else the track's
        won = e["modified"] > e["beat"]
        assert (e["result"] == CHECK_SUCCESS[purpose]) == won, (
            f"a {purpose} roll of {e['modified']} against {e['beat']} says {e['result']!r}")
    else:
        assert "beat" not in e, f"a {purpose} roll is no check: {e}"


def _check_state_types(s: Any) -> None:
    """Each field of the state holds the type it is declared with (``bool`` and ``int``
    fields exactly: JSON and the box's screens tell ``False`` from ``None`` and ``0``)."""
    for name, kind in _typed_fields(type(s)):
        value = getattr(s, name)
        assert type(value) is kind, f"state field {name} is declared {kind.__name__} but holds {value!r}"


@functools.cache
def _typed_fields(cls: type) -> tuple[tuple[str, type], ...]:
    """The state's bool and int fields (read once: this runs after every step)."""
    kinds = {"bool": bool, "int": int}
    return tuple((f.name, kinds[f.type]) for f in fields(cls) if f.type in kinds)


def _has(g: Any, ship: str, component: str) -> bool:
    sc = g.state.ship_components
    if component in sc[ship]:
        return True
    other = R if ship == M else M
    return g.state.options["component_scope"] == "team" and component in sc[other]


def check_invariants(g: Any, previous_detection: int,
                     new_log_entries: Iterable[dict[str, Any]],
                     legal: list[dict[str, Any]] | None = None) -> None:
    """Assert every invariant of ``g`` after one step.

    ``previous_detection`` is the detection space before the step and
    ``new_log_entries`` the log entries the step produced (``push``'s return value).
    ``legal`` may pass ``g.legal_actions()`` when the caller already has it.
    """
    s = g.state
    status = s.status
    opts = s.options

    # -- status ------------------------------------------------------------------
    in_setup = status == "setup"
    if in_setup:
        # Only while a set-up roll is awaited (manual dice), before any turn.
        assert g.pending is not None, "status 'setup' without a pending set-up prompt"
        assert s.turn_number == 0, f"status 'setup' on turn {s.turn_number}"
    else:
        assert status in STATUSES, f"unknown status {status!r}"
        assert s.turn_player in SHIPS, f"turn player {s.turn_player!r}"

    # -- engine cards: 24, as a multiset ------------------------------------------
    hands = s.hands
    assert hands.keys() == SHIP_SET, f"hands keyed {sorted(hands)}"
    slots = s.engine_control
    engine = (hands[M] + hands[R] + s.engine_stack + s.engine_discard
              + [slot[0] for slot in slots] + s.drawn + s.set_aside)
    if sorted(engine) != ENGINE_SORTED:
        raise AssertionError(
            f"engine cards not conserved: {_diff(engine, ENGINE_SORTED)}; hands={hands} "
            f"stack={s.engine_stack} discard={s.engine_discard} control={slots} "
            f"drawn={s.drawn} set_aside={s.set_aside}")
    assert not ("PROBE" in hands[M] or "PROBE" in hands[R] or "PROBE" in s.drawn
                or "PROBE" in s.set_aside), (
        f"PROBE held: hands={hands} drawn={s.drawn} set_aside={s.set_aside}")

    # -- engine control -------------------------------------------------------------
    assert len(slots) <= ENGINE_SLOTS, f"engine control has {len(slots)} cards: {slots}"
    for slot in slots:
        assert (isinstance(slot, list) and len(slot) == 2 and slot[0] in PLAYABLE
                and slot[1] in SHIPS), f"bad engine-control slot {slot!r}"
    if status == "playing" and g.pending is None:
        # Between turns a full row has always been cleared by the end-of-turn event,
        # and nothing is left out of hand mid-procedure.
        assert len(slots) < ENGINE_SLOTS, f"a turn starts with a full engine control {slots}"
        assert not s.slot6_filled, "slot6_filled survives the end of a turn"
        assert not s.drawn and not s.set_aside, (
            f"cards left out of hand between inputs: drawn={s.drawn} set_aside={s.set_aside}")

    # -- event cards: 9, each once ----------------------------------------------------
    held = s.held_events
    events = held[M] + held[R] + s.event_deck + s.event_discard
    if sorted(events) != EVENTS_SORTED:
        raise AssertionError(
            f"event cards not conserved: {_diff(events, EVENTS_SORTED)}; held={held} "
            f"deck={s.event_deck} discard={s.event_discard}")
    if held[M] or held[R]:
        assert KEPT_EVENTS.issuperset(held[M] + held[R]), (
            f"events that resolve at once are held: {held}")
        limit = opts["event_hand_limit"]
        assert limit is None or (len(held[M]) <= limit and len(held[R]) <= limit), (
            f"held events {held} over the event hand limit {limit}")

    # -- components: 8, each once, only on Entanglion planets or ships -------------------
    planets = s.planet_components
    assert planets.keys() == RING_SET, f"components on non-Entanglion planets: {sorted(planets)}"
    ships = s.ship_components
    comps = [c for c in planets.values() if c is not None] + ships[M] + ships[R]
    if sorted(comps) != COMPONENTS_SORTED:
        raise AssertionError(f"components not conserved: {_diff(comps, COMPONENTS_SORTED)}; "
                             f"planets={planets} ships={ships}")
    aboard = len(ships[M]) + len(ships[R])

    # -- position ----------------------------------------------------------------------
    pos = s.pos
    # Both ships on one planet inside Entanglion, anywhere outside it.
    assert (type(pos) is tuple and pos in LEGAL_POSITIONS
            and board.is_legal_position(pos)), f"illegal position {pos!r}"

    # -- detection and the end of the game ---------------------------------------------
    d = s.detection
    assert type(d) is int and 1 <= d <= LAST_SPACE, f"detection space {d!r}"
    assert (status == "lost") == (d == LAST_SPACE), f"status {status} at detection space {d}"
    assert (status == "won") == (aboard == len(COMPONENTS)), (
        f"status {status} with {aboard} components aboard")
    if status in ("won", "lost"):
        assert g.pending is None, f"game {status} but a prompt is pending: {g.pending}"
        assert g.legal_actions() == [], "legal actions after the end of the game"
        last = g.log[-1]
        assert last["type"] == "game_over" and last["status"] == status, (
            f"game {status} but the last log entry is {last}")

    new_log_entries = list(new_log_entries)
    _check_detection_entries(previous_detection, d, new_log_entries, opts)
    _check_log_entries(new_log_entries)
    _check_state_types(s)

    # -- timing: an empty engine stack is reshuffled at once ---------------------------
    if status == "playing" and not s.engine_stack:
        # Only a PROBE drawn as the last card may leave it empty for a moment: it is
        # discarded, rolled for (a prompt may wait there), then the reshuffle comes.
        last = next((e for e in reversed(g.log) if e["type"] in ("draw", "reshuffle")), None)
        assert (g.pending is not None and last is not None and last["type"] == "draw"
                and last["card"] == "PROBE"), (
            f"the engine stack is empty while the game waits for "
            f"{g.pending['kind'] if g.pending else 'the next action'}: the discard "
            f"({len(s.engine_discard)} cards) is reshuffled when the last card is drawn, "
            "not at the next draw")

    # -- hand limits -------------------------------------------------------------------
    for ship in SHIPS:
        n = len(hands[ship])
        assert n <= HAND_SIZE, f"{ship} holds {n} engine cards: {hands[ship]}"
        if n == HAND_SIZE and _has(g, ship, DILUTION_REFRIGERATOR):
            limit = HAND_SIZE - 1
            # The Dilution Refrigerator lowers the limit at once; the hand comes down by
            # a discard prompt inside the input that moved it (retrieve, or Bennett under
            # ruling Q12 rebalance), so it may be over while that prompt is awaited.
            # Retrieving it as the eighth component wins before the discard. Q12
            # next_draw: a Bennett receiver comes down by playing cards instead.
            last = _last_input(g)
            ok = ((g.pending is not None and last is not None and (
                      last["do"] == "retrieve"
                      or last["do"] == "event" and last.get("card") == "bennett"))
                  or (status == "won" and last is not None and last["do"] == "retrieve")
                  or opts["bennett_dilution_refrigerator"] == "next_draw")
            assert ok, (f"{ship} holds {n} engine cards {hands[ship]} over the limit "
                        f"{limit} (Dilution Refrigerator) between inputs")
        if (status == "playing" and g.pending is None and not g.setup.get("hands")
                and opts["bennett_dilution_refrigerator"] == "rebalance"):
            # Every action draws back up at once, and so does a move of the refrigerator
            # (ruling Q12 rebalance, for Bennett and Spooky Action alike): between inputs
            # a hand dealt full is never short. Under next_draw it waits for a draw.
            limit = HAND_SIZE - 1 if _has(g, ship, DILUTION_REFRIGERATOR) else HAND_SIZE
            assert n >= limit, (f"{ship} holds {n} engine cards {hands[ship]} under the "
                                f"hand limit {limit} between inputs")

    # -- prompts -----------------------------------------------------------------------
    pending = g.pending
    if pending is not None:
        assert status in ("playing", "setup"), f"prompt pending in status {status}"
        p = pending.get("player")
        assert p in SHIPS, f"prompt without a valid player: {pending}"
        assert pending.get("kind") in PROMPT_KINDS, f"unknown prompt kind: {pending}"
        if pending["kind"] == "roll":  # a manual die: which one, for what, its faces
            faces = {"d8": list(range(1, 9)), "centarious": [0, 1]}
            assert pending.get("die") in faces and pending["options"] == faces[pending["die"]], (
                f"a roll prompt for no die: {pending}")
            assert pending.get("purpose") in ROLL_PURPOSES, f"a roll prompt for nothing: {pending}"
            assert ROLL_PURPOSES[pending["purpose"]][0] == pending["die"], pending
        options = pending.get("options")
        assert isinstance(options, list) and len(options) >= 2, (
            f"a prompt needs at least two options: {pending}")
        distinct = {tuple(o.items()) if type(o) is dict else o for o in options}
        assert len(distinct) == len(options), f"repeated options: {pending}"
        assert g.awaiting() == p, f"awaiting {g.awaiting()} but the prompt is for {p}"
        if legal is None:
            legal = g.legal_actions()
        expected = [{"player": p, "do": "choose", "value": v} for v in options]
        assert legal == expected, (
            f"legal_actions() {legal} differ from the pending prompt's options {pending}")
    elif status == "playing":
        if legal is None:
            legal = g.legal_actions()
        assert legal, "no legal action while playing and nothing pending"
        for act in legal:
            assert act["player"] == s.turn_player, f"{act} offered on {s.turn_player}'s turn"


def _last_input(g: Any) -> dict[str, Any] | None:
    """The last input that was not a ``choose`` answer (the one a prompt belongs to)."""
    for act in reversed(g.inputs):
        if act["do"] != "choose":
            return act
    return None


def _check_detection_entries(before: int, after: int, entries: Iterable[dict[str, Any]],
                             opts: dict[str, Any]) -> None:
    d = before
    for e in entries:
        if e.get("type") != "detection":
            continue
        reason, space = e.get("reason"), e.get("space")
        assert reason in DETECTION_REASONS, f"detection entry with reason {reason!r}: {e}"
        assert type(space) is int and 1 <= space <= LAST_SPACE, f"bad detection entry {e}"
        assert e.get("value") == TRACK[space - 1], f"detection entry value wrong: {e}"
        if reason in PLUS_ONE_REASONS:
            assert space == d + 1, f"{reason} moved detection {d} -> {space} (must be +1): {e}"
        elif reason == "bit_flip_error":
            assert space == BIT_FLIP_SPACE and d != BIT_FLIP_SPACE, (
                f"bit flip error moved detection {d} -> {space}: {e}")
            if opts["bit_flip_error"] == "only_lower":
                assert d > BIT_FLIP_SPACE, f"bit flip error raised detection {d} -> {space}"
        else:  # wave_function_collapse
            assert space == max(1, d - 2) and space != d, (
                f"wave function collapse moved detection {d} -> {space}: {e}")
            if opts["wave_function_collapse_floor"] == "no_effect":
                assert d - 2 >= 1, f"wave function collapse below space 1 with no_effect: {e}"
        d = space
    assert d == after, (
        f"detection went {before} -> {after} but the step's detection entries say {d}")


def _diff(got: list[str], expected: list[str]) -> str:
    from collections import Counter

    g, e = Counter(got), Counter(expected)
    return f"extra {dict(g - e)}, missing {dict(e - g)}"


# Log entries that belong to the orbital check (or come after it): the replacement
# card must be drawn before the first of them.
_AFTER_REPLACEMENT = frozenset({"bypass", "event", "quantum_event", "turn"})


class Navigation:
    """One Navigate input, followed across the prompts it may raise.

    Built just before the input is pushed (it needs the hand before it); ``check(g)``
    after that step and each later step until ``g.pending`` is None. The rules: play
    the card, move, draw back up to the hand limit (PROBEs resolve on the way), and
    only then the orbital check. So the draws owed must all come before the first
    roll that is not a PROBE's, before a Quantum Programming bypass or a Quantum Tunnel,
    and before the end of the turn.
    """

    def __init__(self, g: Any, act: dict[str, Any]):
        s = g.state
        self.player = act["player"]
        self.start = len(g.log)  # a choose re-runs the input from here
        limit = HAND_SIZE - 1 if _has(g, self.player, DILUTION_REFRIGERATOR) else HAND_SIZE
        self.owed = max(0, limit - (len(s.hands[self.player]) - 1))

    def check(self, g: Any) -> bool:
        """Assert the order so far; True while the input still awaits a prompt."""
        seg = g.log[self.start:]
        assert seg and seg[0]["type"] == "action" and seg[0]["do"] == "navigate", (
            f"the log of the navigate input starts with {seg[:1]}")
        drawn = 0
        for e in seg:
            t = e["type"]
            if t == "draw" and e["player"] == self.player and e["card"] != "PROBE":
                drawn += 1
            elif t in _AFTER_REPLACEMENT or (t == "roll" and e["purpose"] != "probe"):
                assert drawn == self.owed, (
                    f"{self.player} drew {drawn} of the {self.owed} replacement card(s) "
                    f"before {e}: the replacement comes before the orbital check")
                break
        return g.pending is not None
