"""``companion room`` as a command: its config (the box's [mqtt] and [web] sections),
a TLS broker with a password, the printed address with its key, a clean stop; and the
box's side of it, the retained ``info`` with the box's page address."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request

import pytest

from broker import Broker, missing

from companion.mqtt import service


def test_the_box_says_its_pages_address_only_when_it_has_one():
    assert service.info(None) == b""  # [web] off
    assert service.info(lambda: (None, "The page is for this box only")) == b""
    assert json.loads(service.info(lambda: ("http://192.168.1.9:8080/", ""))) == \
        {"web": "http://192.168.1.9:8080/"}


def test_a_bad_config_is_one_line_and_exit_2(tmp_path):
    config = tmp_path / "room.toml"
    config.write_text('[mqtt]\nroom = "a/b"\n')
    done = subprocess.run([sys.executable, "-m", "companion", "room", "--config", str(config)],
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == 2 and "mqtt.room: expected a name" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(missing() is not None, reason=missing() or "")
def test_the_room_command_over_tls_prints_its_address_and_stops_cleanly(tmp_path):
    broker = Broker(tmp_path, tls=True).start()
    (tmp_path / "teacher.pw").write_text("pw-teacher\n")
    config = tmp_path / "room.toml"
    config.write_text(f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.tls_port}\ntls = true\n'
                      f'ca_file = "{broker.ca}"\nusername = "teacher"\n'
                      'password_file = "teacher.pw"\nroom = "r1"\n'
                      '[web]\naddress = "127.0.0.1"\nport = 8080\n')
    proc = subprocess.Popen([sys.executable, "-m", "companion", "room", "--config", str(config),
                             "--port", "0", "--state-dir", str(tmp_path / "state"),
                             "--no-analysis"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = proc.stdout.readline()
        url = line.split("open ", 1)[1].split(" ", 1)[0]
        assert url.startswith("http://127.0.0.1:") and "?key=" in url
        base = url.split("?", 1)[0]
        # Connected over TLS: the broker hands it the retained state of a table.
        from rig import Watcher

        (tmp_path / "t1.pw").write_text("pw-t1\n")
        t1 = Watcher(broker.port, "t1", topic="companion/r1/command")
        t1.publish("companion/r1/t1/availability", b"online", retain=True)
        t1.close()
        from waiting import eventually

        def tables():
            return json.loads(urllib.request.urlopen(base + "tables", timeout=5).read())
        assert eventually(lambda: [t["name"] for t in tables()["tables"]] == ["t1"], 10)
        assert (tmp_path / "state" / "room-r1" / "room-key").stat().st_mode & 0o077 == 0
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        broker.kill()
    assert proc.returncode == 0 and "Traceback" not in err, err
