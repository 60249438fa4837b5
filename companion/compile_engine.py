"""Build (or remove) the optional compiled Entanglion engine.

Compiles the modules listed in ``companion/games/compiled.py`` with Cython, from the
same ``.py`` sources, into extension modules beside them, so that Python imports the
compiled ones from then on (the daemon, the co-pilot's look-ahead, the tests), and
records what it built and from which sources in a manifest that every start checks
(see ``companion/games/compiled.py``). It
needs Cython and a C compiler (``pip install '.[compiled]'``; on Raspberry Pi OS and
Debian ``sudo apt install build-essential python3-dev``).

    python -m companion.compile_engine           # build in place
    python -m companion.compile_engine --clean   # back to pure Python

Modules are compiled one at a time. On a board with under 1 GB of memory (a Zero 2 W
has 512 MB), or with ``--low-memory``, the largest one is compiled at ``-O1`` without
debug information: gcc's peak memory on it (measured with ``/usr/bin/time -v``) is
368 MB at Python's own flags (``-O3 -g``), 344 MB at ``-O2 -g0`` and 281 MB at ``-O1
-g0``, and it builds in a third of the time.
"""

from __future__ import annotations

import argparse
import glob
import importlib.util
import os
import sys

from .games.compiled import MODULES, manifest_path, source_of, write_manifest

# Python's own semantics, nothing stricter: annotations are not turned into C types or
# runtime type checks, so the build behaves like the sources it comes from.
DIRECTIVES = {"language_level": 3, "annotation_typing": False}
LOW_MEMORY_MB = 1024  # below this much memory, the largest module is built leaner
LOW_MEMORY_ARGS = {"companion.games.entanglion.engine": ["-O1", "-g0"]}


def low_memory(meminfo: str | None = None) -> bool:
    """Whether this machine has under LOW_MEMORY_MB of memory (``/proc/meminfo``)."""
    if meminfo is None:
        try:
            with open("/proc/meminfo", encoding="ascii") as fh:
                meminfo = fh.read()
        except OSError:
            return False
    for line in meminfo.splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) < LOW_MEMORY_MB * 1024
    return False


def _root() -> str:
    """The folder holding the ``companion`` package (a checkout, or site-packages)."""
    spec = importlib.util.find_spec("companion")
    assert spec is not None and spec.submodule_search_locations
    return os.path.dirname(list(spec.submodule_search_locations)[0])


def clean() -> list[str]:
    """Remove the compiled modules; returns what was removed."""
    removed = []
    for module in MODULES:
        stem = source_of(module)[:-3]
        for built in glob.glob(stem + ".*.so") + glob.glob(stem + ".*.pyd"):
            os.remove(built)
            removed.append(built)
    if os.path.exists(manifest_path()):
        os.remove(manifest_path())
        removed.append(manifest_path())
    return removed


def build(lean: bool = False) -> None:
    try:
        from Cython.Build import cythonize
    except ImportError:
        sys.exit("Cython is needed: pip install '.[compiled]'")
    from setuptools import Distribution

    root = _root()
    os.chdir(root)  # in-place builds land relative to the working directory
    extensions = cythonize(
        [os.path.relpath(source_of(m), root) for m in MODULES], build_dir="build/cython",
        quiet=True, compiler_directives=DIRECTIVES, force=True,
    )
    if lean:  # gcc's memory, not speed, is what a small board runs out of
        for ext in extensions:
            ext.extra_compile_args = [*ext.extra_compile_args, *LOW_MEMORY_ARGS.get(ext.name, [])]
    dist = Distribution({"ext_modules": extensions})
    cmd = dist.get_command_obj("build_ext")
    cmd.parallel = None  # one module at a time: gcc's peaks do not add up
    cmd.inplace = True
    cmd.build_temp = "build/compiled"
    dist.run_command("build_ext")
    write_manifest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.compile_engine",
        description="Build (or remove) the optional compiled Entanglion engine.")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--low-memory", action="store_true",
                        help="build the largest module at -O1 without debug information "
                             "(the default on a board with under 1 GB of memory)")
    args = parser.parse_args(argv)
    removed = clean()
    if args.clean:
        print("\n".join(f"removed {r}" for r in removed) or "no compiled modules")
        return 0
    lean = args.low_memory or low_memory()
    build(lean)
    print("compiled: " + ", ".join(MODULES) + (" (low-memory build)" if lean else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
