"""Start-up time: from process start to READY=1, against bare imports of the libraries.

Each run starts the real ``companion run`` (through ``bench/rundaemon.py``: mock GPIO
buttons, the OLED on luma's SSD1306 driver over a fake I2C bus, the fake Pico on a
pty) under a notify socket, with an unfinished game of ``--inputs`` inputs in the
journal, and times it from just before the process is created until READY=1 arrives
(the daemon sends it only after the devices are open and the game is resumed by
replay). The baseline is the same interpreter running

    python -c "import PIL, luma.oled, gpiozero, serial"

to its exit, timed the same way. Runs alternate between the two; medians are
reported, and their ratio (goal <= 1.5). Exits non-zero only if the daemon fails.

    python bench/startup.py [--runs 7] [--inputs 100] [--lang ja]

``--lang`` starts the box in another language (Japanese reads its glyph file and
catalogs at start: the costliest of the four).
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import (NotifySocket, child_env, game_in_progress, median, spawn,  # noqa: E402
                           write_config)
from companion.hardware.fake_pico import FakePico  # noqa: E402

BASELINE = "import PIL, luma.oled, gpiozero, serial"


def baseline() -> float:
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", BASELINE], check=True, env=child_env())
    return time.monotonic() - start


def daemon(tmp: Path, pico: FakePico, language: str) -> float:
    notify = NotifySocket(tmp / f"notify-{time.monotonic_ns()}")
    config = write_config(tmp / "config.toml", state_dir=tmp / "state", pico=pico.path,
                          language=language)
    start = time.monotonic()
    proc = spawn(config, notify)
    try:
        ready = notify.ready(60) - start
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        notify.close()
    if proc.returncode != 0:
        raise RuntimeError(f"the daemon exited with {proc.returncode}")
    return ready


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--inputs", type=int, default=100,
                        help="inputs of the unfinished game the daemon resumes")
    parser.add_argument("--lang", default="en", help="the language the box starts in")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp_name, FakePico(hb_interval=1.0) as pico:
        tmp = Path(tmp_name)
        game_id, played = game_in_progress(tmp / "state", seed=3, inputs=args.inputs)
        baseline(), daemon(tmp, pico, args.lang)  # warm the page cache and the .pyc files
        bases, readies = [], []
        for r in range(args.runs):
            bases.append(baseline())
            readies.append(daemon(tmp, pico, args.lang))
            print(f"run {r + 1}: imports {bases[-1] * 1000:.0f} ms, "
                  f"companion run to READY {readies[-1] * 1000:.0f} ms", flush=True)
    base, ready = median(bases), median(readies)
    print(f"start-up in {args.lang}: game #{game_id} resumed by replaying {played} inputs; "
          f"median of {args.runs} runs")
    print(f"bare imports ({BASELINE}): {base * 1000:.0f} ms")
    print(f"process start to READY=1: {ready * 1000:.0f} ms")
    print(f"ratio: {ready / base:.2f}x (goal <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
