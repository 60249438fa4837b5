"""Property tests: random complete games under every ruling, invariants on every step.

* ``test_random_games[part]``: ``COMPANION_PROPERTY_GAMES`` complete games (default
  1,000, in parts of ``PART_GAMES`` = 250 so that no test runs over some 10 s and the
  parts spread over the cores; the varied games among them already meet every pair of
  ruling values; with
  ``COMPANION_LONG=1`` the default is 10,000, the full count, in 40 parts). Game
  ``i`` has seed ``i`` and picks uniformly among ``legal_actions()`` with
  ``random.Random(i)`` (prompt answers and, with manual dice, die faces included);
  every 4th game (``i % 4 == 3``) draws a random value for every ruling in
  ``options.RULINGS`` (dice auto/manual, start space 1/2/4, ...).
  After every step of every game: :func:`invariants.check_invariants` (conservation,
  limits, the detection track, prompts, and timing: an empty engine stack is never
  left waiting for a draw) and, through every Navigate input and its prompts,
  :class:`invariants.Navigation` (the replacement card is drawn before any roll of
  the orbital check). Every game ends with a JSON round trip.
  A game longer than ``STEP_LIMIT`` is a finding of its own, reported with its seed
  and length after the part's games have all passed their invariants (it is played
  on, checked, up to ``HANG_LIMIT``, to tell a long game from a hang).
  The expensive checks are sampled, since 10,000 games with all of them take far more
  than the time budget: on 1 game in ``COMPANION_PROPERTY_SAMPLE`` (default 200, chosen
  by a hash of the seed, so default and varied options both come up) a JSON round trip
  after every step, play continued from a deserialised copy taken at a random step,
  pop()/push() at random steps, pop() back to a fresh game and forward again, and
  replay; ``Entanglion.replay`` also runs on 1 game in ``COMPANION_PROPERTY_REPLAY``
  (default 4). Games run on ``COMPANION_PROPERTY_WORKERS`` processes (default: all
  cores; 1 runs them in the pytest process).
* ``test_random_games_long`` (``@pytest.mark.slow``; runs only with ``COMPANION_LONG=1``):
  the same games with every expensive check on every game (about 1 s of CPU a game:
  some 80 minutes for 10,000 games on two cores).
* ``test_hypothesis_games``: hypothesis drives whole games with a list of choice indices
  and random options, so a failure shrinks to a short list (60 games; 200 with
  ``COMPANION_LONG=1``).
* ``test_manual_dice_setup_prompts``: manual-dice set-up rolls are listed as legal actions.
* ``test_bennett_refrigerator_receiver_discards_before_giver_draws``: ruling Q12's order
  from either seat (regression for a bug the random games found).

``pytest -s`` prints the aggregate numbers (outcomes, steps, detection reasons, prompts).
A failing random game writes its inputs to ``$TMPDIR/entanglion-property-<seed>.json``.
``python bench/game_lengths.py`` measures how long these games are (``STEP_LIMIT``).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import tempfile
import time
import zlib
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.entanglion.engine import Entanglion, IllegalAction
from companion.games.entanglion.options import RULINGS

from combos import missing_pairs, random_options
from invariants import DETECTION_REASONS, Navigation, check_invariants

LONG = os.environ.get("COMPANION_LONG") == "1"
DEFAULT_GAMES = 1000  # the bounded run; the pair check below holds from here on
GAMES = int(os.environ.get("COMPANION_PROPERTY_GAMES", "10000" if LONG else str(DEFAULT_GAMES)))
PART_GAMES = 250
PARTS = max(1, -(-GAMES // PART_GAMES))
SAMPLE = max(1, int(os.environ.get("COMPANION_PROPERTY_SAMPLE", "200")))
REPLAY_EVERY = max(1, int(os.environ.get("COMPANION_PROPERTY_REPLAY", "4")))
# Games are independent, so they run on all cores (COMPANION_PROPERTY_WORKERS=1: in-process).
# Under pytest-xdist the suite is already one process per core: forking a pool from a
# worker (which may hold other tests' threads, and so their locks) can deadlock a child.
WORKERS = max(1, int(os.environ.get(
    "COMPANION_PROPERTY_WORKERS", "1" if os.environ.get("PYTEST_XDIST_WORKER") else str(os.cpu_count() or 1))))
# Game length, in inputs. Measured with ``python bench/game_lengths.py`` over seeds
# 0-29,999 (these games): mean 344, 1 in 1,000 over 2,862, longest 4,825 (seed 28747;
# the long ones have varied options: manual dice and a physical deck make every roll
# and draw an input). The tail falls four- to ninefold per 1,000 inputs (1,214 games
# over 1,000, 134 over 2,000, 24 over 3,000, 6 over 4,000); even at the slowest of
# those rates a correct game passes 10,000 about once in 10^7 games. So a game that
# long points at a rule that keeps games from ending (or an endless loop), not at bad
# luck, and a change that lengthens games by a fair margin still fits. It is reported
# apart from invariant failures, with its seed and length.
STEP_LIMIT = 10_000
HANG_LIMIT = 10 * STEP_LIMIT  # a game still going here is stopped and called a hang
HYPOTHESIS_STEPS = 600
UNDO_RATE = 0.05  # chance of an undo/redo check after a step of a sampled game


def game_options(i: int) -> dict[str, Any] | None:
    """Default options, except every 4th game: a random value for every ruling."""
    if i % 4 != 3:
        return None
    return random_options(RULINGS, f"options-{i}")


def sampled(i: int, rate: int, salt: bytes = b"sample") -> bool:
    """1 game in ``rate``, spread over default and varied options alike."""
    return rate == 1 or zlib.crc32(b"%s-%d" % (salt, i)) % rate == 0


def json_round_trip(g: Entanglion) -> dict[str, Any]:
    d = g.to_dict()
    data = json.loads(json.dumps(d))
    back = Entanglion.from_dict(data).to_dict()
    # A tuple or a non-string key in to_dict() would come back changed too.
    assert back == d, "from_dict(json(to_dict())) differs from to_dict()"
    return data


class Stats:
    def __init__(self) -> None:
        self.games = 0
        self.steps = 0
        self.max_steps = 0
        self.outcomes: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()
        self.prompts: Counter[str] = Counter()
        self.expensive = 0
        self.replayed = 0
        self.undos = 0
        self.too_long: list[tuple[int, int, str]] = []  # (seed, steps, status)

    def merge(self, other: "Stats") -> None:
        self.games += other.games
        self.steps += other.steps
        self.max_steps = max(self.max_steps, other.max_steps)
        self.outcomes += other.outcomes
        self.reasons += other.reasons
        self.prompts += other.prompts
        self.expensive += other.expensive
        self.replayed += other.replayed
        self.undos += other.undos
        self.too_long += other.too_long

    def report(self, label: str, seconds: float) -> str:
        return (f"\n[{label}] {self.games} games in {seconds:.1f}s: outcomes "
                f"{dict(self.outcomes)}; mean steps/game {self.steps / max(1, self.games):.1f} "
                f"(max {self.max_steps}); detection reasons {dict(self.reasons)}; prompts "
                f"{dict(self.prompts)}; expensive checks on {self.expensive} games "
                f"({self.undos} undo/redo checks); replayed {self.replayed} games")


def play_game(i: int, *, expensive: bool, replay: bool, stats: Stats | None = None) -> Entanglion:
    """Play game ``i`` to its end, checking invariants after every step."""
    rnd = random.Random(i)  # the moves: the same game whatever is checked
    chk = random.Random(f"checks-{i}")  # when to undo, where to copy
    options = game_options(i)
    g = Entanglion(i, options)
    try:
        return _play(g, i, options, rnd, chk, expensive, replay, stats)
    except AssertionError as exc:
        path = os.path.join(tempfile.gettempdir(), f"entanglion-property-{i}.json")
        with open(path, "w") as f:
            json.dump({"seed": i, "options": options, "inputs": g.inputs}, f)
        raise AssertionError(
            f"game seed={i} options={options}, failed after input {len(g.inputs)}; "
            f"last inputs {json.dumps(g.inputs[-6:])}; all inputs in {path} (repro: "
            f"Entanglion.replay(seed, options, None, (), inputs), or play_game({i}, "
            f"expensive={expensive}, replay={replay}) in this module)\n{exc}") from exc


def _play(g: Entanglion, i: int, options: dict[str, Any] | None, rnd: random.Random,
          chk: random.Random, expensive: bool, replay: bool, stats: Stats | None) -> Entanglion:
    legal = g.legal_actions()
    check_invariants(g, g.state.options["start_space"], g.log, legal)
    fresh = g.to_dict() if expensive else None
    snapshots: list[tuple[str, Any, int]] = []  # per step, for popping back to the start
    copy_at = chk.randrange(0, 400)
    copy: tuple[Entanglion, int] | None = None
    before = None
    nav: Navigation | None = None
    steps = 0
    while g.status != "won" and g.status != "lost" and steps < HANG_LIMIT:
        assert legal, f"nothing to do in status {g.status}, pending {g.pending}"
        act = rnd.choice(legal)
        if act["do"] == "navigate":
            nav = Navigation(g, act)
        if expensive:
            snapshots.append((json.dumps(g.state.to_dict()), g.pending, len(g.log)))
            if steps == copy_at or copy is None:
                copy = (Entanglion.from_dict(json.loads(json.dumps(g.to_dict()))),
                        len(g.inputs))
            before = g.to_dict()
        prev_detection = g.state.detection
        log_len = len(g.log)
        tail = g.log[-8:]
        new = g.push(act)
        steps += 1
        assert new == g.log[log_len:], "push() did not return the step's new log entries"
        assert g.log[log_len - len(tail):log_len] == tail, "push() rewrote earlier log entries"
        legal = g.legal_actions()
        check_invariants(g, prev_detection, new, legal)
        if nav is not None and not nav.check(g):
            nav = None  # the navigate input and its prompts are done
        if stats is not None:
            for e in new:
                if e["type"] == "detection":
                    stats.reasons[e["reason"]] += 1
            if g.pending is not None:
                stats.prompts[g.pending["kind"]] += 1
        if expensive:
            json_round_trip(g)
            _check_rejections(g, legal)
            if chk.random() < UNDO_RATE:
                _check_undo(g, before)
                if stats is not None:
                    stats.undos += 1
    # Every game: the end state survives JSON (a hang stopped at HANG_LIMIT too).
    json_round_trip(g)
    if expensive:
        assert copy is not None
        cp, k = copy
        for act in g.inputs[k:]:
            cp.push(act)
        assert cp.to_dict() == g.to_dict(), (
            f"play continued from a deserialised copy (after input {k}) differs")
    if replay:
        _check_replay(g, i, options)
    if expensive:
        _check_pop_to_start(g, i, options, snapshots, fresh)
    if stats is not None:
        if steps > STEP_LIMIT:
            stats.too_long.append((i, steps, g.status))
        stats.games += 1
        stats.steps += steps
        stats.max_steps = max(stats.max_steps, steps)
        stats.outcomes[g.status] += 1
        stats.expensive += expensive
        stats.replayed += replay
    return g


def _check_undo(g: Entanglion, before: dict[str, Any] | None) -> None:
    after = g.to_dict()
    last = g.inputs[-1]
    undone = g.pop()
    assert undone == last, f"pop() returned {undone}, the last input was {last}"
    assert g.to_dict() == before, "pop() did not restore the game before the last input"
    g.push(undone)
    assert g.to_dict() == after, "pop() then push() of the same input is not identical"


def _check_rejections(g: Entanglion, legal: list[dict[str, Any]]) -> None:
    """check() accepts every legal action; illegal inputs raise and change nothing."""
    for act in legal:
        assert g.check(act) is None, f"legal action {act} rejected: {g.check(act)}"
    if g.status != "playing" and g.status != "setup":
        return
    d = g.to_dict()
    waiting = g.awaiting()
    wrong = "rubicon" if waiting == "mercurial" else "mercurial"
    for bad in ({"player": wrong, "do": "pass"},
                {"player": waiting, "do": "choose", "value": "not an option"},
                {"player": waiting, "do": "navigate", "card": "PROBE"}):
        assert g.check(bad) is not None, f"illegal input {bad} accepted by check()"
        with pytest.raises(IllegalAction):
            g.push(bad)
        assert g.to_dict() == d, f"rejected input {bad} changed the game"


def _check_replay(g: Entanglion, i: int, options: dict[str, Any] | None) -> None:
    r = Entanglion.replay(i, options, None, (), g.inputs)
    assert r.to_dict()["state"] == g.to_dict()["state"], "replay ends in another state"
    assert r.log == g.log, "replay writes another log"
    assert r.status == g.status


def _check_pop_to_start(g: Entanglion, i: int, options: dict[str, Any] | None,
                        snapshots: list[tuple[str, Any, int]], fresh: dict[str, Any] | None,
                        ) -> None:
    end = g.to_dict()
    inputs = list(g.inputs)
    for state, pending, log_len in reversed(snapshots):
        g.pop()
        assert json.dumps(g.state.to_dict()) == state, (
            f"pop() back to input {len(g.inputs)} restores another state")
        assert g.pending == pending and len(g.log) == log_len
    with pytest.raises(IllegalAction):
        g.pop()
    assert g.to_dict() == fresh == Entanglion(i, options).to_dict(), (
        "popping every input does not give a fresh game")
    for act in inputs:  # and forward again on the same object
        g.push(act)
    assert g.to_dict() == end, "re-pushing the inputs after popping them all differs"


# ---------------------------------------------------------------------------- tests


def _run_chunk(args: tuple[int, int, int, int]) -> Stats:
    lo, hi, sample, replay_every = args
    stats = Stats()
    for i in range(lo, hi):
        hit = sampled(i, sample)
        play_game(i, expensive=hit, replay=hit or sampled(i, replay_every, b"replay"),
                  stats=stats)
    return stats


def _run_games(label: str, first: int, last: int, sample: int, replay_every: int) -> Stats:
    """Play games first..last-1, on WORKERS processes (games are independent)."""
    t0 = time.perf_counter()
    chunk = 50
    jobs = [(lo, min(lo + chunk, last), sample, replay_every) for lo in range(first, last, chunk)]
    if WORKERS > 1 and len(jobs) > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(WORKERS) as pool:
            parts = list(pool.imap_unordered(_run_chunk, jobs))
    else:
        parts = [_run_chunk(job) for job in jobs]
    stats = Stats()
    for part in parts:
        stats.merge(part)
    print(stats.report(label, time.perf_counter() - t0))
    games = last - first
    assert stats.games == games
    assert stats.outcomes["lost"] > 0 or games < 20, f"no game lost: {dict(stats.outcomes)}"
    if games >= PART_GAMES:
        # Random play loses; enough games meet every way the detection rate moves.
        missing = DETECTION_REASONS - set(stats.reasons)
        assert not missing, f"detection reasons never seen in {games} games: {missing}"
    elif games >= 100:
        assert len(stats.reasons) >= 4, f"few detection reasons seen: {dict(stats.reasons)}"
    # Every invariant held; a game that ran too long is a finding of its own.
    assert not stats.too_long, (
        f"game length finding (not an invariant failure): {len(stats.too_long)} game(s) "
        f"over the {STEP_LIMIT:,}-input limit: " + "; ".join(
            f"seed {seed}: {steps:,} inputs" + (" and no end (a hang?)" if status == "playing"
                                                  else f", {status}")
            for seed, steps, status in stats.too_long))
    return stats


def _part(part: int) -> tuple[int, int]:
    return part * PART_GAMES, min(GAMES, (part + 1) * PART_GAMES)


@pytest.mark.parametrize("part", range(PARTS))
def test_random_games(part):
    _run_games(f"random games {'-'.join(map(str, _part(part)))}", *_part(part),
               SAMPLE, REPLAY_EVERY)


@pytest.mark.skipif(GAMES < DEFAULT_GAMES, reason="fewer games than the default run "
                    "(COMPANION_PROPERTY_GAMES): no claim to meet every pair")
def test_the_sampled_options_meet_every_pair():
    """The default run's varied games hold every two rulings in every pair of their
    values (a ruling's interactions are played whatever values they need)."""
    varied = [o for o in map(game_options, range(GAMES)) if o is not None]
    assert missing_pairs(RULINGS, varied) == []


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long mode: set COMPANION_LONG=1")
def test_random_games_long():
    _run_games("random games, every check on every game", 0, GAMES, 1, 1)


# Options as hypothesis sees them: shrinking goes to the first allowed value, which is
# the default for every ruling except the few whose defaults are listed second.
OPTIONS = st.one_of(st.none(), st.fixed_dictionaries(
    {name: st.sampled_from(choice.allowed) for name, choice in RULINGS.items()}))


@settings(max_examples=200 if LONG else 60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS,
       choices=st.lists(st.integers(0, 50), min_size=1, max_size=400))
def test_hypothesis_games(seed, options, choices):
    """Choice indices, used cyclically, pick legal_actions()[c % n] until the game ends.

    Cycling plays each example to its end (or HYPOTHESIS_STEPS) however short the
    list, and a failure still shrinks to a short list and a small seed.
    """
    g = Entanglion(seed, options)
    legal = g.legal_actions()
    check_invariants(g, g.state.options["start_space"], g.log, legal)
    nav: Navigation | None = None
    for step in range(HYPOTHESIS_STEPS):
        if not legal:
            break
        prev = g.state.detection
        act = legal[choices[step % len(choices)] % len(legal)]
        if act["do"] == "navigate":
            nav = Navigation(g, act)
        new = g.push(act)
        legal = g.legal_actions()
        check_invariants(g, prev, new, legal)
        if nav is not None and not nav.check(g):
            nav = None
    json_round_trip(g)


def test_manual_dice_setup_prompts():
    """Manual dice: the set-up rolls are prompts (status 'setup') listed as legal actions."""
    g = Entanglion(0, {"dice": "manual"})
    assert g.status == "setup" and g.pending is not None and g.pending["kind"] == "roll"
    check_invariants(g, 1, g.log)
    while g.status == "setup":
        prev = g.state.detection
        legal = g.legal_actions()
        assert legal, f"set-up prompt {g.pending} not listed in legal_actions()"
        new = g.push(legal[len(g.inputs) % len(legal)])
        check_invariants(g, prev, new)
    assert g.status == "playing" and g.state.turn_number == 1


def _refrigerator_bennett(giver: str, stack: list[str], detection: int = 1,
                          dice: tuple[int, ...] = ()) -> Entanglion:
    """``giver`` holds the Dilution Refrigerator and Bennett, plays Bennett at once."""
    receiver = "rubicon" if giver == "mercurial" else "mercurial"
    g = Entanglion(0, None, {
        "first_player": giver, "ships": {"mercurial": "ZERO", "rubicon": "ZERO"},
        "hands": {giver: ["X", "H"], receiver: ["CNOT", "SWAP", "H"]},
        "held_events": {giver: ["bennett"]},
        "ship_components": {giver: ["dilution_refrigerator"]},
        "engine_stack": stack, "detection_space": detection,
    }, dice)
    g.push({"player": giver, "do": "event", "card": "bennett"})
    return g


@pytest.mark.parametrize("giver", ["mercurial", "rubicon"])
def test_bennett_refrigerator_receiver_discards_before_giver_draws(giver):
    """Ruling Q12: the receiver discards to 2, then the giver draws back to 3, either seat.

    Regression: the engine once ran "discard, refill" per ship in seat order, so when
    Mercurial gave, Mercurial drew first; a PROBE drawn there could end the game with
    Rubicon never asked to discard (found by test_random_games, seed 4230 at the time).
    """
    g = _refrigerator_bennett(giver, ["X", "CNOT", "H"])
    assert g.pending is not None and g.pending["kind"] == "discard"
    assert g.pending["player"] != giver
    assert len(g.state.hands[giver]) == 2, "the giver drew before the receiver discarded"
    g.push({"player": g.pending["player"], "do": "choose", "value": "SWAP"})
    assert g.pending is None and len(g.state.hands[giver]) == 3
    assert sorted(g.state.hands["rubicon" if giver == "mercurial" else "mercurial"]) == [
        "CNOT", "H"]
    # Drawing a PROBE that ends the game must not pre-empt the receiver's discard.
    g = _refrigerator_bennett(giver, ["PROBE", "X", "CNOT"], detection=11, dice=(1,))
    assert g.status == "playing" and g.pending is not None
    assert g.pending["kind"] == "discard" and g.pending["player"] != giver
