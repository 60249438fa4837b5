"""The Pico's own blink (protocol 1.1) against the host's: what a player sees.

The daemon's loop on a made-up clock drives a move menu whose targets blink, once
with a Pico that can blink by itself (the box sends one BLINK line per pattern and
no tick is planned) and once with firmware 1.0 (a tick and an LED line every half
second). The LED states, sampled over time between the inputs, must be the same.
"""

import pytest

from companion.hardware import protocol
from companion.inputs import Tick

from test_daemon import Rig, gpio, start_game  # noqa: F401 - gpio is a fixture


class PicoLink:
    """The link as the LED sink sees it; each line kept with the time it went out."""

    def __init__(self, clock, can_blink):
        self.clock = clock
        self.can_blink = can_blink
        self.lines = []  # (time, first frame, second frame or None, half-period s)

    def send_leds(self, pixels):
        self.lines.append((self.clock(), tuple(pixels), None, None))

    def send_blink(self, first, second, period_ms):
        assert self.can_blink
        self.lines.append((self.clock(), tuple(first), tuple(second), period_ms / 1000))

    def set_brightness(self, level):
        pass

    def shown_at(self, when):
        """The frame on the chain at ``when``, as the firmware's timer shows it."""
        since, first, second, period = [line for line in self.lines if line[0] <= when][-1]
        if second is None or protocol.blink_shows_first(period, since, when):
            return first
        return second


def rig_with(tmp_path, gpio, can_blink):
    rig = Rig(tmp_path, gpio)
    rig.link = PicoLink(rig.clock, can_blink)
    rig.box.leds.link = rig.link
    rig.box.clock = rig.clock
    return rig


# (seconds of nobody touching the box, then a button): cursor moves between items
# with targets and without, at times that fall anywhere in a half-period (an odd
# number of half-periods between some of them, so the phase the blink resumes at counts).
SCRIPT = [(0.0, "OK"), (1.73, "DOWN"), (2.6, "DOWN"), (0.26, "UP"), (1.5, "DOWN"),
          (1.31, "DOWN"), (4.4, "BACK")]


def play(rig):
    start_game(rig)
    start = rig.clock.now
    for wait, button in SCRIPT:
        rig.settle(wait)
        rig.press(button)
    rig.settle(2.0)
    return start, rig.clock.now


def test_the_picos_blink_shows_what_the_hosts_ticks_showed(tmp_path, gpio):
    old = rig_with(tmp_path / "old", gpio, can_blink=False)
    start, end = play(old)
    gpio.reset()
    new = rig_with(tmp_path / "new", gpio, can_blink=True)
    assert play(new) == (start, end)  # the same inputs at the same times

    samples = [start + 0.013 + i * 0.05 for i in range(int((end - start) / 0.05) - 1)]
    shown_old = [old.link.shown_at(t) for t in samples]
    assert shown_old == [new.link.shown_at(t) for t in samples]
    assert len(set(shown_old)) >= 3  # unlit, and two different targets lit
    changes = sum(a != b for a, b in zip(shown_old, shown_old[1:]))
    assert changes >= 20  # it blinked all along (the samples span ~25 half-periods lit)

    blinks = [line for line in new.link.lines if line[2] is not None]
    host_lines = [line for line in old.link.lines if line[0] >= start]
    pico_lines = [line for line in new.link.lines if line[0] >= start]
    assert blinks and len(pico_lines) < len(host_lines) / 3  # a line per input, not per phase


def test_no_tick_is_planned_while_the_pico_blinks(tmp_path, gpio):
    rig = rig_with(tmp_path, gpio, can_blink=True)
    start_game(rig)
    rig.press("OK")
    rig.press("DOWN")
    assert rig.box._led_model.get("targets")
    assert rig.box.tick_interval() is None and rig.daemon._tick_at is None
    sent = len(rig.link.lines)
    rig.settle(30.0)
    assert len(rig.link.lines) == sent  # half a minute of blinking: not one line
    rig.box.handle(Tick())  # a stray tick (planned before the Pico said HELLO) sends nothing
    assert len(rig.link.lines) == sent


def test_old_firmware_or_a_lost_link_falls_back_to_the_hosts_ticks(tmp_path, gpio):
    rig = rig_with(tmp_path, gpio, can_blink=True)
    start_game(rig)
    rig.press("OK")
    rig.press("DOWN")
    assert rig.box.tick_interval() is None
    rig.link.can_blink = False  # a replug brought back firmware 1.0
    rig.box.refresh()  # as the daemon does on the link's "up"
    assert rig.box.tick_interval() == pytest.approx(0.5)
    sent = len(rig.link.lines)
    rig.settle(2.0)
    assert [line[2] for line in rig.link.lines[sent:]] == [None] * 4  # a frame per phase
    rig.link.can_blink = True  # and firmware 1.1 again
    rig.box.refresh()
    assert rig.link.lines[-1][2] is not None and rig.box.tick_interval() is None
