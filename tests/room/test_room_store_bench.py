"""bench/room_store.py stays runnable on a small store, and prints every figure it
claims, each after the check that it measured what it says. ``COMPANION_LONG=1`` runs
it at the store's full bound (20,000 records, about a minute)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from companion.room.store import MAX_RECORDS

BENCH = Path(__file__).resolve().parents[2] / "bench" / "room_store.py"
N = MAX_RECORDS if os.environ.get("COMPANION_LONG") == "1" else 200


def test_the_store_at_its_size_loads_reports_and_archives_and_every_figure_is_printed(tmp_path):
    done = subprocess.run([sys.executable, str(BENCH), "--records", str(N), "--past", "3",
                           "--dir", str(tmp_path)], capture_output=True, text=True, timeout=600)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert re.search(rf"^{N} records on disk: [\d.]+ KB each", out, re.M), out
    assert re.search(rf"load at the room's start: [\d.]+ s \([\d.]+ s CPU\), {N} records loaded",
                     out), out
    assert re.search(r"memory the store keeps: [1-9]\d* bytes per record", out), out
    assert re.search(r"the report \(/report\): \d+ ms CPU, \d+ bytes, [1-9]\d* set-up rows",
                     out), out
    assert re.search(r"the games as CSV \(/report.csv\): \d+ ms CPU", out), out
    assert re.search(rf"3 records past the bound, .* {N} in the report, 3 in the archive", out)
    assert list(tmp_path.iterdir()) == []  # its folder is removed
