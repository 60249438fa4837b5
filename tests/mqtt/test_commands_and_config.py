"""The room's commands and the [mqtt] settings: checked strictly, refused with a reason."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from companion.config import ConfigError, load
from companion.inputs import RoomCommand
from companion.mqtt import commands


def cmd(**data) -> bytes:
    return json.dumps(data).encode()


def test_a_message_that_passes_fits_the_alert_on_the_oled():
    from companion.views import oled
    from companion.views.font import wrap

    # The alert is a text screen: its body lines, less one for the "OK" hint.
    assert commands.MESSAGE_LINES == oled.BODY_LINES - 1
    text = "Five minutes left: finish your turn, then everybody to the front, please."
    assert commands.parse(cmd(command="message", text=text)).text == text
    assert len(wrap(text, oled.WIDTH)) <= commands.MESSAGE_LINES


def test_good_commands():
    assert commands.parse(cmd(command="message", text="  Five   minutes ")) == \
        RoomCommand("message", text="Five minutes")
    assert commands.parse(cmd(command="pause")) == RoomCommand("pause")
    assert commands.parse(cmd(command="rules", game="qno", rules={"players": 4})) == \
        RoomCommand("rules", game="qno", rules=(("players", 4),))


@pytest.mark.parametrize("payload,why", [
    (b"x" * 3000, "bytes"), (b"\xff", "JSON"), (b"[1]", "JSON"), (b"{" * 2000, "JSON"),
    (cmd(command="reboot"), "unknown command"), (cmd(command="pause", now=1), "keys"),
    (cmd(command="message"), "keys"), (cmd(command="message", text="a\nb"), "printable"),
    (cmd(command="message", text="x" * 121), "printable"),
    (cmd(command="message", text="W" * 110), "longer than the OLED's 4 lines"),
    (cmd(command="message", text="残り五分です。" * 12), "longer than the OLED's 4 lines"),
    (cmd(command="rules", game="chess", rules={"a": 1}), "unknown game"),
    (cmd(command="rules", game="entanglion", rules={"start_space": 3}), "one of"),
    (cmd(command="rules", game="entanglion", rules={"start_space": True}), "one of"),
    (cmd(command="rules", game="entanglion", rules={"seed": 1}), "no set-up choice"),
    (cmd(command="rules", game="entanglion", rules={}), "expected an object"),
])
def test_bad_commands_are_refused_with_a_reason(payload, why):
    with pytest.raises(commands.Refused, match=why):
        commands.parse(payload)


def write(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_the_mqtt_settings(tmp_path):
    (tmp_path / "pw").write_text("secret\n")
    config = load(write(tmp_path, '[mqtt]\nenabled = true\nhost = "broker.local"\n'
                                  'port = 8883\ntls = true\nusername = "t1"\n'
                                  'password_file = "pw"\nroom = "class-3b"\ntable = "t_1"\n'))
    m = config.mqtt
    assert (m.enabled, m.host, m.port, m.tls, m.room, m.table) == \
        (True, "broker.local", 8883, True, "class-3b", "t_1")
    assert m.password_file == str(tmp_path / "pw") and m.ca_file is None
    assert load(write(tmp_path, "")).mqtt.enabled is False


@pytest.mark.parametrize("text,message", [
    ('room = "a/b"', 'mqtt.room: expected a name of 1-64 letters'),
    ('table = "+"', 'mqtt.table: expected a name'),
    ('room = "#"', 'no "+", "#" or "/"'),
    ('password = "x"', "mqtt.password: a password is never written here"),
    ('password_file = "pw"', "mqtt.password_file: a password needs a username"),
    ('ca_file = "ca.crt"', "mqtt.ca_file: a CA file is for tls = true"),
    ('host = "a b"', "mqtt.host: expected a host name"),
    ('port = 0', "mqtt.port: expected a port 1-65535"),
])
def test_bad_mqtt_settings_say_which_line_and_why(tmp_path, text, message):
    path = write(tmp_path, f"[mqtt]\n{text}\n")
    with pytest.raises(ConfigError) as info:
        load(path)
    assert str(info.value).startswith(f"{path} line 2: ") and message in str(info.value)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_published_state_keeps_the_pages_secrets(tmp_path, seed):
    """The state is the page's snapshot: every one a QLANET game publishes, peeks
    included, holds none of the secrets the page's own tests look for."""
    from test_snapshot import _qlanet_secrets
    from rig import FakeLink
    from web_rig import make_sim, play

    from companion.autoplay import AutoPlayer
    from companion.mqtt.outbox import Outbox
    from companion.mqtt.service import Reporter

    sim = make_sim(tmp_path, seed)
    link, outbox = FakeLink(), Outbox(sim.box.session.journal.path)
    sim.box.observers.append(Reporter(link, outbox, "r", "t"))
    checked = 0

    def check(sim):
        nonlocal checked
        g = sim.box.session.game
        if g is None or g.state.status != "playing" or not link.states:
            return
        text = json.dumps(json.loads(link.states[-1]))  # spaced as the page's test expects
        for secret in _qlanet_secrets(g):
            assert secret not in text
        checked += 1

    play(sim, AutoPlayer(seed, game="qlanet"), each=check)
    assert checked > 5 and link.poked == 1 and outbox.pending() == 1
    assert len(link.states) == len(set(link.states))  # sent only when it changed
    outbox.close()


def test_with_mqtt_off_the_daemon_opens_no_network_socket(tmp_path):
    """A config with [mqtt] filled in but not enabled: no socket, as with [web] off."""
    from test_daemon_web import _sockets

    from companion.hardware.fake_pico import FakePico
    from companion.registry import default_sim_path
    from waiting import eventually

    state = tmp_path / "state"
    state.mkdir()
    pico = FakePico(hb_interval=0.2)
    config = tmp_path / "config.toml"
    config.write_text(f'[oled]\ndriver = "none"\n[link]\ndevice = "{pico.path}"\n'
                      f'[paths]\nstate_dir = "{state}"\nregistry = "{default_sim_path()}"\n'
                      '[mqtt]\nenabled = false\nhost = "127.0.0.1"\nport = 1883\n')
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config", str(config)],
                            env=env, cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert eventually(lambda: proc.poll() is None and _sockets(proc.pid) is not None, 10.0)
        time.sleep(1.0)  # past start-up
        assert _sockets(proc.pid) == set()
        assert not (state / "journal.db.outbox").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        pico.close()
    assert "Traceback" not in err and "paho" not in err, err
