"""``companion room`` on a real Mosquitto with ten simulated boxes, its page in headless
Chromium: the page follows every table, its rules reach each box's next game, a broker
killed mid-game loses no record, and hostile messages cost the room nothing.

One broker, one room and one browser serve the whole module (the boxes too); each test
uses boxes of its own, so the tests hold in any order and split over xdist's workers
(each worker then makes its own room)."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest

import browser
from broker import Broker, missing
from rig import SimBox, mqtt_config
from waiting import eventually

from companion.config import MqttConfig

pytestmark = [pytest.mark.skipif(missing() is not None, reason=missing() or ""),
              pytest.mark.skipif(browser.missing() is not None, reason=browser.missing() or "")]

TABLES = [f"t{n}" for n in range(1, 11)]
USERS = {**{t: f"pw-{t}" for t in TABLES + ["late", "other"]}, "teacher": "pw-teacher",
         "mallory": "pw-mallory"}
ACL = "user teacher\ntopic write companion/r1/command\ntopic read companion/r1/#\n" \
      "user mallory\ntopic write companion/r1/#\n" \
      "user other\ntopic write companion/r2/other/#\ntopic read companion/r2/command\n" + \
      "".join(f"user {t}\ntopic write companion/r1/{t}/#\ntopic read companion/r1/command\n"
              for t in TABLES + ["late"])
WEB = "http://127.0.0.1:9/"  # t1's page, as its retained info says (nothing listens)


class Room:
    """The module's broker, boxes, room and browser."""

    def __init__(self, folder):
        self.folder = folder
        self.broker = Broker(folder)
        self.broker.write_passwords(USERS)
        (folder / "acl").write_text(ACL)
        conf = folder / "mosquitto.conf"
        # A broker with persistence, saving every second: the room's session outlives
        # a restart of the broker, as it should in a real room (docs/mqtt.md).
        conf.write_text(conf.read_text().replace(
            "persistence false", f"persistence true\npersistence_location {folder}/\n"
                                 "autosave_interval 1"))
        self.broker.start()
        self.boxes = {t: self.box("r1", t, web_url=WEB if t == "t1" else None) for t in TABLES}
        self.other = self.box("r2", "other")
        (folder / "teacher.pw").write_text("pw-teacher\n")
        from companion import room

        self.room = room.start(MqttConfig(enabled=True, host="127.0.0.1", port=self.broker.port,
                                          room="r1", username="teacher",
                                          password_file=str(folder / "teacher.pw")),
                               folder / "room-state", analyse=False)
        self.room.link.client.reconnect_delay_set(1, 1)  # back at once after the restart
        self.driver = browser.chromium(1400, 1000)
        self.driver.get(self.room.key_url)

    def box(self, room: str, table: str, **kw) -> SimBox:
        return SimBox(self.folder / table, mqtt_config(self.broker.port, room, table, table,
                                                       self.folder / f"{table}.pw"), **kw)

    def card(self, table: str) -> str:
        # One script: a card is replaced whole on each change (no stale element).
        return self.driver.execute_script(
            "const e = document.getElementById(arguments[0]); return e ? e.innerText : ''",
            f"table-{table}")

    def to_menu(self, table: str) -> SimBox:
        """The box with no notice on its screen (another test's rules may have left one)."""
        box = self.boxes[table]
        for _ in range(5):  # each OK reads one notice
            shown = box.box.session.overlay
            if shown is None:
                break
            box.press("OK")
            assert eventually(lambda: box.box.session.overlay is not shown, 5)
        assert box.box.session.overlay is None
        return box

    def start_game(self, table: str) -> Any:
        box = self.to_menu(table)
        for _ in range(4):  # the main menu and the three set-up steps: the game begins
            box.press("OK")
        assert eventually(lambda: box.box.session.mode == "game", 5)
        return box.box.session

    def close(self):
        browser.quit(self.driver)
        self.room.stop()
        for b in [*self.boxes.values(), self.other]:
            b.close()
        self.broker.kill()


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    from companion.mqtt import link

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(link, "RETRY_MAX", 0.5)  # the boxes come back quickly after a restart
        made = Room(tmp_path_factory.mktemp("room"))
        try:
            yield made
        finally:
            made.close()


def test_the_page_follows_every_table_live(room):
    assert eventually(lambda: all(room.card(t) for t in TABLES), 15), \
        [t for t in TABLES if not room.card(t)]
    assert not room.card("other")  # another room's table
    order = room.driver.execute_script(
        "return [...document.querySelectorAll('#tables > [id^=table-]')].map(e => e.id)")
    assert order == [f"table-{t}" for t in TABLES]  # t2 before t10, as people count
    room.to_menu("t3")
    assert eventually(lambda: "In the menu" in room.card("t3"), 5), room.card("t3")
    room.boxes["t3"].press("OK")  # an input on the box: into the set-up
    assert eventually(lambda: "Setting up a game" in room.card("t3"), 5), room.card("t3")
    link = room.driver.execute_script(
        "const a = document.querySelector('#table-t1 h3 a'); return [a.href, a.rel]")
    assert link == [WEB, "noopener noreferrer"]
    room.start_game("t2")
    assert eventually(lambda: "Entanglion: playing" in room.card("t2")
                      and "Detection: space 1" in room.card("t2"), 5), room.card("t2")
    assert room.driver.find_elements("css selector", "#table-t2 svg.board")
    room.boxes["t10"].close()  # a clean stop says "offline"
    assert eventually(lambda: "offline" in room.card("t10"), 5), room.card("t10")
    assert "offline" in room.driver.execute_script(
        "return document.getElementById('table-t10').className")


def test_rules_from_the_page_reach_each_boxs_next_game_only(room):
    from selenium.webdriver.support.ui import Select

    t4 = room.start_game("t4")
    assert t4.game.state.options["start_space"] == 1
    Select(room.driver.find_element("id", "rules-game")).select_by_value("entanglion")
    Select(room.driver.find_element("css selector", '#rules-steps select[data-key="start_space"]')
           ).select_by_visible_text("Hard: track at 3")
    room.driver.find_element("css selector", "#rules-form button[type=submit]").click()
    live = [t for t in TABLES if room.boxes[t].link.connected]
    assert len(live) >= 9
    assert eventually(lambda: all(room.boxes[t].box.session.config.room_rules.get("entanglion")
                                  == {"start_space": 4} for t in live), 10)
    assert "sent" in room.driver.find_element("id", "sent").text
    assert t4.game.state.options["start_space"] == 1  # the game in play keeps its rules
    assert not room.other.box.session.config.room_rules  # another room's box never hears it
    # The next game of a table in the menu starts on the room's difficulty.
    t5 = room.to_menu("t5")
    t5.press("OK")
    assert eventually(lambda: t5.box.session.mode == "setup", 5)
    assert t5.box.session.screen()["items"][t5.box.session.cursor] == "Hard: track at 3"
    # Rules for a second game: the broker retains one command, this one.
    Select(room.driver.find_element("id", "rules-game")).select_by_value("qno")
    Select(room.driver.find_element("css selector", '#rules-steps select[data-key="players"]')
           ).select_by_visible_text("4 players")
    room.driver.find_element("css selector", "#rules-form button[type=submit]").click()
    assert eventually(lambda: room.boxes["t3"].box.session.config.room_rules.get("qno")
                      == {"players": 4}, 10)
    # A table that joins later gets every game's rules: the retained one from the broker,
    # the others sent again by the room when it says it is online.
    late = room.box("r1", "late")
    try:
        assert eventually(lambda: late.box.session.config.room_rules
                          == {"entanglion": {"start_space": 4}, "qno": {"players": 4}}, 10)
    finally:
        late.close()


def records(room) -> set[tuple[str, int]]:
    return {(d["table"], d["game_id"]) for d in room.room.store.digests()}


def test_a_broker_killed_mid_game_loses_no_record_and_each_shows_once(room):
    names = ("t6", "t7", "t8")
    players = [room.to_menu(t) for t in names]
    had = records(room)
    since = time.time()  # the broker has saved the room's session since (every second)
    saved = room.folder / "mosquitto.db"
    assert eventually(lambda: saved.exists() and saved.stat().st_mtime > since + 0.1, 10)
    for b in players:
        b.play(1, pace=0.003)
    assert eventually(lambda: all(b.box.session.mode == "game" for b in players), 10)
    room.broker.kill()
    assert eventually(lambda: all(b.finished for b in players), 20)
    assert records(room) == had
    room.broker.start()
    wanted = had | {(t, b.finished[0]) for t, b in zip(names, players)}
    assert eventually(lambda: records(room) == wanted, 15), records(room)
    assert eventually(lambda: all(b.link.outbox.pending() == 0 for b in players), 10)
    assert records(room) == wanted and len(room.room.store) == len(wanted)  # each once
    played = sum(1 for d in room.room.store.digests() if d["game"] == "entanglion")
    assert eventually(lambda: f"Entanglion {played}" in room.driver.execute_script(
        "const t = document.querySelector('#report-body table.report');"
        "return t ? t.innerText.replace(/\\s+/g, ' ') : ''"), 15)


def test_hostile_messages_cost_the_room_nothing(room, caplog):
    from rig import Watcher

    caplog.set_level(logging.WARNING, logger="companion.room.client")
    before = room.room.link.refused
    mallory = Watcher(room.broker.port, "mallory", topic="companion/r1/nothing-to-read")
    try:
        for topic, payload in [
                ("companion/r1/t1/state", b"\xff not json"),
                ("companion/r1/t1/state", b"[" * 50_000),
                ("companion/r1/t1/state", json.dumps({"mode": "game", "game": "qno",
                                                      "counts": "many"}).encode()),
                ("companion/r1/t%20/state", b"{}"),
                ("companion/r1/t1/record", json.dumps({"room": "r1", "table": "t2"}).encode()),
                ("companion/r1/t1/state", b"{" * (2 * 1024 * 1024))]:  # over the room's limit
            mallory.publish(topic, payload)
        for n in range(2000):  # a flood
            mallory.client.publish(f"companion/r1/f{n}/availability", b"garbage", qos=0)
        mallory.publish("companion/r1/t1/availability", b"online")  # after the flood
        assert eventually(lambda: room.room.link.refused - before >= 2004, 15)
    finally:
        mallory.close()
    assert len([r for r in caplog.records if "message ignored" in r.message]) <= 2
    assert room.room.tables.count() <= len(TABLES) + 1  # no table made of garbage
    # The room still follows the boxes at once.
    t9 = room.to_menu("t9")
    t9.press("OK")
    assert eventually(lambda: "Setting up a game" in room.card("t9"), 5), room.card("t9")


def test_a_record_the_disk_refuses_is_said_on_the_page_until_it_lands(room, monkeypatch):
    """The laptop's disk full: the page says so at once, the record waits in the broker
    (unacknowledged), and lands once the disk takes it again; the store at its bound,
    the report names the game it archived. Before the test that restarts the room: the
    browser follows the first room's page."""
    import errno
    import os
    from pathlib import Path

    from rig import Watcher

    from companion.room import client, store

    monkeypatch.setattr(client, "RETRY_EVERY", 0.2)
    folder, real, full = room.room.store.folder, os.replace, [True]

    def replace(src, dst, *args, **kw):
        if full[0] and Path(dst).parent == folder:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(src, dst, *args, **kw)

    game = {"room": "r1", "table": "t10", "game_id": 9001, "game": "entanglion",
            "status": "lost", "scenario": None, "story": None}

    def line() -> str:
        return room.driver.execute_script(
            "const e = document.getElementById('store-status'); return e.hidden ? '' : e.innerText")

    t10 = Watcher(room.broker.port, "t10", topic="companion/r1/command")
    try:  # one game saved first: the store is never empty (in any order of the tests)
        t10.publish("companion/r1/t10/record", json.dumps({**game, "game_id": 9000}))
        assert eventually(lambda: ("t10", 9000) in records(room), 10)
        monkeypatch.setattr(store.os, "replace", replace)
        had = records(room)
        t10.publish("companion/r1/t10/record", json.dumps(game))
        assert eventually(lambda: "Records cannot be saved: No space left on device." in line(),
                          10), line()
        assert "1 finished game waits in the broker" in line() and records(room) == had
        # The store at its bound: the record that lands moves the oldest to the archive.
        oldest = room.room.store.digests()[0]
        monkeypatch.setattr(store, "MAX_RECORDS", len(had))
        full[0] = False
        wanted = had - {(oldest["table"], oldest["game_id"])} | {("t10", 9001)}
        assert eventually(lambda: records(room) == wanted, 10), records(room)
        assert eventually(lambda: line() == "", 5), line()
        assert eventually(lambda: "1 older game is in the room's archive folder" in
                          room.driver.find_element("id", "report-body").text, 5)
    finally:
        t10.close()


def test_a_room_away_misses_no_record_and_keeps_its_own(room):
    """Its persistent session: a game that ends while the room is stopped reaches it when
    it is back; the games it had are still in its store."""
    from companion import room as room_mod

    had = records(room)
    mqtt = room.room.link.mqtt
    room.room.stop()
    t1 = room.to_menu("t1")
    t1.play(1)
    assert eventually(lambda: t1.finished and t1.link.outbox.pending() == 0, 20)
    room.room = room_mod.start(mqtt, room.folder / "room-state", analyse=False)
    assert eventually(lambda: records(room) == had | {("t1", t1.finished[0])}, 10)
