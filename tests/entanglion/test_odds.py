"""The odds module against enumeration through the real engine.

For an action, every world the players cannot tell apart is played on a copy of the
game: each place the PROBE may have among the unseen engine cards (until the first
reshuffle set-up's bottom place is known to all), each place a reshuffle during the
action may put it, and each face of every die (the copy rolls by hand, so every roll
is a prompt the enumeration answers with each face in turn). A Magnetic Shielding
prompt takes whichever answer gives the better result, a Quantum Tunnel prompt rolls.
The chances of the outcomes must equal the module's, exactly (fractions).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from companion.games.entanglion import Entanglion
from companion.games.entanglion import board
from companion.games.entanglion import engine as engine_module
from companion.games.entanglion import odds
from companion.scenario import run

from helpers import M, R, at, game, play

CHECK_OF = {"navigate": "orbital defence", "retrieve": "ground defence"}
WIN = {"orbital defence": "evaded", "ground defence": "retrieved", "probe": "no effect"}


class NeedShuffle(Exception):
    def __init__(self, size: int):
        self.size = size


class Shuffles:
    """Replaces the engine's shuffle: a pile holding the PROBE gets it at the place the
    enumeration picked (the rest of the order does not matter to any check)."""

    def __init__(self, real: Any) -> None:
        self.real = real  # used outside an enumeration
        self.active = False
        self.picks: list[int] = []
        self.used = 0

    def __call__(self, state: int, items: list[Any]) -> int:
        if not self.active:
            return self.real(state, items)
        if "PROBE" in items:
            if self.used == len(self.picks):
                raise NeedShuffle(len(items))
            items.remove("PROBE")
            items.insert(self.picks[self.used], "PROBE")
            self.used += 1
        return state


@pytest.fixture
def shuffles(monkeypatch):
    s = Shuffles(engine_module.shuffle)
    monkeypatch.setattr(engine_module, "shuffle", s)
    return s


def by_hand(g: Entanglion) -> Entanglion:
    """A copy that asks for every die (the enumeration answers each face)."""
    c = g.copy()
    c.state.options = {**c.state.options, "dice": "manual"}
    if c._inflight is not None:  # a prompt re-runs its input from this base state
        c._inflight[0].options = c.state.options
    else:
        c.log = []  # the engine never reads its past log; copies stay cheap
    return c


REACH = 5  # an orbital check follows at most 3 replacement draws and one for a PROBE


def worlds(g: Entanglion) -> list[tuple[Entanglion, Fraction]]:
    """The stacks the players cannot tell apart, each with its chance. A PROBE deeper
    than any draw of one navigation reaches is the same world wherever it is, so those
    places are played once (at the bottom) with their summed chance."""
    s = g.state
    shuffled = any(e["type"] == "reshuffle" and e["deck"] == "engine" for e in g.log)
    n = len(s.engine_stack)
    if "PROBE" not in s.engine_stack or not shuffled:
        return [(by_hand(g), Fraction(1))]
    out = []
    for i in [*range(min(n, REACH)), *([n - 1] if n > REACH else [])]:
        c = by_hand(g)
        stack = c.state.engine_stack
        j = stack.index("PROBE")
        stack[i], stack[j] = stack[j], stack[i]
        out.append((c, Fraction(1 if i < REACH else n - REACH, n)))
    return out


def outcome(g: Entanglion, start: int, purpose: str) -> str | None:
    for e in g.log[start:]:
        if e["type"] == "roll" and e["purpose"] == purpose and e["result"] is not None:
            return e["result"]
    return "lost" if g.status == "lost" else None


def enumerate_inputs(g: Entanglion, inputs: list[dict[str, Any]], purpose: str,
                     shuffles: Shuffles) -> dict[str | None, Fraction]:
    """Outcome chances of pushing ``inputs`` then answering every prompt, over all worlds."""
    total: dict[str | None, Fraction] = {}
    shuffles.active = True
    try:
        for world, weight in worlds(g):
            for key, p in _explore(world, inputs, [], purpose, shuffles).items():
                total[key] = total.get(key, Fraction(0)) + weight * p
    finally:
        shuffles.active = False
    return total


def _explore(base: Entanglion, inputs: list[dict[str, Any]], picks: list[int], purpose: str,
             shuffles: Shuffles) -> dict[str | None, Fraction]:
    g = base.copy()
    g.state.options = base.state.options
    if g._inflight is not None:
        g._inflight[0].options = base.state.options
    start = len(g.log)
    shuffles.picks = picks
    try:
        for act in inputs:
            shuffles.used = 0
            g.push(act)
    except NeedShuffle as need:
        out: dict[str | None, Fraction] = {}
        for i in range(need.size):
            for key, p in _explore(base, inputs, picks + [i], purpose, shuffles).items():
                out[key] = out.get(key, Fraction(0)) + p / need.size
        return out
    decided = outcome(g, start, purpose)
    prompt = g.pending
    if decided is not None or prompt is None or prompt["kind"] not in (
            "roll", "magnetic_shielding", "quantum_tunnel"):
        return {decided: Fraction(1)}
    player = prompt["player"]
    if prompt["kind"] == "quantum_tunnel":
        return _explore(base, inputs + [{"player": player, "do": "choose", "value": "roll"}],
                        picks, purpose, shuffles)
    if prompt["kind"] == "magnetic_shielding":
        best = None
        for value in ("keep", "reroll"):
            dist = _explore(base, inputs + [{"player": player, "do": "choose", "value": value}],
                            picks, purpose, shuffles)
            if best is None or dist.get(WIN[purpose], 0) > best.get(WIN[purpose], 0):
                best = dist
        return best
    out = {}
    faces = prompt["options"]
    for face in faces:
        dist = _explore(base, inputs + [{"player": player, "do": "choose", "value": face}],
                        picks, purpose, shuffles)
        for key, p in dist.items():
            out[key] = out.get(key, Fraction(0)) + p / len(faces)
    return out


def check_action(g: Entanglion, act: dict[str, Any], shuffles: Shuffles) -> None:
    o = odds.action_odds(g, act)
    purpose = CHECK_OF.get(act["do"])
    if purpose is None:
        assert o is None or o.chance is None, (act, o)
        return
    got = enumerate_inputs(g, [act], purpose, shuffles)
    if o is None:  # no check on this move (a PROBE drawn may still lose the game)
        assert set(got) <= {None, "lost"}, (act, got)
        return
    want = {k: v for k, v in o.outcomes.items() if v}
    assert {k: v for k, v in got.items() if v} == want, (act, got, want)
    assert o.chance == got.get(WIN[purpose], 0)


def check_position(g: Entanglion, shuffles: Shuffles) -> None:
    for act in g.legal_actions():
        if act["do"] != "choose":
            check_action(g, act, shuffles)


# ------------------------------------------------------------------ chosen positions


def test_retrieve_needs_more_than_the_track_value():
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6)
    o = odds.action_odds(g, {"player": M, "do": "retrieve"})
    assert (o.beat, o.need, o.chance) == (4, 5, Fraction(4, 8))
    assert o.outcomes == {"retrieved": Fraction(1, 2), "detected": Fraction(1, 2)}


@pytest.mark.parametrize("comps, need, chance", [
    (["quantum_error_correction"], 4, Fraction(5, 8)),
    (["control_infrastructure"], 6, Fraction(3, 8)),
    (["magnetic_shielding"], 5, Fraction(3, 4)),  # 1 - (1/2)^2
    (["quantum_error_correction", "magnetic_shielding"], 4, Fraction(55, 64)),
])
def test_modifiers_and_shielding(shuffles, comps, need, chance):
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             ship_components={M: comps})
    o = odds.action_odds(g, {"player": M, "do": "retrieve"})
    assert (o.need, o.chance) == (need, chance)
    check_position(g, shuffles)


def test_sure_and_hopeless_rolls(shuffles):
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=1,
             ship_components={M: ["quantum_error_correction"]})
    o = odds.action_odds(g, {"player": M, "do": "retrieve"})
    assert (o.need, o.chance) == (1, 1)
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=11,
             ship_components={M: ["control_infrastructure"]})
    o = odds.action_odds(g, {"player": M, "do": "retrieve"})
    assert (o.beat, o.need, o.chance) == (7, 9, 0)
    check_position(g, shuffles)


def test_orbital_check_only_on_arrival_at_a_defended_planet(shuffles):
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "SWAP"], R: ["H", "H", "H"]},
             detection=4)
    assert odds.action_odds(g, {"player": M, "do": "navigate", "card": "H"}).chance == \
        Fraction(5, 8)
    assert odds.action_odds(g, {"player": M, "do": "navigate", "card": "SWAP"}) is None
    check_position(g, shuffles)


def test_quantum_programming_means_no_roll(shuffles):
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "SWAP"], R: ["H", "H", "H"]},
             components={"OMEGA_TWO": None, "PHI_PLUS": "quantum_gates"},
             ship_components={R: ["quantum_programming"]}, first=R)
    s = g.state
    moves = [a for a in g.legal_actions() if a["do"] == "navigate"]
    for act in moves:
        dest = board.navigate(act["card"], R, s.pos, False)
        free = s.planet_components[dest[0]] is None
        assert (odds.action_odds(g, act) is None) == (free or dest == s.pos), act
    assert any(s.planet_components[board.navigate(a["card"], R, s.pos, False)[0]] is None
               for a in moves)
    check_position(g, shuffles)


def test_a_known_probe_drawn_first_raises_the_value_to_beat(shuffles):
    """PROBE on top (set there, so everyone knows): its roll may raise space 5 (beat 3)
    to 6 (beat 4) before the orbital check."""
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "SWAP"], R: ["H", "H", "H"]},
             stack=["PROBE", "X"], detection=5)
    o = odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"})
    assert o.probe == Fraction(3, 8)  # faces 1-3 detect
    assert o.chance == Fraction(5, 8) * Fraction(5, 8) + Fraction(3, 8) * Fraction(4, 8)
    check_position(g, shuffles)


def test_a_probe_reaching_the_x_loses_before_the_check(shuffles):
    g = game(ships=at("PHI_PLUS"), hands={M: ["X", "H", "SWAP"], R: ["H", "H", "H"]},
             stack=["PROBE", "X"], detection=11)
    o = odds.action_odds(g, {"player": M, "do": "navigate", "card": "X"})
    assert o.outcomes["lost"] == Fraction(3, 8)
    check_position(g, shuffles)


HANDS = {M: ["X", "H", "SWAP"], R: ["H", "H", "H"]}


def exchange_until(g: Entanglion, done) -> None:
    while not done(g):
        p = g.awaiting()
        play(g, "exchange", g.state.hands[p][0], player=p)


def test_an_unknown_probe_is_averaged_over_the_unseen_cards(shuffles):
    """After a reshuffle the PROBE may be anywhere in the stack, whatever the engine's
    own order: the odds are the same for every order."""
    g = game(ships=at("OMEGA_ONE"), hands=HANDS, detection=5)
    exchange_until(g, lambda g: any(e["type"] == "reshuffle" for e in g.log)
                   and "PROBE" in g.state.engine_stack and g.awaiting() == M)
    base = {str(a): odds.action_odds(g, a) for a in g.legal_actions()}
    for place in range(len(g.state.engine_stack)):
        c = g.copy()
        stack = c.state.engine_stack
        j = stack.index("PROBE")
        stack[place], stack[j] = stack[j], stack[place]
        assert {str(a): odds.action_odds(c, a) for a in c.legal_actions()} == base
    assert any(o is not None and o.probe for o in base.values())
    check_position(g, shuffles)


def test_a_reshuffle_during_the_refill_is_averaged_too(shuffles):
    """The PROBE is the last card: drawn, discarded, the discard is reshuffled and the
    next draw may be the PROBE again."""
    n = len(game(ships=at("PHI_PLUS"), hands=HANDS).state.engine_stack)
    g = game(ships=at("PHI_PLUS"), hands=HANDS, detection=3, first=M if n % 2 else R)
    exchange_until(g, lambda g: len(g.state.engine_stack) == 1)
    assert g.state.engine_stack == ["PROBE"] and g.awaiting() == M
    moves = [a for a in g.legal_actions() if a["do"] == "navigate"]
    probes = [o.probe for o in odds.moves(g, moves) if o is not None]
    assert probes and all(p > 0 for p in probes)  # the PROBE is surely the next card
    check_position(g, shuffles)


def test_tunnel_and_shielding_prompts(shuffles):
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             held={M: ["quantum_tunnel"]}, ship_components={M: ["magnetic_shielding"]},
             dice=[2])
    o = odds.action_odds(g, {"player": M, "do": "retrieve"})
    assert o.tunnel and o.reroll and o.chance == Fraction(3, 4)
    play(g, "retrieve")
    assert g.pending["kind"] == "quantum_tunnel"
    assert odds.answer_odds(g, "use") is None
    assert odds.answer_odds(g, "roll") == Fraction(3, 4)
    g.push({"do": "choose", "value": "roll"})
    assert g.pending["kind"] == "magnetic_shielding" and g.pending["raw"] == 2
    assert odds.answer_odds(g, "keep") == 0
    assert odds.answer_odds(g, "reroll") == Fraction(1, 2)
    assert odds.prompt_odds(g).need == 5


def test_a_pending_defence_prompt_has_the_odds_of_its_roll_as_it_stands():
    """Detection 6: the value to beat is 4, so a d8 needs 5 or more (1 in 2), and
    Magnetic Shielding's re-roll of a failure makes it 3 in 4. A Quantum Tunnel prompt
    belongs to that ground defence with the re-roll still to come; once the roll failed
    and the Shielding asks, only the re-roll is left (1 in 2); a manual die's prompt is
    the same check. No prompt, or one no die decides, has no odds."""
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             held={M: ["quantum_tunnel"]}, ship_components={M: ["magnetic_shielding"]},
             dice=[2])
    assert odds.prompt_odds(g) is None
    play(g, "retrieve")

    def told(o):
        return (o.purpose, o.player, o.chance, o.beat, o.need, o.reroll, o.tunnel)

    assert told(odds.prompt_odds(g)) == (
        "ground defence", M, Fraction(3, 4), 4, 5, True, True)
    g.push({"do": "choose", "value": "roll"})
    assert told(odds.prompt_odds(g)) == (
        "ground defence", M, Fraction(1, 2), 4, 5, False, True)
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             ship_components={M: ["magnetic_shielding"]}, options={"dice": "manual"})
    play(g, "retrieve")
    assert told(odds.prompt_odds(g)) == (
        "ground defence", M, Fraction(3, 4), 4, 5, True, False)
    g.push({"do": "choose", "value": 4})
    g.push({"do": "choose", "value": "reroll"})
    assert told(odds.prompt_odds(g)) == (
        "ground defence", M, Fraction(1, 2), 4, 5, False, False)
    g = game(ships=at("PSI_PLUS"), components={"PSI_PLUS": "dilution_refrigerator"},
             hands={M: ["X", "H", "CNOT"], R: ["H", "H", "H"]}, dice=[8])
    play(g, "retrieve")
    assert g.pending["kind"] == "discard" and odds.prompt_odds(g) is None


def test_manual_dice_answers(shuffles):
    g = game(ships=at("OMEGA_ONE"), components={"OMEGA_ONE": "quantum_gates"}, detection=6,
             ship_components={M: ["magnetic_shielding"]}, options={"dice": "manual"})
    play(g, "retrieve")
    assert g.pending["kind"] == "roll"
    assert [odds.answer_odds(g, v) for v in (4, 5)] == [Fraction(1, 2), 1]
    g.push({"do": "choose", "value": 4})
    g.push({"do": "choose", "value": "reroll"})
    assert g.pending["kind"] == "roll" and g.pending["reroll"] is True
    assert [odds.answer_odds(g, v) for v in (4, 5)] == [0, 1]


def test_heisenberg_spreads_over_the_ring():
    g = game(ships=at("PHI_PLUS"), held={M: ["heisenberg"]})
    o = odds.action_odds(g, {"player": M, "do": "event", "card": "heisenberg"})
    assert o.chance is None and sum(o.outcomes.values()) == 1
    assert set(o.outcomes.values()) == {Fraction(1, 8)}


# ------------------------------------------------------------------ random positions


@pytest.mark.parametrize("seed", range(6))
def test_odds_equal_enumeration_in_random_games(shuffles, seed):
    """Random games with random rulings; every few inputs, every legal action's odds
    are checked against the enumeration."""
    rnd = random.Random(seed)
    options = None
    if seed % 2:
        from companion.games.entanglion.options import RULINGS

        options = {name: rnd.choice(c.allowed) for name, c in RULINGS.items()
                   if name not in ("dice", "deck")}
    g = Entanglion(seed, options)
    checked = 0
    for step in range(400):
        if g.status != "playing":
            break
        legal = g.legal_actions()
        if g.pending is None and step % 11 == 0:
            check_position(g, shuffles)
            checked += 1
        g.push(rnd.choice(legal))
    assert checked


def test_scenario_output_lists_legal_inputs_with_odds():
    status, report = run({"setup": {"first_player": "mercurial",
                                    "ships": {M: "OMEGA_ONE", R: "OMEGA_ONE"},
                                    "components": {"OMEGA_ONE": "quantum_gates"},
                                    "detection_space": 6,
                                    "hands": {M: ["X", "H", "H"], R: ["H", "H", "H"]}}})
    assert status == 0
    legal = {str(e["action"]): e["odds"] for e in report["legal"]}
    assert legal[str({"player": M, "do": "retrieve"})] == 0.5
    assert legal[str({"player": M, "do": "exchange", "card": "X"})] is None
    assert all(set(e) == {"action", "odds"} for e in report["legal"])


def test_a_draw_that_may_bring_the_probe_says_its_chance():
    """An exchange (or any input that draws) may draw the PROBE: the chance is worked out
    from what the players know of where it lies, and the menu item says it."""
    from companion.games.entanglion import ui

    g = Entanglion(3)
    s = g.state
    p = s.turn_player
    card = s.hands[p][0]
    exchange = {"player": p, "do": "exchange", "card": card}
    assert odds.probe_drawn(g, exchange) == 0  # set-up put it at the bottom: not next
    s.engine_stack = ["PROBE"] + [c for c in s.engine_stack if c != "PROBE"]
    assert odds.probe_drawn(g, exchange) == 1  # (where set-up put it, for this test: on top)
    assert "PROBE 100%" in next(i.label for i in ui.action_menu(g)["items"]
                                if i.action == exchange)
    g.log.append({"type": "reshuffle", "deck": "engine"})  # now it may be anywhere
    n = len(s.engine_stack)
    assert odds.probe_drawn(g, exchange) == Fraction(1, n)
    label = next(i.label for i in ui.action_menu(g)["items"] if i.action == exchange)
    assert label.endswith(f"{round(100 / n)}%") and "P" in label
    s.engine_stack.remove("PROBE")
    assert odds.probe_drawn(g, exchange) == 0
    assert odds.probe_drawn(g, {"player": p, "do": "retrieve"}) == 0
