"""The OLED adapter on luma's real factory, drivers and serial interfaces, over fake
kernel buses (a fake ``smbus2.SMBus``, ``spidev`` and ``RPi.GPIO``) with a simulated
panel behind them. Bus errors fail as Linux reports them; luma translates some into
its own exceptions; every one is retried with back-off and never reaches the game."""

import errno
import logging

import pytest

from companion.box import Box
from companion.hardware import display as display_module
from companion.hardware.fake_bus import FakeBuses
from companion.hardware.leds import RecordingLeds
from companion.hardware.oled import DRIVERS, open_display, open_panel
from companion.journal import Journal
from companion.registry import sim_registry
from companion.session import Session
from oled_rig import Clock, cfg, picture


def rig(driver="ssd1306", clock=None):
    clock = clock or Clock()
    buses = FakeBuses(clock)
    panel = buses.i2c_panel(driver)
    return open_display(cfg(driver=driver), clock, buses), buses.i2c[1], panel, clock


@pytest.mark.parametrize("driver", DRIVERS)
def test_every_driver_shows_our_frames_on_the_glass(driver):
    d, wire, panel, _ = rig(driver)
    assert panel.lit and panel.contrast == 200  # luma's init, then our contrast
    assert d.show(picture(1)) and not d.show(picture(1))  # unchanged: nothing sent
    assert panel.image().tobytes() == picture(1).tobytes()
    assert d.show(picture(2))
    assert panel.image().tobytes() == picture(2).tobytes()
    assert d.frames_sent == 2


def test_rotation_180_turns_the_picture_on_the_glass():
    buses = FakeBuses()
    panel = buses.i2c_panel()
    d = open_display(cfg(rotate=2), Clock(), buses)
    d.show(picture(3))
    assert panel.image().tobytes() == picture(3).rotate(180).tobytes()


def test_an_spi_panel_runs_through_lumas_spi_interface():
    buses = FakeBuses()
    panel = buses.spi_panel("sh1106", port=0, device=1, dc_pin=23)
    d = open_display(cfg(driver="sh1106", bus="spi", port=0, spi_device=1, dc_pin=23), Clock(),
                     buses)
    assert d.show(picture(4))
    assert panel.image().tobytes() == picture(4).tobytes()
    buses.spi[(0, 1)].down = True
    buses.spi[(0, 1)].errno = errno.EIO
    assert not d.show(picture(5)) and d.failures == 1


@pytest.mark.parametrize("code", [errno.EREMOTEIO, errno.EIO, errno.ENXIO, errno.ETIMEDOUT])
def test_every_linux_bus_error_is_a_display_fault(code, caplog):
    """luma raises DeviceNotFoundError (not an OSError) for EIO/EREMOTEIO on commands,
    and the raw OSError for the rest and for data: all of them are faults."""
    d, wire, panel, clock = rig()
    d.show(picture(1))
    wire.errno, wire.down = code, True
    with caplog.at_level(logging.WARNING):
        assert not d.show(picture(2))  # no exception: the game goes on
    assert "OLED" in caplog.text and d.failures == 1
    # A contrast change goes out as a command, where luma translates the error.
    with pytest.raises(Exception) as raised:
        d.device.contrast(10)
    assert not isinstance(raised.value, OSError) or code not in (errno.EIO, errno.EREMOTEIO)
    wire.down = False
    clock.now = d.retry_at
    assert d.retry() and panel.image().tobytes() == picture(2).tobytes()


def test_an_i2c_error_is_retried_with_backoff_and_the_panel_reinitialised(caplog):
    d, wire, panel, clock = rig()
    d.show(picture(1))
    wire.down = True
    panel.power_cycle()  # a brown-out: the panel comes back blank and unconfigured
    with caplog.at_level(logging.WARNING):
        assert not d.show(picture(2))
    assert "Remote I/O" in caplog.text
    assert d.failures == 1 and d.retry_at == pytest.approx(100.5)
    assert not d.show(picture(3))  # remembered, not sent
    assert not d.retry()  # not due yet
    delays = []
    for _ in range(4):  # still failing: every reopen's init fails too
        clock.now = d.retry_at
        assert not d.retry()
        delays.append(round(d.retry_at - clock.now, 3))
    assert delays == [1.0, 2.0, 4.0, 8.0]
    opens = wire.opens
    wire.down = False
    clock.now = d.retry_at
    assert d.retry()  # wire back: a fresh driver init, then the newest frame
    assert wire.opens == opens + 1 and d.failures == 0 and d.retry_at is None
    assert panel.lit and panel.image().tobytes() == picture(3).tobytes()
    assert d.image.tobytes() == picture(3).tobytes()
    assert not d.show(picture(3))  # and the change filter works again


def test_backoff_is_capped():
    d, wire, panel, clock = rig()
    wire.down = True
    d.show(picture(1))
    for _ in range(20):
        clock.now = d.retry_at
        d.retry()
    assert d.retry_at - clock.now == display_module.MAX_BACKOFF


def test_a_panel_missing_at_start_does_not_stop_the_box():
    clock = Clock()
    buses = FakeBuses(clock)
    d = open_display(cfg(), clock, buses)  # no /dev/i2c-1 yet (i2c not enabled)
    assert d.device is None and d.failures == 1
    assert not d.show(picture(1))
    clock.now = d.retry_at
    buses.i2c_panel(address=0x3D)  # the bus exists, but nobody answers at 0x3C
    assert not d.retry()
    panel = buses.i2c_panel()
    clock.now = d.retry_at
    assert d.retry() and panel.image().tobytes() == picture(1).tobytes()


def test_leds_never_wait_for_a_failing_oled(tmp_path):
    """The same inputs give the same LED frames whether or not the panel answers, and
    the panel catches up with the newest screen once it is back."""
    from bench.harness import command_event
    from companion.autoplay import AutoPlayer

    def play(failing):
        clock = Clock()
        buses = FakeBuses(clock)
        panel = buses.i2c_panel()
        leds = RecordingLeds()
        registry = sim_registry()
        box = Box(Session(Journal(tmp_path / f"{failing}.db"), registry, seed_source=lambda: 4),
                  open_display(cfg(), clock, buses), leds)
        buses.i2c[1].down = failing
        player = AutoPlayer(4)
        for _ in range(40):
            box.handle(command_event(registry, player.next_command(box.session)))
        return box, leds.frames, panel, buses, clock

    box, frames, panel, buses, clock = play(failing=True)
    assert box.display.failures and box.display.frames_sent == 1  # the first menu only
    assert play(failing=False)[1] == frames and len(frames) > 3
    buses.i2c[1].down = False
    clock.now = box.display.retry_at
    assert box.display.retry()
    assert panel.image().tobytes() == box.display.image.tobytes()


def test_pause_leaves_the_picture_on_the_panel():
    d, wire, panel, _ = rig()
    d.show(picture(1))
    d.pause(picture(9))
    assert d.image.tobytes() == picture(9).tobytes()
    assert panel.lit and panel.image().tobytes() == picture(9).tobytes()
    assert d.device.persist  # luma's atexit hook will not blank it
    assert wire.closes == wire.opens


def test_close_without_pause_blanks_the_panel():
    d, wire, panel, _ = rig()
    d.show(picture(1))
    d.close()
    assert not panel.lit  # DISPLAYOFF: the default luma behaviour


def test_pause_on_a_dead_bus_does_not_raise():
    d, wire, panel, _ = rig()
    wire.down = True
    d.pause(picture(1))  # logged, not raised


def test_driver_none_is_the_in_memory_display():
    d = open_display(cfg(driver="none"))
    assert d.show(picture(1)) and d.image.tobytes() == picture(1).tobytes()


def test_open_panel_builds_the_device_through_lumas_factory():
    buses = FakeBuses()
    buses.i2c_panel("sh1106", port=3, address=0x3D)
    device = open_panel(cfg(driver="sh1106", port=3, address=0x3D), buses)
    assert type(device).__name__ == "sh1106" and device.size == (128, 64)


def test_private_oleds_open_at_each_camps_bus_and_address():
    from companion.config import OledConfig, PrivateOledConfig
    from companion.hardware import oled as oled_module

    buses = FakeBuses()
    panels = [buses.i2c_panel("sh1106", 1, 0x3D), buses.i2c_panel("sh1106", 3, 0x3C)]
    shared = OledConfig(bus="spi", port=0, driver="sh1106")
    assert oled_module.open_private_displays(shared, PrivateOledConfig()) == {}
    displays = oled_module.open_private_displays(
        shared, PrivateOledConfig(addresses=(0x3D, 0x3C), ports=(1, 3)), buses=buses)
    assert set(displays) == {0, 1}
    for camp, panel in enumerate(panels):
        assert displays[camp].show(picture(camp))
        assert panel.image().tobytes() == picture(camp).tobytes()


def test_an_unchanged_screen_model_is_not_rendered_again(tmp_path, monkeypatch):
    """Idle ticks (a blinking LED) must not cost a render of the OLED picture."""
    from companion import box as box_module

    rendered = []
    real = box_module.oled.render
    monkeypatch.setattr(box_module.oled, "render", lambda m: rendered.append(m) or real(m))
    box = Box(Session(Journal(tmp_path / "j.db"), sim_registry()),
              open_display(cfg(driver="none")), RecordingLeds())
    assert len(rendered) == 1
    box.refresh()
    box.refresh()
    assert len(rendered) == 1
    box.session.alert("Hello", "a notice")
    box.refresh()
    assert len(rendered) == 2


def test_blank_switches_every_panel_off_and_reports_a_missing_one():
    from companion.config import Config, OledConfig, PrivateOledConfig
    from companion.hardware.oled import blank_panels

    buses = FakeBuses()
    shared, camp0 = buses.i2c_panel(), buses.i2c_panel(address=0x3D)
    config = Config(oled=OledConfig(), private_oled=PrivateOledConfig(addresses=(0x3D, 0x3E)))
    for panel in (shared, camp0):
        open_display(cfg(address=0x3C if panel is shared else 0x3D), buses=buses).show(
            picture(1))
        assert panel.lit
    failures = blank_panels(config, buses)
    assert not shared.lit and not camp0.lit
    assert len(failures) == 1 and failures[0].startswith("camp 1's OLED")
    assert blank_panels(Config(oled=OledConfig(driver="none"))) == []
