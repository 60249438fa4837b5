"""Build (or remove) the optional compiled Entanglion engine.

Compiles the modules listed in ``companion/games/compiled.py`` with Cython, from the
same ``.py`` sources, into extension modules beside them, so that Python imports the
compiled ones from then on (the daemon, the co-pilot's look-ahead, the tests). It
needs Cython and a C compiler (``pip install '.[compiled]'``; on Raspberry Pi OS and
Debian ``sudo apt install build-essential python3-dev``). Rebuild after changing a
source: ``tests/entanglion/test_compiled.py`` fails on a build older than its source,
and checks that the build plays exactly like the pure-Python modules.

    python tools/compile_engine.py           # build in place
    python tools/compile_engine.py --clean   # back to pure Python
"""

from __future__ import annotations

import argparse
import glob
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from companion.games.compiled import MODULES  # noqa: E402


# Python's own semantics, nothing stricter: annotations are not turned into C types or
# runtime type checks, so the build behaves like the sources it comes from.
DIRECTIVES = {"language_level": 3, "annotation_typing": False}


def _path(module: str) -> str:
    return os.path.join(ROOT, *module.split(".")) + ".py"


def clean() -> list[str]:
    removed = []
    for module in MODULES:
        stem = _path(module)[:-3]
        for built in glob.glob(stem + ".*.so") + glob.glob(stem + ".*.pyd"):
            os.remove(built)
            removed.append(os.path.relpath(built, ROOT))
    return removed


def build() -> None:
    try:
        from Cython.Build import cythonize
    except ImportError:
        sys.exit("Cython is needed: pip install '.[compiled]'")
    from setuptools import Distribution

    os.chdir(ROOT)  # in-place builds land relative to the working directory
    extensions = cythonize(
        [os.path.relpath(_path(m), ROOT) for m in MODULES], build_dir="build/cython",
        quiet=True, compiler_directives=DIRECTIVES, force=True,
    )
    dist = Distribution({"ext_modules": extensions})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.build_temp = "build/compiled"
    dist.run_command("build_ext")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = parser.parse_args()
    removed = clean()
    if args.clean:
        print("\n".join(f"removed {r}" for r in removed) or "no compiled modules")
        return 0
    build()
    print("compiled: " + ", ".join(MODULES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
