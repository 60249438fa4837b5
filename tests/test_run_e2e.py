"""``companion run`` as systemd runs it: a real process, a real notify socket, the fake
Pico on a pty, mock GPIO. A game resumes, a tap plays, the reader is unplugged and
replugged mid-game, SIGTERM pauses cleanly, and the next start resumes the same game."""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from companion.hardware.fake_pico import FakePico
from companion.journal import Journal
from companion.registry import default_sim_path, sim_registry
from companion.session import Session, SessionConfig
from companion.inputs import BACK, OK, Press
from waiting import eventually

H = "04E10101010000"  # the first H in the simulator's registry; seed 6 deals Mercurial one


class Systemd:
    """The notify socket end: collects every datagram the daemon sends."""

    def __init__(self, path):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.messages = []

    def wait(self, predicate, timeout=10.0, after=0):
        """The first message from index ``after`` on that matches."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            for message in self.messages[after:]:
                if predicate(message):
                    return message
            self.sock.settimeout(left)
            try:
                self.messages.append(self.sock.recv(4096).decode())
            except socket.timeout:
                break
        raise AssertionError(f"no such notification; got {self.messages}")

    def status(self, text, timeout=10.0):
        return self.wait(lambda m: any(line.startswith("STATUS=") and text in line
                                       for line in m.splitlines()), timeout)

    def close(self):
        self.sock.close()


def game_in_progress(state_dir):
    """A game started (and set up) on another box run: the journal has it unfinished."""
    with Journal(state_dir / "journal.db") as journal:
        session = Session(journal, sim_registry(), SessionConfig(), lambda: 6)
        for _ in range(4):
            session.handle(Press(OK))
        session.handle(Press(BACK))
        assert session.mode == "game"
        return session.game_id, len(session.game.inputs)


def inputs_of(state_dir, game_id):
    with Journal(state_dir / "journal.db") as journal:
        return len(Journal.effective_inputs(journal.load(game_id).entries))


@pytest.fixture
def box(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    pico = FakePico(hb_interval=0.2)
    config = tmp_path / "config.toml"
    config.write_text(f'[oled]\ndriver = "none"\n[link]\ndevice = "{pico.path}"\n'
                      f'[paths]\nstate_dir = "{state}"\nregistry = "{default_sim_path()}"\n')
    systemd = Systemd(str(tmp_path / "notify"))
    procs = []

    def start():
        env = {**os.environ, "NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "2000000",
               "GPIOZERO_PIN_FACTORY": "mock", "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config",
                                 str(config)], env=env, cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(proc)
        return proc

    yield start, pico, systemd, state
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
    pico.close()
    systemd.close()


def test_resume_play_unplug_replug_and_a_clean_sigterm(box):
    start, pico, systemd, state = box
    game_id, played = game_in_progress(state)
    proc = start()
    ready = systemd.wait(lambda m: "READY=1" in m)
    assert f"Game #{game_id}: turn 1" in ready  # READY only after the game was resumed
    assert pico.wait_until(lambda: pico.frame is not None, 5)  # the LEDs show the board
    systemd.wait(lambda m: m == "WATCHDOG=1")

    pico.tap(1, H)  # Mercurial navigates with H
    assert eventually(lambda: inputs_of(state, game_id) > played, 10.0)
    moved = inputs_of(state, game_id)

    pico.unplug()  # the USB cable comes out mid-game
    systemd.status("reader link down")
    down = len(systemd.messages)
    time.sleep(0.3)
    pico.replug()
    systemd.wait(lambda m: m.startswith("STATUS=") and "reader link down" not in m, after=down)
    assert pico.wait_until(lambda: pico.frame is not None and any(any(p) for p in pico.frame),
                           5)  # the LED frame was sent again after the replug

    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    systemd.wait(lambda m: m.startswith("STOPPING=1"))
    assert pico.wait_until(lambda: pico.frame is not None and not any(any(p) for p in pico.frame),
                           5)  # LEDs off at exit
    assert "Traceback" not in err, err

    proc = start()  # the next boot
    ready = systemd.wait(lambda m: "READY=1" in m, after=len(systemd.messages))
    assert inputs_of(state, game_id) == moved  # nothing lost, nothing doubled
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=20)
    assert proc.returncode == 0


def test_a_bad_config_is_one_line_and_exit_2(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[buttons]\nok = 5\nback = 5\n")
    result = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(config)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{config} line 3: buttons.back" in lines[0]
