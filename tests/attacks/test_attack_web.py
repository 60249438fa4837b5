"""A hostile page or neighbour against the web page: rebinding, forged origins, PIN
guessing from many addresses, rate-limit floods, stale pairings, switching the box
off from a phone, a slowloris and hostile JSON. Every one must fail."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import socket
import time

import pytest

from bench.attacks import guess_pins, half_sent, page_answers, post_headers, request, source
from companion.web import gate as door
from companion.web import server as web
from companion.web.publish import Publisher
from companion.web.server import Pairing, WebServer


@pytest.fixture
def paired_box():
    """A box with ``[web] control``: (server, pairing, inputs it received, burns told)."""
    got, burns = [], []
    pairing = Pairing(on_burn=lambda: burns.append(1))
    server = WebServer(Publisher(), "127.0.0.1", 0, inputs=got.append, pairing=pairing).start()
    yield server, pairing, got, burns
    server.stop()


# ---------------------------------------------------------------- DNS rebinding


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example",
                                  "localhost.evil.example:{port}", "10.9.8.7:{port}", "", "[::2]"])
@pytest.mark.parametrize("path", ["/", "/snapshot", "/config", "/events", "/history"])
def test_a_page_reached_under_another_name_gets_nothing(rig, host, path):
    status, _, body = request(rig.server.port, "GET", path,
                              headers={"Host": host.format(port=rig.server.port)})
    assert status == 403 and b"own address or name" in body
    assert b"oled" not in body


def test_a_rebound_page_cannot_press(rig):
    status, _ = rig.post_input({"kind": "press", "button": "OK"},
                               extra={"Host": "evil.example", "Origin": "http://evil.example"})
    assert status == 403
    rig.wait_idle()
    assert rig.sim.box.session.mode == "menu" and not rig.handled


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "127.0.0.1", "localhost:{port}",
                                  "LOCALHOST", "localhost."])
def test_the_box_s_own_names_are_served(rig, host):
    assert request(rig.server.port, "GET", "/snapshot",
                   headers={"Host": host.format(port=rig.server.port)})[0] == 200


def test_the_machine_s_name_is_served():
    names = web.box_names("0.0.0.0")
    machine = socket.gethostname().lower().split(".")[0]
    assert {"localhost", machine, machine + ".local"} <= names and "0.0.0.0" not in names


# ---------------------------------------------------------------- Origin


@pytest.mark.parametrize("origin,status", [
    ("http://127.0.0.1:{port}", 200),
    ("https://127.0.0.1:{port}", 403),  # another scheme is another origin
    ("http://127.0.0.1", 403),  # another port too
    ("http://127.0.0.1:{port}.evil.example", 403),
    ("http://evil.example/http://127.0.0.1:{port}", 403),
    ("null", 403),
    ("ws://127.0.0.1:{port}", 403),
])
def test_only_the_box_s_own_origin_may_post(rig, origin, status):
    got, _ = rig.post_input({"kind": "press", "button": "DOWN"},
                            extra={"Origin": origin.format(port=rig.server.port)})
    assert got == status


# ---------------------------------------------------------------- the PIN


def test_guessing_the_pin_from_many_addresses_burns_it_after_a_few(paired_box):
    server, pairing, got, burns = paired_box
    pin = pairing.new_pin()
    result = guess_pins(server.port, pin, addresses=200, most=50)
    assert result["blocked_after"] == web.PIN_TRIES
    assert result["rate_limited"] == 0  # the addresses were enough to dodge the rate limit
    assert result["right_pin_then"] == 403  # burned: even the right PIN is refused
    assert burns == [1]  # the box was told once (it shows it and offers a new PIN)
    # A new PIN from the box pairs again.
    status, headers, _ = request(server.port, "POST", "/pair", {"pin": pairing.new_pin()},
                                 post_headers())
    assert status == 200 and "companion_pair=" in headers["set-cookie"]


def test_a_burned_pin_is_told_on_the_box_over_the_pin_screen(tmp_path):
    from companion.inputs import PinBurned, Press
    from companion.journal import Journal
    from companion.registry import Registry
    from companion.session import Session, SessionConfig

    pairing = Pairing()
    with Journal(tmp_path / "journal.db") as journal:
        session = Session(journal, Registry(), SessionConfig(web_pin=pairing.new_pin))
        items = session.screen()["items"]
        for _ in range(items.index("Web PIN")):
            session.handle(Press("DOWN"))
        session.handle(Press("OK"))
        assert session.screen()["title"] == "Web PIN" and session.screen().get("private")
        session.handle(PinBurned())
        screen = session.screen()
        assert screen["title"] == "Web PIN blocked" and not screen.get("private")
        assert "Web PIN in the menu makes a new one." in screen["lines"]
        session.handle(Press("OK"))
        assert "Web PIN" in session.screen()["items"]  # the new one is a press away


def test_the_daemon_s_pairing_tells_the_box_through_its_queue():
    from companion.inputs import PinBurned
    from companion.web import service

    class Web:
        control = True

    put = []
    pairing = service.pairing_for(Web, put.append)
    pairing.new_pin()
    for _ in range(web.PIN_TRIES):
        pairing.pair("bad")
    assert put == [PinBurned()]


# ---------------------------------------------------------------- rate-limit table


def test_an_address_flood_evicts_the_oldest_entries_not_the_whole_table():
    now = [0.0]
    bucket = web._Bucket(0.1, 2, clock=lambda: now[0])
    flood = [source(n) for n in range(web.MAX_CLIENTS + 1000)]
    for who in flood:  # every address drains its bucket
        while bucket.take(who):
            pass
    assert len(bucket._level) == web.MAX_CLIENTS
    # The newest addresses are still remembered as drained: the flood did not reset them.
    assert not any(bucket.take(who) for who in flood[-web.MAX_CLIENTS // 2:])


def test_an_ipv6_64_is_one_client():
    bucket = web._Bucket(0.1, 2, clock=lambda: 0.0)
    takes = [bucket.take(f"2001:db8:1:2::{n:x}") for n in range(1, 10)]
    assert takes == [True, True] + [False] * 7
    assert bucket.take("2001:db8:1:3::1")  # the next /64 is someone else
    assert door.client_key("::ffff:10.0.0.7") == "10.0.0.7"


# ---------------------------------------------------------------- pairings


def test_a_pairing_expires_and_a_new_pin_ends_every_pairing():
    now = [0.0]
    pairing = Pairing(clock=lambda: now[0], paired_for=3600)
    first = pairing.pair(pairing.new_pin())
    now[0] = 3599
    assert pairing.paired(first)
    now[0] = 3600
    assert not pairing.paired(first)
    second = pairing.pair(pairing.new_pin())
    assert pairing.paired(second)
    pairing.new_pin()  # the table asks for a new PIN: every browser must pair again
    assert not pairing.paired(second)


def test_an_expired_pairing_cookie_cannot_press(paired_box, monkeypatch):
    server, pairing, got, _ = paired_box
    token = "t" * 16
    status, headers, _ = request(server.port, "POST", "/pair", {"pin": pairing.new_pin()},
                                 post_headers(token))
    assert status == 200 and "max-age=" in headers["set-cookie"].lower()
    paired = headers["set-cookie"].split(";")[0]
    cookies = {"Cookie": f"companion_csrf={token}; {paired}"}
    press = {"kind": "press", "button": "DOWN"}
    assert request(server.port, "POST", "/input", press, post_headers(token, **cookies))[0] == 200
    monkeypatch.setattr(pairing, "clock", lambda: time.monotonic() + pairing.paired_for)
    assert request(server.port, "POST", "/input", press, post_headers(token, **cookies))[0] == 403
    assert len(got) == 1


# ---------------------------------------------------------------- switching off


def _session_with_web(tmp_path):
    from companion.journal import Journal
    from companion.registry import Registry
    from companion.session import Session, SessionConfig

    journal = Journal(tmp_path / "journal.db")
    return journal, Session(journal, Registry(), SessionConfig(web_pin=Pairing().new_pin))


def _choose_switch_off(session, remote):
    from companion.inputs import Press

    session.handle(Press("UP", remote=remote))  # the main menu's last item
    session.handle(Press("OK", remote=remote))
    session.handle(Press("DOWN", remote=remote))  # "Yes, switch off"
    session.handle(Press("OK", remote=remote))


def test_a_phone_cannot_switch_the_box_off_without_the_box_s_own_ok(tmp_path):
    from companion.inputs import Hold, Press

    journal, session = _session_with_web(tmp_path)
    with journal:
        _choose_switch_off(session, remote=True)
        assert session.request is None
        assert session.screen()["title"] == "Switch off?"
        for button in ("OK", "OK", "BACK", "DOWN"):  # the phone insists: nothing happens
            session.handle(Press(button, remote=True))
        session.handle(Hold("BACK", remote=True))
        assert session.request is None and session.screen()["title"] == "Switch off?"
        session.handle(Press("OK"))  # the box's own button
        assert session.request == "power_off"


def test_any_other_button_on_the_box_keeps_it_on(tmp_path):
    from companion.inputs import Press

    journal, session = _session_with_web(tmp_path)
    with journal:
        _choose_switch_off(session, remote=True)
        session.handle(Press("BACK"))
        assert session.request is None and session.screen()["screen"] == "menu"
        _choose_switch_off(session, remote=False)  # the box's buttons alone: at once
        assert session.request == "power_off"


def test_a_paired_phone_s_presses_are_marked_remote(paired_box):
    server, pairing, got, _ = paired_box
    token = "t" * 16
    _, headers, _ = request(server.port, "POST", "/pair", {"pin": pairing.new_pin()},
                            post_headers(token))
    cookies = {"Cookie": f"companion_csrf={token}; {headers['set-cookie'].split(';')[0]}"}
    request(server.port, "POST", "/input", {"kind": "hold", "button": "BACK"},
            post_headers(token, **cookies))
    assert got == [web.Hold("BACK", remote=True)]


# ---------------------------------------------------------------- slowloris


def test_half_sent_requests_from_many_addresses_do_not_take_the_page_down(rig):
    socks = half_sent(rig.server.port, door.MAX_CONNECTIONS + 150, addresses=400)
    try:
        assert page_answers(rig.server.port)
        assert rig.server.gate.count() <= rig.server.gate.most
        assert rig.server.gate.evicted >= 150
    finally:
        for s in socks:
            s.close()


def test_one_address_holds_no_more_than_its_share(rig):
    socks = half_sent(rig.server.port, door.MAX_PER_CLIENT * 3, addresses=1)
    try:
        assert rig.server.gate.count(socks[0].getsockname()[0]) <= door.MAX_PER_CLIENT
        assert page_answers(rig.server.port, source_ip=source(9999))
        assert page_answers(rig.server.port, source_ip=source(0))  # the same address, too
    finally:
        for s in socks:
            s.close()


def test_when_every_connection_is_busy_a_newcomer_is_told_the_box_is_full(monkeypatch):
    monkeypatch.setattr(door, "MAX_CONNECTIONS", 4)
    monkeypatch.setattr(web, "MAX_STREAMS", 10)
    server = WebServer(Publisher(), "127.0.0.1", 0).start()
    streams = []
    try:
        for n in range(4):  # streams are busy connections: never evicted
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                         source_address=(source(n), 0))
            s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
            streams.append(s)
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as late:
            reply = b""
            while chunk := late.recv(4096):
                reply += chunk
        assert reply.startswith(b"HTTP/1.1 503") and b"box is full" in reply
        assert server.gate.refused == 1
    finally:
        for s in streams:
            s.close()
        server.stop()


def test_out_of_file_handles_the_accept_loop_pauses_instead_of_spinning(monkeypatch, caplog):
    monkeypatch.setattr(door, "ACCEPT_PAUSE", 30.0)
    calls = []

    class OutOfHandles(socket.socket):
        def accept(self):
            calls.append(1)
            raise OSError(errno.EMFILE, "Too many open files")

    listener = OutOfHandles(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    waiting = socket.create_connection(listener.getsockname())  # readable from now on
    loop = asyncio.new_event_loop()
    gate = door.Gate([listener], lambda stream, address: None, 4096)
    try:
        gate.open(loop)
        deadline = time.monotonic() + 5
        while not calls and time.monotonic() < deadline:
            loop.run_until_complete(asyncio.sleep(0.01))
        loop.run_until_complete(asyncio.sleep(0.3))  # a spinning loop would call thousands
        assert len(calls) == 1 and gate.pauses == 1
        assert [r.levelno for r in caplog.records] == [logging.WARNING]
        assert not any(r.exc_info for r in caplog.records)
    finally:
        gate.close()
        loop.close()
        waiting.close()


# ---------------------------------------------------------------- hostile JSON


@pytest.mark.parametrize("body", [
    b"{", b"[" * 2040 + b"]" * 2040, b'{"kind":' + b"[" * 2000 + b"]" * 2000 + b"}",
    b'{"kind": ["press"], "button": "OK"}', b'{"kind": {"a": 1}}', b'{"kind": null}',
    b'{"kind": "tap", "pad": 1, "uid": ["04"]}', b'{"kind": "tap", "pad": [1], "uid": "x"}',
    b'{"kind": "press", "button": ["OK"]}', b'{"kind": "press", "button": {"OK": 1}}',
    b"\xff\xfe{}", b'"\\ud800"', b"1" * 4000, b"NaN", b"{}" * 100,
])
def test_malformed_or_deeply_nested_json_gets_400_and_no_traceback(rig, body, caplog):
    with caplog.at_level(logging.WARNING):
        status, data = rig.post_input(body)
    assert status == 400 and json.loads(data)["error"]
    assert not any(r.exc_info for r in caplog.records)
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("body", [{"pin": ["123456"]}, {"pin": 123456}, {"pin": "1" * 5000}])
def test_a_malformed_pin_gets_400_and_costs_no_guess(paired_box, body):
    server, pairing, _, _ = paired_box
    pin = pairing.new_pin()
    for n in range(web.PIN_TRIES + 1):
        try:
            status, _, _ = request(server.port, "POST", "/pair", body, post_headers(),
                                   source_ip=source(n))
        except ConnectionResetError:
            # An oversized body may be refused before it is all sent: the reset is the
            # refusal (the server answered 413 and closed while the client still wrote).
            status = 413
        assert status in (400, 413, 429)
    assert request(server.port, "POST", "/pair", {"pin": pin}, post_headers())[0] == 200
