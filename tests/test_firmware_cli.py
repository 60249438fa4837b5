"""``companion firmware install|check`` against the fake Pico, with mpremote replaced."""

from types import SimpleNamespace

import pytest

from companion import firmware
from companion.hardware.fake_pico import FakePico


@pytest.fixture
def source():
    return firmware.source_dir()


def test_the_checkout_has_a_firmware_with_a_version(source):
    assert firmware.shipped_version(source).count(".") == 2
    names = [p.name for p in firmware.files(source)]
    assert names[0] == "protocol.py" and "main.py" in names and "mfrc522.py" in names


def test_install_copies_codec_and_modules_then_checks_hello(source, monkeypatch):
    monkeypatch.setattr(firmware, "mpremote", lambda: ["mpremote"])
    ran, said = [], []
    with FakePico(fw=firmware.shipped_version(source), hb_interval=0.2) as pico:
        status = firmware.install(pico.path, 115200, source, said.append,
                                  run=lambda cmd, check: ran.append(cmd) or
                                  SimpleNamespace(returncode=0))
    assert status == 0, said
    cmd = ran[0]
    assert cmd[:4] == ["mpremote", "connect", pico.path, "cp"]
    assert cmd[4].endswith("companion/hardware/protocol.py") and cmd[-3:] == [":", "+", "reset"]
    assert "up to date" in said[-1]


def test_install_reports_a_failed_copy(source, monkeypatch):
    monkeypatch.setattr(firmware, "mpremote", lambda: ["mpremote"])
    said = []
    with FakePico() as pico:
        status = firmware.install(pico.path, 115200, source, said.append,
                                  run=lambda cmd, check: SimpleNamespace(returncode=1))
    assert status == 1 and "raw repl" in said[-1]


def test_check_tells_an_old_pico_to_update(source):
    said = []
    with FakePico(fw="0.1.0", hb_interval=0.2) as pico:
        assert firmware.check(pico.path, 115200, source, said.append) == 1
    assert "runs firmware 0.1.0" in said[-1] and "companion firmware install" in said[-1]


def test_check_tells_a_pico_with_another_protocol_to_update(source):
    said = []
    with FakePico(proto="2", hb_interval=0.2) as pico:
        assert firmware.check(pico.path, 115200, source, said.append) == 1
    assert "protocol 2" in said[-1]


def test_a_missing_device_is_one_line(source, monkeypatch, tmp_path):
    monkeypatch.setattr(firmware, "mpremote", lambda: ["mpremote"])
    with pytest.raises(firmware.FirmwareError, match="cannot open"):
        firmware.install(str(tmp_path / "ttyACM9"), 115200, source, print)


def test_main_without_firmware_source_exits_2(tmp_path, capsys):
    assert firmware.main("check", None, str(tmp_path / "tty"), str(tmp_path)) == 2
    assert "no firmware in" in capsys.readouterr().err


def test_the_firmware_ships_inside_the_package():
    """pyproject lists every package by hand (so firmware/ can ship as companion.pico):
    a new package folder must be added there too."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    setup = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(root).parts)
               for p in (root / "companion").rglob("__init__.py")}
    assert set(setup["packages"]) == on_disk | {"companion.pico"}
    assert setup["package-dir"] == {"companion.pico": "firmware"}


def test_an_installed_copy_is_used_before_a_checkout(tmp_path, monkeypatch):
    installed = tmp_path / "site-packages" / "companion"
    (installed / "pico").mkdir(parents=True)
    (installed / "pico" / "main.py").write_text('FW_VERSION = "9.9"\n')
    monkeypatch.setattr(firmware, "__file__", str(installed / "firmware.py"))
    assert firmware.source_dir() == installed / "pico"
    assert firmware.shipped_version(firmware.source_dir()) == "9.9"
    (installed / "pico" / "main.py").unlink()
    with pytest.raises(firmware.FirmwareError, match="reinstall"):
        firmware.source_dir()
