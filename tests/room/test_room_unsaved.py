"""A record the room cannot write (a full disk, an I/O error) is not lost: the room does
not acknowledge it, the broker keeps it in the room's session, the page says why, and
once the disk takes records again the record lands exactly once. On a real Mosquitto;
the fault is put in the store's lowest layer (the OS calls it writes with)."""

from __future__ import annotations

import errno
import http.client
import json
import logging
import os
from pathlib import Path

import pytest

from broker import Broker, missing
from rig import Watcher
from waiting import eventually

from companion.config import MqttConfig
from companion.room import client as client_mod, store as store_mod
from companion.room.store import Store, Unsaved

NO_SPACE = os.strerror(errno.ENOSPC)


def record(game_id: int = 1) -> dict:
    return {"room": "r1", "table": "t1", "game_id": game_id, "game": "entanglion",
            "status": "won", "scenario": {"seed": 1, "options": {"start_space": 1},
                                          "setup": {}, "actions": []},
            "story": {"detections": {"PROBE": 1}, "lost_to": None, "turns": 9}}


class Fault:
    """``call`` (an ``os`` function the store writes with) fails with ``error`` for paths
    in ``folder`` while :attr:`on`; everything else goes to the real call."""

    def __init__(self, monkeypatch, folder: Path, call: str = "replace",
                 error: int = errno.ENOSPC):
        self.on, self.folder, self.hits = True, folder.resolve(), 0
        real = getattr(os, call)

        def faulty(*args, **kw):
            target = args[1] if call == "replace" else args[0]
            if self.on and isinstance(target, (str, Path)) and \
                    Path(target).resolve().parent == self.folder:
                self.hits += 1
                raise OSError(error, os.strerror(error))
            return real(*args, **kw)

        monkeypatch.setattr(store_mod.os, call, faulty)


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in ("archive",))


@pytest.mark.parametrize("call,error", [("open", errno.ENOSPC), ("replace", errno.ENOSPC),
                                        ("replace", errno.EROFS)])
def test_a_write_that_fails_leaves_nothing_and_says_why(tmp_path, monkeypatch, caplog,
                                                        call, error):
    kept = Store(tmp_path / "records")
    fault = Fault(monkeypatch, tmp_path / "records", call, error)
    for _ in range(3):  # the broker sends it again: one log line says it
        with pytest.raises(Unsaved, match=os.strerror(error)):
            kept.add(record())
    assert len(kept) == 0 and files(tmp_path / "records") == []  # no partial file
    assert kept.status() == {"unsaved": 1, "why": os.strerror(error), "archived": 0}
    assert not kept.writable()
    lines = [r.message for r in caplog.records if "cannot be saved" in r.message]
    assert len(lines) == 1 and os.strerror(error) in lines[0] and "unacknowledged" in lines[0]
    fault.on = False
    assert kept.writable() and kept.status() == {"unsaved": 1, "why": None, "archived": 0}
    assert kept.add(record()) and not kept.add(record())
    assert kept.status()["unsaved"] == 0 and files(tmp_path / "records") == ["t1.1.json"]
    assert "records are saved again" in caplog.text
    assert Store(tmp_path / "records").load("t1", 1) == record()


def test_an_fsync_error_is_a_failed_write_too(tmp_path, monkeypatch):
    kept = Store(tmp_path / "records")
    monkeypatch.setattr(store_mod.os, "fsync", lambda fd: (_ for _ in ()).throw(
        OSError(errno.EIO, os.strerror(errno.EIO))))
    with pytest.raises(Unsaved, match=os.strerror(errno.EIO)):
        kept.add(record())
    assert len(kept) == 0 and files(tmp_path / "records") == []


@pytest.fixture
def mosquitto(tmp_path):
    if missing() is not None:
        pytest.skip(missing())
    broker = Broker(tmp_path).start()
    (tmp_path / "teacher.pw").write_text("pw-teacher\n")
    yield broker
    broker.kill()


def start_room(broker: Broker, folder: Path):
    from companion import room

    made = room.start(MqttConfig(enabled=True, host="127.0.0.1", port=broker.port, room="r1",
                                 username="teacher",
                                 password_file=str(folder / "teacher.pw")),
                      folder / "state", analyse=False)
    assert made.link.connected.wait(10)
    return made


def get(room, path: str) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", room.server.port, timeout=5)
    conn.request("GET", path, headers={"Host": f"127.0.0.1:{room.server.port}"})
    data = json.loads(conn.getresponse().read())
    conn.close()
    return data


def test_an_unsaved_record_waits_in_the_broker_and_lands_once_the_disk_is_back(
        tmp_path, mosquitto, monkeypatch, caplog):
    monkeypatch.setattr(client_mod, "RETRY_EVERY", 0.1)
    room = start_room(mosquitto, tmp_path)
    folder = room.store.folder
    fault = Fault(monkeypatch, folder)
    t1 = Watcher(mosquitto.port, "t1", topic="companion/r1/command")
    try:
        t1.publish("companion/r1/t1/record", json.dumps(record()))
        assert eventually(lambda: room.store.status()["unsaved"] == 1, 5)
        # The messages after it are taken (and acknowledged) at once: the page is live.
        t1.publish("companion/r1/t1/availability", "online")
        assert eventually(lambda: get(room, "/tables")["tables"], 5)
        assert eventually(lambda: fault.hits >= 3, 5)  # the room checks the disk again
        assert len(room.store) == 0 and not list(folder.glob("t1.*"))
        said = get(room, "/tables")["store"]
        assert said == {"unsaved": 1, "why": NO_SPACE, "archived": 0}
        assert len([r for r in caplog.records if "cannot be saved" in r.message]) == 1
        fault.on = False  # the teacher made room on the disk
        # Only the broker has it now: it sends it again on the room's new connection.
        assert eventually(lambda: len(room.store) == 1, 10)
        assert eventually(lambda: get(room, "/tables")["store"]["unsaved"] == 0, 5)
        assert get(room, "/tables")["store"] == {"unsaved": 0, "why": None, "archived": 0}
        t1.publish("companion/r1/t1/record", json.dumps(record()))  # QoS 1's second copy
        t1.publish("companion/r1/t1/availability", "offline")  # after it, from the same table
        assert eventually(lambda: get(room, "/tables")["tables"][0]["online"] is False, 5)
        assert len(room.store) == 1 and [p.name for p in folder.glob("t1.*")] == ["t1.1.json"]
    finally:
        t1.close()
        room.stop()


def test_a_room_stopped_with_a_record_unsaved_gets_it_at_its_next_start(
        tmp_path, mosquitto, monkeypatch, caplog):
    caplog.set_level(logging.INFO)
    room = start_room(mosquitto, tmp_path)
    fault = Fault(monkeypatch, room.store.folder)
    t1 = Watcher(mosquitto.port, "t1", topic="companion/r1/command")
    try:
        t1.publish("companion/r1/t1/record", json.dumps(record(7)))
        assert eventually(lambda: room.store.status()["unsaved"] == 1, 5)
        room.stop()  # the disk still full: the record was never acknowledged
        fault.on = False
        room = start_room(mosquitto, tmp_path)
        assert eventually(lambda: len(room.store) == 1, 10)
        assert [(d["table"], d["game_id"]) for d in room.store.digests()] == [("t1", 7)]
    finally:
        t1.close()
        room.stop()


def test_more_unsaved_records_than_the_brokers_window_all_land_once(
        tmp_path, mosquitto, monkeypatch):
    """Mosquitto keeps 20 QoS 1 messages in flight to a client: past that it holds the
    rest back. The tables' states (QoS 0) still arrive; once the disk is back, every
    record lands, each once."""
    monkeypatch.setattr(client_mod, "RETRY_EVERY", 0.1)
    room = start_room(mosquitto, tmp_path)
    fault = Fault(monkeypatch, room.store.folder)
    t1 = Watcher(mosquitto.port, "t1", topic="companion/r1/command")
    try:
        for n in range(1, 26):
            t1.publish("companion/r1/t1/record", json.dumps(record(n)))
        assert eventually(lambda: room.store.status()["unsaved"] == 20, 5)
        t1.client.publish("companion/r1/t1/state", b'{"mode": "menu"}', qos=0)
        assert eventually(lambda: get(room, "/tables")["tables"], 5)
        fault.on = False
        assert eventually(lambda: len(room.store) == 25, 15), len(room.store)
        assert sorted(d["game_id"] for d in room.store.digests()) == list(range(1, 26))
        assert room.store.status()["unsaved"] == 0
    finally:
        t1.close()
        room.stop()


def test_a_broker_that_lost_the_rooms_session_is_named_with_the_records_lost(
        tmp_path, mosquitto, monkeypatch, caplog):
    """A broker without persistence restarted: the records it held for the room are
    gone from it; the room says how many instead of waiting for them for ever."""
    room = start_room(mosquitto, tmp_path)
    fault = Fault(monkeypatch, room.store.folder)
    t1 = Watcher(mosquitto.port, "t1", topic="companion/r1/command")
    try:
        t1.publish("companion/r1/t1/record", json.dumps(record()))
        assert eventually(lambda: room.store.status()["unsaved"] == 1, 5)
        mosquitto.kill()
        mosquitto.start()  # the same port, no session kept
        # paho's thread forgets the records, then logs: wait for the line, not the count
        assert eventually(lambda: "are lost to the room (1;" in caplog.text, 10), caplog.text
        assert room.store.status()["unsaved"] == 0
        fault.on = False
        assert len(room.store) == 0
    finally:
        t1.close()
        room.stop()
