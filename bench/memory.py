"""Memory of the daemon: peak RSS through a full game, and growth over 1,000 more.

Each run is a fresh process holding the daemon as ``companion run`` builds it
(:class:`bench.harness.Rig`: mock GPIO buttons, the co-processor link to the fake Pico
on a pty, which lives in the parent process so its memory is not counted, the OLED on
luma's SSD1306 driver over a fake I2C bus, the SQLite journal, the session and the
main loop's ``step``), played by the AutoPlayer through button edges and tag events.
It reports peak RSS (VmHWM) after one complete scripted game (goal <= 60 MB), then
plays ``--games`` further complete games (each a new game from the main menu, all
kept in the journal) and reports the growth of RSS over them (goal < 5%). Prints the
median of ``--runs`` runs. Linux only (reads /proc).

    python bench/memory.py [--games 1000] [--runs 3] [--parallel 3] [--state-dir DIR]
                           [--lang ja]

``--lang`` plays in another language (Japanese adds its glyphs and catalogs).

The journal's fsync dominates the run time; ``--state-dir /dev/shm`` makes it quick
(the journal's size is reported; SQLite's page cache is bounded, so the medium does
not change RSS).
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.harness import ErrorLog, Rig, child_env, median, memory_mb, write_config  # noqa: E402
from companion.autoplay import AutoPlayer  # noqa: E402
from companion.hardware.fake_pico import FakePico  # noqa: E402

CHECKPOINTS = (10, 100, 250, 500, 750, 1000, 2000, 5000, 10000)
WARM = 250  # by then SQLite's page cache (2 MB) is full: the journal is larger


def child(args: argparse.Namespace) -> int:
    """One run, in its own process: JSON lines on stdout."""
    state = Path(args.state_dir)
    config = write_config(state / "config.toml", state_dir=state / "state", pico=args.pico,
                          language=args.lang)
    seeds = iter(range(args.seed * 100_000, (args.seed + 1) * 100_000))
    with ErrorLog() as errors, Rig(config, seed=lambda: next(seeds)) as rig:
        def report(games: int, inputs: int) -> None:
            gc.collect()
            size = sum(f.stat().st_size for f in (state / "state").glob("journal.db*"))
            print(json.dumps({"games": games, "inputs": inputs, **memory_mb(),
                              "objects": len(gc.get_objects()), "journal_mb": size / 1e6,
                              "errors": len(errors.records), "time": time.monotonic()}),
                  flush=True)

        inputs = 0
        for n in range(args.games + 1):
            rig.play(AutoPlayer(args.seed * 100_000 + n))
            inputs += len(rig.session.game.inputs)
            if n in (0, args.games) or n in CHECKPOINTS:
                report(n, inputs)
            rig.new_game_from_the_end()
    return 0


def start_run(seed: int, games: int, state_dir: str, pico: FakePico,
              lang: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, __file__, "--child", "--games", str(games), "--seed", str(seed),
         "--state-dir", state_dir, "--pico", pico.path, "--lang", lang],
        stdout=subprocess.PIPE, text=True, env=child_env())


def finish_run(proc: subprocess.Popen) -> list[dict]:
    out, _ = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"the run crashed (exit {proc.returncode})")
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="complete games after the first one")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--state-dir", help="where the journal goes (default: a temp dir)")
    parser.add_argument("--parallel", type=int, default=1, help="runs at a time")
    parser.add_argument("--lang", default="en", help="the language the box plays in")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--pico", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    print(f"machine: {machine()}", flush=True)
    peaks, growths, settled_growths, errors = [], [], [], 0
    with FakePico(hb_interval=1.0) as pico, \
            tempfile.TemporaryDirectory(dir=args.state_dir) as tmp:
        results = []
        for first in range(0, args.runs, args.parallel):  # memory does not mind company
            batch = []
            for r in range(first, min(args.runs, first + args.parallel)):
                (Path(tmp) / str(r)).mkdir()
                batch.append(start_run(r + 1, args.games, str(Path(tmp) / str(r)), pico,
                                       args.lang))
            results += [finish_run(proc) for proc in batch]
        for r, points in enumerate(results):
            first, last = points[0], points[-1]
            growth = (last["VmRSS"] - first["VmRSS"]) / first["VmRSS"]
            warm = next((p for p in points if p["games"] >= WARM), None)
            settled = (last["VmRSS"] - warm["VmRSS"]) / warm["VmRSS"] if warm else None
            peaks.append(first["VmHWM"])
            growths.append(growth)
            if settled is not None:
                settled_growths.append(settled)
            errors += last["errors"]
            trail = ", ".join(f"{p['games']}: {p['VmRSS']:.1f}" for p in points)
            print(f"run {r + 1}: peak RSS through game 1 {first['VmHWM']:.1f} MB; RSS after "
                  f"n more games (MB) {trail}; growth {growth * 100:+.1f}%; peak "
                  f"{last['VmHWM']:.1f} MB; {last['inputs']} inputs in "
                  f"{last['time'] - first['time']:.0f} s; journal {last['journal_mb']:.1f} MB; "
                  f"Python objects {first['objects']} -> {last['objects']}; "
                  f"errors logged {last['errors']}", flush=True)
    print(f"memory in {args.lang}: median of {args.runs} runs")
    print(f"peak RSS through a full scripted game: {median(peaks):.1f} MB (goal <= 60)")
    print(f"RSS growth over {args.games} further games: {median(growths) * 100:+.1f}% "
          f"(goal < 5%)")
    if settled_growths:
        print(f"RSS growth from game {WARM} on (caches warm): "
              f"{median(settled_growths) * 100:+.1f}%")
    if errors:
        print(f"{errors} errors were logged (the daemon recovered from failing inputs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
