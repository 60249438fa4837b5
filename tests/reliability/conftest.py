"""The reliability suite: the daemon with fake hardware under faults, storms and soaks.

Every test here runs a bounded version by default (CI); ``COMPANION_LONG=1`` runs the
full counts of docs/design.md#targets (10,000 soak games, 100,000 fuzzed frames, storms of
minutes). The shared machinery is ``bench/harness.py``, which the benchmarks use too.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # for bench.harness

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


import shutil  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture
def fast_dir(tmp_path):
    """A directory on tmpfs when there is one: tests that play thousands of inputs are
    about exceptions, not about the disk, and each input's fsync would dominate."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    path = Path(tempfile.mkdtemp(prefix="companion-rel-", dir=shm))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
