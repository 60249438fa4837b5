"""What pip puts in the wheel is the whole box: install.sh installs that wheel, so a
data file missing from it (the LED map once was: a symlink a file walk skipped) is a box
whose service never starts. Built here with the backend pyproject.toml names."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion import i18n
from companion.catalogs import CATALOGS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
# In the source tree, not needed by the installed box: translators' templates and the
# compiled engine's declarations (python -m companion.compile_engine reads them from a
# checkout).
NOT_SHIPPED = ("*.pot", "*.pxd", "*.c", "*.so", "*.pyc")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    pytest.importorskip("setuptools", reason="builds the wheel with setuptools")
    out = tmp_path_factory.mktemp("wheel")
    # A copy of what pyproject.toml packages, as install.sh builds from a copy: the
    # backend writes build/ and *.egg-info beside the sources.
    src = out / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so", "*.c")
    for folder in ("companion", "firmware"):
        shutil.copytree(ROOT / folder, src / folder, symlinks=True, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    build = ("import sys, setuptools.build_meta as backend\n"
             "print(backend.build_wheel(sys.argv[1]))")
    result = subprocess.run([sys.executable, "-c", build, str(out)], cwd=src,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    name = result.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(out / name) as whl:
        return {info.filename: whl.read(info) for info in whl.infolist()}


def test_the_packaged_led_map_is_a_file_not_a_link():
    packaged = PACKAGE / "data" / "led-map.json"
    assert not packaged.is_symlink(), "a symlink is left out by copies that walk files"
    assert packaged.read_bytes() == (ROOT / "hardware" / "led-map.json").read_bytes(), \
        "hardware/led-map.json changed: copy it to companion/data/led-map.json"


def test_no_symlinks_inside_the_package():
    links = [str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*") if p.is_symlink()]
    assert links == []


def test_the_wheel_holds_the_led_map(wheel):
    assert wheel["companion/data/led-map.json"] == (ROOT / "hardware" / "led-map.json").read_bytes()


def test_the_wheel_holds_every_catalog(wheel):
    for code in i18n.LANGUAGES:
        if code == i18n.DEFAULT:
            continue
        assert f"companion/locale/{code}/web.json" in wheel
        for name in CATALOGS:
            mo = f"companion/locale/{code}/LC_MESSAGES/{name}.mo"
            assert wheel.get(mo) == (ROOT / mo).read_bytes(), mo


def test_the_wheel_holds_every_file_of_the_package(wheel):
    """Anything added to companion/ later (a font, an asset) is caught if pyproject
    forgets it."""
    def shipped(path):
        return not any(path.match(pattern) for pattern in NOT_SHIPPED) \
            and "__pycache__" not in path.parts
    expected = {str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*")
                if p.is_file() and shipped(p.relative_to(ROOT))}
    assert sorted(expected - set(wheel)) == []


def test_the_wheel_holds_the_firmware(wheel):
    for source in (ROOT / "firmware").glob("*.py"):
        assert f"companion/pico/{source.name}" in wheel
