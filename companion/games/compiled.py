"""The optional compiled build of the Entanglion engine: which modules it covers.

``python -m companion.compile_engine`` compiles these modules, unchanged, with Cython
into extension modules beside their sources (``pip install '.[compiled]'`` and a C
compiler first: on Raspberry Pi OS and Debian ``sudo apt install build-essential
python3-dev``); Python then imports the extension instead of the ``.py``, and
``--clean`` goes back to pure Python. Rebuild after changing a source:
``tests/entanglion/test_compiled.py`` fails on a build older than its source. The
sources stay the one definition of the rules: the build adds only C types for the
chance generator's 64-bit words (``companion/chance.pxd``), and a test checks that it
plays exactly like the pure-Python modules.
Without the build (CI, a fresh clone) everything runs as plain Python.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os

# The look-ahead's hot path: the chance generator, the undo/playout cycle, the rules.
# Not state.py: its clone copies slots, which the interpreter does faster than Cython.
MODULES = (
    "companion.chance",
    "companion.games.snapshots",
    "companion.games.entanglion.board",
    "companion.games.entanglion.engine",
)


def _is_extension(path: str | None) -> bool:
    return bool(path) and path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def loaded_compiled() -> list[str]:
    """The modules of MODULES that this process runs compiled."""
    return [m for m in MODULES if _is_extension(importlib.import_module(m).__file__)]


def source_of(module: str) -> str:
    """The ``.py`` a module of MODULES is built from."""
    spec = importlib.util.find_spec(module.rsplit(".", 1)[0])
    assert spec is not None and spec.submodule_search_locations
    return os.path.join(list(spec.submodule_search_locations)[0], module.rsplit(".", 1)[1] + ".py")


def stale() -> list[str]:
    """Compiled modules older than their source (or its ``.pxd``): rebuild them, or they
    play old rules."""
    out = []
    for m in loaded_compiled():
        built = importlib.import_module(m).__file__
        assert built is not None
        sources = [source_of(m), source_of(m)[:-3] + ".pxd"]
        if max(os.path.getmtime(f) for f in sources if os.path.exists(f)) > os.path.getmtime(
                built):
            out.append(m)
    return out


def describe() -> str:
    """One line for benchmarks: which build they measured."""
    compiled = loaded_compiled()
    if not compiled:
        return "pure Python (no compiled build)"
    short = ", ".join(m.rsplit(".", 1)[1] for m in compiled)
    note = f"; STALE, rebuild: {', '.join(stale())}" if stale() else ""
    return f"compiled with Cython ({short}; the rest pure Python){note}"

