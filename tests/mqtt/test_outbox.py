"""The outbox: finished games wait on disk until the broker acknowledges them, once."""

from __future__ import annotations

import json

from rig import FakeLink
from web_rig import make_sim, play

from companion.autoplay import AutoPlayer
from companion.mqtt.outbox import Outbox
from companion.mqtt.service import Reporter


def test_a_message_waits_until_acknowledged_and_is_never_queued_twice(tmp_path):
    box = Outbox(tmp_path / "journal.db")
    assert box.add(1, "t", b"one") and box.add(2, "t", b"two")
    assert not box.add(1, "t", b"again")
    assert box.waiting(5) == [(1, "t", b"one"), (2, "t", b"two")]
    assert box.waiting(5, skip=(1,)) == [(2, "t", b"two")]
    box.close()
    box = Outbox(tmp_path / "journal.db")  # on disk: a restart loses nothing
    assert box.pending() == 2
    box.sent(1)
    assert box.waiting(5) == [(2, "t", b"two")] and box.queued(1)
    assert not box.add(1, "t", b"one")  # acknowledged once is sent once
    assert (tmp_path / "journal.db.outbox").stat().st_mode & 0o077 == 0
    box.close()


def test_games_from_before_the_outbox_stay_home_and_a_missed_one_is_caught_up(tmp_path):
    sim = make_sim(tmp_path, 3)
    journal = sim.box.session.journal
    play(sim, AutoPlayer(3))  # the box's history, from before [mqtt]
    history = sim.box.session.game_id
    outbox = Outbox(journal.path)
    Reporter(FakeLink(), outbox, "r", "t").catch_up(journal)
    assert outbox.pending() == 0 and not outbox.queued(history)
    for _ in range(200):  # back to the main menu, then a game nobody reports (a crash
        if sim.box.session.mode == "menu":  # between the journal's write and the outbox's)
            break
        sim.run("press ok")
    play(sim, AutoPlayer(3))
    missed = sim.box.session.game_id
    assert missed != history and sim.box.session.game.status in ("won", "lost")
    link = FakeLink()
    reporter = Reporter(link, outbox, "r", "t")
    reporter.catch_up(journal)
    assert outbox.pending() == 1 and link.poked == 1
    (game_id, topic, payload), = outbox.waiting(5)
    message = json.loads(payload)
    assert (game_id, topic, message["game_id"], message["table"]) == \
        (missed, "companion/r/t/record", missed, "t")
    reporter(sim.box)  # the observer sees the same finished game: not queued again
    assert outbox.pending() == 1
    outbox.close()
