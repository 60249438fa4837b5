"""The service at run time: no network listener, private files, and the unit's
system-call filter leaves the daemon working.

(The unit's exposure score is checked offline in tests/test_systemd.py.)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bench.harness import NotifySocket, child_env, game_in_progress, write_config
from companion.hardware.fake_pico import FakePico
from companion.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "companion.service"
HERE = Path(__file__).resolve().parent
H = "04E10101010000"  # the first H in the simulator's registry; seed 6 deals Mercurial one


def start(config: Path, notify: NotifySocket, wrapper: list[str] = ()) -> subprocess.Popen:
    env = child_env(GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1",
                    NOTIFY_SOCKET=notify.path)
    return subprocess.Popen([*wrapper, sys.executable, "-m", "companion", "run", "--config",
                             str(config)], env=env, cwd=config.parent,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            umask=0o022)  # a lax umask on purpose


def stop(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    return err


def socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if m := re.fullmatch(r"socket:\[(\d+)\]", target):
            found.add(m.group(1))
    return found


def test_the_daemon_listens_on_nothing(tmp_path):
    with FakePico(hb_interval=0.5) as pico:
        state = tmp_path / "state"
        config = write_config(tmp_path / "config.toml", state_dir=state, pico=pico.path)
        notify = NotifySocket(tmp_path / "notify")
        proc = start(config, notify)
        try:
            notify.ready(60)
            assert pico.wait_until(lambda: pico.frame is not None, 10)
            mine = socket_inodes(proc.pid)
            inet = []
            for table in ("tcp", "tcp6", "udp", "udp6", "raw", "raw6"):
                path = Path(f"/proc/{proc.pid}/net/{table}")
                if path.exists():
                    for line in path.read_text().splitlines()[1:]:
                        if line.split()[9] in mine:
                            inet.append((table, line))
            listening_unix = []
            for line in Path(f"/proc/{proc.pid}/net/unix").read_text().splitlines()[1:]:
                fields = line.split()
                if fields[6] in mine and int(fields[3], 16) & 0x10000:  # __SO_ACCEPTCON
                    listening_unix.append(line)
        finally:
            stop(proc)
            notify.close()
    assert mine, "the daemon has its notify socket at least"
    assert inet == [], "no IP socket of any kind"
    assert listening_unix == [], "no listening socket"


def test_the_state_directory_and_its_files_are_the_users_only(tmp_path):
    state = tmp_path / "fresh" / "state"  # does not exist yet: the daemon makes it
    config = write_config(tmp_path / "config.toml", state_dir=state,
                          registry=str(state / "tags.toml"))
    notify = NotifySocket(tmp_path / "notify")
    proc = start(config, notify)
    try:
        notify.ready(60)
    finally:
        stop(proc)
        notify.close()
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    files = list(state.iterdir())
    assert any(f.name == "journal.db" for f in files)
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f


# ------------------------------------------------------------------ the syscall filter


def allowed_syscalls() -> list[str]:
    """The unit's SystemCallFilter= lines as one allow-list, groups expanded by
    systemd-analyze (allow-list first, then each ~deny-list taken out)."""
    def expand(names: list[str], seen: set[str]) -> set[str]:
        out: set[str] = set()
        for name in names:
            if not name.startswith("@"):
                out.add(name)
            elif name not in seen:
                seen.add(name)
                listing = subprocess.run(["systemd-analyze", "syscall-filter", name],
                                         capture_output=True, text=True, check=True).stdout
                members = [w.strip() for w in listing.splitlines()[1:]
                           if w.strip() and not w.strip().startswith("#")]
                out |= expand(members, seen)
        return out

    allow: set[str] = set()
    for line in UNIT.read_text().splitlines():
        if line.startswith("SystemCallFilter="):
            value = line.split("=", 1)[1].split()
            if value[0].startswith("~"):
                allow -= expand([value[0][1:], *value[1:]], set())
            else:
                allow |= expand(value, set())
    return sorted(allow)


def seccomp_available() -> bool:
    return shutil.which("systemd-analyze") is not None and Path("/usr/bin/python3").exists() \
        and subprocess.run(["/usr/bin/python3", "-c", "import seccomp"],
                           capture_output=True).returncode == 0


@pytest.mark.skipif(not seccomp_available(),
                    reason="needs systemd-analyze and libseccomp's Python binding "
                           "(apt install python3-seccomp)")
def test_the_daemon_works_under_the_units_syscall_filter(tmp_path):
    """The filter of the unit, applied with libseccomp as systemd does: the daemon
    opens its serial port (termios ioctls), journal (SQLite, fsync), notify socket and
    threads, resumes a game, plays a tap and stops cleanly."""
    allow = allowed_syscalls()
    assert "ioctl" in allow and "mknodat" in allow and "setuid" not in allow
    spec = tmp_path / "filter.json"
    spec.write_text(json.dumps({"allow": allow, "errno": 1}))  # EPERM, as the unit says
    state = tmp_path / "state"
    game_id, played = game_in_progress(state, seed=6)
    with FakePico(hb_interval=0.5) as pico:
        config = write_config(tmp_path / "config.toml", state_dir=state, pico=pico.path)
        notify = NotifySocket(tmp_path / "notify")
        proc = start(config, notify, ["/usr/bin/python3", str(HERE / "seccomp_exec.py"),
                                      str(spec), "--"])
        try:
            _, ready = notify.wait(lambda m: "READY=1" in m.splitlines(), 60)
            assert f"Game #{game_id}" in ready
            assert pico.wait_until(lambda: pico.frame is not None, 10)
            pico.tap(1, H)
            notify.wait(lambda m: "Rubicon" in m, 20)  # the turn passed: the tap played
        finally:
            err = stop(proc)
            notify.close()
    assert "Operation not permitted" not in err, err
    with Journal(state / "journal.db") as journal:
        assert journal.load(game_id).inputs == played + 1
