"""``companion doctor``: what stands between this Pi and a working box, and the fix.

Each check prints one line (``ok``, ``warn`` or ``FAIL``) and, when something is
wrong, the command or change that fixes it. The checks only look and probe; they
never change the system. Run it with the service stopped (the devices have one
owner at a time) and as the user the service runs as, so group membership and
permissions are the service's own.
"""

from __future__ import annotations

import errno
import grp
import os
import pwd
import queue
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .frozen import frozen

GROUPS = ("gpio", "i2c", "spi", "dialout")
OK, WARN, FAIL = "ok", "warn", "FAIL"


@frozen
class Finding:
    level: str  # ok | warn | FAIL
    what: str
    fix: str = ""

    def __str__(self) -> str:
        text = f"{self.level:<4}  {self.what}"
        return text + (f"\n      fix: {self.fix}" if self.fix else "")


@dataclass
class System:
    """The facts the checks read, injectable so tests can describe any machine."""

    user: str
    user_groups: set[str]
    group_exists: Callable[[str], bool]
    model: str  # /proc/device-tree/model, "" off a Pi
    environ: dict[str, str]
    i2c_probe: Callable[[int, int], None]  # raises OSError when nobody answers
    service_active: Callable[[], bool]
    hello_timeout: float = 3.0
    dev: Path = Path("/dev")  # where device nodes are looked for
    # What an SPI OLED still lacks ("" when nothing): luma drives D/C and reset
    # through the RPi.GPIO API (rpi-lgpio) and the bus through spidev.
    spi_missing: Callable[[], str] = lambda: _spi_missing()

    @classmethod
    def here(cls) -> System:
        user = pwd.getpwuid(os.getuid()).pw_name
        groups = {grp.getgrgid(g).gr_name for g in os.getgroups() if _gid_known(g)}
        groups.add(grp.getgrgid(os.getgid()).gr_name if _gid_known(os.getgid()) else "")
        try:
            model = Path("/proc/device-tree/model").read_text(errors="replace").strip("\0\n")
        except OSError:
            model = ""
        return cls(user, groups, _group_exists, model, dict(os.environ), _smbus_probe,
                   _service_active)


def _gid_known(gid: int) -> bool:
    try:
        grp.getgrgid(gid)
        return True
    except KeyError:
        return False


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


def _smbus_probe(port: int, address: int) -> None:
    from smbus2 import SMBus  # comes with luma.core

    with SMBus(port) as bus:
        bus.read_byte(address)


def _spi_missing() -> str:
    import importlib.metadata
    import importlib.util

    missing = []
    try:
        importlib.metadata.version("rpi-lgpio")
    except importlib.metadata.PackageNotFoundError:
        missing.append("rpi-lgpio")
    if importlib.util.find_spec("spidev") is None:
        missing.append("spidev")
    return " and ".join(missing)


def _service_active() -> bool:
    if shutil.which("systemctl") is None:
        return False
    result = subprocess.run(["systemctl", "is-active", "--quiet", "companion"], check=False,
                            stderr=subprocess.DEVNULL)
    return result.returncode == 0


def check(config: Any, system: System) -> Iterator[Finding]:
    """Every finding for ``config`` on ``system``, in the order a maker fixes them."""
    yield from _service(system)
    yield from _groups(system)
    yield from _gpio(config, system)
    yield from _oled(config, system)
    yield from _readers(config, system)
    yield from _state(config)
    yield from _engine_build()
    yield from _led_map(config)
    yield from _catalogs(config)


def _service(system: System) -> Iterator[Finding]:
    if system.service_active():
        yield Finding(WARN, "the companion service is running and owns the devices; "
                      "device checks below may fail for that reason alone",
                      "sudo systemctl stop companion (start it again afterwards)")


def _groups(system: System) -> Iterator[Finding]:
    if system.user == "root":
        yield Finding(WARN, "running as root: permission and group checks prove nothing",
                      "run as the service user: sudo -u companion "
                      "/opt/companion/venv/bin/companion doctor")
        return
    for name in GROUPS:
        if not system.group_exists(name):
            yield Finding(WARN, f"group {name} does not exist on this system "
                          "(not Raspberry Pi OS?); device permissions may differ")
        elif name in system.user_groups:
            yield Finding(OK, f"user {system.user} is in group {name}")
        else:
            yield Finding(FAIL, f"user {system.user} is not in group {name}",
                          f"sudo usermod -aG {name} {system.user}, then log out and in "
                          "(the service gets it from SupplementaryGroups=)")


def _gpio(config: Any, system: System) -> Iterator[Finding]:
    factory = system.environ.get("GPIOZERO_PIN_FACTORY", "")
    pi5 = "Raspberry Pi 5" in system.model
    try:
        import lgpio  # noqa: F401 - the backend gpiozero needs on a Pi 5
        yield Finding(OK, "lgpio is installed (gpiozero's pin factory backend)")
    except ImportError:
        yield Finding(FAIL, "lgpio is not installed: gpiozero cannot reach the pins",
                      "sudo apt install python3-lgpio (the installer's venv sees system "
                      "packages), or pip install lgpio in the venv")
    if factory and factory != "lgpio":
        level = FAIL if pi5 else WARN
        yield Finding(level, f"GPIOZERO_PIN_FACTORY={factory}" + (
            " does not work on a Pi 5" if pi5 else " (the service uses lgpio)"),
            "unset it, or set GPIOZERO_PIN_FACTORY=lgpio")
    elif not factory:
        yield Finding(WARN, "GPIOZERO_PIN_FACTORY is not set: gpiozero may silently "
                      "fall back to a factory that fails on a Pi 5",
                      "export GPIOZERO_PIN_FACTORY=lgpio (the service sets it)")
    chips = sorted(system.dev.glob("gpiochip*"))
    if not chips:
        yield Finding(FAIL if system.model else WARN, "no /dev/gpiochip*: no GPIO here",
                      "run on the Raspberry Pi itself")
    elif not all(os.access(c, os.R_OK | os.W_OK) for c in chips):
        yield Finding(FAIL, f"cannot open {chips[0]}", "add the user to group gpio")
    if not os.access(".", os.W_OK):
        yield Finding(FAIL, f"the working directory {os.getcwd()} is not writable: lgpio "
                      "puts its notification pipe there", "cd to a writable directory "
                      "(the service runs in /var/lib/companion)")


def _oled(config: Any, system: System) -> Iterator[Finding]:
    oled = config.oled
    if oled.driver == "none":
        yield Finding(OK, "no OLED configured (oled.driver = \"none\")")
        return
    if oled.bus == "spi":
        dev = system.dev / f"spidev{oled.port}.{oled.spi_device}"
        if not dev.exists():
            yield Finding(FAIL, f"{dev} is missing: SPI is off",
                          "sudo raspi-config nonint do_spi 0, then reboot")
        else:
            yield Finding(OK, f"SPI device {dev} present ({oled.driver})")
        missing = system.spi_missing()
        if missing:
            yield Finding(FAIL, f"the SPI OLED needs {missing} in this Python environment",
                          f"sudo {sys.executable} -m pip install 'rpi-lgpio>=0.6' "
                          "'spidev>=3.6' (or run systemd/install.sh again)")
        else:
            yield Finding(OK, "rpi-lgpio and spidev are installed (for the SPI OLED)")
        return
    dev = system.dev / f"i2c-{oled.port}"
    if not dev.exists():
        yield Finding(FAIL, f"{dev} is missing: I2C is off",
                      "sudo raspi-config nonint do_i2c 0, then reboot (or add "
                      "dtparam=i2c_arm=on to /boot/firmware/config.txt)")
        return
    if not os.access(dev, os.R_OK | os.W_OK):
        yield Finding(FAIL, f"no permission on {dev}", f"sudo usermod -aG i2c {system.user}")
        return
    try:
        system.i2c_probe(oled.port, oled.address)
    except OSError as exc:
        if exc.errno == errno.EBUSY:
            yield Finding(FAIL, f"{dev} address {oled.address:#04x} is busy",
                          "another program (or a kernel driver) uses the panel; stop it")
        else:
            yield Finding(FAIL, f"nothing answers at {oled.address:#04x} on {dev} ({exc})",
                          f"check the wiring (SDA pin 3, SCL pin 5, 3V3, GND) and the "
                          f"address with: i2cdetect -y {oled.port}; set oled.address")
        return
    yield Finding(OK, f"OLED answers at {oled.address:#04x} on {dev} "
                  f"(driver {oled.driver}: if the picture is garbled, try the other one)")


def _serial_device(path: str, what: str, system: System) -> Finding | None:
    if not os.path.exists(path):
        return Finding(FAIL, f"{what} {path} is not there",
                       "plug it in; list candidates with: ls -l /dev/serial/by-id; for the "
                       "Pico install systemd/99-companion.rules (install.sh does)")
    if not os.access(path, os.R_OK | os.W_OK):
        return Finding(FAIL, f"no permission on {what} {path}",
                       f"sudo usermod -aG dialout {system.user}")
    return None


def _readers(config: Any, system: System) -> Iterator[Finding]:
    uses_link = "firmware" in (config.reader.kind, config.leds.sink)
    if uses_link:
        problem = _serial_device(config.link.device, "co-processor", system)
        if problem:
            yield problem
        else:
            yield _hello(config, system)
    if config.reader.kind == "rdm6300":
        for pad, path in enumerate(config.reader.rdm6300, 1):
            yield _serial_device(path, f"pad {pad} reader", system) or \
                Finding(OK, f"pad {pad} reader {path} can be opened")
    if config.reader.kind == "none":
        yield Finding(OK, "no tag readers configured: every action is chosen with buttons")


def _hello(config: Any, system: System) -> Finding:
    from .hardware.link import LinkEvent, SerialLink

    events: queue.SimpleQueue = queue.SimpleQueue()
    link = SerialLink(config.link.device, config.link.baud, events.put)
    deadline = time.monotonic() + system.hello_timeout
    last = ""
    try:
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(event, LinkEvent):
                if event.state == "up":
                    return _firmware_version(link.hello or {}, event.detail)
                if event.state == "version":
                    return Finding(FAIL, f"co-processor firmware not supported: "
                                   f"{event.detail}", "companion firmware install")
                last = f"{event.state}: {event.detail}"
    finally:
        link.close()
    return Finding(FAIL, f"no HELLO from {config.link.device} within "
                   f"{system.hello_timeout:g} s" + (f" ({last})" if last else ""),
                   "flash the firmware (see firmware/), check the USB cable, and that no "
                   "other program holds the port")


def _firmware_version(hello: dict[str, Any], detail: str) -> Finding:
    """HELLO arrived; a firmware older or newer than the one this package ships is
    worth a warning."""
    from .firmware import FirmwareError, shipped_version, source_dir

    try:
        want = shipped_version(source_dir())
    except FirmwareError:
        return Finding(OK, f"co-processor says HELLO ({detail})")  # no checkout to compare
    if hello.get("fw") != want:
        return Finding(WARN, f"co-processor says HELLO but runs firmware {hello.get('fw')}; "
                       f"this software ships {want}", "companion firmware install")
    return Finding(OK, f"co-processor says HELLO ({detail}); firmware up to date")


def _state(config: Any) -> Iterator[Finding]:
    from .registry import Registry, RegistryError

    state = Path(config.paths.state_dir)
    if not state.is_dir():
        yield Finding(FAIL, f"state directory {state} does not exist",
                      "install.sh creates it (systemd makes it via StateDirectory=)")
    elif not os.access(state, os.W_OK):
        yield Finding(FAIL, f"state directory {state} is not writable by this user",
                      "run as the service user: sudo -u companion companion doctor")
    else:
        yield Finding(OK, f"state directory {state} is writable")
    yield from _journal(state / "journal.db")
    registry = Path(config.paths.registry_path)
    if not registry.exists():
        yield Finding(WARN, f"no tag registry at {registry}: cards cannot be tapped yet",
                      "companion enroll")
        return
    try:
        tags = Registry.load(registry)
    except RegistryError as exc:
        yield Finding(FAIL, str(exc), "fix the line named, or enrol again")
        return
    yield Finding(OK, f"tag registry {registry}: {len(tags)} tags")


def _engine_build() -> Iterator[Finding]:
    """Which engine build runs; a compiled build on disk that is refused (damaged, made
    from other sources, incomplete) means pure Python, which is safe but slower."""
    from .games import compiled

    refused = compiled.refused()
    if refused:
        yield Finding(FAIL, "the compiled engine on disk is not used, running pure Python: "
                      + "; ".join(refused), compiled.FIX)
    else:
        yield Finding(OK, "engine: " + compiled.describe())


def _led_map(config: Any) -> Iterator[Finding]:
    """The LED map the box reads at start (a missing one stops the service with exit 2)."""
    from .hardware.leds import LedMapError, default_led_map_path, load_led_map

    if config.leds.sink != "firmware":
        return  # only the co-processor's chain is mapped
    path = config.leds.map or default_led_map_path()
    fix = ("reinstall: sudo systemd/install.sh" if not config.leds.map
           else "fix the file, or remove [leds] map to use the reference build's")
    try:
        chain = load_led_map(path)
    except LedMapError as exc:
        yield Finding(FAIL, f"LED map {exc}", fix)
        return
    yield Finding(OK, f"LED map {path}: {sum(p is not None for p in chain)} pixels")


def _catalogs(config: Any = None, package: Any = None) -> Iterator[Finding]:
    """Every compiled catalog of the table's language (the config's, and the one chosen
    in Settings) reads and passes the box's own check (a damaged one leaves its words
    English); the other shipped languages only warn, as Settings offers them. Without a
    config every language counts. ``package``: the installed package's folder (a test
    passes a damaged copy)."""
    from . import i18n, language

    locale = package / "locale" if package is not None else i18n.locale_root()
    if config is None:
        needed = set(i18n.LANGUAGES)
    else:
        needed = {config.game.language, language.saved(Path(config.paths.state_dir))}
    needed -= {None, i18n.DEFAULT}  # the source language has no catalog
    broken, count = set(), 0
    for code in i18n.LANGUAGES:
        if code == i18n.DEFAULT:
            continue
        folder = locale / code
        problems = []
        for name in i18n.CATALOGS:
            count += 1
            try:
                i18n.read_catalog(folder / "LC_MESSAGES" / f"{name}.mo")
            except Exception as exc:  # noqa: BLE001 - a damaged file fails in many ways
                problems.append(f"{name}.mo ({type(exc).__name__}: {exc})")
        if not (folder / "web.json").is_file():
            problems.append("web.json (missing)")
        if not problems:
            continue
        broken.add(code)
        yield Finding(FAIL if code in needed else WARN,
                      f"language {code}: cannot load " + ", ".join(problems) +
                      " (its words show in English)", "reinstall: sudo systemd/install.sh")
    if not needed & broken:
        yield Finding(OK, f"the table's language loads: {', '.join(sorted(needed)) or 'en'} "
                      f"({count} catalogs checked)")


def _journal(path: Path) -> Iterator[Finding]:
    """Open the journal read-only (beside a running box too) and check all of it: the
    SQLite structure, every game against its checksum chain, and the mark."""
    from .journal import Journal, JournalError

    if not path.exists():
        yield Finding(OK, f"no journal at {path} yet (no game played)")
        return
    fix = "start the box: it keeps the damaged file aside and salvages what reads"
    try:
        with Journal(path, readonly=True) as journal:
            problems = [row[0] for row in journal._db.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                yield Finding(FAIL, f"journal {path} is damaged: "
                              + "; ".join(" ".join(p.split()) for p in problems[:3]), fix)
                return
            broken = journal.verify()
            count = len(journal.games())
    except JournalError as exc:
        yield Finding(FAIL, str(exc), fix if exc.damaged else "see the message")
        return
    except Exception as exc:  # noqa: BLE001 - doctor reports, it never traces back
        yield Finding(FAIL, f"journal {path} cannot be read: {type(exc).__name__}: {exc}", fix)
        return
    if broken:
        yield Finding(FAIL, f"journal {path}: {len(broken)} game(s) damaged: {broken[0]}", fix)
    else:
        yield Finding(OK, f"journal {path}: {count} game(s), all intact")


def main(config_path: str | None, system: System | None = None) -> int:
    from . import config as configuration

    failed = 0
    try:
        config = configuration.load(config_path)
        print(str(Finding(OK, f"config {config.path or 'defaults (no config file)'}")))
    except configuration.ConfigError as exc:
        print(str(Finding(FAIL, str(exc), "fix the line named (every key is optional)")))
        failed += 1
        config = configuration.Config()  # check the rest against the reference build
    system = system or System.here()
    for finding in check(config, system):
        print(str(finding), flush=True)
        failed += finding.level == FAIL
    print(f"{failed} problem(s) found" if failed else "all good", file=sys.stderr)
    return 1 if failed else 0


def bench(config_path: str | None) -> int:
    """``companion doctor --bench``: the hint's search speed on this box, kept in the
    state directory for the box's next start (see ``companion/hintrate.py``)."""
    from . import config as configuration
    from . import hintrate

    try:
        state_dir: Path | None = Path(configuration.load(config_path).paths.state_dir)
    except configuration.ConfigError as exc:
        print(str(Finding(FAIL, str(exc), "fix the line named (every key is optional)")))
        state_dir = None
    if state_dir is not None and not state_dir.is_dir():
        state_dir = None  # nothing to keep it in yet: the box measures at its first start
    return hintrate.bench(state_dir)
