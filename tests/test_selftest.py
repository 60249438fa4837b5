"""``companion selftest`` on fake devices: pattern, chase, echo, verdict."""

import io
import queue
from types import SimpleNamespace

from companion import selftest
from companion.hardware.buttons import Classifier, Edge
from companion.hardware.leds import RecordingLeds
from companion.hardware.fake_bus import FakeBuses
from companion.hardware.oled import open_display
from companion.inputs import Tag
from companion.registry import sim_registry
from companion.views.leds import PIXEL_COUNT

OLED = SimpleNamespace(driver="ssd1306", bus="i2c", port=1, address=0x3C, rotate=0,
                       contrast=255, width=128, height=64)


class Clock:
    """Every look at the clock costs 0.25 s, so the echo loop always moves on."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.25
        return self.now


class Events:
    """A queue that never blocks: the test preloads every input."""

    def __init__(self, items):
        self.items = list(items)

    def get(self, timeout=None):
        if not self.items:
            raise queue.Empty
        return self.items.pop(0)


def rig(buses=None, link=None):
    clock = Clock()
    if buses is None:
        buses = FakeBuses(clock)
        buses.i2c_panel()
    display = open_display(OLED, clock, buses)
    return SimpleNamespace(display=display, leds=RecordingLeds(), link=link), clock


def test_pattern_chase_and_echo_until_back_is_held():
    devices, clock = rig()
    events = Events([Edge("OK", True, 1.0), Edge("OK", False, 1.1),
                     Tag(2, "04E10102030000"), Tag(1, "04FFFFFFFFFFFF"),
                     Edge("BACK", True, 2.0)])
    out = io.StringIO()
    status = selftest.run(devices, events, Classifier(0.8, 0.03), sim_registry(), 60, out,
                          sleep=lambda s: None, clock=clock)
    text = out.getvalue()
    assert status == 0
    assert "OLED: test pattern sent" in text
    assert "LED  0: ZERO" in text and "LED 23: track space 12" in text
    assert "button OK" in text and "pad 2: CNOT" in text and "pad 1: 04FFFFFFFFFFFF" in text
    assert "all outputs answered" in text
    frames = devices.leds.frames
    assert len(frames) == PIXEL_COUNT + 4
    assert [sum(1 for p in f if p != (0, 0, 0)) for f in frames[:PIXEL_COUNT]] == \
        [1] * PIXEL_COUNT  # exactly one pixel each, in turn
    assert set(frames[-1]) == {(0, 0, 0)}
    # the pattern, one screen per chased pixel, then one echo screen per input
    assert devices.display.frames_sent == 1 + PIXEL_COUNT + 3


def test_a_dead_oled_or_a_silent_co_processor_fails_the_selftest():
    buses = FakeBuses()
    buses.i2c_panel()
    devices, clock = rig(buses)
    buses.i2c[1].down = True
    out = io.StringIO()
    assert selftest.run(devices, Events([]), Classifier(), None, 1, out,
                        sleep=lambda s: None, clock=clock) == 1
    assert "OLED: FAILED" in out.getvalue()

    devices, clock = rig(link=SimpleNamespace(state="down", hello=None))
    out = io.StringIO()
    assert selftest.run(devices, Events([]), Classifier(), None, 1, out,
                        sleep=lambda s: None, clock=clock) == 1
    assert "no HELLO (state down)" in out.getvalue()


def test_the_pattern_uses_the_whole_panel():
    image = selftest.test_pattern()
    assert image.getpixel((0, 0)) and image.getpixel((127, 63))
    assert image.size == (128, 64)


def test_the_chase_follows_the_led_map_and_names_each_pixel(tmp_path):
    import json

    from companion.hardware.leds import FirmwareLeds, load_led_map
    from companion.views.leds import PIXELS

    class Link:
        frames = []

        def send_leds(self, pixels):
            self.frames.append(list(pixels))

        def set_brightness(self, level):
            pass

    path = tmp_path / "map.json"
    path.write_text(json.dumps({"chain": [None] + list(reversed(PIXELS))}))
    link = Link()
    devices, clock = rig()
    devices.leds = FirmwareLeds(link, load_led_map(path))
    out = io.StringIO()
    selftest.run(devices, Events([]), Classifier(), None, 1, out, sleep=lambda s: None,
                 clock=clock)
    lit = [[i for i, p in enumerate(f) if p != (0, 0, 0)] for f in link.frames[:PIXEL_COUNT]]
    assert lit == [[n] for n in range(1, PIXEL_COUNT + 1)]  # physical positions in turn
    assert out.getvalue().splitlines()[1] == "LED  0: track space 12"


def test_the_chase_lights_every_pixel_of_the_shipped_map_turn_pixel_included():
    from companion.hardware.leds import FirmwareLeds, default_led_map_path, load_led_map

    class Link:
        frames = []

        def send_leds(self, pixels):
            self.frames.append(list(pixels))

        def set_brightness(self, level):
            pass

    chain = load_led_map(default_led_map_path())
    link = Link()
    devices, clock = rig()
    devices.leds = FirmwareLeds(link, chain)
    out = io.StringIO()
    assert selftest.run(devices, Events([]), Classifier(), None, 1, out,
                        sleep=lambda s: None, clock=clock) == 0
    lit = [[i for i, p in enumerate(f) if p != (0, 0, 0)] for f in link.frames[:len(chain)]]
    assert lit == [[n] for n in range(len(chain))]
    assert f"LED {len(chain) - 1:2}: turn" in out.getvalue()
