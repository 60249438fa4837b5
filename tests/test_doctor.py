"""``companion doctor`` against described machines: each problem comes with its fix."""

import errno
from pathlib import Path

import pytest

from companion import doctor
from companion.config import (Config, LedsConfig, LinkConfig, OledConfig, PathsConfig,
                              ReaderConfig)
from companion.doctor import FAIL, OK, WARN, System
from companion.registry import sim_registry


def system(tmp_path, **kw):
    dev = tmp_path / "dev"
    dev.mkdir(exist_ok=True)
    base = dict(user="companion", user_groups={"gpio", "i2c", "spi", "dialout"},
                group_exists=lambda g: True, model="Raspberry Pi 5 Model B Rev 1.0",
                environ={"GPIOZERO_PIN_FACTORY": "lgpio"}, i2c_probe=lambda port, a: None,
                service_active=lambda: False, hello_timeout=0.5, dev=dev)
    return System(**{**base, **kw})


def config(tmp_path, **kw):
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    base = dict(oled=OledConfig(driver="none"), reader=ReaderConfig(kind="none"),
                leds=LedsConfig(sink="none"), paths=PathsConfig(state_dir=str(state)))
    return Config(**{**base, **kw})


def findings(cfg, sys_):
    return [(f.level, f.what, f.fix) for f in doctor.check(cfg, sys_)]


def find(results, text):
    hits = [r for r in results if text in r[1]]
    assert hits, (text, results)
    return hits[0]


def test_missing_groups_each_get_the_usermod_fix(tmp_path):
    results = findings(config(tmp_path), system(tmp_path, user_groups={"gpio"}))
    level, what, fix = find(results, "not in group dialout")
    assert level == FAIL and fix.startswith("sudo usermod -aG dialout companion")
    assert find(results, "in group gpio")[0] == OK


def test_a_system_without_pi_groups_warns(tmp_path):
    results = findings(config(tmp_path), system(tmp_path, group_exists=lambda g: g != "spi"))
    assert find(results, "group spi does not exist")[0] == WARN


def test_root_is_told_to_run_as_the_service_user(tmp_path):
    results = findings(config(tmp_path), system(tmp_path, user="root"))
    assert "sudo -u companion" in find(results, "running as root")[2]


def test_the_wrong_pin_factory_on_a_pi_5_fails(tmp_path):
    results = findings(config(tmp_path),
                       system(tmp_path, environ={"GPIOZERO_PIN_FACTORY": "rpigpio"}))
    level, what, fix = find(results, "GPIOZERO_PIN_FACTORY=rpigpio")
    assert level == FAIL and "lgpio" in fix


def test_a_running_service_is_pointed_out_first(tmp_path):
    results = findings(config(tmp_path), system(tmp_path, service_active=lambda: True))
    assert results[0][0] == WARN and "systemctl stop companion" in results[0][2]


def test_i2c_off_means_raspi_config(tmp_path):
    results = findings(config(tmp_path, oled=OledConfig()), system(tmp_path))
    level, what, fix = find(results, "i2c-1 is missing")
    assert level == FAIL and "raspi-config nonint do_i2c 0" in fix


def test_an_spi_oled_needs_rpi_lgpio_and_spidev(tmp_path):
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "spidev0.0").touch()
    spi = OledConfig(bus="spi", port=0)
    results = findings(config(tmp_path, oled=spi),
                       system(tmp_path, spi_missing=lambda: "rpi-lgpio and spidev"))
    level, what, fix = find(results, "the SPI OLED needs rpi-lgpio and spidev")
    assert level == FAIL and "pip install 'rpi-lgpio>=0.6'" in fix and "install.sh" in fix
    results = findings(config(tmp_path, oled=spi), system(tmp_path, spi_missing=lambda: ""))
    assert find(results, "rpi-lgpio and spidev are installed")[0] == OK
    assert find(results, "spidev0.0 present")[0] == OK


@pytest.mark.parametrize("err, expect, fix", [
    (errno.EREMOTEIO, "nothing answers at 0x3c", "i2cdetect -y 1"),
    (errno.EBUSY, "is busy", "stop it"),
])
def test_an_oled_that_does_not_answer(tmp_path, err, expect, fix):
    def probe(port, address):
        raise OSError(err, "no")

    sys_ = system(tmp_path, i2c_probe=probe)
    (sys_.dev / "i2c-1").write_text("")
    level, what, got_fix = find(findings(config(tmp_path, oled=OledConfig()), sys_), expect)
    assert level == FAIL and fix in got_fix


def test_an_oled_that_answers(tmp_path):
    seen = []
    sys_ = system(tmp_path, i2c_probe=lambda port, a: seen.append((port, a)))
    (sys_.dev / "i2c-1").write_text("")
    results = findings(config(tmp_path, oled=OledConfig(address=0x3D)), sys_)
    assert find(results, "OLED answers at 0x3d")[0] == OK and seen == [(1, 0x3D)]


def test_co_processor_missing_then_present_and_saying_hello(tmp_path):
    from companion.hardware.fake_pico import FakePico

    cfg_missing = config(tmp_path, reader=ReaderConfig(),
                         link=LinkConfig(device=str(tmp_path / "nothing")))
    level, what, fix = find(findings(cfg_missing, system(tmp_path)), "is not there")
    assert level == FAIL and "99-companion.rules" in fix
    from companion.firmware import shipped_version, source_dir

    current = shipped_version(source_dir())
    with FakePico(readers=2, fw=current) as pico:
        cfg = config(tmp_path, reader=ReaderConfig(), link=LinkConfig(device=pico.path))
        level, what, _ = find(findings(cfg, system(tmp_path, hello_timeout=3)), "HELLO")
        assert level == OK and "up to date" in what
    with FakePico(readers=2, fw="0.9") as pico:  # an old Pico: update it
        cfg = config(tmp_path, reader=ReaderConfig(), link=LinkConfig(device=pico.path))
        level, what, fix = find(findings(cfg, system(tmp_path, hello_timeout=3)), "HELLO")
        assert level == WARN and "runs firmware 0.9" in what
        assert fix == "companion firmware install"


def test_a_serial_device_that_never_says_hello(tmp_path):
    import os
    import pty

    master, slave = pty.openpty()
    try:
        cfg = config(tmp_path, leds=LedsConfig(), link=LinkConfig(device=os.ttyname(slave)))
        level, what, fix = find(findings(cfg, system(tmp_path)), "no HELLO")
        assert level == FAIL and "flash the firmware" in fix
    finally:
        os.close(master)
        os.close(slave)


def test_rdm6300_readers_are_checked_per_pad(tmp_path):
    there = tmp_path / "ttyUSB0"
    there.write_text("")
    cfg = config(tmp_path, reader=ReaderConfig(kind="rdm6300",
                                               rdm6300=(str(there), str(tmp_path / "gone"))))
    results = findings(cfg, system(tmp_path))
    assert find(results, "pad 1 reader")[0] == OK
    assert find(results, "pad 2 reader")[0] == FAIL


def test_registry_states(tmp_path):
    cfg = config(tmp_path)
    assert find(findings(cfg, system(tmp_path)), "no tag registry")[2] == "companion enroll"
    Path(cfg.paths.registry_path).write_text("version = [")
    assert find(findings(cfg, system(tmp_path)), "tags.toml")[0] == FAIL
    sim_registry().save(cfg.paths.registry_path)
    assert find(findings(cfg, system(tmp_path)), "201 tags")[0] == OK


def test_main_prints_findings_and_fails_on_a_bad_config(tmp_path, capsys):
    bad = tmp_path / "config.toml"
    bad.write_text("[buttons]\nok = \"five\"\n")
    status = doctor.main(str(bad), system(tmp_path))
    out = capsys.readouterr()
    assert status == 1
    assert out.out.startswith("FAIL") and "line 2: buttons.ok" in out.out.splitlines()[0]
    assert "problem(s) found" in out.err


def test_main_all_good(tmp_path, capsys, monkeypatch):
    good = tmp_path / "config.toml"
    state = tmp_path / "state"
    state.mkdir()
    good.write_text(f'[oled]\ndriver = "none"\n[reader]\nkind = "none"\n[leds]\nsink = "none"\n'
                    f'[paths]\nstate_dir = "{state}"\n')
    sim_registry().save(state / "tags.toml")
    sys_ = system(tmp_path)
    (sys_.dev / "gpiochip0").write_text("")
    monkeypatch.setitem(__import__("sys").modules, "lgpio", object())  # as on a Pi
    monkeypatch.chdir(tmp_path)
    status = doctor.main(str(good), sys_)
    assert capsys.readouterr().err.strip() == "all good" and status == 0


def test_doctor_checks_the_journal_read_only(tmp_path):
    import sqlite3

    from companion.doctor import _journal
    from companion.journal import Journal

    path = tmp_path / "journal.db"
    assert [f.level for f in _journal(path)] == [OK]  # none yet
    with Journal(path) as j:
        gid = j.new_game("entanglion", 1, {})
        j.record(gid, {"card": "H", "do": "navigate"}, turns=1, status="playing")
    before = path.read_bytes()
    assert [f.level for f in _journal(path)] == [OK]
    assert path.read_bytes() == before  # read-only: nothing written
    with sqlite3.connect(path) as db:  # damage quick_check cannot see: a changed action
        db.execute("""UPDATE entries SET action = '{"card":"X","do":"navigate"}'""")
    findings = list(_journal(path))
    assert [f.level for f in findings] == [FAIL] and "checksums" in findings[0].what


def test_doctor_says_which_engine_build_runs_and_why_one_is_refused(monkeypatch):
    from companion.games import compiled

    monkeypatch.setattr(compiled, "_refused", ["engine: its source changed since the build"])
    (finding,) = doctor._engine_build()
    assert finding.level == FAIL and "source changed" in finding.what
    assert "pure Python" in finding.what
    assert "python -m companion.compile_engine" in finding.fix
    monkeypatch.setattr(compiled, "_refused", [])
    (finding,) = doctor._engine_build()
    assert finding.level == OK and "pure Python (no compiled build)" in finding.what