"""Start-up time: from process start to READY=1, against bare imports of the libraries.

Each run starts the real ``companion run`` (through ``bench/rundaemon.py``: mock GPIO
buttons, the OLED on luma's SSD1306 driver over a fake I2C bus, the fake Pico on a
pty) under a notify socket, with an unfinished game of ``--inputs`` inputs in the
journal, and times it from just before the process is created until READY=1 arrives
(the daemon sends it only after the devices are open and the game is resumed by
replay).

The baseline is the same interpreter importing, and nothing else, the library
modules the box has imported by READY=1: a first, unmeasured start writes the names
in ``sys.modules`` at READY, and the baseline keeps those whose top-level package
belongs to one of the box's third-party distributions (its ``dependencies`` and
theirs, e.g. ``luma.oled.device`` with luma.core, ``PIL.ImageFont``, ``gpiozero``'s
mock pins, ``serial``, ``smbus2``). The standard-library modules only the box itself
imports are the box's cost, not the baseline's. For comparison with earlier figures
the old, narrow baseline is timed too:

    python -c "import PIL, luma.oled, gpiozero, serial"

(``import luma.oled`` runs only that package's empty ``__init__``, not the device
module the box must use.) Each baseline runs to its exit, timed the same way. Runs
alternate; medians are reported, and the ratios (goal <= 1.5), in wall time and in
CPU time (user and system, from ``/proc`` for the daemon at READY=1 and from the
rusage of the finished baseline): on a shared machine the CPU ratio is the steadier.
Exits 1 if the box was not showing the resumed game when it said READY, or if the
module list misses what the box cannot start without; non-zero if the daemon fails.

    python bench/startup.py [--runs 7] [--inputs 100] [--lang ja]

``--lang`` starts the box in another language (Japanese reads its glyph file and
catalogs at start: the costliest of the four).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import (NotifySocket, child_env, cpu_seconds, game_in_progress,  # noqa: E402
                           median, read_counters, spawn, write_config)
from companion.hardware.fake_pico import FakePico  # noqa: E402

NARROW = "import PIL, luma.oled, gpiozero, serial"  # the baseline of the earlier figures
# What any start of the box imports: a module list without them measured something else.
MUST = ("PIL.Image", "PIL.ImageDraw", "luma.core.device", "luma.oled.device", "gpiozero",
        "serial")


def distributions(name: str = "companion") -> set[str]:
    """The distributions ``name`` needs to run, its own dependencies and theirs (not
    its extras'), as installed here; their names normalised."""
    found: set[str] = set()
    todo = [name]
    while todo:
        try:
            requires = metadata.requires(todo.pop()) or []
        except metadata.PackageNotFoundError:
            continue  # a requirement whose marker does not apply here
        for requirement in requires:
            if "extra ==" in requirement.replace('"', "'").replace("'", ""):
                continue
            dist = _normal(re.match(r"[A-Za-z0-9._-]+", requirement)[0])
            if dist not in found:
                found.add(dist)
                todo.append(dist)
    return found


def _normal(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


def library_modules(imported: list[str]) -> list[str]:
    """Of the modules ``imported`` (in their order), those of the box's libraries that
    a bare interpreter has not already loaded (a ``.pth`` hook of setuptools, say)."""
    ours = distributions()
    owners = {top: {_normal(d) for d in dists}
              for top, dists in metadata.packages_distributions().items()}
    bare = set(subprocess.run([sys.executable, "-c", "import sys; print(*sys.modules)"],
                              check=True, env=child_env(), capture_output=True,
                              text=True).stdout.split())
    return [name for name in imported
            if name not in bare and owners.get(name.split(".")[0], set()) & ours]


def baseline(imports: str) -> tuple[float, float]:
    """Wall and CPU seconds of the bare imports."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", imports], check=True, env=child_env())
    wall = time.monotonic() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime


def daemon(tmp: Path, pico: FakePico, language: str, game_id: int,
           modules: Path | None = None) -> tuple[float, float]:
    """Wall and CPU seconds to READY=1; the box must show the resumed game then (and
    write the names of the modules imported by then to ``modules``)."""
    notify = NotifySocket(tmp / f"notify-{time.monotonic_ns()}")
    config = write_config(tmp / "config.toml", state_dir=tmp / "state", pico=pico.path,
                          language=language)
    counters = tmp / f"counters-{time.monotonic_ns()}.json"  # a fresh count per process
    start = time.monotonic()
    proc = spawn(config, notify, counters, modules=modules)
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
        raise NotMeasured(f"at READY the box showed mode {shown.get('mode')}, game "
                         f"#{shown.get('game_id')} {shown.get('status')}, not game #{game_id}")
    return ready, cpu


class NotMeasured(RuntimeError):
    """What would be timed is not what the bench says it times: READY=1 came before
    the unfinished game was on the box, or the start loaded too little to be one."""


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
            # The first start (unmeasured: it warms the caches) says what it imported.
            daemon(tmp, pico, args.lang, game_id, tmp / "modules.json")
            modules = library_modules(json.loads((tmp / "modules.json").read_text()))
            missing = [name for name in MUST if name not in modules]
            if missing:
                raise NotMeasured(f"the modules at READY miss {', '.join(missing)}")
            libraries = "import " + ", ".join(modules)
            print(f"the baseline imports the {len(modules)} modules of the box's libraries "
                  f"loaded at READY: {', '.join(modules)}")
            baseline(libraries), baseline(NARROW)
            bases, narrows, readies = [], [], []
            for r in range(args.runs):
                bases.append(baseline(libraries))
                readies.append(daemon(tmp, pico, args.lang, game_id))
                narrows.append(baseline(NARROW))
                (wall, cpu), (ready, used) = bases[-1], readies[-1]
                print(f"run {r + 1}: the libraries' imports {wall * 1000:.0f} ms "
                      f"({cpu * 1000:.0f} ms CPU), companion run to READY {ready * 1000:.0f} "
                      f"ms ({used * 1000:.0f} ms CPU), the narrow imports "
                      f"{narrows[-1][0] * 1000:.0f} ms ({narrows[-1][1] * 1000:.0f} ms CPU)",
                      flush=True)
        except NotMeasured as exc:
            print(f"bench/startup.py: not measured: {exc}", file=sys.stderr)
            return 1
    print(f"start-up in {args.lang}: game #{game_id} resumed by replaying {played} inputs "
          f"and shown at READY; median of {args.runs} runs")
    for i, what in enumerate(("wall", "CPU")):
        base, narrow = median(b[i] for b in bases), median(n[i] for n in narrows)
        ready = median(r[i] for r in readies)
        print(f"{what}: process start to READY=1 {ready * 1000:.0f} ms; bare imports of the "
              f"box's libraries {base * 1000:.0f} ms: ratio {ready / base:.2f}x (goal <= "
              f"1.5x); the narrow baseline ({NARROW}) {narrow * 1000:.0f} ms: ratio "
              f"{ready / narrow:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
