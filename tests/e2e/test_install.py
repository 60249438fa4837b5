"""A maker's install, end to end, on the OS the box runs: Debian Bookworm (what Raspberry
Pi OS Bookworm is built on: systemd 252, Python 3.11) booted with ``systemd-nspawn -b``.

The checkout is copied in and ``sudo systemd/install.sh`` runs as the README says. The
container fakes the hardware: the fake Pico on a pty where udev would link the real
one, no OLED (``driver = "none"``) and gpiozero's mock pins (the maker's own drop-in,
``systemctl edit companion``, which the uninstall must keep). Then, through systemd
and the box's own surfaces: READY, doctor, selftest, a game played with tag taps,
kill -9, the watchdog, the power-off path, a second install that changes nothing and
an uninstall that leaves nothing of ours.

Not part of the default run (it boots an OS; minutes, not seconds): .ci/run runs it with
``COMPANION_E2E=1 python -m pytest -n 0 tests/e2e``. Needs root, systemd-nspawn,
debootstrap and nsenter; it skips, saying which, where any is missing (with
``COMPANION_E2E=require``, as .ci/run sets as root, it fails instead).
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import rootfs  # noqa: E402
from container import BootError, Container  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHECKOUT = "/home/maker/companion"
VENV = "/opt/companion/venv"
AS_SERVICE = "sudo -u companion env -C /var/lib/companion"
# The test's own look into the state folder, with the service's UMask=0077
AS_SERVICE_PRIVATE = "umask 077 && " + AS_SERVICE
H = "04E10101010000"  # an H tag in the simulator's registry; seed-independent navigation
OURS = ("/opt/companion", "/etc/systemd/system/companion.service",
        "/etc/systemd/system/companion-poweroff.path",
        "/etc/systemd/system/companion-poweroff.service",
        "/etc/systemd/system/companion-blank.service", "/etc/udev/rules.d/99-companion.rules",
        "/etc/systemd/system/companion.service.d/10-groups.conf")
OVERRIDES = {
    # the box has no GPIO here: gpiozero's mock pins stand in for the buttons
    "companion.service.d/override.conf": "[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\n",
    # the menu's switch-off, proven without switching the container off
    "companion-poweroff.service.d/override.conf":
        "[Service]\nExecStart=\nExecStart=/usr/bin/touch /run/e2e-poweroff-asked\n",
}
CONFIG = """\
[oled]
driver = "none"
[paths]
registry = "{registry}"
"""

pytestmark = pytest.mark.skipif(not os.environ.get("COMPANION_E2E"),
                                reason="boots an OS: run with COMPANION_E2E=1 (.ci/run does)")


def prerequisites(arch: str) -> str:
    """Why this machine cannot run the test ("" when it can)."""
    if os.geteuid() != 0:
        return "needs root (debootstrap and systemd-nspawn)"
    for tool, package in (("systemd-nspawn", "systemd-container"),
                          ("debootstrap", "debootstrap"), ("nsenter", "util-linux")):
        if shutil.which(tool) is None:
            return f"no {tool} here (apt-get install {package})"
    if arch != rootfs.host_arch():
        binfmt = Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
        if not binfmt.exists():
            return (f"this machine ({rootfs.host_arch()}) cannot run {arch} binaries: no "
                    f"{binfmt} (qemu-user-static registered with binfmt_misc; the kernel's "
                    "binfmt_misc is not mounted or not registered here)")
    return ""


@pytest.fixture(scope="module", params=["amd64", "arm64"])
def box(request):
    arch = request.param
    # COMPANION_E2E=require (CI, as root): a host-architecture run that cannot happen fails
    give_up = pytest.fail if (os.environ.get("COMPANION_E2E") == "require"
                              and arch == rootfs.host_arch()) else pytest.skip
    why = prerequisites(arch)
    if why:
        give_up(why)
    image = rootfs.build(arch)
    pip_cache = rootfs.cache_dir() / "pip"  # the venv's downloads, kept between runs
    pip_cache.mkdir(parents=True, exist_ok=True)
    box = Container(image, {pip_cache: "/root/.cache/pip"})
    try:
        shutil.copytree(ROOT, box.root / CHECKOUT.lstrip("/"), symlinks=True,
                        ignore=shutil.ignore_patterns(".git", ".venv*", "__pycache__",
                                                      "*.egg-info", "build", "dist",
                                                      ".pytest_cache", ".hypothesis"))
        # a Pi named as the README's step 1 suggests (sudo wants its name resolvable)
        (box.root / "etc/hostname").write_text("companion\n")
        (box.root / "etc/hosts").write_text("127.0.0.1 localhost\n127.0.1.1 companion\n")
        trust_this_machines_pip_certificates(box.root)
        for name, text in OVERRIDES.items():
            path = box.root / "etc/systemd/system" / name
            path.parent.mkdir(parents=True)
            path.write_text(text)
        try:
            box.boot()
        except BootError as exc:
            give_up(f"cannot boot a container here: {exc}")
        yield box
    finally:
        if getattr(box, "pico", None):
            box.pico.kill()
        box.shutdown()


def trust_this_machines_pip_certificates(root: Path) -> None:
    """The container reaches PyPI through this machine's network: where this machine's
    pip trusts a certificate bundle of its own (a TLS-inspecting proxy's CA, say), the
    container's pip gets the same, read here and never written in the repository."""
    cert = os.environ.get("PIP_CERT")
    if not cert:
        parser = configparser.ConfigParser()
        parser.read(["/etc/pip.conf", "/etc/xdg/pip/pip.conf"])
        cert = parser.get("global", "cert", fallback="")
    if cert and Path(cert).is_file():
        shutil.copy(cert, root / "etc/ssl/certs/this-machines-bundle.crt")
        (root / "etc/pip.conf").write_text(
            "[global]\ncert = /etc/ssl/certs/this-machines-bundle.crt\n")


def show(box, unit="companion", *props):
    out = box.run(f"systemctl show {unit} " + " ".join(f"-p {p}" for p in props)).stdout
    return dict(line.split("=", 1) for line in out.splitlines())


def journal(box, unit="companion", lines=60):
    return box.run(f"journalctl -u {unit} --no-pager -n {lines}", check=False).stdout


def wait_for(predicate, timeout, what, box=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"{what}: not within {timeout:g} s\n"
                         + (journal(box) if box is not None else ""))


def running(box):
    """The unit's main PID once it is active and has said READY (Type=notify)."""
    s = show(box, "companion", "ActiveState", "SubState", "MainPID", "StatusText")
    return s if s["ActiveState"] == "active" and s["SubState"] == "running" else None


def pico_say(box, line):
    box.pico.stdin.write(line + "\n")
    return box.pico.stdout.readline().strip()


def inputs_of(box, game_id):
    script = (f"{AS_SERVICE_PRIVATE} {VENV}/bin/python -c 'from companion.journal import Journal\n"
              f"with Journal(\"journal.db\", readonly=True) as j:\n"
              f"    print(len(Journal.effective_inputs(j.load({game_id}).entries)))'")
    return int(box.run(script).stdout)


def snapshot(box):
    """Every file of ours and the service user, with content hashes and modes."""
    return box.run("find /opt/companion /etc/companion /etc/systemd/system /etc/udev/rules.d "
                   "-printf '%p %m %u %l\\n' -type f -exec sha256sum {} + | sort; "
                   "getent passwd companion; id companion").stdout


def test_install_as_the_readme_says(box):
    registry = f"{VENV}/lib/python3.11/site-packages/companion/data/sim-tags.json"
    box.run(f"mkdir -p /etc/companion && printf '%s' '{CONFIG.format(registry=registry)}' "
            "> /etc/companion/config.toml")
    # The Pico is plugged in before the install, as on a built box. Until the venv exists
    # the fake runs from the checkout: it is the test's tool, not what is tested.
    box.pico = box.popen(f"PYTHONPATH={CHECKOUT} python3 {CHECKOUT}/tests/e2e/pico.py")
    assert box.pico.stdout.readline().startswith("ready"), box.pico.stderr.read()
    result = box.run(f"cd {CHECKOUT} && sudo systemd/install.sh", check=False, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr + journal(box)
    # No udev daemon runs in a container: the reload fails, the install goes on.
    assert "udev did not reload" in result.stderr
    state = wait_for(lambda: running(box), 60, "companion active", box)
    s = show(box, "companion", "Type", "NotifyAccess", "WatchdogUSec", "StatusText")
    assert (s["Type"], s["NotifyAccess"], s["WatchdogUSec"]) == ("notify", "main", "15s")
    assert s["StatusText"], "READY came with a status line"
    assert state["MainPID"] != "0"
    for helper in ("companion-poweroff.path", "companion-blank.service"):
        assert show(box, helper, "ActiveState")["ActiveState"] == "active", journal(box, helper)


def test_a_second_install_changes_nothing(box):
    before = snapshot(box)
    result = box.run(f"cd {CHECKOUT} && sudo systemd/install.sh", timeout=600)
    assert "Nothing changed" in result.stdout, result.stdout
    assert snapshot(box) == before
    assert running(box)


def test_the_blank_unit_runs_where_lgpio_can_make_its_pipe(box):
    box.run(f"{VENV}/bin/pip install -q --disable-pip-version-check lgpio")  # as on a Pi
    work = show(box, "companion-blank", "WorkingDirectory")["WorkingDirectory"]
    assert work == "/run/companion-blank"
    # importing lgpio makes .lgd-nfy* in the working directory: / would refuse it
    refused = box.run(f"sudo -u companion env -C / {VENV}/bin/python -c 'import lgpio'",
                      check=False)
    assert refused.returncode != 0 and ".lgd-nfy" in refused.stderr
    box.run(f"sudo -u companion env -C {work} {VENV}/bin/python -c 'import lgpio'")
    box.run("systemctl stop companion-blank && systemctl start companion-blank")
    assert show(box, "companion-blank", "Result")["Result"] == "success", \
        journal(box, "companion-blank")


def test_doctor_and_selftest_pass_as_the_service_user(box):
    box.run("systemctl stop companion")
    doctor = box.run(f"{AS_SERVICE} GPIOZERO_PIN_FACTORY=lgpio {VENV}/bin/companion doctor",
                     check=False)
    report = doctor.stdout + doctor.stderr
    assert doctor.returncode == 0, report
    for line in ("LED map", "co-processor says HELLO .* firmware up to date", "tag registry",
                 "state directory"):
        assert re.search(rf"^ok +.*{line}", doctor.stdout, re.M), report
    selftest = box.popen(f"{AS_SERVICE} GPIOZERO_PIN_FACTORY=mock "
                         f"{VENV}/bin/companion selftest --seconds 6")
    lines = []
    for line in selftest.stdout:
        lines.append(line)
        if line.startswith("echo for"):
            assert pico_say(box, f"tap 1 {H}") == "ok"
    assert selftest.wait(30) == 0, "".join(lines) + selftest.stderr.read()
    out = "".join(lines)
    assert "LED 24" in out and "selftest: all outputs answered" in out
    assert re.search(r"^pad 1: \S", out, re.M), out


def test_a_game_is_played_and_survives_kill_and_the_watchdog(box):
    # A game set up at the table (the menu's presses, straight into the box's journal),
    # then played through the reader pads.
    setup = ("from companion.journal import Journal\n"
             "from companion.registry import sim_registry\n"
             "from companion.session import Session, SessionConfig\n"
             "from companion.inputs import BACK, OK, Press\n"
             "with Journal('journal.db') as j:\n"
             "    s = Session(j, sim_registry(), SessionConfig(), lambda: 6)\n"
             "    for _ in range(4): s.handle(Press(OK))\n"
             "    s.handle(Press(BACK))\n"
             "    assert s.mode == 'game'\n"
             "    print(s.game_id)\n")
    game_id = int(box.run(f"{AS_SERVICE_PRIVATE} {VENV}/bin/python", input=setup).stdout)
    box.run("systemctl reset-failed companion; systemctl start companion")
    state = wait_for(lambda: running(box), 60, "companion active", box)
    assert f"Game #{game_id}" in state["StatusText"], state
    before = inputs_of(box, game_id)
    assert pico_say(box, f"tap 1 {H}") == "ok"
    played = wait_for(lambda: (n := inputs_of(box, game_id)) > before and n, 20,
                      "the tap reached the game's journal", box)
    assert int(pico_say(box, "frames")) > 0  # the LED map drove the chain

    box.run(f"kill -KILL {state['MainPID']}")
    again = wait_for(lambda: (r := running(box)) and r["MainPID"] != state["MainPID"] and r,
                     30, "restart after kill -9", box)
    assert f"Game #{game_id}" in again["StatusText"], again
    assert inputs_of(box, game_id) == played
    assert int(show(box, "companion", "NRestarts")["NRestarts"]) >= 1

    box.run(f"kill -STOP {again['MainPID']}")
    after = wait_for(lambda: (r := running(box)) and r["MainPID"] != again["MainPID"] and r,
                     90, "watchdog restart after SIGSTOP", box)
    assert "Watchdog timeout" in journal(box, lines=200)
    assert f"Game #{game_id}" in after["StatusText"], after
    assert inputs_of(box, game_id) == played


def test_the_state_stays_the_service_users_alone(box):
    """After doctor, selftest and a game: nothing in the state folder is readable by
    others (the README's commands run with sudo's umask, the service with 0077). lgpio's
    notification pipes (.lgd-nfy*, made by `import lgpio` in the working directory) carry
    no data; install.sh tightens them with the rest on its next run."""
    exposed = box.run("find /var/lib/companion -perm /077 ! -name '.lgd-nfy*' "
                      "-printf '%m %p\\n'").stdout
    assert exposed == ""


def test_the_power_off_request_reaches_the_path_unit(box):
    box.run("sudo -u companion touch /run/companion/poweroff")
    wait_for(lambda: box.run("test -e /run/e2e-poweroff-asked", check=False).returncode == 0,
             20, "companion-poweroff.service started by the path unit", box)
    box.run("rm -f /run/companion/poweroff")


def test_uninstall_leaves_nothing_of_ours_and_keeps_the_overrides(box):
    box.pico.stdin.write("quit\n")
    box.pico.stdin.flush()
    box.pico.wait(10)
    box.pico = None
    result = box.run(f"cd {CHECKOUT} && sudo systemd/install.sh --uninstall")
    assert "kept your drop-ins" in result.stdout, result.stdout
    left = box.run("ls -d " + " ".join(OURS) + " 2>/dev/null", check=False).stdout
    assert left == ""
    assert box.run("getent passwd companion", check=False).returncode != 0
    for name, text in OVERRIDES.items():
        assert box.run(f"cat /etc/systemd/system/{name}").stdout == text
    assert box.run("systemctl is-active companion", check=False).stdout.strip() != "active"
    box.run("test -f /etc/companion/config.toml && test -d /var/lib/companion")  # kept
