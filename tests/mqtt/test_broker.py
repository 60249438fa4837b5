"""Simulated boxes against a real Mosquitto on loopback, with passwords, ACLs and TLS."""

from __future__ import annotations

import json
import os
import time

import pytest

from broker import Broker, missing
from rig import SimBox, Watcher, mqtt_config
from waiting import eventually

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")


@pytest.fixture
def room(tmp_path):
    made = {"broker": None, "boxes": [], "watchers": []}

    def broker(tls: bool = False) -> Broker:
        made["broker"] = Broker(tmp_path, tls=tls).start()
        return made["broker"]

    def box(room_name: str, table: str, user: str, **kw) -> SimBox:
        b = made["broker"]
        config = mqtt_config(kw.pop("port", b.port), room_name, table, user,
                             tmp_path / f"{user}.pw", **kw)
        made["boxes"].append(SimBox(tmp_path / table, config))
        return made["boxes"][-1]

    def watcher(user: str = "watcher", **kw) -> Watcher:
        made["watchers"].append(Watcher(made["broker"].port, user, **kw))
        return made["watchers"][-1]

    yield broker, box, watcher
    for w in made["watchers"]:
        w.close()
    for b in made["boxes"]:
        b.close()
    if made["broker"] is not None:
        made["broker"].kill()


def state_of(box: SimBox) -> dict:
    from companion.web import snapshot
    from companion.web.publish import page_extras

    snap = snapshot.build(box.box.session, None)
    page_extras(box.box.session, snap)
    return snap


def test_retained_state_follows_the_game_and_each_record_arrives_once(room):
    broker, box, watcher = room
    broker()
    w = watcher()
    ha = watcher(topic="homeassistant/#")
    t1, t2 = box("r1", "t1", "t1", home_assistant=True), box("r1", "t2", "t2")
    assert eventually(lambda: w.last("companion/r1/t1/availability") == "online", 10)
    # Home Assistant's discovery: retained, where its ACL lets t1 write them.
    from companion.mqtt import discovery

    for topic, payload in discovery.messages("r1", "t1"):
        assert eventually(lambda: ha.all(topic) == [payload], 10)
    assert eventually(lambda: w.last("companion/r1/t1/state") == state_of(t1), 10)
    t1.play(1)
    t2.play(1)
    assert eventually(lambda: len(w.all("companion/r1/t1/record")) == 1
                      and len(w.all("companion/r1/t2/record")) == 1, 60)
    record = json.loads(w.all("companion/r1/t1/record")[0])
    assert record["table"] == "t1" and record["status"] in ("won", "lost")
    assert record["scenario"]["actions"] and record["story"]
    # The retained state is the box as it is now, and a late reader gets it at once.
    assert eventually(lambda: w.last("companion/r1/t1/state") == state_of(t1), 10)
    late = watcher(topic="companion/r1/t2/state")
    assert eventually(lambda: late.last("companion/r1/t2/state") == state_of(t2), 10)
    assert t1.link.outbox.pending() == 0
    t1.close()  # a clean stop says "offline" itself
    assert eventually(lambda: w.last("companion/r1/t1/availability") == "offline", 10)


def test_a_box_takes_only_its_rooms_commands_and_only_as_the_acl_allows(room):
    broker, box, watcher = room
    broker()
    t1, t3 = box("r1", "t1", "t1"), box("r2", "t3", "t3")
    teacher, rogue = watcher("teacher", topic="companion/r1/#"), watcher("rogue")
    assert eventually(lambda: t1.link.connected and t3.link.connected, 10)
    rogue.publish("companion/r1/command", json.dumps({"command": "pause"}))
    rogue.publish("companion/r2/command", json.dumps({"command": "pause"}))
    teacher.publish("companion/r2/command", json.dumps({"command": "pause"}))  # not its room
    teacher.publish("companion/r1/command", json.dumps(
        {"command": "rules", "game": "entanglion", "rules": {"start_space": 4}}))
    assert eventually(lambda: t1.box.session.config.room_rules.get("entanglion")
                      == {"start_space": 4}, 10)
    screen = t1.box.session.screen()
    assert screen["title"] == "Room rules" and "Hard: track at 3" in screen["lines"]
    t1.press("OK")  # dismissed: no pause from the rogue waits behind it
    assert eventually(lambda: t1.box.session.overlay is None, 5)
    # The next game's set-up starts on the room's difficulty.
    t1.press("OK")
    assert eventually(lambda: t1.box.session.mode == "setup", 5)
    assert t1.box.session.screen()["items"][t1.box.session.cursor] == "Hard: track at 3"
    assert t3.box.session.overlay is None and not t3.box.session.config.room_rules
    assert t1.link.refused == 0 and t3.link.refused == 0  # the broker never passed them on


def test_a_broker_killed_mid_game_loses_no_record(room, monkeypatch):
    from companion.mqtt import link

    monkeypatch.setattr(link, "RETRY_MAX", 0.5)  # the boxes come back quickly
    broker, box, watcher = room
    b = broker()
    w = watcher()
    t1, t2 = box("r1", "t1", "t1"), box("r1", "t2", "t2")
    t1.play(1, pace=0.002)
    t2.play(1, pace=0.002)
    assert eventually(lambda: t1.box.session.mode == "game" and t2.box.session.mode == "game",
                      20)
    b.kill()  # mid-game
    w.close()
    t1.pace = t2.pace = 0.0
    assert eventually(lambda: len(t1.finished) == 1 and len(t2.finished) == 1, 60)
    assert eventually(lambda: not t1.link.connected and not t2.link.connected, 10)
    # Back, but refusing the boxes (wrong passwords) until the watcher listens again.
    from broker import USERS

    b.write_passwords({**USERS, "t1": "changed", "t2": "changed"})
    b.start()
    w = watcher()
    assert t1.link.outbox.pending() == 1 and t2.link.outbox.pending() == 1
    b.write_passwords(USERS)
    b.reload()
    for t, name in ((t1, "t1"), (t2, "t2")):
        topic = f"companion/r1/{name}/record"
        assert eventually(lambda: t.link.outbox.pending() == 0, 30)
        assert eventually(lambda: w.all(topic), 10)
        time.sleep(0.3)  # a second copy would have come by now
        ids = [json.loads(p)["game_id"] for p in w.all(topic)]
        assert ids == [t.finished[0]], ids  # finished while the broker was down: once


def test_a_record_in_flight_when_the_broker_dies_arrives_once(room, monkeypatch):
    """The record was written to the broker's socket but never acknowledged: after the
    restart it is sent again (paho's resend of its unacknowledged message), once."""
    import signal

    from broker import USERS
    from companion.mqtt import link

    monkeypatch.setattr(link, "RETRY_MAX", 0.5)
    broker, box, watcher = room
    b = broker()
    t1 = box("r1", "t1", "t1")
    assert eventually(lambda: t1.link.connected, 10)
    b.proc.send_signal(signal.SIGSTOP)  # frozen: it takes bytes, it acknowledges nothing
    t1.play(1)
    assert eventually(lambda: t1.finished and t1.link._in_flight, 60)
    b.kill()
    assert eventually(lambda: not t1.link.connected, 10)
    b.write_passwords({**USERS, "t1": "changed"})
    b.start()
    w = watcher()
    b.write_passwords(USERS)
    b.reload()
    assert eventually(lambda: t1.link.outbox.pending() == 0, 30)
    assert eventually(lambda: w.all("companion/r1/t1/record"), 10)
    time.sleep(0.5)  # a second copy would have come by now
    ids = [json.loads(p)["game_id"] for p in w.all("companion/r1/t1/record")]
    assert ids == t1.finished, ids


FLOOD = 20000 if os.environ.get("COMPANION_LONG") == "1" else 600


def test_a_flood_of_commands_and_garbage_leaves_the_game_responding(room):
    broker, box, watcher = room
    broker()
    t1 = box("r1", "t1", "t1")
    teacher = watcher("teacher", topic="companion/r1/#")
    assert eventually(lambda: t1.link.connected, 10)
    garbage = [b"", b"\xff\xfe", b"[]", b"{" * 5000, b"x" * 5000,
               json.dumps({"command": "pause", "extra": 1}).encode(),
               json.dumps({"command": "rules", "game": "entanglion",
                           "rules": {"start_space": 3}}).encode(),
               json.dumps({"command": "message", "text": "hi\x1b[2J"}).encode()]
    most = 0
    for i in range(FLOOD):
        payload = garbage[i % len(garbage)] if i % 3 else json.dumps(
            {"command": "message", "text": f"note {i}"}).encode()
        teacher.client.publish("companion/r1/command", payload, qos=0)
        most = max(most, t1.link.waiting_commands())
    # The broker drops what the box cannot take in time (its queue per client is
    # bounded); once the flood is over a command gets through again.
    last = json.dumps({"command": "message", "text": "last"})

    def told() -> bool:
        teacher.publish("companion/r1/command", last)
        time.sleep(0.2)
        overlay = t1.box.session.overlay
        return overlay is not None and "last" in overlay["lines"]

    assert eventually(told, 30)
    assert most <= 8 and t1.link.refused > 0
    # The game still answers its buttons: OK dismisses the message, OK opens the set-up.
    t1.press("OK")
    t1.press("OK")
    assert eventually(lambda: t1.box.session.mode == "setup", 10)


def test_tls_with_the_rooms_ca(room, tmp_path):
    import shutil

    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make a throwaway CA")
    broker, box, watcher = room
    b = broker(tls=True)
    w = watcher()
    t1 = box("r1", "t1", "t1", port=b.tls_port, tls=True, ca_file=str(b.ca))
    assert eventually(lambda: w.last("companion/r1/t1/state") == state_of(t1), 15)
