"""The authoritative Entanglion rules engine.

One type, :class:`Entanglion`, in the spirit of python-chess's ``Board``: ``push`` an
input, ``pop`` to undo it, ask ``legal_actions()``, ``check()`` an input for a reason
it is illegal, read ``pending`` for the decision being awaited, and ``to_dict``/
``from_dict`` for an exact JSON form.

Inputs are plain dicts::

    {"player": "mercurial", "do": "navigate", "card": "H"}
    {"do": "exchange", "card": "X"}     {"do": "retrieve"}
    {"do": "event", "card": "heisenberg"}
    {"do": "interconnect", "give": "H", "take": "X"}   Qubit Interconnect: free, before
                                                       the turn's action, once a turn
    {"do": "choose", "value": "reroll"}  (or "index": 1)   answers ``pending``

How decisions work. Rules procedures are written as straight-line code. When one
needs a player's decision (or a physical die in manual dice mode) it calls
:meth:`_ask`; if the answer is not known yet, the procedure stops with a *prompt*
and the state shows everything that happened up to that point. A ``choose`` input
re-runs the interrupted input from the state before it with one more known answer.
Since all chance is in the state, the re-run repeats the same dice and draws, so the
code never needs to be cut into resumable pieces.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ...chance import below, seed_state, shuffle
from ...i18n import N_  # marks the end reasons for the catalogs; the engine never translates
from . import board
from .board import (
    GALAXY, MERCURIAL, OTHER, PROBE, RING, RUBICON, SHIPS, ZERO, ONE, Position, other,
)
from .cards import (
    BENNETT, BIT_FLIP_ERROR, BIT_FLIP_SPACE, COMPONENTS, CONTROL_INFRASTRUCTURE,
    DILUTION_REFRIGERATOR, ENGINE_CARDS, ENGINE_COUNTS, EVENTS, HAND_SIZE, HEISENBERG, KEPT_EVENTS,
    ACTION_EVENTS, LAST_SPACE, MAGNETIC_SHIELDING, PHYSICAL_QUBITS, QUANTUM_ERROR_CORRECTION,
    QUANTUM_GATES, QUANTUM_PROGRAMMING, QUANTUM_SHUFFLE, QUANTUM_TUNNEL, QUBIT_INTERCONNECT,
    SCHRODINGER, SPOOKY_ACTION, THE_MECHANIC, WAVE_FUNCTION_COLLAPSE, pretty, track_value,
)
from .options import OptionError, make_options
from .state import State
from ..snapshots import SnapshotEngine

ENGINE_SLOTS = 6
ACTIONS = ("navigate", "exchange", "retrieve", "event", "interconnect", "choose", "pass")


class EntanglionError(Exception):
    """Base of the engine's errors."""


class IllegalAction(EntanglionError):
    """An input the rules do not allow now; nothing changed. ``str()`` says why."""


class SetupError(EntanglionError):
    """A game cannot be set up as asked (bad options or setup values)."""


class _Suspend(Exception):
    def __init__(self, prompt: dict[str, Any]):
        self.prompt = prompt


class _GameOver(Exception):
    pass


_NO_ANSWERS = ()  # a fresh input's answers so far (a new list only once there are some)


def _distinct(cards: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def _without(items: list[str], item: str) -> list[str]:
    """``items`` less one ``item``, as a new list (for the fields clones share)."""
    rest = items[:]
    rest.remove(item)
    return rest


def _name(ship: str) -> str:
    return ship.capitalize()


def _names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# Legal inputs are handed out as shared dicts (copied for callers outside playouts):
# building ~8 dicts a turn was most of what ``legal_actions`` cost.
_SHARED_ACTIONS: dict[tuple[str, str, str], dict[str, Any]] = {}
_CARD_ACTIONS: dict[tuple[str, ...], list[dict[str, Any]]] = {}  # (player, *hand) ->
_CACHE_LIMIT = 4096  # hands are a few cards of four kinds; odd scenarios cannot grow it
_RETRIEVE = {p: {"player": p, "do": "retrieve"} for p in SHIPS}
_PASS = {p: {"player": p, "do": "pass"} for p in SHIPS}


def _shared_action(player: str, do: str, card: str) -> dict[str, Any]:
    key = (player, do, card)
    act = _SHARED_ACTIONS.get(key)
    if act is None:
        act = {"player": player, "do": do, "card": card}
        if len(_SHARED_ACTIONS) < _CACHE_LIMIT:
            _SHARED_ACTIONS[key] = act
    return act


def _card_actions(key: tuple[str, ...]) -> list[dict[str, Any]]:
    """Navigate with each distinct card of the hand, then exchange each."""
    player, cards = key[0], _distinct(key[1:])
    acts = ([_shared_action(player, "navigate", c) for c in cards]
            + [_shared_action(player, "exchange", c) for c in cards])
    if len(_CARD_ACTIONS) < _CACHE_LIMIT:
        _CARD_ACTIONS[key] = acts
    return acts


class Entanglion(SnapshotEngine):
    """A game of Entanglion from set-up to win or loss."""

    game = "entanglion"
    illegal = IllegalAction

    def __init__(self, seed: int = 0, options: dict[str, Any] | None = None,
                 setup: dict[str, Any] | None = None, dice: Iterable[int] = ()):
        try:
            opts = make_options(options)
        except OptionError as exc:
            raise SetupError(str(exc)) from None
        forced = list(dice)
        for d in forced:
            if type(d) is not int or not 0 <= d <= 8:
                raise SetupError(f"forced dice must be whole numbers 0-8, not {d!r}")
        self.seed = seed
        self.setup = dict(setup or {})
        self.state = State(opts, seed_state(seed), forced)
        self.log: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.inputs: list[dict[str, Any]] = []  # accepted inputs, for replay
        self._inflight: tuple[State, int, dict[str, Any], Sequence[Any]] | None = None
        self._history: list[tuple[State, int, Any, Any]] = []
        self._answers: Sequence[Any] = []
        self._answer_i = 0
        self._validate_setup(self.setup)
        try:
            self._apply({"do": "setup"})
        except IllegalAction as exc:  # e.g. a forced die that cannot be a setup roll
            raise SetupError(str(exc)) from None

    # ------------------------------------------------------------------ public API

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def turn_player(self) -> str | None:
        return self.state.turn_player

    def awaiting(self) -> str | None:
        """The player whose input is awaited (prompt first, else whose turn it is)."""
        if self.state.status not in ("playing", "setup"):
            return None
        return self.pending["player"] if self.pending else self.state.turn_player

    # push, pop, check, copy, playout_copy and replay: see SnapshotEngine.

    def legal_actions(self) -> list[dict[str, Any]]:
        return [dict(a) for a in self._legal()]  # the caller's own, free to change

    def _legal(self) -> list[dict[str, Any]]:
        """The legal inputs as shared dicts, which nobody may change (a new list).
        A playout copy's ``legal_actions``."""
        s = self.state
        if s.status in ("won", "lost"):
            return []
        pending = self.pending
        if pending:
            p = pending["player"]
            return [{"player": p, "do": "choose", "value": v} for v in pending["options"]]
        p = s.turn_player
        hand = s.hands[p]
        key = (p, *hand)
        try:  # an index, not .get(): a compiled build calls a method generically
            out = _CARD_ACTIONS[key][:]
        except KeyError:  # a hand not met yet
            out = _card_actions(key)[:]
        here, there = s.pos
        together = here == there  # retrieval and Qubit Interconnect need it
        if together and s.planet_components.get(here) is not None:  # _component_here
            out.append(_RETRIEVE[p])
        held = s.held_events[p]
        if held:
            out += [_shared_action(p, "event", e)
                    for e in _distinct(held) if self._event_reason(p, e) is None]
        if together and not s.interconnected and self._interconnect_reason(p) is None:
            out += [{"player": p, "do": "interconnect", "give": a, "take": b}
                    for a in _distinct(hand) for b in _distinct(s.hands[OTHER[p]])]
        if not out:  # only when a hand is empty and nothing else is possible
            out.append(_PASS[p])
        return out

    # ----------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """Exact JSON form: state, log, inputs and any interrupted input."""
        inflight = None
        if self._inflight:
            base, base_len, first, answers = self._inflight
            inflight = {"base": base.to_dict(), "log_length": base_len,
                        "input": first, "answers": list(answers)}
        return {
            "game": self.game, "seed": self.seed, "setup": self.setup,
            "state": self.state.to_dict(), "pending": self.pending,
            "inflight": inflight, "inputs": list(self.inputs), "log": list(self.log),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Entanglion":
        g = cls.__new__(cls)
        g.seed = data["seed"]
        g.setup = dict(data.get("setup") or {})
        g.state = State.from_dict(data["state"])
        g.log = [dict(e) for e in data["log"]]
        g.pending = data["pending"]
        g.inputs = [dict(i) for i in data["inputs"]]
        inf = data.get("inflight")
        g._inflight = None if inf is None else (
            State.from_dict(inf["base"]), inf["log_length"], inf["input"], list(inf["answers"]))
        g._history = []
        g._answers, g._answer_i = [], 0
        return g

    # ----------------------------------------------------- running with prompts

    def _snapshot(self) -> tuple[State, int, Any, Any]:
        return (self.state, len(self.log), self._inflight, self.pending)

    def _restore(self, snapshot: tuple[State, int, Any, Any]) -> None:
        self.state, log_len, self._inflight, self.pending = snapshot
        del self.log[log_len:]

    def _apply(self, act: dict[str, Any]) -> None:
        # The state before the input stays untouched: it is the undo snapshot and the
        # base a later ``choose`` re-runs from. The input runs on a clone.
        if act["do"] == "choose":  # the interrupted input again, with one more answer
            value = act["value"]
            base, base_len, act, answers = self._inflight  # type: ignore[misc]
            answers = [*answers, value]
            del self.log[base_len:]
        else:
            base, base_len, answers = self.state, len(self.log), _NO_ANSWERS
        self.state = base.clone()
        self._answers, self._answer_i = answers, 0
        self.pending = None
        try:
            self._perform(act)
        except _Suspend as s:
            self.pending = s.prompt
            self._inflight = (base, base_len, act, answers)
            return
        except _GameOver:
            pass
        self._inflight = None

    def _ask(self, player: str, kind: str, options: list[Any], **info: Any) -> Any:
        """A player's decision: the next known answer, or stop here with a prompt."""
        if len(options) == 1:
            return options[0]  # not a decision
        if self._answer_i < len(self._answers):
            value = self._answers[self._answer_i]
            self._answer_i += 1
            return value
        raise _Suspend({"player": player, "kind": kind, "options": options, **info})

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
            act["player"] = self.awaiting()
        elif player not in SHIPS:
            raise IllegalAction(f"unknown player {player!r} (mercurial or rubicon)")
        if do in ("navigate", "exchange"):
            card = act.get("card")
            if not isinstance(card, str):
                raise IllegalAction(f"{do} needs a card")
            act["card"] = card.upper()
        elif do == "event":
            card = act.get("card")
            if not isinstance(card, str):
                raise IllegalAction("event needs a card")
            act["card"] = card.lower().replace(" ", "_").replace("ö", "o")
        elif do == "interconnect":
            for key in ("give", "take"):
                if not isinstance(act.get(key), str):
                    raise IllegalAction(f"interconnect needs a card to {key}")
                act[key] = act[key].upper()
        elif do == "choose" and self.pending is None:
            act = self._legacy_interconnect(act)
        elif do == "choose" and self.pending is not None:
            options = self.pending["options"]
            if "index" in act and "value" not in act:
                i = act.pop("index")
                if type(i) is not int or not 0 <= i < len(options):
                    raise IllegalAction(f"choice index must be 0-{len(options) - 1}, not {i!r}")
                act["value"] = options[i]
        return act

    def _reason(self, act: dict[str, Any]) -> str | None:
        s = self.state
        if s.status in ("won", "lost"):
            return f"the game is over ({s.status})"
        do, player = act["do"], act["player"]
        if self.pending:
            if do != "choose":
                return (f"waiting for {_name(self.pending['player'])} to choose "
                        f"({self.pending['kind']})")
            if player != self.pending["player"]:
                return f"it is {_name(self.pending['player'])} who chooses now"
            if "value" not in act:
                return "choose needs a value or an index"
            if act["value"] not in self.pending["options"]:
                return (f"{act['value']!r} is not one of the options for "
                        f"{self.pending['kind']}: {self.pending['options']!r}")
            return None
        if do == "choose":
            return "there is nothing to choose"
        if player != s.turn_player:
            return f"it is {_name(s.turn_player)}'s turn"
        if do == "interconnect":
            reason = self._interconnect_reason(player)
            if reason or act.get("skip"):
                return reason
            mine, theirs = s.hands[player], s.hands[other(player)]
            if act["give"] not in mine:
                return f"{_name(player)} has no {act['give']} to give (hand: {', '.join(mine)})"
            if act["take"] not in theirs:
                return (f"{_name(other(player))} has no {act['take']} to give "
                        f"(hand: {', '.join(theirs)})")
            return None
        if do in ("navigate", "exchange"):
            card = act["card"]
            if card not in ENGINE_COUNTS or card == PROBE:
                return f"{card!r} is not an engine card to play (X, H, CNOT or SWAP)"
            if card not in s.hands[player]:
                return (f"{_name(player)} has no {card} in hand "
                        f"(hand: {', '.join(s.hands[player]) or 'empty'})")
            return None
        if do == "retrieve":
            if s.pos[0] != s.pos[1] or GALAXY[s.pos[0]] != "entanglion":
                return "retrieve needs both ships orbiting the same Entanglion planet"
            if self._component_here() is None:
                return f"there is no quantum component on {pretty(s.pos[0])}"
            return None
        if do == "event":
            return self._event_reason(player, act["card"])
        if do == "pass":
            if any(a["do"] != "pass" for a in self.legal_actions()):
                return "players may not pass while they can act"
        return None

    def _event_reason(self, player: str, card: str) -> str | None:
        s = self.state
        if card not in EVENTS:
            return f"{card!r} is not an event card"
        if card not in s.held_events[player]:
            return f"{_name(player)} does not hold {pretty(card)}"
        if card == QUANTUM_TUNNEL:
            return ("Quantum Tunnel is free: it is offered when a defence roll is due")
        if card not in ACTION_EVENTS:  # pragma: no cover - only kept events are held
            return f"{pretty(card)} is not played as an action"
        if (card == HEISENBERG and not s.options["heisenberg_from_outside"]
                and GALAXY[s.pos[0]] != "entanglion"):
            return "Heisenberg can only be played inside Entanglion (option heisenberg_from_outside)"
        return None

    def _interconnect_reason(self, player: str) -> str | None:
        """Why Qubit Interconnect cannot trade now (None: it can)."""
        s = self.state
        m, r = s.pos
        if not self._has(player, QUBIT_INTERCONNECT):
            return f"{_name(player)} has no Qubit Interconnect aboard"
        if m != r:
            return "Qubit Interconnect needs both ships on the same planet"
        if not s.options["interconnect_anywhere"] and GALAXY[m] != "entanglion":
            return "Qubit Interconnect works only inside Entanglion (option interconnect_anywhere)"
        if s.interconnected:
            return "Qubit Interconnect trades once a turn"
        if not s.hands[player] or not s.hands[other(player)]:
            return "Qubit Interconnect needs a card in each hand"
        return None

    def _legacy_interconnect(self, act: dict[str, Any]) -> dict[str, Any]:
        """A journal written when Qubit Interconnect was a prompt at the start of every
        turn holds ``choose`` answers to it ("skip", or give/take). Where that prompt
        would have been asked they still mean what they meant: a trade, or nothing."""
        p = act["player"]
        if p != self.state.turn_player or self._interconnect_reason(p) is not None:
            return act
        value = act.get("value")
        if "index" in act and "value" not in act:  # the old prompt's option order
            mine = _distinct(self.state.hands[p])
            theirs = _distinct(self.state.hands[other(p)])
            options: list[Any] = ["skip"] + [{"give": a, "take": b} for a in mine
                                             for b in theirs]
            i = act["index"]
            value = options[i] if type(i) is int and 0 <= i < len(options) else None
        if value == "skip":
            return {"player": p, "do": "interconnect", "skip": True}
        if isinstance(value, dict) and set(value) == {"give", "take"} and all(
                isinstance(v, str) for v in value.values()):
            return {"player": p, "do": "interconnect", "give": value["give"].upper(),
                    "take": value["take"].upper()}
        return act

    def _validate_setup(self, setup: dict[str, Any]) -> None:
        known = {"first_player", "ships", "components", "ship_components", "hands",
                 "held_events", "engine_stack", "event_deck", "detection_space"}
        unknown = set(setup) - known
        if unknown:
            raise SetupError(f"unknown setup key(s): {', '.join(sorted(unknown))}")
        if "first_player" in setup and setup["first_player"] not in SHIPS:
            raise SetupError("setup.first_player must be mercurial or rubicon")
        if "ships" in setup:
            ships = setup["ships"]
            if not isinstance(ships, dict) or set(ships) != set(SHIPS) or not all(
                    isinstance(p, str) for p in ships.values()):
                raise SetupError("setup.ships must give a planet for mercurial and rubicon")
            pos = (ships[MERCURIAL], ships[RUBICON])
            if not board.is_legal_position(pos):
                raise SetupError(f"setup.ships {pos} is not a board position (inside "
                                 "Entanglion both ships share one planet)")
        if "detection_space" in setup:
            d = setup["detection_space"]
            if type(d) is not int or not 1 <= d < LAST_SPACE:
                raise SetupError(f"setup.detection_space must be 1-{LAST_SPACE - 1}")
        for key in ("hands", "held_events", "ship_components"):
            v = setup.get(key, {})
            if not isinstance(v, dict) or set(v) - set(SHIPS) or not all(
                    _names(x) for x in v.values()):
                raise SetupError(f"setup.{key} must map mercurial/rubicon to lists of names")
        for key in ("engine_stack", "event_deck"):
            if not _names(setup.get(key, [])):
                raise SetupError(f"setup.{key} must be a list of card names (top card first)")
        comps = setup.get("components", {})
        if not isinstance(comps, dict) or set(comps) - set(RING) or not all(
                c is None or isinstance(c, str) for c in comps.values()):
            raise SetupError("setup.components must map Entanglion planets to components")

    # ------------------------------------------------------------------ helpers

    def _log(self, type_: str, **data: Any) -> dict[str, Any]:
        entry = {"type": type_, **data}
        self.log.append(entry)
        return entry

    def _has(self, player: str, component: str) -> bool:
        s = self.state
        sc = s.ship_components
        if component in sc[player]:
            return True
        return s.options["component_scope"] == "team" and component in sc[OTHER[player]]

    def _limit(self, player: str) -> int:
        return HAND_SIZE - 1 if self._has(player, DILUTION_REFRIGERATOR) else HAND_SIZE

    def _component_here(self) -> str | None:
        m, r = self.state.pos
        if m != r:
            return None
        return self.state.planet_components.get(m)

    def _set_pos(self, pos: Position, cause: str, player: str | None = None) -> None:
        before = self.state.pos
        self.state.pos = pos
        # [mercurial's planet, rubicon's planet], as everywhere in the log
        if not self.playout:  # the hottest entries skip even their arguments in playouts
            self._log("move", player=player, cause=cause,
                      **{"from": list(before), "to": list(pos)})

    # ------------------------------------------------------------------ chance

    def _die(self, die: str, player: str, purpose: str, reroll: bool = False) -> int:
        s = self.state
        low, high = (1, 8) if die == "d8" else (0, 1)
        if s.forced:
            value, s.forced = s.forced[0], s.forced[1:]  # replaced: clones share it
            if not low <= value <= high:
                raise IllegalAction(f"forced die value {value} cannot be a {die} result "
                                    f"({low}-{high}) for {purpose}")
            return value
        if s.options["dice"] == "manual":
            info = {"reroll": True} if reroll else {}  # the second die of Magnetic Shielding
            return self._ask(player, "roll", list(range(low, high + 1)), die=die,
                             purpose=purpose, **info)
        s.rng, value = below(s.rng, high - low + 1)
        return value + low

    def _roll_d8(self, player: str, purpose: str, beat: int | None = None
                 ) -> tuple[dict[str, Any], int]:
        """Roll the Entanglion die for ``player``: Magnetic Shielding, then modifiers.

        ``beat`` is given for defence checks (success when the modified roll is higher);
        only those take the +1/-1 component modifiers, unless ruling Q4 says otherwise.
        """
        raw = self._die("d8", player, purpose)
        entry: dict[str, Any] = {"player": player, "die": "d8", "raw": raw}
        if self._has(player, MAGNETIC_SHIELDING):
            if self._ask(player, "magnetic_shielding", ["keep", "reroll"],
                         raw=raw, purpose=purpose) == "reroll":
                raw = self._die("d8", player, purpose, reroll=True)
                entry["reroll"] = raw
        modifier = 0
        if beat is not None or self.state.options["modifiers_on_all_rolls"]:
            modifier = (self._has(player, QUANTUM_ERROR_CORRECTION)
                        - self._has(player, CONTROL_INFRASTRUCTURE))
        entry.update(modifier=modifier, modified=raw + modifier, purpose=purpose)
        if beat is not None:
            entry["beat"] = beat
        entry["result"] = None
        return self._log("roll", **entry), raw + modifier

    def _roll_centarious(self, player: str, purpose: str) -> str:
        value = self._die("centarious", player, purpose)
        planet = ONE if value else ZERO
        self._log("roll", player=player, die="centarious", raw=value, modifier=0,
                  modified=value, purpose=purpose, result=planet)
        return planet

    # ------------------------------------------------------------------ setup

    def _perform(self, act: dict[str, Any]) -> None:
        do, player = act["do"], act.get("player")
        if do == "setup":
            self._setup()
            self._begin_turn()
            return
        if do == "interconnect":  # free: not the turn's action
            self._interconnect(player, act)
            return
        if not self.playout:
            if "card" in act:
                self._log("action", player=player, do=do, card=act["card"])
            else:
                self._log("action", player=player, do=do)
        if do == "navigate":
            self._navigate(player, act["card"])
        elif do == "exchange":
            self._exchange(player, act["card"])
        elif do == "retrieve":
            self._retrieve(player)
        elif do == "event":
            self._play_event(player, act["card"])
        self._end_turn(player)

    def _setup(self) -> None:
        s, su = self.state, self.setup
        s.detection = su.get("detection_space", s.options["start_space"])

        # Components: the given ones where given, the rest shuffled onto the other planets.
        given = su.get("components", {})
        on_ships = [c for ship in SHIPS for c in su.get("ship_components", {}).get(ship, [])]
        placed = [c for c in given.values() if c is not None]
        self._check_multiset("components", placed + on_ships, {c: 1 for c in COMPONENTS})
        s.ship_components = {ship: list(su.get("ship_components", {}).get(ship, []))
                             for ship in SHIPS}
        free = [p for p in RING if p not in given]
        rest = [c for c in COMPONENTS if c not in placed and c not in on_ships]
        s.rng = shuffle(s.rng, free)
        if len(rest) > len(free):
            raise SetupError(f"{len(rest)} components left for {len(free)} free planets")
        s.planet_components = dict.fromkeys(RING)
        s.planet_components.update(given)
        for planet, comp in zip(free, rest):  # planets beyond the components stay empty
            s.planet_components[planet] = comp

        # Engine stack: PROBE at the bottom, the other 23 shuffled on top.
        hands = {ship: [c.upper() for c in su.get("hands", {}).get(ship, [])] for ship in SHIPS}
        top = [c.upper() for c in su.get("engine_stack", [])]
        held_engine = hands[MERCURIAL] + hands[RUBICON]
        if PROBE in held_engine:
            raise SetupError("PROBE cannot start in a hand")
        self._check_multiset("engine cards", held_engine + top, ENGINE_COUNTS)
        rest = self._remaining(ENGINE_COUNTS, held_engine + top)
        probe_below = PROBE in rest
        if probe_below:
            rest.remove(PROBE)
        s.rng = shuffle(s.rng, rest)
        s.engine_stack = top + rest + ([PROBE] if probe_below else [])

        # Event deck: 5 / Quantum Shuffle / 3, beneath any cards given for the top.
        held = {ship: [e.lower() for e in su.get("held_events", {}).get(ship, [])] for ship in SHIPS}
        for ship in SHIPS:
            bad = [e for e in held[ship] if e not in KEPT_EVENTS]
            if bad:
                raise SetupError(f"only kept events can start in hand, not {bad}")
        top_events = [e.lower() for e in su.get("event_deck", [])]
        self._check_multiset("event cards", held[MERCURIAL] + held[RUBICON] + top_events,
                             {e: 1 for e in EVENTS})
        rest = self._remaining({e: 1 for e in EVENTS}, held[MERCURIAL] + held[RUBICON] + top_events)
        s.event_deck = top_events + self._build_event_deck(rest)
        s.held_events = held
        s.event_discard = []
        self._log("setup", components=dict(s.planet_components), detection=s.detection)

        # First player: both roll the d8, higher starts, ties re-roll.
        first = su.get("first_player")
        while first is None:
            m = self._die("d8", MERCURIAL, "first player")
            r = self._die("d8", RUBICON, "first player")
            if m != r:
                first = MERCURIAL if m > r else RUBICON
            for ship, value in ((MERCURIAL, m), (RUBICON, r)):
                result = "tie" if m == r else "first" if ship == first else "second"
                self._log("roll", player=ship, die="d8", raw=value, modifier=0,
                          modified=value, purpose="first player", result=result)
        s.turn_player = first
        order = (first, other(first))

        # Ships: each player rolls the Centarious die for their own ship, first player first.
        if "ships" in su:
            s.pos = (su["ships"][MERCURIAL], su["ships"][RUBICON])
        else:
            where = {ship: self._roll_centarious(ship, "ship placement") for ship in order}
            s.pos = (where[MERCURIAL], where[RUBICON])
        s.status = "playing"

        # Hands: three engine cards each, first player first (a PROBE drawn here resolves).
        for ship in order:
            if ship in su.get("hands", {}):
                s.hands[ship] = hands[ship]
            else:
                for _ in range(HAND_SIZE):
                    self._draw(ship, s.hands[ship])
        s.turn_number = 1
        self._log("turn", player=first, number=1)

    @staticmethod
    def _check_multiset(what: str, cards: list[str], counts: dict[str, int]) -> None:
        seen: dict[str, int] = {}
        for c in cards:
            if c not in counts:
                raise SetupError(f"unknown {what[:-1]} {c!r}")
            seen[c] = seen.get(c, 0) + 1
            if seen[c] > counts[c]:
                raise SetupError(f"too many {c!r} among the {what} given (the game has {counts[c]})")

    @staticmethod
    def _remaining(counts: dict[str, int], used: list[str]) -> list[str]:
        rest = [c for c, n in counts.items() for _ in range(n)]
        for c in used:
            rest.remove(c)
        return rest

    def _build_event_deck(self, cards: list[str]) -> list[str]:
        """Set Quantum Shuffle aside, shuffle, 3 at the bottom, QS on them, rest on top."""
        s = self.state
        others = [c for c in cards if c != QUANTUM_SHUFFLE]
        s.rng = shuffle(s.rng, others)
        if QUANTUM_SHUFFLE not in cards:
            return others
        return others[3:] + [QUANTUM_SHUFFLE] + others[:3]

    # ------------------------------------------------------------------ turns

    def _begin_turn(self) -> None:
        self.state.interconnected = False

    def _interconnect(self, player: str, act: dict[str, Any]) -> None:
        """Qubit Interconnect: one engine card each way, before the turn's action."""
        s = self.state
        s.interconnected = True
        if act.get("skip"):
            return  # an old journal's "skip" answer (see _legacy_interconnect)
        mine, theirs = s.hands[player], s.hands[other(player)]
        mine.remove(act["give"])
        theirs.remove(act["take"])
        mine.append(act["take"])
        theirs.append(act["give"])
        self._log("interconnect", player=player, give=act["give"], take=act["take"])

    def _end_turn(self, player: str) -> None:
        s = self.state
        full = s.slot6_filled if s.options["double_event"] else len(s.engine_control) >= ENGINE_SLOTS
        if full:
            self._quantum_event(player, "engine control full", clear=True)
        s.slot6_filled = False
        s.turn_player = OTHER[player]
        s.turn_number += 1
        if not self.playout:
            self._log("turn", player=s.turn_player, number=s.turn_number)
        s.interconnected = False  # _begin_turn, written out on the hot path

    # ------------------------------------------------------------------ engine deck

    def _draw(self, player: str, into: list[str]) -> str | None:
        """Draw one engine card into ``into``; PROBEs resolve on the way."""
        s = self.state
        while True:
            if not s.engine_stack:
                self._reshuffle_engine()
                if not s.engine_stack:
                    self._log("draw", player=player, card=None, note="no engine cards left")
                    return None
            if s.options["deck"] == "physical":
                card = self._take(player, s.engine_stack, "engine")
            else:  # _take's digital case, written out: about one draw per input
                card = s.engine_stack.pop(0)
            if not self.playout:
                self._log("draw", player=player, card=card)
            if card != PROBE:
                into.append(card)
                if not s.engine_stack:
                    self._reshuffle_engine()  # "immediately" when depleted
                return card
            # Discarded before its roll, so a loss keeps all 24 cards in play, and so a
            # PROBE drawn as the last card goes into the reshuffle the next draw makes.
            s.engine_discard.append(PROBE)
            entry, value = self._roll_d8(player, "probe", beat=3)
            if value < 4:
                entry["result"] = "detected"
                self._raise_detection("probe")
            else:
                entry["result"] = "no effect"

    def _take(self, player: str, deck: list[str], name: str) -> str:
        """The top card, or in physical deck mode the card the player says they drew."""
        if self.state.options["deck"] == "physical":
            order = ENGINE_CARDS if name == "engine" else EVENTS
            card = self._ask(player, "draw", [c for c in order if c in deck], deck=name)
            deck.remove(card)
            return card
        return deck.pop(0)

    def _reshuffle_engine(self) -> None:
        s = self.state
        if not s.engine_discard:
            return
        s.engine_stack, s.engine_discard = s.engine_discard, []
        s.rng = shuffle(s.rng, s.engine_stack)
        if not self.playout:
            self._log("reshuffle", deck="engine", cards=len(s.engine_stack))

    def _refill(self, player: str) -> None:
        hand, limit = self.state.hands[player], self._limit(player)
        while len(hand) < limit:
            if self._draw(player, hand) is None:
                return

    def _enforce_limit(self, player: str, reason: str) -> None:
        s = self.state
        hand, limit = s.hands[player], self._limit(player)
        while len(hand) > limit:
            card = self._ask(player, "discard", _distinct(hand), reason=reason, limit=limit)
            hand.remove(card)
            s.engine_discard.append(card)
            self._log("discard", player=player, card=card, reason=reason)

    def _place_in_engine_control(self, card: str, player: str) -> None:
        s = self.state
        if len(s.engine_control) >= ENGINE_SLOTS:
            s.engine_discard.append(card)  # only with mechanic_fills_slots (Q5)
            return
        s.engine_control = s.engine_control + [[card, player]]  # replaced: clones share it
        if len(s.engine_control) == ENGINE_SLOTS:
            s.slot6_filled = True

    def _clear_engine_control(self) -> None:
        s = self.state
        if s.engine_control:
            s.engine_discard.extend(card for card, _ in s.engine_control)
            s.engine_control = []
            self._log("engine_control_cleared")

    # ------------------------------------------------------------------ detection

    def _raise_detection(self, reason: str) -> None:
        s = self.state
        s.detection += 1
        if not self.playout:
            self._log("detection", space=s.detection, value=track_value(s.detection),
                      reason=reason)
        if s.detection >= LAST_SPACE:
            self._end("lost", N_("the detection rate reached X"))

    def _set_detection(self, space: int, reason: str) -> None:
        s = self.state
        if space != s.detection:
            s.detection = space
            self._log("detection", space=space, value=track_value(space), reason=reason)

    def _end(self, status: str, why: str) -> None:
        self.state.status = status
        self._log("game_over", status=status, reason=why)
        raise _GameOver

    # ------------------------------------------------------------------ actions

    def _navigate(self, player: str, card: str) -> None:
        s = self.state
        s.hands[player].remove(card)
        self._place_in_engine_control(card, player)
        before, after = self._fly(card, player)
        self._refill(player)
        if after[0] != before[0] and after[0] == after[1] and GALAXY[after[0]] == "entanglion":
            entry = GALAXY[before[0]] != "entanglion"
            self._orbital_defence(player, after[0], by_entry=entry)

    def _fly(self, card: str, player: str) -> tuple[Position, Position]:
        """Move the ships along the board for ``card`` played for ``player``."""
        s = self.state
        before = s.pos
        after = board.NAVIGATION[s.options["cnot_phase_kickback"]][(card, player, before)]
        if after == before:
            if not self.playout:
                self._log("no_effect", player=player, card=card)
        else:
            self._set_pos(after, card, player)
        return before, after

    def _exchange(self, player: str, card: str) -> None:
        s = self.state
        s.hands[player].remove(card)
        s.engine_discard.append(card)
        if not self._has(player, QUANTUM_GATES):
            self._draw(player, s.hands[player])
            return
        s.drawn = s.drawn[:]  # copied before it changes: clones share it
        for _ in range(2):
            self._draw(player, s.drawn)
        if s.drawn:
            keep = self._ask(player, "quantum_gates", _distinct(s.drawn), drawn=list(s.drawn))
            s.drawn.remove(keep)
            s.hands[player].append(keep)
            s.engine_discard.extend(s.drawn)
            self._log("keep", player=player, card=keep, discarded=list(s.drawn))
            s.drawn.clear()

    def _retrieve(self, player: str) -> None:
        s = self.state
        planet = s.pos[0]
        comp = s.planet_components[planet]
        success = s.options["tunnel_timing"] == "before_roll" and self._use_tunnel(player, "ground")
        if not success:
            entry, value = self._roll_d8(player, "ground defence", track_value(s.detection))
            success = value > track_value(s.detection)
            entry["result"] = "retrieved" if success else "detected"
            if not success and s.options["tunnel_timing"] == "after_failure":
                success = self._use_tunnel(player, "ground")
        if not success:
            self._raise_detection("ground defence")
            return  # ships stay in orbit
        s.planet_components = {**s.planet_components, planet: None}
        s.set_ship("ship_components", player, s.ship_components[player] + [comp])
        s.retrieved_from = s.retrieved_from + [planet]
        self._log("retrieved", player=player, component=comp, planet=planet)
        if sum(len(c) for c in s.ship_components.values()) == len(COMPONENTS):
            self._end("won", N_("all eight components are aboard"))
        if comp == DILUTION_REFRIGERATOR:  # "immediately discard one engine card"
            for ship in (player, other(player)):  # the other only matters with team scope
                self._enforce_limit(ship, "dilution refrigerator")

    def _play_event(self, player: str, card: str) -> None:
        s = self.state
        s.set_ship("held_events", player, _without(s.held_events[player], card))
        s.event_discard = s.event_discard + [card]
        if card == HEISENBERG:
            entry, value = self._roll_d8(player, "heisenberg")
            dest = RING[value % len(RING)]
            entry["result"] = dest
            if (dest, dest) != s.pos:
                self._set_pos((dest, dest), HEISENBERG, player)
        elif card == BENNETT:
            self._bennett(player)
        elif card == THE_MECHANIC:
            self._mechanic(player)

    # ------------------------------------------------------------------ defences

    def _use_tunnel(self, player: str, defence: str) -> bool:
        s = self.state
        if QUANTUM_TUNNEL not in s.held_events[player]:
            return False
        if self._ask(player, "quantum_tunnel", ["use", "roll"] if s.options["tunnel_timing"]
                     == "before_roll" else ["use", "accept"], defence=defence) != "use":
            return False
        s.set_ship("held_events", player, _without(s.held_events[player], QUANTUM_TUNNEL))
        s.event_discard = s.event_discard + [QUANTUM_TUNNEL]
        self._log("event", player=player, card=QUANTUM_TUNNEL, defence=defence)
        return True

    def _orbital_defence(self, player: str, planet: str, by_entry: bool) -> None:
        s = self.state
        if self._has(player, QUANTUM_PROGRAMMING) and self._programming_covers(planet, by_entry):
            self._log("bypass", player=player, by=QUANTUM_PROGRAMMING, planet=planet)
            return
        if s.options["tunnel_timing"] == "before_roll" and self._use_tunnel(player, "orbital"):
            return
        entry, value = self._roll_d8(player, "orbital defence", track_value(s.detection))
        if value > track_value(s.detection):
            entry["result"] = "evaded"
            return
        entry["result"] = "detected"
        if s.options["tunnel_timing"] == "after_failure" and self._use_tunnel(player, "orbital"):
            return
        self._detected(player)

    def _programming_covers(self, planet: str, by_entry: bool) -> bool:
        s = self.state
        if by_entry and not s.options["quantum_programming_on_cnot_entry"]:
            return False
        if s.planet_components[planet] is not None:
            return False
        return s.options["quantum_programming"] == "no_component" or planet in s.retrieved_from

    def _detected(self, player: str) -> None:
        s = self.state
        if self._has(player, PHYSICAL_QUBITS):
            options = [{MERCURIAL: m, RUBICON: r} for m in (ZERO, ONE) for r in (ZERO, ONE)]
            where = self._ask(player, "physical_qubits", options)
            pos = (where[MERCURIAL], where[RUBICON])
        else:
            planet = self._roll_centarious(player, "orbital detection jump")
            pos = (planet, planet)
        self._set_pos(pos, "orbital detection", player)
        clear = s.options["detection_event_clears_engine_control"]
        if s.options["detection_order"] == "jump_raise_event":
            self._raise_detection("orbital defence")
            self._quantum_event(player, "orbital detection", clear)
        else:
            self._quantum_event(player, "orbital detection", clear)
            self._raise_detection("orbital defence")

    # ------------------------------------------------------------------ events

    def _quantum_event(self, player: str, cause: str, clear: bool) -> None:
        s = self.state
        self._log("quantum_event", player=player, cause=cause)
        card = self._draw_event(player)
        if card is not None:
            if card in KEPT_EVENTS:
                limit = s.options["event_hand_limit"]
                if limit is not None and len(s.held_events[player]) >= limit:
                    s.event_discard = s.event_discard + [card]
                    self._log("event", player=player, card=card, kept=False,
                              note="event hand limit")
                else:
                    s.set_ship("held_events", player, s.held_events[player] + [card])
                    self._log("event", player=player, card=card, kept=True)
            else:
                s.event_discard = s.event_discard + [card]
                self._log("event", player=player, card=card, kept=False)
                self._resolve_immediate(player, card)
        if clear:
            self._clear_engine_control()

    def _draw_event(self, player: str) -> str | None:
        s = self.state
        for _ in range(3):  # QS rebuilds put it under >= 1 card, so this never loops
            if not s.event_deck:  # only reachable from unusual scenario set-ups
                self._rebuild_event_deck([])
                if not s.event_deck:
                    return None
            s.event_deck = s.event_deck[:]  # copied before it changes: clones share it
            card = self._take(player, s.event_deck, "event")
            if card != QUANTUM_SHUFFLE:
                return card
            self._log("event", player=player, card=QUANTUM_SHUFFLE, kept=False)
            extra = [QUANTUM_SHUFFLE]
            if s.options["quantum_shuffle_gathers"] == "all_events":
                for ship in SHIPS:
                    extra += s.held_events[ship]
                    s.set_ship("held_events", ship, [])
            self._rebuild_event_deck(extra)
        return None

    def _rebuild_event_deck(self, extra: list[str]) -> None:
        """Draw pile + discard (+ ``extra``) rebuilt as at setup (ruling Q6)."""
        s = self.state
        s.event_deck = self._build_event_deck(s.event_deck + s.event_discard + extra)
        s.event_discard = []
        self._log("reshuffle", deck="event", cards=len(s.event_deck))

    def _resolve_immediate(self, player: str, card: str) -> None:
        s = self.state
        if card == SCHRODINGER:
            self._raise_detection(SCHRODINGER)
        elif card == BIT_FLIP_ERROR:
            if s.options["bit_flip_error"] == "set" or s.detection > BIT_FLIP_SPACE:
                self._set_detection(BIT_FLIP_SPACE, BIT_FLIP_ERROR)
        elif card == WAVE_FUNCTION_COLLAPSE:
            target = s.detection - 2
            if target < 1 and s.options["wave_function_collapse_floor"] == "no_effect":
                return
            self._set_detection(max(1, target), WAVE_FUNCTION_COLLAPSE)
        elif card == SPOOKY_ACTION:
            self._spooky_action(player)

    def _spooky_action(self, player: str) -> None:
        s = self.state
        mine = s.ship_components[player]
        if not mine:
            self._log("no_effect", player=player, card=SPOOKY_ACTION)
            return
        s.rng, i = below(s.rng, len(mine))  # the face-down pick
        comp = mine[i]
        entry, value = self._roll_d8(player, "spooky action")
        if s.options["spooky_action_count"] == "unoccupied":
            ring = RING[1:] + RING[:1]
            free = [p for p in ring if s.planet_components[p] is None]
            dest = free[(value - 1) % len(free)]
        else:
            k = value % len(RING)
            while s.planet_components[RING[k]] is not None:
                k = (k + 1) % len(RING)
            dest = RING[k]
        entry["result"] = dest
        s.set_ship("ship_components", player, _without(mine, comp))
        s.planet_components = {**s.planet_components, dest: comp}
        self._log("teleported", player=player, component=comp, planet=dest)
        if comp == DILUTION_REFRIGERATOR:
            self._rebalance_hands()

    def _bennett(self, player: str) -> None:
        s = self.state
        options = [{"component": c, "from": ship, "to": other(ship)}
                   for ship in SHIPS for c in s.ship_components[ship]]
        if not options:
            self._log("no_effect", player=player, card=BENNETT)
            return
        move = self._ask(player, "bennett", options)
        sc = s.ship_components
        s.set_ship("ship_components", move["from"], _without(sc[move["from"]], move["component"]))
        s.set_ship("ship_components", move["to"], sc[move["to"]] + [move["component"]])
        self._log("transfer", player=player, **move)
        if move["component"] == DILUTION_REFRIGERATOR:
            self._rebalance_hands()

    def _rebalance_hands(self) -> None:
        """Ruling Q12: hand limits take effect at once when the refrigerator moves."""
        if self.state.options["bennett_dilution_refrigerator"] != "rebalance":
            return
        for ship in SHIPS:  # every discard before any draw: a draw can end the game
            self._enforce_limit(ship, "dilution refrigerator")
        for ship in SHIPS:
            self._refill(ship)

    def _mechanic(self, player: str) -> None:
        s = self.state
        s.set_aside, s.hands[player] = s.hands[player], []
        s.drawn = s.drawn[:]  # copied before it changes: clones share it
        for _ in range(3):
            self._draw(player, s.drawn)
        plays = 0
        while plays < 2 and s.drawn:
            card = self._ask(player, "mechanic", _distinct(s.drawn) + ["stop"], plays=plays,
                             drawn=list(s.drawn))
            if card == "stop":
                break
            s.drawn.remove(card)
            if s.options["mechanic_fills_slots"]:
                self._place_in_engine_control(card, player)
            else:
                s.engine_discard.append(card)
            self._fly(card, player)  # The Mechanic ignores orbital defences
            plays += 1
        s.engine_discard.extend(s.drawn)
        s.drawn.clear()
        s.hands[player], s.set_aside = s.set_aside, []
