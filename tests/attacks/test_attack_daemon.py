"""A phone's presses through the daemon's own loop (its queue, its GPIO buttons): the
page cannot switch the box off by itself, and a burned PIN reaches the OLED."""

from __future__ import annotations

from companion import daemon as daemon_module
from companion.inputs import PinBurned, Press
from test_daemon import Rig, gpio  # noqa: F401 - gpio is the rig's fixture


def test_the_box_switches_off_for_a_phone_only_on_its_own_ok(tmp_path, gpio, monkeypatch):  # noqa: F811
    runtime = tmp_path / "run"
    runtime.mkdir()
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    rig = Rig(tmp_path, gpio)
    for button in ("UP", "OK", "DOWN", "OK", "OK", "OK"):  # "Yes, switch off", then insisting
        rig.events.put(Press(button, remote=True))
        rig.settle()
    assert not (runtime / daemon_module.POWER_OFF_FILE).exists() and not rig.daemon.stopping
    assert rig.screen()["title"] == "Switch off?"
    rig.press("OK")  # the box's own button, through GPIO
    assert (runtime / daemon_module.POWER_OFF_FILE).exists() and rig.daemon.powering_off


def test_a_burned_pin_wakes_the_box_and_says_so(tmp_path, gpio):  # noqa: F811
    rig = Rig(tmp_path, gpio)
    rig.events.put(PinBurned())
    rig.settle()
    assert rig.screen()["title"] == "Web PIN blocked"
    rig.press("OK")
    assert rig.screen()["screen"] == "menu"
