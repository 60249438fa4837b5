"""How fast this box's hints search: engine inputs per millisecond, measured here.

The hint's budget is counted in engine inputs (:mod:`.games.entanglion.hint`), and the
box answers a hint within :data:`~.games.entanglion.hint.DEFAULT_BUDGET_MS` on its own
processor: so the budget is the measured rate times that time. The rate is measured
once per machine and Python (and per engine build, compiled or not) and kept in the
state directory; ``companion doctor --bench`` measures it again and prints it, so a
box owner can see what their Pi gets.

It times whole hints at seeded positions in the first half of a game, on one
thread's CPU clock (on the box the game thread is the only busy one).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

RATE_FILE = "hint-rate.json"
START_SECONDS = 0.3  # measuring at the first start (then kept): a moment, once
BENCH_SECONDS = 3.0  # companion doctor --bench
PROBE_BUDGET = 2000  # engine inputs per timed hint


def machine_key() -> str:
    """What the rate depends on: a kept rate measured under another key is stale."""
    from .games import compiled

    build = "compiled" if compiled.loaded_compiled() else "python"
    # os and sys rather than the platform module, whose import was 2 ms of every start.
    return f"{os.uname().machine} {sys.implementation.name} " \
           f"{sys.version.split()[0]} {build} {os.cpu_count()}"


def positions(count: int) -> list[Any]:
    """Seeded positions somewhere in the first half of a game, with a choice to make."""
    from .games.entanglion import hint
    from .games.entanglion.engine import Entanglion

    out, seed = [], 0
    while len(out) < count:
        seed += 1
        g = Entanglion(seed)
        rnd = hint.Rng(seed)
        for _ in range(rnd.below(40)):
            if g.status != "playing":
                break
            g.push(hint.greedy_action(g, rnd))
        if g.status == "playing" and len(g.legal_actions()) > 1:
            out.append(g)
    return out


def measure(seconds: float, budget: int = PROBE_BUDGET) -> float:
    """Engine inputs per millisecond of this thread's CPU, hints searching (a hint
    overshoots its budget by at most its last round: a slight underestimate)."""
    from .games.entanglion import hint

    found = positions(8)
    done, start = 0, time.thread_time()
    while True:
        hint.hints(found[done // budget % len(found)], budget, seed=done)
        done += budget
        spent = time.thread_time() - start
        if spent >= seconds:
            return done / (spent * 1000)


def load(state_dir: Path) -> float | None:
    """The rate kept for this machine, or None (never measured, or elsewhere)."""
    try:
        kept = json.loads((Path(state_dir) / RATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("machine") != machine_key():
        return None
    rate = kept.get("inputs_per_ms")
    if not isinstance(rate, (int, float)) or isinstance(rate, bool) or not 0 < rate < 1e6:
        return None
    return float(rate)


def save(state_dir: Path, rate: float) -> None:
    path = Path(state_dir) / RATE_FILE
    tmp = path.with_suffix(".tmp")
    # 0600 like the journal: the state directory is the service user's only.
    with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w",
                   encoding="utf-8") as fh:
        fh.write(json.dumps({"inputs_per_ms": round(rate, 2), "machine": machine_key()}))
    os.replace(tmp, path)


def here(state_dir: Path | None) -> float:
    """This machine's rate: the one kept in ``state_dir``, else measured now (not kept:
    a command run by hand may not own the box's state directory)."""
    return (load(state_dir) if state_dir is not None else None) or measure(START_SECONDS)


def start(state_dir: Path) -> float:
    """Set the hint's budget from this box's rate (measured now if none is kept)."""
    from .games.entanglion import hint

    rate = load(state_dir)
    if rate is None:
        rate = measure(START_SECONDS)
        try:
            save(state_dir, rate)
        except OSError as exc:  # a read-only state directory: measured again next start
            log.warning("cannot keep the hint's rate: %s", exc)
    hint.use_rate(rate)
    log.info("hints: %.1f engine inputs per ms here, a budget of %d inputs (%d ms)",
             rate, hint.DEFAULT_BUDGET, hint.DEFAULT_BUDGET_MS)
    return rate


def bench(state_dir: Path | None) -> int:
    """``companion doctor --bench``: measure, print, keep; exit status 0."""
    from .games.entanglion import hint

    rate = measure(BENCH_SECONDS)
    budget = hint.budget_for_ms(hint.DEFAULT_BUDGET_MS, rate)
    print(f"hint search: {rate:.1f} engine inputs per ms on one core here "
          f"({machine_key()}); the estimate for a Zero 2 W is {hint.PI_INPUTS_PER_MS}")
    print(f"a hint's budget: {budget} inputs, about {hint.DEFAULT_BUDGET_MS} ms here "
          f"(with the estimate: {hint.budget_for_ms(hint.DEFAULT_BUDGET_MS)} inputs, "
          f"{hint.budget_for_ms(hint.DEFAULT_BUDGET_MS) / rate:.0f} ms)")
    if state_dir is None:
        print("not kept (no state directory yet): the box measures when it first starts")
    else:
        try:
            save(state_dir, rate)
            print(f"kept in {Path(state_dir) / RATE_FILE}: the box uses it from its next start")
        except OSError as exc:
            print(f"not kept ({exc}): the box measures again when it starts")
    return 0
