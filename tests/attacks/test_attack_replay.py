"""The past games' pages as a spectator would mine them for QLANET's secrets: every
position of a game in play, fetched raw, and the record a cheat would want (the seed
and so every secret) refused until the game is over."""

from __future__ import annotations

import json
from html import escape

from companion.autoplay import AutoPlayer
from companion.games.qlanet import Qlanet
from companion.games.qlanet.knowledge import view
from companion.journal import Journal
from web_rig import Rig

STEPS = 150  # the deal, refills and a Bell measurement (seed 2), as the stream attack


def test_no_position_of_a_game_in_play_shows_a_secret(tmp_path):
    rig = Rig(tmp_path, seed=2)
    try:
        player = AutoPlayer(2, game="qlanet")
        session = rig.sim.box.session
        with rig.lock:
            for _ in range(STEPS):
                cmd = player.next_command(session)
                if cmd is None:
                    break
                rig.sim.run(cmd)
            assert session.game.state.status == "playing"
            game_id = session.game_id
        record = rig.sim.box.session.journal.load(game_id)
        inputs = Journal.effective_inputs(record.entries)
        g = Qlanet(record.seed, record.options, record.setup, ())
        bells = 0
        for at in range(len(inputs) + 1):
            status, _, body = rig.request("GET", f"/game/{game_id}/position?at={at}")
            assert status == 200
            text = body.decode()
            public = json.dumps(view(g, "spectator"))
            for bell in g.state.bells:  # a Bell code is its owner's, until the reveal
                if bell["code"] not in public:
                    bells += 1
                    assert bell["code"] not in text and escape(bell["code"]) not in text
            assert "Revealed" not in text
            if at < len(inputs):
                g.push(inputs[at])
        assert bells, "no secret Bell code was held: the attack proved nothing"
        status, _, body = rig.request("GET", f"/game/{game_id}/record.json")
        assert status == 404 and b'"seed"' not in body and str(record.seed).encode() not in body
    finally:
        rig.close()
