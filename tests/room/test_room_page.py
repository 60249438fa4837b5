"""The room's page over HTTP: the box page's protections, and commands only with the
room's key, from the room's own page."""

from __future__ import annotations

import http.client
import json

import pytest

from companion.room.server import KEY_COOKIE, RoomServer
from companion.room.store import Store
from companion.room.tables import Tables
from companion.web.handler import SECURITY_HEADERS

KEY = "k" * 24


@pytest.fixture
def page(tmp_path):
    from companion.mqtt import commands

    sent = []

    def send(command):
        commands.parse(json.dumps(command).encode())  # as the room's link checks it
        sent.append(command)

    store = Store(tmp_path / "records")
    tables = Tables("r1", on_record=store.add)
    server = RoomServer("r1", tables, store, send, dict, KEY).start()
    yield server, tables, sent
    server.stop()


def ask(server, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request(method, path, body=body, headers={"Host": f"127.0.0.1:{server.port}",
                                                   **(headers or {})})
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r, data


def test_the_page_has_the_box_pages_headers_gzip_and_host_check(page):
    server, _, _ = page
    r, data = ask(server, "GET", "/")
    assert r.status == 200 and b"/room.js" in data
    for name, value in SECURITY_HEADERS.items():
        assert r.getheader(name) == value
    assert "companion_csrf=" in r.getheader("Set-Cookie")
    r, _ = ask(server, "GET", "/room.js", headers={"Accept-Encoding": "gzip"})
    assert r.getheader("Content-Encoding") == "gzip"
    # DNS rebinding: a site whose name points at the laptop gets nothing.
    r, _ = ask(server, "GET", "/tables", headers={"Host": "evil.example"})
    assert r.status == 403


def test_the_key_in_the_address_becomes_a_strict_cookie(page):
    server, _, _ = page
    r, _ = ask(server, "GET", "/?key=wrong")
    assert r.status == 403
    r, _ = ask(server, "GET", f"/?key={KEY}")
    cookie = r.getheader("Set-Cookie")
    assert r.status == 302 and r.getheader("Location") == "/"
    assert f"{KEY_COOKIE}={KEY}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    _, data = ask(server, "GET", "/setup", headers={"Cookie": f"{KEY_COOKIE}={KEY}"})
    setup = json.loads(data)
    assert setup["may_command"] and [g["game"] for g in setup["games"]] == \
        ["entanglion", "qno", "qlanet"]
    assert json.loads(ask(server, "GET", "/setup")[1])["may_command"] is False


RULES = json.dumps({"command": "rules", "game": "entanglion", "rules": {"start_space": 4}})
GOOD = {"Content-Type": "application/json", "Cookie": f"companion_csrf=c; {KEY_COOKIE}={KEY}",
        "X-Companion-CSRF": "c"}


@pytest.mark.parametrize("headers,status", [
    ({**GOOD, "Cookie": f"{KEY_COOKIE}={KEY}"}, 403),  # no CSRF cookie: a cross-site form
    ({k: v for k, v in GOOD.items() if k != "X-Companion-CSRF"}, 403),
    ({**GOOD, "Origin": "http://evil.example"}, 403),
    ({**GOOD, "Cookie": "companion_csrf=c"}, 403),  # watching only: no key
    ({**GOOD, "Cookie": f"companion_csrf=c; {KEY_COOKIE}=guess"}, 403),
    ({**GOOD, "Content-Type": "text/plain"}, 415),
], ids=["no csrf cookie", "no csrf header", "cross origin", "no key", "wrong key", "not json"])
def test_no_command_without_the_key_from_the_rooms_own_page(page, headers, status):
    server, _, sent = page
    r, _ = ask(server, "POST", "/command", RULES, headers)
    assert r.status == status and sent == []


def test_a_command_from_the_page_is_sent_and_a_bad_one_is_refused_with_why(page):
    server, _, sent = page
    r, _ = ask(server, "POST", "/command", RULES,
               {**GOOD, "Origin": f"http://127.0.0.1:{server.port}"})
    assert r.status == 200 and sent == [json.loads(RULES)]
    r, data = ask(server, "POST", "/command", json.dumps({"command": "message", "text": "x" * 200}),
                  GOOD)
    assert r.status == 400 and "printable characters" in json.loads(data)["error"]
    r, _ = ask(server, "POST", "/command", json.dumps({"command": "reboot"}), GOOD)
    assert r.status == 400 and len(sent) == 1


def test_the_stream_sends_every_table_then_each_change(page):
    server, tables, _ = page
    tables.take("companion/r1/t1/availability", b"online")
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", "/events", headers={"Host": f"127.0.0.1:{server.port}"})
    r = conn.getresponse()
    assert r.getheader("Content-Type") == "text/event-stream"

    def message() -> tuple[str, dict]:
        event, data = "message", None
        while data is None:
            line = r.fp.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
        return event, data

    event, first = message()
    assert event == "message" and [t["name"] for t in first["tables"]] == ["t1"]
    tables.take("companion/r1/t2/state", b'{"mode": "menu"}')
    event, change = message()
    assert event == "table" and change["name"] == "t2" and change["state"]["mode"] == "menu"
    assert change["version"] > first["version"]
    conn.close()


def test_the_page_speaks_the_rooms_language(page):
    from companion import i18n

    server, _, _ = page
    i18n.set_language("pl")
    try:
        catalog = json.loads(ask(server, "GET", "/catalog.json")[1])
        setup = json.loads(ask(server, "GET", "/setup")[1])
    finally:
        i18n.set_language("en")
    assert catalog["language"] == "pl" and catalog["messages"]["core"]["Tables"] == "Stoły"
    step = setup["games"][0]["steps"][0]
    assert step["key"] == "start_space" and step["title"] != "Difficulty"


def test_the_report_is_built_once_per_change_and_never_stale(page, monkeypatch):
    from companion.room import report

    server, tables, _ = page
    built = []
    real = report.build
    monkeypatch.setattr(report, "build", lambda *a: built.append(1) or real(*a))

    def games() -> int:
        return sum(g["played"] for g in json.loads(ask(server, "GET", "/report")[1])["games"])

    def send(game_id):
        tables.take("companion/r1/t1/record", json.dumps({
            "room": "r1", "table": "t1", "game_id": game_id, "game": "qno", "status": "won",
            "scenario": None, "story": None}).encode())

    assert games() == 0
    send(1)
    assert games() == games() == 1 and len(built) == 2  # many pages ask: one build
    send(1)  # the same record again: nothing to build
    send(2)
    assert games() == 2 and len(built) == 3
    data = json.loads(ask(server, "GET", "/report")[1])
    assert data["store"] == {"unsaved": 0, "why": None, "archived": 0}
