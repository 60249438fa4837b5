"""The optional compiled build of the Entanglion engine: which modules it covers.

``python -m companion.compile_engine`` compiles these modules, unchanged, with Cython
into extension modules beside their sources (``pip install '.[compiled]'`` and a C
compiler first: on Raspberry Pi OS and Debian ``sudo apt install build-essential
python3-dev``); Python then imports the extension instead of the ``.py``, and
``--clean`` goes back to pure Python. Rebuild after changing a source. The
sources stay the one definition of the rules: the build adds only C types for the
chance generator's 64-bit words (``companion/chance.pxd``), and a test checks that it
plays exactly like the pure-Python modules.
Without the build (CI, a fresh clone) everything runs as plain Python.

A build must never stop the box or fool it. The build writes a manifest
(``MANIFEST``, beside the package) with a SHA-256 of each module's sources and of the
extension it made, and its size. :func:`guard` runs when the ``companion`` package is
first imported, before any of these modules can be: an extension whose size or hash
differs from the manifest (a truncated file would kill the process with SIGBUS when
mapped), whose sources changed since (file times prove nothing: a copy or a ``touch``
resets them), a partial build or a manifest that does not read, and Python is made to
import the ``.py`` sources instead. :func:`refused` then says why, for ``run`` and
``sim`` to alert and for ``doctor`` to report.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from typing import Any

# The look-ahead's hot path: the chance generator, the undo/playout cycle, the rules.
# Not state.py: its clone copies slots, which the interpreter does faster than Cython.
MODULES = (
    "companion.chance",
    "companion.games.snapshots",
    "companion.games.entanglion.board",
    "companion.games.entanglion.engine",
)


MANIFEST = "compiled-build.json"  # in the companion package folder
FIX = "python -m companion.compile_engine (or --clean for pure Python)"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../companion
_refused: list[str] = []  # what guard() found wrong with the build on disk


def _is_extension(path: str | None) -> bool:
    return bool(path) and path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def loaded_compiled() -> list[str]:
    """The modules of MODULES that this process runs compiled."""
    return [m for m in MODULES if _is_extension(importlib.import_module(m).__file__)]


def source_of(module: str) -> str:
    """The ``.py`` a module of MODULES is built from (found without importing anything:
    a package's ``__init__`` may import the very modules being checked)."""
    parts = module.split(".")
    assert parts[0] == "companion", module
    return os.path.join(_PACKAGE, *parts[1:]) + ".py"


def _sources(module: str) -> list[str]:
    py = source_of(module)
    return [f for f in (py, py[:-3] + ".pxd") if os.path.exists(f)]


def _sha256(path: str) -> str:
    import hashlib  # only with a build on disk: it loads OpenSSL, 2.5 ms of a start

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def sources_hash(module: str) -> str:
    """One SHA-256 over the contents of a module's ``.py`` and ``.pxd``."""
    import hashlib

    digest = hashlib.sha256()
    for path in _sources(module):
        digest.update(os.path.basename(path).encode() + b"\0")
        digest.update(_sha256(path).encode())
    return digest.hexdigest()


def extensions_of(module: str) -> list[str]:
    """The extension files Python would import for ``module`` instead of its source."""
    stem = source_of(module)[:-3]
    return [stem + suffix for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if os.path.exists(stem + suffix)]


def manifest_path() -> str:
    return os.path.join(_PACKAGE, MANIFEST)


def write_manifest() -> dict[str, Any]:
    """Record what was just built (the build calls this)."""
    modules = {}
    for module in MODULES:
        built = extensions_of(module)
        if not built:
            raise RuntimeError(f"{module}: no extension was built")
        modules[module] = {"file": os.path.basename(built[0]),
                           "size": os.path.getsize(built[0]), "sha256": _sha256(built[0]),
                           "sources": sources_hash(module)}
    manifest = {"python": sys.implementation.cache_tag, "modules": modules}
    tmp = manifest_path() + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    os.replace(tmp, manifest_path())
    return manifest


def check_build() -> list[str]:
    """What is wrong with the compiled build on disk, read without importing any of it:
    [] when it can be used, or when there is none at all (the usual case)."""
    built = {m: extensions_of(m) for m in MODULES}
    has_manifest = os.path.exists(manifest_path())
    if not any(built.values()) and not has_manifest:
        return []
    try:
        with open(manifest_path(), encoding="utf-8") as f:
            recorded = json.load(f)["modules"]
        if not isinstance(recorded, dict):
            raise ValueError("no modules")
    except FileNotFoundError:
        return ["the compiled build has no manifest (built by an older version?)"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"the compiled build's manifest does not read ({exc})"]
    problems = []
    for module in MODULES:
        short = module.rsplit(".", 1)[1]
        entry = recorded.get(module)
        files = built[module]
        if not files:
            problems.append(f"{short}: its compiled module is missing")
            continue
        if not isinstance(entry, dict):
            problems.append(f"{short}: not in the build's manifest")
            continue
        path = files[0]
        try:
            if os.path.basename(path) != entry.get("file") or \
                    os.path.getsize(path) != entry.get("size") or \
                    _sha256(path) != entry.get("sha256"):
                problems.append(f"{short}: the compiled file is damaged "
                                "(not what the build wrote)")
            elif sources_hash(module) != entry.get("sources"):
                problems.append(f"{short}: its source changed since the build")
        except OSError as exc:
            problems.append(f"{short}: the compiled file cannot be read ({exc})")
    return problems


class _SourcesOnly:
    """Finds MODULES from their ``.py`` only, never the extension beside them."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
        if name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(name, source_of(name))


def guard() -> list[str]:
    """Check the build before anything can import it; on any problem make Python
    import the sources instead. Returns (and :func:`refused` keeps) the problems."""
    problems = check_build()
    if problems and _SourcesOnly not in sys.meta_path:
        early = [m for m in MODULES if m in sys.modules and _is_extension(
            getattr(sys.modules[m], "__file__", None))]
        if early:  # too late for these: say so rather than pretend
            problems.append("already imported compiled: " + ", ".join(early))
        sys.meta_path.insert(0, _SourcesOnly)
    _refused[:] = problems
    return problems


def refused() -> list[str]:
    """Why the compiled build on disk is not used ([] when it is, or there is none)."""
    return list(_refused)


def stale() -> list[str]:
    """Modules whose compiled build was made from other sources than today's: they
    would play old rules (so :func:`guard` does not let them load)."""
    try:
        with open(manifest_path(), encoding="utf-8") as f:
            recorded = json.load(f)["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        recorded = {}
    return [m for m in MODULES if extensions_of(m)
            and (recorded.get(m) or {}).get("sources") != sources_hash(m)]


def describe() -> str:
    """Which engine build runs, in one line (doctor and the benchmarks print it)."""
    if _refused:
        return "pure Python (the compiled build is refused: " + "; ".join(_refused) + ")"
    compiled = loaded_compiled()
    if not compiled:
        return "pure Python (no compiled build)"
    short = ", ".join(m.rsplit(".", 1)[1] for m in compiled)
    return f"compiled with Cython ({short}; the rest pure Python)"


def alert_line() -> str | None:
    """The log line for ``run`` and ``sim`` when a build on disk is not used."""
    if not _refused:
        return None
    return ("compiled engine not used, running pure Python: " + "; ".join(_refused)
            + "; rebuild: " + FIX)
