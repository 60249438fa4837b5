"""LED sinks: the firmware chain (through a recording link) and gpiozero on mock pins."""

import json

import pytest

from companion.hardware.leds import FirmwareLeds, GpioLeds, LedMapError, load_led_map
from companion.views.leds import (BOTH_VIOLET, COMPONENT_DIM, DETECTION_COLOURS, OFF,
                                  PIXEL_COUNT, PIXELS, TRACK_OFFSET, entanglion_frame)


class Link:
    def __init__(self):
        self.frames, self.brightness = [], []

    def send_leds(self, pixels):
        self.frames.append(list(pixels))

    def set_brightness(self, level):
        self.brightness.append(level)


MODEL = {"ships": {"mercurial": "ZERO", "rubicon": "ZERO"}, "components": ["PLUS"],
         "detection": 3}


def test_firmware_sink_sends_changed_frames_and_sets_brightness():
    link = Link()
    sink = FirmwareLeds(link, brightness=40)
    assert link.brightness == [40]
    frame = entanglion_frame(MODEL)
    assert sink.show(frame) and not sink.show(frame)
    assert link.frames == [list(frame[:PIXEL_COUNT])]  # no turn pixel in the default chain
    sink.close()
    assert link.frames[-1] == [OFF] * PIXEL_COUNT


def test_firmware_sink_can_leave_the_lights_on_at_exit():
    link = Link()
    sink = FirmwareLeds(link, off_at_exit=False)
    sink.show(entanglion_frame(MODEL))
    sink.close()
    assert len(link.frames) == 1


def test_the_led_map_reorders_the_chain(tmp_path):
    chain = list(reversed(PIXELS)) + [None]  # wired backwards, one spare at the end
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"chain": chain}))
    link = Link()
    sink = FirmwareLeds(link, load_led_map(path))
    frame = entanglion_frame(MODEL)
    sink.show(frame)
    sent = link.frames[0]
    assert len(sent) == PIXEL_COUNT + 1 and sent[-1] == OFF
    assert sent[PIXEL_COUNT - 1] == BOTH_VIOLET  # ZERO is last in the chain
    assert sent[0] == OFF  # track12 first, not lit at detection 3


def test_a_map_may_wire_the_turn_pixel(tmp_path):
    """The turn pixel is optional: a map that names it gets it, at most once."""
    path = tmp_path / "map.json"
    path.write_text(json.dumps({"chain": list(PIXELS) + ["turn"]}))
    link = Link()
    sink = FirmwareLeds(link, load_led_map(path))
    sink.show(entanglion_frame({**MODEL, "turn": "rubicon"}))
    assert len(link.frames[0]) == PIXEL_COUNT + 1 and link.frames[0][-1] == (255, 0, 0)
    path.write_text(json.dumps({"chain": list(PIXELS) + ["turn", "turn"]}))
    with pytest.raises(LedMapError, match="turn appears twice"):
        load_led_map(path)


@pytest.mark.parametrize("content, message", [
    ("nope", "not JSON"),
    ('{"chain": 3}', "expected"),
    ('{"chain": ["ZERO", "MARS"]}', "chain[1]: unknown pixel 'MARS'"),
    ('{"chain": ["ZERO", "ZERO"]}', "chain[1]: ZERO appears twice"),
    ('{"chain": ["ZERO"]}', "missing pixels: ONE"),
])
def test_bad_led_maps_are_one_line_errors(tmp_path, content, message):
    path = tmp_path / "map.json"
    path.write_text(content)
    with pytest.raises(LedMapError) as err:
        load_led_map(path)
    assert message in str(err.value) and str(path) in str(err.value)
    assert "\n" not in str(err.value)


def test_missing_led_map(tmp_path):
    with pytest.raises(LedMapError, match="cannot read"):
        load_led_map(tmp_path / "absent.json")


TRACK = [20, 21, 22, 23, 24, 25, 26, 27]  # an 8-LED bar for 12 spaces
PLANET_PINS = {"ZERO": 2, "ONE": 3, "PLUS": 4, "MINUS": 14, "PHI_PLUS": 15, "PHI_MINUS": 17,
               "PSI_PLUS": 18, "PSI_MINUS": 5, "OMEGA_ZERO": 6, "OMEGA_ONE": 7,
               "OMEGA_TWO": 8, "OMEGA_THREE": 9}
PLANETS = list(PLANET_PINS.values())


def lit(gpio, pins):
    return [gpio.pin(p).state for p in pins]


@pytest.mark.parametrize("space, on", [(None, 0), (1, 1), (6, 4), (12, 8)])
def test_gpio_track_bar_follows_the_detection_space(gpio, space, on):
    sink = GpioLeds(TRACK)
    sink.show(entanglion_frame({"detection": space}))
    assert lit(gpio, TRACK) == [1] * on + [0] * (8 - on)  # partly lit spaces round up
    sink.close()


def test_gpio_planets_are_dim_for_components_and_bright_for_ships(gpio):
    sink = GpioLeds(TRACK, PLANET_PINS)
    sink.show(entanglion_frame(MODEL))
    states = lit(gpio, PLANETS)
    assert states[0] == pytest.approx(max(BOTH_VIOLET) / 255)  # ZERO: both ships
    assert states[2] == pytest.approx(max(COMPONENT_DIM) / 255)  # PLUS: a component
    assert states[1] == 0
    sink.close()
    # Switched off, then released. Levels the sink wrote are floats (PWM); bools in
    # the history are the mock's own input/initial states.
    written = [[s.state for s in gpio.pin(p).states if not isinstance(s.state, bool)]
               for p in PLANETS]
    assert [(w or [0])[-1] for w in written] == [0] * 12  # (never lit: no float)
    assert all(gpio.pin(p).function == "input" for p in PLANETS)


def test_gpio_planets_follow_names_not_positions_and_brightness(gpio):
    """The board's planet order is not the config file's: pins go by planet name."""
    sink = GpioLeds(TRACK, PLANET_PINS, brightness=51)
    sink.show(entanglion_frame({"ships": {"mercurial": "OMEGA_THREE", "rubicon": "PSI_MINUS"}}))
    assert gpio.pin(PLANET_PINS["OMEGA_THREE"]).state == pytest.approx(255 / 255 * 51 / 255)
    assert gpio.pin(PLANET_PINS["PSI_MINUS"]).state == pytest.approx(51 / 255)
    assert sum(1 for p in PLANETS if gpio.pin(p).state) == 2
    sink.close()


def test_gpio_leds_off_at_exit_is_configurable(gpio):
    sink = GpioLeds(TRACK, off_at_exit=False)
    sink.show(entanglion_frame({"detection": 12}))
    sink.close()
    assert lit(gpio, TRACK) == [1] * 8


def test_gpio_lost_game_flashes_the_last_space(gpio):
    sink = GpioLeds(list(range(12, 24)))
    model = {"detection": 12, "result": "lost"}
    sink.show(entanglion_frame(model, 0))
    assert lit(gpio, range(12, 24)) == [1] * 12
    sink.show(entanglion_frame(model, 1))
    assert lit(gpio, range(12, 24)) == [1] * 11 + [0]
    sink.close()


def test_track_colours_are_what_the_frame_says():
    frame = entanglion_frame({"detection": 2})
    assert frame[TRACK_OFFSET:TRACK_OFFSET + 3] == (DETECTION_COLOURS[0], DETECTION_COLOURS[1],
                                                    OFF)
