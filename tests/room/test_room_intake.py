"""What the room takes from the broker: each message checked and bounded, records kept
once on disk, a damaged record costing itself only, and the report they make."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from companion.room import report, store as store_mod, tables as tables_mod
from companion.room.store import Store
from companion.room.tables import Refused, Tables


def record(table="t1", game_id=1, status="won", start_space=1, detections=None,
           lost_to=None, room="r1"):
    return {"room": room, "table": table, "game_id": game_id, "game": "entanglion",
            "status": status,
            "scenario": {"seed": 1, "options": {"start_space": start_space, "deck": "virtual",
                                                "dice": "auto"}, "setup": {}, "actions": []},
            "story": {"detections": detections or {"PROBE": 1}, "lost_to": lost_to,
                      "turns": 12}}


def snapshot_of_a_game(tmp_path) -> dict:
    from web_rig import make_sim

    from companion.inputs import Press
    from companion.web import snapshot

    sim = make_sim(tmp_path, 3)
    for _ in range(5):  # main menu, three set-up steps: the game begins
        sim.box.handle(Press("OK"))
    return snapshot.build(sim.box.session)


@pytest.fixture
def room(tmp_path):
    kept = Store(tmp_path / "records")
    return Tables("r1", on_record=kept.add), kept


def test_a_tables_snapshot_is_boiled_down_to_what_the_room_shows(tmp_path, room):
    tables, _ = room
    snap = snapshot_of_a_game(tmp_path)
    assert tables.take("companion/r1/t1/state", json.dumps(snap).encode(), retained=True)
    assert tables.take("companion/r1/t1/availability", b"online")
    assert tables.take("companion/r1/t1/info", b'{"web":"http://10.0.0.7:8080/"}')
    (_, view), = tables.views()[1]
    state = view["state"]
    assert (state["game"], state["status"], state["detection"]) == ("entanglion", "playing", 1)
    assert state["ships"] == snap["ships"] and state["turn"]["player"] == snap["turn"]["player"]
    assert view["online"] is True and view["web"] == "http://10.0.0.7:8080/"
    assert view["playing_for"] is not None and view["playing_for_exact"] is False
    assert len(json.dumps(state)) < 1000  # not the box's whole snapshot
    # The same again changes nothing: no stream is woken for it.
    assert not tables.take("companion/r1/t1/state", json.dumps(snap).encode())


@pytest.mark.parametrize("topic,payload,why", [
    ("companion/r1/t1/state", b"\xff\xfe", "not JSON"),
    ("companion/r1/t1/state", b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
    ("companion/r1/t1/state", b"x" * (300 * 1024), r"bytes \(at most"),
    ("companion/r1/t1/state", b"[1, 2]", "not a JSON object"),
    ("companion/r1/t1/availability", b"maybe", "online or offline"),
    ("companion/r1/t1/info", b'{"web": "javascript:alert(1)//"}', "not a page address"),
    ("companion/r1/t1/info", b'{"web": "http://x/\\"><script>"}', "not a page address"),
    ("companion/r1/t 1/state", b"{}", "a table name"),
    ("companion/r1/" + "t" * 65 + "/state", b"{}", "a table name"),
    ("companion/r1/t1/secrets", b"{}", "unknown topic"),
    ("companion/r1/t1/state/more", b"{}", "not a table's topic"),
    ("companion/r2/t1/state", b"{}", "not a table's topic"),
    ("companion/r1/t1/record", b'{"room": "r1", "table": "t2", "game_id": 1}', "sent as r1/t1"),
    ("companion/r1/t1/record", json.dumps({**record(), "game_id": True}).encode(), "game_id"),
    ("companion/r1/t1/record", json.dumps({**record(), "game": "chess"}).encode(), "unknown game"),
    ("companion/r1/t1/record", json.dumps({**record(), "status": "playing"}).encode(), "status"),
    ("companion/r1/t1/record", json.dumps({**record(), "story": [1]}).encode(), "story"),
])
def test_hostile_messages_are_refused_with_a_reason(room, topic, payload, why):
    tables, kept = room
    with pytest.raises(Refused, match=why):
        tables.take(topic, payload)
    assert tables.count() == 0 and len(kept) == 0


def test_wrong_types_inside_a_state_are_left_out_never_raised(room):
    tables, _ = room
    hostile = {"mode": "game", "game": "entanglion", "game_id": "7", "status": 3,
               "turn": [1], "ships": {"mercurial": "<script>", "rubicon": {"x": 1}},
               "components": {"planets": {"|0>": 5, "nowhere": "x",
                                          "|1>": '"><img src=x onerror=alert(1)>'},
                              "mercurial": "abc"},
               "detection": {"space": 10 ** 9}, "winners": ["a" * 100]}
    assert tables.take("companion/r1/t1/state", json.dumps(hostile).encode())
    state = tables.views()[1][0][1]["state"]
    assert state["game_id"] is None and state["status"] is None and state["ships"] == {}
    assert state["planets"] == {} and state["detection"] is None and state["winners"] == []
    assert tables.take("companion/r1/t1/state", b'{"mode": "menu", "game": ["qno"]}')


def test_the_number_of_tables_is_bounded_and_an_offline_one_makes_room(room, monkeypatch):
    monkeypatch.setattr(tables_mod, "MAX_TABLES", 3)
    tables, _ = room
    for n in range(3):
        tables.take(f"companion/r1/t{n}/availability", b"online")
    with pytest.raises(Refused, match="holds 3 tables"):
        tables.take("companion/r1/flood/state", b"{}")
    tables.take("companion/r1/t1/availability", b"offline")
    tables.take("companion/r1/late/availability", b"online")
    assert [v["name"] for _, v in tables.views()[1]] == ["late", "t0", "t2"]


def test_a_stream_is_handed_only_the_tables_changed_since_its_last_message(room):
    tables, _ = room
    for n in range(3):
        tables.take(f"companion/r1/t{n}/availability", b"online")
    seen, everything = tables.views()
    assert len(everything) == 3
    tables.take("companion/r1/t1/state", b'{"mode": "menu"}')
    now, changed = tables.views(seen)
    assert [v["name"] for _, v in changed] == ["t1"] and now > seen
    assert tables.views(now)[1] == []
    tables.take("companion/r1/t1/state", b'{"mode": "menu"}')  # the same again: no change
    assert tables.views(now) == (now, [])


def test_records_are_kept_once_on_disk_and_survive_a_restart(tmp_path, room):
    tables, kept = room
    payload = json.dumps(record()).encode()
    assert tables.take("companion/r1/t1/record", payload)
    assert not tables.take("companion/r1/t1/record", payload)  # QoS 1 brought it twice
    assert tables.take("companion/r1/t2/record", json.dumps(record("t2")).encode())
    assert len(kept) == 2
    again = Store(tmp_path / "records")
    assert [(d["table"], d["game_id"]) for d in again.digests()] == [("t1", 1), ("t2", 1)]
    assert (tmp_path / "records").stat().st_mode & 0o077 == 0
    assert again.load("t1", 1) == record()


def test_a_damaged_record_is_named_and_costs_only_itself(tmp_path, caplog):
    kept = Store(tmp_path / "records")
    for n in (1, 2, 3):
        kept.add(record(game_id=n))
    (tmp_path / "records" / "t1.2.json").write_bytes(b'{"received": 1, "rec')
    (tmp_path / "records" / "t9.9.json").write_text(json.dumps(
        {"received": 1, "record": record(game_id=1)}))  # a file under another's name
    again = Store(tmp_path / "records")
    assert [d["game_id"] for d in again.digests()] == [1, 3]
    assert sorted(again.damaged) == ["t1.2.json", "t9.9.json"]
    assert "t1.2.json cannot be read" in caplog.text and "every other record is kept" in caplog.text
    assert again.add(record(game_id=2)) and again.damaged == ["t9.9.json"]  # sent again: mended


def test_past_its_bound_the_oldest_record_goes_to_the_archive_never_away(tmp_path, monkeypatch):
    monkeypatch.setattr(store_mod, "MAX_RECORDS", 3)
    clock = iter(range(100))
    kept = Store(tmp_path / "records", wall=lambda: float(next(clock)))
    for n in range(1, 6):
        kept.add(record(game_id=n))
    assert [d["game_id"] for d in kept.digests()] == [3, 4, 5]
    assert sorted(p.name for p in (tmp_path / "records").glob("*.json")) == \
        ["t1.3.json", "t1.4.json", "t1.5.json"]
    archive = tmp_path / "records" / store_mod.ARCHIVE
    assert sorted(p.name for p in archive.iterdir()) == ["t1.1.json", "t1.2.json"]
    assert kept.status()["archived"] == 2
    assert not kept.add(record(game_id=1))  # an archived record sent again is no new game
    again = Store(tmp_path / "records")  # a restart: the same report, the same count
    assert [d["game_id"] for d in again.digests()] == [3, 4, 5] and again.archived == 2


def test_the_report_counts_wins_per_set_up_and_causes_in_the_stories_words():
    digests = [store_mod.digest(r, n) for n, r in enumerate([
        record("t1", 1, "won", 1, {"PROBE": 2, "ground defence": 1}),
        record("t2", 1, "lost", 4, {"orbital defence": 3}, lost_to="orbital defence"),
        record("t2", 2, "won", 4, {"orbital defence": 1}),
    ])]
    analyses = {("t2", 1): {"turn": 5, "played": "CNOT", "best": "H", "cost": 40}}
    r = report.build(digests, analyses)
    assert r["games"] == [{"game": "entanglion", "title": "Entanglion", "played": 3, "won": 2}]
    assert [(s["setup"], s["played"], s["won"]) for s in r["setups"]] == [
        ("Easy: track at 1, Box deals (virtual), Box rolls", 1, 1),
        ("Hard: track at 3, Box deals (virtual), Box rolls", 2, 1)]
    assert r["causes"] == [{"cause": "orbital defence", "count": 4},
                           {"cause": "PROBE", "count": 2}, {"cause": "ground defence", "count": 1}]
    assert r["lost_to"] == [{"cause": "orbital defence", "count": 1}]
    assert r["costliest"] == [{"table": "t2", "game_id": 1, **analyses[("t2", 1)]}]
    rows = report.csv_text(digests, analyses).splitlines()
    assert rows[0].startswith("table,game_id,game,status,setup")
    assert rows[2] == ('t2,1,Entanglion,lost,"Hard: track at 3, Box deals (virtual), Box rolls",'
                       '12,orbital defence: 3,orbital defence,CNOT,H,40')


def test_a_csv_cell_never_starts_a_spreadsheet_formula():
    digest = store_mod.digest({**record(), "table": "=cmd"}, 0)  # a table name cannot, but
    digest["detections"] = {"=HYPERLINK(1)": 1}  # a cause comes from a box's story
    text = report.csv_text([digest], {})
    assert "\n'=cmd," in text and "'=HYPERLINK(1): 1" in text


def test_the_room_analyses_a_record_within_its_budget(tmp_path):
    """The costliest choice of a real game, found on the analyst's own thread."""
    from web_rig import make_sim, play

    from companion import records
    from companion.autoplay import AutoPlayer
    from waiting import eventually

    sim = make_sim(tmp_path, 3)
    play(sim, AutoPlayer(3))
    journal = sim.box.session.journal
    game = journal.load(sim.box.session.game_id)
    kept = Store(tmp_path / "records")
    kept.add({"room": "r1", "table": "t1", "game_id": game.id, "game": "entanglion",
              "status": game.status, "scenario": records.scenario(game),
              "story": records.story(game)})
    done = []
    analyst = report.Analyst(kept, tmp_path, budget=16, on_done=lambda: done.append(1)).start()
    analyst.poke()
    try:
        assert eventually(lambda: done, 15)
    finally:
        analyst.stop()
    found = analyst.analyses()[("t1", game.id)]
    assert found is None or (found["played"] != found["best"] and 0 < found["cost"] <= 100)
    # Kept: a restarted room does not analyse it again.
    assert report.Analyst(kept, tmp_path).analyses() == analyst.analyses()


def test_the_rooms_rules_are_kept_for_its_restarts_and_a_bad_file_is_named(tmp_path, caplog):
    from companion.config import MqttConfig
    from companion.room.client import RULES_FILE, RoomLink

    mqtt = MqttConfig(enabled=True, room="r1")
    tables = Tables("r1", on_record=lambda r: True)
    link = RoomLink(mqtt, tables, tmp_path)
    sent = []
    link.connected.set()  # as if connected, with a client that only records the publish
    link.client.publish = lambda topic, payload, qos, retain: sent.append(retain) or \
        SimpleNamespace(rc=0)
    link.send({"command": "rules", "game": "qno", "rules": {"players": 3}})
    link.send({"command": "rules", "game": "qno", "rules": {"hands": "honour"}})
    assert sent == [True, True]  # rules are retained
    assert RoomLink(mqtt, tables, tmp_path).rules == {"qno": {"players": 3, "hands": "honour"}}
    (tmp_path / RULES_FILE).write_text('{"qno": {"players": 99}}')
    assert RoomLink(mqtt, tables, tmp_path).rules == {}
    assert f"{tmp_path / RULES_FILE} cannot be read" in caplog.text


@pytest.mark.parametrize("game,fields", [("qno", ("counts", "top")),
                                         ("qlanet", ("costs", "hand_sizes", "deck_size"))])
def test_a_card_games_table_shows_its_own_summary(tmp_path, game, fields):
    from web_rig import make_sim

    from companion.autoplay import AutoPlayer
    from companion.web import snapshot

    sim = make_sim(tmp_path, 3)
    player = AutoPlayer(3, game=game)
    for _ in range(2000):  # into the game (past its deal) and a few turns on
        g = sim.box.session.game if sim.box.session.mode == "game" else None
        if g is not None and g.state.status == "playing" and g.state.turn_number > 1:
            break
        sim.run(player.next_command(sim.box.session))
    state = tables_mod.summary(snapshot.build(sim.box.session))
    assert state["game"] == game and state["status"] == "playing"
    assert isinstance(state["turn"]["player"], int)
    for field in fields:
        assert state[field] is not None, field
