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
