"""axe-core (Deque's accessibility checker) for the Chromium tests, from npm.

Found at ``COMPANION_AXE`` (a path to axe.min.js, as .ci/run sets it), else in a cache
folder filled once by ``npm pack axe-core@4`` (the registry's own client). Tests skip,
saying why, when neither works: no npm, no registry.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import pytest

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "companion-axe"
_found: list[str] = []


def script() -> str:
    """The text of axe.min.js, or a skip saying why it is missing."""
    if _found:
        return _found[0]
    path = _locate()
    _found.append(path.read_text(encoding="utf-8"))
    return _found[0]


def _locate() -> Path:
    given = os.environ.get("COMPANION_AXE")
    if given:
        if not Path(given).is_file():
            pytest.skip(f"COMPANION_AXE={given} is not a file")
        return Path(given)
    cached = CACHE / "axe.min.js"
    if cached.is_file():
        return cached
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("axe-core is missing: set COMPANION_AXE, or install npm to fetch it")
    with tempfile.TemporaryDirectory() as tmp:
        try:
            got = subprocess.run([npm, "pack", "axe-core@4", "--silent"], cwd=tmp,
                                 capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            pytest.skip("npm pack axe-core took over 2 minutes (no registry?)")
        tarballs = list(Path(tmp).glob("axe-core-*.tgz"))
        if got.returncode or not tarballs:
            pytest.skip(f"npm pack axe-core failed: {got.stderr.strip()[-200:]}")
        with tarfile.open(tarballs[0]) as tar:
            member = tar.extractfile("package/axe.min.js")
            if member is None:
                pytest.skip("the axe-core package has no axe.min.js")
            CACHE.mkdir(parents=True, exist_ok=True)
            part = CACHE / f"axe.min.js.{os.getpid()}.part"  # two workers may fetch at once
            part.write_bytes(member.read())
            part.replace(cached)
    return cached


def serious(driver: Any) -> list[dict[str, Any]]:
    """The page's serious and critical axe-core violations (each with its nodes)."""
    driver.execute_script(script())
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done(r.violations), e => done([{id: 'axe failed', impact: 'critical',"
        " help: String(e), nodes: []}]));")
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n.get("target") for n in v["nodes"]][:5]}
            for v in result if v["impact"] in ("serious", "critical")]
