"""The OLED adapter on luma's real SSD1306/SH1106 drivers over a fake I2C bus that
can fail: I2C errors are retried with back-off and never reach the game."""

import logging
from types import SimpleNamespace

import pytest
from PIL import Image, ImageDraw

from companion.hardware import display as display_module
from companion.hardware.display import Display
from companion.hardware.oled import FakeI2C, open_display, open_panel


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def cfg(**kw):
    base = dict(driver="ssd1306", bus="i2c", port=1, address=0x3C, spi_device=0, dc_pin=24,
                rst_pin=25, rotate=0, contrast=200, width=128, height=64)
    return SimpleNamespace(**{**base, **kw})


def picture(n):
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((0, 0), f"frame {n}", fill=1)
    return image


class Bus:
    """Hands out FakeI2C buses; each reopen gets a new one, as a new luma i2c would."""

    def __init__(self):
        self.buses = []
        self.fail_open = 0

    def __call__(self):
        bus = FakeI2C()
        self.buses.append(bus)
        if self.fail_open:
            self.fail_open -= 1
            bus.unplugged = True  # the driver's init commands fail
        return bus

    @property
    def current(self):
        return self.buses[-1]


@pytest.mark.parametrize("driver, data_calls", [("ssd1306", 1), ("sh1106", 8)])
def test_frames_go_out_only_when_changed(driver, data_calls):
    bus = Bus()
    d = open_display(cfg(driver=driver), Clock(), bus)
    assert bus.current.commands  # the driver initialised the panel (and contrast)
    cleared = bus.current.data_calls  # luma clears the panel at init
    assert d.show(picture(1)) and not d.show(picture(1))
    assert d.show(picture(2))
    assert d.frames_sent == 2
    assert bus.current.data_calls - cleared == 2 * data_calls


def test_an_i2c_error_is_retried_with_backoff_and_the_panel_reinitialised(caplog):
    clock, bus = Clock(), Bus()
    d = open_display(cfg(), clock, bus)
    d.show(picture(1))
    bus.current.unplugged = True
    with caplog.at_level(logging.WARNING):
        assert not d.show(picture(2))  # no exception: the game goes on
    assert "OLED" in caplog.text and "Remote I/O" in caplog.text
    assert d.failures == 1 and d.retry_at == pytest.approx(100.5)
    assert not d.show(picture(3))  # remembered, not sent
    assert not d.retry()  # not due yet
    delays = []
    for _ in range(4):  # still unplugged: new buses fail too (reopen re-runs init)
        clock.now = d.retry_at
        bus.fail_open = 1
        assert not d.retry()
        delays.append(round(d.retry_at - clock.now, 3))
    assert delays == [1.0, 2.0, 4.0, 8.0]
    clock.now = d.retry_at
    assert d.retry()  # wire back: a fresh driver init, then the newest frame
    assert d.failures == 0 and d.retry_at is None
    assert d.image.tobytes() == picture(3).tobytes()
    assert bus.current.data_calls == 2  # luma's clear at init, then our frame
    assert not d.show(picture(3))  # and the change filter works again


def test_backoff_is_capped():
    clock, bus = Clock(), Bus()
    d = open_display(cfg(), clock, bus)
    bus.current.unplugged = True
    d.show(picture(1))
    for _ in range(20):
        clock.now = d.retry_at
        bus.fail_open = 1
        d.retry()
    assert d.retry_at - clock.now == display_module.MAX_BACKOFF


def test_a_panel_missing_at_start_does_not_stop_the_box():
    clock = Clock()
    opened = []

    def opener():
        if len(opened) < 2:
            opened.append("fail")
            raise RuntimeError("I2C device not found on address: 0x3C")
        opened.append("ok")
        return open_panel(cfg(), FakeI2C())

    d = Display.open(opener, clock)
    assert d.device is None and d.failures == 1
    assert not d.show(picture(1))
    clock.now = d.retry_at
    assert not d.retry()
    clock.now = d.retry_at
    assert d.retry() and d.image.tobytes() == picture(1).tobytes()


def test_pause_leaves_the_picture_on_the_panel():
    bus = Bus()
    d = open_display(cfg(), Clock(), bus)
    d.show(picture(1))
    before = len(bus.current.commands)
    d.pause(picture(9))
    assert d.image.tobytes() == picture(9).tobytes()
    assert d.device.persist  # luma's atexit hook will not blank it
    assert bus.current.closed
    assert len(bus.current.commands) >= before  # no DISPLAYOFF sent at close
    assert (0xAE,) not in bus.current.commands[before:]


def test_close_without_pause_blanks_the_panel():
    bus = Bus()
    d = open_display(cfg(), Clock(), bus)
    d.close()
    assert (0xAE,) in bus.current.commands  # DISPLAYOFF: the default luma behaviour


def test_pause_on_a_dead_bus_does_not_raise():
    bus = Bus()
    d = open_display(cfg(), Clock(), bus)
    bus.current.unplugged = True
    d.pause(picture(1))  # logged, not raised


def test_driver_none_is_the_in_memory_display():
    d = open_display(cfg(driver="none"))
    assert d.show(picture(1)) and d.image.tobytes() == picture(1).tobytes()


def test_private_oleds_open_at_each_camps_bus_and_address(monkeypatch):
    from companion.config import OledConfig, PrivateOledConfig
    from companion.hardware import oled as oled_module

    opened = []
    monkeypatch.setattr(oled_module, "open_display",
                        lambda c, clock: opened.append((c.bus, c.port, c.address)) or c)
    shared = OledConfig(bus="spi", port=0, driver="sh1106")
    assert oled_module.open_private_displays(shared, PrivateOledConfig()) == {}
    displays = oled_module.open_private_displays(
        shared, PrivateOledConfig(addresses=(0x3D, 0x3C), ports=(1, 3)))
    assert opened == [("i2c", 1, 0x3D), ("i2c", 3, 0x3C)]
    assert displays[1].driver == "sh1106" and set(displays) == {0, 1}
