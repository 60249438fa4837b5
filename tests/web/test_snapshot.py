"""The snapshot: what a browser may see. Secrets never; the public picture in full."""

from __future__ import annotations

import json

import pytest

from companion.autoplay import AutoPlayer
from companion.games.qlanet.knowledge import view
from companion.web import snapshot, svg
from web_rig import make_sim, play

QLANET_KEYS = {"mode", "language", "game", "game_id", "screen", "oled", "peeking", "menu", "odds", "story",
               "status", "winners", "turn", "costs", "hand_sizes", "deck_size", "planets",
               "log", "reveal"}


def _qlanet_secrets(g) -> list[str]:
    """Strings that would give away a secret if a page held them during play."""
    public = view(g, "spectator")
    return [json.dumps(p) for viewer in ("truth", 0, 1)
            for p, q in zip(view(g, viewer), public) if p != q]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_qlanet_page_never_holds_a_secret_before_the_reveal(tmp_path, seed):
    sim = make_sim(tmp_path, seed)
    checked = {"during": 0, "after": 0}

    def check(sim):
        s = sim.box.session
        if s.mode != "game":
            return
        g = s.game
        snap = snapshot.build(s, sim.box.display.image)
        text = json.dumps(snap)
        assert set(snap) == QLANET_KEYS
        if g.state.status == "playing":
            checked["during"] += 1
            assert snap["reveal"] is None
            assert snap["planets"] == view(g, "spectator")
            for secret in _qlanet_secrets(g):
                assert secret not in text
            for bell in g.state.bells:  # a BM code is only ever on the owner's view
                public = [p["code"] for p in view(g, "spectator")]
                if bell["code"] not in json.dumps(public):
                    assert f'"code": "{bell["code"]}"' not in text
            assert "refill" not in text and "hands" not in snap
            if s.peek is not None:
                assert snap["screen"] is None and snap["oled"] is None
        else:
            checked["after"] += 1
            assert snap["reveal"]["planets"] == view(g, "truth")

    play(sim, AutoPlayer(seed, game="qlanet"), each=check)
    assert checked["during"] > 5 and checked["after"] >= 1


def test_an_entanglion_snapshot_has_the_public_game_and_no_deck_order(tmp_path):
    sim = make_sim(tmp_path, 3)
    seen = []

    def check(sim):
        s = sim.box.session
        if s.mode == "game" and s.game.state.status == "playing":
            snap = snapshot.build(s)
            st = s.game.state
            assert snap["ships"] == {"mercurial": st.pos[0], "rubicon": st.pos[1]}
            assert snap["detection"]["space"] == st.detection
            assert snap["engine_control"]["count"] == len(st.engine_control)
            assert snap["decks"] == {"engine": len(st.engine_stack),
                                     "events": len(st.event_deck)}
            assert "engine_stack" not in snap and "event_deck" not in snap
            assert snap["hands"] == {"mercurial": st.hands["mercurial"],
                                     "rubicon": st.hands["rubicon"]}
            assert snap["quantum"]["state"]
            json.dumps(snap)
            seen.append(snap)

    play(sim, AutoPlayer(3), each=check)
    assert seen and any(s["quantum"]["last_gate"] for s in seen)


def test_an_entanglion_page_has_the_odds_of_each_roll_and_the_story_at_the_end(tmp_path):
    from companion.games.entanglion import odds

    sim = make_sim(tmp_path, 3)
    seen = {"odds": 0, "story": None}

    def check(sim):
        s = sim.box.session
        if s.mode != "game":
            return
        g, snap = s.game, snapshot.build(s)
        if g.state.status == "playing":
            decided = [o for o in odds.legal(g)
                       if o["odds"] is not None and o["action"]["do"] != "choose"]
            if g.pending or not decided:
                assert snap["odds"] is None and snap["story"] is None
                return
            # One line per move a die decides, with the engine's own chance.
            assert [o["chance"] for o in snap["odds"]] == [o["odds"] for o in decided]
            assert all(isinstance(o["move"], str) and o["move"] for o in snap["odds"])
            seen["odds"] += 1
        else:
            seen["story"] = snap["story"]

    play(sim, AutoPlayer(3), each=check)
    assert seen["odds"] > 3
    assert seen["story"] and any(line.startswith("Turns: ") for line in seen["story"])


def test_a_qno_snapshot_has_counts_and_the_circuit_but_no_hand(tmp_path):
    sim = make_sim(tmp_path, 4)
    last = {}

    def check(sim):
        s = sim.box.session
        if s.mode == "game":
            snap = snapshot.build(s)
            assert "hands" not in snap
            assert snap["counts"] == list(s.game.state.counts)
            assert snap["qasm"].startswith("// QNO game")
            last.update(snap)

    play(sim, AutoPlayer(4, game="qno"), each=check)
    assert last["status"] == "won" and last["circuit"]


def test_the_board_svg_draws_every_planet_path_ship_and_component():
    snap = {"ships": {"mercurial": "ZERO", "rubicon": "PLUS"},
            "components": {"planets": {"PHI_PLUS": "quantum_gates"}},
            "detection": {"space": 3}}
    out = svg.entanglion_board(snap)
    from companion.games.entanglion import board

    for planet in board.PLANETS:
        assert f'data-planet="{planet}"' in out
    for path in board.OUTSIDE_PATHS + board.ENTANGLION_PATHS:
        assert out.count(f'data-path="{path.id}"') == len(path.ships)
    assert out.count('class="ship mercurial" data-planet="ZERO"') == 1
    assert out.count('class="ship rubicon" data-planet="PLUS"') == 1
    assert 'class="component" data-planet="PHI_PLUS"' in out
    assert 'class="track token" data-space="3"' in out
    assert out.count('class="track token"') == 1


def test_plots_escape_their_text():
    out = svg.line_plot([("<b>", "#fff", [(1, 2), (2, 4)])], "a<script>", "x", "y")
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert svg.bar_plot([], "empty", "y").startswith("<svg")
