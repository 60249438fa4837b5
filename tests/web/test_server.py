"""The web server on loopback: the page, the push stream, guarded inputs, and clients
that misbehave (slow, silent, hostile, many). All bound to 127.0.0.1 on a free port."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from companion.web import patch
from companion.web import server as web
from companion.web.publish import Publisher
from companion.web.server import WebServer
from web_rig import Client, Rig


def _stream(port: int, timeout: float = 5.0) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return sock


class _Buffer(bytearray):
    """What a stream has sent and not been read yet, and the snapshot it last gave."""

    last: dict | None = None


def _next_snapshot(sock: socket.socket, buf: _Buffer, timeout: float = 5.0) -> dict:
    """The next snapshot on a stream, as a page sees it: the whole, or the last one
    with a patch applied (as app.js applies it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        end = buf.find(b"\n\n")
        if end >= 0:
            message = bytes(buf[:end])
            del buf[:end + 2]
            fields = dict(line.split(b": ", 1) for line in message.split(b"\n")
                          if b": " in line)
            if b"data" not in fields:
                continue  # the retry line, a keep-alive
            data = json.loads(fields[b"data"])
            if fields.get(b"event") == b"patch":
                assert buf.last is not None, "a patch before any snapshot"
                data = patch.apply(buf.last, data)
            buf.last = data
            return data
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError("stream closed")
        buf += chunk
    raise AssertionError("no snapshot in time")


def test_the_page_and_its_assets_are_served_with_a_strict_policy(rig):
    status, headers, body = rig.request("GET", "/")
    assert status == 200 and b'<script src="/app.js"' in body
    assert "default-src 'self'" in headers["content-security-policy"]
    assert "samesite=strict" in headers["set-cookie"].lower()
    for asset in ("/app.js", "/style.css"):
        assert rig.request("GET", asset)[0] == 200
    config = json.loads(rig.request("GET", "/config")[2])
    assert config["box"] and config["may_play"]
    labels = {(c["game"], c["label"]) for c in config["cards"]}
    assert ("entanglion", "CNOT") in labels and len(labels) == len(config["cards"]) > 40


@pytest.mark.parametrize("path", ["/../pyproject.toml", "/assets/app.js", "/%2e%2e/etc/passwd",
                                  "/app.js/../../x", "/etc/passwd", "/companion/web/server.py",
                                  "/index.html"])
def test_no_file_is_reachable_through_the_web(rig, path):
    assert rig.request("GET", path)[0] == 404


def test_a_press_from_the_page_changes_the_game_and_is_pushed_within_a_second(rig):
    sock = _stream(rig.server.port)
    buf = _Buffer()
    first = _next_snapshot(sock, buf)
    assert first["mode"] == "menu" and first["oled"]
    t0 = time.monotonic()
    assert rig.post_input({"kind": "press", "button": "OK"})[0] == 200
    snap = _next_snapshot(sock, buf)
    assert time.monotonic() - t0 < 1.0
    assert snap["mode"] == "setup" and snap["oled"] != first["oled"]
    sock.close()
    rig.wait_idle()
    assert rig.sim.box.session.mode == "setup"


def test_a_tap_from_the_page_is_the_readers_tag_event_and_is_journaled(rig):
    for _ in range(6):  # the menu and the guided setup, with their defaults
        rig.post_input({"kind": "press", "button": "OK"})
    rig.wait_idle()
    session = rig.sim.box.session
    assert session.mode == "game"
    # The card Mercurial is asked to tap first, from a page: a reader's Tag event.
    hand = session.game.state.hands["mercurial"]
    card = next(c for c in rig.server.cards
                if c["game"] == "entanglion" and hand and c["label"] == hand[0])
    assert rig.post_input({"kind": "tap", "pad": 1, "uid": card["uid"]})[0] == 200
    rig.wait_idle()
    assert rig.handled[-1] == web.Tag(1, card["uid"])


@pytest.mark.parametrize("body,headers,status", [
    ({"kind": "press", "button": "OK"}, {"Content-Type": "text/plain"}, 415),
    (b"kind=press&button=OK", {"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ({"kind": "press", "button": "OK"}, {"Origin": "http://evil.example"}, 403),
    ({"kind": "press", "button": "PANIC"}, {}, 400),
    ({"kind": "explode"}, {}, 400),
    ([1, 2, 3], {}, 400),
    (b"{not json", {}, 400),
    ({"kind": "tap", "pad": 9, "uid": "04E10201010000"}, {}, 400),
    ({"kind": "tap", "pad": True, "uid": "04E10201010000"}, {}, 400),
    ({"kind": "tap", "pad": 1, "uid": "../../etc/passwd"}, {}, 400),
])
def test_bad_posts_get_a_clear_refusal_and_change_nothing(rig, body, headers, status):
    got, data = rig.post_input(body, extra=headers)
    assert got == status
    if data:
        assert json.loads(data)["error"]
    rig.wait_idle()
    assert rig.sim.box.session.mode == "menu"


def test_an_oversized_body_is_refused_before_any_handler_runs(rig):
    try:
        status, _ = rig.post_input({"kind": "press", "button": "OK", "x": "y" * 50000})
        assert status == 400
    except ConnectionResetError:
        pass  # Tornado may close while the body is still on its way: refused too
    rig.wait_idle()
    assert rig.sim.box.session.mode == "menu"
    assert rig.request("GET", "/")[0] == 200


def test_a_post_without_the_csrf_token_is_refused(rig):
    token = rig.csrf()
    for headers in ({"Content-Type": "application/json"},
                    {"Content-Type": "application/json", "Cookie": f"companion_csrf={token}"},
                    {"Content-Type": "application/json", "X-Companion-CSRF": token},
                    {"Content-Type": "application/json", "X-Companion-CSRF": "x" + token,
                     "Cookie": f"companion_csrf={token}"}):
        status, _, _ = rig.request("POST", "/input", {"kind": "press", "button": "OK"}, headers)
        assert status == 403
    assert rig.request("GET", "/input")[0] == 405


def test_inputs_are_rate_limited_per_client(rig):
    token = rig.csrf()
    codes = [rig.post_input({"kind": "press", "button": "DOWN"}, token)[0] for _ in range(40)]
    assert codes[:web.INPUT_BURST] == [200] * web.INPUT_BURST
    assert 429 in codes


def test_a_read_only_server_refuses_inputs(tmp_path):
    publisher = Publisher()
    server = WebServer(publisher, "127.0.0.1", 0).start()
    try:
        rig = Client(server)
        status, data = rig.post_input({"kind": "press", "button": "OK"})
        assert status == 403 and "watch" in json.loads(data)["error"]
        assert json.loads(rig.request("GET", "/config")[2])["may_play"] is False
    finally:
        server.stop()


def test_the_server_binds_only_the_address_it_is_given(rig):
    assert rig.server.sockets[0].getsockname()[0] == "127.0.0.1"


def test_many_clients_all_get_each_update(rig):
    socks = [_stream(rig.server.port) for _ in range(30)]
    bufs = [_Buffer() for _ in socks]
    for s, b in zip(socks, bufs):
        _next_snapshot(s, b)
    rig.run("press down")
    for s, b in zip(socks, bufs):
        assert _next_snapshot(s, b)["screen"]["cursor"] == 1
    for s in socks:
        s.close()


def test_streams_beyond_the_limit_are_refused(rig, monkeypatch):
    monkeypatch.setattr(web, "MAX_STREAMS", 3)
    socks = [_stream(rig.server.port) for _ in range(3)]
    for s in socks:
        _next_snapshot(s, _Buffer())
    status, _, body = rig.request("GET", "/events")
    assert status == 200 and b"event: full" in body  # the page says so, and retries later
    for s in socks:
        s.close()


def test_a_client_that_never_reads_neither_stalls_the_game_nor_grows_memory(rig, monkeypatch):
    monkeypatch.setattr(web, "SLOW_CLIENT", 0.5)
    monkeypatch.setattr(web, "STREAM_SNDBUF", 4096)
    silent = socket.socket()
    silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    silent.connect(("127.0.0.1", rig.server.port))
    silent.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    reader = _stream(rig.server.port)
    buf = _Buffer()
    _next_snapshot(reader, buf)
    # Snapshot after snapshot while one client reads nothing: each is taken by the
    # reader before the next input, so every one is offered to the silent client too
    # (the stream only ever coalesces what a client has not been offered yet).
    # Until the silent page's buffers are full and it is dropped (a few hundred
    # snapshots at most; kernel buffers on loopback vary, so no fixed count).
    for i in range(3000):
        if rig.server.streams == 1:
            break
        rig.run("press up" if i % 2 else "press down")
        want = i % 2 ^ 1
        while _next_snapshot(reader, buf)["screen"]["cursor"] != want:
            pass
    # The silent one was dropped (its connection closed by the server), the reader not,
    # and the game thread kept up: every input was taken.
    assert rig.server.streams == 1
    assert rig.events.empty()
    rig.run("press down" if rig.sim.box.session.cursor == 0 else "press up")
    assert _next_snapshot(reader, buf)["screen"]["cursor"] in (0, 1)
    silent.close()
    reader.close()


def test_garbage_requests_do_not_hurt_the_server(rig):
    garbage = [b"\x00\xff" * 100 + b"\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
               b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n",
               b"POST /input HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n",
               b"GET /events HTTP/1.1\r\nHost: x\r\n" + b"X: y\r\n" * 2000 + b"\r\n", b""]
    for data in garbage:
        with socket.create_connection(("127.0.0.1", rig.server.port), timeout=5) as s:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
            try:
                while s.recv(65536):
                    pass
            except OSError:
                pass
    assert rig.request("GET", "/")[0] == 200
    assert rig.snapshot()["mode"] == "menu"


def test_a_stream_reconnects_after_the_box_restarts(tmp_path):
    first = Rig(tmp_path)
    port = first.server.port
    sock = _stream(port)
    _next_snapshot(sock, _Buffer())
    first.close()
    sock.settimeout(5)
    rest = b""
    while chunk := sock.recv(65536):  # the old stream ends with the old box
        rest += chunk
    assert rest in (b"", b"0\r\n\r\n")  # closed, or its chunked body finished
    sock.close()
    # The page's EventSource retries the same address: a new box there serves it.
    publisher = Publisher()
    again = WebServer(publisher, "127.0.0.1", port).start()
    try:
        status, _, _ = Client(again).request("GET", "/snapshot")
        assert status == 200
    finally:
        again.stop()


def test_stopping_the_server_is_bounded_with_a_client_stuck(tmp_path):
    publisher = Publisher()
    server = WebServer(publisher, "127.0.0.1", 0).start()
    stuck = _stream(server.port)
    t = threading.Thread(target=server.stop)
    t.start()
    t.join(10)
    assert not t.is_alive()
    stuck.close()


def test_a_paired_browser_may_press_and_others_may_not():
    pairing = web.Pairing()
    got = []
    server = WebServer(Publisher(), "127.0.0.1", 0, inputs=got.append, pairing=pairing).start()
    try:
        rig = Client(server)
        token = rig.csrf()
        press = {"kind": "press", "button": "OK"}
        assert rig.post_input(press, token)[0] == 403
        pin = pairing.new_pin()
        headers = {"Content-Type": "application/json", "X-Companion-CSRF": token,
                   "Cookie": f"companion_csrf={token}"}
        status, reply, _ = rig.request("POST", "/pair", {"pin": pin}, headers)
        assert status == 200
        paired = reply["set-cookie"].split(";")[0]
        assert "httponly" in reply["set-cookie"].lower()
        status, _ = rig.post_input(press, token, {"Cookie": f"companion_csrf={token}; {paired}"})
        assert status == 200 and got == [web.Press("OK", remote=True)]
        # A tap is the box's pads' business, even for a paired phone.
        tap = {"kind": "tap", "pad": 1, "uid": "04E10201010000"}
        status, _ = rig.post_input(tap, token, {"Cookie": f"companion_csrf={token}; {paired}"})
        assert status == 403
    finally:
        server.stop()


def test_guessing_the_pin_is_rate_limited():
    pairing = web.Pairing()
    server = WebServer(Publisher(), "127.0.0.1", 0, inputs=lambda e: None,
                       pairing=pairing).start()
    try:
        rig = Client(server)
        pin = pairing.new_pin()
        token = rig.csrf()
        headers = {"Content-Type": "application/json", "X-Companion-CSRF": token,
                   "Cookie": f"companion_csrf={token}"}
        codes = [rig.request("POST", "/pair", {"pin": f"{n:06d}"}, headers)[0]
                 for n in range(web.PAIR_BURST + 3) if f"{n:06d}" != pin]
        assert 429 in codes
        # Even the right PIN waits its turn once the guesses ran out.
        assert rig.request("POST", "/pair", {"pin": pin}, headers)[0] == 429
    finally:
        server.stop()


def test_the_rate_limiter_stays_bounded_under_an_address_flood():
    now = [0.0]
    bucket = web._Bucket(1.0, 2, clock=lambda: now[0])
    for n in range(10_000):
        bucket.take(f"10.0.{n // 256}.{n % 256}")
        bucket.take(f"10.0.{n // 256}.{n % 256}")
        bucket.take(f"10.0.{n // 256}.{n % 256}")
    assert len(bucket._level) <= 4097
    now[0] = 100.0
    assert bucket.take("10.0.0.1")  # refilled


def test_a_whole_game_played_only_from_a_page_is_in_the_journal(tmp_path, monkeypatch):
    from companion.autoplay import AutoPlayer
    from companion.journal import Journal

    monkeypatch.setattr(web, "INPUT_RATE", 10_000.0)  # a fast player, not a flood test
    monkeypatch.setattr(web, "INPUT_BURST", 10_000)
    rig = Rig(tmp_path, seed=6)
    try:
        token = rig.csrf()
        player = AutoPlayer(6)
        session = rig.sim.box.session
        for _ in range(3000):
            with rig.lock:
                cmd = player.next_command(session)
            if cmd is None:
                break
            words = cmd.split()
            if words[0] == "tap":  # the page's card list holds the tag a reader would read
                uid = rig.sim.event(cmd).uid
                body = {"kind": "tap", "pad": int(words[1]), "uid": uid}
            else:
                body = {"kind": words[0], "button": words[1].upper()}
            assert rig.post_input(body, token)[0] == 200, cmd
            rig.wait_idle()
        assert session.game.state.status == "won"
        inputs = list(session.game.inputs)
        game_id = session.game_id
    finally:
        rig.close()
    with Journal(tmp_path / "state" / "journal.db") as journal:
        record = journal.load(game_id)
        assert record.status == "won"
        assert Journal.effective_inputs(record.entries) == inputs


def test_the_qno_circuit_downloads_as_openqasm_only_during_a_qno_game(tmp_path):
    from companion.autoplay import AutoPlayer

    rig = Rig(tmp_path, seed=4)
    try:
        assert rig.request("GET", "/qno.qasm")[0] == 404
        player = AutoPlayer(4, game="qno")
        with rig.lock:
            for _ in range(40):
                rig.sim.run(player.next_command(rig.sim.box.session))
        status, headers, body = rig.request("GET", "/qno.qasm")
        assert status == 200 and "attachment" in headers["content-disposition"]
        text = body.decode()
        assert text.startswith("// QNO game") and "OPENQASM 2.0;" in text
        assert rig.snapshot()["qasm"] == text
    finally:
        rig.close()


def _post_hint(client: Client, token: str | None = None) -> tuple[int, dict]:
    token = token or client.csrf()
    headers = {"Content-Type": "application/json", "X-Companion-CSRF": token,
               "Cookie": f"companion_csrf={token}"}
    status, _, data = client.request("POST", "/hint", {}, headers, timeout=30)
    return status, json.loads(data)


def test_a_page_asks_for_the_same_hint_the_box_s_menu_shows(tmp_path, monkeypatch):
    from companion.games.entanglion import hint, ui

    monkeypatch.setattr(hint, "DEFAULT_BUDGET", 1500)  # the box's, only shorter
    rig = Rig(tmp_path, seed=2018)
    try:
        status, body = _post_hint(rig)
        assert status == 404 and "no Entanglion game" in body["error"]
        with rig.lock:
            for line in ("press ok", "press ok", "press ok", "press ok", "press back"):
                rig.sim.run(line)  # a new Entanglion game with the set-up defaults
            game = rig.sim.box.session.game
            want = [i.label for i in ui.hint_menu(game)["items"][:-1]]
        status, body = _post_hint(rig)
        assert status == 200 and body["hints"] == want and len(want) == 2
        assert all(label.endswith("%") for label in want)
        assert rig.snapshot()["inputs"] == 0
        with rig.lock:
            rig.sim.run("press ok")  # the move menu (on its Hint), then its first move
            rig.sim.run("press down")
            rig.sim.run("press ok")
        status, again = _post_hint(rig)
        assert status == 200 and rig.snapshot()["inputs"] == 1
        assert again["hints"] == [i.label for i in ui.hint_menu(
            rig.sim.box.session.game)["items"][:-1]] or again.get("why")
    finally:
        rig.close()


def test_a_watch_only_page_may_not_ask_for_hints(tmp_path):
    publisher = Publisher()
    server = WebServer(publisher, "127.0.0.1", 0).start()
    try:
        status, body = _post_hint(Client(server))
        assert status == 403 and "watch" in body["error"]
    finally:
        server.stop()


def test_no_snapshot_is_built_while_no_page_is_open_and_a_page_gets_the_box_as_it_is(rig):
    for line in ("press ok", "press down"):
        rig.run(line)
    rig.wait_idle()
    assert rig.server.publisher.built == 0  # the box played without paying for the page
    sock = _stream(rig.server.port)
    snap = _next_snapshot(sock, _Buffer())
    assert snap["mode"] == "setup" and snap["screen"]["cursor"] == 1
    assert rig.server.publisher.built == 1
    sock.close()
    assert rig.snapshot()["screen"]["cursor"] == 1  # and so does a page without a stream


def test_a_refresh_that_changes_nothing_sends_nothing(rig):
    sock = _stream(rig.server.port)
    buf = _Buffer()
    _next_snapshot(sock, buf)
    version = rig.server.publisher.latest()[0]
    built = rig.server.publisher.built
    with rig.lock:
        rig.sim.box.refresh()  # a blink: the LEDs change, the page's picture does not
    assert rig.server.publisher.built == built + 1
    assert rig.server.publisher.latest()[0] == version
    rig.run("press down")
    assert _next_snapshot(sock, buf)["screen"]["cursor"] == 1  # the next is the press
    sock.close()


def test_a_stream_a_few_snapshots_behind_is_sent_the_patches_in_turn():
    import asyncio

    publisher = Publisher()
    loop = asyncio.new_event_loop()
    try:
        feed = web._Feed(publisher, loop)
        snaps, versions = [], []
        for i in range(web.PATCHES_KEPT + 4):
            snaps.append({"mode": "game", "turn": i, "log": [f"line {n}" for n in range(i)]})
            with publisher._lock:  # as publish swaps a new snapshot in
                publisher._data, publisher._version = json.dumps(snaps[-1]).encode(), i + 1
            versions.append(feed.latest()[0])
        version, message = feed.message(versions[-3])
        assert version == versions[-1] and message.count(b"event: patch") == 2
        page = snaps[-3]
        for event in message.split(b"\n\n")[:-1]:
            page = patch.apply(page, json.loads(event.split(b"data: ", 1)[1]))
        assert page == snaps[-1]
        assert feed.message(versions[0])[1].startswith(b"data: ")  # too far behind: whole
        assert feed.message(versions[-1])[1] == b""  # up to date: nothing
    finally:
        loop.close()
