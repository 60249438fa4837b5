"""The past games' pages: every game of the journal listed, replayed by the engine to
any position as the live page showed it, its record downloadable (and played again
by the CLI to the same end), and paths a hostile page might try."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from companion import cli, scenario
from companion.analyses import FILE, Analyses
from companion.autoplay import AutoPlayer
from companion.games.entanglion.analysis import analyse
from companion.games.entanglion.explain import explain
from companion.journal import Journal
from companion.web import archive, pages, replay, snapshot
from web_rig import Rig, play

GAMES = ("entanglion", "qno", "qlanet")


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    """Three finished games (ids 1-3, with the live snapshots of the first as it was
    played) and an Entanglion game in play (id 4)."""
    r = Rig(tmp_path_factory.mktemp("past"), seed=3)
    r.live = {}

    def keep(sim):
        g = sim.box.session.game
        if sim.box.session.mode == "game" and g is not None and g.game == "entanglion":
            snap = snapshot.build(sim.box.session)
            snap.pop("log")
            r.live[len(g.inputs)] = snap

    with r.lock:
        for game in GAMES:
            play(r.sim, AutoPlayer(5, game=game), each=keep if game == "entanglion" else None)
            r.sim.run("press ok")
        player = AutoPlayer(9)
        for _ in range(60):
            r.sim.run(player.next_command(r.sim.box.session))
    yield r
    r.close()


def _record(rig, game_id):
    return rig.sim.box.session.journal.load(game_id)


def _get(rig, path, **headers):
    status, head, body = rig.request("GET", path, headers=headers or None)
    return status, head, body.decode()


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_the_list_links_every_game_with_its_story_line(rig):
    status, head, html = _get(rig, "/games")
    assert status == 200 and head["content-type"].startswith("text/html")
    for game_id in (1, 2, 3, 4):
        assert f'href="/game/{game_id}"' in html
    from companion.games.entanglion.story import line

    assert unescape(line(replay.replay(_record(rig, 1)).story)) in unescape(html)
    # The live page's header links here.
    assert 'href="/games"' in _get(rig, "/")[2]


def test_the_move_list_is_the_log_in_its_own_words(rig):
    r = replay.replay(_record(rig, 1))
    g = rig.sim.box.session.journal.load(1)
    from companion.games.entanglion import Entanglion

    full = Entanglion.replay(g.seed, g.options, g.setup, (), Journal.effective_inputs(g.entries))
    told = list(r.setup)
    for move in r.moves:
        told += move["turn"] + move["lines"]
    assert told == [explain(e) for e in full.log]
    html = _get(rig, "/game/1")[2]
    for move in r.moves[:5]:
        for line in move["lines"]:
            assert line in unescape(html)
    assert len(re.findall(r'<li value="\d+"><a href="\?at=', html)) == len(r.moves) + 1


def test_every_position_is_the_live_page_s_picture_as_it_was(rig):
    r = replay.replay(_record(rig, 1))
    assert len(rig.live) > 10
    for n, live in rig.live.items():
        mine = dict(r.positions[n])
        for key in mine:
            assert mine[key] == live[key], (n, key)


@pytest.mark.parametrize("game_id", [1, 2, 3])
def test_each_game_s_page_shows_any_position(rig, game_id):
    r = replay.replay(_record(rig, game_id))
    last = len(r.positions) - 1
    for at in (0, last // 2, last):
        status, _, html = _get(rig, f"/game/{game_id}?at={at}")
        assert status == 200
        assert f'<h2 data-at="{at}">' in html
        assert f'<a href="?at={at}" data-at="{at}" aria-current="step">' in html
        status, _, alone = _get(rig, f"/game/{game_id}/position?at={at}")
        assert status == 200 and alone == pages.position(r, at)
    if r.game == "entanglion":
        assert "<svg" in _get(rig, f"/game/{game_id}?at=1")[2]


def test_a_qlanet_replay_reveals_nothing_before_the_end(rig):
    r = replay.replay(_record(rig, 3))
    assert r.game == "qlanet" and r.finished
    for p in r.positions[:-1]:
        assert p["reveal"] is None
    for at in range(len(r.positions) - 1):
        assert "Revealed" not in pages.position(r, at)
    assert r.positions[-1]["reveal"] is not None


@pytest.mark.parametrize("game_id", [1, 2, 3])
def test_a_downloaded_record_plays_again_to_the_same_end(rig, game_id, tmp_path, capsys):
    status, head, body = _get(rig, f"/game/{game_id}/record.json")
    assert status == 200 and "attachment" in head["content-disposition"]
    path = tmp_path / "game.json"
    path.write_text(body)
    assert cli.main(["scenario", "--compact", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    record = _record(rig, game_id)
    from companion.games.common import ui_for

    g = ui_for(record.game).replay(record.seed, record.options, record.setup or {},
                                   Journal.effective_inputs(record.entries))
    assert out["status"] == g.state.status == record.status
    assert out["log"] == scenario.run(scenario.load(body))[1]["log"]
    assert len(out["log"]) == len(g.log)


def test_a_qno_circuit_downloads_as_the_cli_exports_it(rig, capsys):
    status, head, body = _get(rig, "/game/2/circuit.qasm")
    assert status == 200 and "\nOPENQASM 2.0;\n" in body
    state_dir = str(rig.sim.box.session.journal.path.parent)
    assert cli.main(["games", "export", "2", "--qasm", "--state-dir", state_dir]) == 0
    assert capsys.readouterr().out == body
    assert _get(rig, "/game/1/circuit.qasm")[0] == 404


def test_a_game_in_play_replays_but_keeps_its_record(rig):
    status, _, html = _get(rig, "/game/4")
    assert status == 200 and "once the game is over" in html
    status, _, html = _get(rig, "/game/4/record.json")
    assert status == 404 and "once the game is over" in html
    assert "seed" not in _get(rig, "/game/4/position?at=1")[2]


def test_an_abandoned_game_s_record_downloads(tmp_path):
    r = Rig(tmp_path, seed=4)
    try:
        player = AutoPlayer(2, game="qlanet")
        with r.lock:
            for _ in range(40):
                r.sim.run(player.next_command(r.sim.box.session))
            game_id = r.sim.box.session.game_id
            assert _get(r, f"/game/{game_id}/record.json")[0] == 404
            r.sim.box.session.journal.abandon(game_id)
        status, _, body = _get(r, f"/game/{game_id}/record.json")
        assert status == 200 and json.loads(body)["game"] == "qlanet"
        assert "once the game is over" not in _get(r, f"/game/{game_id}")[2]
    finally:
        r.close()


@pytest.mark.parametrize("path", [
    "/game/0", "/game/99", "/game/-1", "/game/01", "/game/1.0", "/game/%30%31", "/game/abc",
    "/game/" + "9" * 19, "/game/" + "9" * 400, "/game/1/../../etc/passwd",
    "/game/..%2f..%2fjournal.db", "/game/%2e%2e/games", "/game/1%2Frecord.json",
    "/game/%D9%A1", "/game/1/record.json/", "/game/1/x", "/game/1?at=-1", "/game/1?at=99999",
    "/game/1?at=%D9%A1", "/game/1?at=" + "9" * 50, "/game/1/position?at=1e3", "/games?page=0",
    "/games?page=99999", "/games?page=" + "9" * 40, "/game/", "/game",
])
def test_a_bad_game_path_is_a_clear_404_page(rig, path):
    status, head, html = _get(rig, path)
    assert status == 404, path
    assert head["content-type"].startswith("text/html")
    assert "<h1>Not found</h1>" in html
    assert "Traceback" not in html and str(rig.sim.box.session.journal.path) not in html
    assert len(html) < 2000


def test_the_pages_answer_the_box_s_names_only(rig):
    for path in ("/games", "/game/1", "/game/1/record.json", "/replay.js"):
        status, _, _ = _get(rig, path, Host="evil.example")
        assert status == 403, path


def test_the_analysis_charts_the_game_with_its_turning_points_linked(rig, capsys):
    record = _record(rig, 1)
    state_dir = rig.sim.box.session.journal.path.parent
    html = _get(rig, "/game/1")[2]
    assert "once it is done" in html  # no analysis yet: said, not faked
    found = analyse(record.seed, record.options, record.setup,
                    Journal.effective_inputs(record.entries), budget=16)
    Analyses(state_dir / FILE).save(1, found)
    html = _get(rig, "/game/1")[2]
    chart = html[html.index('class="chart"'):]  # the board is an SVG too
    chart = chart[:chart.index("</svg>")]
    assert chart.count("<circle") == len(found["decisions"])
    for d in found["decisions"]:
        assert f'href="/game/1?at={d["input"]}"' in chart
    for d in pages.turning_points(found):
        assert f'<li><a href="?at={d["input"]}" data-at="{d["input"]}">' in html
        assert d["best"] in unescape(html)
        # The link leads to the position where that choice was made.
        assert _get(rig, f'/game/1?at={d["input"]}')[0] == 200
    assert cli.main(["games", "show", "1", "--analysis", "--state-dir", str(state_dir)]) == 0
    out = capsys.readouterr().out
    assert "Analysis:" in out and "worked out now" not in out


def test_no_journal_kept_says_so(tmp_path):
    a = archive.Archive(tmp_path / "nothing" / "journal.db")
    with pytest.raises(archive.Unplayable):
        a.record(1)
