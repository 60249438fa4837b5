"""Start-up time: from process start to READY=1, against bare imports of the libraries.

Each run starts the real ``companion run`` (through ``bench/rundaemon.py``: mock GPIO
buttons, the OLED on luma's SSD1306 driver over a fake I2C bus, the fake Pico on a
pty) under a notify socket, with an unfinished game of ``--inputs`` inputs in the
journal, and times it from just before the process is created until READY=1 arrives
(the daemon sends it only after the devices are open and the game is resumed by
replay). The baseline is the same interpreter running

    python -c "import PIL, luma.oled, gpiozero, serial"

to its exit, timed the same way. Runs alternate between the two; medians are
reported, and their ratio (goal <= 1.5), in wall time and in CPU time (user and
system, from ``/proc`` for the daemon at READY=1 and from the rusage of the finished
baseline): on a shared machine the CPU ratio is the steadier. Exits 1 if the box was
not showing the resumed game when it said READY, non-zero if the daemon fails.

    python bench/startup.py [--runs 7] [--inputs 100] [--lang ja]

``--lang`` starts the box in another language (Japanese reads its glyph file and
catalogs at start: the costliest of the four).
"""

from __future__ import annotations

import argparse
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import (NotifySocket, child_env, cpu_seconds, game_in_progress,  # noqa: E402
                           median, read_counters, spawn, write_config)
from companion.hardware.fake_pico import FakePico  # noqa: E402

BASELINE = "import PIL, luma.oled, gpiozero, serial"


def baseline() -> tuple[float, float]:
    """Wall and CPU seconds of the bare imports."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", BASELINE], check=True, env=child_env())
    wall = time.monotonic() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime


def daemon(tmp: Path, pico: FakePico, language: str, game_id: int) -> tuple[float, float]:
    """Wall and CPU seconds to READY=1; the box must show the resumed game then."""
    notify = NotifySocket(tmp / f"notify-{time.monotonic_ns()}")
    config = write_config(tmp / "config.toml", state_dir=tmp / "state", pico=pico.path,
                          language=language)
    counters = tmp / f"counters-{time.monotonic_ns()}.json"  # a fresh count per process
    start = time.monotonic()
    proc = spawn(config, notify, counters)
    try:
        ready = notify.ready(60) - start
        cpu = cpu_seconds(proc.pid)
        shown = read_counters(proc, counters)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        notify.close()
    if proc.returncode != 0:
        raise RuntimeError(f"the daemon exited with {proc.returncode}")
    if (shown.get("mode"), shown.get("status"), shown.get("game_id")) != ("game", "playing",
                                                                          game_id):
        raise NotResumed(f"at READY the box showed mode {shown.get('mode')}, game "
                         f"#{shown.get('game_id')} {shown.get('status')}, not game #{game_id}")
    return ready, cpu


class NotResumed(RuntimeError):
    """READY=1 came before the unfinished game was on the box."""


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
        try:
            baseline(), daemon(tmp, pico, args.lang, game_id)  # warm the caches
            bases, readies = [], []
            for r in range(args.runs):
                bases.append(baseline())
                readies.append(daemon(tmp, pico, args.lang, game_id))
                (wall, cpu), (ready, used) = bases[-1], readies[-1]
                print(f"run {r + 1}: imports {wall * 1000:.0f} ms ({cpu * 1000:.0f} ms CPU), "
                      f"companion run to READY {ready * 1000:.0f} ms ({used * 1000:.0f} ms "
                      f"CPU)", flush=True)
        except NotResumed as exc:
            print(f"bench/startup.py: not measured: {exc}", file=sys.stderr)
            return 1
    print(f"start-up in {args.lang}: game #{game_id} resumed by replaying {played} inputs "
          f"and shown at READY; median of {args.runs} runs")
    for i, what in enumerate(("wall", "CPU")):
        base, ready = median(b[i] for b in bases), median(r[i] for r in readies)
        print(f"{what}: bare imports ({BASELINE}) {base * 1000:.0f} ms, process start to "
              f"READY=1 {ready * 1000:.0f} ms: ratio {ready / base:.2f}x (goal <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
