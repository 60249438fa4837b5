"""Sound cues: which screen changes beep, and the gpiozero buzzer on a mock pin."""

import time

import pytest

from companion.hardware.buzzer import GpioBuzzer, RecordingBuzzer, cue

ROLL = {"screen": "roll", "player": "Mercurial", "die": "entanglion", "purpose": "defence",
        "value": 7, "result": "DETECTED", "alarm": True}


def test_refused_input_blips():
    assert cue({"screen": "status"}, {"screen": "error", "text": "not your turn"}) == "refused"


def test_detection_beeps_once_when_the_die_lands():
    tumbling = {**ROLL, "frame": 3}
    landed = {**ROLL, "frame": None}
    assert cue({"screen": "status"}, tumbling) is None
    assert cue(tumbling, landed) == "detected"
    assert cue(landed, dict(landed)) is None  # a re-render is not a new roll
    assert cue({"screen": "text"}, landed) == "detected"  # straight to the result (OK skip)
    assert cue(tumbling, {**landed, "result": "evaded", "alarm": False}) is None


@pytest.mark.parametrize("result", ["won", "lost"])
def test_the_end_of_a_game_has_its_sound(result):
    end = {"screen": "end", "result": result}
    assert cue({"screen": "roll"}, end) == result
    assert cue(end, {**end, "turns": 9}) is None


def test_the_box_plays_cues_from_what_it_shows(tmp_path):
    from companion.box import Box
    from companion.hardware.display import dummy_display
    from companion.hardware.leds import RecordingLeds
    from companion.inputs import Tag
    from companion.journal import Journal
    from companion.registry import sim_registry
    from companion.session import Session

    with Journal(tmp_path / "j.db") as journal:
        buzzer = RecordingBuzzer()
        box = Box(Session(journal, sim_registry()), dummy_display(), RecordingLeds(), buzzer)
        assert buzzer.played == []  # starting up is silent
        box.handle(Tag(1, "04E10101010000"))  # a card tapped at the main menu
        assert buzzer.played == ["refused"]


def test_gpio_buzzer_beeps_in_the_background(gpio):
    buzzer = GpioBuzzer(12)
    buzzer.play("detected")
    def beeps():
        levels = [bool(s.state) for s in gpio.pin(12).states]
        return sum(1 for a, b in zip(levels, levels[1:]) if b and not a)

    deadline = time.monotonic() + 3
    while beeps() < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert beeps() == 2
    buzzer.close()
    assert not gpio.pin(12).state or gpio.pin(12).function == "input"


def test_a_qlanet_win_sounds_once():
    end = {"screen": "qlanet_end", "winners": [0]}
    assert cue({"screen": "text"}, end) == "won"
    assert cue(end, {**end, "moves": 3}) is None
