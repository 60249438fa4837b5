"""The analysis after the game: every decision weighed by the hint's search in the
position as it stood, one decision at a time, kept as one line per game, run by the
daemon only while no game is in play, and told on the story's pages and by
``companion games show ID --analysis``."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from companion.analyses import FILE, Analyses, Analyst
from companion.games.entanglion import Entanglion, hint
from companion.games.entanglion.analysis import Analysis, analyse, judge
from companion.games.entanglion.story import analysis_pages, analysis_text, pages, story
from companion.journal import Journal
from companion.views import oled
from companion.views.font import truncations

BUDGET = 300  # a small search: the tests check the bookkeeping, not the advice


def _game(seed: int = 7) -> Entanglion:
    g = Entanglion(seed, {"start_space": 4})
    rng, rnd = hint.Rng(seed), random.Random(seed)
    while g.status == "playing":
        g.push(hint.greedy_action(g, rng) if rnd.random() < 0.8
               else rnd.choice(g.legal_actions()))
    return g


def test_every_decision_is_weighed_in_its_own_position_and_the_costliest_named():
    g = _game()
    result = analyse(g.seed, g.state.options, None, g.inputs, BUDGET)
    replay = Entanglion(g.seed, g.state.options)
    expected = []
    for i, act in enumerate(g.inputs):
        if replay.status == "playing" and len(hint.candidates(replay)) > 1:
            expected.append((i, replay.state.turn_number))
        replay.push(act)
    assert [(d["input"], d["turn"]) for d in result["decisions"]] == expected
    assert len(result["chart"]) == len(expected)
    for d in result["decisions"]:
        # The search of that very position (the same seed) gives the same numbers.
        assert d["best_win"] >= (d["played_win"] or 0) or d["same"]
    costs = [0 if d["same"] else d["best_win"] - (d["played_win"] or 0)
             for d in result["decisions"]]
    c = result["costliest"]
    assert c is not None and c["best_win"] - (c["played_win"] or 0) == max(costs)


def test_step_by_step_is_the_same_as_all_at_once_and_can_stop_anywhere():
    g = _game(3)
    whole = analyse(g.seed, g.state.options, None, g.inputs, BUDGET)
    a = Analysis(g.seed, g.state.options, None, g.inputs, BUDGET)
    steps = 0
    while not a.step():
        steps += 1
    assert a.done and a.result() == whole and steps == len(whole["decisions"]) - 1


def test_the_analysis_reads_nothing_hidden():
    # A position with the unseen engine cards in another order and other dice to come:
    # the same judgement (the search re-deals them; the players could not know them).
    g = _game(5)
    a = Entanglion(g.seed, g.state.options)
    for act in g.inputs[:12]:
        a.push(act)
    b = Entanglion.from_dict(a.to_dict())
    stack = b.state.engine_stack
    probe = stack.index("PROBE") if "PROBE" in stack else None
    loose = [c for i, c in enumerate(stack) if i != probe]
    random.Random(1).shuffle(loose)
    if probe is not None:
        loose.insert(probe, "PROBE")  # where every player knows it is
    b.state.engine_stack = loose
    b.state.rng ^= 0xBADC0DE
    played = g.inputs[12]
    assert judge(a, played, 12, BUDGET) == judge(b, played, 12, BUDGET)


def test_the_story_tells_the_costliest_choice_and_charts_the_chance(tmp_path):
    g = _game()
    st = story(g)
    st["analysis"] = analyse(g.seed, g.state.options, None, g.inputs, BUDGET)
    told = pages(st)
    costliest, chart = told[-2:]
    c = st["analysis"]["costliest"]
    assert costliest["lines"][0] == f"Turn {c['turn']}, {c['player'].capitalize()}:"
    assert costliest["lines"][1].startswith(c["played"])
    assert chart["chart"] == st["analysis"]["chart"]
    for page, model in enumerate(told[-2:], len(told) - 1):
        with truncations(draw=False) as cut:
            oled.render({"screen": "end", "page": page, "pages": len(told) + 1, **model})
        assert cut == []
    text = analysis_text(st["analysis"])
    assert text[1].startswith(f"The choice that cost most: turn {c['turn']}, {c['played']}")
    assert analysis_pages(None) == []


def _finished_journal(path, seed: int = 7) -> tuple[Journal, int, Entanglion]:
    journal = Journal(path / "journal.db")
    g = _game(seed)
    gid = journal.new_game("entanglion", g.seed, g.state.options)
    for i, act in enumerate(g.inputs):
        last = i == len(g.inputs) - 1
        journal.record(gid, act, turns=1, status=g.status if last else "playing")
    return journal, gid, g


def test_the_analyst_writes_one_line_per_game_and_only_when_done(tmp_path):
    journal, gid, g = _finished_journal(tmp_path)
    store = Analyses(tmp_path / FILE)
    analyst = Analyst(journal, store, budget=BUDGET)
    assert analyst.pending()
    done, steps = None, 0
    while done is None:
        assert not (tmp_path / FILE).exists()  # nothing written until complete
        done = analyst.work()
        steps += 1
    assert done == gid and not analyst.pending() and analyst.work() is None
    lines = (tmp_path / FILE).read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["game"] == gid
    assert Analyses(tmp_path / FILE).get(gid) == store.get(gid)
    assert store.get(gid) == analyse(g.seed, g.state.options, None, g.inputs, BUDGET)
    # A cut-off last line is skipped: that game is analysed again.
    (tmp_path / FILE).write_text(lines[0][:40] + "\n")
    assert Analyses(tmp_path / FILE).get(gid) is None
    journal.close()


def test_the_daemon_analyses_only_while_no_game_is_in_play(tmp_path, monkeypatch):
    from test_daemon import Rig, gpio  # noqa: F401 - the rig of the daemon's own tests

    from companion import daemon as daemon_module

    journal, gid, g = _finished_journal(tmp_path)
    journal.close()
    calls = []

    class Spy(Analyst):
        def work(self):
            calls.append(rig.session.mode)
            return super().work()

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    previous, Device.pin_factory = Device.pin_factory, MockFactory()
    try:
        rig = Rig(tmp_path, Device.pin_factory)
        store = Analyses(tmp_path / FILE)
        rig.session.config.analysis = store.get
        rig.daemon.analyst = Spy(rig.journal, store, budget=BUDGET)
        for _ in range(4):
            rig.press("OK")  # a new game: set-up at its defaults
        assert rig.session.mode == "game"
        rig.settle(daemon_module.ANALYSIS_QUIET + 5)
        for _ in range(50):
            rig.daemon.step(0)
        assert calls == []  # a game is in play: the analysis waits
        rig.session._leave()  # the game is left for the main menu
        rig.settle(daemon_module.ANALYSIS_QUIET + 1)
        for _ in range(500):
            if store.get(gid) is not None:
                break
            rig.daemon.step(0)
        assert store.get(gid) is not None and set(calls) == {"menu"}
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous


def test_games_show_analysis_prints_it(tmp_path):
    journal, gid, g = _finished_journal(tmp_path)
    journal.close()
    out = subprocess.run([sys.executable, "-m", "companion", "games", "show", str(gid),
                          "--analysis", "--state-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "(no analysis kept by the box yet: worked out now)" in out.stdout
    assert "The choice that cost most: turn" in out.stdout
