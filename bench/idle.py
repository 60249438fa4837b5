"""Idle cost and memory of the running daemon: ``companion run`` with the fake Pico
(heartbeats every second, as the real firmware sends them), mock GPIO and no OLED,
sitting at the main menu. Prints CPU seconds per idle minute (target <= 0.1) and
peak RSS (target <= 60 MB). Linux only: reads /proc.

    python bench/idle.py [--seconds 60]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from companion.hardware.fake_pico import FakePico  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, FakePico() as pico:
        config = Path(tmp) / "config.toml"
        config.write_text(f'[oled]\ndriver = "none"\n[link]\ndevice = "{pico.path}"\n'
                          f'[paths]\nstate_dir = "{tmp}"\n')
        env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config",
                                 str(config)], env=env, cwd=tmp, stderr=subprocess.DEVNULL)
        try:
            if not pico.wait_until(lambda: pico.frame is not None, 30):
                print("the daemon never drove the LEDs", file=sys.stderr)
                return 1
            time.sleep(2)  # imports and start-up are not idling
            start = cpu_seconds(proc.pid)
            time.sleep(args.seconds)
            used = cpu_seconds(proc.pid) - start
            rss = peak_rss_mb(proc.pid)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
    print(f"machine: {machine()}")
    print(f"idle CPU: {used / args.seconds * 60:.3f} CPU-s per idle minute "
          f"(target <= 0.1; measured over {args.seconds:g} s)")
    print(f"peak RSS: {rss:.1f} MB (target <= 60)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
