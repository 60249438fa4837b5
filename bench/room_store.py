"""The room's store at a convention's size: what ``companion room`` pays for N records.

    .venv/bin/python bench/room_store.py [--records 20000] [--past 20] [--dir DIR]

A day of 1,000 tables is about 16,000 games; the store keeps 20,000 in its report
(companion/room/store.py, MAX_RECORDS). The bench plays one Entanglion, one QNO and one
QLANET game with the autoplayer, and fills a store with ``--records`` records made of
their scenarios and stories (each under its own table and game id, wins and losses,
Entanglion's three difficulties, detections varied so the report has rows to count).
The fill skips fsync (it is the bench's set-up, not what it measures). Then, the store
at its bound (MAX_RECORDS set to ``--records``):

- bytes on disk per record;
- the load at the room's start (a new Store over the folder): wall and CPU time, the
  median of 3; the bench fails unless every record loaded and none was damaged;
- memory the loaded store keeps, per record (tracemalloc, a load of its own);
- the report as the page asks for it (``/report``: the digests, the report, its JSON)
  and the CSV (``/report.csv``): CPU time, median of 3;
- ``--past`` records more, each written durably (fsync on) while the oldest goes to the
  archive folder: time per record; the bench fails unless the store still holds
  ``--records`` and the archive exactly ``--past``, and the report says so.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

from companion import records as records_mod
from companion.autoplay import AutoPlayer
from companion.room import report, store as store_mod
from companion.room.store import Store
from companion.session import SessionConfig
from companion.sim import build

try:
    from bench.common import machine
except ImportError:  # run as a file
    from common import machine  # type: ignore[no-redef]

CAUSES = ("PROBE", "orbital defence", "ground defence", "quantum uncertainty")


def real_games(folder: Path) -> list[dict[str, Any]]:
    """A finished game of each kind as a box sends it (its scenario and story)."""
    out = []
    for n, game in enumerate(("entanglion", "qno", "qlanet")):
        sim, journal = build(folder / game, None, 3 + n, SessionConfig(), None)
        player = AutoPlayer(3 + n, game=game)
        s = sim.box.session
        for _ in range(20_000):
            cmd = player.next_command(s)
            if cmd is None:
                break
            sim.run(cmd)
        played = journal.load(s.game_id)
        assert played.status in ("won", "lost"), (game, played.status)
        out.append({"game": game, "status": played.status,
                    "scenario": records_mod.scenario(played), "story": records_mod.story(played)})
        journal.close()
    return out


def made(n: int, games: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    base = games[n % len(games)]
    record = {"room": "con", "table": f"t{n % 1000:04d}", "game_id": n // 1000 + 1,
              **json.loads(json.dumps(base))}
    record["status"] = rng.choice(("won", "lost"))
    if base["game"] == "entanglion":
        record["scenario"]["options"]["start_space"] = rng.choice((1, 2, 4))
        story = record["story"] or {}
        story["detections"] = {c: rng.randint(1, 3) for c in rng.sample(CAUSES, 2)}
        story["lost_to"] = rng.choice(CAUSES) if record["status"] == "lost" else None
        record["story"] = story
    return record


def timed(fn: Callable[[], Any], runs: int = 3) -> tuple[float, float, Any]:
    """(median wall s, median CPU s, the last result)"""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=20_000)
    ap.add_argument("--past", type=int, default=20)
    ap.add_argument("--dir", help="where the store goes (default: a temporary folder)")
    args = ap.parse_args()
    n = args.records
    work = Path(tempfile.mkdtemp(prefix="room-store-", dir=args.dir))
    try:
        run(work, n, args.past)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(work: Path, n: int, past: int) -> None:
    print(f"# {machine()}; load {os.getloadavg()[0]:.1f}")
    games = real_games(work / "boxes")
    rng = random.Random(1)
    folder = work / "room-con"
    store_mod.MAX_RECORDS = n
    clock = iter(range(10 ** 9))
    wall = lambda: 1_700_000_000.0 + next(clock)  # noqa: E731 - received, in order
    fsync = os.fsync
    os.fsync = lambda fd: None  # the fill only: the figures below write durably
    try:
        filling = Store(folder, wall=wall)
        for i in range(n):
            assert filling.add(made(i, games, rng))
    finally:
        os.fsync = fsync
    files = list(folder.glob("*.json"))
    assert len(files) == n, f"{len(files)} files for {n} records"
    size = sum(p.stat().st_size for p in files)
    print(f"{n} records on disk: {size / n / 1024:.1f} KB each, {size / 2 ** 20:.1f} MB in all")

    wall_s, cpu_s, loaded = timed(lambda: Store(folder, wall=wall))
    assert len(loaded) == n and not loaded.damaged, \
        f"loaded {len(loaded)} of {n} records, damaged {loaded.damaged[:5]}"
    print(f"load at the room's start: {wall_s:.2f} s ({cpu_s:.2f} s CPU), {n} records loaded")

    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = Store(folder, wall=wall)
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(kept) == n
    print(f"memory the store keeps: {held / n:.0f} bytes per record, {held / 2 ** 20:.1f} MB")

    def page_report() -> bytes:
        data = report.build(kept.digests(), {})
        data["store"] = kept.status()
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()

    _, cpu_s, body = timed(page_report)
    shown = json.loads(body)
    assert sum(g["played"] for g in shown["games"]) == n, shown["games"]
    print(f"the report (/report): {cpu_s * 1000:.0f} ms CPU, {len(body)} bytes, "
          f"{len(shown['setups'])} set-up rows")
    _, cpu_s, text = timed(lambda: report.csv_text(kept.digests(), {}))
    assert text.count("\n") == n + 1
    print(f"the games as CSV (/report.csv): {cpu_s * 1000:.0f} ms CPU, {len(text) / 2 ** 20:.1f} MB")

    times = []
    for i in range(n, n + past):
        record = made(i, games, rng)
        start = time.perf_counter()
        assert kept.add(record)
        times.append(time.perf_counter() - start)
    archived = len(list((folder / store_mod.ARCHIVE).glob("*.json")))
    assert len(kept) == n and kept.archived == archived == past, \
        (len(kept), kept.archived, archived)
    said = json.loads(page_report())["store"]
    assert said["archived"] == past, said
    if past:
        print(f"{past} records past the bound, each written durably and the oldest archived: "
              f"median {statistics.median(times) * 1000:.1f} ms, "
              f"worst {max(times) * 1000:.1f} ms; {len(kept)} in the report, "
              f"{archived} in the archive")


if __name__ == "__main__":
    main()
