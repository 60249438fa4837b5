"""The end-of-game numbers and plots, and the history across games (all drawn on the
box as SVG by our own code)."""

from __future__ import annotations

import json

from companion.autoplay import AutoPlayer
from companion.web import snapshot, stats, svg
from web_rig import Rig, make_sim, play


def test_the_end_of_an_entanglion_game_counts_from_its_log(tmp_path):
    sim = make_sim(tmp_path, 6)
    play(sim, AutoPlayer(6))
    g = sim.box.session.game
    end = snapshot.build(sim.box.session)["end"]
    assert end["turns"] == g.state.turn_number
    detections = [e for e in g.log if e["type"] == "detection"]
    assert sum(end["detections"].values()) == len(detections)
    assert end["detection_over_turns"][-1][1] == g.state.detection
    defence = [e for e in g.log if e["type"] == "roll" and "beat" in e]
    assert end["rolls"]["made"] + end["rolls"]["failed"] == len(defence)
    assert len(end["retrieved"]) == sum(e["type"] == "retrieved" for e in g.log)
    plots = svg.end_plots(end)
    assert plots[0].count("<polyline") == 1


def test_history_rates_and_turns():
    games = [{"id": 3, "game": "entanglion", "status": "won", "turns": 20,
              "options": {"start_space": 1, "deck": "virtual"}},
             {"id": 2, "game": "qno", "status": "won", "turns": 30, "options": {}},
             {"id": 1, "game": "entanglion", "status": "lost", "turns": 12,
              "options": {"start_space": 1, "deck": "physical"}},
             {"id": 4, "game": "entanglion", "status": "playing", "turns": 2, "options": {}}]
    h = stats.history(games)
    assert h["games"] == 3
    assert h["win_rate"]["difficulty"] == {"start space 1": {"won": 1, "played": 2, "rate": 0.5}}
    assert h["win_rate"]["deck"]["virtual"]["rate"] == 1.0
    assert [t["id"] for t in h["turns"]] == [1, 2, 3]  # oldest first
    plots = svg.history_plots(h)
    assert len(plots) == 1 + 2 and all(p.startswith("<svg") for p in plots)
    assert svg.history_plots(stats.history([])) == []


def test_the_history_page_lists_the_journal_games_with_plots(tmp_path):
    rig = Rig(tmp_path, seed=6)
    try:
        with rig.lock:
            play(rig.sim, AutoPlayer(6))
            rig.sim.box.refresh()
        status, _, data = rig.request("GET", "/history")
        h = json.loads(data)
        assert status == 200 and h["games"] == 1 and h["plots"]
        snap = rig.snapshot()
        assert snap["end"] and snap["end_svg"]
    finally:
        rig.close()
