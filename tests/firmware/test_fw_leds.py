"""The LED chain: brightness cap, whole frames, through the fake neopixel module."""

import fw_fakes
import pytest

from leds import Leds, scale


def make(count=4, brightness=255):
    return Leds(fw_fakes.Pin(16, fw_fakes.Pin.OUT), count, brightness)


def chain():
    return fw_fakes.state.neopixels[-1]


def test_scale_caps_every_channel():
    assert scale((255, 128, 0), 255) == (255, 128, 0)
    assert scale((255, 128, 0), 0) == (0, 0, 0)
    assert scale((255, 128, 1), 64) == (64, 32, 0)
    assert scale((255, 255, 255), 1) == (1, 1, 1)


@pytest.mark.parametrize("level", [0, 1, 17, 64, 128, 254, 255])
def test_scale_never_exceeds_the_cap_or_the_input(level):
    for value in range(256):
        (out, _, _) = scale((value, 0, 0), level)
        assert out <= value and out <= level
        assert abs(out - value * level / 255) <= 0.5


def test_a_frame_is_one_write():
    leds = make(brightness=128)
    leds.show([(255, 0, 0), (0, 255, 0), (0, 0, 255), (10, 20, 30)])
    assert chain().writes == [((128, 0, 0), (0, 128, 0), (0, 0, 128), (5, 10, 15))]


def test_new_brightness_re_renders_the_frame():
    leds = make(brightness=255)
    leds.show([(200, 100, 50)] * 4)
    leds.set_brightness(51)
    assert chain().writes[-1] == ((40, 20, 10),) * 4
    assert leds.frame == [(200, 100, 50)] * 4  # the host's colours are kept, uncapped


def test_wrong_length_and_range_are_refused():
    leds = make()
    with pytest.raises(ValueError):
        leds.show([(0, 0, 0)] * 3)
    with pytest.raises(ValueError):
        leds.set_brightness(256)
    assert chain().writes == []


def test_off_is_dark():
    leds = make()
    leds.show([(9, 9, 9)] * 4)
    leds.off()
    assert chain().writes[-1] == ((0, 0, 0),) * 4


def test_a_blink_alternates_its_two_frames_on_the_picos_clock():
    leds = make()
    on, off = [(255, 130, 0)] * 4, [(0, 0, 0)] * 4
    leds.blink(500, on, off, 1000)
    shown = []
    for now in range(1000, 3000, 100):
        leds.tick(now)
        shown.append(leds.frame == on)
    assert shown == [True] * 5 + [False] * 5 + [True] * 5 + [False] * 5
    assert len(chain().writes) == 4  # one write per change, not per tick


def test_a_frame_ends_a_blink():
    leds = make()
    leds.blink(500, [(9, 9, 9)] * 4, [(0, 0, 0)] * 4, 0)
    leds.show([(1, 2, 3)] * 4)
    leds.tick(600)
    assert leds.frame == [(1, 2, 3)] * 4


def test_a_blink_of_the_wrong_length_is_refused():
    leds = make()
    with pytest.raises(ValueError):
        leds.blink(500, [(0, 0, 0)] * 4, [(0, 0, 0)] * 3, 0)
    assert chain().writes == []
