"""The optional compiled engine (``python -m companion.compile_engine``) plays exactly like
the pure-Python modules it is built from.

Without a compiled build (CI, a fresh clone) these tests skip: the rest of the suite
then runs the pure-Python modules. With one, the same random games (every 4th with a
random value for every ruling, so physical decks, manual dice and prompts come up) are
played in two fresh processes, one forced onto the ``.py`` sources and one on the
build, validated and in playout mode, and everything they produce must be identical:
every state, log entry, prompt and legal action list.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from companion.games import compiled

LONG = os.environ.get("COMPANION_LONG") == "1"
GAMES = 400 if LONG else 40

# Run in a fresh process: PURE=1 imports the listed modules from their .py sources even
# where a compiled build sits beside them, then prints a digest of the games.
SCRIPT = r"""
import hashlib, importlib.util, json, os, random, sys

from companion.games.compiled import MODULES, loaded_compiled

class PureFinder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name not in MODULES:
            return None
        for entry in path or sys.path:
            source = os.path.join(entry, name.rsplit(".", 1)[1] + ".py")
            if os.path.exists(source):
                return importlib.util.spec_from_file_location(name, source)
        return None

if os.environ["PURE"] == "1":
    for name in [m for m in sys.modules if m.startswith("companion")]:
        del sys.modules[name]
    sys.meta_path.insert(0, PureFinder)
    from companion.games.compiled import loaded_compiled

from companion.games.entanglion import Entanglion
from companion.games.entanglion.options import RULINGS

digest = hashlib.sha256()
for i in range(int(sys.argv[1])):
    options = None
    if i % 4 == 3:
        rnd = random.Random(f"compiled-options-{i}")
        options = {n: rnd.choice(c.allowed) for n, c in RULINGS.items()}
    game = Entanglion(i, options)
    playout = game.playout_copy()
    rnd = random.Random(i)
    while game.legal_actions() and len(game.inputs) < 5000:
        legal = game.legal_actions()
        digest.update(json.dumps([legal, playout.legal_actions(), playout.state.to_dict(),
                                  playout.pending], sort_keys=True).encode())
        act = rnd.choice(legal)
        game.push(act)
        playout.push(act)
    digest.update(json.dumps([game.to_dict(), playout.state.to_dict()], sort_keys=True).encode())
print(json.dumps({"compiled": loaded_compiled(), "digest": digest.hexdigest()}))
"""

pytestmark = pytest.mark.skipif(
    not compiled.loaded_compiled(),
    reason="no compiled build (python -m companion.compile_engine makes one)")


def _play(pure: bool) -> dict:
    import json
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PURE="1" if pure else "0", PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(GAMES)], env=env, cwd=root,
                         capture_output=True, text=True, timeout=600, check=True)
    return json.loads(out.stdout)


def test_the_compiled_generator_draws_exactly_like_its_source():
    # The build does the generator's arithmetic in 64-bit C words (companion/chance.pxd):
    # the same draws for any state, negative and wider than 64 bits included.
    import importlib.util
    import random

    from companion import chance
    spec = importlib.util.spec_from_file_location("pure_chance", compiled.source_of(
        "companion.chance"))
    pure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pure)
    rnd = random.Random(5)
    for _ in range(5000):
        state = rnd.choice([rnd.getrandbits(64), rnd.getrandbits(70) - 2**69, rnd.randrange(-9, 9)])
        n = rnd.choice([1, 2, 3, 7, 8, 23, 63, 64, 65, 1000, 2**40 + 3, 2**63 + 1])
        assert chance.below(state, n) == pure.below(state, n), (state, n)
        a = list(range(rnd.randrange(70)))
        b = a[:]
        assert chance.shuffle(state, a) == pure.shuffle(state, b) and a == b, state


def test_the_build_is_not_older_than_its_sources():
    assert compiled.stale() == [], "rebuild with: python -m companion.compile_engine"


def test_the_compiled_engine_plays_exactly_like_the_pure_python_one():
    pure, built = _play(pure=True), _play(pure=False)
    assert pure["compiled"] == []
    assert built["compiled"] == compiled.loaded_compiled()
    assert built["digest"] == pure["digest"]

