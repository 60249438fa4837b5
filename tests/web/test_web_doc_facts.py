"""docs/web.md's table of the snapshot's fields is the snapshot the page receives, and the
README's word on ``sim --web`` holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.autoplay import AutoPlayer
from companion.web import snapshot
from web_rig import make_sim

WEB = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
GAMES = ("entanglion", "qno", "qlanet")


def _documented() -> dict[str, set[str]]:
    """Each documented field and the games it is sent for ("all": in the menus too)."""
    section = WEB.split("## What the snapshot holds", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| ([\w, ]+) \|", section, re.M)
    assert len(rows) > 20, "no table of the snapshot's fields in docs/web.md"
    return {field: {g.strip() for g in games.split(",")} for field, games in rows}


def _fields(game: str | None) -> set[str]:
    return {f for f, games in _documented().items() if "all" in games or game in games}


def test_the_menus_snapshot_has_the_documented_fields(tmp_path):
    sim = make_sim(tmp_path)
    snap = snapshot.build(sim.box.session)
    assert snap["mode"] == "menu" and snap["game"] is None
    assert set(snap) == _fields(None)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_snapshot_has_the_documented_fields(tmp_path, game):
    sim = make_sim(tmp_path, seed=5)
    s = sim.box.session
    player = AutoPlayer(5, game=game)
    for _ in range(400):  # to the first turn of play
        if s.mode == "game" and s.game.state.status == "playing":
            break
        sim.run(player.next_command(s))
    else:
        raise AssertionError(f"{game}: no turn of play reached")
    snap = snapshot.build(s)
    assert snap["game"] == game
    assert set(snap) == _fields(game), (
        f"docs/web.md misses {sorted(set(snap) - _fields(game))}, "
        f"names {sorted(_fields(game) - set(snap))} the page is not sent")
    if game == "entanglion" and snap["odds"] is not None:  # the shape the page reads
        assert all(set(o) == {"move", "chance"} and 0 <= o["chance"] <= 1
                   for o in snap["odds"])


def test_the_web_box_plays_live_and_refuses_a_script(tmp_path, capsys):
    # The README: ``--web`` with ``--script`` exits 2, saying why.
    from companion import sim as sim_module

    assert sim_module.web(make_sim(tmp_path), "127.0.0.1:0", script="game.txt") == 2
    assert "--web plays live" in capsys.readouterr().err
