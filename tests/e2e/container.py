"""A throw-away copy of the cached root file system, booted with ``systemd-nspawn -b``.

Commands run inside through nsenter (this machine may have no systemd or machined of
its own, so ``machinectl``/``systemd-run -M`` are not assumed)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class BootError(RuntimeError):
    pass


class Container:
    def __init__(self, image: Path, binds: dict[Path, str] | None = None):
        self.binds = binds or {}
        self.dir = Path(tempfile.mkdtemp(prefix="companion-e2e-", dir=image.parent))
        self.root = self.dir / "root"
        # cp, not --ephemeral: the copy outlives a crash for a look at what happened
        subprocess.run(["cp", "-a", "--reflink=auto", str(image), str(self.root)], check=True)
        self.log = self.dir / "console.log"
        self.proc: subprocess.Popen | None = None
        self.leader = 0

    def boot(self, timeout: float = 90.0) -> None:
        cmd = ["systemd-nspawn", "--quiet", "--directory", str(self.root),
               "--machine", self.dir.name[-40:].replace("_", "-"),
               # this machine may run no systemd of its own: no scope, no machined
               "--register=no", "--keep-unit", "--console=passive", "--boot"]
        cmd[1:1] = [f"--bind={host}:{inside}" for host, inside in self.binds.items()]
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise BootError(f"systemd-nspawn exited {self.proc.returncode}: {self.tail()}")
            self.leader = self.leader or self._find_leader()
            if self.leader:
                result = self.run("systemctl is-system-running", check=False, timeout=20)
                state = result.stdout.strip()
                if state in ("running", "degraded"):
                    return
            time.sleep(0.5)
        raise BootError(f"not booted within {timeout:g} s (state {state!r}): {self.tail()}")

    def _find_leader(self) -> int:
        """The container's PID 1 as this machine sees it: nspawn's child running systemd."""
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                try:
                    if Path(f"/proc/{child}/comm").read_text().strip() == "systemd":
                        return int(child)
                except OSError:
                    pass
        return 0

    def tail(self, lines: int = 30) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def command(self, script: str) -> list[str]:
        return ["nsenter", "--target", str(self.leader), "--all", "--root", "--wd",
                "/usr/bin/env", "-i", f"PATH={PATH}", "HOME=/root", "LANG=C.UTF-8",
                "/bin/bash", "-c", script]

    def run(self, script: str, check: bool = True, timeout: float = 120.0,
            input: str | None = None) -> subprocess.CompletedProcess:
        result = subprocess.run(self.command(script), capture_output=True, text=True,
                                timeout=timeout, input=input)
        if check and result.returncode != 0:
            raise AssertionError(f"{script!r} exited {result.returncode}\n"
                                 f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}")
        return result

    def popen(self, script: str) -> subprocess.Popen:
        return subprocess.Popen(self.command(script), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                bufsize=1)

    def shutdown(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # nspawn asks the container's init to halt
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if os.environ.get("COMPANION_E2E_KEEP"):
            return
        shutil.rmtree(self.dir, ignore_errors=True)
