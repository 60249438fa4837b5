"""The odds of every roll, worked out from what the players can know.

Pure functions over a game. For an action or a prompt's answer they give the exact
chance (a :class:`~fractions.Fraction`) of each outcome a die decides, with every
modifier applied: the orbital check on arriving at a defended Entanglion planet, the
ground defence of a retrieval, a PROBE drawn on the way, a Magnetic Shielding re-roll
(counted as the players would use it: only when the first roll failed) and the skip
Quantum Tunnel offers.

Odds never depend on hidden information. The engine's state knows the order of the
engine stack and the seed of the dice; the players know only which cards are unseen
and, until the stack is first reshuffled, that the PROBE lies at its bottom (set-up
puts it there). So where a replacement card drawn before an orbital check may be the
PROBE, whose roll may raise the detection rate and so the value to beat, the chance
is averaged over every place the PROBE can be for all the players know.

Everything this module needs from the engine is read by :class:`_Facts`, so a faster
engine with another state layout only has to feed that one class.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from typing import Any

from ...frozen import frozen
from . import board
from .board import GALAXY, PROBE, RING, other
from .engine import ENGINE_SLOTS
from .cards import (
    CONTROL_INFRASTRUCTURE, DILUTION_REFRIGERATOR, HAND_SIZE, HEISENBERG, LAST_SPACE,
    MAGNETIC_SHIELDING, QUANTUM_ERROR_CORRECTION, QUANTUM_GATES, QUANTUM_PROGRAMMING,
    QUANTUM_TUNNEL, THE_MECHANIC,
    track_value,
)

FACES = range(1, 9)  # the Entanglion die, a d8
PROBE_BEAT = 3  # a PROBE detects unless the modified roll is 4 or more
CHECKS = ("orbital defence", "ground defence", "probe")  # rolls that succeed or fail
FAVOUR = {"orbital defence": "evaded", "ground defence": "retrieved", "probe": "no effect"}
LOST = "lost"  # a PROBE reached the X before the check was rolled


@frozen
class Odds:
    """The die's say in one action or answer.

    ``chance`` is the probability that the die decides in the players' favour (the
    ship evades, the component is retrieved, a PROBE has no effect), re-rolling a
    failed roll when Magnetic Shielding allows; None when no die decides. ``need`` is
    the lowest face that wins against the value to beat as it stands (1: any face, 9:
    none). ``probe`` is the chance that a PROBE drawn first raises the value to beat.
    """

    purpose: str
    player: str
    chance: Fraction | None
    outcomes: dict[str, Fraction]
    beat: int | None = None
    modifier: int = 0
    need: int | None = None
    reroll: bool = False  # Magnetic Shielding: a failed roll may be rolled again
    tunnel: bool = False  # Quantum Tunnel could skip the roll instead
    probe: Fraction = Fraction(0)
    extra: dict[str, Any] = field(default_factory=dict)


class _Facts:
    """The public facts of a game the odds are made of, read in one place."""

    def __init__(self, g: Any):
        s = g.state
        self.options = s.options
        self.detection = s.detection
        self.pos = s.pos
        self.hands = s.hands
        self.held_events = s.held_events
        self.ship_components = s.ship_components
        self.planet_components = s.planet_components
        self.retrieved_from = s.retrieved_from
        self.stack = len(s.engine_stack)
        self.discard = len(s.engine_discard)
        self.control_full = len(s.engine_control) >= ENGINE_SLOTS
        self.probe_in_discard = PROBE in s.engine_discard
        # Until the first reshuffle the PROBE is where set-up put it (the bottom), which
        # every player knows; after one it may be anywhere among the unseen cards.
        self.probe_at: int | str | None = None  # index, "any", or None: not in the stack
        if PROBE in s.engine_stack:
            shuffled = any(e["type"] == "reshuffle" and e["deck"] == "engine" for e in g.log)
            self.probe_at = "any" if shuffled else s.engine_stack.index(PROBE)

    def has(self, player: str, component: str) -> bool:
        sc = self.ship_components
        return component in sc[player] or (
            self.options["component_scope"] == "team" and component in sc[other(player)])

    def modifier(self, player: str) -> int:
        return (self.has(player, QUANTUM_ERROR_CORRECTION)
                - self.has(player, CONTROL_INFRASTRUCTURE))

    def limit(self, player: str) -> int:
        return HAND_SIZE - 1 if self.has(player, DILUTION_REFRIGERATOR) else HAND_SIZE

    def tunnel(self, player: str) -> bool:
        return QUANTUM_TUNNEL in self.held_events[player]

    def programming_covers(self, player: str, planet: str, by_entry: bool) -> bool:
        o = self.options
        if not self.has(player, QUANTUM_PROGRAMMING):
            return False
        if by_entry and not o["quantum_programming_on_cnot_entry"]:
            return False
        if self.planet_components[planet] is not None:
            return False
        return o["quantum_programming"] == "no_component" or planet in self.retrieved_from


# ------------------------------------------------------------------ single rolls


def need(beat: int, modifier: int) -> int:
    """The lowest d8 face whose modified value is greater than ``beat`` (1..9)."""
    return min(9, max(1, beat - modifier + 1))


def single(beat: int, modifier: int) -> Fraction:
    """The chance that one d8 roll, modified, is greater than ``beat``."""
    return Fraction(sum(1 for f in FACES if f + modifier > beat), len(FACES))


def with_reroll(p: Fraction, reroll: bool) -> Fraction:
    """Success with a second try after a failure (Magnetic Shielding), if allowed."""
    return 1 - (1 - p) ** 2 if reroll else p


def _beat(f: _Facts, purpose: str, space: int | None = None) -> int:
    return PROBE_BEAT if purpose == "probe" else track_value(space or f.detection)


# ------------------------------------------------------------------ actions


def action_odds(g: Any, act: dict[str, Any]) -> Odds | None:
    """The odds of a legal action (not a ``choose``); None when no die decides it."""
    return moves(g, [act])[0]


def moves(g: Any, acts: list[dict[str, Any]]) -> list[Odds | None]:
    """:func:`action_odds` of several actions of one position (its facts read once)."""
    f = _Facts(g)
    return [_action(f, act.get("player") or g.state.turn_player, act) for act in acts]


def _action(f: _Facts, p: str, act: dict[str, Any]) -> Odds | None:
    do = act["do"]
    if do == "retrieve":
        return _check(f, p, "ground defence", {f.detection: Fraction(1)})
    if do == "navigate":
        return _navigate(f, p, act["card"].upper())
    if do == "event" and act["card"] == HEISENBERG:
        return _heisenberg(f, p)
    return None


def _navigate(f: _Facts, player: str, card: str) -> Odds | None:
    before = f.pos
    after = board.navigate(card, player, before, f.options["cnot_phase_kickback"])
    planet = after[0]
    if planet == before[0] or after[0] != after[1] or GALAXY[planet] != "entanglion":
        return None  # no orbital check on this move
    if f.programming_covers(player, planet, by_entry=GALAXY[before[0]] != "entanglion"):
        return None
    # The replacement card is drawn before the check: a PROBE among the draws rolls first.
    draws = max(0, f.limit(player) - (len(f.hands[player]) - 1))
    fails = 1 - single(PROBE_BEAT, f.modifier(player))
    detects = fails ** 2 if f.has(player, MAGNETIC_SHIELDING) else fails
    # The card played fills a slot, or (slots full, ruling Q5) goes to the discard.
    spaces = _refill(detects, f.stack, f.probe_at, f.discard + f.control_full,
                     f.probe_in_discard, draws, f.detection)
    return _check(f, player, "orbital defence", spaces, planet=planet)


def _refill(detects: Fraction, stack: int, probe_at: int | str | None, discard: int,
            probe_in_discard: bool, draws: int, space: int) -> dict[int | str, Fraction]:
    """The detection space when the draws are done (or LOST), over the unseen order.

    ``probe_at`` is the PROBE's index in the stack if the players know it, "any" if it
    is equally likely anywhere in the stack, None if it is not in the stack. A PROBE
    drawn is discarded and rolled, and one more card is drawn in its place; an empty
    stack is rebuilt from the discard, which is then shuffled (so "any").
    """
    if draws == 0:
        return {space: Fraction(1)}
    if stack == 0:
        if discard == 0:
            return {space: Fraction(1)}  # no engine cards left: the draw gives nothing
        return _refill(detects, discard, "any" if probe_in_discard else None, 0, False,
                       draws, space)
    if probe_at is None:
        top_probe = Fraction(0)
    elif probe_at == "any":
        top_probe = Fraction(1, stack)
    else:
        top_probe = Fraction(probe_at == 0)
    out: dict[int | str, Fraction] = {}

    def add(dist: dict[int | str, Fraction], weight: Fraction) -> None:
        for key, p in dist.items():
            out[key] = out.get(key, Fraction(0)) + weight * p

    if top_probe < 1:
        rest = probe_at if probe_at in (None, "any") else probe_at - 1  # type: ignore[operator]
        add(_refill(detects, stack - 1, rest, discard, probe_in_discard, draws - 1, space),
            1 - top_probe)
    if top_probe > 0:
        add(_refill(detects, stack - 1, None, discard + 1, True, draws, space),
            top_probe * (1 - detects))
        raised = ({LOST: Fraction(1)} if space + 1 >= LAST_SPACE else
                  _refill(detects, stack - 1, None, discard + 1, True, draws, space + 1))
        add(raised, top_probe * detects)
    return out


def _check(f: _Facts, player: str, purpose: str, spaces: dict[int | str, Fraction],
           reroll: bool | None = None, **extra: Any) -> Odds:
    """A check rolled at whichever detection space ``spaces`` gives; ``reroll``
    (default: whether the player has Magnetic Shielding) allows a second roll."""
    modifier = f.modifier(player)
    if reroll is None:
        reroll = f.has(player, MAGNETIC_SHIELDING)
    win = FAVOUR[purpose]
    outcomes = {win: Fraction(0), "detected": Fraction(0)}
    for space, p in spaces.items():
        if space == LOST:
            outcomes[LOST] = p
            continue
        ok = with_reroll(single(_beat(f, purpose, space), modifier), reroll)  # type: ignore[arg-type]
        outcomes[win] += p * ok
        outcomes["detected"] += p * (1 - ok)
    beat = _beat(f, purpose)
    tunnel = purpose != "probe" and f.tunnel(player)
    return Odds(purpose, player, outcomes[win], outcomes, beat, modifier, need(beat, modifier),
                reroll, tunnel, 1 - spaces.get(f.detection, Fraction(0)), extra)


def _heisenberg(f: _Facts, player: str) -> Odds:
    """Heisenberg's die picks the planet both ships jump to; nothing to win or lose."""
    modifier = f.modifier(player) if f.options["modifiers_on_all_rolls"] else 0
    outcomes: dict[str, Fraction] = {}
    for face in FACES:
        planet = RING[(face + modifier) % len(RING)]
        outcomes[planet] = outcomes.get(planet, Fraction(0)) + Fraction(1, len(FACES))
    return Odds(HEISENBERG, player, None, outcomes, modifier=modifier,
                reroll=f.has(player, MAGNETIC_SHIELDING))


def probe_drawn(g: Any, act: dict[str, Any]) -> Fraction:
    """The chance that the cards ``act`` draws (a navigation's replacement, an
    exchange's one card or Quantum Gates' two, The Mechanic's three) include the PROBE,
    from what the players know of where it is; 0 for an input that draws nothing."""
    f = _Facts(g)
    player = act.get("player") or g.state.turn_player
    discard = f.discard
    if act["do"] == "exchange":
        draws = 2 if f.has(player, QUANTUM_GATES) else 1
        discard += 1  # the card given up goes to the discard first
    elif act["do"] == "navigate":
        draws = max(0, f.limit(player) - (len(f.hands[player]) - 1))
        discard += f.control_full
    elif act["do"] == "event" and act["card"] == THE_MECHANIC:
        draws = 3  # the three cards it plays from (their replacements come later)
    else:
        return Fraction(0)
    # A PROBE drawn always "detects" here: the space moved is the PROBE drawn.
    spaces = _refill(Fraction(1), f.stack, f.probe_at, discard, f.probe_in_discard, draws,
                     f.detection)
    return 1 - spaces.get(f.detection, Fraction(0))


# ------------------------------------------------------------------ prompts


def answer_odds(g: Any, value: Any) -> Fraction | None:
    """The chance that answering the pending prompt with ``value`` ends in the players'
    favour as far as a die decides it; None when no die decides (or nothing is to win)."""
    prompt = g.pending
    if prompt is None:
        return None
    f = _Facts(g)
    player, kind = prompt["player"], prompt["kind"]
    if kind == "quantum_tunnel":
        if value == "use":
            return None  # no roll at all: the defence is skipped
        if value == "accept":
            return Fraction(0)  # the roll already failed
        purpose = f"{prompt['defence']} defence"
        return with_reroll(single(_beat(f, purpose), f.modifier(player)),
                           f.has(player, MAGNETIC_SHIELDING))
    purpose = prompt.get("purpose")
    if purpose not in CHECKS or kind not in ("magnetic_shielding", "roll") \
            or prompt.get("die", "d8") != "d8":
        return None
    beat, modifier = _beat(f, purpose), f.modifier(player)
    if kind == "magnetic_shielding":
        return single(beat, modifier) if value == "reroll" else \
            Fraction(prompt["raw"] + modifier > beat)
    # A die entered by hand: a winning face wins; a losing one may still be re-rolled.
    if value + modifier > beat:
        return Fraction(1)
    if f.has(player, MAGNETIC_SHIELDING) and not prompt.get("reroll"):
        return single(beat, modifier)
    return Fraction(0)


def prompt_odds(g: Any) -> Odds | None:
    """The check a pending Shielding, Tunnel or manual-die prompt belongs to, as it
    stands (``reroll``: whether a re-roll is still to come); None for other prompts."""
    prompt = g.pending
    if prompt is None:
        return None
    kind = prompt["kind"]
    purpose = f"{prompt['defence']} defence" if kind == "quantum_tunnel" else prompt.get("purpose")
    if kind not in ("quantum_tunnel", "magnetic_shielding", "roll") or purpose not in CHECKS \
            or prompt.get("die", "d8") != "d8":
        return None
    f = _Facts(g)
    player = prompt["player"]
    reroll = kind != "magnetic_shielding" and not prompt.get("reroll") \
        and f.has(player, MAGNETIC_SHIELDING)
    return _check(f, player, purpose, {f.detection: Fraction(1)}, reroll)


# ------------------------------------------------------------------ all of it


def legal(g: Any) -> list[dict[str, Any]]:
    """Every legal input now with its odds: ``{"action": {...}, "odds": P}``, P the
    chance (0-1) that the die decides in the players' favour, or None if none decides."""
    acts = g.legal_actions()
    if g.pending:
        chances = [answer_odds(g, act["value"]) for act in acts]
    else:
        chances = [None if o is None else o.chance for o in moves(g, acts)]
    return [{"action": act, "odds": None if p is None else float(p)}
            for act, p in zip(acts, chances)]
