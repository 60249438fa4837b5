"""What an OLED open leaves behind, and a panel that comes back from anything.

Real luma drivers and serial interfaces over the fake buses, which count the bus
files opened and closed. A panel unplugged all night is re-opened thousands of
times: every failed attempt must close its bus file and leave no exit hook behind.
A panel that loses its set-up without any bus error (a dip on its supply) must be
lit again with the current frame within ``REFRESH_EVERY``.
"""

import atexit
import threading
from types import SimpleNamespace

import pytest

from companion.hardware import display as display_module
from companion.hardware.display import DIM_CONTRAST, REFRESH_EVERY
from companion.hardware.fake_bus import FakeBuses, Panel
from companion.hardware.oled import blank_panels, open_display, open_panel
from oled_rig import Clock, cfg, picture

ATTEMPTS = 300


def unplugged(bus):
    """A bus whose panel is gone (I2C: nobody acknowledges its address; SPI: every
    transfer fails, as a panel on a broken wire)."""
    clock = Clock()
    buses = FakeBuses(clock)
    if bus == "i2c":
        buses.i2c_panel()
        wire = buses.i2c[1]
        saved = dict(wire.panels)
        wire.panels.clear()

        def replug():
            wire.panels.update(saved)
        return buses, wire, clock, replug, cfg()
    buses.spi_panel()
    wire = buses.spi[(0, 0)]
    wire.down = True

    def replug():
        wire.down = False
    return buses, wire, clock, replug, cfg(bus="spi", port=0)


@pytest.mark.parametrize("bus", ["i2c", "spi"])
def test_failed_reopens_close_every_bus_file_and_keep_no_exit_hook(bus):
    buses, wire, clock, replug, config = unplugged(bus)
    hooks, devices = atexit._ncallbacks(), display_module.open_devices()
    d = open_display(config, clock, buses)
    d.show(picture(1))
    for _ in range(ATTEMPTS):
        clock.now = d.retry_at
        assert not d.retry()
    assert wire.opens >= ATTEMPTS and wire.opens == wire.closes  # every one closed
    assert display_module.open_devices() == devices
    assert atexit._ncallbacks() <= hooks + 1  # at most the module's one exit handler
    replug()
    clock.now = d.retry_at
    assert d.retry()
    assert wire.opens == wire.closes + 1  # the one in use
    assert display_module.open_devices() == devices + 1
    d.close()
    assert wire.opens == wire.closes and display_module.open_devices() == devices


def test_devices_replaced_after_faults_are_released_too():
    clock = Clock()
    buses = FakeBuses(clock)
    buses.i2c_panel()
    wire = buses.i2c[1]
    devices = display_module.open_devices()
    d = open_display(cfg(), clock, buses)
    for n in range(50):  # a marginal wire: fail, re-open, recover, again and again
        d.show(picture(n))
        wire.fail_next = 1
        d.show(picture(n + 1000))
        clock.now = d.retry_at
        assert d.retry()
    assert wire.opens == wire.closes + 1
    assert display_module.open_devices() == devices + 1
    d.close()
    assert wire.opens == wire.closes


def test_the_exit_hooks_of_old_devices_do_not_blank_the_replugged_panel():
    """Paused at exit: the picture stays, whatever devices came and went before."""
    clock = Clock()
    buses = FakeBuses(clock)
    panel = buses.i2c_panel()
    wire = buses.i2c[1]
    d = open_display(cfg(), clock, buses)
    d.show(picture(1))
    wire.down = True
    d.show(picture(2))
    for _ in range(20):
        clock.now = d.retry_at
        d.retry()
    wire.down = False
    clock.now = d.retry_at
    assert d.retry()
    d.pause(picture(3))
    display_module._run_exit_hooks()  # what the interpreter runs at exit
    assert panel.lit and panel.image().tobytes() == picture(3).tobytes()


def test_a_device_open_at_exit_is_switched_off_by_its_hook():
    clock = Clock()
    buses = FakeBuses(clock)
    panel = buses.i2c_panel()
    d = open_display(cfg(), clock, buses)
    d.show(picture(1))
    assert panel.lit
    display_module._run_exit_hooks()  # a crash: nobody closed the display
    assert not panel.lit and buses.i2c[1].opens == buses.i2c[1].closes


def test_blank_panels_closes_what_it_opens_even_without_a_panel():
    config = SimpleNamespace(oled=cfg(), private_oled=SimpleNamespace(screens=lambda port: {}))
    clock = Clock()
    buses = FakeBuses(clock)
    buses.i2c_panel()
    wire = buses.i2c[1]
    wire.panels.clear()
    for _ in range(20):
        assert blank_panels(config, buses)  # reported, not raised
    assert wire.opens == wire.closes == 20


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("bus", ["i2c", "spi"])
def test_a_power_dip_without_an_error_heals_at_the_next_refresh(driver, bus):
    clock = Clock()
    buses = FakeBuses(clock)
    if bus == "i2c":
        panel = buses.i2c_panel(driver)
        config = cfg(driver=driver)
    else:
        panel = buses.spi_panel(driver)
        config = cfg(driver=driver, bus="spi", port=0)
    d = open_display(config, clock, buses)
    d.show(picture(1))
    d.dim(True)
    assert panel.lit and panel.image().tobytes() == picture(1).tobytes()
    panel.power_cycle()  # the rail dipped: off, blank, every setting at reset
    assert not panel.lit
    clock.now += REFRESH_EVERY / 2
    d.retry()
    assert not panel.lit  # not yet due: a healthy panel is not hammered
    assert d.due_at == pytest.approx(100.0 + REFRESH_EVERY)
    clock.now = d.due_at
    d.retry()
    assert panel.lit and panel.image().tobytes() == picture(1).tobytes()
    assert panel.contrast == DIM_CONTRAST  # as it was before the dip
    assert d.failures == 0 and d.refreshes == 1
    assert d.due_at == pytest.approx(clock.now + REFRESH_EVERY)
    d.show(picture(2))  # partial updates go on from what the refresh sent
    assert panel.image().tobytes() == picture(2).tobytes()


def test_a_refresh_sends_no_display_off_to_a_healthy_panel():
    clock = Clock()
    buses = FakeBuses(clock)
    buses.i2c_panel()
    d = open_display(cfg(), clock, buses)
    d.show(picture(1))
    offs = []
    command = Panel._command

    def watch(self, op, *args):
        offs.append(op == 0xAE and self.on)
        command(self, op, *args)
    Panel._command = watch
    try:
        clock.now = d.due_at
        d.retry()
    finally:
        Panel._command = command
    assert offs and not any(offs)


def test_a_refresh_that_fails_becomes_a_retry():
    clock = Clock()
    buses = FakeBuses(clock)
    panel = buses.i2c_panel()
    wire = buses.i2c[1]
    d = open_display(cfg(), clock, buses)
    d.show(picture(1))
    wire.down = True
    clock.now = d.due_at
    d.retry()
    assert d.failures == 1 and d.due_at == d.retry_at
    wire.down = False
    panel.power_cycle()
    clock.now = d.retry_at
    assert d.retry() and panel.image().tobytes() == picture(1).tobytes()


def test_a_stuck_bus_costs_each_retry_at_most_the_retry_wait():
    """SDA held low: each transfer hangs for the kernel's timeout. The re-open waits on
    its own thread; the loop's retry returns after ``retry_wait`` while it hangs."""
    clock = Clock()
    buses = FakeBuses(clock)
    panel = buses.i2c_panel()
    wire = buses.i2c[1]
    d = open_display(cfg(), clock, buses, retry_wait=0.01)
    d.show(picture(1))
    wire.fail_next = 1  # the fault is noticed (on the box: one timeout, once)
    d.show(picture(2))
    wire.stuck, wire.stuck_wait = True, 0.5
    clock.now = d.retry_at
    assert not d.retry()
    opening = d._opening
    assert opening is not None and not opening.done.is_set()  # returned while it hangs
    assert d.retry_at == pytest.approx(clock.now + 0.01)  # and looks again soon
    opening.done.wait(5)
    wire.stuck = False
    for _ in range(100):  # the hung attempt failed: back-off, then a fresh one
        clock.now = d.retry_at
        if d.retry():
            break
        if d._opening is not None:
            d._opening.done.wait(5)
    assert d.failures == 0 and panel.image().tobytes() == picture(2).tobytes()
    d.close()
    assert wire.opens == wire.closes


def test_closing_while_a_reopen_hangs_releases_what_it_opens_later():
    clock = Clock()
    buses = FakeBuses(clock)
    buses.i2c_panel()
    wire = buses.i2c[1]
    gate = threading.Event()
    opened = []

    def opener():
        gate.wait(5)
        device = open_panel(cfg(), buses)
        opened.append(device)
        return device
    devices = display_module.open_devices()
    d = display_module.Display(None, reopen=opener, clock=clock, retry_wait=0.01)
    d._failed(OSError("not yet"))
    clock.now = d.retry_at
    assert not d.retry()
    opening = d._opening
    d.close()
    gate.set()
    opening.done.wait(5)
    assert opened and wire.opens == wire.closes
    assert display_module.open_devices() == devices
