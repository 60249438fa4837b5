"""``companion firmware install|check``: put the firmware shipped with this package on
the Pico.

The firmware is ``firmware/*.py`` (installed as ``companion/pico``) plus the host's
own ``companion/hardware/protocol.py`` (one codec for both ends). Copying goes through ``mpremote`` (PyPI, the MicroPython
project's tool). A Pico already running the firmware ignores a single Ctrl-C, so
install first sends the documented escape (``\\r`` + one 0x03 arms it for 5 s; mpremote's
own Ctrl-C is the second). Afterwards the Pico must say HELLO with the version in
``firmware/main.py``.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .hardware import protocol

_VERSION = re.compile(r'^FW_VERSION\s*=\s*"([^"]+)"', re.M)
HELLO_WAIT = 8.0  # seconds for a freshly reset Pico to boot and say HELLO


class FirmwareError(Exception):
    """A one-line reason the firmware cannot be installed or checked."""


def source_dir(source: str | None = None) -> Path:
    """The firmware folder: ``--source``; else the copy installed with this package
    (``companion/pico``, as in ``/opt/companion/venv``); else the checkout's
    ``firmware/`` (an editable install)."""
    here = Path(__file__).resolve().parent
    if source:
        path = Path(source)
    else:
        path = next((p for p in (here / "pico", here.parent / "firmware")
                     if (p / "main.py").is_file()), here / "pico")
    if not (path / "main.py").is_file():
        raise FirmwareError(f"no firmware in {path} (reinstall the package, or pass "
                            "--source DIR)")
    return path


def shipped_version(source: Path) -> str:
    match = _VERSION.search((source / "main.py").read_text(encoding="utf-8"))
    if not match:
        raise FirmwareError(f"{source / 'main.py'} has no FW_VERSION line")
    return match.group(1)


def files(source: Path) -> list[Path]:
    """What goes onto the Pico: the shared codec and every firmware module."""
    return [Path(protocol.__file__)] + sorted(source.glob("*.py"))


def mpremote() -> list[str]:
    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    found = shutil.which("mpremote")
    if found:
        return [found]
    raise FirmwareError("mpremote is not installed: pip install mpremote "
                        "(or pip install '.[firmware]')")


def arm_escape(device: str) -> None:
    """Ask a running firmware to let go of the REPL (see firmware/README.md)."""
    try:
        fd = os.open(device, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as exc:
        raise FirmwareError(f"cannot open {device}: {exc.strerror} (is the Pico plugged "
                            "in, and the companion service stopped?)") from None
    try:
        os.write(fd, b"\r\x03")
    finally:
        os.close(fd)


def hello(device: str, baud: int, wait: float = HELLO_WAIT) -> dict[str, Any] | None:
    """The Pico's HELLO, or None if it says nothing within ``wait`` seconds."""
    from .hardware.link import LinkEvent, SerialLink

    events: queue.SimpleQueue = queue.SimpleQueue()
    link = SerialLink(device, baud, events.put)
    try:
        deadline = time.monotonic() + wait
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                return None
            if isinstance(event, LinkEvent) and event.state in ("up", "version"):
                return link.hello
        return None
    finally:
        link.close()


def check(device: str, baud: int, source: Path, say: Callable[[str], None]) -> int:
    want = shipped_version(source)
    got = hello(device, baud)
    if got is None:
        say(f"no HELLO from {device}: no firmware, a crashed one, or the service holds the "
            "port (sudo systemctl stop companion); companion firmware install")
        return 1
    fw, proto = got.get("fw"), got.get("proto")
    if proto != protocol.PROTO:
        say(f"the Pico speaks protocol {proto}, this software {protocol.PROTO}: "
            "companion firmware install")
        return 1
    if fw != want:
        say(f"the Pico runs firmware {fw}, this software ships {want}: companion firmware install")
        return 1
    say(f"firmware {fw} (protocol {proto}, {got.get('readers')} readers, "
        f"{got.get('pixels')} pixels): up to date")
    return 0


def install(device: str, baud: int, source: Path, say: Callable[[str], None],
            run: Callable[..., Any] = subprocess.run) -> int:
    command = mpremote()
    arm_escape(device)
    copy = [*command, "connect", device, "cp", *map(str, files(source)), ":", "+", "reset"]
    say("$ " + " ".join(copy))
    result = run(copy, check=False)
    if result.returncode != 0:
        say("mpremote failed. If it said 'could not enter raw repl', run this again "
            "(the escape lasts 5 s); see firmware/README.md")
        return 1
    return check(device, baud, source, say)


def main(action: str, config_path: str | None, device: str | None, source: str | None) -> int:
    from . import config as configuration

    def say(text: str) -> None:
        print(text, flush=True)

    try:
        config = configuration.load(config_path)
        folder = source_dir(source)
        port = device or config.link.device
        if action == "install":
            return install(port, config.link.baud, folder, say)
        return check(port, config.link.baud, folder, say)
    except (configuration.ConfigError, FirmwareError) as exc:
        print(f"companion firmware: {exc}", file=sys.stderr)
        return 2
