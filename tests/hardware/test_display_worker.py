"""The OLED on its own thread (``companion run``): the game thread hands frames over and
never waits for the bus; the worker sends the newest, retries a failing panel when the
loop says it is due, and stops cleanly even on a stuck bus. Run over luma's real
driver and ``i2c`` interface on the fake kernel bus, as the box runs it."""

import logging
import threading

import pytest

from companion.daemon import WAKE, open_devices
from companion.hardware import display_worker
from companion.hardware.display import FIRST_BACKOFF
from companion.hardware.display_worker import DisplayWorker
from companion.hardware.fake_bus import FakeBuses
from companion.hardware.oled import open_display
from oled_rig import Clock, cfg, picture


def rig(wake=lambda: None):
    clock = Clock()
    buses = FakeBuses(clock)
    panel = buses.i2c_panel()
    wire = buses.i2c[1]
    display = open_display(cfg(), clock, buses)
    return DisplayWorker(display, wake), wire, panel, clock


def gate(wire):
    """Hold every transfer on ``wire`` until the returned event is set; the second
    event is set when a transfer is waiting."""
    go, waiting = threading.Event(), threading.Event()
    message = wire.message

    def held(address, payload):
        waiting.set()
        go.wait(10)
        message(address, payload)

    wire.message = held
    return go, waiting


def test_a_frame_reaches_the_glass_from_the_worker():
    worker, _, panel, _ = rig()
    try:
        assert worker.show(picture(1))
        assert worker.flush(5)
        assert panel.image().tobytes() == picture(1).tobytes()
        assert worker.display.frames_sent == 1 and worker.cpu > 0
    finally:
        worker.close()


def test_the_caller_goes_on_while_the_bus_is_busy_and_only_the_newest_frame_follows():
    worker, wire, panel, _ = rig()
    go, waiting = gate(wire)
    try:
        worker.show(picture(1))
        assert waiting.wait(5)  # the worker is on the bus with frame 1...
        for n in range(2, 30):  # ...while the game goes on: nothing here waits
            worker.show(picture(n))
        assert not worker.flush(0.05)
        go.set()
        assert worker.flush(5)
        # Frame 1, then only the last: a backlog of 27 stale frames never went out.
        assert worker.display.frames_sent == 2
        assert panel.image().tobytes() == picture(29).tobytes()
    finally:
        go.set()
        worker.close()


def test_a_failing_panel_is_retried_on_the_worker_when_the_loop_says_it_is_due():
    wakes = []
    worker, wire, panel, clock = rig(lambda: wakes.append(1))
    try:
        wire.down = True
        worker.show(picture(1))
        assert worker.flush(5)
        assert worker.display.failures == 1
        assert worker.due_at == clock.now + FIRST_BACKOFF
        assert not worker.retry()  # not due yet: nothing queued
        assert worker.flush(5) and not wakes
        wire.down = False
        clock.now += FIRST_BACKOFF
        worker.retry()
        assert worker.flush(5)
        assert worker.display.failures == 0 and wakes == [1]  # and the loop was woken
        assert panel.image().tobytes() == picture(1).tobytes()
    finally:
        worker.close()


def test_a_retry_on_its_way_is_not_asked_for_again(caplog):
    worker, wire, _, clock = rig()
    try:
        wire.down = True
        worker.show(picture(1))
        assert worker.flush(5)
        wire.down = False
        go, waiting = gate(wire)
        clock.now += FIRST_BACKOFF
        worker.retry()
        assert waiting.wait(5)
        # While it runs the loop sees nothing due (it would spin) and a second ask
        # queues nothing.
        assert worker.due_at is None
        worker.retry()
        go.set()
        with caplog.at_level(logging.INFO, logger="companion.hardware.display_worker"):
            assert worker.flush(5)
        assert "OLED frame restored" in caplog.text
        assert worker.due_at is not None  # the healthy panel's next refresh
    finally:
        worker.close()


def test_dimming_is_known_at_once_and_applied_on_the_worker():
    worker, _, panel, _ = rig()
    try:
        worker.show(picture(1))
        worker.dim(True)
        assert worker.dimmed
        assert worker.flush(5)
        assert panel.contrast == 1
        worker.dim(False)
        assert worker.flush(5) and panel.contrast == 200
    finally:
        worker.close()


def test_pause_sends_what_was_pending_then_leaves_its_frame_lit():
    worker, _, panel, _ = rig()
    worker.show(picture(1))
    worker.pause(picture(2))
    assert panel.lit and panel.image().tobytes() == picture(2).tobytes()
    assert not worker._thread.is_alive()


def test_close_on_a_stuck_bus_gives_up_waiting_and_leaves_the_device_alone(monkeypatch,
                                                                           caplog):
    monkeypatch.setattr(display_worker, "STOP_WAIT", 0.2)
    worker, wire, panel, _ = rig()
    go, waiting = gate(wire)
    try:
        worker.show(picture(1))
        assert waiting.wait(5)
        closes = wire.closes
        with caplog.at_level(logging.WARNING):
            worker.close()
        assert "did not take the last frame" in caplog.text
        assert wire.closes == closes  # the bus was not closed under the worker's feet
    finally:
        go.set()
    worker._thread.join(5)
    assert not worker._thread.is_alive()


def test_a_job_that_fails_unexpectedly_is_logged_and_the_others_go_on(monkeypatch, caplog):
    worker, wire, panel, _ = rig()
    go, waiting = gate(wire)
    try:
        monkeypatch.setattr(worker.display, "dim", lambda on: 1 / 0)
        worker.show(picture(1))
        assert waiting.wait(5)  # the worker is on the bus: what follows is one batch
        with caplog.at_level(logging.ERROR):
            worker.dim(True)
            worker.show(picture(2))
            go.set()
            assert worker.flush(5)
        assert "display thread's job failed" in caplog.text
        assert panel.image().tobytes() == picture(2).tobytes()  # the frame still went out
        worker.show(picture(3))
        assert worker.flush(5)
        assert panel.image().tobytes() == picture(3).tobytes()
    finally:
        go.set()
        worker.close()


@pytest.mark.parametrize("background", [False, True])
def test_companion_run_puts_its_oleds_on_workers_and_the_hands_on_commands_do_not(
        tmp_path, gpio, background):
    from companion import config as configuration

    path = tmp_path / "config.toml"
    path.write_text('[oled]\ndriver = "none"\n[reader]\nkind = "none"\n'
                    '[leds]\nsink = "none"\n'
                    f'[paths]\nstate_dir = "{tmp_path}"\n')
    put = []
    devices = open_devices(configuration.load(str(path)), put.append, background=background)
    try:
        assert isinstance(devices.display, DisplayWorker) == background
        if background:
            devices.display._wake()
            assert put == [WAKE]
    finally:
        devices.display.close()
        for close in devices.closers:
            close()


def test_a_paced_bus_sleeps_each_transfer_for_its_bits_at_the_clock(monkeypatch):
    """``Wire.hz`` (the benches' bus in real time): a transfer sleeps as long as its
    bits take at that clock, as the kernel's ioctl waits for the controller."""
    from companion.hardware import fake_bus

    slept = []
    monkeypatch.setattr(fake_bus.time, "sleep", slept.append)
    buses = FakeBuses()
    buses.i2c_panel()
    wire = buses.i2c[1]
    wire.hz = 400_000
    wire.message(0x3C, bytes([0x40]) + bytes(16))  # a data transfer of 16 bytes
    assert slept == [(9 * 18 + 2) / 400_000]
    wire.hz = 0
    wire.message(0x3C, bytes([0x40, 0]))
    assert len(slept) == 1  # unpaced: no time taken


def test_a_closed_worker_takes_nothing_more_and_flush_does_not_hang():
    worker, _, panel, _ = rig()
    worker.show(picture(1))
    worker.close()
    assert worker.display.frames_sent == 1  # what it had went out first
    assert not panel.lit  # then luma's cleanup switched the panel off, as a close does
    assert not worker.show(picture(2))
    worker.dim(True)
    worker.retry()
    assert worker.flush(5)
