"""Nothing shared depends on a secret (docs/rules/qlanet.md#who-sees-what).

Two games that differ only in a hidden outcome (the hidden centre's state, or the code
of a BM) get exactly the same input events. Every shared output must be the same after
every event (the OLED image and its screen model, the LED frame, buzzer cues, the
number of frames sent and when the next animation tick is due) until a public event
reveals the difference; after it they must differ, which shows the comparison sees
what it should. Private OLEDs may differ, but only the owner's: the opponent's
private screen is shared information as far as the secret is concerned.
"""

from __future__ import annotations

import json
from typing import Any

from qlanet_rig import Rig, pin

from companion.inputs import BACK, DOWN, EXCHANGE, OK, UP, Hold, Release, Tick

OPENING = ["+", "+", "-", "-", "+", "-", "-", "+", "+"]


class Recorder(Rig):
    """A rig that keeps every event it was sent and the shared outputs after it."""

    def __init__(self, *args: Any, **kwargs: Any):
        self.events: list[Any] = []
        self.shared: list[tuple[Any, ...]] = []
        self.private_frames: dict[int, list[bytes]] = {}
        super().__init__(*args, **kwargs)

    def send(self, *events: Any) -> None:
        for e in events:
            self.events.append(e)
            self.box.handle(e)
            self.shared.append(self.outputs())
            for seat, display in self.private.items():
                self.private_frames.setdefault(seat, []).append(display.image.tobytes())

    def start(self) -> None:
        super().start()
        self.started = len(self.events)  # the menu presses and set-up notices so far

    def outputs(self) -> tuple[Any, ...]:
        box = self.box
        return (json.dumps(self.session.screen(), sort_keys=True), box.display.image.tobytes(),
                box.display.frames_sent, box.leds.last, len(box.leds.frames),
                tuple(self.buzzer.played), box.tick_interval(),
                tuple(d.frames_sent for d in self.private.values()))


def twin(tmp_path, monkeypatch, name: str, private=(), **position: Any) -> Recorder:
    pin(monkeypatch, **position)
    rig = Recorder(tmp_path / name, private=private)
    return rig


def replay_on(rig: Recorder, events: list[Any]) -> None:
    """A new QLANET game with the defaults, as the first rig started it, then ``events``
    (the first rig's events after its :meth:`Recorder.start`)."""
    rig.start()
    for e in events:
        rig.send(e)


def first_difference(a: list[Any], b: list[Any]) -> int | None:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)


def play_hidden_centre_game(rig: Recorder) -> int:
    """Moves the hidden centre around, tries illegal and cancelled moves, undoes one,
    peeks, blinks; returns how many events came before the revealing measurement."""
    rig.start()
    rig.play("Z", 5)  # camp 0
    rig.tap("BM")  # not in camp 1's hand: an error
    rig.press(OK)
    rig.play("CX0", 5, 1)  # camp 1: the hidden centre controls planet 1
    rig.tap("M")
    rig.send(Tick(), Tick(), Tick())  # the target blinks the same way in both games
    rig.press(DOWN, BACK)  # camp 0 changes its mind
    rig.play("X", 9)
    rig.play("SW", 5, 2)  # camp 1: the hidden state moves to planet 2
    rig.play("Z", 2)
    rig.send(Hold(BACK))  # undo the Z, then play it again
    rig.press(OK)
    rig.play("Z", 2)
    rig.press(EXCHANGE)
    rig.choose("Camp 0's secret")  # nobody knows the centre: the peek shows "?" too
    rig.send(Hold(EXCHANGE), Release(EXCHANGE))
    rig.press(OK, DOWN, UP)
    rig.play("H", 2)  # camp 0: + or - becomes 0 or 1, still unseen
    rig.play("X", 7)  # camp 1
    rig.tap("M")
    rig.choose("Planet 2  ?")
    before = len(rig.events)
    rig.press(OK)  # the measurement: now everyone sees it
    rig.dismiss()
    return before


def test_the_hidden_centre_never_shows_until_it_is_measured(tmp_path, monkeypatch):
    hands = [["Z", "H", "M", "X"], ["CX0", "SW", "Z", "X"]]
    a = twin(tmp_path, monkeypatch, "plus", planets=OPENING, hands=hands)
    before = play_hidden_centre_game(a)
    centre = OPENING[:4] + ["-"] + OPENING[5:]
    b = twin(tmp_path, monkeypatch, "minus", planets=centre, hands=hands)
    replay_on(b, a.events[a.started:])
    assert len(a.shared) == len(b.shared) and len(a.shared) > 60
    differ = first_difference(a.shared, b.shared)
    assert differ == before, (differ, before, a.events[differ or 0])
    assert a.game.state.fixed[1] != b.game.state.fixed[1]  # the reveal: F0 in one, F1 in other


def test_a_bm_secret_never_shows_on_shared_outputs_or_the_opponents_screen(tmp_path,
                                                                           monkeypatch):
    position = {"planets": OPENING, "hands": [["BM", "CX0", "M", "Z"], ["X", "X", "H", "Z"]],
                "options": {"bm_outcome": "uniform_secret"}}
    runs = []
    for code in ("Phi+", "Psi-"):
        rig = twin(tmp_path, monkeypatch, code, private=(0, 1), forced=[None, code],
                   **position)
        if runs:
            replay_on(rig, runs[0].events[runs[0].started:])
        else:
            rig.start()
            rig.play("BM", 4, 6)  # camp 0 alone learns the code
            rig.play("X", 1)
            rig.tap("CX0")  # camp 1 taps camp 0's card: an error, the same in both
            rig.press(OK)
            rig.play("X", 1)
            rig.play("CX0", 4, 6)  # camp 0 now knows planet 6 (0 or 1); the table sees ?
            rig.tap("M")
            rig.choose("Planet 6  ?")
            rig.before = len(rig.events)
            rig.press(OK)
            rig.dismiss()
        runs.append(rig)
    a, b = runs
    assert [x.game.state.bells[0]["code"] for x in runs] == ["Phi+", "Psi-"]
    assert first_difference(a.shared, b.shared) == a.before
    assert first_difference(a.private_frames[1], b.private_frames[1]) == a.before
    mine = first_difference(a.private_frames[0], b.private_frames[0])
    assert mine is not None and mine < a.before  # the owner's own screen does show it
    assert a.game.state.fixed[5] != b.game.state.fixed[5]


def test_errors_and_menus_only_ever_use_public_facts(tmp_path, monkeypatch):
    """Every card tapped on every planet menu in two hidden-centre games: the same
    texts, the same offers."""
    seen = []
    for centre in ("0", "1"):
        pin(monkeypatch, planets=OPENING[:4] + [centre] + OPENING[5:],
            hands=[["X", "H", "M", "BM"], ["CX0", "CX1", "SW", "Z"]])
        rig = Rig(tmp_path / centre)
        rig.start()
        out = []
        for name in ("X", "H", "M", "BM", "CX0", "Z"):
            rig.tap(name)
            out.append(rig.screen)
            rig.press(OK)
            out.append(rig.screen)
            rig.press(BACK)
        rig.press(OK)
        out.append(rig.screen)
        seen.append(out)
    assert seen[0] == seen[1]
