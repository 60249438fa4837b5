"""``companion run`` with ``[web]``: a real daemon process serving its page on loopback,
read-only until a browser pairs with the PIN the OLED shows; off, no socket at all."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from companion.hardware.fake_pico import FakePico
from companion.inputs import OK, Press
from companion.registry import default_sim_path, sim_registry
from companion.session import Session, SessionConfig
from companion.web.server import Pairing
from waiting import eventually


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def daemon(tmp_path):
    procs, picos = [], []

    def start(web: str):
        state = tmp_path / "state"
        state.mkdir(exist_ok=True)
        pico = FakePico(hb_interval=0.2)
        picos.append(pico)
        config = tmp_path / "config.toml"
        config.write_text(f'[oled]\ndriver = "none"\n[link]\ndevice = "{pico.path}"\n'
                          f'[paths]\nstate_dir = "{state}"\nregistry = "{default_sim_path()}"\n'
                          + web)
        env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONUNBUFFERED": "1"}
        env.pop("NOTIFY_SOCKET", None)
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config",
                                 str(config)], env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
    for pico in picos:
        pico.close()


def get(port: int, path: str, headers: dict | None = None, body=None, method="GET"):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def answering(port: int) -> bool:
    try:
        return get(port, "/snapshot")[0] == 200
    except OSError:
        return False


def post(port: int, path: str, body: dict, cookies: dict) -> tuple[int, dict]:
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    status, headers, data = get(port, path, {
        "Content-Type": "application/json", "X-Companion-CSRF": cookies["companion_csrf"],
        "Cookie": cookie}, json.dumps(body).encode(), "POST")
    if "set-cookie" in headers:
        name, value = headers["set-cookie"].split(";")[0].split("=", 1)
        cookies[name] = value
    return status, json.loads(data) if data else {}


def test_a_read_only_page_follows_the_daemon_and_cannot_press(daemon):
    port = free_port()
    proc = daemon(f'[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n')
    assert eventually(lambda: answering(port), 15.0), proc.stderr
    snap = json.loads(get(port, "/snapshot")[2])
    assert snap["mode"] == "menu" and snap["oled"] is None  # the box's own OLED is enough
    token = get(port, "/")[1]["set-cookie"].split(";")[0].split("=", 1)[1]
    status, body = post(port, "/input", {"kind": "press", "button": "OK"},
                        {"companion_csrf": token})
    assert status == 403 and "watch" in body["error"]
    assert json.loads(get(port, "/config")[2])["may_play"] is False


def test_with_control_the_menu_offers_a_pin_and_unpaired_pages_cannot_press(daemon):
    port = free_port()
    proc = daemon(f'[web]\nenabled = true\naddress = "127.0.0.1"\nport = {port}\n'
                  'control = true\n')
    assert eventually(lambda: answering(port), 15.0)
    menu = json.loads(get(port, "/snapshot")[2])["menu"]
    assert "Web PIN" in menu["items"]
    token = get(port, "/")[1]["set-cookie"].split(";")[0].split("=", 1)[1]
    cookies = {"companion_csrf": token}
    assert post(port, "/input", {"kind": "press", "button": "OK"}, cookies)[0] == 403
    assert post(port, "/pair", {"pin": "000000"}, cookies)[0] == 403  # no PIN asked for yet
    # The PIN itself is only on the OLED (the next test reads it in-process).
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in err, err


def test_the_web_pin_menu_item_shows_a_pin_that_pairs_and_never_reaches_a_page(tmp_path):
    from companion.box import Box
    from companion.hardware.display import dummy_display
    from companion.hardware.leds import RecordingLeds
    from companion.journal import Journal
    from companion.web import service, snapshot

    class Web:
        enabled, address, port, control = True, "127.0.0.1", 0, True

    pairing = service.pairing_for(Web)
    journal = Journal(tmp_path / "journal.db")
    session = Session(journal, sim_registry(), SessionConfig(web_pin=pairing.new_pin))
    box = Box(session, dummy_display(), RecordingLeds())
    items = session.screen()["items"]
    for _ in range(items.index("Web PIN")):
        box.handle(Press("DOWN"))
    box.handle(Press(OK))
    screen = session.screen()
    pin = screen["lines"][0]
    assert screen["title"] == "Web PIN" and pin.isdigit() and len(pin) == 6
    snap = snapshot.build(session, box.display.image)
    assert pin not in json.dumps(snap) and snap["screen"] is None and snap["oled"] is None
    assert pairing.pair("x" + pin) is None
    token = pairing.pair(pin)
    assert token and pairing.paired(token)
    assert pairing.pair(pin) is None  # a PIN works once
    box.handle(Press(OK))
    assert snapshot.build(session)["screen"] is not None
    journal.close()


def test_a_pin_expires():
    now = [0.0]
    pairing = Pairing(ttl=120, clock=lambda: now[0])
    pin = pairing.new_pin()
    now[0] = 121
    assert pairing.pair(pin) is None
    assert not pairing.paired(None) and not pairing.paired("")


def test_with_web_off_the_daemon_opens_no_network_socket(daemon):
    proc = daemon("")
    assert eventually(lambda: proc.poll() is None and _sockets(proc.pid) is not None, 10.0)
    time.sleep(1.0)  # past start-up
    inet = _sockets(proc.pid)
    assert inet == set(), inet


def _sockets(pid: int) -> set[str] | None:
    """The TCP/UDP sockets (IPv4 and IPv6) the process holds, by inode."""
    try:
        fds = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    except OSError:
        return None
    inodes = {link[8:-1] for link in fds if link.startswith("socket:[")}
    found = set()
    for table in ("tcp", "tcp6", "udp", "udp6"):
        with open(f"/proc/{pid}/net/{table}") as fh:
            for line in fh.readlines()[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    found.add(f"{table} {fields[1]}")
    return found
