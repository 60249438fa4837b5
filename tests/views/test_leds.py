"""LED frame tests: the colour rules of the 24-pixel board and the turn pixel, one rule
at a time."""

from __future__ import annotations

import colorsys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.views import leds
from companion.views.leds import (
    BOTH_VIOLET,
    COMPONENT_DIM,
    HIGHLIGHT_WARM,
    LOST_RED,
    MERCURIAL_BLUE,
    OFF,
    OFF_FRAME,
    PIXELS,
    RUBICON_RED,
    TARGET_AMBER,
    WON_GREEN,
    blinking,
    entanglion_frame,
)

PLANETS = (
    "ZERO", "ONE", "PLUS", "MINUS",
    "OMEGA_ZERO", "OMEGA_ONE", "PSI_MINUS", "PHI_MINUS",
    "OMEGA_THREE", "OMEGA_TWO", "PHI_PLUS", "PSI_PLUS",
)  # fmt: skip
TRACK = tuple(f"track{n}" for n in range(1, 13))


def px(frame: tuple, name: str) -> tuple[int, int, int]:
    return frame[PIXELS.index(name)]


def planets_of(frame: tuple) -> tuple:
    return frame[:12]


def track_of(frame: tuple) -> tuple:
    return frame[12:24]


def assert_valid(frame: tuple) -> None:
    assert isinstance(frame, tuple) and len(frame) == leds.FRAME_LENGTH == 25
    for rgb in frame:
        assert isinstance(rgb, tuple) and len(rgb) == 3
        assert all(isinstance(c, int) and 0 <= c <= 255 for c in rgb)


def test_pixel_names_follow_planets_then_track() -> None:
    assert PIXELS == PLANETS + TRACK


def test_empty_model_is_all_off() -> None:
    assert entanglion_frame({}) == OFF_FRAME
    assert entanglion_frame({}, phase=7) == OFF_FRAME
    assert OFF_FRAME == ((0, 0, 0),) * 25
    assert not blinking({})


def test_named_colours_are_distinct_and_not_full_white() -> None:
    palette = (MERCURIAL_BLUE, RUBICON_RED, BOTH_VIOLET, COMPONENT_DIM, HIGHLIGHT_WARM, TARGET_AMBER, OFF)
    assert len(set(palette)) == len(palette)
    assert (255, 255, 255) not in palette
    assert max(COMPONENT_DIM) <= 40  # "dim"


@pytest.mark.parametrize("planet", PLANETS)
def test_ship_colours(planet: str) -> None:
    m = entanglion_frame({"ships": {"mercurial": planet, "rubicon": None}})
    r = entanglion_frame({"ships": {"mercurial": None, "rubicon": planet}})
    both = entanglion_frame({"ships": {"mercurial": planet, "rubicon": planet}})
    assert px(m, planet) == MERCURIAL_BLUE
    assert px(r, planet) == RUBICON_RED
    assert px(both, planet) == BOTH_VIOLET
    for frame in (m, r, both):
        assert_valid(frame)
        others = [rgb for name, rgb in zip(PIXELS, frame) if name != planet]
        assert set(others) == {OFF}


def test_ships_on_different_planets() -> None:
    frame = entanglion_frame({"ships": {"mercurial": "ZERO", "rubicon": "MINUS"}})
    assert px(frame, "ZERO") == MERCURIAL_BLUE
    assert px(frame, "MINUS") == RUBICON_RED
    assert frame.count(OFF) == 23  # with the turn pixel, dark: nobody's turn in the model


def test_component_dim_only_without_ship() -> None:
    components = ["OMEGA_ONE", "PHI_MINUS", "PSI_PLUS"]
    frame = entanglion_frame({"components": components})
    for name in PLANETS:
        assert px(frame, name) == (COMPONENT_DIM if name in components else OFF)

    both_on = entanglion_frame(
        {"components": components, "ships": {"mercurial": "PHI_MINUS", "rubicon": "PHI_MINUS"}}
    )
    assert px(both_on, "PHI_MINUS") == BOTH_VIOLET
    assert px(both_on, "OMEGA_ONE") == COMPONENT_DIM
    # Collected (no longer in the list) means dark.
    collected = entanglion_frame({"components": ["OMEGA_ONE"]})
    assert px(collected, "PHI_MINUS") == OFF


def test_highlight_is_steady_warm_white() -> None:
    model = {"highlight": ["OMEGA_TWO"], "components": ["OMEGA_TWO", "PSI_MINUS"]}
    frames = [entanglion_frame(model, phase) for phase in range(4)]
    assert all(px(f, "OMEGA_TWO") == HIGHLIGHT_WARM for f in frames)
    assert all(px(f, "PSI_MINUS") == COMPONENT_DIM for f in frames)
    assert len(set(frames)) == 1
    assert not blinking(model)


def test_targets_blink_with_phase() -> None:
    model = {
        "targets": ["ONE", "PSI_PLUS", "OMEGA_ZERO"],
        "ships": {"mercurial": "ONE", "rubicon": "PLUS"},
        "components": ["PSI_PLUS"],
    }
    assert blinking(model)
    even, odd = entanglion_frame(model, 0), entanglion_frame(model, 1)
    assert even != odd
    for name in ("ONE", "PSI_PLUS", "OMEGA_ZERO"):
        assert px(even, name) == TARGET_AMBER
    # Odd phase shows what the planet would show without being a target.
    assert px(odd, "ONE") == MERCURIAL_BLUE
    assert px(odd, "PSI_PLUS") == COMPONENT_DIM
    assert px(odd, "OMEGA_ZERO") == OFF
    without = dict(model, targets=[])
    assert odd == entanglion_frame(without, 0) == entanglion_frame(without, 1)
    # Non-targets never change; the cycle is two phases long, negative phases too.
    assert px(even, "PLUS") == px(odd, "PLUS") == RUBICON_RED
    assert entanglion_frame(model, 2) == even and entanglion_frame(model, -1) == odd


def test_blinking_only_when_phase_matters() -> None:
    assert not blinking({"ships": {"mercurial": "ZERO", "rubicon": "ONE"}, "detection": 4})
    assert not blinking({"targets": [], "result": None, "components": ["PHI_PLUS"]})
    assert blinking({"targets": ["PHI_PLUS"]})
    assert blinking({"result": "lost"})
    assert blinking({"result": "won"})


@pytest.mark.parametrize("space", range(1, 13))
def test_detection_lit_count(space: int) -> None:
    frame = entanglion_frame({"detection": space})
    assert_valid(frame)
    track = track_of(frame)
    assert [rgb != OFF for rgb in track] == [i < space for i in range(12)]
    assert set(planets_of(frame)) == {OFF}


def test_detection_none_is_off() -> None:
    assert entanglion_frame({"detection": None}) == OFF_FRAME


def test_detection_colours_progress_green_to_red() -> None:
    colours = track_of(entanglion_frame({"detection": 12}))
    assert colours[0] == (0, 255, 0)
    assert colours[-1] == (255, 0, 0)
    assert len(set(colours)) == 12
    hues = [colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] for rgb in colours]
    assert all(a > b for a, b in zip(hues, hues[1:]))  # strictly from green towards red
    reds = [rgb[0] for rgb in colours]
    greens = [rgb[1] for rgb in colours]
    assert reds == sorted(reds) and greens == sorted(greens, reverse=True)
    # A space's colour does not depend on how far the track is lit.
    for space in range(1, 13):
        assert track_of(entanglion_frame({"detection": space}))[:space] == colours[:space]


@pytest.mark.parametrize("bad", [0, 13, -1, True, 2.0, "3"])
def test_detection_out_of_range_raises(bad: object) -> None:
    with pytest.raises(ValueError):
        entanglion_frame({"detection": bad})


def test_lost_flashes_x() -> None:
    model = {"result": "lost", "detection": 12, "ships": {"mercurial": "OMEGA_TWO", "rubicon": "OMEGA_TWO"}}
    even, odd = entanglion_frame(model, 0), entanglion_frame(model, 1)
    assert px(even, "track12") == LOST_RED
    assert px(odd, "track12") == OFF
    assert track_of(even)[:11] == track_of(odd)[:11] == (LOST_RED,) * 11
    assert px(even, "OMEGA_TWO") == px(odd, "OMEGA_TWO") == BOTH_VIOLET  # where it ended


def test_won_is_a_light_show() -> None:
    model = {"result": "won", "detection": 3, "ships": {"mercurial": "PHI_PLUS", "rubicon": "PHI_PLUS"}}
    frames = [entanglion_frame(model, phase) for phase in range(12)]
    for frame in frames:
        assert_valid(frame)
        assert track_of(frame) == (WON_GREEN,) * 12
        assert len(set(planets_of(frame))) == 12  # a rainbow: every planet differs
    # It moves: consecutive phases differ and the show is a chase (a rotation).
    assert all(a != b for a, b in zip(frames, frames[1:]))
    first = planets_of(frames[0])
    assert planets_of(frames[1]) == first[1:] + first[:1]


@pytest.mark.parametrize(
    "model",
    [
        {"ships": {"mercurial": "PLUTO"}},
        {"components": ["ZERO", "NOPE"]},
        {"targets": ["phi_plus"]},
        {"highlight": ["X"]},
        {"result": "draw"},
    ],
)
def test_bad_models_raise(model: dict) -> None:
    with pytest.raises(ValueError):
        entanglion_frame(model)


planet_lists = st.lists(st.sampled_from(PLANETS), max_size=5, unique=True)
models = st.fixed_dictionaries(
    {},
    optional={
        "ships": st.fixed_dictionaries(
            {"mercurial": st.none() | st.sampled_from(PLANETS), "rubicon": st.none() | st.sampled_from(PLANETS)}
        ),
        "components": planet_lists,
        "highlight": planet_lists,
        "targets": planet_lists,
        "detection": st.none() | st.integers(1, 12),
        "result": st.sampled_from([None, "won", "lost"]),
    },
)


@given(models, st.integers(-100, 100))
def test_any_model_gives_a_valid_frame(model: dict, phase: int) -> None:
    frame = entanglion_frame(model, phase)
    assert_valid(frame)
    assert all(rgb != (255, 255, 255) for rgb in frame)  # full white never appears
    if not blinking(model):
        assert entanglion_frame(model, phase + 1) == frame


def test_pure_and_cheap_module_state() -> None:
    model = {"ships": {"mercurial": "ZERO", "rubicon": "ONE"}, "targets": ["PLUS"]}
    assert entanglion_frame(model, 4) == entanglion_frame(model, 4)
    assert model == {"ships": {"mercurial": "ZERO", "rubicon": "ONE"}, "targets": ["PLUS"]}
    assert leds.PIXEL_COUNT == 24


def test_the_turn_pixel_shows_whose_turn_it_is() -> None:
    """The pixel after the board: the colour of the ship to play, dark otherwise."""
    assert entanglion_frame({"turn": "mercurial"})[leds.TURN_INDEX] == leds.MERCURIAL_BLUE
    assert entanglion_frame({"turn": "rubicon"})[leds.TURN_INDEX] == leds.RUBICON_RED
    assert entanglion_frame({})[leds.TURN_INDEX] == OFF
    assert entanglion_frame({"turn": "rubicon"})[:24] == OFF_FRAME[:24]  # nothing else
    with pytest.raises(ValueError):
        entanglion_frame({"turn": "pluto"})
    assert leds.FRAME_PIXELS[leds.TURN_INDEX] == "turn" and "turn" not in leds.PIXELS
