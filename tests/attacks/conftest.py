"""The attack suite: the box attacked as a hostile web page or neighbour would, on
loopback only, each attack bounded in time. ``bench/attacks.py`` runs the same attacks
and prints how far they got."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "tests" / "web"):  # bench.attacks; the web tests' rig
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from web_rig import rig  # noqa: E402,F401 - the web tests' fixture: a box serving its page
