"""A compiled engine on disk can neither stop the box nor make it play old rules.

The build records, per module, the SHA-256 of its sources and of the extension it
wrote (and its size). Before anything can import the engine, ``guard`` compares:
a truncated or bit-flipped extension, a source changed since (even one whose file
time was set back), a missing module or a manifest that does not read all mean pure
Python, and ``refused`` says why. The manifest logic is tested on a copy of the
sources with stand-in extension files (no compiler needed); with Cython installed,
a real build is truncated and must not SIGBUS ``doctor``, ``run``'s checks or ``sim``.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import compiled

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture
def package(tmp_path, monkeypatch):
    """The engine's sources copied into a package folder of their own, each with a
    stand-in extension file, and a manifest recorded for them."""
    folder = tmp_path / "companion"
    for module in compiled.MODULES:
        for source in compiled._sources(module):
            target = folder / Path(source).relative_to(ROOT / "companion")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    monkeypatch.setattr(compiled, "_PACKAGE", str(folder))
    for module in compiled.MODULES:
        Path(compiled.source_of(module)[:-3] + SUFFIX).write_bytes(
            os.urandom(4096) + module.encode())
    compiled.write_manifest()
    return folder


def extension(module: str) -> Path:
    return Path(compiled.extensions_of(module)[0])


def test_no_build_at_all_is_the_usual_quiet_case(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "_PACKAGE", str(tmp_path))
    assert compiled.check_build() == []


def test_a_build_as_recorded_is_used(package):
    assert compiled.check_build() == []
    assert compiled.stale() == []
    manifest = json.loads(Path(compiled.manifest_path()).read_text())
    assert set(manifest["modules"]) == set(compiled.MODULES)


def test_a_truncated_build_is_refused_before_it_is_mapped(package):
    path = extension("companion.games.entanglion.engine")
    path.write_bytes(path.read_bytes()[:1000])
    (problem,) = compiled.check_build()
    assert problem.startswith("engine:") and "damaged" in problem


@pytest.mark.parametrize("bit", [0, 7, 8 * 2048 + 3, -1])
def test_a_flipped_bit_in_the_build_is_refused(package, bit):
    path = extension("companion.chance")
    data = bytearray(path.read_bytes())
    bit %= len(data) * 8
    data[bit // 8] ^= 1 << bit % 8
    path.write_bytes(bytes(data))
    (problem,) = compiled.check_build()
    assert problem.startswith("chance:") and "damaged" in problem


def test_a_changed_source_with_an_old_file_time_is_stale(package):
    source = Path(compiled.source_of("companion.games.entanglion.board"))
    source.write_text(source.read_text() + "\n# a rule changed\n")
    os.utime(source, (946684800, 946684800))  # touch -d 2000-01-01
    assert os.path.getmtime(source) < os.path.getmtime(extension("companion.chance"))
    (problem,) = compiled.check_build()
    assert problem == "board: its source changed since the build"
    assert compiled.stale() == ["companion.games.entanglion.board"]


def test_a_changed_pxd_is_stale_too(package):
    pxd = Path(compiled.source_of("companion.chance")[:-3] + ".pxd")
    assert pxd.exists()
    pxd.write_text(pxd.read_text() + "\n")
    assert compiled.check_build() == ["chance: its source changed since the build"]


def test_a_missing_module_or_manifest_is_refused(package):
    extension("companion.games.snapshots").unlink()
    assert compiled.check_build() == ["snapshots: its compiled module is missing"]
    Path(compiled.manifest_path()).unlink()
    assert "no manifest" in compiled.check_build()[0]


@pytest.mark.parametrize("text", ["", "{", "[]", '{"modules": 3}', '{"modules": {}}',
                                  '{"modules": {"companion.chance": "x"}}'])
def test_a_manifest_that_does_not_read_is_refused(package, text):
    Path(compiled.manifest_path()).write_text(text)
    problems = compiled.check_build()
    assert problems and all(isinstance(p, str) for p in problems)


def _copy_of_the_package(tmp_path: Path) -> Path:
    root = tmp_path / "box"
    shutil.copytree(ROOT / "companion", root / "companion",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd",
                                                  compiled.MANIFEST))
    return root


def _run(root: Path, *args: str, code: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "companion",
                                                        *args]
    return subprocess.run(command, env=env, cwd=root, capture_output=True, text=True,
                          timeout=1800)


PROBE = """
import companion.chance, companion.games.entanglion.engine as engine
from companion.games import compiled
print(companion.chance.__file__.endswith('.py'), engine.__file__.endswith('.py'))
print(compiled.describe())
"""


def test_a_refused_build_is_never_imported_and_doctor_says_so(tmp_path):
    """Stand-in extensions that are not even ELF files: were one imported, the import
    would fail. Refused, the sources run, and doctor names the problem."""
    root = _copy_of_the_package(tmp_path)
    for module in compiled.MODULES:
        stem = root / Path(compiled.source_of(module)).relative_to(ROOT).with_suffix("")
        Path(str(stem) + SUFFIX).write_bytes(b"\x7fELF" + b"\0" * 60)  # truncated
    (root / "companion" / compiled.MANIFEST).write_text('{"modules": {}}')
    probe = _run(root, code=PROBE)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines()[0] == "True True"
    assert "refused" in probe.stdout and "not in the build's manifest" in probe.stdout
    doctor = _run(root, "doctor")
    assert doctor.returncode != 0 and doctor.returncode > 0  # a finding, not a signal
    assert "compiled engine on disk is not used, running pure Python" in doctor.stdout


def test_the_sim_alerts_and_plays_on_in_pure_python(tmp_path):
    root = _copy_of_the_package(tmp_path)
    stem = root / Path(compiled.source_of("companion.chance")).relative_to(ROOT)
    Path(str(stem.with_suffix("")) + SUFFIX).write_bytes(b"\x7fELF")
    script = tmp_path / "script.txt"
    script.write_text("show\n")
    sim = _run(root, "sim", "--state-dir", str(tmp_path / "state"), "--script", str(script))
    assert sim.returncode == 0, sim.stderr
    assert "compiled engine not used, running pure Python" in sim.stderr
    assert "rebuild: python -m companion.compile_engine" in sim.stderr


@pytest.mark.skipif(importlib.util.find_spec("Cython") is None,
                    reason="Cython is not installed (pip install '.[compiled]')")
@pytest.mark.skipif(os.environ.get("COMPANION_LONG") != "1",
                    reason="a real build takes minutes: COMPANION_LONG=1")
def test_a_real_build_truncated_or_made_from_old_sources_cannot_stop_doctor(tmp_path):
    root = _copy_of_the_package(tmp_path)
    built = _run(root, code="import sys; from companion import compile_engine; "
                 "sys.exit(compile_engine.main([]))")
    if built.returncode != 0 and "error: command" in built.stderr:
        pytest.skip("no C compiler: " + built.stderr.strip().splitlines()[-1])
    assert built.returncode == 0, built.stderr
    ok = _run(root, code=PROBE)
    assert ok.stdout.splitlines()[0] == "False False"  # the build runs
    assert "compiled with Cython" in _run(root, "doctor").stdout
    engine = root / "companion" / "games" / "entanglion" / "engine.py"
    so = Path(str(engine.with_suffix("")) + SUFFIX)
    so.write_bytes(so.read_bytes()[: so.stat().st_size // 2])
    doctor = _run(root, "doctor")
    assert doctor.returncode == 1, (doctor.returncode, doctor.stderr)  # not -SIGBUS
    assert "engine: the compiled file is damaged" in doctor.stdout
    probe = _run(root, code=PROBE)
    assert probe.returncode == 0 and probe.stdout.splitlines()[0] == "True True"


def test_run_logs_one_line_and_alerts_on_a_refused_build(monkeypatch, caplog):
    from companion import daemon

    monkeypatch.setattr(compiled, "_refused", ["engine: the compiled file is damaged"])
    with caplog.at_level("WARNING"):
        alerts = daemon.engine_build_alerts()
    assert len(alerts) == 1 and len(caplog.records) == 1
    assert "running pure Python" in caplog.text and "damaged" in caplog.text
    monkeypatch.setattr(compiled, "_refused", [])
    assert daemon.engine_build_alerts() == []
